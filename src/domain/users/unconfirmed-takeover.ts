import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey, User } from '../../db/entities/index.ts';
import { SHARED_POOL } from '../../db/entities/user.entity.ts';
import { TENANT_FILTER } from '../../db/owned.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { revokeKey } from '../api-keys/issue.ts';
import { recordAuditPerRow, type AuditActor } from '../audit/audit.ts';
import { removeAssignments } from '../authorization/role-assignments.ts';
import { authorizationChanged } from '../authorization/writes.ts';
import { removeSecondFactors } from '../mfa/reset.ts';
import { auditTenantOf, endMailedCredentials, removeMembership } from './users.ts';

/** The `after.reason` of what a takeover removes. */
const TAKEOVER = 'takeover';

/** A reset of a never-confirmed account hands it to whoever proved the mailbox, maybe not its maker: all the maker could
 *  act with ends, recorded as `takeover` (docs/decisions.md), but an isolated pool's own tenant. Answers the tenants. */
export async function takeOverUnconfirmed(em: EntityManager, actor: AuditActor, userId: string): Promise<readonly string[]> {
  const user = await em.findOneOrFail(User, { id: userId }, { ...HOLD_FOR_UPDATE, filters: { [TENANT_FILTER]: false } });
  const tenantId = auditTenantOf(user, actor);
  await removeSecondFactors(em, actor, user.id, tenantId, TAKEOVER);
  await recordAuditPerRow(em, actor, { action: 'user.upstream_link.removed', targetType: 'user', tenantId }, {
    ctes: `changed as (
      delete from user_identity where @owner and user_id = ?
      returning user_id::text as target_id, jsonb_build_object('providerId', provider_id, 'subject', subject) as before, jsonb_build_object('reason', ?::text) as after)`,
    params: [user.id, TAKEOVER],
  });
  // Not credentials, but the maker's: an IdP's logout naming their SAML subject, and their browsers counted as known.
  await executeOwned(em, actor.applicationId, 'delete from saml_subject where @owner and user_id = ?', [user.id]);
  await executeOwned(em, actor.applicationId, 'delete from known_browser where @owner and user_id = ?', [user.id]);
  await endMailedCredentials(em, actor.applicationId, user.id);
  for (const key of await em.find(ApiKey, { userId: user.id, revokedAt: null }, { filters: { [TENANT_FILTER]: false } })) revokeKey(em, actor, key, TAKEOVER);
  await removeAssignments(em, actor, `a.subject_type = 'user' and a.subject_id = ?`, [user.id], TAKEOVER);
  for (const member of user.tenantIds.filter((id) => user.poolId === SHARED_POOL || id !== user.poolId)) removeMembership(em, actor, user, member, TAKEOVER);
  authorizationChanged(em, actor.applicationId);
  return user.tenantIds;
}
