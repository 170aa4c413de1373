import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHeldGrants } from '../../src/domain/authorization/held-roles.ts';
import { mayActNow, readSignInUser } from '../../src/domain/users/sign-in-user.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshApplication } from '../support/applications.ts';
import { HttpClient } from '../support/http.ts';
import { makeAdmin } from '../support/roles.ts';

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
    const hashes = await app.sql<{ id: string; pool_id: string; password_hash: string }>(
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
    const pools = await app.sql<{ n: string }>(`select count(*) as n from app_user where pool_id = '00000000-0000-0000-0000-000000000000' and application_id = ?`, [
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

describe('an e-mail in a tenant pool and in the application pool', () => {
  it('isolated → shared is refused with 409 naming the tenant, and nothing changes; allowed once the duplicate is gone', async () => {
    const { admin: client, appPath: path, tenants: [one], switchTo } = await freshApplication(app, { tenants: ['One', 'Two'] });
    const loose = await client.post('/users', { email: 'bob@x.example' });
    expect(loose.status).toBe(201);
    expect((await switchTo('isolated')).status).toBe(200);
    const tenantBob = await client.post('/users', { email: 'Bob@x.example', tenantId: one });
    expect(tenantBob.status).toBe(201);

    const before = (await client.get('/users?pageSize=100')).body;
    const refused = await switchTo('shared');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'tenant_auth_data_remains', field: 'tenancyConfig.authIsolation' });
    expect(refused.body.details).toEqual([{ tenantId: one, tenantSlug: 'one', kind: 'users_with_duplicate_email', count: 1 }]);
    expect((await client.get(path)).body.tenancyConfig.authIsolation).toBe('isolated');
    expect((await client.get('/users?pageSize=100')).body).toEqual(before);

    expect((await client.delete(`/users/${tenantBob.body.id}`)).status).toBe(204);
    expect((await switchTo('shared')).status).toBe(200);
    expect((await client.get(`/users/${loose.body.id}`)).body).toMatchObject({ email: 'bob@x.example', tenantIds: [] });
  });
});

describe('tenant keys of a user split into copies', () => {
  it('move to the copy in their tenant, and go with it; keys for the first tenant stay, application-wide keys become its keys', async () => {
    const { admin: client, appPath: path, tenants: [one, two], switchTo, applicationId } = await freshApplication(app, { tenants: ['One', 'Two'] });
    const alice = (await client.post('/users', { email: 'alice@x.example', tenantId: one })).body.id as string;
    expect((await client.patch(`/users/${alice}`, { tenantIds: [one, two] })).status).toBe(200);
    for (const tenantId of [one, two]) await makeAdmin(app, alice, tenantId, applicationId);
    const issue = async (name: string, tenantId?: string) =>
      (await client.post('/api-keys', { name, permissions: ['users:read'], userId: alice, ...(tenantId === undefined ? {} : { tenantId }) })).body;
    const inTwo = await issue('alice-two', two);
    const inOne = await issue('alice-one', one);
    const appWide = await issue('alice-app');

    expect((await switchTo('isolated')).status).toBe(200);
    const copy = (await client.get(`${path}/tenants/${two}/users`)).body.data[0];
    expect(copy).toMatchObject({ email: 'alice@x.example', tenantIds: [two] });
    expect(copy.id).not.toBe(alice);
    expect((await client.get(`/api-keys/${inTwo.key.id}`)).body).toMatchObject({ tenantId: two, userId: copy.id });
    expect((await client.get(`/api-keys/${inOne.key.id}`)).body).toMatchObject({ tenantId: one, userId: alice });
    // Alice is One's user now: her key acts as her there only.
    expect((await client.get(`/api-keys/${appWide.key.id}`)).body).toMatchObject({ tenantId: one, userId: alice });
    expect((await app.as({ apiKey: appWide.secret }).get(`${path}/tenants/${two}/users`)).status).toBe(403);
    expect((await app.as({ apiKey: inTwo.secret }).get('/users')).status).toBe(200);

    // A tenant key's user is a member of its tenant: Alice's own record is One's now.
    const refused = await client.post('/api-keys', { name: 'alice-two-again', permissions: ['users:read'], tenantId: two, userId: alice });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'userId' });

    expect((await client.delete(`${path}/tenants/${two}/users/${copy.id}`)).status).toBe(204);
    expect((await client.get(`/api-keys/${inTwo.key.id}`)).status).toBe(404);
    expect((await app.as({ apiKey: inTwo.secret }).get('/users')).status).toBe(401);
    expect((await app.as({ apiKey: inOne.secret }).get('/users')).status).toBe(200);
    expect((await app.as({ apiKey: appWide.secret }).get('/users')).status).toBe(200);
  });
});

