import { createRequire } from 'node:module';
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { LeasingRedisStore } from './rate-limit-leases.ts';
import { reconnectIfStalled } from './redis-stall.ts';

/** The plugin's in-memory store, which it does not export: (continueExceeding, exponentialBackoff, LRU size). */
type PluginStore = new (continueExceeding: boolean, exponentialBackoff: boolean, ...rest: unknown[]) => FastifyRateLimitStore;
const require = createRequire(import.meta.url);
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as PluginStore;

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
    constructor(params: FastifyRateLimitOptions & { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      // Leases count fixed windows only; no route asks for these.
      if (params.continueExceeding === true || params.exponentialBackoff === true) throw new Error('rate limits count fixed windows only');
      super(new LeasingRedisStore(redis, prefix), new LocalStore(false, false), fallBack);
    }
  };
}
