import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import type { HttpClient } from '../support/http.ts';

/**
 * Switching `authIsolation` moves users between pools (docs/decisions.md, "Tenants and users"): shared → isolated
 * splits a multi-tenant user into one record per tenant and loses nothing; isolated → shared is refused while an
 * e-mail exists in two tenants' pools, and allowed once the duplicates are gone.
 */
let app: TestApp;
let admin: HttpClient;
let appPath: string;
let t1: string;
let t2: string;
let t3: string;

const sql = <T = any>(query: string, params: unknown[] = []) =>
  app.gatehouse.services.orm.em.getConnection().execute<T[]>(query, params);

interface UserBody {
  id: string;
  email: string;
  name: string | null;
  status: string;
  tenantIds: string[];
}

const list = async (path: string): Promise<UserBody[]> => {
  const response = await admin.get(`${path}?pageSize=100`);
  expect(response.status).toBe(200);
  return response.body.data;
};
const inTenant = (tenantId: string) => list(`${appPath}/tenants/${tenantId}/users`);
const isolation = (authIsolation: 'shared' | 'isolated') => admin.patch(appPath, { tenancyConfig: { authIsolation } });

beforeAll(async () => {
  app = await startTestApp();
  const created = await app.http.post('/applications', { name: 'Pools', multiTenant: true });
  admin = app.as({ apiKey: created.body.initialApiKey.secret });
  appPath = `/applications/${created.body.id}`;
  t1 = (await admin.post(`${appPath}/tenants`, { name: 'One' })).body.id;
  t2 = (await admin.post(`${appPath}/tenants`, { name: 'Two' })).body.id;
  t3 = (await admin.post(`${appPath}/tenants`, { name: 'Three' })).body.id;
});
afterAll(async () => app?.close());

