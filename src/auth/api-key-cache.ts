import { HeldGrantsCache } from '../domain/authorization/held-roles.ts';
import { OrganizationStatusCache } from '../domain/organizations/status.ts';
import { InvalidatedCache } from '../events/invalidated-cache.ts';
import type { InvalidationBus } from '../events/invalidations.ts';
import { createLiveSubjectCache, type LiveSubjectCache } from './bearer-subject.ts';

/** What authentication needs of an API key, as one indexed statement reads it (authenticate.ts). */
export interface ApiKeyRecord {
  readonly id: string;
  readonly application_id: string;
  readonly tenant_id: string | null;
  readonly user_id: string | null;
  readonly permissions: string[];
  readonly secret_hash: string;
  readonly expires_at: Date | null;
}

/**
 * The API keys recently authenticated on this instance, by the hash of their secret: a hit saves the database round
 * trip that otherwise dominates a management request. An entry lives `ttlMs` at most and goes at once when the key,
 * its user, tenant or application changes on any instance (InvalidationBus); expiry is checked on every use.
 * Misses are not remembered: an unknown secret always reaches the database.
 */
export class ApiKeyCache {
  private readonly cache: InvalidatedCache<ApiKeyRecord>;
  /** Kept with the keys, because authentication reaches this one cache (server.ts): Bearer subjects found live recently. */
  readonly bearerSubjects: LiveSubjectCache;
  /** And what the credentials' subjects hold (their own lists and roles), from which their permissions follow. */
  readonly heldGrants: HeldGrantsCache;
  /** And whether the credentials' organization is deactivated (organization_deactivated). */
  readonly organizations: OrganizationStatusCache;

  constructor(bus: InvalidationBus, ttlMs: number) {
    this.bearerSubjects = createLiveSubjectCache(bus, ttlMs);
    this.heldGrants = new HeldGrantsCache(bus, ttlMs);
    this.organizations = new OrganizationStatusCache(bus, ttlMs);
    this.cache = new InvalidatedCache(bus, ttlMs, (record) => ({
      api_key: record.id,
      application: record.application_id,
      tenant: record.tenant_id,
      user: record.user_id,
    }));
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
