import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { issueTestKey } from '../support/keys.ts';
import { authorize, createTestClient, discover, TestBrowser } from '../support/oauth.ts';
import { TestRoles } from '../support/roles.ts';

/**
 * A sign-in client's users get management API tokens only where the client has `managementApi`, which only credentials
 * holding every permission set or keep: such tokens act with the signing-in user's permissions, so a credential that
 * may only register clients could otherwise collect an administrator's through a client of its own.
 */
const LEGIT_REDIRECT = 'https://app.example/callback';
const EVIL_REDIRECT = 'https://evil.example/cb';
let app: TestApp;
let managementApi: string;
let tenantT: string;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  managementApi = `${app.gatehouse.services.config.publicUrl}/api/v1`;
  tenantT = await app.createTenant('Clients T');
});
afterAll(async () => app?.close());

/** Follows redirects as a signed-in browser would, answering no page: where it leaves the service, if it does. */
async function followSilently(browser: TestBrowser, url: string): Promise<URL | undefined> {
  const origin = new URL(app.baseUrl).origin;
  let next = new URL(url);
  for (let hop = 0; hop < 10; hop += 1) {
    const response = await browser.request(next.href);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) return undefined;
    next = new URL(location, next);
    if (next.origin !== origin) return next;
  }
  return undefined;
}

/** A silent authorization of `clientId` for a management API token in `browser`: where the browser lands, with the code's tokens. */
async function silentManagementToken(clientId: string, browser: TestBrowser, tenant: string | null) {
  const config = await discover(app, clientId, oidc.None(), { redirect_uris: [EVIL_REDIRECT] });
  const verifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: EVIL_REDIRECT,
    scope: 'openid',
    prompt: 'none',
    ...(tenant === null ? {} : { tenant }),
    resource: managementApi,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const landed = await followSilently(browser, url.href);
  if (landed?.searchParams.get('code') == null) return { landed, accessToken: undefined };
  const tokens = await oidc.authorizationCodeGrant(config, landed, { pkceCodeVerifier: verifier }, { resource: managementApi });
  return { landed, accessToken: tokens.access_token };
}

/** A user of `tenantId` (or application-wide) holding `role`, signed in through another client in a browser. */
async function signedInAdmin(email: string, tenantId: string | null, role: string): Promise<TestBrowser> {
  const userId = tenantId === null ? await app.createUser(email) : await app.createUser(email, tenantId);
  await new TestRoles(app).assign({ type: 'user', id: userId }, role, tenantId ?? undefined);
  const spa = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [LEGIT_REDIRECT] });
  const config = await discover(app, spa.clientId, oidc.None(), { redirect_uris: [LEGIT_REDIRECT] });
  const verifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: LEGIT_REDIRECT,
    scope: 'openid',
    ...(tenantId === null ? {} : { tenant: tenantId }),
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const browser = new TestBrowser();
  const outcome = await authorize(app, url, { userId, tenantId }, browser);
  expect(outcome.kind).toBe('redirect');
  return browser;
}

const spaOf = (redirect: string, extra: Record<string, unknown> = {}) => ({ name: 'Widget', type: 'spa', redirectUris: [redirect], ...extra });

describe('a client without managementApi (the default)', () => {
  it('registered by a key that may only register clients, collects no tenant admin’s management token', async () => {
    const browser = await signedInAdmin('tenant-admin@example.com', tenantT, 'tenant_admin');
    const attacker = await issueTestKey(app, { tenantId: tenantT, permissions: ['oauth_clients:write'] });
    const created = await attacker.post('/oauth-clients', spaOf(EVIL_REDIRECT));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.managementApi).toBe(false);
    const { landed, accessToken } = await silentManagementToken(created.body.clientId as string, browser, tenantT);
    expect(accessToken).toBeUndefined();
    expect(landed?.searchParams.get('error')).toBe('invalid_target');
  });

  it('nor an application admin’s, application-wide', async () => {
    const browser = await signedInAdmin('app-admin@example.com', null, 'app_admin');
    const attacker = await issueTestKey(app, { permissions: ['oauth_clients:write'] });
    const created = await attacker.post('/oauth-clients', spaOf(EVIL_REDIRECT));
    expect(created.status).toBe(201);
    const { landed, accessToken } = await silentManagementToken(created.body.clientId as string, browser, null);
    expect(accessToken).toBeUndefined();
    expect(landed?.searchParams.get('error')).toBe('invalid_target');
  });
});

