import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { authorizationData } from '../support/authorization.ts';
import { createTestClient, decodeJwt, discover, postForm, startAuthorization } from '../support/oauth.ts';

/**
 * Tokens for the customer's own APIs: a grant naming an API resource gets an ES256 JWT for it, which the customer's
 * backend verifies with `jose` exactly as README.md ("Protecting your own API") shows.
 */
const REDIRECT_URI = 'https://app.example/callback';
const PASSWORD = 'Correct-Horse-9';
const INVOICES_API = 'https://invoices.example.com';

let app: TestApp;
let issuer: string;
let config: oidc.Configuration;
let web: { clientId: string; clientSecret: string };
let tenantA: string;
let tenantB: string;
let userId: string;
let accountant: string;

/** README.md's verification, word for word: the JWKS, the issuer, the audience, then a permission. */
async function authorizeRequest(accessToken: string, permission: string) {
  const JWKS = createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`));
  const { payload } = await jwtVerify(accessToken, JWKS, { issuer, audience: INVOICES_API });
  if (!Array.isArray(payload['permissions']) || !payload['permissions'].includes(permission)) throw new Error('forbidden');
  return payload;
}

/** A password sign-in through the hosted page to `tenant`, redeemed naming `resource` (if any). */
async function signIn(tenant: string, resource: string | undefined, parameters: Record<string, string> = {}, email = 'ann@example.com') {
  const flow = await startAuthorization(config, { redirectUri: REDIRECT_URI, resource: resource ?? '' }, { tenant, ...parameters });
  const answer = await flow.jar.submit(flow.page, { email, password: PASSWORD });
  const callback = await flow.jar.followOut(answer, issuer);
  return { flow, callback };
}

async function tokensFor(tenant: string, resource: string, parameters: Record<string, string> = {}, email?: string) {
  const { flow, callback } = await signIn(tenant, resource, parameters, email);
  return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state }, { resource });
}

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  tenantA = await app.createTenant('Acme');
  tenantB = await app.createTenant('Globex');
  const data = authorizationData(app);
  for (const key of ['invoices:read', 'invoices:approve', 'reports:read']) await data.permission(key);
  expect((await app.http.post('/api-resources', { identifier: INVOICES_API, name: 'Invoices', permissions: ['invoices:read', 'invoices:approve'] })).status).toBe(201);
  userId = (await app.http.post('/users', { email: 'ann@example.com', password: PASSWORD, tenantId: tenantA })).body.id;
  expect((await app.http.patch(`/users/${userId}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
  accountant = await data.role('accountant', ['invoices:*', 'reports:read']);
  await data.assign({ type: 'user', id: userId }, accountant, tenantA);
  await data.assign({ type: 'user', id: userId }, await data.role('viewer', ['invoices:read']), null);
  const client = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
  web = { clientId: client.clientId, clientSecret: client.clientSecret! };
  config = await discover(app, web.clientId, oidc.ClientSecretBasic(web.clientSecret));
});
afterAll(async () => app?.close());

