import type { EntityManager } from '@mikro-orm/postgresql';
import { generateApiKeySecret, hashApiKeySecret, secretMatches } from '../../auth/api-key-secret.ts';
import type { Scope } from '../../context.ts';
import { ApiKey, User } from '../../db/entities/index.ts';
import { SHARED_POOL } from '../../db/entities/user.entity.ts';
import { HOLD_FOR_SHARE, HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { GatehouseError, invalid, notFound } from '../../errors.ts';
import { recordAudit } from '../audit/audit.ts';
import { providerSetting } from '../auth-providers/auth-providers.ts';
import { permissionGrants, requireCovered, requireCoveredCredential, withCallerHoldings } from '../grants.ts';
import { paginate, type Page, type PageArgs, type Row, scopedList } from '../pagination.ts';
import { underTenancyConfig } from '../tenancy/config-lock.ts';
import { lockTenants, targetTenant } from '../tenants/target-tenant.ts';
import { displayName } from '../validate.ts';
import { issueApiKey, keyChanged, keySnapshot, latestKeyExpiry, recordKeyIssued, revokeKey, type ApiKeyWithSecret } from './issue.ts';
import { readWorkingKey } from './working-key.ts';

export interface CreateApiKeyInput {
  name: string;
  permissions: string[];
  tenantId?: string | null;
  userId?: string | null;
  expiresAt?: Date | null;
}

/** RFC 7662 style: `key` only when active, so an inactive answer says nothing about why. */
export interface ApiKeyIntrospection {
  active: boolean;
  key: ApiKey | null;
}

const isExpired = (key: ApiKey, now: Date) => key.expiresAt != null && key.expiresAt <= now;

export type ApiKeyRow = Row<ApiKey>;

export async function listApiKeys(scope: Scope, args: PageArgs): Promise<Page<ApiKeyRow>> {
  // In a tenant scope the `tenant` filter keeps only that tenant's keys.
  const list = scopedList(scope, 'api_keys');
  return paginate(scope.em, ApiKey, {}, args, scope.services.cursors, list);
}

export async function getApiKey(scope: Scope, keyId: string): Promise<ApiKey> {
  const key = await scope.em.findOne(ApiKey, { id: keyId });
  if (key === null) throw notFound('API key', 'keyId');
  return key;
}

/** For the scope's tenant (or the body's, with application-wide credentials). The secret is in the answer only. */
export async function createApiKey(scope: Scope, input: CreateApiKeyInput): Promise<ApiKeyWithSecret> {
  const name = displayName('name', input.name);
  const permissions = permissionGrants(input.permissions);
  requireCovered(scope, permissions);
  const userId = input.userId ?? null;
  const tenantId = (await targetTenant(scope, input.tenantId)) ?? (userId === null ? null : await poolTenantOf(scope, userId));
  const expiresAt = await withinProviderLimit(scope, tenantId, input.expiresAt ?? null, lifetimeWithin(scope, input.expiresAt ?? null));
  if (expiresAt !== null && expiresAt.getTime() <= Date.now()) throw invalid('expiresAt', 'expiresAt must be in the future');
  // Memberships are as the user pools have them: a split of the pools moves users out of tenants.
  return underTenancyConfig(scope, async (tx) => {
    if (userId !== null) await assertKeyUser(tx, userId, tenantId);
    const issued = issueApiKey(tx.em, { applicationId: scope.applicationId, tenantId, userId, name, permissions, expiresAt });
    recordKeyIssued(tx.em, tx, issued.key);
    return issued;
  });
}


/** `expiresAt`, or the limit when it is sooner (a key that would not expire ends at it). */
const endingBy = (latest: Date | null, expiresAt: Date | null): Date | null =>
  latest !== null && (expiresAt === null || expiresAt > latest) ? latest : expiresAt;

/** The api_keys provider's `maxLifetimeDays` bounds a new key: a later `expiresAt` is 422, and a key that would not
 *  expire, or outlive it by inheriting its creator's expiry, ends at the limit. */
async function withinProviderLimit(scope: Scope, tenantId: string | null, asked: Date | null, expiresAt: Date | null): Promise<Date | null> {
  const maxDays = await providerSetting(scope, tenantId, 'api_keys', 'maxLifetimeDays');
  const latest = latestKeyExpiry(maxDays);
  if (latest === null) return expiresAt;
  if (asked !== null && asked > latest) {
    throw invalid('expiresAt', `expiresAt may be at most ${String(maxDays)} days ahead (the api_keys provider's maxLifetimeDays)`);
  }
  return endingBy(latest, expiresAt);
}

/** A key created by an expiring API key ends no later than it (default: the creator's expiry; later: 403), or an expiring
 *  key could hand its rights on for good. */
export function lifetimeWithin(scope: Scope, expiresAt: Date | null): Date | null {
  const limit = scope.principal.apiKeyExpiresAt;
  if (limit === null) return expiresAt;
  if (expiresAt === null) return limit;
  requireEndsBy(limit, expiresAt, 'creates');
  return expiresAt;
}

function requireEndsBy(limit: Date, expiresAt: Date | null, verb: 'creates' | 'rotates'): void {
  if (expiresAt === null || expiresAt > limit) {
    throw new GatehouseError('forbidden', `A key cannot outlive the key that ${verb} it (${limit.toISOString()})`);
  }
}

/** A key acting as a user of a tenant's own pool (isolated) acts in that tenant only (spec: cross-tenant identity is
 *  impossible): without a tenant asked, it is that tenant's key. A user of the application's pool, none. */
async function poolTenantOf(scope: Scope, userId: string): Promise<string | null> {
  const user = await scope.em.findOne(User, { id: userId });
  if (user === null) throw notFound('User', 'userId');
  return user.poolId === SHARED_POOL ? null : user.poolId;
}

/** Visible to the scope (404) and, for a tenant key, a member of that tenant (422); an application-wide key's user is
 *  of the application's pool (422: a split of the pools came between, see poolTenantOf). */
async function assertKeyUser(scope: Scope, userId: string, tenantId: string | null): Promise<void> {
  // Held until the key commits, tenant then user as a tenant's deletion takes them: otherwise a key could commit bound
  // to a user who had just left its tenant.
  if (tenantId !== null && (await lockTenants(scope, [tenantId])).length === 0) throw notFound('Tenant', 'tenantId');
  const user = await scope.em.findOne(User, { id: userId }, HOLD_FOR_SHARE);
  if (user === null) throw notFound('User', 'userId');
  if (tenantId !== null && !user.tenantIds.includes(tenantId)) {
    throw invalid('userId', 'The user is not a member of the key’s tenant');
  }
  if (tenantId === null && user.poolId !== SHARED_POOL) {
    throw invalid('tenantId', 'The user is of a tenant’s own pool: a key acting as them is that tenant’s');
  }
}

/** FOR UPDATE and refreshed: a second revocation finds the key revoked and writes nothing, never a stale read. */
async function lockKey(em: EntityManager, keyId: string): Promise<ApiKey> {
  const key = await em.findOne(ApiKey, { id: keyId }, HOLD_FOR_UPDATE);
  if (key === null) throw notFound('API key', 'keyId');
  return key;
}

/** From the commit it authenticates as nothing (401). */
export async function revokeApiKey(scope: Scope, keyId: string): Promise<ApiKey> {
  return scope.transactional(async (em) => {
    const key = await lockKey(em, keyId);
    if (key.revokedAt == null) revokeKey(em, scope, key);
    return key;
  });
}

/** Same id and permissions; the old secret stops working with the commit. The expiry too, unless the api_keys
 *  provider's `maxLifetimeDays` ends the new secret sooner, as it would a new key's. */
export async function rotateApiKey(scope: Scope, keyId: string): Promise<ApiKeyWithSecret> {
  // Read before the transaction, which the provider's loader does not run in (a key's tenant never changes).
  const latest = latestKeyExpiry(await providerSetting(scope, (await getApiKey(scope, keyId)).tenantId ?? null, 'api_keys', 'maxLifetimeDays'));
  return withCallerHoldings(scope, { type: 'api_key', id: keyId }, (callers) => scope.transactional(async (em) => {
    // Locked: a rotation behind a revocation must not hand out a secret of a revoked key.
    const key = await lockKey(em, keyId);
    const now = new Date();
    if (key.revokedAt != null) throw invalid('keyId', 'A revoked key cannot be rotated');
    if (isExpired(key, now)) throw invalid('keyId', 'An expired key cannot be rotated');
    // Rotation hands out a working secret: creation's rules, on what the key acts with and on its lifetime.
    await requireCoveredCredential(scope, em, { type: 'api_key', id: key.id, tenantId: key.tenantId ?? null, permissions: key.permissions }, callers);
    const before = keySnapshot(key);
    const expiresAt = endingBy(latest, key.expiresAt ?? null);
    const limit = scope.principal.apiKeyExpiresAt;
    if (limit !== null) requireEndsBy(limit, expiresAt, 'rotates');
    key.expiresAt = expiresAt;
    const secret = generateApiKeySecret();
    key.secretHash = hashApiKeySecret(secret);
    key.lastRotatedAt = now;
    recordAudit(em, scope, { action: 'api_key.rotated', targetType: 'api_key', targetId: key.id, tenantId: key.tenantId ?? null, before, after: keySnapshot(key) });
    keyChanged(em, key.id);
    return { key, secret };
  }));
}

/** The key authentication would take (readWorkingKey, not its cache), read through the scope's filtered EntityManager, so
 *  another application's (or tenant's) key reads as inactive. */
export async function introspectApiKey(scope: Scope, secret: string): Promise<ApiKeyIntrospection> {
  const working = await readWorkingKey(scope.services.orm, hashApiKeySecret(secret));
  const key = working === undefined || !secretMatches(secret, working.secret_hash) ? null : await scope.em.findOne(ApiKey, { id: working.id });
  return key === null ? { active: false, key: null } : { active: true, key };
}
