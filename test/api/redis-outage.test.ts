import { randomUUID } from 'node:crypto';
import { createServer, Socket, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { settled } from '../support/second-instance.ts';

/**
 * REDIS_URL set, Redis unreachable: the service keeps answering, each instance counting its rate limits alone (as
 * without REDIS_URL) until Redis is back, instead of a 500 on every request, /healthz included, each slower than the
 * last (ioredis queued every command behind its reconnection attempts).
 */
const MAX = 3;
const lines: { level: number; msg: string }[] = [];
const logStream = { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) };
const said = (message: string) => lines.filter((line) => line.msg.startsWith(message)).length;

async function timed(request: () => Promise<{ status: number; headers: Headers }>) {
  const started = performance.now();
  const response = await request();
  return { status: response.status, limit: response.headers.get('x-ratelimit-limit'), ms: performance.now() - started };
}

describe('Redis unreachable from the start', () => {
  let app: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 1: every connection attempt is refused.
    app = await startTestApp({ redisUrl: 'redis://127.0.0.1:1', rateLimit: { max: MAX, windowMs: 60_000, redisPrefix: `gatehouse-test-${randomUUID()}-` } }, { logStream });
  });
  afterAll(async () => app?.close());

  it('answers at once, health and management alike, with the rate-limit headers', async () => {
    const health = await timed(() => fetch(`${app.baseUrl}/healthz`));
    const users = await timed(() => app.http.get('/users'));
    for (const answer of [health, users]) {
      expect(answer.status).toBe(200);
      expect(answer.limit).toBe(String(MAX));
      expect(answer.ms).toBeLessThan(1_000);
    }
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

/** A TCP proxy to the real Redis that the test can cut and restore, as a network partition would. */
class RedisLink {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly target: URL;
  port = 0;

  constructor(target: URL) {
    this.target = target;
  }

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = new Socket().connect(Number(this.target.port || 6379), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket)).on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async cut(): Promise<void> {
    const closed = new Promise((resolve) => this.server?.close(resolve));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

describe.runIf(process.env['REDIS_URL'])('Redis lost while running, then back', () => {
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
    await link.open();
    expect(await settled(async () => said('Redis is reachable again'), (count) => count === 1)).toBe(1);
    expect((await app.http.get('/users')).status).toBe(200);
  });
});
