import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { OidcProvider } from '../../src/oidc/provider.ts';
import { createClientCache } from '../../src/oidc/client-cache.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar, type Visit } from '../support/cookie-jar.ts';
import { addDomain } from '../support/domains.ts';
import { csrfOf, emailFormAction, magicLinkOf, mails } from '../support/email-sign-in.ts';
import { fetchVia, type FetchLike } from '../support/host-fetch.ts';
import type { HttpClient } from '../support/http.ts';
import { type AuthorizationFlow, codeAuthorizationUrl, createTestClient, decodeJwt, discover, discoverSurface, mintSurfaceToken, redeemAfter, startAuthorization, type TestClient } from '../support/oauth.ts';
import { isolatedNorthSouth } from '../support/surface-sign-in.ts';

/**
 * A verified custom domain is a sign-in surface with its own issuer (`http://{hostname}` here, PUBLIC_URL's scheme):
 * a tenant's domain signs in to that tenant only, the application's domain to any tenant of the application. The
 * service is reached on 127.0.0.1 with the domain in the Host header (test/support/host-fetch.ts), as behind a proxy.
 */
const REDIRECT_URI = 'https://app.example/callback';
const PASSWORD = 'Correct-Horse-9';
const NORTH_HOST = 'login.north.example';
const SOUTH_HOST = 'login.south.example';
const APP_HOST = 'auth.another.example';

let app: TestApp;
let service: string;
let managementApi: string;
let via: FetchLike;
let another: BootstrapResult;
let admin: HttpClient;
let client: TestClient;
let north: string;
let south: string;
let northDomain: string;
let erinNorth: string;
let erinSouth: string;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  service = app.gatehouse.services.config.publicUrl;
  managementApi = `${service}/api/v1`;
  via = fetchVia(app.baseUrl);
  let appPath: string;
  ({ application: another, admin, appPath, north, south } = await isolatedNorthSouth(app, { brandingScope: 'tenant' }));
  const branding = await admin.put(`${appPath}/tenants/${north}/branding`, { colors: { primary: '#0a3d91' }, copy: { 'login.title': 'North Portal' } });
  expect(branding.status).toBe(200);
  const user = async (tenant: string) => {
    const created = await admin.post(`${appPath}/tenants/${tenant}/users`, { email: 'erin@example.com', password: PASSWORD });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id as string;
  };
  [erinNorth, erinSouth] = [await user(north), await user(south)];
  const owner = { apiKey: another.apiKey, applicationId: another.applicationId };
  northDomain = await addDomain(app, { ...owner, tenantId: north }, NORTH_HOST);
  await addDomain(app, { ...owner, tenantId: south }, SOUTH_HOST, { verified: false });
  await addDomain(app, owner, APP_HOST);
  client = await createTestClient(app, { type: 'web', applicationId: another.applicationId, redirectUris: [REDIRECT_URI] });
});
afterAll(async () => app?.close());

const issuerOf = (host: string) => `http://${host}`;

const discoverAt = (host: string, of: TestClient = client) => discoverSurface(issuerOf(host), of, via);

type Flow = AuthorizationFlow;

const authorize = (config: oidc.Configuration, parameters: Record<string, string> = {}, jar = new CookieJar(via)): Promise<Flow> =>
  startAuthorization(config, { redirectUri: REDIRECT_URI, resource: managementApi }, parameters, jar);

/** `resource` null: none asked for (a userinfo token). */
const tokensAfter = (config: oidc.Configuration, flow: Flow, answer: Visit, resource: string | null = managementApi) =>
  redeemAfter(config, flow, answer, resource ?? undefined);

const discoveryIssuer = async (host: string) => ((await (await via(`http://${host}/.well-known/openid-configuration`)).json()) as { issuer: string }).issuer;