describe('a sign-in naming an API resource', () => {
  it('gets an ES256 JWT for it, verified as README.md shows, with the permissions held in the tenant', async () => {
    const tokens = await tokensFor(tenantA, INVOICES_API);
    expect(decodeJwt(tokens.access_token).header).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    const payload = await authorizeRequest(tokens.access_token, 'invoices:approve');
    expect(payload).toMatchObject({
      iss: issuer,
      aud: INVOICES_API,
      sub: userId,
      tenant_id: tenantA,
      roles: ['accountant', 'viewer'],
      // The resource's permissions only, in its order: reports:read is another API's.
      permissions: ['invoices:read', 'invoices:approve'],
      scope: 'invoices:read invoices:approve',
    });
    expect(tokens.scope).toBe('invoices:read invoices:approve');
  });

  it('in another tenant the token carries what the user holds there, and the README check refuses what they lack', async () => {
    const tokens = await tokensFor(tenantB, INVOICES_API);
    await expect(authorizeRequest(tokens.access_token, 'invoices:approve')).rejects.toThrow('forbidden');
    expect(await authorizeRequest(tokens.access_token, 'invoices:read')).toMatchObject({ tenant_id: tenantB, roles: ['viewer'], permissions: ['invoices:read'] });
  });

  it('a user holding none of its permissions gets a token with none, and a scope of none: not the `openid email` asked', async () => {
    expect((await app.http.post('/users', { email: 'bea@example.com', password: PASSWORD, tenantId: tenantB })).status).toBe(201);
    const tokens = await tokensFor(tenantB, INVOICES_API, {}, 'bea@example.com');
    expect(decodeJwt(tokens.access_token).payload).toMatchObject({ permissions: [], roles: [] });
    expect(tokens.scope).toBe('');
  });

  it('the verification refuses a token of another audience (the management API’s)', async () => {
    const tokens = await tokensFor(tenantA, `${issuer}/api/v1`);
    await expect(authorizeRequest(tokens.access_token, 'invoices:read')).rejects.toThrow();
    expect(decodeJwt(tokens.access_token).payload).not.toHaveProperty('roles');
  });

  it('a refresh gets a token with what the user holds now', async () => {
    const tokens = await tokensFor(tenantA, INVOICES_API, { scope: 'openid offline_access', prompt: 'consent' });
    expect(tokens.refresh_token).toBeDefined();
    await app.gatehouse.services.orm.em.getConnection().execute('delete from role_assignment where role_id = ? and subject_id = ?', [accountant, userId]);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: INVOICES_API });
    expect(await authorizeRequest(refreshed.access_token, 'invoices:read')).toMatchObject({ roles: ['viewer'], permissions: ['invoices:read'] });
    await authorizationData(app).assign({ type: 'user', id: userId }, accountant, tenantA);
  });

  it('an unknown resource, or another application’s, is invalid_target, and the code still works for a served one', async () => {
    const other = await app.bootstrapAnother();
    const otherResource = 'https://other.example.com/api';
    expect((await app.as({ apiKey: other.apiKey }).post('/api-resources', { identifier: otherResource, name: 'Theirs' })).status).toBe(201);
    for (const resource of ['https://unknown.example.com', otherResource]) {
      // Refused by the authorization endpoint at once, at the client's redirect URI.
      const refused = await startAuthorization(config, { redirectUri: REDIRECT_URI, resource }, { tenant: tenantA });
      expect(new URL(refused.page.location!).searchParams.get('error')).toBe('invalid_target');
    }
    const { flow, callback } = await signIn(tenantA, INVOICES_API);
    const code = callback.searchParams.get('code')!;
    const token = (resource: string) =>
      postForm(`${issuer}/oauth2/token`, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: flow.verifier, resource, client_id: web.clientId, client_secret: web.clientSecret });
    expect((await token(otherResource)).body.error).toBe('invalid_target');
    const redeemed = await token(INVOICES_API);
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);
  });

  it('a request whose only scope is a permission of the resource it names is served, at the authorization and device endpoints', async () => {
    const tokens = await tokensFor(tenantA, INVOICES_API, { scope: 'invoices:read' });
    // All Ann holds of the API: the request's scope does not narrow the permissions.
    expect(tokens.scope).toBe('invoices:read invoices:approve');
    expect(tokens.id_token).toBeUndefined();
    expect(decodeJwt(tokens.access_token).payload).toMatchObject({ aud: INVOICES_API, sub: userId, scope: 'invoices:read invoices:approve' });
    const device = await createTestClient(app, { type: 'device', authMethod: 'none' });
    const started = await postForm(`${issuer}/oauth2/device_authorization`, { client_id: device.clientId, scope: 'invoices:read', resource: INVOICES_API, tenant: tenantA });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.device_code).toEqual(expect.any(String));
  });

  it('a scope no OIDC scope nor the named resource knows is still invalid_scope: another resource’s permission, or none named', async () => {
    const device = await createTestClient(app, { type: 'device', authMethod: 'none' });
    const codesBefore = await app.sql(`select count(*)::int as n from oidc_model where model = 'DeviceCode'`);
    const refusals: [string, string][] = [
      ['invoices:write', INVOICES_API],
      ['reports:read', INVOICES_API],
      ['invoices:read', `${issuer}/api/v1`],
      ['invoices:read', ''],
    ];
    for (const [scope, resource] of refusals) {
      const refused = await startAuthorization(config, { redirectUri: REDIRECT_URI, resource }, { tenant: tenantA, scope });
      expect(new URL(refused.start.location!).searchParams.get('error'), `${scope} ${resource}`).toBe('invalid_scope');
      const fields = { client_id: device.clientId, scope, tenant: tenantA, ...(resource === '' ? {} : { resource }) };
      const deviceRefused = await postForm(`${issuer}/oauth2/device_authorization`, fields);
      expect(deviceRefused, `${scope} ${resource}`).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    }
    expect(await app.sql(`select count(*)::int as n from oidc_model where model = 'DeviceCode'`)).toEqual(codesBefore);
  });

  it('a resource holding a NUL character is invalid_target at the authorization, token and device endpoints, never a 500', async () => {
    const resource = 'https://invoices.example.com/\u0000';
    const refused = await startAuthorization(config, { redirectUri: REDIRECT_URI, resource }, { tenant: tenantA });
    expect(refused.start.status).toBe(303);
    expect(new URL(refused.start.location!).searchParams.get('error')).toBe('invalid_target');
    const { flow, callback } = await signIn(tenantA, INVOICES_API);
    const code = callback.searchParams.get('code')!;
    const token = (named: string) =>
      postForm(`${issuer}/oauth2/token`, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: flow.verifier, resource: named, client_id: web.clientId, client_secret: web.clientSecret });
    expect(await token(resource)).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
    // Refused before the code was spent.
    expect((await token(INVOICES_API)).status).toBe(200);
    const credential = await createTestClient(app, { permissions: ['users:read'] });
    const m2m = await postForm(`${issuer}/oauth2/token`, { grant_type: 'client_credentials', resource, client_id: credential.clientId, client_secret: credential.clientSecret! });
    expect(m2m).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
    const device = await createTestClient(app, { type: 'device', authMethod: 'none' });
    const authorization = await postForm(`${issuer}/oauth2/device_authorization`, { client_id: device.clientId, scope: 'openid', resource, tenant: tenantA });
    expect(authorization).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
  });

  it('prompt=none gets the resource’s permission scopes the pages grant without asking, first time or again', async () => {
    const { flow } = await signIn(tenantA, INVOICES_API);
    const silent = async (scope: string) => {
      const again = await startAuthorization(config, { redirectUri: REDIRECT_URI, resource: INVOICES_API }, { tenant: tenantA, prompt: 'none', scope }, flow.jar);
      const callback = new URL(again.start.location!);
      expect(callback.searchParams.get('error'), callback.searchParams.get('error_description') ?? '').toBeNull();
      return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: again.verifier, expectedState: again.state }, { resource: INVOICES_API });
    };
    for (const scope of ['openid invoices:read', 'openid invoices:read invoices:approve', 'openid invoices:read']) {
      const tokens = await silent(scope);
      expect(await authorizeRequest(tokens.access_token, 'invoices:approve')).toMatchObject({ tenant_id: tenantA, permissions: ['invoices:read', 'invoices:approve'] });
    }
  });

  it('an API resource’s token is no Bearer of the management API', async () => {
    const tokens = await tokensFor(tenantA, INVOICES_API);
    expect((await app.as({ bearer: tokens.access_token }).get('/users')).status).toBe(401);
  });
});

