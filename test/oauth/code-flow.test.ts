import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignInRefusal as SignInRefused } from '../../src/domain/sign-in/refusals.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar } from '../support/cookie-jar.ts';
import {
  answerInteraction,
  authorizationRequest,
  authorize,
  basicAuth,
  codeAuthorizationUrl,
  codeThroughSeam,
  createTestClient,
  decodeJwt,
  discover,
  FULL_CONSENT,
  postForm,
  startAuthorization,
  TestBrowser,
  type TestClient,
} from '../support/oauth.ts';

/**
 * The OP's side of authorization code + PKCE, refresh rotation, userinfo and revocation, driven by openid-client as
 * the RP. Each interaction is answered through the seam the hosted pages use (src/oidc/interactions.ts), so these
 * tests pin the protocol whatever the pages look like; authorization-code.test.ts drives the pages themselves.
 */
const REDIRECT = 'https://app.example/callback';

let app: TestApp;
let issuer: string;
let spa: TestClient;
let otherSpa: TestClient;
let web: TestClient;
let tenantA: string;
let ada: string;

interface Flow {
  url: URL;
  verifier: string;
  state: string;
  nonce: string;
}

async function spaConfig(client = spa) {
  return discover(app, client.clientId, oidc.None(), { redirect_uris: [REDIRECT] });
}

async function startFlow(config: oidc.Configuration, extra: Record<string, string> = {}): Promise<Flow> {
  const nonce = oidc.randomNonce();
  const { url, verifier, state } = await authorizationRequest(config, { redirectUri: REDIRECT, resource: '' }, { ...FULL_CONSENT, nonce, ...extra });
  return { url, verifier, state, nonce };
}

/** Signs `userId` in through the seam and returns the client's callback URL (with the code). */
async function callback(flow: Flow, userId = ada, tenantId: string | null = null): Promise<URL> {
  const outcome = await authorize(app, flow.url, { userId, tenantId });
  if (outcome.kind !== 'redirect') throw new Error(`expected a redirect, got ${outcome.status}: ${outcome.body.slice(0, 300)}`);
  return outcome.url;
}

async function redeem(config: oidc.Configuration, flow: Flow, url: URL, parameters: Record<string, string> = {}) {
  return oidc.authorizationCodeGrant(config, url, { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce }, parameters);
}

/** The SPA's tokens for Ada: a fresh flow, signed in through the seam and redeemed. */
async function spaTokens() {
  const config = await spaConfig();
  const flow = await startFlow(config);
  return { config, tokens: await redeem(config, flow, await callback(flow)) };
}

async function oauthError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError) return error.error;
    if (error instanceof oidc.WWWAuthenticateChallengeError) return String(error.cause[0]?.parameters.error);
    throw error;
  }
  throw new Error('expected an OAuth error');
}