describe('user-bound keys and the pools', () => {
  const issue = (client: HttpClient, userId: string, extra: Record<string, unknown> = {}) =>
    client.post('/api-keys', { name: 'bound', permissions: ['users:read'], userId, ...extra });
  const keyCount = async (client: HttpClient) => ((await client.get('/api-keys?pageSize=100')).body.data as unknown[]).length;

  it('isolated: a key for a user of a tenant’s pool is that tenant’s key; another tenant is 422 and makes nothing', async () => {
    const { admin: client, appPath: path, tenants: [one, two], applicationId } = await freshApplication(app, { authIsolation: 'isolated', tenants: ['One', 'Two'] });
    const alice = (await client.post(`${path}/tenants/${one}/users`, { email: 'alice@x.example' })).body.id as string;
    const bob = (await client.post(`${path}/tenants/${two}/users`, { email: 'bob@x.example' })).body.id as string;
    await makeAdmin(app, bob, two, applicationId);

    const created = await issue(client, bob);
    expect(created.status).toBe(201);
    expect(created.body.key).toMatchObject({ tenantId: two, userId: bob });
    const bobs = app.as({ apiKey: created.body.secret });
    expect((await bobs.get(`${path}/tenants/${one}/users`)).status).toBe(403);
    expect(((await bobs.get('/users')).body.data as UserBody[]).map((user) => user.id)).toEqual([bob]);
    expect((await bobs.get(`/users/${alice}`)).status).toBe(404);

    const before = await keyCount(client);
    const elsewhere = await issue(client, bob, { tenantId: one });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body).toMatchObject({ code: 'validation_error', field: 'userId' });
    expect(await keyCount(client)).toBe(before);
  });

  it('a user of the application’s pool keeps an application-wide key, in either mode: not narrowed by their tenants', async () => {
    const { admin: client, appPath: path, tenants: [one, two], switchTo, applicationId } = await freshApplication(app, { tenants: ['One', 'Two'] });
    const carol = (await client.post('/users', { email: 'carol@x.example', tenantId: one })).body.id as string;
    // Administrators of the whole application: their keys are bounded by what they hold, here everywhere.
    await makeAdmin(app, carol, null, applicationId);
    const shared = await issue(client, carol);
    expect(shared.body.key).toMatchObject({ tenantId: null, userId: carol });
    expect((await app.as({ apiKey: shared.body.secret }).get(`${path}/tenants/${two}/users`)).status).toBe(200);

    // In no tenant: the split leaves them in the application's pool.
    const loose = (await client.post('/users', { email: 'loose@x.example' })).body.id as string;
    await makeAdmin(app, loose, null, applicationId);
    expect((await switchTo('isolated')).status).toBe(200);
    const looseKey = await issue(client, loose);
    expect(looseKey.body.key).toMatchObject({ tenantId: null, userId: loose });
    expect((await app.as({ apiKey: looseKey.body.secret }).get(`${path}/tenants/${two}/users`)).status).toBe(200);
    // Carol went to One's pool with the split, and her key with her.
    expect((await client.get(`/api-keys/${shared.body.key.id}`)).body).toMatchObject({ tenantId: one, userId: carol });
    expect((await app.as({ apiKey: shared.body.secret }).get(`${path}/tenants/${two}/users`)).status).toBe(403);
  });
});

