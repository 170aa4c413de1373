import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { LeasingRedisStore } from './rate-limit-leases.ts';
import { fixedWindowsOnly, MEMORY_BUCKETS, MemoryRateLimitStore, type StoreOptions } from './rate-limit-memory.ts';
import { reconnectIfStalled } from './redis-stall.ts';

/** Counts in Redis, and in this instance's memory for any count Redis cannot take. */
class FallbackStore implements FastifyRateLimitStore {
  private readonly shared: FastifyRateLimitStore;
  private readonly local: FastifyRateLimitStore;
  private readonly onFallback: (error: Error) => void;

  constructor(shared: FastifyRateLimitStore, local: FastifyRateLimitStore, onFallback: (error: Error) => void) {
    this.shared = shared;
    this.local = local;
    this.onFallback = onFallback;
  }

  incr(key: string, callback: Parameters<FastifyRateLimitStore['incr']>[1], timeWindow: number, max: number): void {
    this.shared.incr(
      key,
      (error, result) => {
        if (error === null) return callback(null, result);
        this.onFallback(error);
        this.local.incr(key, callback, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }

  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    return new FallbackStore(this.shared.child(routeOptions), this.local.child(routeOptions), this.onFallback);
  }
}

/**
 * The rate-limit store with REDIS_URL: counters shared in Redis under `prefix` (rate-limit-leases.ts). While Redis
 * cannot be reached each instance counts its own rather than answering 500 or waiting: the client must fail commands
 * at once while disconnected (`enableOfflineQueue: false`) and within `commandTimeout` on a Redis that does not answer.
 */
export function rateLimitStore(redis: Redis, prefix: string, log: FastifyBaseLogger): FastifyRateLimitStoreCtor {
  let unreachable = false;
  const fallBack = (error: Error) => {
    reconnectIfStalled(redis, error);
    if (unreachable) return;
    unreachable = true;
    log.warn({ err: error }, 'Redis is unreachable: rate limits and the sign-in throttle count per instance until it is back');
  };
  redis.on('error', fallBack);
  redis.on('ready', () => {
    if (!unreachable) return;
    unreachable = false;
    log.info('Redis is reachable again: rate limits are shared again');
  });
  return class extends FallbackStore {
    constructor(params: StoreOptions) {
      fixedWindowsOnly(params);
      super(new LeasingRedisStore(redis, prefix), new MemoryRateLimitStore(MEMORY_BUCKETS, log), fallBack);
    }
  };
}
