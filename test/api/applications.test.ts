import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

describe('applications', () => {
  it('lists the bootstrapped application to its key, in the list envelope', async () => {
    const response = await app.http.get('/applications');
    expect(response.status).toBe(200);
    expect(response.body.next).toBeNull();
    expect(response.body.data).toEqual([
      expect.objectContaining({
        id: app.root.applicationId,
        organizationId: app.root.organizationId,
        multiTenant: true,
        tenancyConfig: { brandingScope: 'application', emailTemplatesScope: 'application', emailProviderScope: 'application', authIsolation: 'shared' },
      }),
    ]);
  });

  it('refuses missing and unknown keys with 401 in the error body', async () => {
    const missing = await app.as({}).get('/applications');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ code: 'unauthenticated', message: expect.any(String) });
    const wrong = await app.as({ apiKey: 'ghk_not-a-key' }).get('/applications');
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('unauthenticated');
  });

  it('a new multi-tenant application starts application-wide and shared; switches sent at creation set only themselves, over REST and GraphQL', async () => {
    const defaults = { brandingScope: 'application', emailTemplatesScope: 'application', emailProviderScope: 'application', authIsolation: 'shared' };
    const plain = await app.http.post('/applications', { name: 'Defaults', multiTenant: true });
    expect(plain.status).toBe(201);
    expect(plain.body.tenancyConfig).toEqual(defaults);
    const partial = await app.http.post('/applications', { name: 'Partly set', multiTenant: true, tenancyConfig: { emailProviderScope: 'tenant' } });
    expect(partial.body.tenancyConfig).toEqual({ ...defaults, emailProviderScope: 'tenant' });
    const graphql = await app.http.graphql<{ createApplication: { tenancyConfig: Record<string, string> } }>(
      'mutation { createApplication(input: { name: "Defaults by GraphQL", multiTenant: true }) { tenancyConfig { brandingScope emailTemplatesScope emailProviderScope authIsolation } } }',
    );
    expect(graphql.body.data?.createApplication.tenancyConfig).toEqual(defaults);
    const single = await app.http.post('/applications', { name: 'Single with switches', tenancyConfig: { brandingScope: 'tenant' } });
    expect(single.status).toBe(422);
    expect(single.body).toMatchObject({ code: 'validation_error', field: 'tenancyConfig' });
  });

  it('PATCH merges tenancyConfig and returns the whole application', async () => {
    const path = `/applications/${app.root.applicationId}`;
    const first = await app.http.patch(path, { tenancyConfig: { brandingScope: 'tenant' } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: app.root.applicationId, name: 'My application' });
    expect(first.body.tenancyConfig).toEqual({ brandingScope: 'tenant', emailTemplatesScope: 'application', emailProviderScope: 'application', authIsolation: 'shared' });
    const second = await app.http.patch(path, { name: 'Renamed', tenancyConfig: { emailProviderScope: 'tenant' } });
    expect(second.body.tenancyConfig).toMatchObject({ brandingScope: 'tenant', emailProviderScope: 'tenant' });
    expect(second.body.name).toBe('Renamed');
    const read = await app.http.get(path);
    expect(read.body).toEqual(second.body);
  });

  it('refuses an unknown scope value with 422 naming the field, and changes nothing', async () => {
    const path = `/applications/${app.root.applicationId}`;
    const before = (await app.http.get(path)).body;
    const response = await app.http.patch(path, { tenancyConfig: { brandingScope: 'everyone' } });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'validation_error', field: 'tenancyConfig.brandingScope' });
    const isolation = await app.http.patch(path, { tenancyConfig: { authIsolation: 'application' } });
    expect(isolation.body.field).toBe('tenancyConfig.authIsolation');
    expect((await app.http.get(path)).body).toEqual(before);
  });

  it('refuses unknown fields, malformed ids, non-JSON and oversized bodies', async () => {
    const path = `/applications/${app.root.applicationId}`;
    const unknown = await app.http.patch(path, { colour: 'red' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ code: 'validation_error', field: 'colour' });
    const malformed = await app.http.get('/applications/not-a-uuid');
    expect(malformed.status).toBe(422);
    expect(malformed.body).toMatchObject({ code: 'validation_error', field: 'appId' });
    const text = await app.http.request('PATCH', `/api/v1${path}`, { raw: 'name=x', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.body.code).toBe('unsupported_media_type');
    const huge = await app.http.patch(path, { name: 'x'.repeat(1024 * 1024 + 10) });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('payload_too_large');
    const badJson = await app.http.request('PATCH', `/api/v1${path}`, { raw: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(badJson.status).toBe(422);
  });

  it('a single-tenant application has no tenancy configuration: PATCHing it is 422', async () => {
    const created = await app.http.post('/applications', { name: 'Single' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Single', multiTenant: false, tenancyConfig: null });
    expect(created.body.initialApiKey.secret).toMatch(/^ghk_/);
    const single = app.as({ apiKey: created.body.initialApiKey.secret });
    const refused = await single.patch(`/applications/${created.body.id}`, { tenancyConfig: { brandingScope: 'tenant' } });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'tenancyConfig' });
  });

  it('a single-tenant application has no tenants to customize: creating one is 422 on appId over REST and GraphQL, and nothing changes', async () => {
    const created = (await app.http.post('/applications', { name: 'Single, no tenants' })).body;
    const single = app.as({ apiKey: created.initialApiKey.secret });
    const rest = await single.post(`/applications/${created.id}/tenants`, { name: 'Acme' });
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual({ code: 'validation_error', message: expect.any(String), field: 'appId' });
    const graphql = await single.graphql('mutation($appId: UUID!) { createTenant(appId: $appId, input: { name: "Acme" }) { id } }', { appId: created.id });
    expect(graphql.status).toBe(422);
    expect(graphql.body.errors?.[0]?.extensions).toEqual({ code: 'validation_error', status: 422, field: 'appId' });
    const patched = await single.graphql('mutation($appId: UUID!) { updateApplication(appId: $appId, input: { tenancyConfig: { authIsolation: isolated } }) { id } }', {
      appId: created.id,
    });
    expect(patched.body.errors?.[0]?.extensions).toEqual({ code: 'validation_error', status: 422, field: 'tenancyConfig' });
    expect((await single.get(`/applications/${created.id}/tenants`)).body).toEqual({ data: [], next: null });
    expect((await single.get(`/applications/${created.id}`)).body).toMatchObject({ multiTenant: false, tenancyConfig: null });
  });

  it('another application is not found, over REST and GraphQL', async () => {
    const other = await app.bootstrapAnother();
    const rest = await app.http.get(`/applications/${other.applicationId}`);
    expect(rest.status).toBe(404);
    expect(rest.body.code).toBe('not_found');
    const gql = await app.http.graphql('query($id: UUID!) { application(appId: $id) { id name } }', { id: other.applicationId });
    expect(gql.body.data).toBeNull();
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'not_found', status: 404 });
    const patch = await app.http.patch(`/applications/${other.applicationId}`, { name: 'hijacked' });
    expect(patch.status).toBe(404);
    const untouched = await app.as({ apiKey: other.apiKey }).get(`/applications/${other.applicationId}`);
    expect(untouched.body.name).toBe('My application');
  });

  it('answers 405 for a method a path does not have, and 404 for unknown paths', async () => {
    const response = await app.http.request('PUT', `/api/v1/applications/${app.root.applicationId}`, { body: {} });
    expect(response.status).toBe(405);
    expect(response.body.code).toBe('method_not_allowed');
    expect(response.headers.get('allow')).toBe('GET, PATCH, DELETE, HEAD');
    // The service's own paths too, and OPTIONS (no CORS here): GraphQL answers in its own shape.
    for (const [method, path, allow] of [
      ['DELETE', '/healthz', 'GET, HEAD'],
      ['POST', '/readyz', 'GET, HEAD'],
      ['POST', '/metrics', 'GET, HEAD'],
      ['POST', '/api/v1/openapi.json', 'GET, HEAD'],
      ['OPTIONS', '/api/v1/users', 'GET, POST, HEAD'],
    ] as const) {
      const refused = await app.http.request(method, path);
      expect([refused.status, refused.headers.get('allow'), refused.body.code], `${method} ${path}`).toEqual([405, allow, 'method_not_allowed']);
    }
    const graphql = await app.http.request('PATCH', '/graphql', { body: {} });
    expect([graphql.status, graphql.headers.get('allow')]).toEqual([405, 'GET, POST, HEAD']);
    expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'method_not_allowed', status: 405 });
    const missing = await app.http.get('/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    expect(missing.headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  it('deletes an application it owns, with its data, and is then unauthenticated', async () => {
    const created = await app.http.post('/applications', { name: 'Doomed', multiTenant: true });
    const key = created.body.initialApiKey.secret as string;
    const doomed = app.as({ apiKey: key });
    expect((await doomed.post(`/applications/${created.body.id}/tenants`, { name: 'Acme' })).status).toBe(201);
    const deleted = await doomed.delete(`/applications/${created.body.id}`);
    expect(deleted.status).toBe(204);
    expect((await doomed.get('/applications')).status).toBe(401);
    expect((await app.http.get('/applications')).body.data.map((a: { id: string }) => a.id)).toEqual([app.root.applicationId]);
  });
});

