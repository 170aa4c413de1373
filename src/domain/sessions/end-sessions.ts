import type { EntityManager } from '@mikro-orm/postgresql';
import { executeOwned } from '../../db/owned-sql.ts';
import { uuidOrNullSql } from '../../ids.ts';
import type { Issuers } from '../domains/surfaces.ts';
import { recordAuditPerRowThen, type AuditActor } from '../audit/audit.ts';
import { holdsGrantOfItsTenant, LIVE, sessionSnapshotSql } from './browser-sessions.ts';
import { cutoff, cutoffsParams, grantSignInsSql, LOGIN_TS, standsUnderPolicy, USED_AT, type PolicyCutoffs } from './grant-sign-ins.ts';
import { ISSUER_KEY, MODEL, PAYLOAD } from '../../db/oidc-model.ts';

/** The `after` of their `session.revoked` records. */
export type SessionEndReason =
  | 'single_session'
  | 'membership_removed'
  | 'tenant_deleted'
  | 'saml_logout'
  | 'password_reset'
  | 'password_changed'
  | 'signed_out_elsewhere'
  | 'user_suspended'
  | 'user_deleted'
  | 'sign_up_disowned'
  | 'client_deleted'
  | 'domain_deleted'
  | 'domain_unverified'
  | 'slug_changed'
  | 'auth_isolation_shared';

/** Sign-ins (`user_session as s` rows of the application) and what of them ends. */
export interface EndedSignIns {
  /** Which of the application's live rows (LIVE, asked by the statement: a row that is no sign-in ends unrecorded elsewhere or never). */
  readonly where: string;
  readonly params: readonly unknown[];
  /** `sign_in`: each row's tenant's grants in its browser session, which ends only when it holds no other grant;
   *  `browser_session`: every grant of the rows' browser sessions, and the sessions. */
  readonly ends: 'sign_in' | 'browser_session';
  /** More grants that end (`select … as id`); a browser session holding one loses it, and ends if it holds nothing else. */
  readonly grants?: { readonly sql: string; readonly params: readonly unknown[] };
  /** `sign_in` only: each browser session that stands is marked (revoked-sign-ins.ts): the tenant needs a credential again. */
  readonly credentialAgain?: boolean;
  /** The policy's, as the reads that list them (read before the transaction): what they do not list is not recorded as
   *  listed, and a grant the policy freed from its browser session is recorded under its own id. */
  readonly cutoffs: PolicyCutoffs;
}

/** Row `s`'s browser session stands under the cutoffs (two parameters), as the reads judge it (sessions.ts, underPolicy). */
const STANDS = `exists (select 1 from oidc_model as o join app_user as u on u.application_id = s.application_id and u.id = s.user_id
  where o.model = '${MODEL.Session}' and o.uid = s.op_session_uid and ${standsUnderPolicy('u.pool_id::text')})`;

/** Epoch seconds `seconds` as a timestamp to the millisecond, rounded as the reads round it (sessions.ts, endUnderPolicy). */
const atMillisecond = (seconds: string) => `(timestamptz 'epoch' + round((${seconds}) * 1000)::bigint * interval '1 millisecond')`;

/** Row `s`'s end as the reads list it (two parameters, the cutoffs): its stored end, or the policy's when sooner. */
const LISTED_END = `coalesce((select least(s.expires_at, ${atMillisecond(`${LOGIN_TS} + ${cutoff('absoluteSeconds')}`)}, ${atMillisecond(`${USED_AT} + ${cutoff('idleSeconds')}`)})
  from oidc_model as o join app_user as u on u.application_id = s.application_id and u.id = s.user_id
  where o.model = '${MODEL.Session}' and o.uid = s.op_session_uid limit 1), s.expires_at)`;

/** The sign-ins of the browser sessions that stand, marked in the statement that ends them. */
const MARKED = `
      marked as (insert into revoked_sign_in (application_id, op_session_uid, user_id, tenant_id, expires_at)
        select i.application_id, i.op_session_uid, i.user_id, i.tenant_id, coalesce(k.expires_at, 'infinity')
          from indexed as i join op_kept as k on k.uid = i.op_session_uid and k.account_id = i.user_id::text
         where i.tenant_id is not null
        on conflict (application_id, op_session_uid, user_id, tenant_id) do update set expires_at = excluded.expires_at),`;

/** `grants` end with their tokens, OP sessions left with none go; `changed` records each ended sign-in (`session.revoked`)
 *  and each other live grant ended that no ended row counts (`grant.revoked`), only what this statement deleted. */
