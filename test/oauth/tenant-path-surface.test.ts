import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar, readForm, type Visit } from '../support/cookie-jar.ts';
import type { HttpClient } from '../support/http.ts';
import { type AuthorizationFlow, basicAuth, createTestClient, decodeJwt, discoverSurface, mintSurfaceToken, postForm, startAuthorization, type TestClient } from '../support/oauth.ts';
import { isolatedNorthSouth } from '../support/surface-sign-in.ts';

/**
 * A tenant's path surface, `{PUBLIC_URL}/t/{tenant id or slug}`: an issuer of its own (discovery, JWKS, authorize,
 * token, userinfo under that path), signing in to that tenant only, in its branding and under its password policy,
 * with a sign-in session of its own. openid-client is the RP, discovering the surface as any issuer.
 */
const REDIRECT_URI = 'https://app.example/callback';
const PASSWORD = 'Correct-Horse-9';

let app: TestApp;
let service: string;
let managementApi: string;
let another: BootstrapResult;
let admin: HttpClient;
let client: TestClient;
let north: string;
let south: string;
let erinNorth: string;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  service = app.gatehouse.services.config.publicUrl;
  managementApi = `${service}/api/v1`;
  let appPath: string;
  ({ application: another, admin, appPath, north, south } = await isolatedNorthSouth(app, { brandingScope: 'tenant' }));
  const branding = await admin.put(`${appPath}/tenants/${north}/branding`, { colors: { primary: '#0a3d91' }, copy: { 'login.title': 'North Portal' } });
  expect(branding.status, JSON.stringify(branding.body)).toBe(200);
  const policy = await admin.put(`${appPath}/tenants/${north}/policies/password`, { minLength: 16 });
  expect(policy.status, JSON.stringify(policy.body)).toBe(200);
  const created = await admin.post(`${appPath}/tenants/${north}/users`, { email: 'erin@example.com', password: 'Correct-Horse-Battery-9' });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  erinNorth = created.body.id;
  expect((await admin.post(`${appPath}/tenants/${south}/users`, { email: 'erin@example.com', password: PASSWORD })).status).toBe(201);
  client = await createTestClient(app, { type: 'web', applicationId: another.applicationId, redirectUris: [REDIRECT_URI] });
});
afterAll(async () => app?.close());

const surfaceOf = (ref: string) => `${service}/t/${ref}`;

const discoverAt = (issuer: string, of: TestClient = client) => discoverSurface(issuer, of);

type Flow = AuthorizationFlow;

const authorize = (config: oidc.Configuration, parameters: Record<string, string> = {}, jar = new CookieJar()): Promise<Flow> =>
  startAuthorization(config, { redirectUri: REDIRECT_URI, resource: managementApi }, parameters, jar);

async function tokensAfter(config: oidc.Configuration, flow: Flow, answer: Visit) {
  const callback = await flow.jar.followOut(answer, service);
  return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state }, { resource: managementApi });
}

