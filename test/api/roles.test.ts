import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/auth/permissions.ts';
import { alignFixedRoles } from '../../src/domain/authorization/built-in-roles.ts';
import type { Invalidation } from '../../src/events/invalidations.ts';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { auditRecordsOf, traced } from '../support/audit.ts';
import { issueTestKey } from '../support/keys.ts';

/** Roles: the built-in ones every application has, application-wide roles and a tenant's own. */
let app: TestApp;
let appPath: string;
let tenantA: string;
let tenantB: string;
let pathA: string;
let pathB: string;

const keysOf = (body: { data: { key: string }[] }) => body.data.map((role) => role.key);

async function createRole(path: string, body: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const created = await app.http.post(`${path}/roles`, { name: 'A role', permissions: [], ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

beforeAll(async () => {
  ({ app, appPath, tenants: [tenantA, tenantB] } = await startTestAppWithTenants(['Tenant A', 'Tenant B']));
  pathA = `${appPath}/tenants/${tenantA}`;
  pathB = `${appPath}/tenants/${tenantB}`;
});
afterAll(async () => app?.close());

describe('roles', () => {
  it('lists the built-in roles first, as every application has them', async () => {
    const listed = await app.http.get('/roles');
    expect(listed.status).toBe(200);
    expect(listed.body.data.slice(0, 3)).toEqual([
      expect.objectContaining({ key: 'app_admin', name: 'Application admin', permissions: ['*'], tenantId: null, builtIn: true }),
      expect.objectContaining({ key: 'tenant_admin', builtIn: true }),
      expect.objectContaining({ key: 'member', permissions: [], builtIn: true }),
    ]);
    const one = await app.http.get(`/roles/${listed.body.data[0].id}`);
    expect(one.body).toEqual(listed.body.data[0]);
  });

  it('creates an application-wide role and a tenant’s own, each seen where it applies, with its audit record', async () => {
    const { requestId, headers } = traced();
    const created = await app.http.post('/roles', { key: 'support', name: 'Support', description: 'Helps users', permissions: ['users:read', 'users:read', 'tenants:*'] }, { headers });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      applicationId: app.root.applicationId,
      key: 'support',
      name: 'Support',
      description: 'Helps users',
      permissions: ['users:read', 'tenants:*'],
      tenantId: null,
      builtIn: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await auditRecordsOf(app, requestId))[0]).toMatchObject({ action: 'role.created', targetType: 'role', targetId: created.body.id, after: { key: 'support', permissions: ['users:read', 'tenants:*'], builtIn: false } });

    const own = await createRole(pathA, { key: 'a_auditor', permissions: ['audit_logs:read'] });
    expect(own).toMatchObject({ tenantId: tenantA, builtIn: false });
    expect(keysOf((await app.http.get(`${pathA}/roles?pageSize=100`)).body)).toEqual(expect.arrayContaining(['app_admin', 'support', 'a_auditor']));
    expect(keysOf((await app.http.get(`${pathB}/roles?pageSize=100`)).body)).not.toContain('a_auditor');
    const fromB = await app.http.get(`${pathB}/roles/${own.id}`);
    expect(fromB.status).toBe(404);
    expect(fromB.body).toMatchObject({ code: 'not_found', field: 'roleId' });
    expect((await app.http.get(`${pathA}/roles/${own.id}`)).status).toBe(200);
  });

  it('refuses a malformed key (422), a key taken at either level (409), an unknown or unseen permission (422 naming it)', async () => {
    for (const key of ['Support', 'sup port', '', 'a'.repeat(65), 'sup:port']) {
      const response = await app.http.post('/roles', { key, name: 'Bad', permissions: [] });
      expect(response.status, key).toBe(422);
      expect(response.body).toMatchObject({ code: 'validation_error', field: 'key' });
    }
    await createRole(appPath, { key: 'billing' });
    await createRole(pathA, { key: 'a_billing' });
    for (const [path, key] of [[appPath, 'billing'], [pathA, 'billing'], [appPath, 'a_billing'], [pathA, 'a_billing'], [appPath, 'member']] as const) {
      const duplicate = await app.http.post(`${path}/roles`, { key, name: 'Twice', permissions: [] });
      expect(duplicate.status, `${path} ${key}`).toBe(409);
      expect(duplicate.body).toMatchObject({ code: 'already_exists', field: 'key' });
    }
    expect((await app.http.post(`${pathB}/roles`, { key: 'a_billing', name: 'B’s own', permissions: [] })).status).toBe(201);

    await app.http.post('/permissions', { key: 'invoices:approve' });
    await app.http.post(`${pathA}/permissions`, { key: 'invoices:void' });
    for (const [path, permission] of [[appPath, 'users:fly'], [appPath, 'widgets:read'], [appPath, 'invoices:void'], [pathB, 'invoices:void'], [appPath, 'invoices:*'], [appPath, 'nul\u0000:x']] as const) {
      const response = await app.http.post(`${path}/roles`, { key: `r${crypto.randomUUID().slice(0, 8)}`, name: 'Bad', permissions: ['users:read', permission] });
      expect(response.status, `${path} ${permission}`).toBe(422);
      expect(response.body).toMatchObject({ code: 'validation_error', field: 'permissions' });
      expect(response.body.message).toContain(JSON.stringify(permission));
    }
    const custom = await createRole(pathA, { key: 'a_approver', permissions: ['invoices:approve', 'invoices:void'] });
    expect(custom).toMatchObject({ permissions: ['invoices:approve', 'invoices:void'] });
  });

  it('a caller may not put into a role a built-in permission it does not hold (403); custom ones need no holding', async () => {
    const narrow = await issueTestKey(app, { permissions: ['roles:*', 'users:*'] });
    const wider = await narrow.post('/roles', { key: 'too_wide', name: 'Too wide', permissions: ['users:read', 'tenants:read'] });
    expect(wider.status).toBe(403);
    expect(wider.body.code).toBe('forbidden');
    expect((await narrow.post('/roles', { key: 'star', name: 'Star', permissions: ['*'] })).status).toBe(403);
    await app.http.post('/permissions', { key: 'orders:ship' });
    const within = await narrow.post('/roles', { key: 'within', name: 'Within', permissions: ['users:read', 'orders:ship'] });
    expect(within.status, JSON.stringify(within.body)).toBe(201);
    // Adding one is refused; what the role already allows, however spelled, hands nothing out.
    const mine = await createRole(appPath, { key: 'mine', permissions: ['users:*'] });
    expect((await narrow.patch(`/roles/${mine.id}`, { permissions: ['users:*', 'api_keys:read'] })).status).toBe(403);
    const respelled = await narrow.patch(`/roles/${mine.id}`, { permissions: ['users:*', 'users:read'] });
    expect(respelled.status, JSON.stringify(respelled.body)).toBe(200);
    expect(respelled.body.permissions).toEqual(['users:*', 'users:read']);
  });

  it('a caller may not take from a role what it could not give: deleting, narrowing or re-keying takes its built-in permissions (403), nothing changed', async () => {
    await app.http.post('/permissions', { key: 'parcels:ship' });
    const wide = await createRole(appPath, { key: 'guarded', permissions: ['users:delete', 'parcels:ship'] });
    const own = await createRole(pathA, { key: 'a_guarded', permissions: ['users:delete', 'parcels:ship'] });
    const holder = (await app.http.post(`${pathA}/users`, { email: `guarded-${crypto.randomUUID()}@example.com` })).body.id as string;
    const assignments = [
      (await app.http.post('/role-assignments', { subject: { type: 'user', id: holder }, roleId: wide.id })).body.id as string,
      (await app.http.post(`${pathA}/role-assignments`, { subject: { type: 'user', id: holder }, roleId: own.id })).body.id as string,
    ];
    const clerk = await issueTestKey(app, { permissions: ['roles:*', 'role_assignments:*', 'users:read'] });
    const clerkOfA = await issueTestKey(app, { tenantId: tenantA, permissions: ['roles:*', 'role_assignments:*', 'users:read'] });
    // The refusal is the one removing an assignment of the role gives.
    const demoting = await clerk.delete(`/role-assignments/${assignments[0]}`);
    expect(demoting.status).toBe(403);
    const before = [(await app.http.get(`/roles/${wide.id}`)).body, (await app.http.get(`/roles/${own.id}`)).body];

    const attempts = [
      [clerk, appPath, wide.id],
      [clerk, appPath, own.id],
      [clerkOfA, pathA, own.id],
    ] as const;
    for (const [client, path, roleId] of attempts) {
      const changes = [
        { permissions: ['parcels:ship'] },
        // Dropping a custom permission narrows the role too.
        { permissions: ['users:delete'] },
        { key: `rekeyed_${roleId.slice(-6)}` },
        { name: 'Renamed', key: `rekeyed_${roleId.slice(-6)}` },
      ];
      for (const change of changes) {
        const { requestId, headers } = traced();
        const refused = await client.patch(`${path}/roles/${roleId}`, change, { headers });
        expect([refused.status, refused.body.code, refused.body.message], JSON.stringify(change)).toEqual([403, 'forbidden', demoting.body.message]);
        expect(await auditRecordsOf(app, requestId)).toEqual([]);
      }
      const { requestId, headers } = traced();
      const refused = await client.delete(`${path}/roles/${roleId}`, { headers });
      expect([refused.status, refused.body.code, refused.body.message]).toEqual([403, 'forbidden', demoting.body.message]);
      expect(await auditRecordsOf(app, requestId)).toEqual([]);
    }
    const overGraphql = await clerk.graphql('mutation($id: UUID!) { deleteRole(roleId: $id) }', { id: wide.id });
    expect(overGraphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'forbidden', status: 403 });
    expect([(await app.http.get(`/roles/${wide.id}`)).body, (await app.http.get(`/roles/${own.id}`)).body]).toEqual(before);
    for (const id of assignments) expect((await app.http.get(`/role-assignments/${id}`)).status).toBe(200);

    // A name or description changes no check's or token's answer: roles:write alone, as ever. So does widening with
    // what the caller holds, and re-sending the same key.
    const renamed = await clerk.patch(`/roles/${wide.id}`, { name: 'Guarded', description: 'Deletes users', key: 'guarded', permissions: ['users:delete', 'parcels:ship', 'users:read'] });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({ key: 'guarded', name: 'Guarded', description: 'Deletes users', permissions: ['users:delete', 'parcels:ship', 'users:read'] });
    // A role of custom permissions only takes nothing the management API checks.
    const customOnly = await createRole(pathA, { key: 'a_shipper', permissions: ['parcels:ship'] });
    // `*` spelled out as every built-in permission still takes the custom ones `*` allows.
    const star = await createRole(appPath, { key: 'star_spelled', permissions: ['*'] });
    expect((await clerk.patch(`/roles/${star.id}`, { permissions: ALL_PERMISSIONS })).status).toBe(403);
    expect((await app.http.get(`/roles/${star.id}`)).body.permissions).toEqual(['*']);
    expect((await clerkOfA.patch(`/roles/${customOnly.id}`, { key: 'a_sender', permissions: [] })).status).toBe(200);
    expect((await clerkOfA.delete(`/roles/${customOnly.id}`)).status).toBe(204);

    // Holding them, application-wide for an application role and in the tenant for the tenant's own, it may.
    const holding = await issueTestKey(app, { permissions: ['roles:*', 'users:*'] });
    const holdingInA = await issueTestKey(app, { tenantId: tenantA, permissions: ['roles:*', 'users:delete'] });
    const narrowed = await holding.patch(`/roles/${wide.id}`, { key: 'unguarded', permissions: ['users:read'] });
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200);
    expect(narrowed.body).toMatchObject({ key: 'unguarded', permissions: ['users:read'] });
    expect((await holdingInA.patch(`/roles/${own.id}`, { key: 'a_unguarded', permissions: ['users:delete'] })).body).toMatchObject({ key: 'a_unguarded', permissions: ['users:delete'] });
    const { requestId, headers } = traced();
    expect((await holdingInA.delete(`/roles/${own.id}`, { headers })).status).toBe(204);
    expect((await auditRecordsOf(app, requestId)).map((record) => [record.action, record.targetId]).sort()).toEqual([
      ['role.deleted', own.id],
      ['role_assignment.deleted', assignments[1]],
    ]);
    expect((await holding.delete(`/roles/${wide.id}`)).status).toBe(204);
    for (const id of assignments) expect((await app.http.get(`/role-assignments/${id}`)).status).toBe(404);
  });

  it('updates a role’s fields, audited; a built-in role keeps its key, and an application-wide role is changed only application-wide', async () => {
    const role = await createRole(appPath, { key: 'editor', permissions: ['users:read'] });
    const { requestId, headers } = traced();
    const updated = await app.http.patch(`/roles/${role.id}`, { key: 'writer', name: 'Writer', description: 'Writes', permissions: ['users:*'] }, { headers });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ key: 'writer', name: 'Writer', description: 'Writes', permissions: ['users:*'] });
    expect((await auditRecordsOf(app, requestId))[0]).toMatchObject({ action: 'role.updated', before: { key: 'editor', permissions: ['users:read'] }, after: { key: 'writer', permissions: ['users:*'] } });
    expect((await app.http.patch(`/roles/${role.id}`, { description: null })).body.description).toBe('');
    for (const field of ['key', 'name', 'permissions']) {
      const response = await app.http.patch(`/roles/${role.id}`, { [field]: null });
      expect(response.status, field).toBe(422);
      expect(response.body.field).toBe(field);
    }

    const member = (await app.http.get('/roles')).body.data.find((each: { key: string }) => each.key === 'member');
    const rekeyed = await app.http.patch(`/roles/${member.id}`, { key: 'members' });
    expect(rekeyed.status).toBe(422);
    expect(rekeyed.body).toMatchObject({ code: 'validation_error', field: 'key' });
    const edited = await app.http.patch(`/roles/${member.id}`, { name: 'Tenant member', permissions: ['users:read'] });
    expect(edited.body).toMatchObject({ key: 'member', name: 'Tenant member', permissions: ['users:read'], builtIn: true });

    for (const client of [app.http, await issueTestKey(app, { tenantId: tenantA })]) {
      for (const target of [member.id, role.id]) {
        const patched = await client.patch(`${pathA}/roles/${target}`, { name: 'From a tenant' });
        expect(patched.status).toBe(403);
        expect(patched.body.code).toBe('forbidden');
        expect((await client.delete(`${pathA}/roles/${target}`)).status).toBe(403);
      }
    }
    const own = await createRole(pathA, { key: 'a_writer' });
    expect((await (await issueTestKey(app, { tenantId: tenantA })).patch(`/roles/${own.id}`, { name: 'A’s writer' })).body.name).toBe('A’s writer');
    expect((await app.http.patch(`${pathB}/roles/${own.id}`, { name: 'From B' })).status).toBe(404);
  });

  it('keeps app_admin’s and tenant_admin’s permissions as the contract defines them (422); member’s are the application’s', async () => {
    const roles = (await app.http.get('/roles')).body.data as { id: string; key: string; permissions: string[] }[];
    const byKey = (key: string) => roles.find((role) => role.key === key)!;
    const rolesWriter = await issueTestKey(app, { permissions: ['roles:read', 'roles:write'] });
    for (const [key, permissions] of [['app_admin', []], ['tenant_admin', ['users:read']], ['tenant_admin', [...byKey('tenant_admin').permissions, 'applications:write']]] as const) {
      for (const client of [rolesWriter, app.http]) {
        const refused = await client.patch(`/roles/${byKey(key).id}`, { permissions });
        expect(refused.status, key).toBe(422);
        expect(refused.body).toMatchObject({ code: 'validation_error', field: 'permissions' });
      }
      expect((await app.http.get(`/roles/${byKey(key).id}`)).body.permissions).toEqual(byKey(key).permissions);
    }
    // The same list again, as a client sending the whole role does, changes nothing and is no error.
    const resent = await app.http.patch(`/roles/${byKey('tenant_admin').id}`, { permissions: [...byKey('tenant_admin').permissions].reverse(), description: 'Runs a tenant' });
    expect(resent.body).toMatchObject({ key: 'tenant_admin', permissions: byKey('tenant_admin').permissions, description: 'Runs a tenant' });
    const member = await rolesWriter.patch(`/roles/${byKey('member').id}`, { permissions: ['users:read'] });
    expect(member.body.permissions).toEqual(['users:read']);
  });

  it('gives tenant_admin a permission added since its application was made, at start (alignFixedRoles)', async () => {
    const connection = app.gatehouse.services.orm.em.getConnection();
    const tenantAdmin = (await app.http.get('/roles')).body.data.find((role: { key: string }) => role.key === 'tenant_admin');
    await connection.execute(`update role set permissions = array_remove(permissions, 'sessions:read') where application_id = ? and id = ?`, [app.root.applicationId, tenantAdmin.id]);
    await alignFixedRoles(connection);
    const [row] = await connection.execute<{ permissions: string[] }[]>('select permissions from role where application_id = ? and id = ?', [app.root.applicationId, tenantAdmin.id]);
    expect(row!.permissions).toEqual(tenantAdmin.permissions);
    expect(row!.permissions).toContain('sessions:read');
  });

  it('deletes a role with its assignments, each removal audited; a built-in role is 422', async () => {
    const role = await createRole(pathA, { key: 'a_temp', permissions: ['users:read'] });
    const user = (await app.http.post(`${pathA}/users`, { email: `temp-${crypto.randomUUID()}@example.com` })).body;
    const assignment = (await app.http.post(`${pathA}/role-assignments`, { subject: { type: 'user', id: user.id }, roleId: role.id })).body;
    expect(assignment.id).toEqual(expect.any(String));
    const { requestId, headers } = traced();
    const deleted = await app.http.delete(`${pathA}/roles/${role.id}`, { headers: { ...headers, 'idempotency-key': crypto.randomUUID() } });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
    const records = await auditRecordsOf(app, requestId);
    expect(records.map((record) => [record.action, record.targetId, record.tenantId]).sort()).toEqual([
      ['role.deleted', role.id, tenantA],
      ['role_assignment.deleted', assignment.id, tenantA],
    ]);
    expect((await app.http.get(`/role-assignments/${assignment.id}`)).status).toBe(404);
    expect((await app.http.get(`/roles/${role.id}`)).status).toBe(404);

    const builtIn = (await app.http.get('/roles')).body.data[0];
    const refused = await app.http.delete(`/roles/${builtIn.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'roleId' });
    expect((await app.http.get(`/roles/${builtIn.id}`)).status).toBe(200);
  });

  it('tells every instance after each change, over GraphQL too', async () => {
    const heard: Invalidation[] = [];
    app.gatehouse.services.invalidations.subscribe((invalidation) => heard.push(invalidation));
    const created = await app.http.graphql('mutation ($input: CreateRoleInput!) { createRole(input: $input) { id key } }', { input: { key: 'heard', name: 'Heard', permissions: [] } });
    expect(created.body.data.createRole.key).toBe('heard');
    expect(heard).toContainEqual({ kind: 'roles', id: app.root.applicationId });
    const refused = await app.http.graphql('mutation ($input: CreateRoleInput!) { createRole(input: $input) { id } }', { input: { key: 'heard', name: 'Again', permissions: [] } });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'already_exists', field: 'key', status: 409 });
  });
});
