import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { issueTestKey } from '../support/keys.ts';
import { TestRoles } from '../support/roles.ts';

/** What tenant-scoped credentials (a tenant's key, a token with `tenant_id`) reach beyond their tenant's own records. */
let app: TestApp;
let appPath: string;
beforeAll(async () => {
  app = await startTestApp();
  appPath = `/applications/${app.root.applicationId}`;
});
afterAll(async () => app?.close());

describe('GET /applications in a tenant scope', () => {
  // API.md: every route works with a tenant-scoped key or a Bearer token's tenant; the key reaches its application.
  it('lists the credentials’ own application, over REST and GraphQL, for a tenant key and a tenant token', async () => {
    const tenantId = await app.createTenant('Listing tenant');
    const user = await app.http.post('/users', { email: 'lister@example.com', tenantId });
    const roles = new TestRoles(app);
    await roles.assign({ type: 'user', id: user.body.id }, await roles.create('application_reader', ['applications:read']), tenantId);
    const bearer = await app.mintAccessToken({ sub: user.body.id, app_id: app.root.applicationId, tenant_id: tenantId });
    for (const client of [await issueTestKey(app, { tenantId, permissions: ['applications:read'] }), app.as({ bearer })]) {
      const rest = await client.get('/applications');
      expect(rest.status, JSON.stringify(rest.body)).toBe(200);
      expect(rest.body).toEqual({ data: [expect.objectContaining({ id: app.root.applicationId })], next: null });
      const gql = await client.graphql('{ applications { data { id } next } }');
      expect(gql.status).toBe(200);
      expect(gql.body.data?.applications).toEqual({ data: [{ id: app.root.applicationId }], next: null });
    }
  });
});

describe('a shared-pool user who belongs to several tenants', () => {
  // Spec, Authentication 5 and Tenancy 6: in `shared` a user has one identity across tenants; credentials for one
  // tenant acting on another tenant get 403. Changing that identity from one tenant changes it in all the others
  // (a new password or e-mail there is an account takeover).
  it('cannot be changed by one tenant’s credentials: 403, nothing changes; application-wide credentials can', async () => {
    const tenantA = await app.createTenant('Identity A');
    const tenantB = await app.createTenant('Identity B');
    const shared = await app.http.post('/users', { email: 'shared-identity@example.com', name: 'Shared', tenantId: tenantA });
    expect((await app.http.patch(`/users/${shared.body.id}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    const keyA = await issueTestKey(app, { tenantId: tenantA, permissions: ['users:*'] });
    for (const change of [{ password: 'Another-Passw0rd' }, { email: 'taken-over@example.com' }, { name: 'Renamed' }]) {
      for (const path of [`/users/${shared.body.id}`, `${appPath}/tenants/${tenantA}/users/${shared.body.id}`]) {
        const refused = await keyA.patch(path, change);
        expect(refused.status, JSON.stringify(change)).toBe(403);
        expect(refused.body.code).toBe('forbidden');
      }
    }
    const viaPath = await app.http.patch(`${appPath}/tenants/${tenantA}/users/${shared.body.id}`, { email: 'taken-over@example.com' });
    expect(viaPath.status).toBe(403);
    expect((await app.http.get(`/users/${shared.body.id}`)).body).toMatchObject({ email: 'shared-identity@example.com', name: 'Shared' });

    // A member of the scope's tenant alone is the tenant's to change; application-wide credentials change anyone.
    const own = await app.http.post('/users', { email: 'only-a@example.com', tenantId: tenantA });
    expect((await keyA.patch(`/users/${own.body.id}`, { name: 'Mine', password: 'Another-Passw0rd' })).status).toBe(200);
    expect((await app.http.patch(`/users/${shared.body.id}`, { name: 'Renamed' })).body.name).toBe('Renamed');
  });

  it('is unlocked only with application-wide credentials: the lock is the account’s, in every tenant', async () => {
    const tenantA = await app.createTenant('Lock A');
    const tenantB = await app.createTenant('Lock B');
    const shared = await app.http.post('/users', { email: 'shared-lock@example.com', tenantId: tenantA });
    expect((await app.http.patch(`/users/${shared.body.id}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    const own = await app.http.post('/users', { email: 'own-lock@example.com', tenantId: tenantA });
    const connection = app.gatehouse.services.orm.em.getConnection();
    await connection.execute(`update app_user set status = 'locked', failed_sign_ins = 5 where id in (?, ?)`, [shared.body.id, own.body.id]);
    await connection.execute(
      `insert into sign_in_failure (application_id, user_id, address, failures, last_failed_at, locked_at) values (?, ?, '203.0.113.1', 5, now(), now())`,
      [app.root.applicationId, shared.body.id],
    );
    const addresses = async () => (await connection.execute('select address from sign_in_failure where user_id = ?', [shared.body.id])).length;
    const keyA = await issueTestKey(app, { tenantId: tenantA, permissions: ['users:*'] });
    const keyB = await issueTestKey(app, { tenantId: tenantB, permissions: ['users:*'] });
    expect((await keyA.post(`/users/${shared.body.id}/unlock`)).body).toMatchObject({ code: 'forbidden' });
    // Another tenant's user is not found.
    expect((await keyB.post(`/users/${own.body.id}/unlock`)).body).toMatchObject({ code: 'not_found', field: 'userId' });
    expect((await app.http.get(`/users/${shared.body.id}`)).body.status).toBe('locked');
    expect((await app.http.get(`/users/${own.body.id}`)).body.status).toBe('locked');
    expect(await addresses()).toBe(1);
    expect((await keyA.post(`/users/${own.body.id}/unlock`)).body.status).toBe('active');
    expect((await app.http.post(`/users/${shared.body.id}/unlock`)).body.status).toBe('active');
    expect(await addresses()).toBe(0);
  });
});
