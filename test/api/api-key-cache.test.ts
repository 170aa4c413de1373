import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { HttpClient } from '../support/http.ts';
import { RedisLink } from '../support/redis-link.ts';
import { makeAdmin } from '../support/roles.ts';
import { secondInstance, settled, TWO_INSTANCES } from '../support/second-instance.ts';

/**
 * Authenticated API keys are remembered per instance (src/auth/api-key-cache.ts). The cache lives a minute here, so
 * every refusal below can only come from an invalidation: revoking or rotating the key, or deleting its user, tenant
 * or application, stops it at once, on this instance and, through Redis, on the others.
 */
const CACHE_MS = 60_000;
let app: TestApp;
let appPath: string;

beforeAll(async () => {
  app = await startTestApp({ apiKeyCacheMs: CACHE_MS });
  appPath = `/applications/${app.root.applicationId}`;
});
afterAll(async () => app?.close());

async function createKey(client: HttpClient, body: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
  const created = await client.post('/api-keys', { name: 'cached key', permissions: ['*'], ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.key.id, secret: created.body.secret };
}

/** A key that has authenticated once, so that the cache holds it. */
async function warmKey(body: Record<string, unknown> = {}, client = app.http) {
  const key = await createKey(client, body);
  const as = new HttpClient(client.baseUrl, { apiKey: key.secret });
  expect((await as.get('/users')).status).toBe(200);
  return { ...key, as };
}

describe('the API key cache on one instance', () => {
  it('forgets a revoked key at once', async () => {
    const key = await warmKey();
    expect((await app.http.delete(`/api-keys/${key.id}`)).status).toBe(204);
    expect((await key.as.get('/users')).status).toBe(401);
  });

  it('forgets a rotated key’s old secret at once and learns the new one', async () => {
    const key = await warmKey();
    const rotated = await app.http.post(`/api-keys/${key.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect((await key.as.get('/users')).status).toBe(401);
    expect((await app.as({ apiKey: rotated.body.secret }).get('/users')).status).toBe(200);
  });

  it('forgets the keys of a deleted user', async () => {
    const user = await app.http.post('/users', { email: 'cached-key-owner@example.com' });
    expect(user.status).toBe(201);
    await makeAdmin(app, user.body.id);
    const key = await warmKey({ userId: user.body.id });
    expect((await app.http.delete(`/users/${user.body.id}`)).status).toBe(204);
    expect((await key.as.get('/users')).status).toBe(401);
  });

  it('forgets the keys of a deleted tenant, and leaves other keys alone', async () => {
    const tenantId = await app.createTenant('Cached tenant');
    const key = await warmKey({ tenantId });
    const bystander = await warmKey();
    expect((await app.http.delete(`${appPath}/tenants/${tenantId}`)).status).toBe(204);
    expect((await key.as.get('/users')).status).toBe(401);
    expect((await bystander.as.get('/users')).status).toBe(200);
  });

  it('forgets the keys of a deleted application', async () => {
    const other = await app.bootstrapAnother();
    const owner = app.as({ apiKey: other.apiKey });
    const key = await warmKey({}, owner);
    expect((await owner.delete(`/applications/${other.applicationId}`)).status).toBe(204);
    expect((await key.as.get('/users')).status).toBe(401);
  });

  it('still refuses an unknown secret', async () => {
    expect((await app.as({ apiKey: 'ghk_not_a_key_not_a_key_not_a_key_0000' }).get('/users')).status).toBe(401);
  });
});

describe.runIf(TWO_INSTANCES)('the API key cache across instances (Redis)', () => {
  const second = secondInstance(() => app);

  it('a key revoked on one instance stops working on the other, whose cache held it', async () => {
    const key = await createKey(app.http);
    expect((await new HttpClient(second.url(), { apiKey: key.secret }).get('/users')).status).toBe(200);
    expect((await app.http.delete(`/api-keys/${key.id}`)).status).toBe(204);
    const onSecond = new HttpClient(second.url(), { apiKey: key.secret });
    expect(await settled(async () => (await onSecond.get('/users')).status, (status) => status === 401)).toBe(401);
  });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `read`'s answer once `done` holds, asked every 200 ms for up to 20 s (a loaded machine); else its last answer. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let attempt = 1; attempt < 100 && !done(value); attempt += 1) {
    await pause(200);
    value = await read();
  }
  return value;
}

/** The instance's log lines, and how many begin with `message`. */
function collectLog() {
  const lines: { msg: string }[] = [];
  const logStream = { write: (line: string) => lines.push(JSON.parse(line) as { msg: string }) };
  return { logStream, said: (message: string) => lines.filter((line) => line.msg.startsWith(message)).length };
}

/**
 * The second instance reaches Redis through a link the test breaks. Its subscription only listens, so a connection that
 * stops answering shows only to its pings; a publish that failed is announced once Redis is back as "forget everything".
 * Bounds are generous: what they catch is a key still accepted for the cache's whole minute.
 */
describe.runIf(TWO_INSTANCES)('the API key cache across instances, Redis broken between them', () => {
  const link = new RedisLink(new URL(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379'));
  const { logStream, said } = collectLog();
  beforeAll(async () => link.open());
  const second = secondInstance(() => app, { redisUrl: () => `redis://127.0.0.1:${link.port}`, logStream });
  afterAll(async () => {
    link.thaw();
    await link.cut();
  });

  async function revokedOnFirstRefusedOnSecond() {
    const key = await warmKey();
    const onSecond = new HttpClient(second.url(), { apiKey: key.secret });
    expect((await onSecond.get('/users')).status).toBe(200);
    expect((await app.http.delete(`/api-keys/${key.id}`)).status).toBe(204);
    expect(await eventually(async () => (await onSecond.get('/users')).status, (status) => status === 401)).toBe(401);
  }

  it('hears revocations again once the network heals, its subscription connection frozen for good', async () => {
    link.freeze();
    // A request whose rate-limit command stalls: the command client is replaced, the subscriber is left frozen.
    expect((await new HttpClient(second.url(), app.http.credentials).get('/users')).status).toBe(200);
    await pause(1_500);
    link.heal();
    expect(await eventually(async () => said('Redis is reachable again'), (count) => count > 0)).toBeGreaterThan(0);
    await revokedOnFirstRefusedOnSecond();
  });

  it('forgets what a publish that failed announced, once that instance reaches Redis again', async () => {
    // The channel is every deployment's on this Redis: another test's instance announcing its own failed publish (`all`)
    // empties this cache too, and the window where the first instance must still hold the key is tried again.
    let foreignAll = 0;
    app.gatehouse.services.invalidations.subscribe((invalidation) => void (invalidation.kind === 'all' && (foreignAll += 1)));
    for (let attempt = 1; ; attempt += 1) {
      const key = await warmKey({}, new HttpClient(second.url(), app.http.credentials));
      const onFirst = new HttpClient(app.baseUrl, { apiKey: key.secret });
      expect((await onFirst.get('/users')).status).toBe(200);
      const heardBefore = foreignAll;
      await link.cut();
      // Revoked on the second instance: committed, its publish failed.
      expect((await new HttpClient(second.url(), app.http.credentials).delete(`/api-keys/${key.id}`)).status).toBe(204);
      await pause(1_500);
      const meanwhile = (await onFirst.get('/users')).status;
      await link.open();
      if (meanwhile === 401 && foreignAll > heardBefore && attempt < 3) continue;
      expect(meanwhile).toBe(200);
      expect(await eventually(async () => (await onFirst.get('/users')).status, (status) => status === 401)).toBe(401);
      return;
    }
  });
});
