import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar } from '../support/cookie-jar.ts';
import { HttpClient } from '../support/http.ts';
import { authorize, codeAuthorizationUrl, createTestClient, decodeJwt, discover, TestBrowser, type TestClient } from '../support/oauth.ts';

/**
 * Authorization requests at their edges: requests the OP must refuse at once, at the client's redirect URI, rather than after
 * the user has signed in.
 */
const REDIRECT = 'https://app.example/callback';
const PASSWORD = 'Correct-Horse-9';

let app: TestApp;
let issuer: string;
let spa: TestClient;
let ada: string;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  const created = await app.http.post('/users', { email: 'ada@example.com', name: 'Ada', password: PASSWORD });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  ada = created.body.id;
  spa = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
});
afterAll(async () => app?.close());

/** The request's URL without its `scope`, or with the given one. */
function withScope(scope: string | undefined, parameters: Record<string, string> = {}): string {
  const url = new URL(codeAuthorizationUrl(issuer, spa.clientId, REDIRECT, { state: 'st', ...parameters }));
  if (scope === undefined) url.searchParams.delete('scope');
  else url.searchParams.set('scope', scope);
  return url.href;
}

describe('scope (RFC 6749 3.3, 4.1.2.1)', () => {
  it('a request naming no scope the OP knows is invalid_scope at the redirect URI, before any sign-in page', async () => {
    for (const scope of [undefined, '', 'admin', 'admin superuser']) {
      const jar = new CookieJar();
      const start = await jar.visit(withScope(scope));
      expect(start.status, `scope ${String(scope)}: ${start.location ?? start.body.slice(0, 300)}`).toBe(303);
      const callback = new URL(start.location!);
      expect(`${callback.origin}${callback.pathname}`, `scope ${String(scope)}`).toBe(REDIRECT);
      expect(callback.searchParams.get('error'), `scope ${String(scope)}`).toBe('invalid_scope');
      expect(callback.searchParams.get('state')).toBe('st');
      expect(callback.searchParams.get('iss')).toBe(issuer);
    }
  });

  it('the same with a signed-in session and with prompt=none: invalid_scope, never access_denied', async () => {
    const browser = new TestBrowser();
    expect((await authorize(app, withScope('openid'), { userId: ada, tenantId: null }, browser)).kind).toBe('redirect');
    for (const parameters of [{}, { prompt: 'none' }] as Record<string, string>[]) {
      for (const scope of [undefined, 'admin']) {
        const response = await browser.request(withScope(scope, parameters));
        const callback = new URL(response.headers.get('location')!);
        expect(callback.searchParams.get('error'), `${String(scope)} ${JSON.stringify(parameters)}`).toBe('invalid_scope');
      }
    }
  });

  it('a known scope beside unknown ones is served with the known ones (RFC 6749 3.3 allows narrowing)', async () => {
    const config = await discover(app, spa.clientId, oidc.None(), { redirect_uris: [REDIRECT] });
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid admin',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'st',
    });
    const outcome = await authorize(app, url, { userId: ada, tenantId: null });
    if (outcome.kind !== 'redirect') throw new Error(outcome.body);
    const tokens = await oidc.authorizationCodeGrant(config, outcome.url, { pkceCodeVerifier: verifier, expectedState: 'st' });
    expect(tokens.scope).toBe('openid');
  });
});

describe('a tenant surface’s authorization endpoint and a client whose stored metadata the OP refuses', () => {
  it('is refused without a redirect, as on the service’s surface, never a 500', async () => {
    const another = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: another.apiKey });
    await app.createTenant('North', another);
    expect((await admin.patch(`/applications/${another.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    // A row stored before the API refused such URIs: oidc-provider refuses a native client's https loopback URI.
    const stale = await createTestClient(app, { type: 'native', authMethod: 'none', applicationId: another.applicationId, redirectUris: ['https://localhost/cb'] });
    for (const base of [issuer, `${issuer}/t/north`, `${issuer}/t/no-such-tenant`]) {
      const response = await fetch(codeAuthorizationUrl(base, stale.clientId, 'https://localhost/cb'), { redirect: 'manual' });
      // A 400 page as the OP answers it on the service's surface (on a tenant path that exists nowhere, its 404).
      expect(response.status, `${base}: ${(await response.text()).slice(0, 300)}`).toBe(base.endsWith('no-such-tenant') ? 404 : 400);
      expect(response.headers.get('location')).toBeNull();
    }
  });
});

describe('resource indicators at the token endpoint (RFC 8707 2.2)', () => {
  it('the management API named twice is still that resource: its at+jwt, never a userinfo token silently', async () => {
    const managementApi = `${issuer}/api/v1`;
    const config = await discover(app, spa.clientId, oidc.None(), { redirect_uris: [REDIRECT] });
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid offline_access',
      prompt: 'consent',
      resource: managementApi,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const outcome = await authorize(app, url, { userId: ada, tenantId: null });
    if (outcome.kind !== 'redirect') throw new Error(outcome.body);
    const twice = (fields: Record<string, string>) => {
      const body = new URLSearchParams({ client_id: spa.clientId, ...fields });
      body.append('resource', managementApi);
      body.append('resource', managementApi);
      return fetch(`${issuer}/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    };
    const code = outcome.url.searchParams.get('code')!;
    const redeemed = await twice({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });
    const tokens = (await redeemed.json()) as { access_token: string; refresh_token: string };
    expect(redeemed.status, JSON.stringify(tokens)).toBe(200);
    expect(tokens.access_token.split('.'), 'a JWT access token').toHaveLength(3);
    expect(decodeJwt(tokens.access_token).payload.aud).toBe(managementApi);
    const refreshed = await twice({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    const again = (await refreshed.json()) as { access_token: string };
    expect(refreshed.status, JSON.stringify(again)).toBe(200);
    expect(again.access_token.split('.'), 'a JWT access token').toHaveLength(3);
    expect(decodeJwt(again.access_token).payload.aud).toBe(managementApi);
  });
});

describe('HEAD is GET without the body (RFC 9110 9.3.2), on the routes that choose the session by the request', () => {
  it('an authorization request reads the application’s session as GET does; a logout naming no application is refused as GET is', async () => {
    const browser = new TestBrowser();
    expect((await authorize(app, withScope('openid'), { userId: ada, tenantId: null }, browser)).kind).toBe('redirect');
    const silent = withScope('openid', { prompt: 'none' });
    const get = await browser.request(silent);
    expect(new URL(get.headers.get('location')!).searchParams.get('code')).not.toBeNull();
    const head = await browser.request(silent, { method: 'HEAD' });
    expect(head.status).toBe(get.status);
    const headCallback = new URL(head.headers.get('location')!);
    expect(headCallback.searchParams.get('error'), headCallback.href).toBeNull();
    expect(headCallback.searchParams.get('code')).not.toBeNull();
    const logoutGet = await fetch(`${issuer}/oauth2/logout`, { redirect: 'manual' });
    const logoutHead = await fetch(`${issuer}/oauth2/logout`, { method: 'HEAD', redirect: 'manual' });
    expect(logoutGet.status).toBe(400);
    expect(logoutHead.status).toBe(400);
  });
});
