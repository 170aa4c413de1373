import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';

type Counted = Parameters<FastifyRateLimitStore['incr']>[1];

/** The prefix of a working credential's bucket (server.ts `rateLimitKey`); every other key is an address's. */
export const CREDENTIAL_BUCKET = 'cred:';

/** Per pool and limit (docs/decisions.md, "Rate limiting"): about 25 MB at the longest keys (a SAML provider's). */
export const MEMORY_BUCKETS = 100_000;

interface Bucket {
  count: number;
  readonly endsAt: number;
}

/**
 * Buckets that each last their whole window and never make room for another before it ends: a full pool refuses
 * new keys instead. One store counts one window length, so insertion order is the order in which windows end.
 */
class Pool {
  private readonly buckets = new Map<string, Bucket>();
  private readonly bound: number;

  constructor(bound: number) {
    this.bound = bound;
  }

  get size(): number {
    return this.buckets.size;
  }

  /** The key's bucket, counted; or, with no room, the milliseconds until the first window ends. */
  count(key: string, now: number, windowMs: number): Bucket | number {
    let bucket = this.buckets.get(key);
    if (bucket !== undefined && bucket.endsAt <= now) {
      this.buckets.delete(key);
      bucket = undefined;
    }
    if (bucket === undefined) {
      this.dropEnded(now);
      const first = this.buckets.values().next();
      if (this.buckets.size >= this.bound && !first.done) return first.value.endsAt - now;
      bucket = { count: 0, endsAt: now + windowMs };
      this.buckets.set(key, bucket);
    }
    bucket.count += 1;
    return bucket;
  }

  private dropEnded(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.endsAt > now) return;
      this.buckets.delete(key);
    }
  }
}

/**
 * Fixed-window counters in this instance's memory, without Redis or while it is unreachable. Working credentials'
 * buckets (only a valid credential makes one) are kept apart from addresses', so no number of addresses pushes a
 * credential's count out; each pool holds at most `bound` buckets, and a full one answers 429 to a new key until a
 * window ends rather than forgetting a live count.
 */
export class MemoryRateLimitStore implements FastifyRateLimitStore {
  private readonly credentials: Pool;
  private readonly addresses: Pool;
  private readonly bound: number;
  private readonly log: FastifyBaseLogger | undefined;
  private warnedAt = -Infinity;

  constructor(bound: number, log?: FastifyBaseLogger) {
    this.bound = bound;
    this.log = log;
    this.credentials = new Pool(bound);
    this.addresses = new Pool(bound);
  }

  /** Buckets held, for the bound's tests. */
  get size(): number {
    return this.credentials.size + this.addresses.size;
  }

  incr(key: string, counted: Counted, timeWindow: number, max: number): void {
    const now = Date.now();
    const pool = key.startsWith(CREDENTIAL_BUCKET) ? this.credentials : this.addresses;
    const bucket = pool.count(key, now, timeWindow);
    if (typeof bucket === 'number') {
      // Once a window: under a flood this is every request.
      if (now - this.warnedAt >= timeWindow) {
        this.warnedAt = now;
        this.log?.warn({ buckets: this.bound }, 'in-memory rate-limit buckets are full: new clients are refused 429 until a window ends');
      }
      counted(null, { current: max + 1, ttl: bucket });
      return;
    }
    counted(null, { current: bucket.count, ttl: bucket.endsAt - now });
  }

  /** A limit of its own (the sign-in throttle's), with pools of its own. */
  child(): MemoryRateLimitStore {
    return new MemoryRateLimitStore(this.bound, this.log);
  }
}

export type StoreOptions = FastifyRateLimitOptions & { continueExceeding?: boolean; exponentialBackoff?: boolean };

/** Our stores count fixed windows only; no route asks for more. */
export function fixedWindowsOnly(params: StoreOptions): void {
  if (params.continueExceeding === true || params.exponentialBackoff === true) throw new Error('rate limits count fixed windows only');
}

/** The store without Redis. */
export function memoryRateLimitStore(log: FastifyBaseLogger, bound = MEMORY_BUCKETS): FastifyRateLimitStoreCtor {
  return class extends MemoryRateLimitStore {
    constructor(params: StoreOptions) {
      fixedWindowsOnly(params);
      super(bound, log);
    }
  };
}
