import { LRUCache } from 'lru-cache';
import type { Invalidation, InvalidationBus, InvalidationKind } from './invalidations.ts';

/** The records a cached value depends on, by invalidation kind: an invalidation of any of them evicts it. */
export type Owners = Partial<Record<InvalidationKind, string | null>>;

const MAX_ENTRIES = 10_000;

/** How many recent invalidations a cache remembers, to tell whether one during a read concerned it; more: keep nothing. */
const RECENT_INVALIDATIONS = 256;

interface Entry<V> {
  readonly value: V;
  readonly owners: Owners;
}

const ownerKey = (kind: string, id: string) => `${kind}\0${id}`;

/** A bound on what the entries weigh together (bytes, as `sizeOf` counts them), for values of very different sizes. */
export interface CacheWeight<V> {
  readonly maxBytes: number;
  sizeOf(value: V): number;
}

/** Per instance, each value living `ttlMs` at most (0: off) and evicted at once when the bus announces a change to one of
 *  its owners, here or on another instance. Misses are never stored: an unknown key always reaches the database. */
export class InvalidatedCache<V extends object> {
  private readonly entries: LRUCache<string, Entry<V>> | undefined;
  private readonly owners: (value: V) => Owners;
  /** The latest invalidations (the i-th at i % RECENT_INVALIDATIONS) and their count: a read begun before one of its owners
   *  (or all) was invalidated stores nothing. Other records' invalidations, other deployments' included, do not stop it. */
  private readonly recent: Invalidation[] = [];
  private heard = 0;
  /** Entry keys by owner, so an invalidation evicts without walking the rest (every invalidation reaches every cache).
   *  Kept in step by lru-cache's `dispose`, called whenever an entry goes. */
  private readonly byOwner = new Map<string, Set<string>>();

  constructor(bus: InvalidationBus, ttlMs: number, owners: (value: V) => Owners, weight?: CacheWeight<V>) {
    // ttlResolution 0: read the clock at each lookup, rather than lru-cache's default of a timer per millisecond.
    const bounds = weight === undefined ? {} : { maxSize: weight.maxBytes, sizeCalculation: (entry: Entry<V>) => Math.max(1, weight.sizeOf(entry.value)) };
    const dispose = (entry: Entry<V>, key: string) => this.fileUnder(key, entry.owners, 'remove');
    this.entries = ttlMs > 0 ? new LRUCache<string, Entry<V>>({ max: MAX_ENTRIES, ttl: ttlMs, ttlResolution: 0, dispose, ...bounds }) : undefined;
    this.owners = owners;
    if (this.entries !== undefined) bus.subscribe((invalidation) => this.forget(invalidation));
  }

  get(key: string): V | undefined {
    return this.entries?.get(key)?.value;
  }

  delete(key: string): void {
    this.entries?.delete(key);
  }

  /** The cached value, else what `load` reads (stored if `keep` says so and no invalidation of its owners came in meanwhile). */
  async find(key: string, load: () => Promise<V | undefined>, keep: (value: V) => boolean = () => true): Promise<V | undefined> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const started = this.heard;
    const loaded = await load();
    if (loaded !== undefined && keep(loaded)) this.store(key, loaded, started);
    return loaded;
  }

  async findMany(keys: readonly string[], load: (missing: string[]) => Promise<ReadonlyMap<string, V>>): Promise<Map<string, V>> {
    const found = new Map<string, V>();
    const missing: string[] = [];
    for (const key of keys) {
      const cached = this.get(key);
      if (cached === undefined) missing.push(key);
      else found.set(key, cached);
    }
    if (missing.length === 0) return found;
    const started = this.heard;
    for (const [key, value] of await load(missing)) {
      found.set(key, value);
      this.store(key, value, started);
    }
    return found;
  }

  /** Keeps what a read begun at the `started`-th invalidation found, unless one of its owners changed meanwhile. */
  private store(key: string, value: V, started: number): void {
    if (this.entries === undefined) return;
    const owners = this.owners(value);
    if (this.invalidatedSince(started, owners)) return;
    const entry = { value, owners };
    this.entries.set(key, entry);
    // Not kept when heavier than the whole weight bound: then nothing is to be filed.
    if (this.entries.peek(key) === entry) this.fileUnder(key, owners, 'add');
  }

  private fileUnder(key: string, owners: Owners, change: 'add' | 'remove'): void {
    for (const [kind, id] of Object.entries(owners)) {
      if (id == null) continue;
      const owner = ownerKey(kind, id);
      const keys = this.byOwner.get(owner);
      if (change === 'add') this.byOwner.set(owner, (keys ?? new Set()).add(key));
      else if (keys?.delete(key) === true && keys.size === 0) this.byOwner.delete(owner);
    }
  }

  /** Whether an invalidation heard since the `since`-th concerns these owners (or could have: too many to tell). */
  private invalidatedSince(since: number, owners: Owners): boolean {
    if (this.heard - since > RECENT_INVALIDATIONS) return true;
    for (let i = since; i < this.heard; i += 1) {
      const invalidation = this.recent[i % RECENT_INVALIDATIONS]!;
      if (invalidation.kind === 'all' || owners[invalidation.kind] === invalidation.id) return true;
    }
    return false;
  }

  private forget(invalidation: Invalidation): void {
    this.recent[this.heard % RECENT_INVALIDATIONS] = invalidation;
    this.heard += 1;
    if (this.entries === undefined) return;
    if (invalidation.kind === 'all') return this.entries.clear();
    const keys = this.byOwner.get(ownerKey(invalidation.kind, invalidation.id));
    // A copy: each deletion's dispose takes its key out of the set.
    for (const key of [...(keys ?? [])]) this.entries.delete(key);
  }
}
