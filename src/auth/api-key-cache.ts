import { LRUCache } from 'lru-cache';
import type { Invalidation, InvalidationBus } from '../events/invalidations.ts';

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

const MAX_ENTRIES = 10_000;

/**
 * The API keys recently authenticated on this instance, by the hash of their secret: a hit saves the database round
 * trip that otherwise dominates a management request. An entry lives `ttlMs` at most and goes at once when the key,
 * its user, tenant or application changes on any instance (InvalidationBus); expiry is checked on every use.
 * Misses are not remembered: an unknown secret always reaches the database.
 */
export class ApiKeyCache {
  private readonly entries: LRUCache<string, ApiKeyRecord> | undefined;
  /** Bumped by every invalidation: a read that started before one must not store what it read. */
  private generation = 0;

  constructor(bus: InvalidationBus, ttlMs: number) {
    this.entries = ttlMs > 0 ? new LRUCache({ max: MAX_ENTRIES, ttl: ttlMs }) : undefined;
    bus.subscribe((invalidation) => this.forget(invalidation));
  }

  async find(secretHash: string, load: () => Promise<ApiKeyRecord | undefined>, now = new Date()): Promise<ApiKeyRecord | undefined> {
    const cached = this.entries?.get(secretHash);
    if (cached !== undefined) {
      if (cached.expires_at === null || cached.expires_at > now) return cached;
      this.entries?.delete(secretHash);
      return undefined;
    }
    const generation = this.generation;
    const loaded = await load();
    if (loaded !== undefined && generation === this.generation) this.entries?.set(secretHash, loaded);
    return loaded;
  }

  private forget(invalidation: Invalidation): void {
    this.generation += 1;
    if (this.entries === undefined) return;
    if (invalidation.kind === 'all') return this.entries.clear();
    const field = ({ api_key: 'id', application: 'application_id', tenant: 'tenant_id', user: 'user_id' } as const)[invalidation.kind];
    for (const [hash, record] of this.entries.entries()) {
      if (record[field] === invalidation.id) this.entries.delete(hash);
    }
  }
}