describe('user pools across authIsolation switches', () => {
  let multi: UserBody;
  let single: UserBody;
  let loose: UserBody;

  it('shared: one identity, one e-mail per application', async () => {
    multi = (await admin.post('/users', { email: 'Multi@Example.com', name: 'Multi', password: 'Multi password 1', tenantId: t1 })).body;
    multi = (await admin.patch(`/users/${multi.id}`, { tenantIds: [t1, t2] })).body;
    expect(multi.tenantIds).toEqual([t1, t2]);
    single = (await admin.post(`${appPath}/tenants/${t2}/users`, { email: 'single@example.com' })).body;
    loose = (await admin.post('/users', { email: 'loose@example.com' })).body;
    const clash = await admin.post(`${appPath}/tenants/${t3}/users`, { email: 'multi@example.com' });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ code: 'already_exists', field: 'email' });
  });

  it('shared → isolated splits a multi-tenant user into per-tenant records, losing nothing', async () => {
    const before = await list('/users');
    const switched = await isolation('isolated');
    expect(switched.status).toBe(200);
    expect(switched.body.tenancyConfig.authIsolation).toBe('isolated');

    const one = await inTenant(t1);
    const two = await inTenant(t2);
    expect(one).toEqual([expect.objectContaining({ id: multi.id, email: 'Multi@Example.com', name: 'Multi', status: 'active', tenantIds: [t1] })]);
    const copy = two.find((user) => user.email === 'Multi@Example.com');
    expect(copy).toMatchObject({ name: 'Multi', status: 'active', tenantIds: [t2] });
    expect(copy?.id).not.toBe(multi.id);
    expect(two.map((user) => user.id)).toContain(single.id);
    expect(await inTenant(t3)).toEqual([]);

    const after = await list('/users');
    expect(after).toHaveLength(before.length + 1);
    expect(after.find((user) => user.id === loose.id)).toMatchObject({ email: 'loose@example.com', tenantIds: [] });
    // The copy signs in with the same password: the hash went with it.
    const hashes = await sql<{ id: string; pool_id: string; password_hash: string }>(
      'select id, pool_id, password_hash from app_user where email_normalized = ? order by id',
      ['multi@example.com'],
    );
    expect(hashes.map((row) => row.pool_id).sort()).toEqual([t1, t2].sort());
    expect(hashes[0]?.password_hash).toMatch(/^\$argon2id\$/);
    expect(hashes[1]?.password_hash).toBe(hashes[0]?.password_hash);
  });

  it('isolated: the same e-mail may exist once in each tenant', async () => {
    const inOne = await admin.post(`${appPath}/tenants/${t1}/users`, { email: 'same@example.com', name: 'Same in one' });
    expect(inOne.status).toBe(201);
    const inThree = await admin.post('/users', { email: 'SAME@example.com', name: 'Same in three', tenantId: t3 });
    expect(inThree.status).toBe(201);
    expect(inThree.body.id).not.toBe(inOne.body.id);
    const twiceInOne = await admin.post(`${appPath}/tenants/${t1}/users`, { email: 'same@EXAMPLE.com' });
    expect(twiceInOne.status).toBe(409);
    expect(twiceInOne.body.field).toBe('email');
    expect((await inTenant(t1)).map((user) => user.name)).toContain('Same in one');
    expect((await inTenant(t3)).map((user) => user.name)).toEqual(['Same in three']);
  });

  it('isolated → shared is refused with 409 while an e-mail exists in two tenants, and nothing changes', async () => {
    const before = await list('/users');
    const refused = await isolation('shared');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('tenant_auth_data_remains');
    const slug = (id: string) => ({ [t1]: 'one', [t2]: 'two', [t3]: 'three' })[id];
    expect(refused.body.details).toEqual(
      [
        { tenantId: t1, count: 2 },
        { tenantId: t2, count: 1 },
        { tenantId: t3, count: 1 },
      ].map(({ tenantId, count }) => ({ tenantId, tenantSlug: slug(tenantId), kind: 'users_with_duplicate_email', count })),
    );
    expect((await admin.get(appPath)).body.tenancyConfig.authIsolation).toBe('isolated');
    expect(await list('/users')).toEqual(before);
    const pools = await sql<{ n: string }>(`select count(*) as n from app_user where pool_id = '00000000-0000-0000-0000-000000000000' and application_id = ?`, [
      appPath.split('/')[2],
    ]);
    expect(Number(pools[0]?.n)).toBe(1);
  });

  it('is still refused while one duplicate remains, and allowed once none does', async () => {
    const copy = (await inTenant(t2)).find((user) => user.email === 'Multi@Example.com');
    expect((await admin.delete(`${appPath}/tenants/${t2}/users/${copy?.id}`)).status).toBe(204);
    const stillRefused = await isolation('shared');
    expect(stillRefused.status).toBe(409);
    expect(stillRefused.body.details).toEqual([
      expect.objectContaining({ tenantId: t1, kind: 'users_with_duplicate_email', count: 1 }),
      expect.objectContaining({ tenantId: t3, kind: 'users_with_duplicate_email', count: 1 }),
    ]);

    const sameInThree = (await inTenant(t3))[0];
    expect((await admin.delete(`/users/${sameInThree?.id}`)).status).toBe(204);
    const allowed = await isolation('shared');
    expect(allowed.status).toBe(200);
    expect(allowed.body.tenancyConfig.authIsolation).toBe('shared');

    // Everyone kept their tenant; the pool is one again, so e-mails collide across tenants.
    expect((await inTenant(t1)).map((user) => user.email).sort()).toEqual(['Multi@Example.com', 'same@example.com']);
    expect((await inTenant(t2)).map((user) => user.id)).toEqual([single.id]);
    expect((await list('/users')).find((user) => user.id === loose.id)?.tenantIds).toEqual([]);
    const clash = await admin.post(`${appPath}/tenants/${t3}/users`, { email: 'same@example.com' });
    expect(clash.status).toBe(409);
    // And shared-mode memberships can change again.
    const joined = await admin.patch(`/users/${multi.id}`, { tenantIds: [t1, t3] });
    expect(joined.status).toBe(200);
    expect((await inTenant(t3)).map((user) => user.id)).toEqual([multi.id]);
  });
});