describe('a tenant’s verified domain', () => {
  it('serves discovery and JWKS as its own issuer', async () => {
    const metadata = (await discoverAt(NORTH_HOST)).serverMetadata();
    expect(metadata.issuer).toBe(issuerOf(NORTH_HOST));
    expect(metadata.authorization_endpoint).toBe(`${issuerOf(NORTH_HOST)}/oauth2/authorize`);
    expect(metadata.userinfo_endpoint).toBe(`${issuerOf(NORTH_HOST)}/oauth2/userinfo`);
    expect((await via(metadata.jwks_uri!)).status).toBe(200);
  });

  it('code + PKCE through the hosted form on the domain: the tenant’s page, tokens of its tenant and issuer, userinfo', async () => {
    const config = await discoverAt(NORTH_HOST);
    const flow = await authorize(config);
    expect(flow.start.location).toMatch(new RegExp(`^${issuerOf(NORTH_HOST)}/interaction/`));
    expect(flow.page.status).toBe(200);
    expect(flow.page.body).toContain('<h1>North Portal</h1>');
    expect(flow.page.body).toContain('--gh-primary:#0a3d91');
    const answer = await flow.jar.submit(flow.page, { email: 'erin@example.com', password: PASSWORD });
    expect(answer.status, answer.body).toBe(303);
    const tokens = await tokensAfter(config, flow, answer);
    expect(decodeJwt(tokens.access_token).payload).toMatchObject({ iss: issuerOf(NORTH_HOST), sub: erinNorth, app_id: another.applicationId, tenant_id: north });
    expect(tokens.claims()).toMatchObject({ iss: issuerOf(NORTH_HOST), sub: erinNorth });
    // The management API (on the service's own host) accepts the domain's token: authenticated, no permissions yet.
    expect((await app.as({ bearer: tokens.access_token }).get('/users')).status).toBe(403);
    // Signed in on the domain: a userinfo token without the form, and userinfo on the domain.
    const again = await authorize(config, { resource: '' }, flow.jar);
    const userinfoTokens = await tokensAfter(config, again, again.page, null);
    expect(await oidc.fetchUserInfo(config, userinfoTokens.access_token, erinNorth)).toMatchObject({ sub: erinNorth, email: 'erin@example.com' });
  });

  it('another tenant in the query: the domain tenant’s branded error page (400), no redirect', async () => {
    const flow = await authorize(await discoverAt(NORTH_HOST), { tenant: 'south' });
    expect(flow.start.status).toBe(400);
    expect(flow.start.location).toBeUndefined();
    expect(flow.start.body).toContain('This is the sign-in of North');
    expect(flow.start.body).toContain('--gh-primary:#0a3d91');
  });

  it('the OP’s own pages there (a device’s verification, the signed-out page) are in the tenant’s look, with or without a client', async () => {
    for (const path of ['/oauth2/device', `/oauth2/logout/success?client_id=${client.clientId}`, '/oauth2/logout/success']) {
      const page = await via(`http://${NORTH_HOST}${path}`, { headers: { accept: 'text/html' } });
      const body = await page.text();
      expect(page.status, path).toBe(200);
      expect(body, path).toContain('--gh-primary:#0a3d91');
      expect(body, path).toMatch(/<title>[^<]* – North<\/title>/);
    }
  });

  it('its error pages, the hosted sign-in’s (an interaction it does not know), the OP’s (a redirect URI not registered) and an unknown invitation’s, are in the tenant’s look', async () => {
    const unknownInteraction = await via(`http://${NORTH_HOST}/interaction/no-such-interaction`, { headers: { accept: 'text/html' } });
    const unknownInvitation = await via(`http://${NORTH_HOST}/invitation?token=no-such-invitation`, { headers: { accept: 'text/html' } });
    const unregistered = await via(codeAuthorizationUrl(`http://${NORTH_HOST}`, client.clientId, 'https://elsewhere.example/callback'), {
      redirect: 'manual',
      headers: { accept: 'text/html' },
    });
    for (const page of [unknownInteraction, unregistered, unknownInvitation]) {
      const body = await page.text();
      expect(page.status, body).toBeGreaterThanOrEqual(400);
      expect(body).toContain('--gh-primary:#0a3d91');
      expect(body).toMatch(/<title>[^<]* – North<\/title>/);
    }
  });

  it('a client of another application does not exist on the domain: the OP’s error page, no redirect', async () => {
    const foreign = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
    const flow = await authorize(await discoverAt(NORTH_HOST, foreign));
    expect(flow.start.status).toBe(400);
    expect(flow.start.location).toBeUndefined();
    expect(flow.start.body).toContain('invalid_client');
  });

  it('is its host at the scheme’s default port only: another port is another origin, served as PUBLIC_URL’s (its sign-in 421)', async () => {
    expect(await discoveryIssuer(`${NORTH_HOST}:80`)).toBe(issuerOf(NORTH_HOST));
    expect(await discoveryIssuer(`${NORTH_HOST}:8080`)).toBe(service);
    await expect(discoverSurface(`http://${NORTH_HOST}:8080`, client, via)).rejects.toThrow();
    const authorizeAt = (host: string) => via(codeAuthorizationUrl(`http://${host}`, client.clientId, REDIRECT_URI), { redirect: 'manual' });
    const elsewhere = await authorizeAt(`${NORTH_HOST}:8080`);
    expect(elsewhere.status).toBe(421);
    expect(await elsewhere.text()).toContain(`but this page was asked for at http://${NORTH_HOST}:8080.`);
    expect((await authorizeAt(NORTH_HOST)).status).toBe(303);
  });

  it('no tenant paths under a custom domain, and no way from its root to the dashboard', async () => {
    expect((await via(`http://${NORTH_HOST}/t/north/.well-known/openid-configuration`)).status).toBe(404);
    expect((await via(`http://${NORTH_HOST}/`, { redirect: 'manual' })).status).toBe(404);
  });

  it('the management API accepts the domain’s issuer only for its application and tenant', async () => {
    const claims = { app_id: another.applicationId, permissions: ['users:read'] };
    const own = await mintSurfaceToken(app, issuerOf(NORTH_HOST), { ...claims, tenant_id: north });
    expect((await app.as({ bearer: own }).get('/users')).status).toBe(200);
    for (const forged of [
      await mintSurfaceToken(app, issuerOf(NORTH_HOST), { ...claims, tenant_id: south }),
      await mintSurfaceToken(app, issuerOf(NORTH_HOST), claims),
      await mintSurfaceToken(app, issuerOf(NORTH_HOST), { app_id: app.root.applicationId, permissions: ['users:read'] }),
      await mintSurfaceToken(app, `https://${NORTH_HOST}`, { ...claims, tenant_id: north }),
      await mintSurfaceToken(app, issuerOf(SOUTH_HOST), { ...claims, tenant_id: south }),
    ]) {
      const refused = await app.as({ bearer: forged }).get('/users');
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe('unauthenticated');
    }
  });
});

