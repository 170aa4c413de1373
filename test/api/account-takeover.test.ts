import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password-hash.ts';
import { BUILT_IN_ROLES } from '../../src/auth/permissions.ts';
import { ensureConsoles } from '../../src/domain/console/console.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { issueTestKey } from '../support/keys.ts';
import { TestRoles } from '../support/roles.ts';

/**
 * Whoever sets a user's password or address, or removes their second factors, can sign in as them; whoever suspends,
 * activates or deletes them takes away or gives back what they hold: only credentials holding all the user holds may,
 * in the application and (a console user) as an operator elsewhere.
 */
const statusOf = async (userId: string) => (await app.sql<{ status: string }>('select status from app_user where id = ?', [userId]))[0]?.status;
let app: TestApp;
let roles: TestRoles;
let tenantT: string;
const passwordHashOf = async (userId: string) => (await app.sql<{ password_hash: string | null }>('select password_hash from app_user where id = ?', [userId]))[0]!.password_hash;

beforeAll(async () => {
  app = await startTestApp();
  roles = new TestRoles(app);
  tenantT = await app.createTenant('Takeover T');
});
afterAll(async () => app?.close());

describe('in an application', () => {
  it('users:write alone may not set the password or address of an app_admin, nor reset their second factors', async () => {
    const admin = await app.createUser('the-admin@example.com', tenantT);
    await roles.assign({ type: 'user', id: admin }, 'app_admin');
    const clerk = await issueTestKey(app, { permissions: ['users:read', 'users:write'] });
    const before = await passwordHashOf(admin);
    for (const change of [{ password: 'Clerk-Chosen-Passphrase-1' }, { email: 'clerk-owned@example.com' }]) {
      const refused = await clerk.patch(`/users/${admin}`, change);
      expect(refused.status, JSON.stringify(refused.body)).toBe(403);
      expect(refused.body.code).toBe('forbidden');
    }
    expect((await clerk.post(`/users/${admin}/mfa-reset`)).status).toBe(403);
    const [row] = await app.sql<{ email: string }>('select email from app_user where id = ?', [admin]);
    expect(row!.email).toBe('the-admin@example.com');
    expect(await passwordHashOf(admin)).toBe(before);
    // Their name is no way in: it stays a users:write change.
    expect((await clerk.patch(`/users/${admin}`, { name: 'Renamed' })).status).toBe(200);
  });

  it('users:write and users:delete alone may not suspend, activate or delete an app_admin', async () => {
    const admin = await app.createUser('kept-admin@example.com', tenantT);
    await roles.assign({ type: 'user', id: admin }, 'app_admin');
    const clerk = await issueTestKey(app, { permissions: ['users:read', 'users:write', 'users:delete'] });
    for (const refused of [await clerk.post(`/users/${admin}/suspend`), await clerk.delete(`/users/${admin}`)]) {
      expect(refused.status, JSON.stringify(refused.body)).toBe(403);
      expect(refused.body.code).toBe('forbidden');
    }
    expect(await statusOf(admin)).toBe('active');
    expect((await app.http.post(`/users/${admin}/suspend`)).status).toBe(200);
    // Suspended by those who may: the clerk may not give it back either.
    expect((await clerk.post(`/users/${admin}/activate`)).status).toBe(403);
    expect(await statusOf(admin)).toBe('suspended');
    // A plain user is theirs to manage.
    const plain = await app.createUser('plain-user@example.com', tenantT);
    expect((await clerk.post(`/users/${plain}/suspend`)).status).toBe(200);
    expect((await clerk.post(`/users/${plain}/activate`)).status).toBe(200);
    expect((await clerk.delete(`/users/${plain}`)).status).toBe(204);
  });

  it('a tenant’s admin may not take over a member who holds more application-wide, and may a plain member', async () => {
    const admin = await app.createUser('wide-admin@example.com', tenantT);
    await roles.assign({ type: 'user', id: admin }, 'app_admin');
    const member = await app.createUser('plain-member@example.com', tenantT);
    const tenantAdmin = await issueTestKey(app, { tenantId: tenantT, permissions: ['users:read', 'users:write'] });
    const path = `/applications/${app.root.applicationId}/tenants/${tenantT}/users`;
    expect((await tenantAdmin.patch(`${path}/${admin}`, { password: 'Tenant-Chosen-Passphrase-1' })).status).toBe(403);
    expect((await tenantAdmin.post(`${path}/${admin}/suspend`)).status).toBe(403);
    expect(await statusOf(admin)).toBe('active');
    expect((await tenantAdmin.patch(`${path}/${member}`, { password: 'Tenant-Chosen-Passphrase-1' })).status).toBe(200);
    expect((await tenantAdmin.post(`${path}/${member}/suspend`)).status).toBe(200);
  });

  it('what a member holds application-wide is compared with what the caller holds application-wide: a tenant’s every permission is not enough', async () => {
    const supportRole = await roles.create(`support-${randomUUID().slice(0, 8)}`, ['users:read', 'users:write']);
    const support = await app.createUser(`wide-support-${randomUUID().slice(0, 8)}@example.com`, tenantT);
    await roles.assign({ type: 'user', id: support }, supportRole);
    const tenantAdminUser = await app.createUser(`t-admin-${randomUUID().slice(0, 8)}@example.com`, tenantT);
    await roles.assign({ type: 'user', id: tenantAdminUser }, 'tenant_admin', tenantT);
    const callers = {
      'a tenant key holding *': await issueTestKey(app, { tenantId: tenantT, permissions: ['*'] }),
      'a tenant admin’s token': app.as({ bearer: await app.mintAccessToken({ sub: tenantAdminUser, app_id: app.root.applicationId, tenant_id: tenantT }) }),
    };
    const path = `/applications/${app.root.applicationId}/tenants/${tenantT}/users/${support}`;
    const before = await passwordHashOf(support);
    for (const [name, caller] of Object.entries(callers)) {
      for (const refused of [
        await caller.patch(path, { password: 'Tenant-Chosen-Passphrase-2' }),
        await caller.patch(path, { email: `taken-${randomUUID().slice(0, 8)}@example.com` }),
        await caller.post(`${path}/mfa-reset`),
        await caller.post(`${path}/suspend`),
      ]) {
        expect(refused.status, `${name}: ${JSON.stringify(refused.body)}`).toBe(403);
        expect(refused.body.code).toBe('forbidden');
      }
    }
    expect(await passwordHashOf(support)).toBe(before);
    expect(await statusOf(support)).toBe('active');
    // An application-wide caller holding as much may, on the tenant's path too.
    const appClerk = await issueTestKey(app, { permissions: ['users:read', 'users:write'] });
    expect((await appClerk.patch(path, { password: 'Clerk-Chosen-Passphrase-2' })).status).toBe(200);
    // The tenant's membership is the tenant's to end: what they hold application-wide stays theirs.
    expect((await callers['a tenant key holding *'].delete(path)).status).toBe(204);
    expect(await app.sql('select 1 from role_assignment where subject_id = ? and tenant_id is null', [support])).toHaveLength(1);
  });

  it('users:delete or users:write alone may not take a tenant’s admin out of the tenant, which removes their roles there; the tenant’s admin may, and a plain member goes', async () => {
    const tenantAdmin = await app.createUser('kept-tenant-admin@example.com', tenantT);
    await roles.assign({ type: 'user', id: tenantAdmin }, 'tenant_admin', tenantT);
    const member = await app.createUser('removable-member@example.com', tenantT);
    const path = `/applications/${app.root.applicationId}/tenants/${tenantT}/users`;
    const tenantClerk = await issueTestKey(app, { tenantId: tenantT, permissions: ['users:read', 'users:delete'] });
    const appClerk = await issueTestKey(app, { permissions: ['users:read', 'users:write'] });
    for (const refused of [await tenantClerk.delete(`${path}/${tenantAdmin}`), await appClerk.patch(`/users/${tenantAdmin}`, { tenantIds: [] })]) {
      expect(refused.status, JSON.stringify(refused.body)).toBe(403);
      expect(refused.body.code).toBe('forbidden');
    }
    const membership = async (userId: string) =>
      (await app.sql<{ tenant_ids: string[] }>('select tenant_ids::text[] as tenant_ids from app_user where id = ?', [userId]))[0]!.tenant_ids;
    expect(await membership(tenantAdmin)).toEqual([tenantT]);
    expect(await app.sql('select 1 from role_assignment where subject_id = ? and tenant_id = ?', [tenantAdmin, tenantT])).toHaveLength(1);
    expect((await tenantClerk.delete(`${path}/${member}`)).status).toBe(204);
    expect(await membership(member)).toEqual([]);
    const theTenantsAdmin = await issueTestKey(app, { tenantId: tenantT, permissions: [...BUILT_IN_ROLES.tenant_admin.permissions] });
    expect((await theTenantsAdmin.delete(`${path}/${tenantAdmin}`)).status).toBe(204);
    expect(await membership(tenantAdmin)).toEqual([]);
  });

  it('credentials holding all the user holds may', async () => {
    const admin = await app.createUser('replaced-admin@example.com');
    await roles.assign({ type: 'user', id: admin }, 'app_admin');
    expect((await app.http.patch(`/users/${admin}`, { password: 'Root-Chosen-Passphrase-1' })).status).toBe(200);
    expect((await app.http.post(`/users/${admin}/mfa-reset`)).status).toBe(200);
  });
});

