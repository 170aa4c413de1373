import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { forgeCursor, idsPageByPage } from '../support/cursors.ts';
import { issueTestKey } from '../support/keys.ts';
import { makeAdmin, TestRoles } from '../support/roles.ts';
import { APPLICATION_SERIES, countActiveUsers, signInCountCtes } from '../../src/domain/analytics.ts';

let app: TestApp;
let tenants: string;
beforeAll(async () => {
  app = await startTestApp();
  tenants = `/applications/${app.root.applicationId}/tenants`;
});
afterAll(async () => app?.close());

describe('tenants', () => {
  it('creates, reads, renames and lists tenants', async () => {
    const created = await app.http.post(tenants, { name: 'Acme Corp' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Acme Corp', slug: 'acme-corp', applicationId: app.root.applicationId });
    const id = created.body.id as string;
    expect((await app.http.get(`${tenants}/${id}`)).body).toEqual(created.body);
    const renamed = await app.http.patch(`${tenants}/${id}`, { name: 'Acme', slug: 'acme' });
    expect(renamed.body).toMatchObject({ name: 'Acme', slug: 'acme' });
    const list = await app.http.get(tenants);
    expect(list.body.data.map((t: { id: string }) => t.id)).toContain(id);
  });

  it('refuses a duplicate slug with 409 and an invalid one with 422', async () => {
    await app.http.post(tenants, { name: 'Dup', slug: 'dup' });
    const duplicate = await app.http.post(tenants, { name: 'Dup again', slug: 'dup' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ code: 'already_exists', field: 'slug' });
    const invalid = await app.http.post(tenants, { name: 'Bad', slug: 'Not A Slug' });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toMatchObject({ code: 'validation_error', field: 'slug' });
    const noName = await app.http.post(tenants, {});
    expect(noName.status).toBe(422);
    expect(noName.body.field).toBe('name');
  });

  it('refuses a slug spelled as an id, which would name another tenant wherever a client names one by id or slug', async () => {
    const alpha = (await app.http.post(tenants, { name: 'Alpha' })).body.id as string;
    const count = async () => (await app.http.get(`${tenants}?pageSize=100`)).body.data.length;
    const before = await count();
    for (const slug of [alpha, '01890a5d-ac96-474b-bcce-b302099a8057']) {
      const created = await app.http.post(tenants, { name: 'Gamma', slug });
      expect(created.status, slug).toBe(422);
      expect(created.body, slug).toMatchObject({ code: 'validation_error', field: 'slug', message: 'slug may not have the form of an id (a UUID)' });
      const renamed = await app.http.patch(`${tenants}/${alpha}`, { slug });
      expect(renamed.body, slug).toMatchObject({ code: 'validation_error', field: 'slug' });
    }
    expect(await count()).toBe(before);
    // A name spelled as an id gets a slug that is not one.
    const named = await app.http.post(tenants, { name: alpha });
    expect(named.status).toBe(201);
    expect(named.body.slug).toBe(`tenant-${alpha}`);
  });

  it('derives a unique slug from the name when none is sent: a conflict names only a field the client sent', async () => {
    const slugOf = async (body: Record<string, unknown>) => {
      const created = await app.http.post(tenants, body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.slug as string;
    };
    // Names with no Latin letter or digit all derive the fallback `tenant`.
    expect([await slugOf({ name: '東京' }), await slugOf({ name: '大阪' }), await slugOf({ name: 'Москва' })]).toEqual(['tenant', 'tenant-2', 'tenant-3']);
    expect([await slugOf({ name: 'Initech' }), await slugOf({ name: 'INITECH' }), await slugOf({ name: 'initech!' })]).toEqual(['initech', 'initech-2', 'initech-3']);
    // Combining marks left by the decomposition are dropped, not turned into hyphens.
    expect(await slugOf({ name: 'Ünïcödé Crème' })).toBe('unicode-creme');
    // A long name keeps 63 characters with its suffix.
    const long = 'x'.repeat(70);
    expect([await slugOf({ name: long }), await slugOf({ name: long })]).toEqual(['x'.repeat(63), `${'x'.repeat(61)}-2`]);
    // A slug the client sent is never changed: its conflict is still the client's 409.
    const sent = await app.http.post(tenants, { name: 'Initech', slug: 'initech' });
    expect(sent.status).toBe(409);
    expect(sent.body).toMatchObject({ code: 'already_exists', field: 'slug' });
    // Concurrent creations of one name all succeed, each with its own slug.
    const together = await Promise.all(Array.from({ length: 5 }, () => app.http.post(tenants, { name: 'Hooli' })));
    expect(together.map((created) => created.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(together.map((created) => created.body.slug)).size).toBe(5);
  });

  it('counts a name in characters, and refuses one that shows nothing or turns the text around', async () => {
    const emoji = '🦊'.repeat(150);
    const created = await app.http.post(tenants, { name: emoji });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe(emoji);
    for (const name of ['\u200b', '\u202eevil\u202c']) {
      const refused = await app.http.post(tenants, { name });
      expect(refused.status, JSON.stringify(name)).toBe(422);
      expect(refused.body).toMatchObject({ code: 'validation_error', field: 'name' });
      const renamed = await app.http.patch(`${tenants}/${created.body.id}`, { name });
      expect(renamed.body).toMatchObject({ code: 'validation_error', field: 'name' });
    }
  });

  it('paginates with opaque, tamper-evident cursors', async () => {
    for (let i = 0; i < 5; i += 1) await app.http.post(tenants, { name: `Page ${i}` });
    const seen = await idsPageByPage(app.http, tenants, 2);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...seen].sort());
    const first = await app.http.get(`${tenants}?pageSize=1`);
    const forged = forgeCursor(first.body.next);
    const refused = await app.http.get(`${tenants}?cursor=${encodeURIComponent(forged)}`);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'cursor' });
    const foreign = await app.http.get(`/applications?cursor=${encodeURIComponent(first.body.next)}`);
    expect(foreign.status).toBe(422);
    for (const size of ['0', '101', 'abc']) {
      const bad = await app.http.get(`${tenants}?pageSize=${size}`);
      expect(bad.status).toBe(422);
      expect(bad.body.field).toBe('pageSize');
    }
  });

  it('a tenant of another application is not found, and cannot be changed', async () => {
    const other = await app.bootstrapAnother();
    const foreign = app.as({ apiKey: other.apiKey });
    const theirs = await foreign.post(`/applications/${other.applicationId}/tenants`, { name: 'Theirs' });
    const read = await app.http.get(`${tenants}/${theirs.body.id}`);
    expect(read.status).toBe(404);
    const viaTheirApp = await app.http.get(`/applications/${other.applicationId}/tenants/${theirs.body.id}`);
    expect(viaTheirApp.status).toBe(404);
    const del = await app.http.delete(`${tenants}/${theirs.body.id}`);
    expect(del.status).toBe(404);
    expect((await foreign.get(`/applications/${other.applicationId}/tenants/${theirs.body.id}`)).status).toBe(200);
  });

  it('deletes a tenant, and replays the delete for the same Idempotency-Key', async () => {
    const created = await app.http.post(tenants, { name: 'Short lived' });
    const key = crypto.randomUUID();
    const first = await app.http.delete(`${tenants}/${created.body.id}`, { headers: { 'idempotency-key': key } });
    expect(first.status).toBe(204);
    const replay = await app.http.delete(`${tenants}/${created.body.id}`, { headers: { 'idempotency-key': key } });
    expect(replay.status).toBe(204);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const fresh = await app.http.delete(`${tenants}/${created.body.id}`);
    expect(fresh.status).toBe(404);
    const other = await app.http.post(tenants, { name: 'Other' });
    const conflict = await app.http.delete(`${tenants}/${other.body.id}`, { headers: { 'idempotency-key': key } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('idempotency_conflict');
    const badKey = await app.http.delete(`${tenants}/${other.body.id}`, { headers: { 'idempotency-key': 'nope' } });
    expect(badKey.status).toBe(422);
    expect(badKey.body.field).toBe('Idempotency-Key');
    expect((await app.http.get(`${tenants}/${other.body.id}`)).status).toBe(200);
  });

  it('takes its analytics series with it, its shared members’ marks there included; the application’s series and another tenant’s stay', async () => {
    const [doomed, kept] = [(await app.http.post(tenants, { name: 'Measured' })).body.id as string, (await app.http.post(tenants, { name: 'Still measured' })).body.id as string];
    const member = (await app.http.post('/users', { email: 'measured@example.com', tenantId: doomed })).body.id as string;
    expect((await app.http.patch(`/users/${member}`, { tenantIds: [doomed, kept] })).status).toBe(200);
    const { applicationId } = app.root;
    const em = app.gatehouse.services.orm.em.fork();
    await countActiveUsers(em, [doomed, kept].map((tenantId) => ({ applicationId, tenantId, userId: member, day: '2026-03-02' })));
    const { ctes, params } = signInCountCtes([doomed, kept].map((tenantId) => ({ applicationId, tenantId, day: '2026-03-02', method: 'password', succeeded: true })));
    await em.execute(`with ${ctes} select 1`, [...params]);
    const series = async (table: string) =>
      (await app.sql<{ series: string }>(`select distinct scope_tenant_id::text as series from ${table} where application_id = ? order by 1`, [applicationId])).map((row) => row.series);
    const tables = ['analytics_active_user', 'analytics_active_users', 'analytics_sign_ins'];
    for (const table of tables) expect(await series(table), table).toEqual(expect.arrayContaining([APPLICATION_SERIES, doomed, kept]));

    expect((await app.http.delete(`${tenants}/${doomed}`)).status).toBe(204);
    for (const table of tables) {
      const left = await series(table);
      expect(left, table).not.toContain(doomed);
      expect(left, table).toEqual(expect.arrayContaining([APPLICATION_SERIES, kept]));
    }
  });
});

// Deleting is application-level: tenants:delete held only in the tenant (a role assigned on its path: API.md) is not enough.
describe('who may delete a tenant', () => {
  const exists = async (tenantId: string) => (await app.http.get(`${tenants}/${tenantId}`)).status === 200;

  it('not application-wide credentials that hold tenants:delete in that tenant only, nor tenant-bound ones', async () => {
    const roles = new TestRoles(app);
    const tenantId = (await app.http.post(tenants, { name: 'Kept from its own admin' })).body.id as string;
    const other = (await app.http.post(tenants, { name: 'Untouched' })).body.id as string;
    const key = await app.http.post('/api-keys', { name: 'tenant admin on its path', permissions: ['tenants:read'] });
    expect(key.status).toBe(201);
    await roles.assign({ type: 'api_key', id: key.body.key.id }, 'tenant_admin', tenantId);
    const tenantAdmin = app.as({ apiKey: key.body.secret });
    // It is tenant admin there: it may rename the tenant, which is not application-level.
    expect((await tenantAdmin.patch(`${tenants}/${tenantId}`, { name: 'Renamed by its admin' })).status).toBe(200);

    for (const target of [tenantId, other]) {
      const refused = await tenantAdmin.delete(`${tenants}/${target}`);
      expect(refused.status, JSON.stringify(refused.body)).toBe(403);
      expect(refused.body.code).toBe('forbidden');
    }
    const bound = await app.http.post('/api-keys', { name: 'tenant-bound admin', permissions: ['tenants:read'], tenantId });
    await roles.assign({ type: 'api_key', id: bound.body.key.id }, 'tenant_admin', tenantId);
    expect((await app.as({ apiKey: bound.body.secret }).delete(`${tenants}/${tenantId}`)).status).toBe(403);
    const deleteOverGraphql = await tenantAdmin.graphql('mutation($appId: UUID!, $tenantId: UUID!) { deleteTenant(appId: $appId, tenantId: $tenantId) }', {
      appId: app.root.applicationId,
      tenantId,
    });
    expect(deleteOverGraphql.body.errors?.[0]?.extensions?.code).toBe('forbidden');
    expect(await exists(tenantId)).toBe(true);
    expect(await exists(other)).toBe(true);

    // Held application-wide, here through the same role assigned on the application's path, it may.
    await roles.assign({ type: 'api_key', id: key.body.key.id }, 'tenant_admin');
    expect((await tenantAdmin.delete(`${tenants}/${tenantId}`)).status).toBe(204);
    expect(await exists(tenantId)).toBe(false);
    expect((await (await issueTestKey(app, { permissions: ['tenants:delete'] })).delete(`${tenants}/${other}`)).status).toBe(204);
  });

  it('not a tenant admin’s Bearer token, with or without a tenant_id claim; an application admin’s may', async () => {
    const roles = new TestRoles(app);
    const tenantId = (await app.http.post(tenants, { name: 'Kept from a Bearer' })).body.id as string;
    const user = async (email: string, role: string, on: string | null) => {
      const created = await app.http.post('/users', { email, tenantId });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      await roles.assign({ type: 'user', id: created.body.id }, role, on);
      return created.body.id as string;
    };
    const bearer = async (sub: string, claims: { tenant_id?: string } = {}) =>
      app.as({ bearer: await app.mintAccessToken({ sub, app_id: app.root.applicationId, ...claims }) });

    const tenantAdmin = await user('tenant-admin-bearer@example.com', 'tenant_admin', tenantId);
    for (const client of [await bearer(tenantAdmin, { tenant_id: tenantId }), await bearer(tenantAdmin)]) {
      const refused = await client.delete(`${tenants}/${tenantId}`);
      expect(refused.status, JSON.stringify(refused.body)).toBe(403);
    }
    expect(await exists(tenantId)).toBe(true);

    const appAdmin = await user('app-admin-bearer@example.com', 'app_admin', null);
    expect((await (await bearer(appAdmin)).delete(`${tenants}/${tenantId}`)).status).toBe(204);
    expect(await exists(tenantId)).toBe(false);
  });
});

describe('deleting a tenant of an isolated application', () => {
  // Past 100 deleted users the instances forget every cached key at once rather than each user's (forgetUserKeys).
  it.each([0, 100])('stops the API keys of the users it deletes at once, and only theirs (and %i more users)', async (more) => {
    const created = await app.http.post('/applications', { name: 'Isolated', multiTenant: true, tenancyConfig: { authIsolation: 'isolated' } });
    const admin = app.as({ apiKey: created.body.initialApiKey.secret });
    const path = `/applications/${created.body.id}/tenants`;
    const doomed = (await admin.post(path, { name: 'Doomed' })).body.id as string;
    const kept = (await admin.post(path, { name: 'Kept' })).body.id as string;
    const userIn = async (tenantId: string) => (await admin.post('/users', { email: 'same@x.example', tenantId })).body.id as string;
    const [leaving, staying] = [await userIn(doomed), await userIn(kept)];
    for (const [userId, tenantId] of [[leaving, doomed], [staying, kept]] as const) await makeAdmin(app, userId, tenantId, created.body.id);
    // Application-wide keys bound to the users: the tenant's own invalidation does not name them.
    const keyOf = async (userId: string) => (await admin.post('/api-keys', { name: 'bound', permissions: ['users:read'], userId })).body.secret as string;
    const [leavingKey, stayingKey] = [await keyOf(leaving), await keyOf(staying)];
    for (let i = 0; i < more; i += 1) expect((await admin.post('/users', { email: `more-${i}@x.example`, tenantId: doomed })).status).toBe(201);
    // Both authenticate, and so sit in this instance's cache of API keys.
    for (const apiKey of [leavingKey, stayingKey]) expect((await app.as({ apiKey }).get('/users')).status).toBe(200);
    // Both were active: the marks of the users deleted go with them.
    const applicationId = created.body.id as string;
    const activity = [[leaving, doomed], [staying, kept]].map(([userId, tenantId]) => ({ applicationId, tenantId: tenantId!, userId: userId!, day: '2026-03-02' }));
    await countActiveUsers(app.gatehouse.services.orm.em.fork(), activity);
    const marked = async () => (await app.sql<{ user_id: string }>(`select distinct user_id::text from analytics_active_user where application_id = ?`, [applicationId])).map((row) => row.user_id);
    expect((await marked()).sort()).toEqual([leaving, staying].sort());

    expect((await admin.delete(`${path}/${doomed}`)).status).toBe(204);
    expect(await marked()).toEqual([staying]);
    expect((await app.as({ apiKey: leavingKey }).get('/users')).status).toBe(401);
    expect((await app.as({ apiKey: stayingKey }).get('/users')).status).toBe(200);
    expect((await admin.get(`/users/${leaving}`)).status).toBe(404);
    expect((await admin.get(`/users/${staying}`)).status).toBe(200);
  });
});
