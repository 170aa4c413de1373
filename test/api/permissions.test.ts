import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/auth/permissions.ts';
import { builtInPermissionId } from '../../src/domain/authorization/permissions.ts';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { auditRecordsOf, traced } from '../support/audit.ts';
import type { HttpResponse } from '../support/http.ts';
import { issueTestKey } from '../support/keys.ts';

/** Permissions: the management API's built-in ones, and an application's own (application-wide or a tenant's). */
let app: TestApp;
let appPath: string;
let tenantA: string;
let tenantB: string;

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Every permission a path lists, page by page. */
async function listAll(path: string, size = 17): Promise<{ id: string; key: string; builtIn: boolean; tenantId: string | null }[]> {
  const all = [];
  let cursor: string | null = null;
  do {
    const page: HttpResponse = await app.http.get(`${path}?pageSize=${size}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.data.length).toBeLessThanOrEqual(size);
    all.push(...page.body.data);
    cursor = page.body.next;
  } while (cursor !== null);
  return all;
}

beforeAll(async () => {
  ({ app, appPath, tenants: [tenantA, tenantB] } = await startTestAppWithTenants(['Tenant A', 'Tenant B']));
});
afterAll(async () => app?.close());

describe('permissions', () => {
  it('lists the built-in permissions first, with ids derived from their keys, the same in every application', async () => {
    const listed = await listAll('/permissions');
    const builtIn = listed.filter((permission) => permission.builtIn);
    expect(builtIn.map((permission) => permission.key)).toEqual(ALL_PERMISSIONS);
    expect(listed.slice(0, builtIn.length)).toEqual(builtIn);
    const first = (await app.http.get('/permissions?pageSize=1')).body.data[0];
    expect(first).toEqual({ id: builtInPermissionId('organizations:read'), key: 'organizations:read', description: 'Read the organization', builtIn: true, tenantId: null, createdAt: null });
    for (const permission of builtIn) expect(permission.id).toMatch(UUID_V7);
    expect(new Set(builtIn.map((permission) => permission.id)).size).toBe(builtIn.length);
    const other = await app.bootstrapAnother();
    const foreign = (await app.as({ apiKey: other.apiKey }).get('/permissions?pageSize=100')).body.data.filter((permission: { builtIn: boolean }) => permission.builtIn);
    expect(foreign).toEqual(builtIn);
  });

  it('creates an application-wide permission and a tenant’s own, each listed where it is seen, with its audit record', async () => {
    const { requestId, headers } = traced();
    const created = await app.http.post('/permissions', { key: 'invoices:approve', description: 'Approve invoices' }, { headers });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({ id: expect.stringMatching(UUID_V7), key: 'invoices:approve', description: 'Approve invoices', builtIn: false, tenantId: null, createdAt: expect.any(String) });
    const [record] = await auditRecordsOf(app, requestId);
    expect(record).toMatchObject({ action: 'permission.created', targetType: 'permission', targetId: created.body.id, tenantId: null, after: { key: 'invoices:approve', description: 'Approve invoices', tenantId: null } });

    const own = await app.http.post(`${appPath}/tenants/${tenantA}/permissions`, { key: 'reports:export' });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body).toMatchObject({ key: 'reports:export', description: '', tenantId: tenantA, builtIn: false });

    const keysOf = async (path: string) => (await listAll(path, 100)).filter((permission) => !permission.builtIn).map((permission) => permission.key);
    expect(await keysOf(`${appPath}/tenants/${tenantA}/permissions`)).toEqual(['invoices:approve', 'reports:export']);
    expect(await keysOf(`${appPath}/tenants/${tenantB}/permissions`)).toEqual(['invoices:approve']);
    expect(await keysOf('/permissions')).toEqual(['invoices:approve', 'reports:export']);
    // A page boundary between the built-ins and the custom ones loses and repeats nothing.
    expect((await listAll(`${appPath}/tenants/${tenantA}/permissions`, ALL_PERMISSIONS.length)).length).toBe(ALL_PERMISSIONS.length + 2);
  });

  it('refuses a malformed key or one of a built-in resource (422), a duplicate at either level (409), and writes nothing', async () => {
    const before = await app.sql('select count(*)::int as n from permission');
    for (const key of ['Invoices:approve', 'invoices', 'invoices:approve:twice', 'in voices:approve', ':approve', 'invoices:', 'invoices:*', `${'x'.repeat(65)}:read`]) {
      const response = await app.http.post('/permissions', { key });
      expect(response.status, key).toBe(422);
      expect(response.body).toMatchObject({ code: 'validation_error', field: 'key' });
    }
    const builtInResource = await app.http.post('/permissions', { key: 'users:approve' });
    expect(builtInResource.status).toBe(422);
    expect(builtInResource.body).toMatchObject({ code: 'validation_error', field: 'key' });
    const longDescription = await app.http.post('/permissions', { key: 'docs:sign', description: 'x'.repeat(501) });
    expect(longDescription.body).toMatchObject({ code: 'validation_error', field: 'description' });

    await app.http.post('/permissions', { key: 'payments:refund' });
    await app.http.post(`${appPath}/tenants/${tenantA}/permissions`, { key: 'tickets:close' });
    for (const [path, key] of [
      ['/permissions', 'payments:refund'],
      [`${appPath}/tenants/${tenantB}/permissions`, 'payments:refund'],
      ['/permissions', 'tickets:close'],
      [`${appPath}/tenants/${tenantA}/permissions`, 'tickets:close'],
    ] as const) {
      const duplicate = await app.http.post(path, { key });
      expect(duplicate.status, `${path} ${key}`).toBe(409);
      expect(duplicate.body).toMatchObject({ code: 'already_exists', field: 'key' });
    }
    // Another tenant may have the same key of its own.
    expect((await app.http.post(`${appPath}/tenants/${tenantB}/permissions`, { key: 'tickets:close' })).status).toBe(201);
    const after = await app.sql('select count(*)::int as n from permission');
    expect(after[0].n).toBe(before[0].n + 3);
  });

  it('deletes a custom permission and takes it out of every role that held it, each change audited', async () => {
    const permission = (await app.http.post('/permissions', { key: 'refunds:issue' })).body;
    const appRole = (await app.http.post('/roles', { key: 'refunder', name: 'Refunder', permissions: ['users:read', 'refunds:issue'] })).body;
    const tenantRole = (await app.http.post(`${appPath}/tenants/${tenantA}/roles`, { key: 'a_refunder', name: 'A refunder', permissions: ['refunds:issue'] })).body;
    const { requestId, headers } = traced();
    const deleted = await app.http.delete(`/permissions/${permission.id}`, { headers: { ...headers, 'idempotency-key': crypto.randomUUID() } });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
    expect((await app.http.get(`/roles/${appRole.id}`)).body.permissions).toEqual(['users:read']);
    expect((await app.http.get(`/roles/${tenantRole.id}`)).body.permissions).toEqual([]);
    const records = await auditRecordsOf(app, requestId);
    expect(records.map((record) => [record.action, record.targetId]).sort()).toEqual(
      [['permission.deleted', permission.id], ['role.updated', appRole.id], ['role.updated', tenantRole.id]].sort(),
    );
    expect(records.find((record) => record.targetId === tenantRole.id)).toMatchObject({ tenantId: tenantA, before: { permissions: ['refunds:issue'] }, after: { permissions: [] } });
    expect((await app.http.delete(`/permissions/${permission.id}`)).status).toBe(404);
  });

  it('refuses a caller who could not give a role holding it what that role holds (403): its deletion narrows them, nothing changes', async () => {
    const permission = (await app.http.post('/permissions', { key: 'payouts:send' })).body;
    const guarded = (await app.http.post('/roles', { key: 'payer', name: 'Payer', permissions: ['users:delete', 'payouts:send'] })).body;
    const clerk = await issueTestKey(app, { permissions: ['permissions:*', 'roles:read'] });
    const { requestId, headers } = traced();
    const refused = await clerk.delete(`/permissions/${permission.id}`, { headers });
    expect(refused.status, JSON.stringify(refused.body)).toBe(403);
    expect(refused.body.code).toBe('forbidden');
    expect((await app.http.get(`/roles/${guarded.id}`)).body.permissions).toEqual(['users:delete', 'payouts:send']);
    expect(await app.sql('select key from permission where id = ?', [permission.id])).toEqual([{ key: 'payouts:send' }]);
    expect(await auditRecordsOf(app, requestId)).toEqual([]);
    // Holding what the role holds, it may.
    const covered = await issueTestKey(app, { permissions: ['permissions:*', 'users:delete'] });
    expect((await covered.delete(`/permissions/${permission.id}`)).status).toBe(204);
    expect((await app.http.get(`/roles/${guarded.id}`)).body.permissions).toEqual(['users:delete']);
  });

  it('refuses to delete a built-in permission (422), an application-wide one from a tenant (403), another tenant’s (404)', async () => {
    const builtIn = await app.http.delete(`/permissions/${builtInPermissionId('users:read')}`);
    expect(builtIn.status).toBe(422);
    expect(builtIn.body).toMatchObject({ code: 'validation_error', field: 'permissionId' });
    const appWide = (await app.http.post('/permissions', { key: 'shipments:track' })).body;
    const fromTenant = await app.http.delete(`${appPath}/tenants/${tenantA}/permissions/${appWide.id}`);
    expect(fromTenant.status).toBe(403);
    expect(fromTenant.body.code).toBe('forbidden');
    const ofA = (await app.http.post(`${appPath}/tenants/${tenantA}/permissions`, { key: 'shipments:hold' })).body;
    const fromB = await app.http.delete(`${appPath}/tenants/${tenantB}/permissions/${ofA.id}`);
    expect(fromB.status).toBe(404);
    expect(fromB.body).toMatchObject({ code: 'not_found', field: 'permissionId' });
    const keysOf = async (path: string) => (await listAll(path, 100)).map((permission) => permission.key);
    expect(await keysOf(`${appPath}/tenants/${tenantA}/permissions`)).toEqual(expect.arrayContaining(['users:read', 'shipments:track', 'shipments:hold']));
    // A's own key, deleted by A, is free again.
    expect((await app.http.delete(`${appPath}/tenants/${tenantA}/permissions/${ofA.id}`)).status).toBe(204);
    expect((await app.http.post('/permissions', { key: 'shipments:hold' })).status).toBe(201);
  });

  it('answers the same over GraphQL, and a tenant key creates its tenant’s own', async () => {
    const tenantKey = await issueTestKey(app, { tenantId: tenantB, permissions: ['permissions:*'] });
    const created = await tenantKey.graphql('mutation ($input: CreatePermissionInput!) { createPermission(input: $input) { key tenantId builtIn } }', { input: { key: 'labels:print' } });
    expect(created.body).toEqual({ data: { createPermission: { key: 'labels:print', tenantId: tenantB, builtIn: false } } });
    const refused = await tenantKey.graphql('mutation ($input: CreatePermissionInput!) { createPermission(input: $input) { id } }', { input: { key: 'users:print' } });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'key', status: 422 });
    const narrow = await issueTestKey(app, { permissions: ['permissions:read'] });
    expect((await narrow.post('/permissions', { key: 'labels:scan' })).status).toBe(403);
  });
});