describe('in the console', () => {
  let consoleId: string;
  let firstOperator: string;
  const consoleUser = async (userId: string) => app.as({ bearer: await app.mintAccessToken({ sub: userId, app_id: consoleId }) });

  beforeAll(async () => {
    await ensureConsoles(app.gatehouse.services.orm, app.gatehouse.services.config.publicUrl, randomUUID(), {
      email: 'first@ops.example',
      passwordHash: await hashPassword('a long first passphrase'),
    });
    [{ id: consoleId }] = (await app.sql<{ id: string }>('select id from application where organization_id = ? and console', [app.root.organizationId])) as [{ id: string }];
    [{ id: firstOperator }] = (await app.sql<{ id: string }>('select id from app_user where application_id = ?', [consoleId])) as [{ id: string }];
  });

  it('a console role with users:write may not take over an operator who holds more elsewhere', async () => {
    const first = await consoleUser(firstOperator);
    const role = await first.post('/roles', { key: 'operator_onboarding', name: 'Operator onboarding', permissions: ['users:read', 'users:write'] });
    const helper = (await first.post('/users', { email: 'helper@ops.example' })).body.id as string;
    expect((await first.post('/role-assignments', { subject: { type: 'user', id: helper }, roleId: role.body.id })).status).toBe(201);
    // The manager holds no more than the helper in the console, but is app_admin of the application as an operator.
    const manager = (await first.post('/users', { email: 'manager@ops.example' })).body.id as string;
    expect((await first.post('/role-assignments', { subject: { type: 'user', id: manager }, roleId: role.body.id })).status).toBe(201);
    const appAdmin = await roles.id('app_admin');
    expect((await app.http.post('/role-assignments', { subject: { type: 'operator', id: manager }, roleId: appAdmin })).status).toBe(201);

    const asHelper = await consoleUser(helper);
    const before = await passwordHashOf(manager);
    expect((await asHelper.patch(`/users/${manager}`, { password: 'Helper-Chosen-Passphrase-9' })).status).toBe(403);
    expect((await asHelper.patch(`/users/${manager}`, { email: 'helper-owned@attacker.example' })).status).toBe(403);
    expect((await asHelper.post(`/users/${manager}/mfa-reset`)).status).toBe(403);
    expect(await passwordHashOf(manager)).toBe(before);
    // Nor suspend or delete an operator who holds more in the console.
    for (const refused of [await asHelper.post(`/users/${firstOperator}/suspend`), await asHelper.delete(`/users/${firstOperator}`)]) expect(refused.status).toBe(403);
    expect(await statusOf(firstOperator)).toBe('active');
    // The first operator holds as much everywhere: they may.
    expect((await first.patch(`/users/${manager}`, { password: 'First-Chosen-Passphrase-9' })).status).toBe(200);
  });
});
