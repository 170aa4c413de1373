import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { freePort, killRunning, spawnService, type SpawnedService } from '../support/spawned-service.ts';

/**
 * An Idempotency-Key write is exactly once across a crash: a burst of keyed creates is cut by SIGKILL, the service is
 * started again on the same database (the embedded one: the same data directory), and every request is sent again
 * with its key. Each is answered at once, by the replay of a write that committed or by the write it never committed;
 * each key leaves exactly one API key or user.
 */
const API_KEY = 'gatehouse-crash-test-bootstrap-key-0123456789';
const KEYS = 40;
const USERS = 40;

let database: TestDatabase;
const services: SpawnedService[] = [];
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await killRunning(services.splice(0));
  await database?.drop();
});

async function started(): Promise<string> {
  const port = await freePort();
  const databaseEnv: Record<string, string> = database.databaseUrl === undefined ? { DATABASE_URL: '', GATEHOUSE_DATA_DIR: database.dataDir } : { DATABASE_URL: database.databaseUrl };
  const service = spawnService({ ...databaseEnv, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', REDIS_URL: '', GATEHOUSE_BOOTSTRAP_API_KEY: API_KEY });
  services.push(service);
  await service.ready;
  return `http://127.0.0.1:${port}/api/v1`;
}

interface Write {
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly idempotencyKey: string;
}

interface Answer {
  readonly status: number;
  readonly replayed: boolean;
  readonly body: Record<string, unknown>;
}

async function send(base: string, write: Write, apiKey = API_KEY): Promise<Answer> {
  const response = await fetch(`${base}${write.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'idempotency-key': write.idempotencyKey },
    body: JSON.stringify(write.body),
  });
  return { status: response.status, replayed: response.headers.get('idempotent-replayed') === 'true', body: (await response.json()) as Record<string, unknown> };
}

/** Every row of a list route, page after page. */
async function listAll(base: string, path: string): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const response = await fetch(`${base}${path}?pageSize=100${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, { headers: { 'x-api-key': API_KEY } });
    expect(response.status).toBe(200);
    const page = (await response.json()) as { data: Record<string, unknown>[]; next: string | null };
    rows.push(...page.data);
    cursor = page.next;
  } while (cursor !== null);
  return rows;
}

describe('Idempotency-Key writes cut by SIGKILL', () => {
  it('are answered at once when retried after a restart, and each key leaves exactly one API key or user', async () => {
    const base = await started();
    const writes: Write[] = [
      ...Array.from({ length: KEYS }, (_, i) => ({ path: '/api-keys', body: { name: `burst-${i}`, permissions: ['users:read'] }, idempotencyKey: crypto.randomUUID() })),
      ...Array.from({ length: USERS }, (_, i) => ({ path: '/users', body: { email: `burst-${i}@example.com` }, idempotencyKey: crypto.randomUUID() })),
    ];
    // Interleaved, so that the cut falls among both kinds.
    writes.sort((a, b) => a.idempotencyKey.localeCompare(b.idempotencyKey));

    const first = new Map<Write, Answer>();
    let answeredBeforeTheCut!: () => void;
    const quarterAnswered = new Promise<void>((resolve) => (answeredBeforeTheCut = resolve));
    const burst = Promise.allSettled(
      writes.map(async (write) => {
        const answer = await send(base, write);
        first.set(write, answer);
        if (first.size >= writes.length / 4) answeredBeforeTheCut();
      }),
    );
    await quarterAnswered;
    const [crashed] = services;
    crashed!.child.kill('SIGKILL');
    await crashed!.exited;
    await burst;
    // Cut in the middle: some answered, some not.
    expect(first.size).toBeGreaterThan(0);
    expect(first.size).toBeLessThan(writes.length);
    for (const answer of first.values()) expect(answer.status).toBe(201);

    const again = await started();
    const retried = await Promise.all(writes.map((write) => send(again, write)));
    for (const [index, write] of writes.entries()) {
      const answer = retried[index]!;
      expect(answer.status, write.path).toBe(201);
      // An answer the client got is the one replayed; the others were either committed (replayed) or run now.
      const got = first.get(write);
      if (got !== undefined) {
        expect(answer.replayed).toBe(true);
        expect(answer.body).toEqual(got.body);
      }
    }

    const keys = await listAll(again, '/api-keys');
    const users = await listAll(again, '/users');
    for (let i = 0; i < KEYS; i += 1) expect(keys.filter((key) => key.name === `burst-${i}`), `burst-${i}`).toHaveLength(1);
    for (let i = 0; i < USERS; i += 1) expect(users.filter((user) => user.email === `burst-${i}@example.com`), `burst-${i}@example.com`).toHaveLength(1);

    // A replayed secret is the live key's own, whether its first answer was lost or not.
    const replayedKeys = writes.flatMap((write, index) => (write.path === '/api-keys' && retried[index]!.replayed ? [retried[index]!.body] : []));
    for (const created of replayedKeys) {
      const response = await fetch(`${again}/users?pageSize=1`, { headers: { 'x-api-key': created['secret'] as string } });
      expect(response.status).toBe(200);
    }
  }, 180_000);
});
