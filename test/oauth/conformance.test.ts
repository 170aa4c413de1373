import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar } from '../support/cookie-jar.ts';
import { HttpClient } from '../support/http.ts';
import { authorizationRequest, basicAuth, createTestClient, decodeJwt, postForm, startAuthorization, type TestClient } from '../support/oauth.ts';

/**
 * OIDC and OAuth conformance points of the OP: silent authorization (prompt=none, OIDC Core 3.1.2.6) answering what
 * the hosted pages would, RFC 8414's metadata location of a tenant's path issuer, the 401 challenge of a failed client
 * authentication (RFC 9110 15.5.2), what discovery advertises, and the REQUIRED redirect_uri (OIDC Core 3.1.2.1).
 */
const REDIRECT_URI = 'https://app.example/callback';
const PASSWORD = 'Correct-Horse-9';

let app: TestApp;
let service: string;
let managementApi: string;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  service = app.gatehouse.services.config.publicUrl;
  managementApi = `${service}/api/v1`;
});
afterAll(async () => app?.close());

async function webClient(applicationId: string): Promise<oidc.Configuration> {
  const client = await createTestClient(app, { type: 'web', applicationId, redirectUris: [REDIRECT_URI] });
  return oidc.discovery(new URL(service), client.clientId, {}, oidc.ClientSecretBasic(client.clientSecret ?? ''), { execute: [oidc.allowInsecureRequests] });
}

const defaults = () => ({ redirectUri: REDIRECT_URI, resource: managementApi });

/** The access token's claims of a code the client got back at `callback`. */
async function redeem(config: oidc.Configuration, callback: URL, request: { verifier: string; state: string }) {
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: request.verifier, expectedState: request.state }, { resource: managementApi });
  return { access: decodeJwt(tokens.access_token).payload, id: decodeJwt(tokens.id_token!).payload, idToken: tokens.id_token! };
}

/** Signs `email` in through the hosted form in `jar` (a new browser by default); the access token's claims. */
async function signIn(config: oidc.Configuration, email: string, parameters: Record<string, string> = {}, jar = new CookieJar()) {
  const flow = await startAuthorization(config, defaults(), parameters, jar);
  const callback = await jar.followOut(await jar.submit(flow.page, { email, password: PASSWORD }), service);
  return (await redeem(config, callback, flow)).access;
}

/** An authorization request with prompt=none in the browser `jar`: where the OP sends it back (never to a page). */
async function silently(config: oidc.Configuration, jar: CookieJar, parameters: Record<string, string> = {}) {
  const request = await authorizationRequest(config, defaults(), { prompt: 'none', ...parameters });
  const callback = await jar.followOut(await jar.visit(request.url.href), service);
  expect(callback.href.startsWith(`${REDIRECT_URI}?`), callback.href).toBe(true);
  return { request, callback, error: callback.searchParams.get('error'), code: callback.searchParams.get('code') };
}