function signInEndCtes(selected: EndedSignIns, reason: SessionEndReason | null, now: Date): { ctes: string; params: unknown[] } {
  const { grants } = selected;
  // The authorization's grant is of a selected row's tenant in its browser session: that row counts it.
  const ofARow = `exists (select 1 from indexed as i where i.op_session_uid = op.uid and i.user_id::text = op.payload->>'${PAYLOAD.accountId}'
          and i.tenant_id::text is not distinct from gt.payload->>'${PAYLOAD.tenantId}')`;
  const ofTheRows = selected.ends === 'browser_session' ? 'op.of_rows' : `op.of_rows and (g.id is null or ${ofARow})`;
  const signIns = grantSignInsSql('and g.id in (select id from extra_grants)', [], now, { clients: 'any', cutoffs: selected.cutoffs });
  const why = JSON.stringify(reason === null ? {} : { reason });
  return {
    ctes: `indexed as (select s.application_id, s.id, s.op_session_uid, s.user_id, s.tenant_id, ${STANDS} as stands, ${LISTED_END} as listed_end
        from user_session as s where @owner(s) and (${selected.where}) and ${LIVE}),
      extra_grants as (${grants === undefined ? 'select null::text as id where false' : grants.sql}),
      grant_sign_ins as (select gs.*, null::text as ip, null::text as user_agent, '{}'::text[] as methods from (${signIns.sql}) as gs),
      op as (select o.id, o.uid, o.payload, exists (select 1 from indexed as i where i.op_session_uid = o.uid and i.user_id::text = o.payload->>'${PAYLOAD.accountId}') as of_rows
        from oidc_model as o where o.model = '${MODEL.Session}' and o.id in (
          select o.id from oidc_model as o join indexed as i on i.op_session_uid = o.uid and i.user_id::text = o.payload->>'${PAYLOAD.accountId}' where o.model = '${MODEL.Session}'
          union select o.id from oidc_model as o where o.model = '${MODEL.Session}'
            and o.payload->>'${PAYLOAD.accountId}' in (select g.payload->>'${PAYLOAD.accountId}' from oidc_model as g where g.model = '${MODEL.Grant}' and g.id in (select id from extra_grants))
            and exists (select 1 from jsonb_each(o.payload->'${PAYLOAD.authorizations}') as a where a.value->>'${PAYLOAD.grantId}' in (select id from extra_grants)))),
      op_grant as (select op.id as op_id, op.uid, op.payload->>'${PAYLOAD.accountId}' as account_id, gt.payload->>'${PAYLOAD.tenantId}' as tenant_id,
          a.key as client_id, a.value->>'${PAYLOAD.grantId}' as grant_id,
          coalesce((${ofTheRows}) or a.value->>'${PAYLOAD.grantId}' in (select id from extra_grants), false) as ending, ${ofARow} as of_a_row
        from op cross join jsonb_each(op.payload->'${PAYLOAD.authorizations}') as a
        left join oidc_model as g on g.model = '${MODEL.Grant}' and g.id = a.value->>'${PAYLOAD.grantId}'
        left join oidc_model as gt on gt.model = '${MODEL.GrantTenant}' and gt.id = g.id),
      op_ended as (delete from oidc_model as o where o.model = '${MODEL.Session}' and o.id in (select id from op)
        and not exists (select 1 from op_grant where op_grant.op_id = o.id and not op_grant.ending) returning 1),
      op_kept as (update oidc_model as o set payload = jsonb_set(o.payload, '{${PAYLOAD.authorizations}}',
          (select jsonb_object_agg(k.client_id, o.payload->'${PAYLOAD.authorizations}'->k.client_id) from op_grant as k where k.op_id = o.id and not k.ending))
        where o.model = '${MODEL.Session}' and o.id in (select op_id from op_grant where ending) and o.id in (select op_id from op_grant where not ending)
        returning o.uid, o.payload->>'${PAYLOAD.accountId}' as account_id, o.expires_at),${selected.credentialAgain === true ? MARKED : ''}
      grants as (select grant_id as id from op_grant where ending and grant_id is not null union select id from extra_grants),
      tokens as (delete from oidc_model where (model = '${MODEL.Grant}' and id in (select id from grants)) or grant_id in (select id from grants) returning model, id, payload, expires_at),
      ended_rows as (delete from user_session as r using indexed where r.application_id = indexed.application_id and r.id = indexed.id
        returning r.id::text as target_id, r.tenant_id, indexed.stands, ${sessionSnapshotSql('r', 'indexed.listed_end')} as before,
          ?::jsonb || jsonb_build_object('grantsRevoked', (select count(distinct k.grant_id) from op_grant as k where k.ending and k.uid = r.op_session_uid
            and k.account_id = r.user_id::text and k.tenant_id is not distinct from r.tenant_id::text)) as after),
      ended_grants as (select t.id, t.payload, gt.payload->>'${PAYLOAD.tenantId}' as tenant_id from tokens as t left join oidc_model as gt on gt.model = '${MODEL.GrantTenant}' and gt.id = t.id
        where t.model = '${MODEL.Grant}' and (t.expires_at is null or t.expires_at > ?::timestamptz)),
      changed as (select 'session.revoked' as action, 'session' as target_type, target_id, tenant_id, before, after from ended_rows where stands
        union all select 'session.revoked', 'session', gs.id::text, gs.tenant_id, ${sessionSnapshotSql('gs')}, ?::jsonb || jsonb_build_object('grantsRevoked', 1)
          from grant_sign_ins as gs where gs.grant_id in (select id from ended_grants)
        union all select 'grant.revoked', 'grant', e.id, e.tenant_id::uuid, null::jsonb,
            jsonb_build_object('reason', ?::text, 'clientId', e.payload->>'${PAYLOAD.clientId}', 'userId', e.payload->>'${PAYLOAD.accountId}')
          from ended_grants as e where e.id in (select id from extra_grants)
            and e.id not in (select grant_id from op_grant where ending and of_a_row and grant_id is not null) and e.id not in (select grant_id from grant_sign_ins))`,
    params: [...cutoffsParams(selected.cutoffs), ...cutoffsParams(selected.cutoffs), ...selected.params, now, now, ...(grants?.params ?? []), ...signIns.params, why, now, why, reason ?? 'revocation'],
  };
}

