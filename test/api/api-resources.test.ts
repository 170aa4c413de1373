import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removePermissionFromApiResources } from '../../src/domain/api-resources/api-resources.ts';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { authorizationData } from '../support/authorization.ts';
import { clientWithKey } from '../support/keys.ts';

let app: TestApp;
let appPath: string;
let tenantA: string;

const auditOf = (id: string) => app.sql<{ action: string; tenant_id: string | null; before: unknown; after: unknown }>('select action, tenant_id, before, after from audit_log where target_id = ? order by id', [id]);

let counter = 0;
const identifier = () => `https://api${++counter}.example.com/v1`;

async function createResource(body: Record<string, unknown>, path = '/api-resources') {
  const created = await app.http.post(path, body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

beforeAll(async () => {
  ({ app, appPath, tenants: [tenantA] } = await startTestAppWithTenants(['Tenant A']));
  const data = authorizationData(app);
  await data.permission('invoices:read');
  await data.permission('invoices:approve');
});
afterAll(async () => app?.close());

describe('API resources', () => {
  it('registers, reads, lists, changes and deletes a resource, each write audited', async () => {
    const uri = identifier();
    const created = await createResource({ identifier: uri, name: ' Invoices API ', permissions: ['invoices:read', 'invoices:approve', 'invoices:read'] });
    expect(created).toEqual({
      id: expect.any(String),
      applicationId: app.root.applicationId,
      identifier: uri,
      identifierHeldElsewhere: false,
      name: 'Invoices API',
      permissions: ['invoices:read', 'invoices:approve'],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await app.http.get(`${appPath}/api-resources/${created.id}`)).body).toEqual(created);
    const listed = await app.http.get('/api-resources?pageSize=100');
    expect(listed.body.data.map((r: { id: string }) => r.id)).toContain(created.id);

    const updated = await app.http.patch(`/api-resources/${created.id}`, { name: 'Billing', permissions: ['invoices:approve'] });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ identifier: uri, name: 'Billing', permissions: ['invoices:approve'] });

    const deleted = await app.http.delete(`/api-resources/${created.id}`);
    expect(deleted.status).toBe(204);
    expect((await app.http.get(`/api-resources/${created.id}`)).status).toBe(404);
    const audit = await auditOf(created.id);
    expect(audit.map((r) => r.action)).toEqual(['api_resource.created', 'api_resource.updated', 'api_resource.deleted']);
    expect(audit.every((r) => r.tenant_id === null)).toBe(true);
    expect(audit[1]).toMatchObject({ before: { name: 'Invoices API' }, after: { name: 'Billing', permissions: ['invoices:approve'] } });
  });

  it('works over GraphQL with the same rules', async () => {
    const created = await app.http.graphql('mutation($input: CreateApiResourceInput!) { createApiResource(input: $input) { id identifier permissions } }', {
      input: { identifier: identifier(), name: 'GQL API', permissions: ['invoices:read'] },
    });
    expect(created.body.errors).toBeUndefined();
    const refused = await app.http.graphql('mutation($input: CreateApiResourceInput!) { createApiResource(input: $input) { id } }', {
      input: { identifier: 'http://api.example.com', name: 'Plain' },
    });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'identifier', status: 422 });
  });

  it.each([
    ['http://api.example.com', 'http'],
    ['api.example.com', 'relative'],
    ['https://api.example.com/#x', 'fragment'],
    ['https://user@api.example.com', 'user information'],
    ['https://API.example.com', 'upper-case host'],
    ['https://api.example.com/a b', 'space'],
    ['http://gatehouse.test/api/v1', 'the management API'],
    ['https://api.exa\u200bmple.com', 'invisible character'],
  ])('refuses the identifier %s (%s): 422, nothing stored', async (value) => {
    const before = await app.sql('select count(*)::int as n from api_resource');
    const refused = await app.http.post('/api-resources', { identifier: value, name: 'Bad' });
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'identifier' });
    expect(await app.sql('select count(*)::int as n from api_resource')).toEqual(before);
  });

  it('refuses an identifier already registered (409), on creation and on change', async () => {
    const uri = identifier();
    const first = await createResource({ identifier: uri, name: 'One' });
    const again = await app.http.post('/api-resources', { identifier: uri, name: 'Two' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'already_exists', field: 'identifier' });
    const other = await createResource({ identifier: identifier(), name: 'Other' });
    const clash = await app.http.patch(`/api-resources/${other.id}`, { identifier: uri });
    expect(clash.status).toBe(409);
    expect((await app.http.get(`/api-resources/${other.id}`)).body.identifier).toBe(other.identifier);
    expect((await app.http.get(`/api-resources/${first.id}`)).body.identifier).toBe(uri);
  });

  it('refuses an identifier another application holds (409), on creation and on change: their tokens share an issuer', async () => {
    const uri = identifier();
    const mine = await createResource({ identifier: uri, name: 'Mine' });
    const other = app.as({ apiKey: (await app.bootstrapAnother()).apiKey });
    const theirs = await other.post('/api-resources', { identifier: uri, name: 'Theirs' });
    expect(theirs.status).toBe(409);
    expect(theirs.body).toMatchObject({ code: 'already_exists', field: 'identifier' });
    const own = await other.post('/api-resources', { identifier: identifier(), name: 'Theirs' });
    expect(own.status).toBe(201);
    const renamed = await other.patch(`/api-resources/${own.body.id}`, { identifier: uri });
    expect(renamed.status).toBe(409);
    expect((await other.get(`/api-resources/${own.body.id}`)).body.identifier).toBe(own.body.identifier);
    // Unchanged, it is no clash; once the first holder lets it go, it is free.
    expect((await other.patch(`/api-resources/${own.body.id}`, { identifier: own.body.identifier, name: 'Kept' })).status).toBe(200);
    expect((await app.http.delete(`/api-resources/${mine.id}`)).status).toBe(204);
    expect((await other.patch(`/api-resources/${own.body.id}`, { identifier: uri })).status).toBe(200);
  });

  it('two applications registering one identifier at once: one gets it', async () => {
    const uri = identifier();
    const other = app.as({ apiKey: (await app.bootstrapAnother()).apiKey });
    const answers = await Promise.all([app.http.post('/api-resources', { identifier: uri, name: 'Mine' }), other.post('/api-resources', { identifier: uri, name: 'Theirs' })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
  });

  it('refuses a permission that is not one of the application’s own (422 naming it), a built-in one too', async () => {
    for (const permission of ['invoices:delete', 'users:read', '*', 'Invoices:Read', 'nul\u0000:key']) {
      const refused = await app.http.post('/api-resources', { identifier: identifier(), name: 'Bad', permissions: ['invoices:read', permission] });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'validation_error', field: 'permissions' });
      expect(refused.body.message).toContain(JSON.stringify(permission));
    }
    const created = await createResource({ identifier: identifier(), name: 'Good', permissions: ['invoices:read'] });
    const patched = await app.http.patch(`/api-resources/${created.id}`, { permissions: ['nope:nope'] });
    expect(patched.status).toBe(422);
    expect((await app.http.get(`/api-resources/${created.id}`)).body.permissions).toEqual(['invoices:read']);
    const nulled = await app.http.patch(`/api-resources/${created.id}`, { name: null });
    expect(nulled.status).toBe(422);
  });

  it('a tenant’s own permission is not the application’s', async () => {
    await app.sql("insert into permission values (?, ?, ?, 'reports:read', '', now())", [app.root.applicationId, randomUUID(), tenantA]);
    const refused = await app.http.post('/api-resources', { identifier: identifier(), name: 'Reports', permissions: ['reports:read'] });
    expect(refused.status).toBe(422);
  });

  it('tenant-scoped credentials read the application’s resources and change none (403)', async () => {
    const created = await createResource({ identifier: identifier(), name: 'Shared' });
    const tenantKey = await clientWithKey(app, ['*'], tenantA);
    expect((await tenantKey.get(`/api-resources/${created.id}`)).status).toBe(200);
    expect((await tenantKey.get(`${appPath}/tenants/${tenantA}/api-resources/${created.id}`)).status).toBe(200);
    expect((await tenantKey.post('/api-resources', { identifier: identifier(), name: 'Tenant' })).status).toBe(403);
    expect((await tenantKey.patch(`/api-resources/${created.id}`, { name: 'Tenant' })).status).toBe(403);
    expect((await tenantKey.delete(`/api-resources/${created.id}`)).status).toBe(403);
    // An application-wide key on a tenant's path: a tenant scope too.
    const onTenantPath = await app.http.post(`${appPath}/tenants/${tenantA}/api-resources`, { identifier: identifier(), name: 'Tenant' });
    expect(onTenantPath.status).toBe(403);
    expect((await app.http.delete(`${appPath}/tenants/${tenantA}/api-resources/${created.id}`)).status).toBe(403);
    expect((await app.http.get(`/api-resources/${created.id}`)).body.name).toBe('Shared');
  });

  it('reads and writes need the api_resources permissions', async () => {
    const created = await createResource({ identifier: identifier(), name: 'Guarded' });
    const reader = await clientWithKey(app, ['api_resources:read']);
    expect((await reader.get(`/api-resources/${created.id}`)).status).toBe(200);
    expect((await reader.patch(`/api-resources/${created.id}`, { name: 'X' })).status).toBe(403);
    expect((await (await clientWithKey(app, ['users:read'])).get('/api-resources')).status).toBe(403);
  });

  it('another application’s resource is 404', async () => {
    const created = await createResource({ identifier: identifier(), name: 'Private' });
    const other = await app.bootstrapAnother();
    const foreign = app.as({ apiKey: other.apiKey });
    expect((await foreign.get(`/api-resources/${created.id}`)).status).toBe(404);
    expect((await foreign.patch(`/api-resources/${created.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await foreign.delete(`/api-resources/${created.id}`)).status).toBe(404);
    expect((await app.http.get(`/api-resources/${created.id}`)).body.name).toBe('Private');
  });

  it('DELETE honors Idempotency-Key', async () => {
    const created = await createResource({ identifier: identifier(), name: 'Once' });
    const headers = { 'idempotency-key': randomUUID() };
    const first = await app.http.delete(`/api-resources/${created.id}`, { headers });
    const replay = await app.http.delete(`/api-resources/${created.id}`, { headers });
    expect(first.status).toBe(204);
    expect(replay.status).toBe(204);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await auditOf(created.id)).map((r) => r.action)).toEqual(['api_resource.created', 'api_resource.deleted']);
  });

  it('defines new permissions with the resource, in its transaction, and adds them to its list', async () => {
    const created = await createResource({ identifier: identifier(), name: 'Ledgers', permissions: ['invoices:read'], newPermissions: [{ key: 'ledgers:read', description: ' Read ledgers ' }] });
    expect(created.permissions).toEqual(['invoices:read', 'ledgers:read']);
    expect(await app.sql('select key, description, tenant_id from permission where key = ?', ['ledgers:read'])).toEqual([{ key: 'ledgers:read', description: 'Read ledgers', tenant_id: null }]);
    // Without a list, a change's new permissions join the resource's own.
    const changed = await app.http.patch(`/api-resources/${created.id}`, { newPermissions: [{ key: 'ledgers:close' }] });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.permissions).toEqual(['invoices:read', 'ledgers:read', 'ledgers:close']);
    const replaced = await app.http.patch(`/api-resources/${created.id}`, { permissions: ['ledgers:read'], newPermissions: [{ key: 'ledgers:open' }] });
    expect(replaced.body.permissions).toEqual(['ledgers:read', 'ledgers:open']);
    const defined = await app.sql<{ action: string }>("select action from audit_log where action = 'permission.created' and after->>'key' like 'ledgers:%'");
    expect(defined).toHaveLength(3);
    // Over GraphQL as over REST.
    const graphql = await app.http.graphql('mutation($input: CreateApiResourceInput!) { createApiResource(input: $input) { permissions } }', {
      input: { identifier: identifier(), name: 'Journals', newPermissions: [{ key: 'journals:read' }] },
    });
    expect(graphql.body.data?.createApiResource.permissions).toEqual(['journals:read']);
  });

  it('refuses new permissions already defined, malformed, listed twice or without permissions:write, creating nothing', async () => {
    const before = (await app.sql<{ count: number }>('select count(*)::int as count from permission')).at(0)!.count;
    const uri = identifier();
    const refusals: [Record<string, unknown>[], number, string][] = [
      [[{ key: 'stock:read' }, { key: 'invoices:approve' }], 409, 'newPermissions[1].key'],
      [[{ key: 'stock:read' }, { key: 'Stock:Write' }], 422, 'newPermissions[1].key'],
      [[{ key: 'users:approve' }], 422, 'newPermissions[0].key'],
      [[{ key: 'stock:read', description: 'a\u0007b' }], 422, 'newPermissions[0].description'],
      [[{ key: 'stock:read' }, { key: 'stock:read' }], 422, 'newPermissions[1].key'],
    ];
    for (const [newPermissions, status, field] of refusals) {
      const refused = await app.http.post('/api-resources', { identifier: uri, name: 'Stock', newPermissions });
      expect([refused.status, refused.body.field], JSON.stringify(refused.body)).toEqual([status, field]);
    }
    const writer = await clientWithKey(app, ['api_resources:write', 'api_resources:read']);
    const forbidden = await writer.post('/api-resources', { identifier: uri, name: 'Stock', newPermissions: [{ key: 'stock:read' }] });
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 'forbidden']);
    expect((await app.http.get('/api-resources?pageSize=100')).body.data.map((r: { identifier: string }) => r.identifier)).not.toContain(uri);
    // A change refused keeps the resource's list.
    const created = await createResource({ identifier: uri, name: 'Stock', permissions: ['invoices:read'] });
    const taken = await app.http.patch(`/api-resources/${created.id}`, { newPermissions: [{ key: 'stock:count' }, { key: 'invoices:read' }] });
    expect([taken.status, taken.body.field]).toEqual([409, 'newPermissions[1].key']);
    expect((await app.http.get(`/api-resources/${created.id}`)).body.permissions).toEqual(['invoices:read']);
    expect((await app.sql<{ count: number }>('select count(*)::int as count from permission')).at(0)!.count).toBe(before);
  });

  it('a permission deleted leaves every resource listing it, each change audited', async () => {
    await authorizationData(app).permission('archive:read');
    const listing = await createResource({ identifier: identifier(), name: 'Listing', permissions: ['invoices:read', 'archive:read'] });
    const other = await createResource({ identifier: identifier(), name: 'Other', permissions: ['invoices:read'] });
    const id = (await app.sql<{ id: string }>("select id from permission where key = 'archive:read'"))[0]!.id;
    expect((await app.http.delete(`/permissions/${id}`)).status).toBe(204);
    expect((await app.http.get(`/api-resources/${listing.id}`)).body.permissions).toEqual(['invoices:read']);
    expect((await app.http.get(`/api-resources/${other.id}`)).body.permissions).toEqual(['invoices:read']);
    const audit = await auditOf(listing.id);
    expect(audit.at(-1)).toMatchObject({ action: 'api_resource.updated', after: { permissions: ['invoices:read'] } });
    expect((await auditOf(other.id)).map((r) => r.action)).toEqual(['api_resource.created']);
  });

  it('removePermissionFromApiResources changes nothing when the caller’s transaction rolls back', async () => {
    const other = await createResource({ identifier: identifier(), name: 'Kept', permissions: ['invoices:read'] });
    const actor = { applicationId: app.root.applicationId, tenantId: null, requestId: 'test', principal: { actor: { type: 'system', id: 'test' } } };
    // As a scope's EntityManager is: its application filter set.
    const em = app.gatehouse.services.orm.em.fork();
    em.setFilterParams('application', { id: app.root.applicationId });
    await expect(
      em.transactional(async (tx) => {
        await removePermissionFromApiResources(tx, actor, 'invoices:read');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await app.http.get(`/api-resources/${other.id}`)).body.permissions).toEqual(['invoices:read']);
  });
});
