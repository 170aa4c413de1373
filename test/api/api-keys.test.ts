import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.ts';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { makeAdmin, TestRoles } from '../support/roles.ts';

let app: TestApp;
let appPath: string;
let tenantA: string;
let tenantB: string;

/** Creates a key with the root credentials and returns its id and secret. */
async function createKey(body: Record<string, unknown>): Promise<{ id: string; secret: string }> {
  const created = await app.http.post('/api-keys', { name: 'test key', ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.key.id, secret: created.body.secret };
}

beforeAll(async () => {
  ({ app, appPath, tenants: [tenantA, tenantB] } = await startTestAppWithTenants(['Tenant A', 'Tenant B']));
});
afterAll(async () => app?.close());

describe('API keys', () => {
  it('creates a key whose secret is shown once, stored only as a hash, and authenticates', async () => {
    const created = await app.http.post('/api-keys', { name: 'CI deploy', permissions: ['users:read', 'users:read', 'tenants:*'] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      key: {
        id: expect.any(String),
        applicationId: app.root.applicationId,
        tenantId: null,
        userId: null,
        name: 'CI deploy',
        permissions: ['users:read', 'tenants:*'],
        expiresAt: null,
        revokedAt: null,
        lastRotatedAt: null,
        createdAt: expect.any(String),
      },
      secret: expect.stringMatching(/^ghk_[A-Za-z0-9_-]{43}$/),
    });
    const { key, secret } = created.body;
    const read = await app.http.get(`/api-keys/${key.id}`);
    expect(read.body).toEqual(key);
    const list = await app.http.get('/api-keys?pageSize=100');
    expect(list.body.data).toContainEqual(key);
    expect(JSON.stringify(list.body)).not.toContain(secret);
    const [row] = await app.sql<{ secret_hash: string }>('select secret_hash from api_key where id = ?', [key.id]);
    expect(row?.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await app.sql('select * from api_key'))).not.toContain(secret);

    const asKey = app.as({ apiKey: secret });
    expect((await asKey.get(`${appPath}/tenants`)).status).toBe(200);
    expect((await asKey.get('/users')).status).toBe(200);
    expect((await asKey.post('/users', { email: 'nope@example.com' })).status).toBe(403);
  });

  it('refuses unknown permissions, an empty list and a missing name with 422', async () => {
    for (const permissions of [['users:fly'], ['nonsense'], ['users:read', 'widgets:read'], []]) {
      const response = await app.http.post('/api-keys', { name: 'bad', permissions });
      expect(response.status, JSON.stringify(permissions)).toBe(422);
      expect(response.body).toMatchObject({ code: 'validation_error', field: 'permissions' });
    }
    const noName = await app.http.post('/api-keys', { permissions: ['users:read'] });
    expect(noName.status).toBe(422);
    expect(noName.body.field).toBe('name');
    const wildcard = await app.http.post('/api-keys', { name: 'ok', permissions: ['users:*', 'api_keys:read'] });
    expect(wildcard.status).toBe(201);
  });

  it('a credential cannot create or rotate a key wider than itself', async () => {
    const narrow = app.as({ apiKey: (await createKey({ permissions: ['users:*', 'api_keys:read', 'api_keys:write'] })).secret });
    const within = await narrow.post('/api-keys', { name: 'narrower', permissions: ['users:read'] });
    expect(within.status).toBe(201);
    expect(within.body.key.permissions).toEqual(['users:read']);
    for (const permissions of [['*'], ['tenants:read'], ['users:read', 'api_keys:delete'], ['api_keys:*']]) {
      const wider = await narrow.post('/api-keys', { name: 'wider', permissions });
      expect(wider.status, JSON.stringify(permissions)).toBe(403);
      expect(wider.body.code).toBe('forbidden');
    }
    const admin = await createKey({ permissions: ['*'] });
    const rotateWider = await narrow.post(`/api-keys/${admin.id}/rotate`);
    expect(rotateWider.status).toBe(403);
    expect((await app.as({ apiKey: admin.secret }).get('/users')).status).toBe(200);
    const rotateOwn = await narrow.post(`/api-keys/${within.body.key.id}/rotate`);
    expect(rotateOwn.status).toBe(200);
  });

  // A key acts with its own list ∪ its roles' (API.md): rotating it hands out all of that, so the caller must hold it.
  it('a credential cannot rotate (and so take over) a key that is wider than itself through its roles', async () => {
    const roles = new TestRoles(app);
    const target = await createKey({ permissions: ['users:read'] });
    await roles.assign({ type: 'api_key', id: target.id }, 'app_admin');
    const narrow = app.as({ apiKey: (await createKey({ permissions: ['api_keys:write', 'users:read'] })).secret });
    expect((await narrow.post('/api-keys', { name: 'wide', permissions: ['*'] })).status).toBe(403);

    const refused = await narrow.post(`/api-keys/${target.id}/rotate`);
    expect(refused.status, JSON.stringify(refused.body)).toBe(403);
    expect(refused.body.code).toBe('forbidden');
    // Nothing changed: the old secret works, with its role's power.
    expect((await app.as({ apiKey: target.secret }).post('/api-keys', { name: 'still admin', permissions: ['*'] })).status).toBe(201);
    expect((await app.http.get(`/api-keys/${target.id}`)).body.lastRotatedAt).toBeNull();

    // A caller that holds as much application-wide, here through the same role, rotates it.
    const peer = await createKey({ permissions: ['users:read'] });
    await roles.assign({ type: 'api_key', id: peer.id }, 'app_admin');
    const rotated = await app.as({ apiKey: peer.secret }).post(`/api-keys/${target.id}/rotate`);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect((await app.as({ apiKey: target.secret }).get('/users')).status).toBe(401);
    expect((await app.as({ apiKey: rotated.body.secret }).get('/api-keys')).status).toBe(200);
  });

  it('counts the roles a key holds in a tenant only, asking the caller for them in that tenant', async () => {
    const roles = new TestRoles(app);
    const tenantAKeys = `${appPath}/tenants/${tenantA}/api-keys`;
    // An application-wide key that is tenant_admin in tenant A through a role assigned on A's path.
    const target = await createKey({ permissions: ['api_keys:write', 'users:read'] });
    await roles.assign({ type: 'api_key', id: target.id }, 'tenant_admin', tenantA);
    // A tenant-bound key, tenant_admin in its tenant.
    const bound = await createKey({ permissions: ['users:read'], tenantId: tenantA });
    await roles.assign({ type: 'api_key', id: bound.id }, 'tenant_admin', tenantA);
    const narrow = app.as({ apiKey: (await createKey({ permissions: ['api_keys:write', 'users:read'] })).secret });
    for (const key of [target, bound]) {
      const refused = await narrow.post(`/api-keys/${key.id}/rotate`);
      expect(refused.status, JSON.stringify(refused.body)).toBe(403);
      expect((await app.as({ apiKey: key.secret }).get(tenantAKeys)).status).toBe(200);
    }
    // Holding the same in tenant A is enough: the key rotates itself, and a tenant admin of A rotates A's key there.
    const rotated = await app.as({ apiKey: target.secret }).post(`/api-keys/${target.id}/rotate`);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const inA = await app.as({ apiKey: rotated.body.secret }).post(`${tenantAKeys}/${bound.id}/rotate`);
    expect(inA.status, JSON.stringify(inA.body)).toBe(200);
    expect((await app.as({ apiKey: bound.secret }).get(tenantAKeys)).status).toBe(401);
  });

  it('a tenant-scoped credential manages only its own tenant’s keys', async () => {
    const tenantKey = app.as({ apiKey: (await createKey({ permissions: ['api_keys:*', 'users:*'], tenantId: tenantA })).secret });
    const own = await tenantKey.post('/api-keys', { name: 'for A', permissions: ['users:read'] });
    expect(own.status).toBe(201);
    expect(own.body.key.tenantId).toBe(tenantA);
    const explicit = await tenantKey.post('/api-keys', { name: 'for A again', permissions: ['users:read'], tenantId: tenantA });
    expect(explicit.status).toBe(201);
    const other = await tenantKey.post('/api-keys', { name: 'for B', permissions: ['users:read'], tenantId: tenantB });
    expect(other.status).toBe(403);
    const appWide = await createKey({ permissions: ['users:read'] });
    const inB = await createKey({ permissions: ['users:read'], tenantId: tenantB });
    const listed = (await tenantKey.get('/api-keys?pageSize=100')).body.data as { id: string; tenantId: string }[];
    expect(listed.map((k) => k.id)).toEqual(expect.arrayContaining([own.body.key.id, explicit.body.key.id]));
    expect(listed.every((k) => k.tenantId === tenantA)).toBe(true);
    for (const id of [appWide.id, inB.id]) {
      expect((await tenantKey.get(`/api-keys/${id}`)).status).toBe(404);
      expect((await tenantKey.delete(`/api-keys/${id}`)).status).toBe(404);
      expect((await tenantKey.post(`/api-keys/${id}/rotate`)).status).toBe(404);
    }
    expect((await app.as({ apiKey: inB.secret }).get('/users')).status).toBe(200);
    // Application-wide credentials see every tenant's keys.
    const all = (await app.http.get('/api-keys?pageSize=100')).body.data.map((k: { id: string }) => k.id);
    expect(all).toEqual(expect.arrayContaining([own.body.key.id, appWide.id, inB.id]));
  });

  it('checks the tenant, user and expiry of a new key', async () => {
    const unknownTenant = await app.http.post('/api-keys', { name: 'x', permissions: ['users:read'], tenantId: newId() });
    expect(unknownTenant.status).toBe(404);
    expect(unknownTenant.body).toMatchObject({ code: 'not_found', field: 'tenantId' });
    const unknownUser = await app.http.post('/api-keys', { name: 'x', permissions: ['users:read'], userId: newId() });
    expect(unknownUser.status).toBe(404);
    expect(unknownUser.body).toMatchObject({ code: 'not_found', field: 'userId' });
    const other = await app.bootstrapAnother();
    const theirUser = (await app.as({ apiKey: other.apiKey }).post('/users', { email: 'theirs@example.com' })).body.id;
    const foreignUser = await app.http.post('/api-keys', { name: 'x', permissions: ['users:read'], userId: theirUser });
    expect(foreignUser.status).toBe(404);
    expect(foreignUser.body.field).toBe('userId');

    const member = (await app.http.post(`${appPath}/tenants/${tenantA}/users`, { email: 'member@example.com' })).body.id;
    const notMember = await app.http.post('/api-keys', { name: 'x', permissions: ['users:read'], tenantId: tenantB, userId: member });
    expect(notMember.status).toBe(422);
    expect(notMember.body.field).toBe('userId');
    const bound = await app.http.post('/api-keys', { name: 'user-bound', permissions: ['users:read'], tenantId: tenantA, userId: member });
    expect(bound.status).toBe(201);
    expect(bound.body.key).toMatchObject({ userId: member, tenantId: tenantA });

    const past = await app.http.post('/api-keys', { name: 'x', permissions: ['users:read'], expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect(past.status).toBe(422);
    expect(past.body).toMatchObject({ code: 'validation_error', field: 'expiresAt' });
    const notADate = await app.http.post('/api-keys', { name: 'x', permissions: ['users:read'], expiresAt: 'tomorrow' });
    expect(notADate.status).toBe(422);
    expect(notADate.body.field).toBe('expiresAt');
    // An offset reaches past the last four-digit year, which PostgreSQL's timestamps are not written from.
    const pastTheYears = await app.http.post('/api-keys', { name: 'x', permissions: ['users:read'], expiresAt: '9999-12-31T23:59:59-23:59' });
    expect(pastTheYears.body).toMatchObject({ code: 'validation_error', field: 'expiresAt' });
    const lastInstant = await app.http.post('/api-keys', { name: 'x', permissions: ['users:read'], expiresAt: '9999-12-31T23:59:59.999Z' });
    expect(lastInstant.status).toBe(201);
    const later = new Date(Date.now() + 3600_000).toISOString();
    const future = await app.http.post('/api-keys', { name: 'x', permissions: ['users:read'], expiresAt: later });
    expect(future.status).toBe(201);
    expect(future.body.key.expiresAt).toBe(later);
  });

  it('a key whose expiry is still ahead authenticates every time, from the database and from the cache', async () => {
    const key = await createKey({ permissions: ['users:read'], expiresAt: new Date(Date.now() + 3600_000).toISOString() });
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await app.as({ apiKey: key.secret }).get('/users')).status);
    expect(statuses).toEqual([200, 200, 200, 200]);
  });

  it('a key that expires cannot create one that outlives it: the new key takes its expiry, a later one is refused', async () => {
    const ends = new Date(Date.now() + 3600_000).toISOString();
    const expiring = app.as({ apiKey: (await createKey({ permissions: ['api_keys:read', 'api_keys:write'], expiresAt: ends })).secret });
    const inherited = await expiring.post('/api-keys', { name: 'child', permissions: ['api_keys:read'] });
    expect(inherited.status, JSON.stringify(inherited.body)).toBe(201);
    expect(inherited.body.key.expiresAt).toBe(ends);
    const later = await expiring.post('/api-keys', { name: 'child', permissions: ['api_keys:read'], expiresAt: new Date(Date.now() + 7200_000).toISOString() });
    expect(later.status).toBe(403);
    expect(later.body.code).toBe('forbidden');
    const sooner = new Date(Date.now() + 1800_000).toISOString();
    const earlier = await expiring.post('/api-keys', { name: 'child', permissions: ['api_keys:read'], expiresAt: sooner });
    expect([earlier.status, earlier.body.key?.expiresAt]).toEqual([201, sooner]);
    // A key without an expiry creates keys without one.
    expect((await app.http.post('/api-keys', { name: 'free', permissions: ['api_keys:read'] })).body.key.expiresAt).toBeNull();
  });

  it('a key that expires cannot rotate a key that outlives it: the new secret would outlive it too', async () => {
    const ends = new Date(Date.now() + 3600_000);
    const expiring = app.as({ apiKey: (await createKey({ permissions: ['api_keys:read', 'api_keys:write'], expiresAt: ends.toISOString() })).secret });
    const forever = await createKey({ permissions: ['api_keys:read'] });
    const later = await createKey({ permissions: ['api_keys:read'], expiresAt: new Date(ends.getTime() + 3600_000).toISOString() });
    for (const target of [forever, later]) {
      const rotated = await expiring.post(`/api-keys/${target.id}/rotate`);
      expect(rotated.status, JSON.stringify(rotated.body)).toBe(403);
      expect(rotated.body).toMatchObject({ code: 'forbidden' });
      expect((await app.as({ apiKey: target.secret }).get('/api-keys')).status).toBe(200);
    }
    const sooner = await createKey({ permissions: ['api_keys:read'], expiresAt: new Date(ends.getTime() - 60_000).toISOString() });
    expect((await expiring.post(`/api-keys/${sooner.id}/rotate`)).status).toBe(200);
  });

  it('an expired key authenticates as nothing, introspects inactive and cannot be rotated', async () => {
    const key = await createKey({ permissions: ['users:read'], expiresAt: new Date(Date.now() + 3600_000).toISOString() });
    expect((await app.as({ apiKey: key.secret }).get('/users')).status).toBe(200);
    // Time passes in SQL: the instance's cache, which checks the expiry it read on every use (test/unit), is told.
    await app.sql(`update api_key set expires_at = now() - interval '1 second' where id = ?`, [key.id]);
    await app.gatehouse.services.invalidations.publish({ kind: 'api_key', id: key.id });
    const expired = await app.as({ apiKey: key.secret }).get('/users');
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('unauthenticated');
    expect((await app.http.post('/api-keys/introspect', { secret: key.secret })).body).toEqual({ active: false, key: null });
    const rotate = await app.http.post(`/api-keys/${key.id}/rotate`);
    expect(rotate.status).toBe(422);
    expect(rotate.body.field).toBe('keyId');
  });

  it('revokes a key: 204, then 401 for it; revoking again changes nothing', async () => {
    const key = await createKey({ permissions: ['users:read'] });
    const revoked = await app.http.delete(`/api-keys/${key.id}`);
    expect(revoked.status).toBe(204);
    expect(revoked.body).toBe('');
    const refused = await app.as({ apiKey: key.secret }).get('/users');
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('unauthenticated');
    const read = (await app.http.get(`/api-keys/${key.id}`)).body;
    expect(Date.parse(read.revokedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await app.http.delete(`/api-keys/${key.id}`)).status).toBe(204);
    expect((await app.http.get(`/api-keys/${key.id}`)).body.revokedAt).toBe(read.revokedAt);
    const rotate = await app.http.post(`/api-keys/${key.id}/rotate`);
    expect(rotate.status).toBe(422);
    expect(rotate.body).toMatchObject({ code: 'validation_error', field: 'keyId' });
    expect((await app.http.delete(`/api-keys/${newId()}`)).status).toBe(404);
    const audit = await app.sql<{ action: string }>('select action from audit_log where target_id = ? order by id', [key.id]);
    expect(audit.map((row) => row.action)).toEqual(['api_key.created', 'api_key.revoked']);
  });

  it('a user-bound key holds nothing while its user may not act, as it authenticates as nothing', async () => {
    const user = (await app.http.post('/users', { email: 'bound-holder@example.com' })).body.id;
    await makeAdmin(app, user);
    const key = await createKey({ permissions: ['users:read'], userId: user });
    const asKey = app.as({ apiKey: key.secret });
    const subject = { type: 'api_key', id: key.id };
    const check = async () => (await app.http.post('/permissions/check', { subject, permission: 'users:read' })).body;
    expect(await check()).toEqual({ allowed: true, roles: [] });
    expect((await app.http.post(`/users/${user}/suspend`)).status).toBe(200);
    expect((await asKey.get('/users')).status).toBe(401);
    expect(await check()).toEqual({ allowed: false, roles: [] });
    expect((await app.http.post('/permissions/bulk-check', { checks: [{ subject, permission: 'users:read' }] })).body).toEqual({ results: [{ allowed: false }] });
    expect((await app.http.post(`/users/${user}/activate`)).status).toBe(200);
    expect(await check()).toEqual({ allowed: true, roles: [] });
    expect((await asKey.get('/users')).status).toBe(200);
  });

  it('a key may revoke itself', async () => {
    const key = await createKey({ permissions: ['api_keys:delete'] });
    const self = app.as({ apiKey: key.secret });
    expect((await self.delete(`/api-keys/${key.id}`)).status).toBe(204);
    expect((await self.delete(`/api-keys/${key.id}`)).status).toBe(401);
  });

  it('rotates a key: a new secret works, the old one stops at once; replays return the same secret', async () => {
    const key = await createKey({ permissions: ['users:read'] });
    const idempotencyKey = crypto.randomUUID();
    const rotated = await app.http.post(`/api-keys/${key.id}/rotate`, undefined, { headers: { 'idempotency-key': idempotencyKey } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.key).toMatchObject({ id: key.id, permissions: ['users:read'], revokedAt: null });
    expect(Date.parse(rotated.body.key.lastRotatedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(rotated.body.secret).toMatch(/^ghk_/);
    expect(rotated.body.secret).not.toBe(key.secret);
    expect((await app.as({ apiKey: key.secret }).get('/users')).status).toBe(401);
    expect((await app.as({ apiKey: rotated.body.secret }).get('/users')).status).toBe(200);

    const replay = await app.http.post(`/api-keys/${key.id}/rotate`, undefined, { headers: { 'idempotency-key': idempotencyKey } });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(rotated.body);
    expect((await app.as({ apiKey: rotated.body.secret }).get('/users')).status).toBe(200);
    // The replay store keeps neither the secret nor the Idempotency-Key readable.
    const stored = JSON.stringify(await app.sql('select * from idempotency_record'));
    expect(stored).not.toContain(rotated.body.secret);
    expect(stored).not.toContain(idempotencyKey);

    const again = await app.http.post(`/api-keys/${key.id}/rotate`);
    expect(again.body.secret).not.toBe(rotated.body.secret);
    expect((await app.as({ apiKey: rotated.body.secret }).get('/users')).status).toBe(401);
    const conflict = await app.http.post(`/api-keys/${newId()}/rotate`, undefined, { headers: { 'idempotency-key': idempotencyKey } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('idempotency_conflict');
  });

  it('introspects a secret: active only for a working key of the caller’s own scope', async () => {
    const key = await createKey({ permissions: ['users:read'], tenantId: tenantA });
    const active = await app.http.post('/api-keys/introspect', { secret: key.secret });
    expect(active.status).toBe(200);
    expect(active.body).toEqual({ active: true, key: expect.objectContaining({ id: key.id, tenantId: tenantA, permissions: ['users:read'] }) });
    expect(JSON.stringify(active.body)).not.toContain(key.secret);
    const inactive = { active: false, key: null };
    expect((await app.http.post('/api-keys/introspect', { secret: 'ghk_unknown' })).body).toEqual(inactive);
    expect((await app.http.post(`${appPath}/tenants/${tenantB}/api-keys/introspect`, { secret: key.secret })).body).toEqual(inactive);
    expect((await app.http.post(`${appPath}/tenants/${tenantA}/api-keys/introspect`, { secret: key.secret })).body.active).toBe(true);
    const other = await app.bootstrapAnother();
    expect((await app.http.post('/api-keys/introspect', { secret: other.apiKey })).body).toEqual(inactive);
    expect((await app.as({ apiKey: other.apiKey }).post('/api-keys/introspect', { secret: key.secret })).body).toEqual(inactive);
    await app.http.delete(`/api-keys/${key.id}`);
    expect((await app.http.post('/api-keys/introspect', { secret: key.secret })).body).toEqual(inactive);
    const noRead = app.as({ apiKey: (await createKey({ permissions: ['users:read'] })).secret });
    expect((await noRead.post('/api-keys/introspect', { secret: key.secret })).status).toBe(403);
    const missing = await app.http.post('/api-keys/introspect', {});
    expect(missing.status).toBe(422);
    expect(missing.body.field).toBe('secret');
  });

  it('enforces api_keys:read, api_keys:write and api_keys:delete', async () => {
    const target = await createKey({ permissions: ['users:read'] });
    const reader = app.as({ apiKey: (await createKey({ permissions: ['api_keys:read', 'users:read'] })).secret });
    expect((await reader.get('/api-keys')).status).toBe(200);
    expect((await reader.get(`/api-keys/${target.id}`)).status).toBe(200);
    expect((await reader.post('/api-keys', { name: 'x', permissions: ['users:read'] })).status).toBe(403);
    expect((await reader.post(`/api-keys/${target.id}/rotate`)).status).toBe(403);
    expect((await reader.delete(`/api-keys/${target.id}`)).status).toBe(403);
    expect((await app.http.get(`/api-keys/${target.id}`)).body.revokedAt).toBeNull();
    const none = app.as({ apiKey: (await createKey({ permissions: ['users:read'] })).secret });
    expect((await none.get('/api-keys')).status).toBe(403);
  });

  it('another application’s key is not found', async () => {
    const other = await app.bootstrapAnother();
    const theirs = (await app.as({ apiKey: other.apiKey }).post('/api-keys', { name: 'theirs', permissions: ['users:read'] })).body;
    expect((await app.http.get(`/api-keys/${theirs.key.id}`)).status).toBe(404);
    expect((await app.http.delete(`/api-keys/${theirs.key.id}`)).status).toBe(404);
    expect((await app.http.post(`/api-keys/${theirs.key.id}/rotate`)).status).toBe(404);
    expect((await app.http.get(`/applications/${other.applicationId}/api-keys`)).status).toBe(404);
    expect((await app.as({ apiKey: theirs.secret }).get('/users')).status).toBe(200);
  });

  it('serves the same operations over GraphQL', async () => {
    const created = await app.http.graphql(
      'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { key { id permissions } secret } }',
      { input: { name: 'gql', permissions: ['users:read'] } },
    );
    expect(created.body.errors).toBeUndefined();
    const { key, secret } = created.body.data.createApiKey;
    const introspected = await app.http.graphql(
      'mutation($s: String!) { introspectApiKey(input: { secret: $s }) { active key { id } } }',
      { s: secret },
    );
    expect(introspected.body.data.introspectApiKey).toEqual({ active: true, key: { id: key.id } });
    const revoked = await app.http.graphql('mutation($id: UUID!) { revokeApiKey(keyId: $id) { id revokedAt } }', { id: key.id });
    expect(revoked.body.data.revokeApiKey.revokedAt).not.toBeNull();
    const bad = await app.http.graphql('mutation { createApiKey(input: { name: "x", permissions: ["root"] }) { secret } }');
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'permissions' });
  });
});