/** In one statement, each recorded; `grants`: every grant ended, which the caller announces (grantsEnded) so that no
 *  instance answers for their tokens from memory once it commits; `browserSessions`: the OP's deleted. */
export async function endSignIns(
  em: EntityManager,
  actor: AuditActor,
  selected: EndedSignIns,
  reason: SessionEndReason | null,
): Promise<{ grants: string[]; browserSessions: number }> {
  const [row] = await recordAuditPerRowThen<{ grants: string[]; browser_sessions: number }>(
    em,
    actor,
    { action: 'session.revoked', targetType: 'session' },
    { tenantPerRow: true, actionPerRow: true, ...signInEndCtes(selected, reason, new Date()) },
    'select array(select id from grants) as grants, (select count(*) from op_ended)::int as browser_sessions',
  );
  return { grants: row?.grants ?? [], browserSessions: row?.browser_sessions ?? 0 };
}

/** The grants OP session `?` (its uid) of account `?` holds. */
const GRANTS_OF_OP_SESSION = `select a.value->>'${PAYLOAD.grantId}' from oidc_model as o cross join jsonb_each(o.payload->'${PAYLOAD.authorizations}') as a
  where o.model = '${MODEL.Session}' and o.uid = ?::text and o.payload->>'${PAYLOAD.accountId}' = ? and a.value->>'${PAYLOAD.grantId}' is not null`;

const browserSessionsOfUser = (userId: string, keptUid: string | null, cutoffs: PolicyCutoffs): EndedSignIns => ({
  where: 's.user_id = ? and s.op_session_uid is distinct from ?::text',
  params: [userId, keptUid],
  ends: 'browser_session',
  cutoffs,
});

/** Every sign-in and other grant (offline, a device's) of the user in the application, but OP session `keptUid`'s. */
export const ofUser = (userId: string, cutoffs: PolicyCutoffs, keptUid: string | null = null): EndedSignIns => ({
  ...browserSessionsOfUser(userId, keptUid, cutoffs),
  grants: {
    sql: `select g.id from oidc_model as g where g.model = '${MODEL.Grant}' and @owner(g) and g.payload->>'${PAYLOAD.accountId}' = ? and g.id not in (${GRANTS_OF_OP_SESSION})`,
    params: [userId, keptUid, userId],
  },
});

/** Sign-ins proven and not finished: answered interactions not resumed yet, and the proofs a step still holds (void
 *  once the user's count moves on: stillProven). */
