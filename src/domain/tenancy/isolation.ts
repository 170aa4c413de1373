import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey, AuthProvider, Domain, Setting, Tenant, User } from '../../db/entities/index.ts';
import { SHARED_POOL } from '../../db/entities/user.entity.ts';
import type { ErrorDetail } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { keySnapshot } from '../api-keys/issue.ts';
import { recordAudit, type AuditActor } from '../audit.ts';
import { userSnapshot } from '../users/users.ts';

/**
 * What stops `authIsolation` going from `isolated` back to `shared`: any tenant still holding its own auth
 * data. One detail per tenant and kind, so the caller knows exactly what to remove (API.md, Tenancy configuration).
 */
export async function tenantAuthDataRemaining(em: EntityManager): Promise<ErrorDetail[]> {
  const [providers, policies, domains, users, tenants] = await Promise.all([
    em.find(AuthProvider, { tenantId: { $ne: null } }, { fields: ['tenantId'] }),
    em.find(Setting, { feature: 'policy', tenantId: { $ne: null } }, { fields: ['tenantId', 'key'] }),
    em.find(Domain, { tenantId: { $ne: null } }, { fields: ['tenantId'] }),
    duplicateEmailsAcrossPools(em),
    em.find(Tenant, {}, { fields: ['id', 'slug'] }),
  ]);
  const slugs = new Map(tenants.map((tenant) => [tenant.id, tenant.slug]));
  const counts = new Map<string, number>();
  const count = (tenantId: string, kind: string) => {
    const key = `${tenantId}\0${kind}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  for (const provider of providers) count(provider.tenantId as string, 'auth_providers');
  for (const policy of policies) count(policy.tenantId as string, policy.key === 'mfa' ? 'mfa_settings' : 'policies');
  for (const domain of domains) count(domain.tenantId as string, 'custom_domains');
  for (const user of users) count(user.poolId, 'users_with_duplicate_email');
  return [...counts.entries()]
    .map(([key, n]) => {
      const [tenantId, kind] = key.split('\0') as [string, string];
      return { tenantId, tenantSlug: slugs.get(tenantId) ?? null, kind, count: n };
    })
    .sort((a, b) => a.tenantId.localeCompare(b.tenantId) || a.kind.localeCompare(b.kind));
}

/**
 * Users of a tenant's pool whose e-mail also exists in another pool, another tenant's or the application's own (users
 * in no tenant, which stay there through the switches): merging the pools would make them collide.
 */
async function duplicateEmailsAcrossPools(em: EntityManager): Promise<Pick<User, 'poolId' | 'emailNormalized'>[]> {
  const users = await em.find(User, {}, { fields: ['poolId', 'emailNormalized'] });
  const pools = new Map<string, Set<string>>();
  for (const user of users) {
    const set = pools.get(user.emailNormalized) ?? new Set();
    set.add(user.poolId);
    pools.set(user.emailNormalized, set);
  }
  return users.filter((user) => user.poolId !== SHARED_POOL && (pools.get(user.emailNormalized)?.size ?? 0) > 1);
}

/** The record the split makes for a user in one more of their tenants. */
interface UserCopy {
  readonly id: string;
  readonly original: User;
  readonly tenantId: string;
}

/**
 * `shared` → `isolated`: every user moves to the pool of their tenant. A user who belongs to several tenants
 * keeps their record (and id) in the tenant they joined first and gets a copy in each other tenant, so that nobody
 * loses access to any tenant; their keys for those tenants move to the copies. Users in no tenant stay in the
 * application's pool, reachable at application scope. Each copy and each moved key is audited as `actor`'s doing.
 */
export async function splitPoolsByTenant(em: EntityManager, actor: AuditActor): Promise<void> {
  const users = await em.find(User, { tenantIds: { $ne: [] } });
  const copies: UserCopy[] = [];
  for (const user of users) {
    const [first, ...others] = user.tenantIds;
    if (first === undefined) continue;
    copies.push(...others.map((tenantId) => ({ id: newId(), original: user, tenantId })));
    user.poolId = first;
    user.tenantIds = [first];
  }
  await insertCopies(em, actor.applicationId, copies);
  for (const copy of copies) {
    const after = { ...userSnapshot(copy.original), tenantIds: [copy.tenantId], poolId: copy.tenantId, copiedFrom: copy.original.id };
    recordAudit(em, actor, { action: 'user.copy', targetType: 'user', targetId: copy.id, tenantId: copy.tenantId, after });
  }
  await moveKeysToCopies(em, actor, copies);
}

/**
 * Each copy is its original's row in another pool: e-mail, name, status, password hash and the whole lockout state
 * (failed sign-ins, when the last one was, until when a lock lasts), so it signs in, counts failures and unlocks as
 * the original would. In SQL because the entity does not map `last_failed_sign_in_at`, which only the sign-in's own
 * statements read and write (src/hosted/lockout.ts).
 */
async function insertCopies(em: EntityManager, applicationId: string, copies: UserCopy[]): Promise<void> {
  if (copies.length === 0) return;
  const now = new Date();
  await em.execute(
    `insert into app_user (application_id, id, pool_id, email, email_normalized, name, status, tenant_ids, password_hash,
                           failed_sign_ins, last_failed_sign_in_at, locked_until, created_at, updated_at)
     select original.application_id, copy.id, copy.tenant_id, original.email, original.email_normalized, original.name,
            original.status, array[copy.tenant_id], original.password_hash,
            original.failed_sign_ins, original.last_failed_sign_in_at, original.locked_until, ?, ?
       from unnest(array[?]::uuid[], array[?]::uuid[], array[?]::uuid[]) as copy (id, original_id, tenant_id)
       join app_user as original on original.application_id = ? and original.id = copy.original_id`,
    [now, now, copies.map((copy) => copy.id), copies.map((copy) => copy.original.id), copies.map((copy) => copy.tenantId), applicationId],
  );
}

/**
 * A tenant key bound to a user who got a copy in that tenant now belongs to the copy, the user's record there: a
 * tenant key's user is a member of its tenant, and deleting that record must take the key with it. Cached keys
 * are evicted by the switch's invalidation of the whole application (configurationChanged).
 */
async function moveKeysToCopies(em: EntityManager, actor: AuditActor, copies: UserCopy[]): Promise<void> {
  if (copies.length === 0) return;
  const copyIn = new Map(copies.map((copy) => [`${copy.original.id}/${copy.tenantId}`, copy.id]));
  const originals = [...new Set(copies.map((copy) => copy.original.id))];
  for (const key of await em.find(ApiKey, { userId: { $in: originals }, tenantId: { $ne: null } })) {
    const copyId = copyIn.get(`${key.userId}/${key.tenantId}`);
    // No copy: the key is for the tenant the user's own record stays in.
    if (copyId === undefined) continue;
    const before = keySnapshot(key);
    key.userId = copyId;
    recordAudit(em, actor, { action: 'api_key.rebind', targetType: 'api_key', targetId: key.id, tenantId: key.tenantId ?? null, before, after: keySnapshot(key) });
  }
}

/** `isolated` → `shared` (allowed only when no e-mail exists in two pools): every user joins the shared pool. */
export async function mergePools(em: EntityManager): Promise<number> {
  return em.nativeUpdate(User, { poolId: { $ne: SHARED_POOL } }, { poolId: SHARED_POOL });
}
