import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { HttpClient } from '../support/http.ts';
import { TWO_INSTANCES } from '../support/second-instance.ts';
import { freePort, spawnService as start, takenPort, type SpawnedService as Started } from '../support/spawned-service.ts';

/**
 * `npm start` with WORKERS: a cluster primary that prepares the database once and forks the workers, which share the
 * port. Run as `node src/process/main.ts` in a child process, as an operator would; the service says "ready" over the IPC
 * channel once every worker listens.
 */
describe('WORKERS refusals, before anything else', () => {
  // Unreachable addresses: a refusal that came after trying them would say so instead.
  const nowhere = { DATABASE_URL: 'postgres://postgres@127.0.0.1:9/none', REDIS_URL: 'redis://127.0.0.1:9' };

  it.each([
    ['without REDIS_URL', { ...nowhere, WORKERS: '2', REDIS_URL: '' }, 'gatehouse: WORKERS=2 needs REDIS_URL: '],
    ['without DATABASE_URL', { ...nowhere, WORKERS: '2', DATABASE_URL: '' }, 'gatehouse: WORKERS=2 needs DATABASE_URL: '],
    ['with WORKERS=abc', { ...nowhere, WORKERS: 'abc' }, 'gatehouse: WORKERS must be a positive integer or auto, got "abc"'],
  ])('%s: exits 1 with the reason', async (_, env, message) => {
    const service = start(env);
    expect(await service.exited).toBe(1);
    expect(service.stderr()).toContain(message);
    expect(service.stdout()).toBe('');
  });
});

/** The processes the kernel lists as children of `pid`. */
async function children(pid: number): Promise<number[]> {
  const listed = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8');
  return listed.trim().split(/\s+/).filter(Boolean).map(Number);
}

