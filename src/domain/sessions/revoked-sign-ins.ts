import { executeOwned, type SqlRunner } from '../../db/owned-sql.ts';
import { liveRow, MODEL } from '../../db/oidc-model.ts';

// A tenant's sign-in revoked while its browser session stands for other tenants: that tenant needs a credential again
// (policies.ts asks; interactions.ts clears). Keyed by the OP session's `uid`, which outlives its id rotations.

export interface BrowserSession {
  readonly applicationId: string;
  readonly uid: string;
  readonly userId: string;
}

/** The tenants the browser session may sign the user in to again only with a credential. */
export async function revokedTenants(runner: SqlRunner, session: BrowserSession): Promise<ReadonlySet<string>> {
  const rows = await executeOwned<{ tenant_id: string }[]>(
    runner,
    session.applicationId,
    'select tenant_id from revoked_sign_in where @owner and op_session_uid = ? and user_id = ?',
    [session.uid, session.userId],
  );
  return new Set(rows.map((row) => row.tenant_id));
}

/** A credential proven for the tenant in that browser session. */
export async function forgetRevokedSignIn(runner: SqlRunner, session: BrowserSession, tenantId: string): Promise<void> {
  await executeOwned(
    runner,
    session.applicationId,
    'delete from revoked_sign_in where @owner and op_session_uid = ? and user_id = ? and tenant_id = ?',
    [session.uid, session.userId, tenantId],
  );
}

/** Deletes up to `limit` expired marks whose OP session is gone; a live session's get its (sliding) expiry. */
export async function sweepRevokedSignIns(runner: SqlRunner, limit = 1000): Promise<void> {
  await runner.execute(
    `with due as (
       select m.application_id, m.op_session_uid, m.user_id, m.tenant_id, o.uid as live_uid, o.expires_at as session_expires_at
         from revoked_sign_in as m
         left join lateral (select o.uid, o.expires_at from oidc_model as o where o.model = '${MODEL.Session}' and o.uid = m.op_session_uid
           and ${liveRow('o')} limit 1) as o on true
        where m.expires_at < now() limit ? for update of m skip locked),
     gone as (delete from revoked_sign_in as m using due as d where d.live_uid is null
        and m.application_id = d.application_id and m.op_session_uid = d.op_session_uid and m.user_id = d.user_id and m.tenant_id = d.tenant_id)
     update revoked_sign_in as m set expires_at = coalesce(d.session_expires_at, 'infinity') from due as d where d.live_uid is not null
        and m.application_id = d.application_id and m.op_session_uid = d.op_session_uid and m.user_id = d.user_id and m.tenant_id = d.tenant_id`,
    [limit],
  );
}