describe('lockout state of a user split into copies', () => {
  const lockout = (applicationId: string, id: string) =>
    app.sql<{ status: string; locked_until: Date | null; failed_sign_ins: number; last_failed_sign_in_at: Date | null }>(
      'select status, locked_until, failed_sign_ins, last_failed_sign_in_at from app_user where application_id = ? and id = ?',
      [applicationId, id],
    ).then((rows) => rows[0]);

  it('is copied whole, per address too: a temporary lock ends for each copy when it ends for the original, a permanent one stays', async () => {
    const { admin: client, applicationId, appPath: path, tenants: [one, two], switchTo } = await freshApplication(app, { tenants: ['One', 'Two'] });
    const userIn = async (email: string) => {
      const id = (await client.post('/users', { email, tenantId: one })).body.id as string;
      expect((await client.patch(`/users/${id}`, { tenantIds: [one, two] })).status).toBe(200);
      return id;
    };
    const carol = await userIn('carol@x.example');
    const dave = await userIn('dave@x.example');
    const erin = await userIn('erin@x.example');
    // Only failed sign-ins on the hosted pages lock a user: set the state they leave directly.
    await app.sql(`update app_user set status = 'locked', locked_until = now() + interval '10 minutes', failed_sign_ins = 5,
      last_failed_sign_in_at = now() where application_id = ? and id = ?`, [applicationId, carol]);
    await app.sql(`update app_user set status = 'locked', locked_until = null, failed_sign_ins = 5, last_failed_sign_in_at = now()
      where application_id = ? and id = ?`, [applicationId, dave]);
    await app.sql(`update app_user set failed_sign_ins = 3, last_failed_sign_in_at = now() - interval '1 minute'
      where application_id = ? and id = ?`, [applicationId, erin]);
    // Erin's failures per address: one address locked out of her account, another still counting.
    await app.sql(`insert into sign_in_failure (application_id, user_id, address, failures, last_failed_at, locked_at, locked_until)
      values (?, ?, '203.0.113.1', 3, now(), now(), now() + interval '5 minutes'), (?, ?, '203.0.113.2', 2, now(), null, null)`,
      [applicationId, erin, applicationId, erin]);
    const failures = (id: string) =>
      app.sql('select address, failures, last_failed_at, locked_at, locked_until from sign_in_failure where application_id = ? and user_id = ? order by address', [
        applicationId,
        id,
      ]);

    expect((await switchTo('isolated')).status).toBe(200);
    const copies = (await client.get(`${path}/tenants/${two}/users`)).body.data as UserBody[];
    const copyOf = async (original: string) => {
      const { email } = (await client.get(`/users/${original}`)).body;
      const copy = copies.find((user) => user.email === email);
      expect(copy).toBeDefined();
      expect(await lockout(applicationId, copy!.id)).toEqual(await lockout(applicationId, original));
      return copy!.id;
    };
    const signInState = async (id: string) => (await readSignInUser(app.gatehouse.services.orm.em.fork(), applicationId, { id }))!;
    const afterCarolsLock = new Date(Date.now() + 11 * 60_000);
    const carolCopy = await signInState(await copyOf(carol));
    expect(mayActNow(carolCopy)).toBe(false);
    expect(mayActNow(carolCopy, afterCarolsLock)).toBe(true);
    expect(mayActNow(await signInState(await copyOf(dave)), afterCarolsLock)).toBe(false);
    const erinCopy = await copyOf(erin);
    expect(await failures(erinCopy)).toEqual(await failures(erin));
    expect(await failures(erinCopy)).toHaveLength(2);
    expect(await failures(await copyOf(carol))).toEqual([]);
  });
});

describe('role assignments of a user split into copies', () => {
  it('a role held in a tenant goes to the copy there; the original keeps none, so a later return starts without it', async () => {
    const other = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: other.apiKey });
    const appPath = `/applications/${other.applicationId}`;
    const north = await app.createTenant('North', other);
    const south = await app.createTenant('South', other);
    const southPath = `${appPath}/tenants/${south}`;
    const southAdmin = (await admin.post(`${southPath}/roles`, { key: 'south_admin', name: 'South admin', permissions: ['users:read', 'users:write'] })).body.id as string;
    const userId = (await admin.post('/users', { email: 'mover@example.com', password: 'Correct-Horse-9', tenantId: north })).body.id as string;
    expect((await admin.patch(`/users/${userId}`, { tenantIds: [north, south] })).status).toBe(200);
    expect((await admin.post(`${southPath}/role-assignments`, { subject: { type: 'user', id: userId }, roleId: southAdmin })).status).toBe(201);

    expect((await admin.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const [copy] = await app.sql<{ id: string }>(`select id from app_user where application_id = ? and pool_id = ? and email_normalized = 'mover@example.com'`, [other.applicationId, south]);
    // The copy holds the role in South; its removal below takes the role with it.
    const copyRoles = await app.sql(`select 1 from role_assignment where application_id = ? and subject_id = ?`, [other.applicationId, copy!.id]);
    expect(copyRoles).toHaveLength(1);
    expect((await admin.get(`/audit-logs?action=role_assignment.rebound`)).body.data).toHaveLength(1);
    const staleRoles = await app.sql(`select 1 from role_assignment where application_id = ? and subject_id = ? and tenant_id = ?`, [other.applicationId, userId, south]);

    // The copy is South's member now; the original is North's only. Whoever leaves South loses their roles there
    // ("a return starts without them", users.ts endAccessToTenantsLeft).
    // Back to shared: South's copy removed (the admin resolves the duplicate), the original joins South again.
    expect((await admin.delete(`/users/${copy!.id}`)).status).toBe(204);
    expect((await admin.patch(appPath, { tenancyConfig: { authIsolation: 'shared' } })).status).toBe(200);
    expect((await admin.patch(`/users/${userId}`, { tenantIds: [north, south] })).status).toBe(200);
    const held = await readHeldGrants(app.gatehouse.services.orm.em.getConnection(), other.applicationId, south, [{ type: 'user', id: userId }]);
    const regained = held.get(`user:${userId}`)?.roles.map((role) => role.key);

    expect({ staleRoles: staleRoles.length, regained }).toEqual({ staleRoles: 0, regained: [] });
  });
});
