import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAuditPerRow, type AuditActor } from '../audit.ts';
import { sessionSnapshotSql } from './browser-sessions.ts';

/** The `after` of their `session.revoked` records. */
export type SessionEndReason = 'single_session' | 'membership_removed' | 'tenant_deleted' | 'saml_logout';

/**
 * The OP's browser session (while it still stands for the row's user), every grant made in it with their tokens, and
 * the index row, each audited as `session.revoked`. One statement whatever their number; the caller tells the
 * instances to forget the users' tokens after the commit.
 */
async function endSessions(
  em: EntityManager,
  actor: AuditActor,
  reason: SessionEndReason,
  selected: { where: string; params: readonly unknown[]; grants?: { sql: string; params: readonly unknown[] } },
): Promise<string[]> {
  const { grants } = selected;
  return recordAuditPerRow(em, actor, { action: 'session.revoked', targetType: 'session' }, {
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

/** `singleSession`: every other session of the user in the application ends; OP session `keptUid` stays. */
export function endOtherSessions(em: EntityManager, actor: AuditActor, userId: string, keptUid: string): Promise<string[]> {
  return endSessions(em, actor, 'single_session', { where: 's.user_id = ? and s.op_session_uid <> ?', params: [userId, keptUid] });
}

/**
 * Every grant signed in to those tenants ends too (a device's, or one made in another tenant's session), so the OP
 * signs nobody in silently to them. `userId` null: every user (the tenants deleted).
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

/** An IdP's single logout: every browser session of those users in the application. */
export function endUsersSessions(em: EntityManager, actor: AuditActor, userIds: readonly string[]): Promise<string[]> {
  return endSessions(em, actor, 'saml_logout', { where: 's.user_id in (?)', params: [userIds] });
}
