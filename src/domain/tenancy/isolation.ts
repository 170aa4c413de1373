import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthProvider, Domain, Setting, Tenant, User } from '../../db/entities/index.ts';
import { SHARED_POOL } from '../../db/entities/user.entity.ts';
import type { ErrorDetail } from '../../errors.ts';
import { newId } from '../../ids.ts';

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

/** Users whose e-mail also exists in another tenant's pool: merging pools would make them collide. */
async function duplicateEmailsAcrossPools(em: EntityManager): Promise<Pick<User, 'poolId' | 'emailNormalized'>[]> {
  const users = await em.find(User, { poolId: { $ne: SHARED_POOL } }, { fields: ['poolId', 'emailNormalized'] });
  const pools = new Map<string, Set<string>>();
  for (const user of users) {
    const set = pools.get(user.emailNormalized) ?? new Set();
    set.add(user.poolId);
    pools.set(user.emailNormalized, set);
  }
  return users.filter((user) => (pools.get(user.emailNormalized)?.size ?? 0) > 1);
}

/**
 * `shared` → `isolated`: every user moves to the pool of their tenant. A user who belongs to several tenants
 * keeps their record (and id) in the tenant they joined first and gets a copy, with the same e-mail, name, status
 * and password, in each other tenant, so that nobody loses access to any tenant. Users in no tenant stay in the
 * application's pool, reachable at application scope.
 */
export async function splitPoolsByTenant(em: EntityManager): Promise<{ moved: number; copied: number }> {
  const users = await em.find(User, { tenantIds: { $ne: [] } });
  let copied = 0;
  for (const user of users) {
    const [first, ...others] = user.tenantIds;
    if (first === undefined) continue;
    for (const tenantId of others) {
      em.create(User, {
        applicationId: user.applicationId,
        id: newId(),
        poolId: tenantId,
        email: user.email,
        emailNormalized: user.emailNormalized,
        name: user.name,
        status: user.status,
        tenantIds: [tenantId],
        passwordHash: user.passwordHash,
      });
      copied += 1;
    }
    user.poolId = first;
    user.tenantIds = [first];
  }
  return { moved: users.length, copied };
}

/** `isolated` → `shared` (allowed only when no e-mail exists in two pools): every user joins the shared pool. */
export async function mergePools(em: EntityManager): Promise<number> {
  return em.nativeUpdate(User, { poolId: { $ne: SHARED_POOL } }, { poolId: SHARED_POOL });
}
