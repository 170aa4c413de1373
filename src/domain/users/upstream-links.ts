import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { UserIdentity } from '../../db/entities/index.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { notFound } from '../../errors.ts';
import { recordAudit, recordAuditPerRow, type AuditActor } from '../audit/audit.ts';
import { withCallerHoldings } from '../grants.ts';
import { paginate, scopedList, type Page, type PageArgs, type Row } from '../pagination.ts';
import { underTenancyConfig } from '../tenancy/config-lock.ts';
import { requireOutranking } from './takeover.ts';
import { assertIdentityOfScope, auditFilingOf, getUser, lockUser } from './users.ts';

/** The upstream (social) accounts a user signs in with, oldest first; a user outside the scope is `not_found`. */
export async function listUpstreamLinks(scope: Scope, userId: string, page: PageArgs): Promise<Page<Row<UserIdentity>>> {
  await getUser(scope, userId);
  return paginate(scope.em, UserIdentity, { userId }, page, scope.services.cursors, `${scopedList(scope, 'upstream-links')}:${userId}`);
}

/**
 * Ends one link: that upstream account signs in as the user no longer (its next sign-in links again only by a verified
 * address the user holds, or makes an account where sign-up is open). Sessions it opened stay, as a new password's do not:
 * the link is no secret that leaked. The same rules as a suspension (tenant scope, outranking), which it partly is.
 */
export async function unlinkUpstream(scope: Scope, userId: string, linkId: string): Promise<boolean> {
  return withCallerHoldings(scope, { type: 'user', id: userId }, (callers) => underTenancyConfig(scope, async (tx) => {
    const user = await lockUser(tx, userId);
    assertIdentityOfScope(tx, user);
    await requireOutranking(tx, tx.em, user.id, callers);
    const [removed] = await executeOwned<{ provider_id: string; subject: string }[]>(
      tx.em,
      tx.applicationId,
      'delete from user_identity where @owner and user_id = ? and id = ? returning provider_id, subject',
      [user.id, linkId],
    );
    if (removed === undefined) throw notFound('Upstream link', 'linkId');
    recordAudit(tx.em, tx, {
      action: 'user.upstream_link.removed',
      targetType: 'user',
      targetId: user.id,
      ...auditFilingOf(user, tx),
      before: { providerId: removed.provider_id, subject: removed.subject },
    });
    return true;
  }));
}

/** Every link of a provider that now asks another issuer, one record each, filed as an administrator's removal is
 *  (auditFilingOf: a shared user's tenants read it too). */
export async function removeProviderLinks(em: EntityManager, actor: AuditActor, providerId: string, reason: string): Promise<void> {
  const removed = await executeOwned<{ user_id: string; provider_id: string; subject: string; pool_id: string; tenant_ids: string[] }[]>(
    em,
    actor.applicationId,
    `with removed as (delete from user_identity where @owner and provider_id = ? returning user_id, provider_id, subject)
     select r.user_id, r.provider_id, r.subject, u.pool_id, u.tenant_ids from removed as r join app_user as u on @owner(u) and u.id = r.user_id`,
    [providerId],
  );
  for (const link of removed) {
    recordAudit(em, actor, {
      action: 'user.upstream_link.removed',
      targetType: 'user',
      targetId: link.user_id,
      ...auditFilingOf({ poolId: link.pool_id, tenantIds: link.tenant_ids }, actor),
      before: { providerId: link.provider_id, subject: link.subject },
      after: { reason },
    });
  }
}

/** The user's links (`addedSince`: those made since then), in the caller's transaction, one record each under `tenantId`
 *  with `after.reason`. */
export async function removeLinksOfUser(em: EntityManager, actor: AuditActor, userId: string, tenantId: string | null, reason: string, addedSince?: Date): Promise<void> {
  await recordAuditPerRow(em, actor, { action: 'user.upstream_link.removed', targetType: 'user', tenantId }, {
    ctes: `changed as (
      delete from user_identity where @owner and user_id = ?${addedSince === undefined ? '' : ' and created_at >= ?'}
      returning user_id::text as target_id, jsonb_build_object('providerId', provider_id, 'subject', subject) as before, jsonb_build_object('reason', ?::text) as after)`,
    params: [userId, ...(addedSince === undefined ? [] : [addedSince]), reason],
  });
}