async function eventually<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never: ${what}`);
}

describe.runIf(TWO_INSTANCES)('WORKERS=2 whose workers cannot start', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database?.drop());

  it('exits 1 with the reason, as one process would, instead of replacing them for ever', async () => {
    const { port, release } = await takenPort();
    try {
      const service = start({
        WORKERS: '2',
        DATABASE_URL: database.databaseUrl ?? '',
        REDIS_URL: process.env['REDIS_URL'] ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      });
      expect(await service.exited).toBe(1);
      const lines = service.stdout().split('\n').filter((line) => line.startsWith('{'));
      const stopped = lines.find((line) => line.includes('a worker exited before the service was listening; stopping'));
      expect(stopped).toBeDefined();
      // One pid per line (the primary's); the worker's is `workerPid`.
      expect(JSON.parse(stopped!)).toMatchObject({ pid: service.child.pid, workerPid: expect.any(Number), code: 1 });
      expect(stopped!.match(/"pid":/g)).toHaveLength(1);
      expect(service.stdout()).not.toContain('replacing it');
    } finally {
      await release();
    }
    // The primary migrates a new database before any worker starts: over a minute on a loaded machine.
  }, 180_000);
});

// The workers share one PostgreSQL and hear each other through Redis: both are required with WORKERS above 1.
describe.runIf(TWO_INSTANCES)('WORKERS=2 on PostgreSQL and Redis', () => {
  let database: TestDatabase;
  let service: Started;
  let port: number;
  let bootstrapKey: string;

  /** One request on a connection of its own (no keep-alive), so the primary hands each to a worker afresh. */
  function get(path: string, headers: Record<string, string> = {}): Promise<number> {
    return new Promise((resolve, reject) => {
      request({ host: '127.0.0.1', port, path, headers, agent: false }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      })
        .on('error', reject)
        .end();
    });
  }

  /** The worker pids that logged completing these request ids (the ids are our X-Request-Id headers). */
  async function servedBy(requestIds: string[]): Promise<Set<number>> {
    const wanted = new Set(requestIds);
    return eventually('every request logged', async () => {
      const completed = service
        .stdout()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string; reqId?: string; pid: number; worker?: number })
        .filter((entry) => entry.msg === 'request completed' && wanted.has(entry.reqId ?? '') && entry.worker !== undefined);
      return completed.length === wanted.size ? new Set(completed.map((entry) => entry.pid)) : undefined;
    });
  }

  /** `count` requests on new connections with the key, each with its own request id. */
  async function burst(key: string, count = 20): Promise<{ statuses: number[]; ids: string[] }> {
    const ids = Array.from({ length: count }, () => randomUUID());
    const statuses = await Promise.all(ids.map((id) => get('/api/v1/applications', { 'x-api-key': key, 'x-request-id': id })));
    return { statuses, ids };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    port = await freePort();
    service = start({
      WORKERS: '2',
      DATABASE_URL: database.databaseUrl ?? '',
      REDIS_URL: process.env['REDIS_URL'] ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // Info level: each request's "request completed" line names the worker that served it.
      LOG_LEVEL: 'info',
      RATE_LIMIT_MAX: '100000',
      RATE_LIMIT_REDIS_PREFIX: `gatehouse-test-${randomUUID()}-`,
      // Ten minutes: a revoked key refused within the test can only have been forgotten through an invalidation.
      API_KEY_CACHE_MS: '600000',
    });
    await service.ready;
  });
  afterAll(async () => {
    if (service?.child.exitCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    await database?.drop();
  });

  it('prepares the database once: the bootstrap key is printed exactly once, and works', async () => {
    const printed = [...service.stdout().matchAll(/Bootstrap API key \(app_admin, shown once\): (\S+)/g)];
    expect(printed).toHaveLength(1);
    bootstrapKey = printed[0]?.[1] as string;
    const { statuses } = await burst(bootstrapKey);
    expect(statuses.every((status) => status === 200), String(statuses)).toBe(true);
  });

  it('runs two worker processes under the primary, and both serve requests on new connections', async () => {
    const workers = await children(service.child.pid as number);
    expect(workers).toHaveLength(2);
    for (const pid of workers) expect(await readFile(`/proc/${pid}/cmdline`, 'utf8')).toContain('src/process/main.ts');
    const { statuses, ids } = await burst(bootstrapKey, 40);
    expect(statuses.every((status) => status === 200), String(statuses)).toBe(true);
    expect([...(await servedBy(ids))].sort()).toEqual([...workers].sort());
  });

  it('/metrics on any worker counts the whole cluster: the primary sums every worker\'s', async () => {
    /** The count of 200s on the applications route in one scrape, on a connection of its own (either worker). */
    const scraped = () =>
      new Promise<number>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path: '/metrics', agent: false }, (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => {
            const line = text.split('\n').find((entry) => entry.startsWith('gatehouse_http_request_duration_seconds_count{') && entry.includes('route="/api/v1/applications"') && entry.includes('status="200"'));
            resolve(Number(line?.split(' ').at(-1) ?? 0));
          });
        })
          .on('error', reject)
          .end();
      });
    const before = await scraped();
    const { statuses, ids } = await burst(bootstrapKey, 30);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect((await servedBy(ids)).size).toBe(2);
    for (let i = 0; i < 6; i += 1) expect(await scraped()).toBe(before + 30);
  });

  it('a revoked API key is refused on every new connection, whichever worker had it cached', async () => {
    const admin = new HttpClient(`http://127.0.0.1:${port}`, { apiKey: bootstrapKey });
    const created = await admin.post('/api-keys', { name: 'revoked across workers', permissions: ['*'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const secret = created.body.secret as string;
    const warm = await burst(secret);
    expect(warm.statuses.every((status) => status === 200), String(warm.statuses)).toBe(true);
    expect((await servedBy(warm.ids)).size).toBe(2);

    expect((await admin.delete(`/api-keys/${created.body.key.id}`)).status).toBe(204);
    // The other worker hears of it through Redis pub/sub: wait for a round refused everywhere, then every one after.
    await eventually('a round of refusals', async () => ((await burst(secret)).statuses.every((status) => status === 401) ? true : undefined));
    const after = await burst(secret, 40);
    expect(after.statuses.every((status) => status === 401), String(after.statuses)).toBe(true);
    expect((await servedBy(after.ids)).size).toBe(2);
  });

  it('replaces a worker that dies', async () => {
    const primary = service.child.pid as number;
    const [victim, survivor] = await children(primary);
    process.kill(victim as number, 'SIGKILL');
    const replacement = await eventually('a new worker', async () => (await children(primary)).find((pid) => pid !== victim && pid !== survivor));
    expect(service.stdout()).toContain('a worker exited unexpectedly; replacing it');
    // Serving once it has started: some request on a new connection reaches it.
    await eventually('the new worker serving', async () => {
      const { statuses, ids } = await burst(bootstrapKey, 4);
      expect(statuses.every((status) => status === 200), String(statuses)).toBe(true);
      return (await servedBy(ids)).has(replacement) ? true : undefined;
    });
  });

  it('on SIGTERM, every worker finishes and the primary exits 0, connections pre-opened and never used closed at once', async () => {
    const workers = await children(service.child.pid as number);
    // Handed out round-robin: each worker gets some. Left open, each would hold its worker's shutdown for
    // SHUTDOWN_TIMEOUT_MS (30 s), which then exits 1.
    const unused = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const socket = connect({ host: '127.0.0.1', port });
        socket.on('error', () => undefined);
        await once(socket, 'connect');
        return socket;
      }),
    );
    const closed = Promise.all(unused.map((socket) => once(socket, 'close')));
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    await closed;
    expect(service.stdout()).not.toContain('shutdown did not finish in time');
    for (const pid of workers) expect(existsSync(`/proc/${pid}`)).toBe(false);
  });
});