describe('an unverified or unknown Host', () => {
  it('is served as the service’s own issuer, exactly as before: discovery against the domain fails in the RP', async () => {
    for (const host of [SOUTH_HOST, 'unknown.example', '127.0.0.1']) expect(await discoveryIssuer(host)).toBe(service);
    await expect(discoverAt(SOUTH_HOST)).rejects.toThrow();
  });
});

describe('the application’s verified domain', () => {
  it('serves the application without a fixed tenant: the request names one, the token carries it', async () => {
    const config = await discoverAt(APP_HOST);
    expect(config.serverMetadata().issuer).toBe(issuerOf(APP_HOST));
    const flow = await authorize(config, { tenant: 'south' });
    const answer = await flow.jar.submit(flow.page, { email: 'erin@example.com', password: PASSWORD });
    expect(decodeJwt((await tokensAfter(config, flow, answer)).access_token).payload).toMatchObject({
      iss: issuerOf(APP_HOST),
      sub: erinSouth,
      tenant_id: south,
    });
    const claims = { app_id: another.applicationId, permissions: ['users:read'] };
    expect((await app.as({ bearer: await mintSurfaceToken(app, issuerOf(APP_HOST), { ...claims, tenant_id: south }) }).get('/users')).status).toBe(200);
    const foreign = await mintSurfaceToken(app, issuerOf(APP_HOST), { app_id: app.root.applicationId, permissions: ['users:read'] });
    expect((await app.as({ bearer: foreign }).get('/users')).status).toBe(401);
  });
  it('the OP’s own pages there are in the application’s look', async () => {
    const { name } = (await admin.get(`/applications/${another.applicationId}`)).body as { name: string };
    for (const path of ['/oauth2/device', `/oauth2/logout/success?client_id=${client.clientId}`]) {
      const body = await (await via(`http://${APP_HOST}${path}`, { headers: { accept: 'text/html' } })).text();
      expect(body, path).toContain(`– ${name}</title>`);
    }
  });
});

