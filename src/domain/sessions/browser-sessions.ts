import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid, newId } from '../../ids.ts';
import { currentRequestOrigin } from '../../http/request-origin.ts';
import { isoTimestampSql } from '../audit/audit.ts';
import { MODEL, PAYLOAD } from '../../db/oidc-model.ts';

/** The index of the OP's browser sessions (`user_session`), written by src/oidc/adapter.ts; read by sessions.ts. */

/** A row `s` is a sign-in while its OP session stands and holds a grant of its tenant (a grant with no tenant row: the
 *  application's), judged by this instance's clock as the OP judges a session's end (sign-in/session.ts). */
export const LIVE = `s.expires_at > ?::timestamptz and ${holdsGrantOfItsTenant()}`;

/** Row `s`'s OP session stands (by `?`, the clock) and holds a grant `g` of its tenant, its authorization `a`, matching `more`. */
export function holdsGrantOfItsTenant(more = ''): string {
  return `exists (select 1 from oidc_model as o cross join jsonb_each(o.payload->'${PAYLOAD.authorizations}') as a
    join oidc_model as g on g.model = '${MODEL.Grant}' and g.id = a.value->>'${PAYLOAD.grantId}'
    left join oidc_model as gt on gt.model = '${MODEL.GrantTenant}' and gt.id = g.id
  where o.model = '${MODEL.Session}' and o.uid = s.op_session_uid and (o.expires_at is null or o.expires_at > ?::timestamptz)
    and o.payload->>'${PAYLOAD.accountId}' = s.user_id::text and gt.payload->>'${PAYLOAD.tenantId}' is not distinct from s.tenant_id::text${more})`;
}

export interface BrowserSessionSave {
  readonly uid: string;
  readonly accountId: string;
  /** In the order the OP added them (a tenant's first is the client its row names). */
  readonly authorizations: readonly { readonly clientId: string; readonly grantId: string | undefined }[];
  readonly methods: readonly string[];
  readonly expiresAt: Date;
  /** The client of the request that saves it, if any: only the sign-in its grant is of was active. */
  readonly requestClientId: string | undefined;
}

/** CTEs of the statement saving the OP's session, so both are one write: the save first holding a grant of a tenant (null:
 *  the application's) inserts its row (`inserted`: a sign-in), later ones move its expiry and, when the request is of one
 *  of its clients (or none of the session's), its activity. Undefined when the save is of no client or user of ours. */
export function browserSessionIndex(save: BrowserSessionSave): { readonly cte: string; readonly params: readonly unknown[] } | undefined {
  const authorizations = save.authorizations.filter((authorization) => isUuid(authorization.clientId) && authorization.grantId !== undefined);
  if (authorizations.length === 0 || !isUuid(save.accountId)) return undefined;
  const origin = currentRequestOrigin();
  // The user must be of the client's application, the tenant still one of it (else the foreign keys refuse): a grant of a
  // tenant deleted since counts for none. A grant gone (revoked) signs in to nothing.
  return {
    cte: `session_grant as (
     select c.application_id, (a.value->>'id')::uuid as id, c.id as client_id, a.n, tn.id as tenant_id, a.value->>'clientId' = ?::text as requested
       from jsonb_array_elements(?::jsonb) with ordinality as a(value, n)
       join oauth_client as c on c.id = (a.value->>'clientId')::uuid
       join app_user as u on u.application_id = c.application_id and u.id = ?
       join oidc_model as g on g.model = '${MODEL.Grant}' and g.id = a.value->>'grantId'
       left join oidc_model as gt on gt.model = '${MODEL.GrantTenant}' and gt.id = g.id
       left join tenant as tn on tn.application_id = c.application_id and tn.id::text = gt.payload->>'${PAYLOAD.tenantId}'
      where gt.payload->>'${PAYLOAD.tenantId}' is null or tn.id is not null),
    session_index as (
     insert into user_session (application_id, id, op_session_uid, user_id, tenant_id, client_id, ip, user_agent, methods, created_at, last_active_at, expires_at)
     select distinct on (sg.tenant_id) sg.application_id, sg.id, ?, ?, sg.tenant_id, sg.client_id, ?, ?,
            array(select jsonb_array_elements_text(?::jsonb)), now(), now(), ?
       from session_grant as sg
      order by sg.tenant_id, sg.n
     on conflict (application_id, op_session_uid, user_id, tenant_id) do update set expires_at = excluded.expires_at,
       last_active_at = case when not exists (select 1 from session_grant where requested)
         or exists (select 1 from session_grant as sg where sg.requested and sg.tenant_id is not distinct from excluded.tenant_id)
         then now() else user_session.last_active_at end
     returning application_id, tenant_id, xmax = 0 as inserted)`,
    params: [
      save.requestClientId ?? null,
      JSON.stringify(authorizations.map((authorization) => ({ ...authorization, id: newId() }))),
      save.accountId,
      save.uid,
      save.accountId,
      origin?.ip ?? null,
      origin?.userAgent ?? null,
      JSON.stringify(save.methods),
      save.expiresAt,
    ],
  };
}

/** Their OP session expired: they already read as absent. */
export async function sweepExpiredSessions(em: EntityManager, limit = 1000): Promise<number> {
  const deleted = await em.getConnection().execute<{ id: string }[]>(
    `delete from user_session where (application_id, id) in (select application_id, id from user_session where expires_at < now() limit ? for update skip locked) returning id`,
    [limit],
  );
  return deleted.length;
}

/** As sessions.ts presents it, for its revocation or its end with its tenant (owned-rows.ts); `expiresAt`: the end it
 *  was listed with, when the policy gives a sooner one than the row's. */
export const sessionSnapshotSql = (row: string, expiresAt = `${row}.expires_at`) =>
  `jsonb_build_object('id', ${row}.id, 'userId', ${row}.user_id, 'tenantId', ${row}.tenant_id, 'clientId', ${row}.client_id,
     'createdAt', ${isoTimestampSql(`${row}.created_at`)}, 'lastActiveAt', ${isoTimestampSql(`${row}.last_active_at`)},
     'expiresAt', ${isoTimestampSql(expiresAt)}, 'ip', ${row}.ip, 'userAgent', ${row}.user_agent, 'methods', to_jsonb(${row}.methods))`;
