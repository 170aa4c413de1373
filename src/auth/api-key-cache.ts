import type { ApiKeyRecord } from '../domain/api-keys/working-key.ts';
import { HeldGrantsCache } from '../domain/authorization/held-roles.ts';
import { OrganizationStatusCache } from '../domain/organizations/status.ts';
import { InvalidatedCache, type Owners } from '../events/invalidated-cache.ts';
import type { InvalidationBus } from '../events/invalidations.ts';
import { createLiveSubjectCache, type LiveSubjectCache } from './bearer-subject.ts';

/** The records a key's authentication reads (readWorkingKey), as invalidations name them. */
export const apiKeyOwners = (record: ApiKeyRecord): Owners => ({
  api_key: record.id,
  application: record.application_id,
  tenant: record.tenant_id,
  user: record.user_id,
});

/**
 * A hit saves the round trip that dominates a management request. Evicted at once on any instance's change; expiry is
 * checked on every use; misses are never remembered.
 */
export class ApiKeyCache {
  private readonly cache: InvalidatedCache<ApiKeyRecord>;
  /** Kept with the keys, because authentication reaches this one cache (src/http/authentication.ts). */
  readonly bearerSubjects: LiveSubjectCache;
  readonly heldGrants: HeldGrantsCache;
  readonly organizations: OrganizationStatusCache;

  constructor(bus: InvalidationBus, ttlMs: number) {
    this.bearerSubjects = createLiveSubjectCache(bus, ttlMs);
    this.heldGrants = new HeldGrantsCache(bus, ttlMs);
    this.organizations = new OrganizationStatusCache(bus, ttlMs);
    this.cache = new InvalidatedCache(bus, ttlMs, apiKeyOwners);
  }

  async find(secretHash: string, load: () => Promise<ApiKeyRecord | undefined>, now = new Date()): Promise<ApiKeyRecord | undefined> {
    const cached = this.cache.get(secretHash);
    if (cached !== undefined) {
      if (cached.expires_at === null || cached.expires_at > now) return cached;
      this.cache.delete(secretHash);
      return undefined;
    }
    return this.cache.find(secretHash, load);
  }
}
