import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES } from '../../src/auth/permissions.ts';
import { expandRoutes } from '../../src/rest/routes.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { HttpClient } from '../support/http.ts';
import { issueTestKey } from '../support/keys.ts';
import { basicAuth, postForm, signInForManagement } from '../support/oauth.ts';
import { TestRoles } from '../support/roles.ts';
import { secondInstance, settled, TWO_INSTANCES } from '../support/second-instance.ts';

/**
 * The management API obeys roles (API.md, "Credentials and permissions"): a request acts with what its credentials hold
 * in the scope's tenant, an API key its own list and its roles, a Bearer token its user's or M2M credential's, both
 * headers the intersection; writing a tenant's overrides also takes tenant_overrides:write.
 */
let app: TestApp;
let roles: TestRoles;
let appPath: string;
let tenantT: string;
let tenantU: string;
/** A member of T holding tenant_admin there, signed in to T through the hosted pages. */
let tenantAdmin: HttpClient;
/** A member of T holding only `member`, signed in to T. */
let member: HttpClient;
let tenantAdminAssignment: string;

const inTenant = (tenantId: string) => `${appPath}/tenants/${tenantId}`;
const SAMPLE_ID = '01890a5d-ac96-774b-bcce-b302099a8057';

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  roles = new TestRoles(app);
  appPath = `/applications/${app.root.applicationId}`;
  tenantT = await app.createTenant('Tenant T');
  tenantU = await app.createTenant('Tenant U');
  expect((await app.http.patch(appPath, { tenancyConfig: { brandingScope: 'tenant' } })).status).toBe(200);
  const admin = await app.createUser('tenant-admin@example.com', tenantT);
  tenantAdminAssignment = await roles.assign({ type: 'user', id: admin }, 'tenant_admin', tenantT);
  tenantAdmin = app.as({ bearer: await signInForManagement(app, admin, tenantT) });
  const plain = await app.createUser('member@example.com', tenantT);
  await roles.assign({ type: 'user', id: plain }, 'member', tenantT);
  member = app.as({ bearer: await signInForManagement(app, plain, tenantT) });
});
afterAll(async () => app?.close());