describe('client credentials naming an API resource', () => {
  it('an M2M credential gets its own grants ∪ its roles’ of the resource’s permissions, in its tenant', async () => {
    const credential = await createTestClient(app, { tenantId: tenantA, permissions: ['users:read'] });
    await authorizationData(app).assign({ type: 'm2m_credential', id: credential.clientId }, accountant, tenantA);
    const m2m = await discover(app, credential.clientId, oidc.ClientSecretBasic(credential.clientSecret));
    const tokens = await oidc.clientCredentialsGrant(m2m, { resource: INVOICES_API });
    expect(tokens.scope).toBe('invoices:read invoices:approve');
    expect(await authorizeRequest(tokens.access_token, 'invoices:approve')).toMatchObject({
      sub: credential.clientId,
      tenant_id: tenantA,
      roles: ['accountant'],
      permissions: ['invoices:read', 'invoices:approve'],
    });
    // Without `resource` it is the management API's token, as before: its own list.
    const management = decodeJwt((await oidc.clientCredentialsGrant(m2m)).access_token).payload;
    expect(management).toMatchObject({ aud: `${issuer}/api/v1`, permissions: ['users:read'] });
    expect(management).not.toHaveProperty('roles');
  });

  it('a credential holding none of them gets a token with none (and no scope); `*` holds them all', async () => {
    const plain = await createTestClient(app, { permissions: ['users:read'] });
    const none = await oidc.clientCredentialsGrant(await discover(app, plain.clientId, oidc.ClientSecretBasic(plain.clientSecret)), { resource: INVOICES_API });
    expect(decodeJwt(none.access_token).payload).toMatchObject({ permissions: [], roles: [] });
    expect(decodeJwt(none.access_token).payload).not.toHaveProperty('scope');
    const admin = await createTestClient(app, { permissions: ['*'] });
    const all = await oidc.clientCredentialsGrant(await discover(app, admin.clientId, oidc.ClientSecretBasic(admin.clientSecret)), { resource: INVOICES_API });
    expect(decodeJwt(all.access_token).payload).toMatchObject({ permissions: ['invoices:read', 'invoices:approve'] });
  });

  it('an unknown or foreign resource is invalid_target; a scope the resource does not define is invalid_scope', async () => {
    const credential = await createTestClient(app, { permissions: ['users:read'] });
    const auth = { authorization: `Basic ${Buffer.from(`${credential.clientId}:${credential.clientSecret}`).toString('base64')}` };
    const unknown = await postForm(`${issuer}/oauth2/token`, { grant_type: 'client_credentials', resource: 'https://unknown.example.com' }, auth);
    expect(unknown.body.error).toBe('invalid_target');
    const scoped = await postForm(`${issuer}/oauth2/token`, { grant_type: 'client_credentials', resource: INVOICES_API, scope: 'reports:read' }, auth);
    expect(scoped.body.error).toBe('invalid_scope');
    const named = await postForm(`${issuer}/oauth2/token`, { grant_type: 'client_credentials', resource: INVOICES_API, scope: 'invoices:read' }, auth);
    expect(named.status).toBe(200);
  });
});