describe('managementApi', () => {
  it('is set only by credentials holding every permission where the client acts; its users then get management tokens', async () => {
    const narrow = await issueTestKey(app, { permissions: ['oauth_clients:write', 'oauth_clients:read'] });
    const count = async () => ((await app.http.get('/oauth-clients?pageSize=100')).body.data as unknown[]).length;
    const before = await count();
    const refused = await narrow.post('/oauth-clients', spaOf(EVIL_REDIRECT, { managementApi: true }));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'forbidden' });
    expect(await count()).toBe(before);

    // A tenant's `*` sets it on a client of that tenant.
    const tenantAdmin = await issueTestKey(app, { tenantId: tenantT, permissions: ['*'] });
    expect((await tenantAdmin.post('/oauth-clients', spaOf(LEGIT_REDIRECT, { managementApi: true }))).status).toBe(201);

    const made = await app.http.post('/oauth-clients', spaOf(EVIL_REDIRECT, { managementApi: true }));
    expect(made.status).toBe(201);
    expect(made.body.managementApi).toBe(true);
    const browser = await signedInAdmin('second-admin@example.com', null, 'app_admin');
    const { accessToken } = await silentManagementToken(made.body.clientId as string, browser, null);
    expect(accessToken).toBeDefined();
    expect((await app.as({ bearer: accessToken! }).get('/users')).status).toBe(200);
  });

  it('a client that has it is changed (redirect URIs, secret) only by such credentials; turning it on likewise', async () => {
    const web = await app.http.post('/oauth-clients', { name: 'Console', type: 'web', redirectUris: [LEGIT_REDIRECT], managementApi: true });
    expect(web.status).toBe(201);
    const path = `/oauth-clients/${web.body.clientId as string}`;
    const narrow = await issueTestKey(app, { permissions: ['oauth_clients:write', 'oauth_clients:read'] });
    expect((await narrow.patch(path, { redirectUris: [EVIL_REDIRECT] })).status).toBe(403);
    expect((await narrow.post(`${path}/rotate-secret`, {})).status).toBe(403);
    expect((await narrow.get(path)).body).toMatchObject({ redirectUris: [LEGIT_REDIRECT], managementApi: true });

    const plain = await narrow.post('/oauth-clients', spaOf(LEGIT_REDIRECT));
    const plainPath = `/oauth-clients/${plain.body.clientId as string}`;
    expect((await narrow.patch(plainPath, { managementApi: true })).status).toBe(403);
    expect((await narrow.get(plainPath)).body.managementApi).toBe(false);
    expect((await narrow.patch(plainPath, { name: 'Renamed' })).status).toBe(200);
    expect((await app.http.patch(plainPath, { managementApi: true })).body.managementApi).toBe(true);
    expect((await app.http.patch(plainPath, { managementApi: null })).status).toBe(422);
  });
});

describe('turning managementApi off', () => {
  it('stops the tokens already issued through the client at once, reads and writes alike; another client’s keep working', async () => {
    const browser = await signedInAdmin('turned-off-admin@example.com', null, 'app_admin');
    const tokenThrough = async () => {
      const made = await app.http.post('/oauth-clients', spaOf(EVIL_REDIRECT, { managementApi: true }));
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const { accessToken } = await silentManagementToken(made.body.clientId as string, browser, null);
      expect(accessToken).toBeDefined();
      const bearer = app.as({ bearer: accessToken! });
      expect((await bearer.get('/users')).status).toBe(200);
      return { path: `/oauth-clients/${made.body.clientId as string}`, bearer };
    };
    const [turnedOff, kept] = [await tokenThrough(), await tokenThrough()];

    expect((await app.http.patch(turnedOff.path, { managementApi: false })).body.managementApi).toBe(false);
    const read = await turnedOff.bearer.get('/users');
    expect(read.status).toBe(401);
    expect(read.body.code).toBe('unauthenticated');
    const write = await turnedOff.bearer.post('/api-keys', { name: 'kept after turning off', permissions: ['*'] });
    expect(write.status).toBe(401);
    expect(write.body.code).toBe('unauthenticated');
    const keys = await app.http.get('/api-keys?pageSize=100');
    expect(keys.body.data.map((key: { name: string }) => key.name)).not.toContain('kept after turning off');

    expect((await kept.bearer.get('/users')).status).toBe(200);
    expect((await kept.bearer.post('/api-keys', { name: 'through a client that has it', permissions: ['*'] })).status).toBe(201);
  });
});