describe('an interaction is answered on the host that began it only', () => {
  /** The same interaction, cookie and form, with `host` as the Host header. */
  const postedVia = (flow: Flow, action: string, host: string, fields: Record<string, string>) =>
    via(`http://${host}${new URL(action).pathname}`, {
      method: 'POST',
      headers: { cookie: flow.jar.header(action)!, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: new URLSearchParams({ csrf: csrfOf(flow.page), ...fields }).toString(),
    });

  it('another application’s verified domain as Host: refused (400), no link mailed to its host', async () => {
    expect((await app.http.post('/auth-providers', { type: 'magic_link' })).status).toBe(201);
    expect((await app.http.post('/users', { email: 'victim@example.com', password: PASSWORD })).status).toBe(201);
    const rootClient = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
    const flow = await authorize(await discover(app, rootClient.clientId, oidc.ClientSecretBasic(rootClient.clientSecret ?? '')));
    const action = emailFormAction(flow.page, 'email-link');
    const forged = await postedVia(flow, action, APP_HOST, { email: 'victim@example.com' });
    expect(forged.status).toBe(400);
    expect(await mails(app.http, 'victim@example.com', 'magic_link')).toEqual([]);
    // On its own host the same form mails a link to the service's pages.
    expect((await postedVia(flow, action, new URL(service).host, { email: 'victim@example.com' })).status).toBe(200);
    expect(await magicLinkOf(app.http, 'victim@example.com')).toMatch(new RegExp(`^${service}/interaction/`));
  });

  it('a magic link opened in another browser on another application’s domain: refused (400), its code not shown, the link still live', async () => {
    expect([201, 409]).toContain((await app.http.post('/auth-providers', { type: 'magic_link' })).status);
    expect((await app.http.post('/users', { email: 'opener@example.com', password: PASSWORD })).status).toBe(201);
    const rootClient = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
    const flow = await authorize(await discover(app, rootClient.clientId, oidc.ClientSecretBasic(rootClient.clientSecret ?? '')));
    expect((await postedVia(flow, emailFormAction(flow.page, 'email-link'), new URL(service).host, { email: 'opener@example.com' })).status).toBe(200);
    const link = new URL(await magicLinkOf(app.http, 'opener@example.com'));
    const token = link.searchParams.get('token')!;
    const form = (body: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }, body: new URLSearchParams(body).toString() });
    for (const host of [APP_HOST, NORTH_HOST]) {
      const opened = await via(`http://${host}${link.pathname}${link.search}`, { headers: { accept: 'text/html' } });
      expect(opened.status).toBe(400);
      const confirmed = await via(`http://${host}${link.pathname}/confirm`, form({ token }));
      expect(confirmed.status).toBe(400);
      expect(await confirmed.text()).not.toContain('class="code"');
    }
    // On the host it was asked from, the same link still asks "was this you?".
    expect((await via(link.href, { headers: { accept: 'text/html' } })).status).toBe(200);
  });

  it('begun on a tenant’s domain: its page and form are refused on the service’s host and on another domain', async () => {
    const flow = await authorize(await discoverAt(NORTH_HOST));
    const action = new URL(flow.page.url).pathname;
    for (const host of [new URL(service).host, APP_HOST]) {
      expect((await via(`http://${host}${action}`, { headers: { cookie: flow.jar.header(flow.page.url)! } })).status).toBe(400);
      expect((await postedVia(flow, `${flow.page.url}/login`, host, { email: 'erin@example.com', password: PASSWORD })).status).toBe(400);
    }
    const answer = await flow.jar.submit(flow.page, { email: 'erin@example.com', password: PASSWORD });
    expect(answer.status, answer.body).toBe(303);
  });
});

describe('deleting or un-verifying a domain stops its surface at once', () => {
  it('deleted: the Host is the service’s issuer again and the domain’s tokens stop working', async () => {
    const token = await mintSurfaceToken(app, issuerOf(NORTH_HOST), { app_id: another.applicationId, tenant_id: north, permissions: ['users:read'] });
    expect((await app.as({ bearer: token }).get('/users')).status).toBe(200);
    expect((await admin.delete(`/applications/${another.applicationId}/tenants/${north}/domains/${northDomain}`)).status).toBe(204);
    expect(await discoveryIssuer(NORTH_HOST)).toBe(service);
    expect((await app.as({ bearer: token }).get('/users')).status).toBe(401);
  });

  it('un-verified (verified_at cleared): the same', async () => {
    expect(await discoveryIssuer(APP_HOST)).toBe(issuerOf(APP_HOST));
    await app.gatehouse.services.orm.em.getConnection().execute('update domain set verified_at = null where hostname = ?', [APP_HOST]);
    expect(await discoveryIssuer(APP_HOST)).toBe(service);
  });
});

describe('the OP cache', () => {
  it('is bounded: the least recently used surface’s instance is dropped and rebuilt on its next request', async () => {
    const { services } = app.gatehouse;
    const { config, orm, signingKeys, clientSecrets, surfaces, invalidations, tokenEvents } = services;
    const clients = createClientCache(services.invalidations, 0);
    const liveSubjects = services.apiKeys.bearerSubjects;
    const m2mTokenSeconds = () => Promise.resolve(null);
    const cache = new OidcProvider({ config, orm, signingKeys, clientSecrets, clients, organizations: services.apiKeys.organizations, surfaces, invalidations, liveSubjects, m2mTokenSeconds, tokenEvents, cookieSecret: 'test-cookie-secret', maxProviders: 2 });
    const first = await cache.get();
    const northPath = (await surfaces.forTenantPath('north'))!;
    expect(await cache.get()).toBe(first);
    await cache.get(northPath);
    await cache.get((await surfaces.forTenantPath('south'))!);
    expect(cache.cachedProviders).toBe(2);
    const rebuilt = await cache.get();
    expect(rebuilt).not.toBe(first);
    expect(rebuilt.provider.issuer).toBe(service);
    expect(cache.cachedProviders).toBe(2);
  });
});
