import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey, User } from '../../db/entities/index.ts';
import { SHARED_POOL } from '../../db/entities/user.entity.ts';
import { TENANT_FILTER } from '../../db/owned.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { revokeKey } from '../api-keys/issue.ts';
import type { AuditActor } from '../audit/audit.ts';
import { removeAssignments } from '../authorization/role-assignments.ts';
import { authorizationChanged } from '../authorization/writes.ts';
import { removeSecondFactors } from '../mfa/reset.ts';
import { removeLinksOfUser } from './upstream-links.ts';
import { auditTenantOf, endMailedCredentials, removeMembership } from './users.ts';

/** The owner who disowns the account keeps no membership of it; one who takes it over keeps what was made for them. */
export interface TakeoverTerms {
  readonly keepVouchingTenant: boolean;
}

/** The `after.reason` of what a takeover removes. */
const TAKEOVER = 'takeover';

/** What signs in as the user besides the password (`addedSince`: what was added since then): second steps, upstream
 *  links and the keys bound to them, each removal recorded with `after.reason` `reason` under `tenantId`. */
export async function removeWaysIn(em: EntityManager, actor: AuditActor, userId: string, tenantId: string | null, reason: string, addedSince?: Date): Promise<void> {
  await removeSecondFactors(em, actor, userId, { tenantId }, reason, addedSince);
  await removeLinksOfUser(em, actor, userId, tenantId, reason, addedSince);
  const made = addedSince === undefined ? {} : { createdAt: { $gte: addedSince } };
  for (const key of await em.find(ApiKey, { userId, revokedAt: null, ...made }, { filters: { [TENANT_FILTER]: false } })) revokeKey(em, actor, key, reason);
}

/** A reset of a never-confirmed account hands it to whoever proved the mailbox, maybe not its maker: all the maker could
 *  act with ends, recorded as `takeover` (docs/decisions.md), but an isolated pool's own tenant and, when kept, the
 *  tenant that vouched for the address with its roles there: it made the account for that mailbox. Answers the tenants. */
export async function takeOverUnconfirmed(em: EntityManager, actor: AuditActor, userId: string, { keepVouchingTenant }: TakeoverTerms): Promise<readonly string[]> {
  const user = await em.findOneOrFail(User, { id: userId }, { ...HOLD_FOR_UPDATE, filters: { [TENANT_FILTER]: false } });
  const tenantId = auditTenantOf(user, actor);
  const vouching = keepVouchingTenant ? user.vouchedByTenantId : null;
  // Spent: whatever vouched for the address, its owner now holds the account.
  user.vouchedByTenantId = null;
  await removeWaysIn(em, actor, user.id, tenantId, TAKEOVER);
  // Not credentials, but the maker's: an IdP's logout naming their SAML subject, and their browsers counted as known.
  await executeOwned(em, actor.applicationId, 'delete from saml_subject where @owner and user_id = ?', [user.id]);
  await executeOwned(em, actor.applicationId, 'delete from known_browser where @owner and user_id = ?', [user.id]);
  await endMailedCredentials(em, actor.applicationId, user.id);
  await removeAssignments(em, actor, `a.subject_type = 'user' and a.subject_id = ? and not coalesce(a.tenant_id = ?::uuid, false)`, [user.id, vouching], TAKEOVER);
  const kept = (id: string) => (user.poolId !== SHARED_POOL && id === user.poolId) || id === vouching;
  for (const member of user.tenantIds.filter((id) => !kept(id))) removeMembership(em, actor, user, member, TAKEOVER);
  authorizationChanged(em, actor.applicationId);
  return user.tenantIds;
}