async function createUser(email: string, tenantIds: string[] = [], http: HttpClient = app.http): Promise<string> {
  const created = await http.post('/users', { email, password: PASSWORD, name: 'Test User', ...(tenantIds.length > 0 ? { tenantId: tenantIds[0] } : {}) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  if (tenantIds.length > 1) expect((await http.patch(`/users/${created.body.id}`, { tenantIds })).status).toBe(200);
  return created.body.id as string;
}

describe('silent authorization (prompt=none) across the application’s clients and tenants', () => {
  let first: oidc.Configuration;
  let second: oidc.Configuration;
  let acme: string;
  let globex: string;
  let initech: string;

  beforeAll(async () => {
    [first, second] = [await webClient(app.root.applicationId), await webClient(app.root.applicationId)];
    [acme, globex, initech] = [await app.createTenant('Silent Acme'), await app.createTenant('Silent Globex'), await app.createTenant('Silent Initech')];
  });

  it('signed in through one client, another client of the application gets a code without a page (consent is implicit)', async () => {
    const ada = await createUser('ada.silent@example.com');
    const jar = new CookieJar();
    await signIn(first, 'ada.silent@example.com', {}, jar);
    const answer = await silently(second, jar);
    expect(answer.error).toBeNull();
    const claims = await redeem(second, answer.callback, answer.request);
    expect(claims.access).toMatchObject({ sub: ada, app_id: app.root.applicationId, client_id: second.clientMetadata().client_id });
    expect(claims.access).not.toHaveProperty('tenant_id');
    // More scopes than the client's grant holds, silently too: the grant takes them, as the consent step would.
    const more = await silently(second, jar, { scope: 'openid email profile' });
    expect(more.error).toBeNull();
    expect((await redeem(second, more.callback, more.request)).id).toMatchObject({ sub: ada, name: 'Test User' });
  });

  it('a user of two tenants signed in to one gets a code for the other from another client; the same client’s is interaction_required', async () => {
    const bob = await createUser('bob.silent@example.com', [acme, globex]);
    const jar = new CookieJar();
    expect(await signIn(first, 'bob.silent@example.com', { tenant: acme }, jar)).toMatchObject({ sub: bob, tenant_id: acme });
    const answer = await silently(second, jar, { tenant: globex });
    expect(answer.error).toBeNull();
    expect((await redeem(second, answer.callback, answer.request)).access).toMatchObject({ sub: bob, tenant_id: globex });
    // It would end the first client's sign-in to Acme (one grant per client in the session): the user confirms that on a page.
    expect(await silently(first, jar, { tenant: globex })).toMatchObject({ error: 'interaction_required', code: null });
    // The session's grant for the first client is still Acme's: naming no tenant keeps it, as the pages would.
    const unnamed = await silently(first, jar);
    expect((await redeem(first, unnamed.callback, unnamed.request)).access).toMatchObject({ sub: bob, tenant_id: acme });
  });

  it('where the pages would ask something, the OIDC error says what, and no code is issued', async () => {
    await createUser('carol.silent@example.com', [acme, globex]);
    const jar = new CookieJar();
    await signIn(first, 'carol.silent@example.com', { tenant: acme }, jar);

    // Another client, no tenant named: the pages ask her to choose one of her two.
    const choice = await startAuthorization(second, defaults(), {}, jar);
    expect(choice.page.status).toBe(200);
    expect(choice.page.body).toContain('name="tenant"');
    const silentChoice = await silently(second, jar);
    expect(silentChoice).toMatchObject({ error: 'account_selection_required', code: null });

    // A tenant she is no member of: the pages offer another account's sign-in.
    const stranger = await startAuthorization(first, defaults(), { tenant: initech }, jar);
    expect(stranger.page.body).toContain('cannot be used for Silent Initech');
    const unusable = await silently(first, jar, { tenant: initech });
    expect(unusable).toMatchObject({ error: 'login_required', code: null });
    expect(await silently(second, jar, { tenant: initech })).toMatchObject({ error: 'login_required', code: null });
    // Worded as without a session (RFC 6749 4.1.2.1: ASCII only), so the client learns nothing of the browser's account.
    const withoutSession = await silently(first, new CookieJar(), { tenant: initech });
    expect(unusable.callback.searchParams.get('error_description')).toBe(withoutSession.callback.searchParams.get('error_description'));

    // A tenant that does not exist is the request's error, with a session as without one (and as without prompt=none).
    expect(await silently(first, jar, { tenant: 'no-such-tenant' })).toMatchObject({ error: 'invalid_request', code: null });
    expect(await silently(first, new CookieJar(), { tenant: 'no-such-tenant' })).toMatchObject({ error: 'invalid_request', code: null });

    // Her own tenants still answer silently after those refusals.
    const acmeAgain = await silently(second, jar, { tenant: acme });
    expect((await redeem(second, acmeAgain.callback, acmeAgain.request)).access).toMatchObject({ tenant_id: acme });
  });

  it('refused by a check after the tenant is decided (an id_token_hint of another user): no grant is written first', async () => {
    const grants = async (accountId: string, config: oidc.Configuration) => {
      const [row] = await app.gatehouse.services.orm.em
        .getConnection()
        .execute<{ count: string }[]>(`select count(*) from oidc_model where model = 'Grant' and payload->>'accountId' = ? and payload->>'clientId' = ?`, [
          accountId,
          config.clientMetadata().client_id,
        ]);
      return Number(row!.count);
    };
    const eve = await createUser('eve.silent@example.com', [acme]);
    await createUser('finn.silent@example.com', [acme]);
    // Finn's ID token for the second client, from a browser of his own.
    const finn = await startAuthorization(second, defaults());
    const { idToken } = await redeem(second, await finn.jar.followOut(await finn.jar.submit(finn.page, { email: 'finn.silent@example.com', password: PASSWORD }), service), finn);

    const jar = new CookieJar();
    await signIn(first, 'eve.silent@example.com', {}, jar);
    expect(await silently(second, jar, { id_token_hint: idToken })).toMatchObject({ error: 'login_required', code: null });
    expect(await grants(eve, second)).toBe(0);
    const served = await silently(second, jar);
    expect((await redeem(second, served.callback, served.request)).access).toMatchObject({ sub: eve, tenant_id: acme });
    expect(await grants(eve, second)).toBe(1);
  });

  it('a session whose user was deleted answers login_required (the user must sign in again)', async () => {
    const dora = await createUser('dora.silent@example.com', [acme]);
    const jar = new CookieJar();
    await signIn(first, 'dora.silent@example.com', { tenant: acme }, jar);
    expect((await app.http.delete(`/users/${dora}`)).status).toBe(204);
    expect(await silently(first, jar, { tenant: acme })).toMatchObject({ error: 'login_required', code: null });
    expect(await silently(second, jar)).toMatchObject({ error: 'login_required', code: null });
  });
});

describe('silent authorization with isolated pools', () => {
  let another: BootstrapResult;
  let config: oidc.Configuration;
  let north: string;
  let south: string;
  let erinNorth: string;

  beforeAll(async () => {
    another = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: another.apiKey });
    north = await app.createTenant('Silent North', another);
    south = await app.createTenant('Silent South', another);
    expect((await admin.patch(`/applications/${another.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const create = async (tenant: string) => {
      const created = await admin.post(`/applications/${another.applicationId}/tenants/${tenant}/users`, { email: 'erin.silent@example.com', password: PASSWORD });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id as string;
    };
    erinNorth = await create(north);
    await create(south);
    config = await webClient(another.applicationId);
  });

  it('signed in to one tenant’s pool, another tenant’s is refused (login_required); the same tenant is served', async () => {
    const jar = new CookieJar();
    expect(await signIn(config, 'erin.silent@example.com', { tenant: north }, jar)).toMatchObject({ sub: erinNorth, tenant_id: north });
    expect(await silently(config, jar, { tenant: south })).toMatchObject({ error: 'login_required', code: null });
    const other = await webClient(another.applicationId);
    expect(await silently(other, jar, { tenant: south })).toMatchObject({ error: 'login_required', code: null });
    // No tenant named: the request's error (each tenant its own sign-in), as without prompt=none, so no code either.
    expect(await silently(other, jar)).toMatchObject({ error: 'invalid_request', code: null });
    const same = await silently(other, jar, { tenant: north });
    expect((await redeem(other, same.callback, same.request)).access).toMatchObject({ sub: erinNorth, tenant_id: north });
  });
});

describe('RFC 8414 metadata of a tenant’s path issuer', () => {
  let slug: string;
  let client: TestClient;

  beforeAll(async () => {
    // A tenant's path is a surface of an isolated application only (a shared one has one surface).
    const another = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: another.apiKey });
    const created = await admin.post(`/applications/${another.applicationId}/tenants`, { name: 'Metadata Tenant', slug: 'metadata-tenant' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    slug = created.body.slug as string;
    expect((await admin.patch(`/applications/${another.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    client = await createTestClient(app, { type: 'web', applicationId: another.applicationId, redirectUris: [REDIRECT_URI] });
  });

  it('is served with the issuer’s path after the well-known path, the same document as the appended form', async () => {
    for (const wellKnown of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const inserted = await fetch(`${service}${wellKnown}/t/${slug}`);
      expect(inserted.status).toBe(200);
      const appended = await fetch(`${service}/t/${slug}${wellKnown}`);
      const document = (await inserted.json()) as Record<string, unknown>;
      expect(document).toEqual(await appended.json());
      expect(document['issuer']).toBe(`${service}/t/${slug}`);
    }
  });

  it('is what openid-client discovers for the tenant issuer with RFC 8414 discovery', async () => {
    const config = await oidc.discovery(new URL(`${service}/t/${slug}`), client.clientId, {}, oidc.ClientSecretBasic(client.clientSecret ?? ''), {
      execute: [oidc.allowInsecureRequests],
      algorithm: 'oauth2',
    });
    expect(config.serverMetadata().issuer).toBe(`${service}/t/${slug}`);
    expect(config.serverMetadata().token_endpoint).toBe(`${service}/t/${slug}/oauth2/token`);
  });

  it('an unknown tenant is the appended form’s 404; other methods are 405', async () => {
    const inserted = await fetch(`${service}/.well-known/oauth-authorization-server/t/nowhere`);
    const appended = await fetch(`${service}/t/nowhere/.well-known/oauth-authorization-server`);
    expect(inserted.status).toBe(404);
    expect(appended.status).toBe(404);
    expect(await inserted.json()).toEqual(await appended.json());
    const posted = await fetch(`${service}/.well-known/openid-configuration/t/${slug}`, { method: 'POST' });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, OPTIONS, HEAD');
  });
});

describe('a failed client authentication’s 401 carries WWW-Authenticate whatever the method', () => {
  const challenge = () => new RegExp(`^Basic realm="${service.replace(/[.]/g, '\\.')}", error="invalid_client"`);

  it('client_secret_post, at the token and revocation endpoints', async () => {
    const client = await createTestClient(app, { type: 'web', authMethod: 'client_secret_post', redirectUris: [REDIRECT_URI] });
    const fields = { client_id: client.clientId, client_secret: 'wrong-secret' };
    for (const [endpoint, body] of [
      ['token', { grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT_URI, code_verifier: 'v'.repeat(43) }],
      ['revoke', { token: 'x' }],
    ] as const) {
      const refused = await postForm(`${service}/oauth2/${endpoint}`, { ...body, ...fields });
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ error: 'invalid_client' });
      expect(refused.headers.get('www-authenticate')).toMatch(challenge());
    }
  });

  it('a public client (none), and client_secret_basic with one challenge only', async () => {
    const unknown = await postForm(`${service}/oauth2/token`, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: 'x', client_id: '01a20c97-0000-7000-8000-000000000000' });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toMatch(challenge());
    const client = await createTestClient(app);
    const basic = await postForm(`${service}/oauth2/token`, { grant_type: 'client_credentials' }, { authorization: basicAuth(client.clientId, 'wrong-secret') });
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).toMatch(challenge());
    expect(basic.headers.get('www-authenticate')!.match(/Basic realm/g)).toHaveLength(1);
  });
});

describe('discovery and authorization requests', () => {
  it('claims_supported lists no sid, which nothing issues (no front- or back-channel logout)', async () => {
    for (const wellKnown of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
      const document = (await (await fetch(`${service}${wellKnown}`)).json()) as { claims_supported: string[]; frontchannel_logout_supported?: boolean };
      expect(document.claims_supported).toEqual(expect.arrayContaining(['sub', 'email', 'name']));
      expect(document.claims_supported).not.toContain('sid');
      expect(document).not.toHaveProperty('backchannel_logout_supported');
      expect(document).not.toHaveProperty('frontchannel_logout_supported');
    }
  });

  it('an authorization request without redirect_uri is refused on a page (invalid_request), never redirected', async () => {
    const config = await webClient(app.root.applicationId);
    const { url } = await authorizationRequest(config, defaults());
    url.searchParams.delete('redirect_uri');
    const refused = await new CookieJar().visit(url.href);
    expect(refused.status).toBe(400);
    expect(refused.location).toBeUndefined();
    expect(refused.body).toContain('invalid_request');
    expect(refused.body).toContain('redirect_uri');
  });
});