describe('the initial key of a new application', () => {
  /** A key of the root application holding `permissions` (and expiring at `expiresAt`), as a client. */
  async function creator(permissions: string[], expiresAt?: string) {
    const created = await app.http.post('/api-keys', { name: `creator ${permissions.join(' ')}`, permissions, ...(expiresAt === undefined ? {} : { expiresAt }) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return app.as({ apiKey: created.body.secret });
  }

  it('a `*` creator gets an app_admin key, `*`, in the new application', async () => {
    const created = await app.http.post('/applications', { name: 'By an admin' });
    expect(created.status).toBe(201);
    expect(created.body.initialApiKey.key).toMatchObject({ name: 'Initial app_admin key', permissions: ['*'], expiresAt: null });
    const admin = app.as({ apiKey: created.body.initialApiKey.secret });
    expect((await admin.post('/api-keys', { name: 'wide', permissions: ['*'] })).status).toBe(201);
  });

  it('a narrower creator gets no more than it holds: applications:write alone yields applications:write alone', async () => {
    const narrow = await creator(['applications:write']);
    // It may not mint a `*` key in its own application…
    expect((await narrow.post('/api-keys', { name: 'wider', permissions: ['*'] })).status).toBe(403);
    // …nor get one by creating an application.
    const created = await narrow.post('/applications', { name: 'By a narrow key' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.initialApiKey.key).toMatchObject({ name: 'Initial key', permissions: ['applications:write'] });
    const initial = app.as({ apiKey: created.body.initialApiKey.secret });
    expect((await initial.post('/api-keys', { name: 'wider', permissions: ['*'] })).status).toBe(403);
    expect((await initial.get('/users')).status).toBe(403);
    expect((await initial.get(`/organizations/${app.root.organizationId}`)).status).toBe(403);
  });

  it('a creator’s wildcards are kept as the permissions they allow', async () => {
    const created = await (await creator(['applications:write', 'users:*'])).post('/applications', { name: 'By a user admin' });
    expect(created.status).toBe(201);
    expect([...created.body.initialApiKey.key.permissions].sort()).toEqual(['applications:write', 'users:delete', 'users:read', 'users:write']);
  });

  it('an expiring creator’s initial key expires with it', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const created = await (await creator(['*'], expiresAt)).post('/applications', { name: 'By an expiring key' });
    expect(created.status).toBe(201);
    expect(created.body.initialApiKey.key).toMatchObject({ permissions: ['*'], expiresAt });
  });
});
