import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import type { HttpClient } from '../support/http.ts';
import { issueTestKey } from '../support/keys.ts';
import { TestRoles } from '../support/roles.ts';

/**
 * POST /permissions/check, /permissions/bulk-check and /roles/check (src/domain/authorization/checks.ts): what a
 * subject holds in the scope's tenant, from the same data and cache that enforcement reads.
 */
let app: TestApp;
let roles: TestRoles;
let appPath: string;
let tenantA: string;
let tenantB: string;
/** A member of tenant A holding `approver` (invoices:approve) there. */
let approver: string;
/** A member of tenant B holding `billing` (invoices:*) application-wide. */
let billing: string;
/** An API key holding users:read of its own and `billing`. */
let keyId: string;
let approverAssignment: string;

const user = (id: string) => ({ type: 'user', id });
const inTenant = (tenantId: string) => `${appPath}/tenants/${tenantId}`;

beforeAll(async () => {
  app = await startTestApp();
  roles = new TestRoles(app);
  appPath = `/applications/${app.root.applicationId}`;
  tenantA = await app.createTenant('Checks A');
  tenantB = await app.createTenant('Checks B');
  approver = await app.createUser('approver@example.com', tenantA);
  billing = await app.createUser('billing@example.com', tenantB);
  approverAssignment = await roles.assign({ type: 'user', id: approver }, await roles.create('approver', ['invoices:approve'], tenantA), tenantA);
  const billingRole = await roles.create('billing', ['invoices:*']);
  await roles.assign({ type: 'user', id: billing }, billingRole);
  const key = await app.http.post('/api-keys', { name: 'checked', permissions: ['users:read'] });
  keyId = key.body.key.id;
  await roles.assign({ type: 'api_key', id: keyId }, billingRole);
});
afterAll(async () => app?.close());

const check = (path: string, subject: unknown, permission: string, client: HttpClient = app.http) =>
  client.post(`${path}/permissions/check`, { subject, permission });

