import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { RedisLink } from '../support/redis-link.ts';
import { settled } from '../support/second-instance.ts';

/**
 * REDIS_URL set, Redis unreachable: the service keeps answering, each instance counting its rate limits alone (as
 * without REDIS_URL) until Redis is back, instead of a 500 on every request, /healthz included, each slower than the
 * last (ioredis queued every command behind its reconnection attempts).
 */
const MAX = 3;
const FAN_OUT_FAILED = 'invalidation fan-out through Redis failed';

/** The service's log lines, and how many begin with `message`. */
function collectLog() {
  const lines: { level: number; msg: string }[] = [];
  const logStream = { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) };
  const said = (message: string) => lines.filter((line) => line.msg.startsWith(message)).length;
  return { logStream, said };
}

/** The answer, or a failure naming `what` if there is none within `ms`: a request waiting on Redis fails the test rather than hanging it. */
async function within<T>(ms: number, what: string, answer: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function timed(request: () => Promise<{ status: number; headers: Headers }>) {
  const started = performance.now();
  const response = await request();
  return { status: response.status, limit: response.headers.get('x-ratelimit-limit'), ms: performance.now() - started };
}

/** A gauge of /metrics (no METRICS_TOKEN here), or undefined when absent. */
async function gauge(app: TestApp, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${app.baseUrl}/metrics`)).text();
  const sample = new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
  return sample === null ? undefined : Number(sample[1]);
}

const fanOutUp = (app: TestApp) => gauge(app, 'gatehouse_invalidation_fanout_up');
const redisUp = (app: TestApp) => gauge(app, 'gatehouse_redis_up');

describe('Redis unreachable from the start', () => {
  const { logStream, said } = collectLog();
  let app: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 1: every connection attempt is refused.
    app = await startTestApp({ redisUrl: 'redis://127.0.0.1:1', rateLimit: { max: MAX, windowMs: 60_000, redisPrefix: `gatehouse-test-${randomUUID()}-` } }, { logStream });
  });
  afterAll(async () => app?.close());

  it('answers at once, health and management alike, management with the rate-limit headers (the probes are outside it)', async () => {
    const health = await timed(() => fetch(`${app.baseUrl}/healthz`));
    const users = await timed(() => app.http.get('/users'));
    for (const answer of [health, users]) {
      expect(answer.status).toBe(200);
      expect(answer.ms).toBeLessThan(1_000);
    }
    expect(users.limit).toBe(String(MAX));
    expect(health.limit).toBeNull();
    expect(await fanOutUp(app)).toBe(0);
    expect(await redisUp(app)).toBe(0);
  });

  it('still limits, counting in this instance', async () => {
    const { apiKey } = await app.bootstrapAnother();
    const statuses = [];
    for (let i = 0; i <= MAX; i += 1) statuses.push((await app.as({ apiKey }).get('/users')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('says so once in the log, not once per request', () => {
    expect(said('Redis is unreachable: rate limits and the sign-in throttle count per instance')).toBe(1);
  });
});

describe.runIf(process.env['REDIS_URL'])('Redis lost while running, then back', () => {
  const { logStream, said } = collectLog();
  let app: TestApp;
  let link: RedisLink;
  beforeAll(async () => {
    link = new RedisLink(new URL(process.env['REDIS_URL']!));
    await link.open();
    app = await startTestApp({ redisUrl: `redis://127.0.0.1:${link.port}` }, { logStream });
  });
  afterAll(async () => {
    await app?.close();
    await link?.cut();
  });

  it('keeps answering while Redis is away, and shares the counters again once it is back', async () => {
    expect((await app.http.get('/users')).status).toBe(200);
    await link.cut();
    const during = await Promise.all([timed(() => fetch(`${app.baseUrl}/healthz`)), timed(() => app.http.get('/users'))]);
    for (const answer of during) {
      expect(answer.status).toBe(200);
      expect(answer.ms).toBeLessThan(1_000);
    }
    // Several reconnection attempts, each failing: the invalidation subscription's failure is logged once, not each time.
    await pause(3_000);
    expect(said(FAN_OUT_FAILED)).toBe(1);
    await link.open();
    expect(await settled(async () => said('Redis is reachable again'), (count) => count === 1)).toBe(1);
    expect((await app.http.get('/users')).status).toBe(200);
  });
});

