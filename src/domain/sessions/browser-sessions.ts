import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid, newId } from '../../ids.ts';
import { currentRequestOrigin } from '../../request-origin.ts';
import { isoTimestampSql } from '../audit.ts';

/** The index of the OP's browser sessions (`user_session`), written by src/oidc/adapter.ts; read by sessions.ts. */

/** The auth provider types of API.md. */
const METHOD_OF_AMR: Readonly<Record<string, string>> = { pwd: 'password', otp: 'otp', mfa: 'mfa', hwk: 'passkey', swk: 'passkey' };

export interface BrowserSessionSave {
  readonly uid: string;
  readonly accountId: string;
  /** In the order the OP added them (the first signed in). */
  readonly authorizations: readonly { readonly clientId: string; readonly grantId: string | undefined }[];
  readonly amr: readonly string[];
  readonly expiresAt: Date;
}

/**
 * A CTE (`session_index`) of the statement that saves the OP's session, so both are one write. The first save inserts
 * the row, later ones move its expiry; `inserted` marks a sign-in. Undefined when the save is of no client or user of
 * ours.
 */
export function browserSessionIndex(save: BrowserSessionSave): { readonly cte: string; readonly params: readonly unknown[] } | undefined {
  const first = save.authorizations.find((authorization) => isUuid(authorization.clientId));
  if (first === undefined || !isUuid(save.accountId)) return undefined;
  const origin = currentRequestOrigin();
  const methods = save.amr.map((amr) => METHOD_OF_AMR[amr] ?? amr);
  // The user must be of the client's application; the tenant, still one of it (the foreign keys would refuse otherwise).
  // The sign-in itself is recorded where it is decided (src/domain/auth-events.ts), with its method and outcome.
  return {
    cte: `session_index as (
     insert into user_session (application_id, id, op_session_uid, user_id, tenant_id, client_id, ip, user_agent, methods, created_at, last_active_at, expires_at)
     select c.application_id, ?, ?, u.id,
            (select tn.id from oidc_model as gt join tenant as tn on tn.application_id = c.application_id and tn.id::text = gt.payload->>'tenantId'
              where gt.model = 'GrantTenant' and gt.id = ?),
            c.id, ?, ?, array(select jsonb_array_elements_text(?::jsonb)), now(), now(), ?
       from oauth_client as c join app_user as u on u.application_id = c.application_id and u.id = ?
      where c.id = ?
     on conflict (application_id, op_session_uid, user_id) do update set expires_at = excluded.expires_at, last_active_at = now()
     returning application_id, tenant_id, xmax = 0 as inserted)`,
    params: [newId(), save.uid, first.grantId ?? '', origin?.ip ?? null, origin?.userAgent ?? null, JSON.stringify(methods), save.expiresAt, save.accountId, first.clientId],
  };
}

/** Their OP session expired: they already read as absent. */
export async function sweepExpiredSessions(em: EntityManager, limit = 1000): Promise<number> {
  const deleted = await em.getConnection().execute<{ id: string }[]>(
    `delete from user_session where (application_id, id) in (select application_id, id from user_session where expires_at < now() limit ?) returning id`,
    [limit],
  );
  return deleted.length;
}

/** As sessions.ts presents it, for its revocation or its end with its tenant (owned-rows.ts). */
export const sessionSnapshotSql = (row: string) =>
  `jsonb_build_object('id', ${row}.id, 'userId', ${row}.user_id, 'tenantId', ${row}.tenant_id, 'clientId', ${row}.client_id,
     'createdAt', ${isoTimestampSql(`${row}.created_at`)}, 'lastActiveAt', ${isoTimestampSql(`${row}.last_active_at`)},
     'expiresAt', ${isoTimestampSql(`${row}.expires_at`)}, 'ip', ${row}.ip, 'userAgent', ${row}.user_agent, 'methods', to_jsonb(${row}.methods))`;