describe('a user signed in through the hosted pages', () => {
  it('holding tenant_admin in T manages T, over REST and GraphQL', async () => {
    const created = await tenantAdmin.post(`${inTenant(tenantT)}/users`, { email: 'made-by-admin@example.com' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.tenantIds).toEqual([tenantT]);
    // The credentials form: the token's tenant.
    const list = await tenantAdmin.get('/users?pageSize=100');
    expect(list.status).toBe(200);
    expect(list.body.data.map((user: { id: string }) => user.id)).toContain(created.body.id);
    const gql = await tenantAdmin.graphql('mutation ($input: CreateUserInput!) { createUser(input: $input) { tenantIds } }', {
      input: { email: 'made-over-graphql@example.com' },
    });
    expect(gql.body).toEqual({ data: { createUser: { tenantIds: [tenantT] } } });
    expect((await tenantAdmin.put(`${inTenant(tenantT)}/branding`, { colors: { primary: '#112233' } })).status).toBe(200);
  });

  it('holding tenant_admin in T gets 403 on another tenant and on application settings', async () => {
    for (const response of [
      await tenantAdmin.get(`${inTenant(tenantU)}/users`),
      await tenantAdmin.post(`${inTenant(tenantU)}/users`, { email: 'elsewhere@example.com' }),
      await tenantAdmin.patch(appPath, { name: 'Taken over' }),
      await tenantAdmin.delete(appPath),
    ]) {
      expect(response.status, JSON.stringify(response.body)).toBe(403);
      expect(response.body.code).toBe('forbidden');
    }
  });

  it('holding only member gets 403 on every management write (every route of the table that is not a GET)', async () => {
    const writes = expandRoutes().filter((route) => route.method !== 'GET' && (route.form === 'tenant' || route.form === 'fixed'));
    expect(writes.length).toBeGreaterThan(40);
    for (const route of writes) {
      const path = route.url.replace(/:(\w+)/g, (_, name: string) =>
        name === 'appId' ? app.root.applicationId : name === 'tenantId' ? tenantT : name === 'kind' ? 'password' : name === 'templateKey' ? 'welcome' : SAMPLE_ID,
      );
      const refused = await member.request(route.method, `/api/v1${path}`, { body: {} });
      expect(refused.status, `${route.method} ${route.url}: ${JSON.stringify(refused.body)}`).toBe(403);
    }
    expect((await member.get(`${inTenant(tenantT)}/users`)).status).toBe(403);
  });
});

describe('an API key', () => {
  it('acts with its own list and its roles’ permissions; both headers, with what both hold', async () => {
    const keyId = (await app.http.post('/api-keys', { name: 'reader', permissions: ['users:read'] })).body;
    const client = app.as({ apiKey: keyId.secret });
    expect((await client.get('/users')).status).toBe(200);
    expect((await client.post('/users', { email: 'not-yet@example.com' })).status).toBe(403);
    const writer = await roles.create('user_writer', ['users:write']);
    const assignment = await roles.assign({ type: 'api_key', id: keyId.key.id }, writer);
    const created = await client.post('/users', { email: 'by-role@example.com' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // Beside the member's token: only what both hold (the member holds nothing).
    expect((await app.as({ apiKey: keyId.secret, bearer: member.credentials.bearer }).get('/users')).status).toBe(403);
    await roles.revoke(assignment);
    expect((await client.post('/users', { email: 'revoked@example.com' })).status).toBe(403);
  });

  it('may mint a key of what its roles grant, never a wider one', async () => {
    const minter = (await app.http.post('/api-keys', { name: 'minter', permissions: ['api_keys:write'] })).body;
    await roles.assign({ type: 'api_key', id: minter.key.id }, await roles.create('user_reader', ['users:read']));
    const client = app.as({ apiKey: minter.secret });
    expect((await client.post('/api-keys', { name: 'reader', permissions: ['users:read'] })).status).toBe(201);
    const denied = await client.post('/api-keys', { name: 'wider', permissions: ['users:write'] });
    expect(denied.body).toMatchObject({ code: 'forbidden', message: 'The credentials may not grant permissions they do not hold' });
  });
});

describe('an M2M credential’s token', () => {
  it('acts with its own list and its roles', async () => {
    const created = await app.http.post('/m2m-credentials', { name: 'worker', permissions: ['users:read'] });
    const granted = await postForm(`${app.baseUrl}/oauth2/token`, { grant_type: 'client_credentials' }, {
      authorization: basicAuth(created.body.clientId, created.body.clientSecret),
    });
    const client = app.as({ bearer: granted.body.access_token });
    expect((await client.get('/users')).status).toBe(200);
    expect((await client.post('/users', { email: 'by-m2m@example.com' })).status).toBe(403);
    await roles.assign({ type: 'm2m_credential', id: created.body.id }, await roles.create('m2m_writer', ['users:write']));
    expect((await client.post('/users', { email: 'by-m2m@example.com' })).status).toBe(201);
  });
});

describe('tenant overrides are a policy of the role system', () => {
  it('without tenant_overrides:write in tenant_admin, tenant admins’ override writes are 403; an app admin still writes them', async () => {
    const tenantAdminRole = await roles.id('tenant_admin');
    const without = BUILT_IN_ROLES.tenant_admin.permissions.filter((permission) => permission !== 'tenant_overrides:write');
    await roles.setPermissions(tenantAdminRole, without);
    try {
      const branding = `${inTenant(tenantT)}/branding`;
      for (const refused of [await tenantAdmin.put(branding, { colors: { primary: '#445566' } }), await tenantAdmin.delete(branding)]) {
        expect(refused.body).toMatchObject({ code: 'forbidden', message: 'Missing permission tenant_overrides:write' });
      }
      // Still a tenant admin otherwise.
      expect((await tenantAdmin.get(branding)).status).toBe(200);
      expect((await app.http.put(branding, { colors: { primary: '#778899' } })).status).toBe(200);
      expect((await app.http.delete(branding)).status).toBe(204);
      // An application-wide write is no override: the root key writes it, a key holding branding:write only also does.
      const brandingWriter = await issueTestKey(app, { permissions: ['branding:write'] });
      expect((await brandingWriter.put(`${appPath}/branding`, { colors: { primary: '#000000' } })).status).toBe(200);
      expect((await brandingWriter.put(branding, { colors: { primary: '#000000' } })).body.message).toBe('Missing permission tenant_overrides:write');
    } finally {
      await roles.setPermissions(tenantAdminRole, [...BUILT_IN_ROLES.tenant_admin.permissions]);
    }
    expect((await tenantAdmin.put(`${inTenant(tenantT)}/branding`, { colors: { primary: '#445566' } })).status).toBe(200);
  });
});

describe('a revoked assignment', () => {
  it('is obeyed by the next request', async () => {
    const user = await app.createUser('revoked-admin@example.com', tenantT);
    const assignment = await roles.assign({ type: 'user', id: user }, 'tenant_admin', tenantT);
    const client = app.as({ bearer: await signInForManagement(app, user, tenantT) });
    expect((await client.get('/users')).status).toBe(200);
    await roles.revoke(assignment);
    expect((await client.get('/users')).status).toBe(403);
  });
});

describe.runIf(TWO_INSTANCES)('across instances (Redis)', () => {
  const second = secondInstance(() => app);

  it('a revoked assignment is obeyed by another instance whose cache held the grant', async () => {
    const onSecond = new HttpClient(second.url(), { bearer: tenantAdmin.credentials.bearer });
    expect((await onSecond.get('/users')).status).toBe(200);
    await roles.revoke(tenantAdminAssignment);
    expect(await settled(async () => (await onSecond.get('/users')).status, (status) => status === 403)).toBe(403);
  });
});
