import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAuditPerRow, type AuditActor } from '../audit.ts';
import { sessionSnapshotSql } from './browser-sessions.ts';

/** Why sessions end other than by a revocation of their own (the `after` of their `session.revoke` records). */
export type SessionEndReason = 'single_session' | 'membership_removed' | 'tenant_deleted';

/**
 * Ends, in the caller's transaction, the sessions of the actor's application whose index rows `where` selects (of the
 * row `s`, with `params`): the OP's browser session (while it still stands for the row's user), every grant made in it
 * with every token issued under those grants, then the index row, each audited as `session.revoke` under the session's
 * tenant with the reason as its `after`. `grants`: more grants to revoke with their tokens (a SQL of `id`s). One
 * statement whatever their number; the caller tells the instances to forget the users' tokens after the commit.
 */
async function endSessions(
  em: EntityManager,
  actor: AuditActor,
  reason: SessionEndReason,
  selected: { where: string; params: readonly unknown[]; grants?: { sql: string; params: readonly unknown[] } },
): Promise<string[]> {
  const { grants } = selected;
  return recordAuditPerRow(em, actor, { action: 'session.revoke', targetType: 'session' }, {
    tenantPerRow: true,
    ctes: `indexed as (select s.application_id, s.id, s.op_session_uid, s.user_id from user_session as s where @owner(s) and ${selected.where}),
      op as (delete from oidc_model as o using indexed
        where o.model = 'Session' and o.uid = indexed.op_session_uid and o.payload->>'accountId' = indexed.user_id::text returning o.payload),
      grants as (select a.value->>'grantId' as id from op, jsonb_each(op.payload->'authorizations') as a where a.value->>'grantId' is not null
        ${grants === undefined ? '' : `union ${grants.sql}`}),
      tokens as (delete from oidc_model where (model = 'Grant' and id in (select id from grants)) or grant_id in (select id from grants) returning 1),
      changed as (delete from user_session as r using indexed where r.application_id = indexed.application_id and r.id = indexed.id
        returning r.id::text as target_id, r.tenant_id, ${sessionSnapshotSql('r')} as before, jsonb_build_object('reason', ?::text) as after)`,
    params: [...selected.params, ...(grants?.params ?? []), reason],
  });
}

/**
 * A sign-in under a policy with `singleSession`: every other session of the user in the application ends (the one
 * the user just signed in with, OP session `keptUid`, stays).
 */
export function endOtherSessions(em: EntityManager, actor: AuditActor, userId: string, keptUid: string): Promise<string[]> {
  return endSessions(em, actor, 'single_session', { where: 's.user_id = ? and s.op_session_uid <> ?', params: [userId, keptUid] });
}

/**
 * Users leave tenants (`userId`: one user removed from them; null: every user, the tenants deleted): their sessions
 * signed in to those tenants end, and so does every other grant signed in to them (a device's, or one made in a
 * session of another tenant), with its tokens. The OP then signs nobody in silently to those tenants from them.
 */
export function endTenantSessions(em: EntityManager, actor: AuditActor, tenantIds: readonly string[], userId: string | null): Promise<string[]> {
  const ofUser = userId === null ? '' : ' and s.user_id = ?';
  const grantOfUser =
    userId === null ? '' : ` and exists (select 1 from oidc_model as g where g.model = 'Grant' and g.id = gt.id and g.payload->>'accountId' = ?)`;
  return endSessions(em, actor, userId === null ? 'tenant_deleted' : 'membership_removed', {
    where: `s.tenant_id in (?)${ofUser}`,
    params: [tenantIds, ...(userId === null ? [] : [userId])],
    grants: {
      sql: `select gt.id from oidc_model as gt where gt.model = 'GrantTenant' and @owner(gt) and gt.payload->>'tenantId' in (?)${grantOfUser}`,
      params: [tenantIds, ...(userId === null ? [] : [userId])],
    },
  });
}
