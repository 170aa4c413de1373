import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { HttpClient } from '../support/http.ts';
import { basicAuth, liveUserClaims, postForm } from '../support/oauth.ts';
import { TestRoles } from '../support/roles.ts';
import { secondInstance, settled, TWO_INSTANCES } from '../support/second-instance.ts';
import { createUserThrough } from '../support/users.ts';

/**
 * A Bearer token authenticates only while the credential behind it is live (src/auth/bearer-subject.ts): an M2M
 * credential not revoked, a user active and still in the token's tenant, their application still there. The answer
 * is remembered a minute here, so every refusal below after a first success can only come from an invalidation.
 */
const CACHE_MS = 60_000;
let app: TestApp;
let appId: string;
let appPath: string;

beforeAll(async () => {
  app = await startTestApp({ apiKeyCacheMs: CACHE_MS });
  appId = app.root.applicationId;
  appPath = `/applications/${appId}`;
});
afterAll(async () => app?.close());

/** An M2M credential made through the API, and a client-credentials token from the OP's token endpoint. */
async function m2mToken(admin: HttpClient, body: Record<string, unknown> = {}): Promise<{ credentialId: string; token: string }> {
  const created = await admin.post('/m2m-credentials', { name: 'm', permissions: ['*'], ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const granted = await postForm(`${app.baseUrl}/oauth2/token`, { grant_type: 'client_credentials' }, {
    authorization: basicAuth(created.body.clientId, created.body.clientSecret),
  });
  expect(granted.status, JSON.stringify(granted.body)).toBe(200);
  return { credentialId: created.body.id, token: granted.body.access_token };
}

/** A user's token as the OP issues it after a sign-in (for the tenant, when given). */
async function userToken(sub: string, tenantId?: string): Promise<string> {
  // The user reads users through an application-wide role, given once.
  if (!readers.has(sub)) {
    readers.add(sub);
    const roles = new TestRoles(app);
    await roles.assign({ type: 'user', id: sub }, (readerRole ??= await roles.create('reader', ['users:read'])));
  }
  return app.mintAccessToken({ sub, app_id: appId, ...(tenantId === undefined ? {} : { tenant_id: tenantId }) });
}
const readers = new Set<string>();
let readerRole: string | undefined;

const USERS_QUERY = '{ users { data { id } } }';

/** Works on REST and GraphQL alike (and so has been remembered by the cache). */
async function expectAccepted(client: HttpClient): Promise<void> {
  expect((await client.get('/users')).status).toBe(200);
  const gql = await client.graphql(USERS_QUERY);
  expect(gql.status, JSON.stringify(gql.body)).toBe(200);
  expect(gql.body.errors).toBeUndefined();
}

/** 401 `unauthenticated` on REST and GraphQL alike. */
async function expectUnauthenticated(client: HttpClient): Promise<void> {
  const rest = await client.get('/users');
  expect(rest.status).toBe(401);
  expect(rest.body).toEqual({ code: 'unauthenticated', message: expect.any(String) });
  const gql = await client.graphql(USERS_QUERY);
  expect(gql.status).toBe(401);
  expect(gql.body.errors?.[0]?.extensions['code']).toBe('unauthenticated');
}

describe('M2M credentials', () => {
  it('a live credential’s token works', async () => {
    const { token } = await m2mToken(app.http);
    await expectAccepted(app.as({ bearer: token }));
  });

  it('a revoked credential’s token is 401 at once, and mints no API key', async () => {
    const { credentialId, token } = await m2mToken(app.http);
    const bearer = app.as({ bearer: token });
    await expectAccepted(bearer);
    expect((await app.http.delete(`/m2m-credentials/${credentialId}`)).status).toBe(204);
    await expectUnauthenticated(bearer);
    const minted = await bearer.post('/api-keys', { name: 'persist', permissions: ['*'] });
    expect(minted.status).toBe(401);
    expect(minted.body.code).toBe('unauthenticated');
    const keys = await app.http.get('/api-keys?pageSize=100');
    expect(keys.body.data.map((key: { name: string }) => key.name)).not.toContain('persist');
  });

  it('a tenant-scoped credential’s token is 401 once its tenant is deleted', async () => {
    const tenantId = await app.createTenant('Short-lived');
    const { token } = await m2mToken(app.http, { tenantId });
    const bearer = app.as({ bearer: token });
    await expectAccepted(bearer);
    expect((await app.http.delete(`${appPath}/tenants/${tenantId}`)).status).toBe(204);
    await expectUnauthenticated(bearer);
  });

  it('an application-wide credential’s token of a tenant’s surface is 401 once that tenant is deleted; its other tokens work', async () => {
    const tenantId = await app.createTenant('Surface of a moment');
    // A tenant's path is a surface of an isolated application only (a shared one has one surface).
    const isolation = (authIsolation: string) => app.http.patch(appPath, { tenancyConfig: { authIsolation } });
    expect((await isolation('isolated')).status).toBe(200);
    const created = await app.http.post('/m2m-credentials', { name: 'application-wide', permissions: ['*'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const auth = { authorization: basicAuth(created.body.clientId, created.body.clientSecret) };
    const tokenAt = async (surface: string) => {
      const granted = await postForm(`${app.baseUrl}${surface}/oauth2/token`, { grant_type: 'client_credentials' }, auth);
      expect(granted.status, JSON.stringify(granted.body)).toBe(200);
      return app.as({ bearer: granted.body.access_token as string });
    };
    const ofTenant = await tokenAt(`/t/${tenantId}`);
    const applicationWide = await tokenAt('');
    await expectAccepted(ofTenant);
    expect((await app.http.delete(`${appPath}/tenants/${tenantId}`)).status).toBe(204);
    await expectUnauthenticated(ofTenant);
    await expectAccepted(applicationWide);
    expect((await isolation('shared')).status).toBe(200);
  });

  it('an application-wide credential’s token naming a tenant is 401 once that tenant is deleted, whatever its issuer', async () => {
    const tenantId = await app.createTenant('Named by a token');
    const created = await app.http.post('/m2m-credentials', { name: 'application-wide', permissions: ['*'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { clientId } = created.body as { clientId: string };
    const claims = { app_id: appId, tenant_id: tenantId, client_id: clientId, permissions: ['*'] };
    const client = app.as({ bearer: await app.gatehouse.services.signingKeys.signAccessToken(clientId, claims) });
    await expectAccepted(client);
    expect((await app.http.delete(`${appPath}/tenants/${tenantId}`)).status).toBe(204);
    await expectUnauthenticated(client);
  });

  it('a deleted application’s tokens are 401, not empty lists or 500s', async () => {
    const other = await app.bootstrapAnother();
    const owner = app.as({ apiKey: other.apiKey });
    const { token } = await m2mToken(owner);
    const bearer = app.as({ bearer: token });
    await expectAccepted(bearer);
    expect((await owner.delete(`/applications/${other.applicationId}`)).status).toBe(204);
    await expectUnauthenticated(bearer);
    for (const response of [await bearer.post('/users', { email: 'ghost@example.com' }), await bearer.post('/api-keys', { name: 'ghost', permissions: ['*'] })]) {
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('unauthenticated');
    }
  });
});

describe('users', () => {
  it('an active user’s token works; a token of a user who never existed is 401', async () => {
    await expectAccepted(app.as({ bearer: await userToken(await createUserThrough(app.http, { email: 'live@example.com' })) }));
    await expectUnauthenticated(app.as({ bearer: await userToken('0190a5f0-0000-7000-8000-000000000000') }));
  });

  it('a suspended or locked user’s token is 401 until the user is active again', async () => {
    const userId = await createUserThrough(app.http, { email: 'suspended@example.com' });
    const bearer = app.as({ bearer: await userToken(userId) });
    await expectAccepted(bearer);
    // No route changes a user's status yet (schema/users.graphql names the states): SQL does, then the invalidation
    // every change to a user publishes.
    const setStatus = async (status: string) => {
      await app.sql('update app_user set status = ? where id = ?', [status, userId]);
      await app.gatehouse.services.invalidations.publish({ kind: 'user', id: userId });
    };
    await setStatus('suspended');
    await expectUnauthenticated(bearer);
    await setStatus('locked');
    await expectUnauthenticated(bearer);
    await setStatus('active');
    await expectAccepted(bearer);
  });

  it('a token is 401 from the end of its grant, though the grant was live when its answer was remembered', async () => {
    const userId = await createUserThrough(app.http, { email: 'grant-ends@example.com' });
    await userToken(userId);
    const claims = await liveUserClaims(app, userId, { app_id: appId });
    // A grant ends by its expiry, which no change announces: an access token may outlive it (refreshed near its end).
    const ends = new Date(Date.now() + 1500);
    await app.sql('update oidc_model set expires_at = ? where id = ?', [ends, claims.grant_id]);
    const bearer = app.as({ bearer: await app.gatehouse.services.signingKeys.signAccessToken(userId, claims) });
    await expectAccepted(bearer);
    await new Promise((resolve) => setTimeout(resolve, ends.getTime() - Date.now() + 50));
    await expectUnauthenticated(bearer);
  });

  it('a deleted user’s token is 401 at once', async () => {
    const userId = await createUserThrough(app.http, { email: 'deleted@example.com' });
    const bearer = app.as({ bearer: await userToken(userId) });
    await expectAccepted(bearer);
    expect((await app.http.delete(`/users/${userId}`)).status).toBe(204);
    await expectUnauthenticated(bearer);
  });

  it('a user removed from a tenant loses that tenant’s tokens at once, and keeps the others', async () => {
    const [tenantA, tenantB] = [await app.createTenant('Member A'), await app.createTenant('Member B')];
    const userId = await createUserThrough(app.http, { email: 'member@example.com', tenantId: tenantA });
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    const [inA, inB, appWide] = [
      app.as({ bearer: await userToken(userId, tenantA) }),
      app.as({ bearer: await userToken(userId, tenantB) }),
      app.as({ bearer: await userToken(userId) }),
    ];
    for (const bearer of [inA, inB, appWide]) await expectAccepted(bearer);
    // A token for a tenant the user never belonged to is refused from the start.
    await expectUnauthenticated(app.as({ bearer: await userToken(userId, await app.createTenant('Never a member')) }));

    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [tenantB] })).status).toBe(200);
    await expectUnauthenticated(inA);
    await expectAccepted(inB);

    expect((await app.http.delete(`${appPath}/tenants/${tenantB}/users/${userId}`)).status).toBe(204);
    await expectUnauthenticated(inB);
    await expectAccepted(appWide);
  });
});

describe('API key and Bearer together', () => {
  it('the Bearer beside a key must be live too: a revoked credential’s token is 401, the key alone still works', async () => {
    const created = await app.http.post('/api-keys', { name: 'beside a token', permissions: ['*'] });
    expect(created.status).toBe(201);
    const { credentialId, token } = await m2mToken(app.http);
    const both = app.as({ apiKey: created.body.secret, bearer: token });
    await expectAccepted(both);
    expect((await app.http.delete(`/m2m-credentials/${credentialId}`)).status).toBe(204);
    await expectUnauthenticated(both);
    expect((await both.post('/api-keys', { name: 'persist beside', permissions: ['*'] })).status).toBe(401);
    await expectAccepted(app.as({ apiKey: created.body.secret }));
  });

  it('a deleted user’s token beside a key is 401', async () => {
    const created = await app.http.post('/api-keys', { name: 'beside a user', permissions: ['*'] });
    const userId = await createUserThrough(app.http, { email: 'beside@example.com' });
    const both = app.as({ apiKey: created.body.secret, bearer: await userToken(userId) });
    await expectAccepted(both);
    expect((await app.http.delete(`/users/${userId}`)).status).toBe(204);
    await expectUnauthenticated(both);
  });
});

describe('the cost on the hot path', () => {
  const livenessReads = () => app.queries.filter((query) => /^select (1|g\.expires_at) from (oauth_client|app_user) as \w+ /.test(query)).length;

  it('one statement when the answer is not remembered, none while it is', async () => {
    const { token } = await m2mToken(app.http);
    const bearer = app.as({ bearer: token });
    const before = livenessReads();
    expect((await bearer.get('/users')).status).toBe(200);
    expect(livenessReads()).toBe(before + 1);
    expect((await bearer.get('/users')).status).toBe(200);
    expect(livenessReads()).toBe(before + 1);
  });
});

describe.runIf(TWO_INSTANCES)('across instances (Redis)', () => {
  const second = secondInstance(() => app);

  it('a credential revoked on one instance stops its tokens on the other, whose cache held it', async () => {
    const { credentialId, token } = await m2mToken(app.http);
    const onSecond = new HttpClient(second.url(), { bearer: token });
    expect((await onSecond.get('/users')).status).toBe(200);
    expect((await app.http.delete(`/m2m-credentials/${credentialId}`)).status).toBe(204);
    expect(await settled(async () => (await onSecond.get('/users')).status, (status) => status === 401)).toBe(401);
  });
});