export async function endProvenSignIns(em: EntityManager, applicationId: string, userId: string): Promise<void> {
  await em.execute(`delete from oidc_model where model = '${MODEL.Interaction}' and payload->'${PAYLOAD.result}'->'login'->>'${PAYLOAD.accountId}' = ?`, [userId], 'run');
  await executeOwned(em, applicationId, 'update app_user as u set sign_ins_ended = u.sign_ins_ended + 1 where @owner(u) and u.id = ?', [userId]);
}

/** What endUserSignIns ended in every tenant of the user (`tenantIds`, their memberships). */
export interface EndedUserSignIns {
  readonly grants: string[];
  readonly grantsRevoked: number;
  readonly sessionsEnded: number;
  readonly tenantIds: string[];
}

/** The counts for the record of the act that ended them, beside the tenants they were taken across: a reader shown only
 *  some of those tenants is shown no counts (audit/search.ts), which would tell of the other tenants' sessions. */
export const countsAcrossTenants = ({ tenantIds, grantsRevoked, sessionsEnded }: EndedUserSignIns) => ({ tenantIds, grantsRevoked, sessionsEnded });

/** ofUser's sign-ins, each recorded; then the rest no read lists (other OP sessions, index rows, endProvenSignIns).
 *  Counts: grants and OP sessions ended. */
export async function endUserSignIns(
  em: EntityManager,
  actor: AuditActor,
  userId: string,
  reason: SessionEndReason,
  cutoffs: PolicyCutoffs,
  keptUid: string | null = null,
): Promise<EndedUserSignIns> {
  const ended = await endSignIns(em, actor, ofUser(userId, cutoffs, keptUid), reason);
  // OP sessions name no application: a user id is one application's.
  const [rest] = await executeOwned<{ sessions: number; tenant_ids: string[] | null }[]>(
    em,
    actor.applicationId,
    `with sessions as (delete from oidc_model where model = '${MODEL.Session}' and payload->>'${PAYLOAD.accountId}' = ? and uid is distinct from ?::text returning 1),
       indexed as (delete from user_session where @owner and user_id = ? and op_session_uid is distinct from ?::text returning 1)
     select (select count(*) from sessions)::int as sessions, (select u.tenant_ids from app_user as u where @owner(u) and u.id = ?) as tenant_ids`,
    [userId, keptUid, userId, keptUid, userId],
  );
  await endProvenSignIns(em, actor.applicationId, userId);
  return { grants: ended.grants, grantsRevoked: ended.grants.length, sessionsEnded: ended.browserSessions + (rest?.sessions ?? 0), tenantIds: rest?.tenant_ids ?? [] };
}

/** `singleSession`: every other sign-in of the user in the application ends, grants no browser session holds (offline, a
 *  device's) included, as the sessions list shows them; OP session `keptUid` stays. */
export async function endOtherSessions(em: EntityManager, actor: AuditActor, userId: string, keptUid: string, cutoffs: PolicyCutoffs): Promise<string[]> {
  return (await endSignIns(em, actor, ofUser(userId, cutoffs, keptUid), 'single_session')).grants;
}

/** Every grant of the client (grant sign-ins, authorizations in browser sessions): a tenant's sign-in in a browser session
 *  ends when the client's grant was its only one. */
function ofClient(clientId: string, now: Date, cutoffs: PolicyCutoffs): EndedSignIns {
  const grants = `select g.id, g.payload->>'${PAYLOAD.accountId}' as account_id from oidc_model as g where g.model = '${MODEL.Grant}' and @owner(g) and g.payload->>'${PAYLOAD.clientId}' = ?`;
  return {
    // The rows of the client's users only, each by the user index.
    where: `s.user_id in (select ${uuidOrNullSql('c.account_id')} from (${grants}) as c) and not ${holdsGrantOfItsTenant(' and a.key <> ?')}`,
    params: [clientId, now, clientId],
    ends: 'sign_in',
    grants: { sql: `select c.id from (${grants}) as c`, params: [clientId] },
    cutoffs,
  };
}

/** A deleted client's grants end, each recorded (`client_deleted`), standing or gone; returns them for publishing. */
export async function endClientGrants(em: EntityManager, actor: AuditActor, clientId: string, cutoffs: PolicyCutoffs): Promise<string[]> {
  return (await endSignIns(em, actor, ofClient(clientId, new Date(), cutoffs), 'client_deleted')).grants;
}