const userinfoStatus = async (accessToken: string) =>
  (await fetch(`${app.baseUrl}/oauth2/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } })).status;

/** The SPA's authorization URL without its `scope`, or with the given one. */
function withScope(scope: string | undefined, parameters: Record<string, string> = {}): string {
  const url = new URL(codeAuthorizationUrl(issuer, spa.clientId, REDIRECT, { state: 'st', ...parameters }));
  if (scope === undefined) url.searchParams.delete('scope');
  else url.searchParams.set('scope', scope);
  return url.href;
}

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  tenantA = await app.createTenant('Tenant A');
  const created = await app.http.post('/users', { email: 'ada@example.com', name: 'Ada Lovelace', tenantId: tenantA });
  expect(created.status).toBe(201);
  ada = created.body.id;
  spa = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
  otherSpa = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
  web = await createTestClient(app, { type: 'web', authMethod: 'client_secret_basic', redirectUris: [REDIRECT] });
});
afterAll(async () => app?.close());

describe('authorization code with PKCE', () => {
  it('an SPA gets an ES256 ID token, a userinfo token and a refresh token; userinfo gives the granted scopes’ claims', async () => {
    const config = await spaConfig();
    const flow = await startFlow(config);
    const tokens = await redeem(config, flow, await callback(flow));
    expect(decodeJwt(tokens.id_token!).header.alg).toBe('ES256');
    expect(tokens.claims()).toMatchObject({ iss: issuer, aud: spa.clientId, sub: ada, nonce: flow.nonce });
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'offline_access', 'openid', 'profile']);

    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, ada);
    expect(userinfo).toEqual({ sub: ada, email: 'ada@example.com', email_verified: true, name: 'Ada Lovelace' });
  });

  it('userinfo gives only the claims of the granted scopes', async () => {
    const config = await spaConfig();
    const flow = await startFlow(config, { scope: 'openid' });
    const tokens = await redeem(config, flow, await callback(flow));
    expect(await oidc.fetchUserInfo(config, tokens.access_token, ada)).toEqual({ sub: ada });
  });

  it('with resource = the management API: an at+jwt with sub, app_id and the sign-in’s tenant_id that authenticates there', async () => {
    const resource = `${issuer}/api/v1`;
    const config = await spaConfig();
    const flow = await startFlow(config, { resource });
    const tokens = await redeem(config, flow, await callback(flow, ada, tenantA), { resource });
    const { header, payload } = decodeJwt(tokens.access_token);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    expect(payload).toMatchObject({ iss: issuer, aud: resource, sub: ada, client_id: spa.clientId, app_id: app.root.applicationId, tenant_id: tenantA });
    // Authenticated (not 401); ada holds no role, so the route is 403.
    const response = await app.as({ bearer: tokens.access_token }).get('/users');
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('forbidden');
    // The same sign-in without `resource` at the token endpoint: a userinfo token, refused by the management API.
    const flow2 = await startFlow(config, { resource });
    const userinfoOnly = await redeem(config, flow2, await callback(flow2, ada, tenantA));
    expect((await app.as({ bearer: userinfoOnly.access_token }).get('/users')).status).toBe(401);
  });

  it('the ID token holds the scopes’ claims only where userinfo cannot give them: beside a management API token', async () => {
    const config = await spaConfig();
    const withUserinfo = await startFlow(config);
    const userinfoTokens = await redeem(config, withUserinfo, await callback(withUserinfo));
    expect(userinfoTokens.claims()).not.toHaveProperty('email');
    expect(userinfoTokens.claims()).not.toHaveProperty('name');
    const resource = `${issuer}/api/v1`;
    const forManagement = await startFlow(config, { resource });
    const managementTokens = await redeem(config, forManagement, await callback(forManagement), { resource });
    expect(managementTokens.claims()).toMatchObject({ sub: ada, email: 'ada@example.com', email_verified: true, name: 'Ada Lovelace' });
  });

  it('the seam refuses a tenant the user is not a member of, and a user of another application', async () => {
    const tenantB = await app.createTenant('Tenant B');
    const config = await spaConfig();
    await expect(authorize(app, (await startFlow(config)).url, { userId: ada, tenantId: tenantB })).rejects.toThrow(SignInRefused);
    const other = await app.bootstrapAnother();
    const stranger = await app.as({ apiKey: other.apiKey }).post('/users', { email: 'eve@example.com' });
    await expect(authorize(app, (await startFlow(config)).url, { userId: stranger.body.id, tenantId: null })).rejects.toThrow(SignInRefused);
  });

  it('a confidential web client authenticates at the token endpoint; without its secret it is invalid_client', async () => {
    const config = await discover(app, web.clientId, oidc.ClientSecretBasic(web.clientSecret), { redirect_uris: [REDIRECT] });
    const flow = await startFlow(config);
    const url = await callback(flow);
    const noSecret = await postForm(`${app.baseUrl}/oauth2/token`, {
      grant_type: 'authorization_code',
      client_id: web.clientId,
      code: url.searchParams.get('code')!,
      code_verifier: flow.verifier,
      redirect_uri: REDIRECT,
    });
    expect(noSecret.status).toBe(401);
    expect(noSecret.body.error).toBe('invalid_client');
    const fresh = await startFlow(config);
    const tokens = await redeem(config, fresh, await callback(fresh));
    expect(tokens.claims()?.sub).toBe(ada);
  });
});

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
    const config = await spaConfig();
    const { callback, verifier } = await codeThroughSeam(app, config, REDIRECT, { userId: ada, tenantId: null }, { scope: 'openid admin', state: 'st' });
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: 'st' });
    expect(tokens.scope).toBe('openid');
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

describe('PKCE and code refusals (OAuth security BCP)', () => {
  it('no code_challenge, or method plain: the client is told invalid_request at its redirect URI', async () => {
    const config = await spaConfig();
    for (const extra of [{ code_challenge: '', code_challenge_method: '' }, { code_challenge_method: 'plain' }]) {
      const flow = await startFlow(config);
      const url = new URL(flow.url);
      for (const [name, value] of Object.entries(extra)) {
        if (value === '') url.searchParams.delete(name);
        else url.searchParams.set(name, value);
      }
      const outcome = await authorize(app, url, { userId: ada, tenantId: null });
      expect(outcome.kind).toBe('redirect');
      if (outcome.kind === 'redirect') expect(outcome.url.searchParams.get('error')).toBe('invalid_request');
    }
  });

  it('a wrong code_verifier is invalid_grant; the right one beside it works', async () => {
    const config = await spaConfig();
    const flow = await startFlow(config);
    const url = await callback(flow);
    expect(await oauthError(redeem(config, { ...flow, verifier: oidc.randomPKCECodeVerifier() }, url))).toBe('invalid_grant');
    const fresh = await startFlow(config);
    await expect(redeem(config, fresh, await callback(fresh))).resolves.toBeDefined();
  });

  it('a replayed code is invalid_grant and the tokens of its first redemption die', async () => {
    const config = await spaConfig();
    const flow = await startFlow(config);
    const url = await callback(flow);
    const first = await redeem(config, flow, url);
    expect(await oauthError(redeem(config, flow, url))).toBe('invalid_grant');
    expect(await oauthError(oidc.refreshTokenGrant(config, first.refresh_token!))).toBe('invalid_grant');
    expect(await userinfoStatus(first.access_token)).toBe(401);
  });

  it('20 parallel redemptions of one code: exactly one wins, and its tokens die', async () => {
    const config = await spaConfig();
    const flow = await startFlow(config);
    const url = await callback(flow);
    const code = url.searchParams.get('code')!;
    const attempts = await Promise.all(
      Array.from({ length: 20 }, () =>
        postForm(`${app.baseUrl}/oauth2/token`, {
          grant_type: 'authorization_code',
          client_id: spa.clientId,
          code,
          code_verifier: flow.verifier,
          redirect_uri: REDIRECT,
        }),
      ),
    );
    const winners = attempts.filter((attempt) => attempt.status === 200);
    expect(winners).toHaveLength(1);
    expect(attempts.filter((attempt) => attempt.status !== 200).every((attempt) => attempt.body.error === 'invalid_grant')).toBe(true);
    const [winner] = winners;
    const refreshed = await postForm(`${app.baseUrl}/oauth2/token`, {
      grant_type: 'refresh_token',
      client_id: spa.clientId,
      refresh_token: winner!.body.refresh_token,
    });
    expect(refreshed.body.error).toBe('invalid_grant');
    expect(await userinfoStatus(winner!.body.access_token)).toBe(401);
  });

  it('another client redeeming the code is invalid_grant', async () => {
    const config = await spaConfig();
    const flow = await startFlow(config);
    const url = await callback(flow);
    expect(await oauthError(redeem(await spaConfig(otherSpa), flow, url))).toBe('invalid_grant');
  });

  it('inexact redirect URIs get an error page and no redirect; the exact one redirects', async () => {
    const config = await spaConfig();
    const variants = [
      `${REDIRECT}/`,
      'https://APP.example/callback',
      'https://app.example/Callback',
      `${REDIRECT}?extra=1`,
      'https://app.example:8443/callback',
      'https://app.example@evil.example/callback',
      'https://evil.example/callback',
      'http://app.example/callback',
    ];
    for (const redirectUri of variants) {
      const flow = await startFlow(config);
      const url = new URL(flow.url);
      url.searchParams.set('redirect_uri', redirectUri);
      const response = await fetch(url, { redirect: 'manual' });
      expect({ redirectUri, status: response.status, location: response.headers.get('location') }).toEqual({
        redirectUri,
        status: 400,
        location: null,
      });
      expect(await response.text()).toContain('redirect_uri');
    }
    const exact = await authorize(app, (await startFlow(config)).url, { userId: ada, tenantId: null });
    expect(exact.kind === 'redirect' && exact.url.origin + exact.url.pathname).toBe(REDIRECT);
  });

  it('a native app’s loopback redirect URI takes any port (RFC 8252 7.3), its path and host exactly; the code redeems at that URI only', async () => {
    const client = await app.http.post('/oauth-clients', { name: 'CLI', type: 'native', redirectUris: ['http://127.0.0.1/callback', 'http://[::1]:8400/cb'] });
    expect(client.status).toBe(201);
    const config = await discover(app, client.body.clientId, oidc.None());
    for (const redirectUri of ['http://127.0.0.1/callback', 'http://127.0.0.1:53123/callback', 'http://[::1]:9999/cb']) {
      const { url, verifier, state } = await authorizationRequest(config, { redirectUri, resource: '' });
      const outcome = await authorize(app, url, { userId: ada, tenantId: null });
      expect(outcome.kind === 'redirect' && `${outcome.url.origin}${outcome.url.pathname}`, redirectUri).toBe(redirectUri);
      const code = outcome.kind === 'redirect' ? (outcome.url.searchParams.get('code') ?? '') : '';
      const elsewhere = await postForm(`${issuer}/oauth2/token`, { grant_type: 'authorization_code', client_id: client.body.clientId, code, code_verifier: verifier, redirect_uri: 'http://127.0.0.1:1/callback' });
      expect(elsewhere.body.error, redirectUri).toBe('invalid_grant');
      const tokens = await oidc.authorizationCodeGrant(config, outcome.kind === 'redirect' ? outcome.url : new URL(redirectUri), { pkceCodeVerifier: verifier, expectedState: state });
      expect(tokens.claims()?.sub).toBe(ada);
    }
    for (const redirectUri of ['http://127.0.0.1:53123/callback/x', 'http://localhost:53123/callback', 'http://127.0.0.2:53123/callback']) {
      const { url } = await authorizationRequest(config, { redirectUri, resource: '' });
      const response = await fetch(url, { redirect: 'manual' });
      expect({ redirectUri, status: response.status, location: response.headers.get('location') }).toEqual({ redirectUri, status: 400, location: null });
    }
  });

  it('a redirect URI removed meanwhile: a sign-in under way sends no code there, and a code sent there before does not redeem', async () => {
    const removed = 'https://old.example/callback';
    const client = await app.http.post('/oauth-clients', { name: 'Moving', type: 'spa', redirectUris: [REDIRECT, removed] });
    expect(client.status).toBe(201);
    const config = await discover(app, client.body.clientId, oidc.None(), { redirect_uris: [removed] });
    const delivered = await authorizationRequest(config, { redirectUri: removed, resource: '' });
    const outcome = await authorize(app, delivered.url, { userId: ada, tenantId: null });
    if (outcome.kind !== 'redirect') throw new Error(`expected a redirect, got ${outcome.status}`);
    const browser = new TestBrowser();
    const underWay = await browser.request((await authorizationRequest(config, { redirectUri: removed, resource: '' })).url.href);
    const uid = /\/interaction\/([^/?]+)$/.exec(underWay.headers.get('location') ?? '')?.[1];
    expect(uid).toEqual(expect.any(String));

    expect((await app.http.patch(`/oauth-clients/${client.body.clientId}`, { redirectUris: [REDIRECT] })).status).toBe(200);
    const resumed = await browser.request(new URL(await answerInteraction(app, uid!, { userId: ada, tenantId: null }), issuer).href);
    expect({ status: resumed.status, location: resumed.headers.get('location') }).toEqual({ status: 400, location: null });
    expect(await resumed.text()).toContain('redirect_uri');
    const redeemed = await postForm(`${app.baseUrl}/oauth2/token`, {
      grant_type: 'authorization_code',
      client_id: client.body.clientId,
      code: outcome.url.searchParams.get('code')!,
      redirect_uri: removed,
      code_verifier: delivered.verifier,
    });
    expect(redeemed.status).toBe(400);
    expect(redeemed.body).toMatchObject({ error: 'invalid_grant' });
    expect(redeemed.body).not.toHaveProperty('access_token');
    const kept = await authorize(app, (await authorizationRequest(config, { redirectUri: REDIRECT, resource: '' })).url, { userId: ada, tenantId: null });
    expect(kept.kind === 'redirect' && kept.url.origin + kept.url.pathname).toBe(REDIRECT);
  });
});

describe('refresh tokens', () => {
  it('rotate; reusing a rotated one revokes the whole family', async () => {
    const config = await spaConfig();
    const flow = await startFlow(config);
    const first = await redeem(config, flow, await callback(flow));
    const second = await oidc.refreshTokenGrant(config, first.refresh_token!);
    expect(second.refresh_token).toEqual(expect.any(String));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await oidc.fetchUserInfo(config, second.access_token, ada)).toMatchObject({ sub: ada });

    expect(await oauthError(oidc.refreshTokenGrant(config, first.refresh_token!))).toBe('invalid_grant');
    expect(await oauthError(oidc.refreshTokenGrant(config, second.refresh_token!))).toBe('invalid_grant');
    expect(await userinfoStatus(second.access_token)).toBe(401);
  });

  it('beside a management API access token the response’s scope is empty: that token holds none of the scopes asked (RFC 6749 5.1)', async () => {
    const config = await spaConfig();
    const resource = { resource: `${issuer}/api/v1` };
    const flow = await startFlow(config, resource);
    const tokens = await redeem(config, flow, await callback(flow, ada, tenantA), resource);
    // Left out, `scope` would read as "identical to the scope requested" (openid email profile offline_access).
    expect(tokens.scope).toBe('');
    expect(tokens.id_token).toEqual(expect.any(String));
    expect((await oidc.refreshTokenGrant(config, tokens.refresh_token!, resource)).scope).toBe('');
  });

  it('may not widen the scope, nor name one the OP does not serve (invalid_scope); narrowing works', async () => {
    const config = await spaConfig();
    const flow = await startFlow(config, { scope: 'openid email offline_access' });
    const tokens = await redeem(config, flow, await callback(flow));
    for (const scope of ['openid email profile offline_access', 'openid users:read']) {
      expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!, { scope })), scope).toBe('invalid_scope');
    }
    const narrowed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, { scope: 'openid offline_access' });
    expect(await oidc.fetchUserInfo(config, narrowed.access_token, ada)).toEqual({ sub: ada });
  });

  it('die with a suspended user', async () => {
    const created = await app.http.post('/users', { email: 'sue@example.com' });
    const config = await spaConfig();
    const flow = await startFlow(config);
    const tokens = await redeem(config, flow, await callback(flow, created.body.id));
    expect((await app.http.post(`/users/${created.body.id}/suspend`)).status).toBe(200);
    expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
    expect(await userinfoStatus(tokens.access_token)).toBe(401);
  });
});

/**
 * A user's access token for the management API names its grant (`grant_id`), and is refused (401) as soon as the grant
 * is revoked or its client is: not only its refresh tokens die. Users hold no permissions until role assignments land,
 * so a live token is 403 on the users list, a dead one 401. The first request of each test makes the management API
 * remember the token as live: the 401 after it proves the revocation reached that memory at once.
 */
describe('management API access tokens die with their grant', () => {
  const managementStatus = async (accessToken: string) => (await app.as({ bearer: accessToken }).get('/users')).status;
  const forManagement = () => ({ resource: `${issuer}/api/v1` });

  async function signInForManagement(client = spa) {
    const config = await spaConfig(client);
    const flow = await startFlow(config, forManagement());
    const tokens = await redeem(config, flow, await callback(flow, ada, tenantA), forManagement());
    expect(decodeJwt(tokens.access_token).payload).toMatchObject({ grant_id: expect.any(String), client_id: client.clientId });
    expect(await managementStatus(tokens.access_token)).toBe(403);
    return { config, flow, tokens };
  }

  it('a reused refresh token: every access token of the family is 401', async () => {
    const { config, tokens } = await signInForManagement();
    const second = await oidc.refreshTokenGrant(config, tokens.refresh_token!, forManagement());
    expect(await managementStatus(second.access_token)).toBe(403);
    expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!, forManagement()))).toBe('invalid_grant');
    expect(await managementStatus(tokens.access_token)).toBe(401);
    expect(await managementStatus(second.access_token)).toBe(401);
  });

  it('a replayed code: the access token of its first redemption is 401', async () => {
    const config = await spaConfig();
    const flow = await startFlow(config, forManagement());
    const url = await callback(flow, ada, tenantA);
    const first = await redeem(config, flow, url, forManagement());
    expect(await managementStatus(first.access_token)).toBe(403);
    expect(await oauthError(redeem(config, flow, url, forManagement()))).toBe('invalid_grant');
    expect(await managementStatus(first.access_token)).toBe(401);
  });

  it('a revoked refresh token (RFC 7009 2.1): the access tokens of its grant are 401', async () => {
    const { config, tokens } = await signInForManagement();
    await oidc.tokenRevocation(config, tokens.refresh_token!, { token_type_hint: 'refresh_token' });
    expect(await managementStatus(tokens.access_token)).toBe(401);
  });

  it('a deleted OAuth client: the access tokens issued to it are 401; another client’s stay', async () => {
    const doomed = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
    const { tokens } = await signInForManagement(doomed);
    const kept = await signInForManagement(otherSpa);
    expect((await app.http.delete(`/oauth-clients/${doomed.clientId}`)).status).toBe(204);
    expect(await managementStatus(tokens.access_token)).toBe(401);
    expect(await managementStatus(kept.tokens.access_token)).toBe(403);
  });
});

describe('deleting an application', () => {
  it('deletes its grants and every model stored under them, the tenant of the sign-in included', async () => {
    const doomed = await app.bootstrapAnother();
    const tenant = await app.createTenant('Doomed', doomed);
    const admin = app.as({ apiKey: doomed.apiKey });
    const user = await admin.post(`/applications/${doomed.applicationId}/tenants/${tenant}/users`, { email: 'dora@example.com' });
    const client = await createTestClient(app, { type: 'spa', authMethod: 'none', applicationId: doomed.applicationId, redirectUris: [REDIRECT] });
    const config = await spaConfig(client);
    const flow = await startFlow(config, { resource: `${issuer}/api/v1` });
    const tokens = await redeem(config, flow, await callback(flow, user.body.id, tenant), { resource: `${issuer}/api/v1` });
    const grantId = decodeJwt(tokens.access_token).payload['grant_id'];
    const stored = () =>
      app.gatehouse.services.orm.em
        .getConnection()
        .execute<{ model: string }[]>(`select model from oidc_model where id = ? or grant_id = ? order by model`, [grantId, grantId]);
    expect((await stored()).map((row) => row.model)).toEqual(expect.arrayContaining(['Grant', 'GrantTenant', 'RefreshToken']));

    expect((await admin.delete(`/applications/${doomed.applicationId}`)).status).toBe(204);
    expect(await stored()).toEqual([]);
  });
});

describe('revocation (RFC 7009) of user tokens', () => {
  it('a revoked refresh token stops refreshing, and the grant’s access tokens stop at userinfo', async () => {
    const { config, tokens } = await spaTokens();
    await oidc.tokenRevocation(config, tokens.refresh_token!, { token_type_hint: 'refresh_token' });
    expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
    expect(await userinfoStatus(tokens.access_token)).toBe(401);
  });

  it('a revoked access token stops at userinfo, and takes its grant’s refresh tokens along (RFC 7009 §2.1 allows it)', async () => {
    const { config, tokens } = await spaTokens();
    expect(await userinfoStatus(tokens.access_token)).toBe(200);
    await oidc.tokenRevocation(config, tokens.access_token);
    expect(await userinfoStatus(tokens.access_token)).toBe(401);
    expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
  });

  it('a consent the OP asked while the client’s grant stood, answered once the client revoked it: access_denied, never a sign-in of no tenant', async () => {
    const email = 'consent-after-revocation@example.com';
    const password = 'Correct-Horse-Battery-9';
    const created = await app.http.post('/users', { email, password, tenantId: tenantA });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const bound = await spaConfig(await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT], tenantId: tenantA }));
    const defaults = { redirectUri: REDIRECT, resource: '' };
    const jar = new CookieJar();
    const first = await startAuthorization(bound, defaults, { scope: 'openid offline_access', prompt: 'consent' }, jar);
    const signedIn = await jar.followOut(await jar.submit(first.page, { email, password }), issuer);
    const tokens = await oidc.authorizationCodeGrant(bound, signedIn, { pkceCodeVerifier: first.verifier, expectedState: first.state });
    expect(tokens.claims()).toMatchObject({ sub: created.body.id, tenant_id: tenantA });

    // Signed in: the OP brings the hosted pages a consent of the client's grant, which the client then revokes.
    const again = await authorizationRequest(bound, defaults, { prompt: 'consent' });
    const asked = await jar.visit(again.url.href);
    expect(asked.location).toMatch(/\/interaction\//);
    await oidc.tokenRevocation(bound, tokens.refresh_token!);
    const answered = await jar.followOut(await jar.visit(asked.location!), issuer);
    expect(answered.searchParams.get('error')).toBe('access_denied');
    const grants = await app.sql(`select 1 from oidc_model where model = 'Grant' and payload->>'accountId' = ?`, [created.body.id]);
    expect(grants).toEqual([]);

    // Asked afresh, the pages decide the sign-in's tenant as for any consent.
    const fresh = await authorizationRequest(bound, defaults, { prompt: 'consent' });
    const code = await jar.followOut(await jar.visit(fresh.url.href), issuer);
    const signedInAgain = await oidc.authorizationCodeGrant(bound, code, { pkceCodeVerifier: fresh.verifier, expectedState: fresh.state });
    expect(signedInAgain.claims()).toMatchObject({ sub: created.body.id, tenant_id: tenantA });
  });

  it('a grant of a client bound to a tenant that names another tenant or none (made so before the consent was refused) yields nothing', async () => {
    const bound = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT], tenantId: tenantA });
    const config = await spaConfig(bound);
    const flow = await startFlow(config);
    const tokens = await redeem(config, flow, await callback(flow, ada, tenantA));
    expect(tokens.claims()).toMatchObject({ sub: ada, tenant_id: tenantA });
    const grantId = (await app.sql<{ grant_id: string }>(`select grant_id from oidc_model where model = 'RefreshToken' and payload->>'clientId' = ?`, [bound.clientId]))[0]!.grant_id;
    await app.sql(`update oidc_model set payload = jsonb_set(payload, '{tenantId}', 'null') where model = 'GrantTenant' and id = ?`, [grantId]);
    expect(await userinfoStatus(tokens.access_token)).toBe(401);
    expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
  });

  it('another client cannot revoke the token (200, nothing revoked)', async () => {
    const { config, tokens } = await spaTokens();
    const response = await postForm(`${app.baseUrl}/oauth2/revoke`, { token: tokens.refresh_token!, client_id: otherSpa.clientId });
    expect(response.status).toBe(200);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).resolves.toBeDefined();
  });
});

describe('revocation (RFC 7009) by a confidential client', () => {
  it('another client’s valid token is 200 and stays valid, exactly like an unknown token: no oracle of validity', async () => {
    const { config, tokens } = await spaTokens();
    const headers = { authorization: basicAuth(web.clientId, web.clientSecret!) };
    const foreign = await postForm(`${app.baseUrl}/oauth2/revoke`, { token: tokens.refresh_token! }, headers);
    const unknown = await postForm(`${app.baseUrl}/oauth2/revoke`, { token: 'no-such-token' }, headers);
    expect(foreign.status).toBe(200);
    expect(foreign.body).toEqual(unknown.body);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).resolves.toBeDefined();
  });
});

describe('discovery (RFC 8414) tells what revocation accepts', () => {
  it('lists the revocation endpoint’s client authentication methods, public clients included', async () => {
    const document = (await (await fetch(`${app.baseUrl}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(document['revocation_endpoint_auth_methods_supported']).toEqual(document['token_endpoint_auth_methods_supported']);
    expect(document['revocation_endpoint_auth_signing_alg_values_supported']).toEqual(document['token_endpoint_auth_signing_alg_values_supported']);
    // What it says works: a public client revokes its own refresh token with `none`.
    const { config, tokens } = await spaTokens();
    const revoked = await postForm(`${app.baseUrl}/oauth2/revoke`, { token: tokens.refresh_token!, client_id: spa.clientId });
    expect(revoked.status).toBe(200);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toThrow();
  });
});
