import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { recordAudit, type AuditActor } from '../audit.ts';
import { PAGE_SIZE_MAX } from '../pagination.ts';
import { listSessions, type SessionView } from './sessions.ts';

/**
 * A signed-in user's own sessions, as the hosted account page shows and ends them: `current` is the OP browser session
 * the page is seen in (its `uid`), which the user keeps.
 */

/** The user's live sessions in the application (the newest page of them), and which of them is this browser's. */
export async function ownSessions(applicationScope: Scope, userId: string, currentUid: string): Promise<{ sessions: SessionView[]; currentId: string | null }> {
  const [{ data }, [current]] = await Promise.all([
    listSessions(applicationScope, { userId, pageSize: PAGE_SIZE_MAX }),
    executeOwned<{ id: string }[]>(
      applicationScope.em,
      applicationScope.applicationId,
      'select id from user_session where @owner and user_id = ? and op_session_uid = ?',
      [userId, currentUid],
    ),
  ]);
  return { sessions: data, currentId: current?.id ?? null };
}

/**
 * Ends every sign-in of the user but the browser session `currentUid` (in the caller's transaction): their other OP
 * browser sessions with their index rows, and every grant not made in the current session with its tokens (other
 * browsers', devices', and refresh tokens issued elsewhere). Audited as `user.sessions.end`. Returns the grants
 * revoked, whose cached Bearer tokens the caller forgets after the commit (forgetGrants).
 */
export async function endOtherSessions(em: EntityManager, actor: AuditActor, userId: string, currentUid: string): Promise<string[]> {
  const [row] = await executeOwned<{ grants: string[]; sessions: number }[]>(
    em,
    actor.applicationId,
    `with current_session as (select payload from oidc_model where model = 'Session' and uid = ? and payload->>'accountId' = ?),
     kept as (select a.value->>'grantId' as id from current_session, jsonb_each(current_session.payload->'authorizations') as a where a.value->>'grantId' is not null),
     grants as (delete from oidc_model where model = 'Grant' and @owner and payload->>'accountId' = ? and id not in (select id from kept) returning id),
     tokens as (delete from oidc_model where grant_id in (select id from grants) returning 1),
     sessions as (delete from oidc_model where model = 'Session' and payload->>'accountId' = ? and uid <> ? returning 1),
     indexed as (delete from user_session where @owner and user_id = ? and op_session_uid <> ? returning 1)
     select array(select id from grants) as grants, (select count(*) from sessions)::int as sessions`,
    [currentUid, userId, userId, userId, currentUid, userId, currentUid],
  );
  const grants = row?.grants ?? [];
  recordAudit(em, actor, {
    action: 'user.sessions.end',
    targetType: 'user',
    targetId: userId,
    after: { sessionsEnded: row?.sessions ?? 0, grantsRevoked: grants.length },
  });
  return grants;
}

/** After the commit of endOtherSessions: every instance forgets the revoked grants' Bearer tokens at once. */
export async function forgetGrants(scope: Scope, grants: readonly string[]): Promise<void> {
  await Promise.all(grants.map((id) => scope.services.invalidations.publish({ kind: 'grant', id })));
}
