import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAuditPerRow, type AuditActor } from '../audit.ts';
import { sessionSnapshotSql } from './browser-sessions.ts';

/** The `after` of their `session.revoked` records. */
export type SessionEndReason = 'single_session' | 'membership_removed' | 'tenant_deleted' | 'saml_logout';

/** Sign-ins (`user_session as s` rows of the application) and what of them ends. */
export interface EndedSignIns {
  readonly where: string;
  readonly params: readonly unknown[];
  /**
   * `sign_in`: each row's tenant's grants in its browser session, which ends only when it holds no other grant (another
   * tenant's sign-in stands); `browser_session`: every grant of the rows' browser sessions, and the sessions.
   */
  readonly ends: 'sign_in' | 'browser_session';
  /** More grants that end (`select … as id`), made in those sessions or not. */
  readonly grants?: { readonly sql: string; readonly params: readonly unknown[] };
  /**
   * `sign_in` only: each browser session that stands is marked (revoked-sign-ins.ts), so that it signs the row's user in
   * to the row's tenant again only with a credential.
   */
  readonly credentialAgain?: boolean;
}

/** The sign-ins of the browser sessions that stand, marked in the statement that ends them. */
const MARKED = `
      marked as (insert into revoked_sign_in (application_id, op_session_uid, user_id, tenant_id, expires_at)
        select i.application_id, i.op_session_uid, i.user_id, i.tenant_id, coalesce(k.expires_at, 'infinity')
          from indexed as i join op_kept as k on k.uid = i.op_session_uid and k.account_id = i.user_id::text
         where i.tenant_id is not null
        on conflict (application_id, op_session_uid, user_id, tenant_id) do update set expires_at = excluded.expires_at),`;

/**
 * The CTEs that end them, in one statement: `grants` (ids) end with every token issued under them, the OP sessions left
 * with none are deleted and the others lose those authorizations (and are marked: `credentialAgain`), and `changed`
 * deletes the rows (`target_id`, `tenant_id`, `before`: the session as the API shows it, `after`: the `after` SQL);
 * `tokens` returns the OP rows this statement deleted (`model`, `id`, `payload`, `expires_at`).
 * `@owner` is the application.
 */
export function signInEndCtes(selected: EndedSignIns, after: { readonly sql: string; readonly params: readonly unknown[] }): { ctes: string; params: unknown[] } {
  const { grants } = selected;
  const ofTheRows =
    selected.ends === 'browser_session'
      ? 'true'
      : `g.id is null or exists (select 1 from indexed as i where i.op_session_uid = op.uid and i.user_id::text = op.payload->>'accountId'
          and i.tenant_id::text is not distinct from gt.payload->>'tenantId')`;
  return {
    ctes: `indexed as (select s.application_id, s.id, s.op_session_uid, s.user_id, s.tenant_id from user_session as s where @owner(s) and ${selected.where}),
      extra_grants as (${grants === undefined ? 'select null::text as id where false' : grants.sql}),
      op as (select o.id, o.uid, o.payload from oidc_model as o where o.model = 'Session'
        and exists (select 1 from indexed as i where i.op_session_uid = o.uid and i.user_id::text = o.payload->>'accountId')),
      op_grant as (select op.id as op_id, a.key as client_id, a.value->>'grantId' as grant_id,
          coalesce((${ofTheRows}) or a.value->>'grantId' in (select id from extra_grants), false) as ending
        from op cross join jsonb_each(op.payload->'authorizations') as a
        left join oidc_model as g on g.model = 'Grant' and g.id = a.value->>'grantId'
        left join oidc_model as gt on gt.model = 'GrantTenant' and gt.id = g.id),
      op_ended as (delete from oidc_model as o where o.model = 'Session' and o.id in (select id from op)
        and not exists (select 1 from op_grant where op_grant.op_id = o.id and not op_grant.ending) returning 1),
      op_kept as (update oidc_model as o set payload = jsonb_set(o.payload, '{authorizations}',
          (select jsonb_object_agg(k.client_id, o.payload->'authorizations'->k.client_id) from op_grant as k where k.op_id = o.id and not k.ending))
        where o.model = 'Session' and o.id in (select op_id from op_grant where ending) and o.id in (select op_id from op_grant where not ending)
        returning o.uid, o.payload->>'accountId' as account_id, o.expires_at),${selected.credentialAgain === true ? MARKED : ''}
      grants as (select grant_id as id from op_grant where ending and grant_id is not null union select id from extra_grants),
      tokens as (delete from oidc_model where (model = 'Grant' and id in (select id from grants)) or grant_id in (select id from grants) returning model, id, payload, expires_at),
      changed as (delete from user_session as r using indexed where r.application_id = indexed.application_id and r.id = indexed.id
        returning r.id::text as target_id, r.tenant_id, ${sessionSnapshotSql('r')} as before, ${after.sql} as after)`,
    params: [...selected.params, ...(grants?.params ?? []), ...after.params],
  };
}

/**
 * Each audited as `session.revoked`; the caller tells the instances to forget the users' tokens after the commit.
 */
function endSessions(em: EntityManager, actor: AuditActor, reason: SessionEndReason, selected: EndedSignIns): Promise<string[]> {
  return recordAuditPerRow(em, actor, { action: 'session.revoked', targetType: 'session' }, {
    tenantPerRow: true,
    ...signInEndCtes(selected, { sql: `jsonb_build_object('reason', ?::text)`, params: [reason] }),
  });
}

/** `singleSession`: every other session of the user in the application ends; OP session `keptUid` stays. */
export function endOtherSessions(em: EntityManager, actor: AuditActor, userId: string, keptUid: string): Promise<string[]> {
  return endSessions(em, actor, 'single_session', { where: 's.user_id = ? and s.op_session_uid <> ?', params: [userId, keptUid], ends: 'browser_session' });
}

/**
 * Their sign-ins to those tenants; a browser session also signed in to another tenant stays for it. Every grant signed
 * in to those tenants ends too (a device's, or one whose row is gone), so the OP signs nobody in silently with them.
 * `userId` null: every user (the tenants deleted).
 */
export function endTenantSessions(em: EntityManager, actor: AuditActor, tenantIds: readonly string[], userId: string | null): Promise<string[]> {
  const ofUser = userId === null ? '' : ' and s.user_id = ?';
  const grantOfUser =
    userId === null ? '' : ` and exists (select 1 from oidc_model as g where g.model = 'Grant' and g.id = gt.id and g.payload->>'accountId' = ?)`;
  return endSessions(em, actor, userId === null ? 'tenant_deleted' : 'membership_removed', {
    where: `s.tenant_id in (?)${ofUser}`,
    params: [tenantIds, ...(userId === null ? [] : [userId])],
    ends: 'sign_in',
    grants: {
      sql: `select gt.id from oidc_model as gt where gt.model = 'GrantTenant' and @owner(gt) and gt.payload->>'tenantId' in (?)${grantOfUser}`,
      params: [tenantIds, ...(userId === null ? [] : [userId])],
    },
  });
}

/** An IdP's single logout: every browser session of those users in the application. */
export function endUsersSessions(em: EntityManager, actor: AuditActor, userIds: readonly string[]): Promise<string[]> {
  return endSessions(em, actor, 'saml_logout', { where: 's.user_id in (?)', params: [userIds], ends: 'browser_session' });
}
