import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import type { Visit } from '../support/cookie-jar.ts';
import { HttpClient } from '../support/http.ts';
import { createTestClient, discover, startAuthorization } from '../support/oauth.ts';
import { secondInstance, settled, TWO_INSTANCES } from '../support/second-instance.ts';
import { createUserThrough, PASSWORD } from '../support/users.ts';

/**
 * The REST API's read cache (src/rest/read-cache.ts): `GET …/users` and `GET …/users/{userId}` answered again from
 * memory. Answers live a minute here, so every fresh answer below can only come from an invalidation: each way a user
 * changes (the API, a tenant's deletion, a tenancy switch, the hosted sign-up, a lockout) shows at once; and an answer
 * kept for one caller is never another's.
 */
const CACHE_MS = 60_000;
const REDIRECT_URI = 'https://app.example/callback';

let app: TestApp;
let appPath: string;
let config: oidc.Configuration;

beforeAll(async () => {
  // The loopback proxy is trusted: the lockout test's failures come from addresses of its choosing (X-Forwarded-For).
  app = await startTestApp({ readCacheMs: CACHE_MS, trustProxy: ['loopback'] }, { reachablePublicUrl: true });
  appPath = `/applications/${app.root.applicationId}`;
  const client = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
  config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
});
afterAll(async () => app?.close());

/** The SQL statements a request sent, and its answer. */
async function counted<T>(request: () => Promise<T>): Promise<{ statements: number; answer: T }> {
  const before = app.queries.length;
  const answer = await request();
  return { statements: app.queries.length - before, answer };
}

type ListedUser = { id: string; email: string; name: string | null; status: string; tenantIds: string[] };
const listed = async (path = '/users?pageSize=100', http = app.http): Promise<ListedUser[]> => {
  const page = await http.get(path);
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  return page.body.data as ListedUser[];
};
const emails = (users: ListedUser[]) => users.map((user) => user.email);

