import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { recordAudit, type AuditActor } from '../audit.ts';
import { PAGE_SIZE_MAX } from '../pagination.ts';
import { listSessions, type SessionView } from './sessions.ts';

/** `current`: the sign-ins of the OP browser session the page is seen in (its `uid`, one per tenant), which the user keeps. */

/** The newest page of them. */
export async function ownSessions(
  applicationScope: Scope,
  userId: string,
  currentUid: string,
): Promise<{ sessions: SessionView[]; current: ReadonlySet<string> }> {
  const [{ data }, current] = await Promise.all([
    listSessions(applicationScope, { userId, pageSize: PAGE_SIZE_MAX }),
    executeOwned<{ id: string }[]>(
      applicationScope.em,
      applicationScope.applicationId,
      'select id from user_session where @owner and user_id = ? and op_session_uid = ?',
      [userId, currentUid],
    ),
  ]);
  return { sessions: data, current: new Set(current.map((row) => row.id)) };
}

/**
 * Every grant not made in the current session ends with its tokens (other browsers', devices', refresh tokens issued
 * elsewhere). Returns the grants revoked, whose cached Bearer tokens the caller forgets after the commit.
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
    action: 'user.sessions.ended',
    targetType: 'user',
    targetId: userId,
    after: { sessionsEnded: row?.sessions ?? 0, grantsRevoked: grants.length },
  });
  return grants;
}

export async function forgetGrants(scope: Scope, grants: readonly string[]): Promise<void> {
  await Promise.all(grants.map((id) => scope.services.invalidations.publish({ kind: 'grant', id })));
}