describe('discovery', () => {
  it('each tenant path is an issuer: its metadata names itself and its endpoints under the path', async () => {
    for (const ref of ['north', north]) {
      const config = await discoverAt(surfaceOf(ref));
      const metadata = config.serverMetadata();
      expect(metadata.issuer).toBe(surfaceOf(ref));
      expect(metadata.authorization_endpoint).toBe(`${surfaceOf(ref)}/oauth2/authorize`);
      expect(metadata.token_endpoint).toBe(`${surfaceOf(ref)}/oauth2/token`);
      expect(metadata.jwks_uri).toBe(`${surfaceOf(ref)}/.well-known/jwks.json`);
      const jwks = await fetch(metadata.jwks_uri!);
      expect(jwks.status).toBe(200);
    }
  });

  it('a tenant path that names no tenant is 404; the service’s own discovery is unchanged', async () => {
    expect((await fetch(`${surfaceOf('nowhere')}/.well-known/openid-configuration`)).status).toBe(404);
    expect((await fetch(`${service}/t/NORTH/.well-known/openid-configuration`)).status).toBe(404);
    const plain = await (await fetch(`${service}/.well-known/openid-configuration`)).json();
    expect(plain.issuer).toBe(service);
  });

  it('a browser at a tenant path that names no tenant gets the error page (404), in its language; an API client the OAuth body', async () => {
    for (const path of ['/oauth2/device', '/oauth2/device?user_code=BCDF-GHJK', '/oauth2/logout?client_id=x', '/oauth2/userinfo']) {
      const page = await fetch(`${surfaceOf('nowhere')}${path}`, { headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' } });
      expect(page.status, path).toBe(404);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const body = await page.text();
      expect(body).toContain('There is no sign-in page at this address.');
      expect(body).not.toContain('invalid_request');
    }
    const german = await fetch(`${surfaceOf('nowhere')}/oauth2/device`, { headers: { accept: 'text/html', 'accept-language': 'de' } });
    expect(await german.text()).toContain('Unter dieser Adresse gibt es keine Anmeldeseite.');
    for (const accept of [undefined, 'application/json', '*/*']) {
      const api = await fetch(`${surfaceOf('nowhere')}/oauth2/device`, { headers: accept === undefined ? {} : { accept } });
      expect(api.status, accept).toBe(404);
      expect(await api.json()).toEqual({ error: 'invalid_request', error_description: 'There is no such sign-in surface' });
    }
  });
});

describe('signing in through a tenant’s path', () => {
  it('code + PKCE: the page is the tenant’s (branding), the tokens carry its tenant and its issuer', async () => {
    const config = await discoverAt(surfaceOf('north'));
    const flow = await authorize(config);
    expect(flow.page.status).toBe(200);
    expect(flow.page.body).toContain('<h1>North Portal</h1>');
    expect(flow.page.body).toContain('--gh-primary:#0a3d91');
    const answer = await flow.jar.submit(flow.page, { email: 'erin@example.com', password: 'Correct-Horse-Battery-9' });
    expect(answer.status, answer.body).toBe(303);
    const tokens = await tokensAfter(config, flow, answer);
    const access = decodeJwt(tokens.access_token).payload;
    expect(access).toMatchObject({ iss: surfaceOf('north'), sub: erinNorth, app_id: another.applicationId, tenant_id: north });
    expect(tokens.claims()).toMatchObject({ iss: surfaceOf('north'), sub: erinNorth });
    // The management API knows this issuer: the token authenticates (403: a user has no permissions yet, not 401).
    expect((await app.as({ bearer: tokens.access_token }).get('/users')).status).toBe(403);
    // Userinfo of the same surface answers for a userinfo token of it.
    const userinfoFlow = await authorize(config, { resource: '' }, flow.jar);
    const userinfoTokens = await oidc.authorizationCodeGrant(config, await flow.jar.followOut(userinfoFlow.page, service), {
      pkceCodeVerifier: userinfoFlow.verifier,
      expectedState: userinfoFlow.state,
    });
    expect(await oidc.fetchUserInfo(config, userinfoTokens.access_token, erinNorth)).toMatchObject({ sub: erinNorth, email: 'erin@example.com' });
  });

  it('the OP’s signed-out page on the path is in the tenant’s look', async () => {
    const signedOut = await fetch(`${surfaceOf('north')}/oauth2/logout/success?client_id=${client.clientId}`, { headers: { accept: 'text/html' } });
    expect(signedOut.status).toBe(200);
    const body = await signedOut.text();
    expect(body).toContain('--gh-primary:#0a3d91');
    expect(body).toMatch(/<title>[^<]* – North<\/title>/);
  });

  it('the tenant’s password policy applies on its surface; the other tenant inherits the application’s', async () => {
    const signup = async (ref: string) => {
      const flow = await authorize(await discoverAt(surfaceOf(ref)));
      const form = await flow.jar.visit(readForm(flow.page.url, flow.page.body).action.replace(/\/login$/, '/signup'));
      return flow.jar.submit(form, { email: 'new@example.com', password: 'Short-Horse-9' });
    };
    const refused = await signup('north');
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('Password must be at least 16 characters');
    expect((await signup('south')).status).toBe(200);
  });

  it('each surface has its own session: signed in on one tenant’s, the other’s asks for its own sign-in', async () => {
    const northConfig = await discoverAt(surfaceOf('north'));
    const first = await authorize(northConfig);
    const signedIn = await first.jar.submit(first.page, { email: 'erin@example.com', password: 'Correct-Horse-Battery-9' });
    await tokensAfter(northConfig, first, signedIn);
    // Same browser, same surface: no form.
    const again = await authorize(northConfig, {}, first.jar);
    expect(again.page.status).toBe(303);
    // The session cookie is the surface's own by its name, and the application's (session-application.ts).
    const session = first.jar.all().find((cookie) => cookie.name === `_session_t.north.${another.applicationId}`);
    expect(session?.path).toBe('/');
    const southConfig = await discoverAt(surfaceOf('south'));
    const toSouth = await authorize(southConfig, {}, first.jar);
    expect(toSouth.page.status).toBe(200);
    const southAnswer = await toSouth.jar.submit(toSouth.page, { email: 'erin@example.com', password: PASSWORD });
    expect(decodeJwt((await tokensAfter(southConfig, toSouth, southAnswer)).access_token).payload).toMatchObject({ tenant_id: south });
  });
});

describe('device flow through a tenant’s path', () => {
  it('verification under the path, the sign-in in the tenant’s pool; another tenant named is refused', async () => {
    const device = await createTestClient(app, { type: 'device', authMethod: 'none', applicationId: another.applicationId });
    const config = await oidc.discovery(new URL(surfaceOf('north')), device.clientId, {}, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid', resource: managementApi });
    expect(started.verification_uri).toBe(`${surfaceOf('north')}/oauth2/device`);
    const jar = new CookieJar();
    const input = await jar.visit(started.verification_uri);
    const confirm = await jar.submit(input, { user_code: started.user_code });
    // The OP's own confirmation page, in the look of the path's tenant (the device authorization named none).
    expect(confirm.body).toContain('--gh-primary:#0a3d91');
    const toInteraction = await jar.submit(confirm, {});
    expect(toInteraction.status, toInteraction.body).toBe(303);
    const page = await jar.visit(toInteraction.location!);
    expect(page.body).toContain('<h1>North Portal</h1>');
    const answer = await jar.submit(page, { email: 'erin@example.com', password: 'Correct-Horse-Battery-9' });
    expect(answer.status, answer.body).toBe(303);
    expect((await jar.visit(answer.location!)).status).toBe(200);
    const tokens = await oidc.pollDeviceAuthorizationGrant(config, started, { resource: managementApi });
    expect(decodeJwt(tokens.access_token).payload).toMatchObject({ iss: surfaceOf('north'), sub: erinNorth, tenant_id: north });

    const refused = await postForm(`${surfaceOf('north')}/oauth2/device_authorization`, { client_id: device.clientId, scope: 'openid', tenant: 'south' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_request');
  });

  /** A new device code of `config`'s client confirmed in `jar`: the page it ends on, after any steps the OP takes without one. */
  async function confirmedDevice(config: oidc.Configuration, jar: CookieJar, scope = 'openid') {
    const started = await oidc.initiateDeviceAuthorization(config, { scope });
    let visit = await jar.submit(await jar.submit(await jar.visit(started.verification_uri_complete!), {}), {});
    for (let hop = 0; hop < 6 && visit.status !== 200; hop += 1) visit = await jar.visit(visit.location!);
    return { started, visit };
  }

  it('a sign-out on the path ends the device page’s sign-in there of the same user: the next device asks for the password', async () => {
    const device = await createTestClient(app, { type: 'device', authMethod: 'none', applicationId: another.applicationId });
    const config = await oidc.discovery(new URL(surfaceOf('north')), device.clientId, {}, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const jar = new CookieJar();
    const confirmed = async () => (await confirmedDevice(config, jar)).visit;
    const signInPage = await confirmed();
    const approved = await jar.submit(signInPage, { email: 'erin@example.com', password: 'Correct-Horse-Battery-9' });
    expect((await jar.visit(approved.location!)).status).toBe(200);
    expect((await confirmed()).status).toBe(200);

    const flow = await authorize(await discoverAt(surfaceOf('north')), {}, jar);
    await tokensAfter(await discoverAt(surfaceOf('north')), flow, await jar.submit(flow.page, { email: 'erin@example.com', password: 'Correct-Horse-Battery-9' }));
    const confirm = await jar.visit(`${surfaceOf('north')}/oauth2/logout?client_id=${client.clientId}`);
    expect(confirm.status).toBe(200);
    expect((await jar.submit(confirm, { logout: 'yes' })).status).toBe(303);

    expect((await confirmed()).body).toContain('name="password"');
  });

  it('another account signing in on the path ends the device page’s sign-in there of the one it replaces; the device stays signed in', async () => {
    // A tenant of its own: the other suites count the users of theirs.
    const east = await app.createTenant('East', another);
    const password = 'Correct-Horse-Battery-9';
    const users = new Map<string, string>();
    for (const email of ['ida@example.com', 'jon@example.com']) {
      const created = await admin.post(`/applications/${another.applicationId}/tenants/${east}/users`, { email, password });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      users.set(email, created.body.id);
    }
    const device = await createTestClient(app, { type: 'device', authMethod: 'none', applicationId: another.applicationId });
    const config = await oidc.discovery(new URL(surfaceOf(east)), device.clientId, {}, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const jar = new CookieJar();
    const { started, visit: signInPage } = await confirmedDevice(config, jar, 'openid offline_access');
    const approved = await jar.submit(signInPage, { email: 'ida@example.com', password });
    expect((await jar.visit(approved.location!)).status).toBe(200);
    const tv = await oidc.pollDeviceAuthorizationGrant(config, started);
    expect(tv.refresh_token).toEqual(expect.any(String));
    const web = await discoverAt(surfaceOf(east));
    const ida = await authorize(web, {}, jar);
    await tokensAfter(web, ida, await jar.submit(ida.page, { email: 'ida@example.com', password }));
    expect((await confirmedDevice(config, jar)).visit.body).toContain('Your device is now signed in');

    // Jon signs in at Ida's browser: the OP signs Ida out of the application's session first.
    const switching = await authorize(web, { prompt: 'login' }, jar);
    const resumed = await jar.visit((await jar.submit(switching.page, { email: 'jon@example.com', password })).location!);
    expect(readForm(resumed.url, resumed.body).fields).toMatchObject({ logout: 'yes' });
    const tokens = await tokensAfter(web, switching, await jar.submit(resumed, {}));
    expect(tokens.claims()?.sub).toBe(users.get('jon@example.com'));

    const asked = (await confirmedDevice(config, jar)).visit;
    expect(asked.body).toContain('name="password"');
    expect(asked.body).not.toContain('Your device is now signed in');
    expect((await oidc.refreshTokenGrant(config, tv.refresh_token!)).access_token).toEqual(expect.any(String));
  });
});

describe('refusals', () => {
  it('a tenant parameter naming another tenant: the surface’s branded error page (400), no redirect', async () => {
    const config = await discoverAt(surfaceOf('north'));
    for (const tenant of ['south', south]) {
      const flow = await authorize(config, { tenant });
      expect(flow.start.status).toBe(400);
      expect(flow.start.location).toBeUndefined();
      expect(flow.start.body).toContain('This is the sign-in of North');
      expect(flow.start.body).toContain('--gh-primary:#0a3d91');
      expect(flow.start.body).not.toContain('<form');
    }
    // Naming the surface's own tenant (by slug or id) changes nothing.
    for (const tenant of ['north', north]) expect((await authorize(config, { tenant })).page.status).toBe(200);
  });

  it('a tenant path unknown to the client’s application: the unknown-tenant page (400), no redirect', async () => {
    const acme = await app.createTenant('Acme');
    expect(acme).toBeDefined();
    const config = await discoverAt(surfaceOf('north'));
    for (const ref of ['nowhere', 'acme']) {
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT_URI,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      });
      const answer = await new CookieJar().visit(url.href.replace('/t/north/', `/t/${ref}/`));
      expect(answer.status, ref).toBe(400);
      expect(answer.location).toBeUndefined();
      expect(answer.body).toContain('an organization that does not exist');
    }
  });

  it('a client bound to another tenant does not exist on this tenant’s surface: its application’s page, not the tenant’s', async () => {
    const appPath = `/applications/${another.applicationId}`;
    const branded = await admin.put(`${appPath}/branding`, { colors: { primary: '#5b2a86' }, copy: { 'error.title': 'Polaris could not sign you in' } });
    expect(branded.status, JSON.stringify(branded.body)).toBe(200);
    const rootBranded = await app.http.put('/branding', { colors: { primary: '#ff0000' } });
    expect(rootBranded.status, JSON.stringify(rootBranded.body)).toBe(200);
    try {
      const applicationName = (await admin.get(appPath)).body.name as string;
      const southClient = await createTestClient(app, { type: 'web', applicationId: another.applicationId, tenantId: south, redirectUris: [REDIRECT_URI] });
      const config = await discoverAt(surfaceOf('north'), southClient);
      const flow = await authorize(config);
      expect(flow.start.status).toBe(400);
      expect(flow.start.location).toBeUndefined();
      expect(flow.start.body).toContain('This application cannot sign in to that organization.');
      // The application's look: its colors, its copy, its name; nothing of North's (the surface's), South's or another application's.
      expect(flow.start.body).toContain('--gh-primary:#5b2a86');
      expect(flow.start.body).toContain('<h1>Polaris could not sign you in</h1>');
      expect(flow.start.body).toContain(`<title>Polaris could not sign you in – ${applicationName}</title>`);
      for (const other of ['#0a3d91', 'North', 'South', '#ff0000', 'Sign-in is not possible – Gatehouse']) expect(flow.start.body).not.toContain(other);
    } finally {
      expect((await admin.put(`${appPath}/branding`, {})).status).toBe(200);
      expect((await app.http.put('/branding', {})).status).toBe(200);
    }
  });

  it('a code made on one tenant’s surface cannot be redeemed at another’s token endpoint', async () => {
    const config = await discoverAt(surfaceOf('north'));
    const flow = await authorize(config);
    const answer = await flow.jar.submit(flow.page, { email: 'erin@example.com', password: 'Correct-Horse-Battery-9' });
    const callback = await flow.jar.followOut(answer, service);
    const code = callback.searchParams.get('code')!;
    const fields = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: flow.verifier };
    const auth = { authorization: basicAuth(client.clientId, client.clientSecret!) };
    const elsewhere = await postForm(`${surfaceOf('south')}/oauth2/token`, fields, auth);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error).toBe('invalid_grant');
    const atService = await postForm(`${service}/oauth2/token`, fields, auth);
    expect(atService.body.error).toBe('invalid_grant');
    // At its own surface the code is still good.
    const own = await postForm(`${surfaceOf('north')}/oauth2/token`, fields, auth);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
  });

  it('a tenant’s slug given to another tenant: the new owner’s surface refreshes none of the first one’s grants', async () => {
    const appPath = `/applications/${another.applicationId}`;
    const west = await admin.post(`${appPath}/tenants`, { name: 'West', slug: 'west' });
    expect((await admin.post(`${appPath}/tenants/${west.body.id}/users`, { email: 'wes@example.com', password: PASSWORD })).status).toBe(201);
    const config = await discoverAt(surfaceOf('west'));
    const flow = await authorize(config, { scope: 'openid offline_access', prompt: 'consent' });
    const tokens = await tokensAfter(config, flow, await flow.jar.submit(flow.page, { email: 'wes@example.com', password: PASSWORD }));
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const refresh = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! };
    const auth = { authorization: basicAuth(client.clientId, client.clientSecret!) };

    expect((await admin.patch(`${appPath}/tenants/${west.body.id}`, { slug: 'west-old' })).status).toBe(200);
    expect((await admin.post(`${appPath}/tenants`, { name: 'Westward', slug: 'west' })).status).toBe(201);
    const atNewOwner = await postForm(`${surfaceOf('west')}/oauth2/token`, refresh, auth);
    expect(atNewOwner.body.error, JSON.stringify(atNewOwner.body)).toBe('invalid_grant');
    // The refresh token was refused, not consumed: its own tenant's surface by id, where the slug no longer matters,
    // is another issuer and refuses it too (tokens are bound to the issuer that made them).
    expect((await postForm(`${surfaceOf(west.body.id)}/oauth2/token`, refresh, auth)).body.error).toBe('invalid_grant');
  });

  it('an application-wide M2M credential gets a token of the surface’s tenant there, which the management API takes', async () => {
    const created = await admin.post('/m2m-credentials', { name: 'reporting', permissions: ['users:read'], authMethod: 'client_secret_basic' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const auth = { authorization: basicAuth(created.body.clientId, created.body.clientSecret) };
    const granted = await postForm(`${surfaceOf('north')}/oauth2/token`, { grant_type: 'client_credentials' }, auth);
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(decodeJwt(granted.body.access_token).payload).toMatchObject({ iss: surfaceOf('north'), tenant_id: north, app_id: another.applicationId });
    const users = await app.as({ bearer: granted.body.access_token }).get('/users');
    expect(users.status, JSON.stringify(users.body)).toBe(200);
    expect(users.body.data.map((user: { id: string }) => user.id)).toEqual([erinNorth]);
    // At the service's surface the same credential acts application-wide.
    const serviceToken = await postForm(`${service}/oauth2/token`, { grant_type: 'client_credentials' }, auth);
    expect(decodeJwt(serviceToken.body.access_token).payload.tenant_id).toBeUndefined();
  });

  it('the management API accepts a tenant path’s token only for that tenant of its application', async () => {
    const claims = { app_id: another.applicationId, permissions: ['users:read'] };
    const own = await mintSurfaceToken(app, surfaceOf('north'), { ...claims, tenant_id: north });
    expect((await app.as({ bearer: own }).get('/users')).status).toBe(200);
    const byId = await mintSurfaceToken(app, surfaceOf(north), { ...claims, tenant_id: north });
    expect((await app.as({ bearer: byId }).get('/users')).status).toBe(200);
    for (const forged of [
      await mintSurfaceToken(app, surfaceOf('north'), { ...claims, tenant_id: south }),
      await mintSurfaceToken(app, surfaceOf('north'), claims),
      await mintSurfaceToken(app, surfaceOf('north'), { app_id: app.root.applicationId, permissions: ['users:read'] }),
      await mintSurfaceToken(app, surfaceOf('nowhere'), { ...claims, tenant_id: north }),
      await mintSurfaceToken(app, 'https://evil.example', { ...claims, tenant_id: north }),
    ]) {
      const refused = await app.as({ bearer: forged }).get('/users');
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe('unauthenticated');
    }
  });
});
