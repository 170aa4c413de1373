import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_MAX, LeasingRedisStore } from '../../src/http/rate-limit-leases.ts';

const redisUrl = process.env['REDIS_URL'];
const WINDOW_MS = 60_000;

/** Counts the leases asked of `redis` from now on: its round trips. */
function leasesOf(redis: Redis): { asked: number } {
  const leases = { asked: 0 };
  const command = redis as unknown as { rateLimitLease: (...args: unknown[]) => void };
  const original = command.rateLimitLease.bind(redis);
  command.rateLimitLease = (...args: unknown[]) => {
    leases.asked += 1;
    original(...args);
  };
  return leases;
}

/** One instance's store. */
function instance(redis: Redis, prefix: string, bound?: number) {
  const store = new LeasingRedisStore(redis, prefix, bound);
  const count = (key: string, max: number, windowMs = WINDOW_MS) =>
    new Promise<{ current: number; ttl: number }>((resolve, reject) =>
      store.incr(key, (error, result) => (error === null && result !== undefined ? resolve(result) : reject(error ?? new Error('no result'))), windowMs, max),
    );
  return { store, count, leases: leasesOf(redis) };
}

// The store exists only with REDIS_URL: CI's PostgreSQL and Redis pass runs these; its embedded pass, without Redis,
// counts in memory (test/api/conventions.test.ts covers both).
describe.skipIf(redisUrl === undefined)('rate-limit counts leased from Redis', () => {
  let redis: Redis;
  let prefix: string;
  const shared = async (key: string) => Number(await redis.get(`${prefix}${key}`));

  beforeAll(() => {
    redis = new Redis(redisUrl!);
    prefix = `gatehouse-test-${randomUUID()}-`;
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('counts a request at a time exactly: one round trip each, and what another instance counted shows at once', async () => {
    const first = instance(redis, prefix);
    const second = instance(redis, prefix);
    expect((await first.count('one', 600)).current).toBe(1);
    expect((await first.count('one', 600)).current).toBe(2);
    expect((await second.count('one', 600)).current).toBe(3);
    const { current, ttl } = await first.count('one', 600);
    expect(current).toBe(4);
    expect(ttl).toBeGreaterThan(WINDOW_MS - 5_000);
    expect(ttl).toBeLessThanOrEqual(WINDOW_MS);
    expect(await shared('one')).toBe(4);
    // Both stores share the connection: its newest counter sees every round trip.
    expect(second.leases.asked).toBe(4);
  });

  it('takes the counts of concurrent requests in leases: each request one count, in order, far fewer round trips', async () => {
    const { count, leases } = instance(redis, prefix);
    const answers = await Promise.all(Array.from({ length: 200 }, () => count('busy', 1_000_000)));
    expect(answers.map(({ current }) => current)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(leases.asked).toBeLessThan(20);
    const counted = await shared('busy');
    expect(counted).toBeGreaterThanOrEqual(200);
    expect(counted).toBeLessThanOrEqual(200 + LEASE_MAX);
  });

  it('admits exactly the limit on one instance, however concurrent its requests', async () => {
    const { count } = instance(redis, prefix);
    const answers = await Promise.all(Array.from({ length: 500 }, () => count('limited', 300)));
    expect(answers.filter(({ current }) => current <= 300)).toHaveLength(300);
    expect(answers.slice(0, 300).every(({ current }) => current <= 300)).toBe(true);
  });

  it('refuses on every instance once the shared count is past the limit', async () => {
    const first = instance(redis, prefix);
    const second = instance(redis, prefix);
    const admitted = await Promise.all(Array.from({ length: 10 }, () => first.count('both', 10)));
    expect(admitted.every(({ current }) => current <= 10)).toBe(true);
    expect((await second.count('both', 10)).current).toBe(11);
    expect((await first.count('both', 10)).current).toBe(12);
  });

  it('takes one count at a time near the limit: a small limit is counted as without leases', async () => {
    const { count, leases } = instance(redis, prefix);
    const answers = await Promise.all(Array.from({ length: 20 }, () => count('small', 5)));
    expect(answers.map(({ current }) => current)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(leases.asked).toBe(20);
    expect(await shared('small')).toBe(20);
  });

  it('spends no count of a window that has ended', async () => {
    const { count } = instance(redis, prefix);
    await Promise.all(Array.from({ length: 30 }, () => count('short', 1_000_000, 200)));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await count('short', 1_000_000, 200)).current).toBe(1);
  });

  it('remembers at most its bound of keys within a window, forgetting idle ones; a forgotten key’s unspent counts still count', async () => {
    const bounded = instance(redis, prefix, 3);
    // Concurrent: the lease takes counts for all, most left unspent.
    await Promise.all(Array.from({ length: 8 }, () => bounded.count('burst', 600)));
    for (const address of ['a', 'b', 'c', 'd']) await bounded.count(address, 600);
    expect(bounded.store.size).toBe(3);
    const leased = await shared('burst');
    expect(leased).toBeGreaterThan(8);
    // Forgotten, it asks Redis again: counted after every count another lease took, none given twice.
    expect((await bounded.count('burst', 600)).current).toBe(leased + 1);
  });

  it('answers every waiting request with the error when Redis cannot count, so each is counted another way', async () => {
    const offline = new Redis(redisUrl!, { lazyConnect: true, enableOfflineQueue: false });
    try {
      const { count } = instance(offline, prefix);
      const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => count('offline', 600)));
      expect(outcomes.map(({ status }) => status)).toEqual(Array(5).fill('rejected'));
    } finally {
      offline.disconnect();
    }
  });
});