describe('the read cache on one instance', () => {
  it('answers the same question again without the database, byte for byte, with the headers of every answer', async () => {
    await createUserThrough(app.http, { email: 'kept@example.com', name: 'Kept' });
    const ask = () => counted(() => fetch(`${app.baseUrl}/api/v1/users?pageSize=100`, { headers: { 'x-api-key': app.root.apiKey } }));
    const first = await ask();
    expect(first.statements).toBeGreaterThan(0);
    // Asked again at most three times: another test file's instance on this Redis may publish `all` meanwhile (a
    // tenant deleted with its 101 users), which empties every instance's caches, this one's API key cache included.
    let again = await ask();
    for (let attempt = 1; attempt < 3 && again.statements > 0; attempt += 1) again = await ask();
    expect(again.statements).toBe(0);
    expect(again.answer.status).toBe(200);
    expect(await again.answer.text()).toBe(await first.answer.text());
    expect(again.answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    for (const header of ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      expect(again.answer.headers.get(header), header).not.toBeNull();
    }
  });

  it('shows a user created, changed, unlocked or deleted through the API at once, in the list and the record', async () => {
    const id = await createUserThrough(app.http, { email: 'lifecycle@example.com', name: 'Before' });
    expect(emails(await listed())).toContain('lifecycle@example.com');
    expect((await app.http.get(`/users/${id}`)).body.name).toBe('Before');

    expect((await app.http.patch(`/users/${id}`, { name: 'After' })).status).toBe(200);
    expect((await app.http.get(`/users/${id}`)).body.name).toBe('After');
    expect((await listed()).find((user) => user.id === id)?.name).toBe('After');

    const later = await createUserThrough(app.http, { email: 'later@example.com' });
    expect(emails(await listed())).toContain('later@example.com');

    expect((await app.http.delete(`/users/${id}`)).status).toBe(204);
    expect((await app.http.get(`/users/${id}`)).status).toBe(404);
    expect(emails(await listed())).not.toContain('lifecycle@example.com');
    expect(emails(await listed())).toContain('later@example.com');
    expect((await app.http.get(`/users/${later}`)).status).toBe(200);
  });

  it('shows a membership change in the tenants’ lists, and a deleted tenant’s answers go with it', async () => {
    const [north, south] = [await app.createTenant('North'), await app.createTenant('South')];
    const id = await createUserThrough(app.http, { email: 'member@example.com' }, `${appPath}/tenants/${north}/users`);
    expect(emails(await listed(`${appPath}/tenants/${north}/users`))).toEqual(['member@example.com']);
    expect(await listed(`${appPath}/tenants/${south}/users`)).toEqual([]);

    expect((await app.http.patch(`/users/${id}`, { tenantIds: [south] })).status).toBe(200);
    expect(await listed(`${appPath}/tenants/${north}/users`)).toEqual([]);
    expect(emails(await listed(`${appPath}/tenants/${south}/users`))).toEqual(['member@example.com']);

    expect((await app.http.delete(`${appPath}/tenants/${south}`)).status).toBe(204);
    expect((await app.http.get(`${appPath}/tenants/${south}/users`)).status).toBe(404);
    expect((await listed()).find((user) => user.id === id)?.tenantIds).toEqual([]);
  });

  it('shows the users of a tenancy switch at once: shared to isolated copies a user of two tenants into each', async () => {
    const other = await app.bootstrapAnother();
    const http = app.as({ apiKey: other.apiKey });
    const [east, west] = [await app.createTenant('East', other), await app.createTenant('West', other)];
    expect((await http.post('/users', { email: 'both@example.com', tenantId: east })).status).toBe(201);
    const user = (await listed('/users', http))[0]!;
    expect((await http.patch(`/users/${user.id}`, { tenantIds: [east, west] })).status).toBe(200);
    expect((await listed('/users', http)).map((each) => each.tenantIds)).toEqual([[east, west]]);

    const switched = await http.patch(`/applications/${other.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } });
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    const pools = (await listed('/users', http)).map((each) => each.tenantIds);
    expect(pools.sort()).toEqual([[east], [west]].sort());
  });

  it('keeps an answer for its caller alone: narrower, tenant, foreign, revoked and absent credentials get their own', async () => {
    const tenant = await app.createTenant('Own members');
    await createUserThrough(app.http, { email: 'tenant-member@example.com' }, `${appPath}/tenants/${tenant}/users`);
    const whole = emails(await listed());
    expect(whole).toContain('tenant-member@example.com');
    expect(whole.length).toBeGreaterThan(1);

    const keyWith = async (body: Record<string, unknown>) => {
      const created = await app.http.post('/api-keys', { name: 'reader', ...body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return { id: created.body.key.id as string, client: app.as({ apiKey: created.body.secret }) };
    };
    const narrower = await keyWith({ permissions: ['tenants:read'] });
    expect((await narrower.client.get('/users?pageSize=100')).status).toBe(403);
    const tenantKey = await keyWith({ permissions: ['users:read'], tenantId: tenant });
    expect(emails(await listed('/users?pageSize=100', tenantKey.client))).toEqual(['tenant-member@example.com']);
    const foreign = app.as({ apiKey: (await app.bootstrapAnother()).apiKey });
    expect((await foreign.get(`${appPath}/users?pageSize=100`)).status).toBe(404);
    expect((await app.as({}).get('/users?pageSize=100')).status).toBe(401);

    const reader = await keyWith({ permissions: ['users:read'] });
    expect(emails(await listed('/users?pageSize=100', reader.client))).toEqual(whole);
    expect((await app.http.delete(`/api-keys/${reader.id}`)).status).toBe(204);
    expect((await reader.client.get('/users?pageSize=100')).status).toBe(401);
  });

  it('keeps no refusal: the same refused question is decided afresh each time', async () => {
    const missing = '/users/01900000-0000-7000-8000-000000000000';
    for (let i = 0; i < 2; i += 1) {
      const refused = await counted(() => app.http.get(missing));
      expect(refused.answer.status).toBe(404);
      expect(refused.statements).toBeGreaterThan(0);
    }
  });
});

describe('the read cache and the hosted sign-in pages', () => {
  async function signInPage(): Promise<{ flow: Awaited<ReturnType<typeof startAuthorization>>; page: Visit }> {
    const flow = await startAuthorization(config, { redirectUri: REDIRECT_URI, resource: '' });
    expect(flow.page.status, flow.page.body).toBe(200);
    return { flow, page: flow.page };
  }

  it('shows a user who signed up at once', async () => {
    expect(emails(await listed())).not.toContain('signed-up@example.com');
    const { flow, page } = await signInPage();
    const link = /<a href="([^"]+\/signup)">/.exec(page.body)?.[1];
    expect(link, page.body).toBeDefined();
    const form = await flow.jar.visit(new URL(link!, page.url).href);
    const answer = await flow.jar.submit(form, { name: 'Sig', email: 'signed-up@example.com', password: PASSWORD });
    expect(answer.status, answer.body).toBe(200);
    expect(emails(await listed())).toContain('signed-up@example.com');
  });

  it('shows a user locked by failed sign-ins, and unlocked, at once', async () => {
    const policy = await app.http.put('/policies/lockout', { enabled: true, maxAttempts: 3, lockoutMinutes: 5, resetAfterMinutes: 15, accountLockAddresses: 2 });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    const id = await createUserThrough(app.http, { email: 'guessed@example.com', password: PASSWORD });
    const status = async () => (await app.http.get(`/users/${id}`)).body.status as string;
    expect(await status()).toBe('active');
    // Three failures from each of two addresses: both locked out, which locks the account.
    for (const from of ['203.0.113.1', '203.0.113.2']) {
      for (let i = 0; i < 3; i += 1) {
        const { flow, page } = await signInPage();
        expect((await flow.jar.submit(page, { email: 'guessed@example.com', password: 'Wrong-Horse-9' }, { 'x-forwarded-for': from })).status).toBe(400);
      }
    }
    expect(await status()).toBe('locked');
    expect((await listed()).find((user) => user.id === id)?.status).toBe('locked');
    // A timed lock runs out with no write to announce it: an answer showing it, or filtered by status, is never kept.
    for (const path of [`/users/${id}`, '/users?pageSize=100', '/users?status=active']) {
      await app.http.get(path);
      expect((await counted(() => app.http.get(path))).statements, path).toBeGreaterThan(0);
    }
    expect((await app.http.post(`/users/${id}/unlock`)).status).toBe(200);
    expect(await status()).toBe('active');
  });
});

describe.runIf(TWO_INSTANCES)('the read cache across instances (Redis)', () => {
  const second = secondInstance(() => app);

  it('a user created and deleted through one instance shows on the other, whose cache held the list', async () => {
    const onSecond = new HttpClient(second.url(), { apiKey: app.root.apiKey });
    const before = emails(await listed('/users?pageSize=100', onSecond));
    expect(before).not.toContain('elsewhere@example.com');
    const id = await createUserThrough(app.http, { email: 'elsewhere@example.com' });
    const shown = await settled(async () => emails(await listed('/users?pageSize=100', onSecond)), (now) => now.includes('elsewhere@example.com'));
    expect(shown).toContain('elsewhere@example.com');
    expect((await app.http.delete(`/users/${id}`)).status).toBe(204);
    const gone = await settled(async () => emails(await listed('/users?pageSize=100', onSecond)), (now) => !now.includes('elsewhere@example.com'));
    expect(gone).not.toContain('elsewhere@example.com');
  });
});
