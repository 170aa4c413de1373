import { LRUCache } from 'lru-cache';
import type { Invalidation, InvalidationBus, InvalidationKind } from './invalidations.ts';

/** The records a cached value depends on, by invalidation kind: an invalidation of any of them evicts it. */
export type Owners = Partial<Record<InvalidationKind, string | null>>;

const MAX_ENTRIES = 10_000;

interface Entry<V> {
  readonly value: V;
  readonly owners: Owners;
}

/** A bound on what the entries weigh together (bytes, as `sizeOf` counts them), for values of very different sizes. */
export interface CacheWeight<V> {
  readonly maxBytes: number;
  sizeOf(value: V): number;
}

/**
 * A per-instance cache of values read from the database, each living `ttlMs` at most and evicted at once when the bus
 * announces a change to one of its owners (on this instance or, through Redis, another). `ttlMs` 0 turns it off.
 * Misses are never stored: an unknown key always reaches the database.
 */
export class InvalidatedCache<V extends object> {
  private readonly entries: LRUCache<string, Entry<V>> | undefined;
  private readonly owners: (value: V) => Owners;
  /** Bumped by every invalidation: a read that started before one must not store what it read. */
  private generation = 0;

  constructor(bus: InvalidationBus, ttlMs: number, owners: (value: V) => Owners, weight?: CacheWeight<V>) {
    // ttlResolution 0: read the clock at each lookup, rather than lru-cache's default of a timer per millisecond.
    const bounds = weight === undefined ? {} : { maxSize: weight.maxBytes, sizeCalculation: (entry: Entry<V>) => Math.max(1, weight.sizeOf(entry.value)) };
    this.entries = ttlMs > 0 ? new LRUCache<string, Entry<V>>({ max: MAX_ENTRIES, ttl: ttlMs, ttlResolution: 0, ...bounds }) : undefined;
    this.owners = owners;
    bus.subscribe((invalidation) => this.forget(invalidation));
  }

  get(key: string): V | undefined {
    return this.entries?.get(key)?.value;
  }

  delete(key: string): void {
    this.entries?.delete(key);
  }

  /** The cached value, else what `load` reads (stored unless an invalidation came in meanwhile). */
  async find(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const generation = this.generation;
    const loaded = await load();
    if (loaded !== undefined && generation === this.generation) this.entries?.set(key, { value: loaded, owners: this.owners(loaded) });
    return loaded;
  }

  private forget(invalidation: Invalidation): void {
    this.generation += 1;
    if (this.entries === undefined) return;
    if (invalidation.kind === 'all') return this.entries.clear();
    for (const [key, { owners }] of this.entries.entries()) {
      if (owners[invalidation.kind] === invalidation.id) this.entries.delete(key);
    }
  }
}