describe('POST /permissions/check', () => {
  it('answers what the subject holds in the scope’s tenant, with the roles that grant it', async () => {
    const inA = await check(inTenant(tenantA), user(approver), 'invoices:approve');
    expect(inA.status, JSON.stringify(inA.body)).toBe(200);
    expect(inA.body).toEqual({ allowed: true, roles: ['approver'] });
    // A's role holds in A only: not in B (where the user is no member), not application-wide.
    expect((await check(inTenant(tenantB), user(approver), 'invoices:approve')).body).toEqual({ allowed: false, roles: [] });
    expect((await check(appPath, user(approver), 'invoices:approve')).body).toEqual({ allowed: false, roles: [] });
    expect((await check(inTenant(tenantA), user(approver), 'invoices:void')).body).toEqual({ allowed: false, roles: [] });
  });

  it('wildcards grant what they cover; an application-wide role holds in every tenant of the user', async () => {
    for (const path of [appPath, inTenant(tenantB)]) {
      expect((await check(path, user(billing), 'invoices:approve')).body).toEqual({ allowed: true, roles: ['billing'] });
    }
    // Not in a tenant they are no member of: a user of another tenant is refused, never told apart from an unknown one.
    expect((await check(inTenant(tenantA), user(billing), 'invoices:approve')).body).toEqual({ allowed: false, roles: [] });
    expect((await app.http.post(`${inTenant(tenantA)}/roles/check`, { subject: user(billing), role: 'billing' })).body).toEqual({ allowed: false });
    const admin = await app.createUser('admin@example.com', tenantA);
    await roles.assign({ type: 'user', id: admin }, 'app_admin');
    expect((await check(inTenant(tenantA), user(admin), 'invoices:approve')).body).toEqual({ allowed: true, roles: ['app_admin'] });
    expect((await check(inTenant(tenantA), user(admin), 'users:delete')).body).toEqual({ allowed: true, roles: ['app_admin'] });
  });

  it('an API key counts its own permission list beside its roles, which alone are named', async () => {
    const subject = { type: 'api_key', id: keyId };
    expect((await check(appPath, subject, 'users:read')).body).toEqual({ allowed: true, roles: [] });
    expect((await check(appPath, subject, 'invoices:approve')).body).toEqual({ allowed: true, roles: ['billing'] });
    expect((await check(appPath, subject, 'users:write')).body).toEqual({ allowed: false, roles: [] });
  });

  it('a subject of another application, an unknown, revoked or locked one is not allowed: never a 404', async () => {
    const other = await app.bootstrapAnother();
    const stranger = (await app.as({ apiKey: other.apiKey }).post('/users', { email: 'stranger@example.com' })).body.id as string;
    const revoked = await app.http.post('/api-keys', { name: 'revoked', permissions: ['*'] });
    expect((await app.http.delete(`/api-keys/${revoked.body.key.id}`)).status).toBe(204);
    const locked = await app.createUser('locked@example.com', tenantA);
    await roles.assign({ type: 'user', id: locked }, 'app_admin');
    await app.gatehouse.services.orm.em
      .getConnection()
      .execute(`update app_user set status = 'locked', locked_until = now() + interval '1 hour' where id = ?`, [locked]);
    await app.gatehouse.services.invalidations.publish({ kind: 'users', id: app.root.applicationId });
    const subjects = [
      user(stranger),
      user('01890a5d-ac96-774b-bcce-b302099a8057'),
      { type: 'api_key', id: revoked.body.key.id },
      { type: 'm2m_credential', id: keyId },
      user(locked),
    ];
    for (const subject of subjects) {
      const answer = await check(appPath, subject, 'users:read');
      expect(answer.status, JSON.stringify(subject)).toBe(200);
      expect(answer.body).toEqual({ allowed: false, roles: [] });
    }
  });

  it('a key or M2M credential bound to a tenant is allowed there only, never application-wide', async () => {
    const key = await app.http.post('/api-keys', { name: 'A only', permissions: ['users:read'], tenantId: tenantA });
    const credential = await app.http.post('/m2m-credentials', { name: 'A only', permissions: ['users:read'], tenantId: tenantA, authMethod: 'client_secret_basic' });
    expect([key.status, credential.status]).toEqual([201, 201]);
    for (const subject of [{ type: 'api_key', id: key.body.key.id as string }, { type: 'm2m_credential', id: credential.body.clientId as string }]) {
      expect((await check(appPath, subject, 'users:read')).body, JSON.stringify(subject)).toEqual({ allowed: false, roles: [] });
      expect((await check(inTenant(tenantA), subject, 'users:read')).body).toEqual({ allowed: true, roles: [] });
      expect((await check(inTenant(tenantB), subject, 'users:read')).body).toEqual({ allowed: false, roles: [] });
    }
  });

  it('only their owner is told what the application’s own keys and credentials hold: others as of an unknown one', async () => {
    const credential = await app.http.post('/m2m-credentials', { name: 'wide', permissions: ['users:read'], authMethod: 'client_secret_basic' });
    expect(credential.status, JSON.stringify(credential.body)).toBe(201);
    const wide = [{ type: 'api_key', id: keyId }, { type: 'm2m_credential', id: credential.body.clientId as string }] as const;
    await roles.assign(wide[1], 'billing', tenantA);
    const tenantKey = await issueTestKey(app, { tenantId: tenantA, permissions: ['*'] });
    const tenantBearer = app.as({ bearer: await app.mintAccessToken({ app_id: app.root.applicationId, tenant_id: tenantA, permissions: ['*'] }) });
    // Bound to no tenant, but administering tenant A only.
    const adminOfA = await app.createUser('admin-of-a@example.com', tenantA);
    await roles.assign({ type: 'user', id: adminOfA }, 'tenant_admin', tenantA);
    const tenantAdmin = app.as({ bearer: await app.mintAccessToken({ sub: adminOfA, app_id: app.root.applicationId }) });
    for (const subject of wide) {
      // The application's own credentials on the tenant's path are told.
      expect((await check(inTenant(tenantA), subject, 'invoices:approve')).body, JSON.stringify(subject)).toEqual({ allowed: true, roles: ['billing'] });
      for (const caller of [tenantKey, tenantBearer, tenantAdmin]) {
        const path = inTenant(tenantA);
        expect((await check(path, subject, 'users:read', caller)).body, JSON.stringify(subject)).toEqual({ allowed: false, roles: [] });
        expect((await check(path, subject, 'invoices:approve', caller)).body).toEqual({ allowed: false, roles: [] });
        expect((await caller.post(`${path}/roles/check`, { subject, role: 'billing' })).body).toEqual({ allowed: false });
        expect((await caller.post(`${path}/permissions/bulk-check`, { checks: [{ subject, permission: 'users:read' }] })).body).toEqual({ results: [{ allowed: false }] });
        const overGraphql = await caller.graphql('mutation ($tenantId: UUID, $input: CheckPermissionInput!) { checkPermission(tenantId: $tenantId, input: $input) { allowed roles } }', {
          tenantId: tenantA,
          input: { subject, permission: 'users:read' },
        });
        expect(overGraphql.body).toEqual({ data: { checkPermission: { allowed: false, roles: [] } } });
      }
    }
    // Its own tenant's keys it is told of.
    const ownKey = await app.http.post('/api-keys', { name: 'A’s', permissions: ['users:read'], tenantId: tenantA });
    for (const caller of [tenantKey, tenantAdmin]) {
      expect((await check(inTenant(tenantA), { type: 'api_key', id: ownKey.body.key.id }, 'users:read', caller)).body).toEqual({ allowed: true, roles: [] });
    }
  });

  it('a key that expired since its holdings were remembered is not allowed: expiry announces nothing', async () => {
    const expiresAt = new Date(Date.now() + 1500);
    const created = await app.http.post('/api-keys', { name: 'expiring', permissions: ['users:read'], expiresAt: expiresAt.toISOString() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const subject = { type: 'api_key', id: created.body.key.id as string };
    expect((await check(appPath, subject, 'users:read')).body).toEqual({ allowed: true, roles: [] });
    await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 50));
    expect((await check(appPath, subject, 'users:read')).body).toEqual({ allowed: false, roles: [] });
    expect((await app.http.post('/permissions/bulk-check', { checks: [{ subject, permission: 'users:read' }] })).body).toEqual({ results: [{ allowed: false }] });
  });

  it('a user whose lockout ended since a check remembered them locked is allowed again: the end announces nothing', async () => {
    const locked = await app.createUser('lockout-ends@example.com', tenantA);
    await roles.assign({ type: 'user', id: locked }, 'app_admin');
    const key = await app.http.post('/api-keys', { name: 'of a user locked out', permissions: ['users:read'], userId: locked });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const ofTheUser = { type: 'api_key', id: key.body.key.id as string };
    const ends = new Date(Date.now() + 1500);
    await app.sql(`update app_user set status = 'locked', locked_until = ? where id = ?`, [ends, locked]);
    await app.gatehouse.services.invalidations.publish({ kind: 'user', id: locked });
    expect((await check(appPath, user(locked), 'users:read')).body).toEqual({ allowed: false, roles: [] });
    expect((await check(appPath, ofTheUser, 'users:read')).body).toEqual({ allowed: false, roles: [] });
    await new Promise((resolve) => setTimeout(resolve, ends.getTime() - Date.now() + 50));
    expect((await check(appPath, user(locked), 'users:read')).body).toEqual({ allowed: true, roles: ['app_admin'] });
    expect((await check(appPath, ofTheUser, 'users:read')).body).toEqual({ allowed: true, roles: [] });
  });

  it('a revoked assignment is obeyed by the next check', async () => {
    const assignment = await roles.assign({ type: 'user', id: billing }, 'app_admin', tenantB);
    expect((await check(inTenant(tenantB), user(billing), 'users:write')).body.allowed).toBe(true);
    await roles.revoke(assignment);
    expect((await check(inTenant(tenantB), user(billing), 'users:write')).body.allowed).toBe(false);
  });

  it('refuses a malformed permission or subject (422), a caller without permissions:read (403), another tenant’s key (403)', async () => {
    for (const permission of ['invoices', 'Invoices:approve', 'invoices:*', '*', 'a:b:c', '']) {
      const refused = await check(appPath, user(approver), permission);
      expect(refused.status, permission).toBe(422);
      expect(refused.body).toMatchObject({ code: 'validation_error', field: 'permission' });
    }
    const badSubject = await check(appPath, { type: 'robot', id: approver }, 'users:read');
    expect(badSubject.status).toBe(422);
    expect(badSubject.body.code).toBe('validation_error');
    const reader = await issueTestKey(app, { permissions: ['users:read'] });
    expect((await check(appPath, user(approver), 'users:read', reader)).body).toMatchObject({ code: 'forbidden', message: 'Missing permission permissions:read' });
    const keyOfB = await issueTestKey(app, { tenantId: tenantB, permissions: ['*'] });
    expect((await check(inTenant(tenantA), user(approver), 'invoices:approve', keyOfB)).status).toBe(403);
    // Its own tenant, through the credentials form: B's view.
    expect((await check('', user(approver), 'invoices:approve', keyOfB)).body).toEqual({ allowed: false, roles: [] });
  });

  it('answers alike over GraphQL', async () => {
    const query = `mutation ($tenantId: UUID, $input: CheckPermissionInput!) {
      checkPermission(appId: "${app.root.applicationId}", tenantId: $tenantId, input: $input) { allowed roles } }`;
    const answer = await app.http.graphql(query, { tenantId: tenantA, input: { subject: user(approver), permission: 'invoices:approve' } });
    expect(answer.body).toEqual({ data: { checkPermission: { allowed: true, roles: ['approver'] } } });
    const refused = await app.http.graphql(query, { tenantId: tenantA, input: { subject: user(approver), permission: 'nope' } });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'permission' });
  });
});