/** Their sign-ins to those tenants (a browser session signed in to another tenant stays), and every grant signed in to
 *  them (a device's, or one whose row is gone), so the OP signs nobody in silently. `userId` null: every user. */
export async function endTenantSessions(
  em: EntityManager,
  actor: AuditActor,
  tenantIds: readonly string[],
  userId: string | null,
  cutoffs: PolicyCutoffs,
): Promise<string[]> {
  const theUser = userId === null ? '' : ' and s.user_id = ?';
  const grantOfUser =
    userId === null ? '' : ` and exists (select 1 from oidc_model as g where g.model = '${MODEL.Grant}' and g.id = gt.id and g.payload->>'${PAYLOAD.accountId}' = ?)`;
  const selected: EndedSignIns = {
    where: `s.tenant_id in (?)${theUser}`,
    params: [tenantIds, ...(userId === null ? [] : [userId])],
    ends: 'sign_in',
    grants: {
      sql: `select gt.id from oidc_model as gt where gt.model = '${MODEL.GrantTenant}' and @owner(gt) and gt.payload->>'${PAYLOAD.tenantId}' in (?)${grantOfUser}`,
      params: [tenantIds, ...(userId === null ? [] : [userId])],
    },
    cutoffs,
  };
  const ended = await endSignIns(em, actor, selected, userId === null ? 'tenant_deleted' : 'membership_removed');
  return ended.grants;
}

/** `column` (an issuer) is one of `issuers`, with its one parameter. */
function issuerOneOf(issuers: Issuers): { test: (column: string) => string; param: string } {
  return 'exactly' in issuers
    ? { test: (column) => `${column} = ?`, param: issuers.exactly }
    : { test: (column) => `starts_with(${column}, ?)`, param: issuers.startingWith };
}

/** The grants made at `issuers` (the issuer their payload records, or from before it did, one of their tokens'). */
function grantsMadeAt(issuers: Issuers): { sql: string; params: unknown[] } {
  const { test, param } = issuerOneOf(issuers);
  return {
    sql: `select g.id from oidc_model as g where g.model = '${MODEL.Grant}' and @owner(g) and (${test(`g.payload->>'${ISSUER_KEY}'`)}
    or exists (select 1 from oidc_model as k where k.grant_id = g.id and k.model <> '${MODEL.Grant}' and ${test(`k.payload->>'${ISSUER_KEY}'`)}))`,
    params: [param, param],
  };
}

/** The browser sessions made at `issuers` (a cookie is its host's and path's: every grant in one was made there) and
 *  the grants made there. */
function madeAt(issuers: Issuers, cutoffs: PolicyCutoffs): EndedSignIns {
  const { test, param } = issuerOneOf(issuers);
  const grants = grantsMadeAt(issuers);
  return {
    where: `exists (select 1 from oidc_model as o where o.model = '${MODEL.Session}' and o.uid = s.op_session_uid and o.payload->>'${PAYLOAD.accountId}' = s.user_id::text
      and (${test(`o.payload->>'${ISSUER_KEY}'`)} or exists (select 1 from jsonb_each(o.payload->'${PAYLOAD.authorizations}') as a where a.value->>'${PAYLOAD.grantId}' in (${grants.sql}))))`,
    params: [param, ...grants.params],
    ends: 'browser_session',
    grants,
    cutoffs,
  };
}

/** Surfaces that end (a domain deleted, a slug renamed, the tenants' paths of an application gone shared) end what was
 *  signed in there in the application, each recorded, and the browser sessions there that hold no grant: served again,
 *  they must not revive them. Returns the grants ended, for publishing. */
export async function endSurfaceSignIns(
  em: EntityManager,
  actor: AuditActor,
  issuers: Issuers,
  reason: 'domain_deleted' | 'domain_unverified' | 'slug_changed' | 'auth_isolation_shared',
  cutoffs: PolicyCutoffs,
): Promise<string[]> {
  const ended = await endSignIns(em, actor, madeAt(issuers, cutoffs), reason);
  const { test, param } = issuerOneOf(issuers);
  // OP sessions name no application: those of its users.
  await executeOwned(
    em,
    actor.applicationId,
    `delete from oidc_model where model = '${MODEL.Session}' and ${test(`payload->>'${ISSUER_KEY}'`)} and payload->>'${PAYLOAD.accountId}' in (select id::text from app_user where @owner)`,
    [param],
  );
  return ended.grants;
}
