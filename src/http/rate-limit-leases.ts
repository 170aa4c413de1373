import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

type Counted = Parameters<FastifyRateLimitStore['incr']>[1];

/** A count never outlives its window. */
const LEASE_SCRIPT = `
  local count = redis.call('INCRBY', KEYS[1], ARGV[2])
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[1])
    ttl = tonumber(ARGV[1])
  end
  return {count, ttl}
`;

export const LEASE_MAX = 64;
/** Keys remembered at once: a flood of distinct addresses within one window grows no further. */
export const LEASED_KEYS = 100_000;
/** At most 1/16 of what is left of the limit: counts other instances hold unspent waste little of it. */
const HEADROOM_SHARE = 16;

/** Spent in order. */
interface Lease {
  next: number;
  readonly last: number;
  readonly expiresAt: number;
}

interface KeyState {
  lease: Lease | undefined;
  /** Oldest first. */
  readonly waiting: Counted[];
  asking: boolean;
}

interface LeaseCommand {
  rateLimitLease(key: string, windowMs: number, size: number, callback: (error: Error | null, result?: [number, number]) => void): void;
}

/**
 * Leases (docs/decisions.md, "Conventions"): a lone request takes one count, so one-at-a-time clients are counted
 * exactly; requests arriving while a count is on its way wait, and the next lease takes counts for all. Counts held
 * unspent count against other instances until the window ends.
 */
export class LeasingRedisStore implements FastifyRateLimitStore {
  private readonly redis: Redis & LeaseCommand;
  private readonly prefix: string;
  private readonly keys = new Map<string, KeyState>();
  private readonly bound: number;
  private sweptAt = Date.now();

  constructor(redis: Redis, prefix: string, bound = LEASED_KEYS) {
    if (!('rateLimitLease' in redis)) redis.defineCommand('rateLimitLease', { numberOfKeys: 1, lua: LEASE_SCRIPT });
    this.redis = redis as Redis & LeaseCommand;
    this.prefix = prefix;
    this.bound = bound;
  }

  /** Keys remembered, for the bound's tests. */
  get size(): number {
    return this.keys.size;
  }

  incr(key: string, counted: Counted, timeWindow: number, max: number): void {
    const now = Date.now();
    this.sweep(now, timeWindow);
    let state = this.keys.get(key);
    if (state === undefined) {
      if (this.keys.size >= this.bound) this.forgetOldestIdle();
      state = { lease: undefined, waiting: [], asking: false };
      this.keys.set(key, state);
    }
    if (!state.asking && spend(state, counted, now)) return;
    state.waiting.push(counted);
    if (!state.asking) this.ask(key, state, timeWindow, max);
  }

  /** Named as the plugin's own Redis store names a route's. */
  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    const { method, url } = (routeOptions as unknown as { routeInfo: { method: string; url: string } }).routeInfo;
    return new LeasingRedisStore(this.redis, `${this.prefix}${method}${url}-`, this.bound);
  }

  private ask(key: string, state: KeyState, timeWindow: number, max: number): void {
    state.asking = true;
    const now = Date.now();
    // The shared count at this instance's last lease: a floor of it now.
    const known = state.lease !== undefined && state.lease.expiresAt > now ? state.lease.last : 0;
    const wanted = state.waiting.length === 1 ? 1 : 2 * state.waiting.length;
    const size = Math.max(1, Math.min(wanted, LEASE_MAX, Math.floor((max - known) / HEADROOM_SHARE)));
    this.redis.rateLimitLease(this.prefix + key, timeWindow, size, (error, result) => {
      state.asking = false;
      if (error !== null || result === undefined) {
        // Then counted in memory (rate-limit-store.ts).
        const failed = error ?? new Error('Redis answered no count');
        for (const counted of state.waiting.splice(0)) counted(failed);
        return;
      }
      const [count, ttl] = result;
      const answeredAt = Date.now();
      state.lease = { next: count - size + 1, last: count, expiresAt: answeredAt + ttl };
      while (state.waiting.length > 0 && spend(state, state.waiting[0]!, answeredAt)) state.waiting.shift();
      if (state.waiting.length > 0) this.ask(key, state, timeWindow, max);
    });
  }

  /** Its unspent counts stay counted in Redis: forgetting a key can only refuse sooner, never admit more. */
  private forgetOldestIdle(): void {
    for (const [key, state] of this.keys) {
      if (!state.asking) {
        this.keys.delete(key);
        return;
      }
    }
  }

  private sweep(now: number, timeWindow: number): void {
    if (now - this.sweptAt < timeWindow) return;
    this.sweptAt = now;
    for (const [key, state] of this.keys) {
      if (!state.asking && (state.lease === undefined || state.lease.expiresAt <= now)) this.keys.delete(key);
    }
  }
}

function spend(state: KeyState, counted: Counted, now: number): boolean {
  const { lease } = state;
  if (lease === undefined || lease.next > lease.last || lease.expiresAt <= now) return false;
  const current = lease.next;
  lease.next += 1;
  counted(null, { current, ttl: lease.expiresAt - now });
  return true;
}