describe('an identifier two applications registered before identifiers were unique', () => {
  const SHARED_API = 'https://shared.example.com/api';

  it('serves its first registrant only, until the later one saves it again once it is free', async () => {
    const first = await app.bootstrapAnother();
    const theirs = app.as({ apiKey: first.apiKey });
    const original = (await theirs.post('/api-resources', { identifier: SHARED_API, name: 'Theirs' })).body.id as string;
    // As a deployment from before the rule left it: the same identifier registered later in this application.
    const late = (await app.http.post('/api-resources', { identifier: 'https://placeholder.example.com', name: 'Ours', permissions: ['invoices:read'] })).body.id as string;
    await app.sql('update api_resource set identifier = ? where application_id = ? and id = ?', [SHARED_API, app.root.applicationId, late]);
    const { Migration0060ApiResourceIdentifiersHeldElsewhere } = await import('../../src/db/migrations/0060-api-resource-identifiers-held-elsewhere.ts');
    const orm = app.gatehouse.services.orm;
    const migration = new Migration0060ApiResourceIdentifiersHeldElsewhere(orm.em.getDriver(), orm.config);
    migration.up();
    const statements = migration.getQueries().filter((query) => typeof query === 'string');
    expect(statements).toHaveLength(1);
    for (const statement of statements) await app.sql(statement, []);

    const ours = await createTestClient(app, { permissions: ['*'] });
    const grant = (credential: { clientId: string; clientSecret?: string }) =>
      postForm(`${issuer}/oauth2/token`, { grant_type: 'client_credentials', resource: SHARED_API }, {
        authorization: `Basic ${Buffer.from(`${credential.clientId}:${credential.clientSecret}`).toString('base64')}`,
      });
    expect((await grant(ours)).body.error).toBe('invalid_target');
    const theirCredential = (await theirs.post('/m2m-credentials', { name: 'Theirs', permissions: ['users:read'] })).body;
    const served = await grant({ clientId: theirCredential.id, clientSecret: theirCredential.clientSecret });
    expect(served.status, JSON.stringify(served.body)).toBe(200);
    expect(decodeJwt(served.body.access_token).payload['aud']).toBe(SHARED_API);

    expect((await app.http.get(`/api-resources/${late}`)).body).toMatchObject({ identifier: SHARED_API, identifierHeldElsewhere: true });
    expect((await theirs.get(`/api-resources/${original}`)).body).toMatchObject({ identifierHeldElsewhere: false });
    // Saving it again while the first registrant holds it is refused; other changes keep it held elsewhere.
    expect((await app.http.patch(`/api-resources/${late}`, { identifier: SHARED_API })).body).toMatchObject({ code: 'already_exists', field: 'identifier' });
    expect((await app.http.patch(`/api-resources/${late}`, { name: 'Renamed' })).body).toMatchObject({ name: 'Renamed', identifierHeldElsewhere: true });
    expect((await grant(ours)).body.error).toBe('invalid_target');

    expect((await theirs.delete(`/api-resources/${original}`)).status).toBe(204);
    expect((await app.http.patch(`/api-resources/${late}`, { identifier: SHARED_API })).body).toMatchObject({ identifierHeldElsewhere: false });
    const now = await grant(ours);
    expect(now.status, JSON.stringify(now.body)).toBe(200);
    expect(decodeJwt(now.body.access_token).payload).toMatchObject({ aud: SHARED_API, permissions: ['invoices:read'] });
  });
});
