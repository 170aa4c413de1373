import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKey, User } from '../../src/db/entities/index.ts';
import { SHARED_POOL } from '../../src/db/entities/user.entity.ts';
import { keySnapshot } from '../../src/domain/api-keys/issue.ts';
import { userSnapshot } from '../../src/domain/users/users.ts';
import { isUuid, NEW_ID_SQL } from '../../src/ids.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshApplication } from '../support/applications.ts';
import { auditRecordsOf, traced } from '../support/audit.ts';

/**
 * Records created, changed or deleted as side effects of another mutation get their own audit records, in the same
 * transaction, as if changed on their own: an application's initial key, the user copies of a pool split and the
 * keys it moves to them, the users a tenant deletion deletes or takes out of the tenant.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

describe('audit records of side effects', () => {
  it('creating an application records its password provider and initial key in the new application', async () => {
    const { requestId, headers } = traced();
    const created = await app.http.post('/applications', { name: 'With a key', multiTenant: false }, { headers });
    expect(created.status).toBe(201);
    const [password] = (await app.as({ apiKey: created.body.initialApiKey.secret as string }).get('/auth-providers')).body.data as { id: string }[];
    expect(await auditRecordsOf(app, requestId)).toEqual([
      expect.objectContaining({ applicationId: app.root.applicationId, action: 'application.created', targetId: created.body.id }),
      expect.objectContaining({
        applicationId: created.body.id,
        tenantId: null,
        action: 'auth_provider.created',
        targetType: 'auth_provider',
        targetId: password!.id,
        before: null,
        after: expect.objectContaining({ type: 'password', enabled: true, config: { allowSignup: true, requireEmailVerification: true } }),
      }),
      expect.objectContaining({
        applicationId: created.body.id,
        tenantId: null,
        action: 'api_key.created',
        targetType: 'api_key',
        targetId: created.body.initialApiKey.key.id,
        before: null,
        after: expect.objectContaining({ name: 'Initial app_admin key', tenantId: null, userId: null, revokedAt: null }),
      }),
    ]);
    expect(JSON.stringify(await auditRecordsOf(app, requestId))).not.toContain(created.body.initialApiKey.secret);
  });

  it('a refused creation records nothing', async () => {
    const { requestId, headers } = traced();
    const refused = await app.http.post('/applications', { name: 'Single', multiTenant: false, tenancyConfig: {} }, { headers });
    expect(refused.status).toBe(422);
    expect(await auditRecordsOf(app, requestId)).toEqual([]);
  });

  it('shared → isolated records each user copy, and each key moved to a copy', async () => {
    const { admin: client, applicationId, appPath: path, tenants: [one, two] } = await freshApplication(app, { tenants: ['One', 'Two'] });
    const alice = (await client.post('/users', { email: 'alice@x.example', name: 'Alice', tenantId: one })).body.id as string;
    await client.patch(`/users/${alice}`, { tenantIds: [one, two] });
    const loner = (await client.post('/users', { email: 'loner@x.example', tenantId: one })).body.id as string;
    const key = (await client.post('/api-keys', { name: 'alice-two', permissions: ['users:read'], tenantId: two, userId: alice })).body.key.id as string;
    const lonerKey = (await client.post('/api-keys', { name: 'loner', permissions: ['users:read'], userId: loner })).body.key.id as string;

    const { requestId, headers } = traced();
    expect((await client.patch(path, { tenancyConfig: { authIsolation: 'isolated' } }, { headers })).status).toBe(200);
    const copy = (await client.get(`${path}/tenants/${two}/users`)).body.data[0].id as string;
    const records = await auditRecordsOf(app, requestId);
    expect(records.map((record) => record.action).sort()).toEqual(['api_key.rebound', 'api_key.rebound', 'tenancy_config.updated', 'user.copied', 'user.updated', 'user.updated']);
    expect(records.find((record) => record.action === 'user.copied')).toEqual(
      expect.objectContaining({
        applicationId,
        tenantId: two,
        action: 'user.copied',
        targetType: 'user',
        targetId: copy,
        before: null,
        after: { email: 'alice@x.example', name: 'Alice', status: 'active', tenantIds: [two], poolId: two, hasPassword: false, emailVerified: true, metadata: {}, copiedFrom: alice },
      }),
    );
    // The key's snapshots, written by SQL, are the entity's (keySnapshot), but for the user.
    const moved = keySnapshot(await app.gatehouse.services.orm.em.fork().findOneOrFail(ApiKey, { id: key }, { filters: false }));
    expect(moved.userId).toBe(copy);
    expect(records.find((record) => record.action === 'api_key.rebound')).toEqual(
      expect.objectContaining({
        applicationId,
        tenantId: two,
        action: 'api_key.rebound',
        targetType: 'api_key',
        targetId: key,
        before: { ...moved, userId: alice },
        after: moved,
      }),
    );
    // Each original moves to its first tenant's pool, recorded as the change it is to them; a user of one tenant is
    // moved, not copied, and their application-wide key becomes their tenant's.
    const moves = records.filter((record) => record.action === 'user.updated').sort((a, b) => String(a.targetId).localeCompare(String(b.targetId)));
    const snapshot = (id: string, email: string, tenantIds: string[], poolId: string) => ({ email, name: id === alice ? 'Alice' : null, status: 'active', tenantIds, poolId, hasPassword: false, emailVerified: true, metadata: {} });
    expect(moves).toEqual(
      [
        { id: alice, email: 'alice@x.example', tenantIds: [one, two] },
        { id: loner, email: 'loner@x.example', tenantIds: [one] },
      ]
        .sort((a, b) => a.id.localeCompare(b.id))
        .map(({ id, email, tenantIds }) =>
          expect.objectContaining({ tenantId: one, targetType: 'user', targetId: id, before: snapshot(id, email, tenantIds, SHARED_POOL), after: snapshot(id, email, [one], one) }),
        ),
    );
    expect(records.filter((record) => record.targetId === loner).map((record) => record.action)).toEqual(['user.updated']);
    const bound = keySnapshot(await app.gatehouse.services.orm.em.fork().findOneOrFail(ApiKey, { id: lonerKey }, { filters: false }));
    expect(bound).toMatchObject({ tenantId: one, userId: loner });
    expect(records.find((record) => record.targetId === lonerKey)).toEqual(
      expect.objectContaining({ tenantId: one, action: 'api_key.rebound', before: { ...bound, tenantId: null }, after: bound }),
    );
  });

  it('deleting a tenant records each user of its pool it deletes, and each shared user it takes out of the tenant', async () => {
    const { admin: client, applicationId, appPath: path, tenants: [one, two] } = await freshApplication(app, { tenants: ['One', 'Two'] });
    const shared = (await client.post('/users', { email: 'shared@x.example', tenantId: two })).body.id as string;
    const { requestId: sharedRequest, headers: sharedHeaders } = traced();
    expect((await client.delete(`${path}/tenants/${two}`, { headers: sharedHeaders })).status).toBe(204);
    // Records of one request made within the same millisecond, by PostgreSQL (the bulk) and by the service, have no
    // order among themselves: compared by action.
    const sharedRecords = (await auditRecordsOf(app, sharedRequest)).map((record) => [record.action, record.targetId, record.tenantId]);
    expect(sharedRecords.sort(([a], [b]) => String(a).localeCompare(String(b)))).toEqual([
      ['tenant.deleted', two, two],
      ['user.membership.removed', shared, two],
    ]);
    expect((await client.get(`/users/${shared}`)).body.tenantIds).toEqual([]);

    expect((await client.patch(path, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const users = [];
    for (const email of ['a@x.example', 'b@x.example']) users.push((await client.post('/users', { email, tenantId: one })).body.id as string);
    const { requestId, headers } = traced();
    expect((await client.delete(`${path}/tenants/${one}`, { headers })).status).toBe(204);
    const records = await auditRecordsOf(app, requestId);
    expect(records.filter((record) => record.action === 'tenant.deleted')).toHaveLength(1);
    // One statement writes them all: their order among themselves is not their users'.
    const deletions = records.filter((record) => record.action === 'user.deleted').sort((a, b) => String(a.targetId).localeCompare(String(b.targetId)));
    expect(deletions).toEqual(
      users.map((id, i) =>
        expect.objectContaining({
          applicationId,
          tenantId: one,
          action: 'user.deleted',
          targetType: 'user',
          targetId: id,
          before: expect.objectContaining({ email: ['a@x.example', 'b@x.example'][i], poolId: one, tenantIds: [one] }),
          after: null,
        }),
      ),
    );
  });

  it('a tenant deletion snapshots each user exactly as a deletion of that user alone would', async () => {
    const { admin: client, appPath: path, tenants: [one, two] } = await freshApplication(app, { tenants: ['One', 'Two'] });
    const three = (await client.post(`${path}/tenants`, { name: 'Three' })).body.id as string;
    const member = (await client.post('/users', { email: 'Member@X.example', name: 'Mem Ber', password: 'Correct-Horse-9', tenantId: one })).body.id as string;
    await client.patch(`/users/${member}`, { tenantIds: [one, two, three] });
    const snapshotOf = async (id: string) => userSnapshot((await app.gatehouse.services.orm.em.fork().findOneOrFail(User, { id }, { filters: false })));

    // One membership removed on its own (the entity's snapshot), then another by the tenant's deletion (SQL's).
    const alone = traced();
    expect((await client.delete(`${path}/tenants/${one}/users/${member}`, { headers: alone.headers })).status).toBe(204);
    const [single] = await auditRecordsOf(app, alone.requestId);
    const beforeTenantDeletion = await snapshotOf(member);
    expect(single?.after).toEqual(beforeTenantDeletion);
    const bulk = traced();
    expect((await client.delete(`${path}/tenants/${two}`, { headers: bulk.headers })).status).toBe(204);
    const removal = (await auditRecordsOf(app, bulk.requestId)).find((record) => record.action === 'user.membership.removed');
    expect(removal).toMatchObject({ targetId: member, tenantId: two, before: beforeTenantDeletion, after: await snapshotOf(member) });
    expect(removal?.after).toEqual({ ...beforeTenantDeletion, tenantIds: [three] });

    // Users of an isolated pool deleted with their tenant (the member moved to the pool of their one tenant left).
    expect((await client.patch(path, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const pooled = (await client.post('/users', { email: 'pooled@x.example', tenantId: three })).body.id as string;
    const expected = [{ targetId: member, before: await snapshotOf(member) }, { targetId: pooled, before: await snapshotOf(pooled) }];
    const deletion = traced();
    expect((await client.delete(`${path}/tenants/${three}`, { headers: deletion.headers })).status).toBe(204);
    const deletions = (await auditRecordsOf(app, deletion.requestId)).filter((record) => record.action === 'user.deleted');
    expect(deletions.sort((a, b) => String(a.targetId).localeCompare(String(b.targetId)))).toMatchObject(expected.map((user) => ({ ...user, after: null })));
  });

  it('shared → isolated costs the same statements with 1 user in two tenants or 30', async () => {
    const statementsOfSplit = async (users: number) => {
      const { admin: client, appPath: path, tenants: [one, two] } = await freshApplication(app, { tenants: ['One', 'Two'] });
      const ids: string[] = [];
      for (let i = 0; i < users; i += 1) {
        const id = (await client.post('/users', { email: `s${i}@x.example`, password: 'Correct-Horse-9', tenantId: one })).body.id as string;
        expect((await client.patch(`/users/${id}`, { tenantIds: [one, two] })).status).toBe(200);
        expect((await client.post('/api-keys', { name: `k${i}`, permissions: ['users:read'], tenantId: two, userId: id })).status).toBe(201);
        ids.push(id);
      }
      app.queries.length = 0;
      expect((await client.patch(path, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
      const count = app.queries.length;
      // Each user stays in the first tenant and has a copy in the second, whose key moved to it.
      expect((await client.get(`${path}/tenants/${one}/users?pageSize=100`)).body.data.map((user: { id: string }) => user.id).sort()).toEqual([...ids].sort());
      const copies = (await client.get(`${path}/tenants/${two}/users?pageSize=100`)).body.data as { id: string; tenantIds: string[] }[];
      expect(copies).toHaveLength(users);
      expect(copies.every((copy) => !ids.includes(copy.id) && copy.tenantIds.length === 1 && copy.tenantIds[0] === two)).toBe(true);
      const keys = (await client.get(`${path}/tenants/${two}/api-keys?pageSize=100`)).body.data as { userId: string }[];
      expect(keys.map((k) => k.userId).sort()).toEqual(copies.map((copy) => copy.id).sort());
      return count;
    };
    expect(await statementsOfSplit(30)).toBe(await statementsOfSplit(1));
  });

  it('deleting a tenant costs the same statements with 1 user or 30', async () => {
    // The deletion's transaction only: whether the key's grants are read before it depends on when the cache heard of
    // the last user's creation, which is not what this measures.
    const transaction = (queries: readonly string[]) => queries.slice(queries.indexOf('begin'), queries.lastIndexOf('commit') + 1);
    const statementsOfDeletion = async (isolated: boolean, users: number) => {
      const { admin: client, appPath: path, tenants: [one] } = await freshApplication(app, { tenants: ['One', 'Two'] });
      if (isolated) expect((await client.patch(path, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
      for (let i = 0; i < users; i += 1) expect((await client.post('/users', { email: `u${i}@x.example`, tenantId: one })).status).toBe(201);
      app.queries.length = 0;
      expect((await client.delete(`${path}/tenants/${one}`)).status).toBe(204);
      const count = transaction(app.queries).length;
      expect(count).toBeGreaterThan(2);
      expect((await client.get(`${path}/tenants/${one}/users`)).status).toBe(404);
      expect((await client.get('/users?pageSize=100')).body.data).toHaveLength(isolated ? 0 : users);
      return count;
    };
    for (const isolated of [false, true]) {
      expect(await statementsOfDeletion(isolated, 30)).toBe(await statementsOfDeletion(isolated, 1));
    }
  });

  it('ids made by PostgreSQL for such records are UUIDv7 of the moment', async () => {
    const before = Date.now();
    const [row] = await app.sql<{ id: string }>(`select ${NEW_ID_SQL} as id`);
    const id = row!.id;
    expect(isUuid(id)).toBe(true);
    const millis = parseInt(id.replaceAll('-', '').slice(0, 12), 16);
    expect(millis).toBeGreaterThanOrEqual(before - 1000);
    expect(millis).toBeLessThanOrEqual(Date.now() + 1000);
  });
});