describe('POST /permissions/bulk-check', () => {
  it('answers each check in order', async () => {
    const checks = [
      { subject: user(approver), permission: 'invoices:approve' },
      { subject: user(billing), permission: 'invoices:approve' },
      { subject: user(approver), permission: 'users:read' },
      { subject: { type: 'api_key', id: keyId }, permission: 'users:read' },
    ];
    const answer = await app.http.post(`${inTenant(tenantA)}/permissions/bulk-check`, { checks });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    // billing is a member of tenant B only.
    expect(answer.body).toEqual({ results: [{ allowed: true }, { allowed: false }, { allowed: false }, { allowed: true }] });
  });

  it('takes at most three statements for 100 checks of 100 subjects, none on a warm cache', async () => {
    const subjects = [approver, billing, ...Array.from({ length: 98 }, (_, i) => `01890a5d-ac96-774b-bcce-${String(i).padStart(12, '0')}`)];
    const checks = subjects.map((id) => ({ subject: user(id), permission: 'invoices:approve' }));
    // Every instance forgets what subjects hold, the caller's credentials' grants included.
    await app.gatehouse.services.invalidations.publish({ kind: 'roles', id: app.root.applicationId });
    const client = await issueTestKey(app, { permissions: ['permissions:read'] });
    const path = `${inTenant(tenantA)}/permissions/bulk-check`;
    expect((await client.post(path, { checks: checks.slice(0, 1) })).status).toBe(200);
    await app.gatehouse.services.invalidations.publish({ kind: 'roles', id: app.root.applicationId });
    const before = app.queries.length;
    const answer = await client.post(path, { checks });
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((result: { allowed: boolean }) => result.allowed)).toEqual([true, false, ...Array(98).fill(false)]);
    expect(app.queries.length - before).toBeLessThanOrEqual(3);
    const warm = app.queries.length;
    expect((await client.post(path, { checks })).status).toBe(200);
    // The tenant path's tenant is looked up, as on every route.
    expect(app.queries.length - warm).toBeLessThanOrEqual(1);
    // On the credentials' own path, a warm check costs no statement at all.
    await client.post('/permissions/check', checks[0]);
    const warmCheck = app.queries.length;
    expect((await client.post('/permissions/check', checks[0])).body).toEqual({ allowed: false, roles: [] });
    expect(app.queries.length - warmCheck).toBe(0);
  });

  it('refuses no check or more than 100 (422 checks), and names a malformed one’s field', async () => {
    const one = { subject: user(approver), permission: 'users:read' };
    for (const checks of [[], Array(101).fill(one)]) {
      const refused = await app.http.post('/permissions/bulk-check', { checks });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'validation_error', field: 'checks' });
    }
    const malformed = await app.http.post('/permissions/bulk-check', { checks: [one, { ...one, permission: 'users' }] });
    expect(malformed.body).toMatchObject({ code: 'validation_error', field: 'checks[1].permission' });
  });
});