describe.runIf(process.env['REDIS_URL'])('Redis stops answering, its connections open (a partition, a frozen server)', () => {
  const { logStream, said } = collectLog();
  const redisPrefix = `gatehouse-test-${randomUUID()}-`;
  let app: TestApp;
  let link: RedisLink;
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(process.env['REDIS_URL']!);
    link = new RedisLink(new URL(process.env['REDIS_URL']!));
    await link.open();
    app = await startTestApp({ redisUrl: `redis://127.0.0.1:${link.port}`, rateLimit: { max: 1_000, windowMs: 60_000, redisPrefix } }, { logStream });
  });
  afterAll(async () => {
    link?.thaw();
    await app?.close();
    await link?.cut();
    redis?.disconnect();
  });

  it('answers every request, writes that publish an invalidation included, and shares the counters again once it answers', async () => {
    const created = await app.http.post('/api-keys', { name: 'revoked while Redis is frozen', permissions: ['users:read'] });
    expect(created.status).toBe(201);
    expect((await app.http.get('/users')).status).toBe(200);
    expect(await fanOutUp(app)).toBe(1);

    link.freeze();
    // Bounds far above the commands' timeout, for a loaded machine: what they catch is waiting for ever.
    const first = await Promise.all([
      within(5_000, '/healthz', fetch(`${app.baseUrl}/healthz`)),
      within(5_000, '/readyz', fetch(`${app.baseUrl}/readyz`)),
      within(5_000, 'GET /users', app.http.get('/users')),
      within(5_000, 'DELETE /api-keys/:keyId', app.http.delete(`/api-keys/${created.body.key.id}`)),
    ]);
    expect(first.map((answer) => answer.status)).toEqual([200, 200, 200, 204]);
    const later = await Promise.all([
      within(5_000, 'later /healthz', fetch(`${app.baseUrl}/healthz`)),
      within(5_000, 'later GET /users', app.http.get('/users')),
    ]);
    expect(later.map((answer) => answer.status)).toEqual([200, 200]);
    await pause(2_000);
    expect(said('Redis is unreachable')).toBe(1);
    expect(said(FAN_OUT_FAILED)).toBe(1);
    expect(await fanOutUp(app)).toBe(0);

    link.thaw();
    expect(await settled(async () => said('Redis is reachable again'), (count) => count === 1)).toBe(1);
    expect(await settled(async () => said('invalidation fan-out through Redis works again'), (count) => count === 1)).toBe(1);
    expect(await fanOutUp(app)).toBe(1);
    // Counted in Redis again: what another instance adds to the shared counters shows in this one's answers.
    const before = Number((await app.http.get('/users')).headers.get('x-ratelimit-remaining'));
    for (const key of await redis.keys(`${redisPrefix}*`)) await redis.incrby(key, 10);
    const after = Number((await app.http.get('/users')).headers.get('x-ratelimit-remaining'));
    expect(before - after).toBe(11);
  });
});

// docs/operations.md: gatehouse_redis_up is 1 when Redis answers, 0 when not, on an idle instance too.
describe.runIf(process.env['REDIS_URL'])('gatehouse_redis_up while Redis stops answering, no request made', () => {
  let app: TestApp;
  let link: RedisLink;
  beforeAll(async () => {
    link = new RedisLink(new URL(process.env['REDIS_URL']!));
    await link.open();
    app = await startTestApp({ redisUrl: `redis://127.0.0.1:${link.port}` });
  });
  afterAll(async () => {
    link?.thaw();
    await app?.close();
    await link?.cut();
  });

  it('says 0 once Redis no longer answers, as the fan-out gauge does, and 1 once it answers again', async () => {
    expect((await app.http.get('/users')).status).toBe(200);
    expect(await redisUp(app)).toBe(1);
    link.freeze();
    // Both notice by their PINGs (every 2 s, 500 ms timeout); before, the command client's connection stayed `ready`.
    expect(await settled(async () => [await fanOutUp(app), await redisUp(app)], ([fanOut, redis]) => fanOut === 0 && redis === 0)).toEqual([0, 0]);
    link.thaw();
    expect(await settled(async () => redisUp(app), (up) => up === 1)).toBe(1);
  }, 30_000);
});