describe('POST /roles/check', () => {
  it('answers by role key or id, in the scope’s tenant', async () => {
    const approverRole = await roles.id('approver', tenantA);
    const path = (tenantId: string) => `${inTenant(tenantId)}/roles/check`;
    expect((await app.http.post(path(tenantA), { subject: user(approver), role: 'approver' })).body).toEqual({ allowed: true });
    expect((await app.http.post(path(tenantA), { subject: user(approver), role: approverRole.toUpperCase() })).body).toEqual({ allowed: true });
    expect((await app.http.post(path(tenantB), { subject: user(approver), role: 'approver' })).body).toEqual({ allowed: false });
    expect((await app.http.post(path(tenantA), { subject: user(approver), role: 'tenant_admin' })).body).toEqual({ allowed: false });
    expect((await app.http.post(path(tenantA), { subject: user(approver), role: 'no_such_role' })).body).toEqual({ allowed: false });
    expect((await app.http.post(path(tenantB), { subject: user(billing), role: 'billing' })).body).toEqual({ allowed: true });
    await roles.revoke(approverAssignment);
    expect((await app.http.post(path(tenantA), { subject: user(approver), role: 'approver' })).body).toEqual({ allowed: false });
  });

  it('refuses a malformed role (422 role) and a caller without roles:read (403)', async () => {
    const refused = await app.http.post('/roles/check', { subject: user(approver), role: 'Not A Key' });
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'role' });
    const reader = await issueTestKey(app, { permissions: ['permissions:read'] });
    expect((await reader.post('/roles/check', { subject: user(approver), role: 'member' })).body).toMatchObject({ code: 'forbidden', message: 'Missing permission roles:read' });
  });
});
