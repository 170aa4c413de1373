import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshApplication, type AuthIsolation } from '../support/applications.ts';
import type { HttpResponse } from '../support/http.ts';

/**
 * The `authIsolation` switch against the writers whose validity depends on it, sent at the same moment
 * (docs/decisions.md, "Tenants and users"): the writer and the switch never overlap, so whichever comes second sees
 * the outcome of the first, and every round ends in a state one of the two orders would have produced. Each round
 * runs on a fresh application and checks the invariants of the mode the application ended in, whatever the timing.
 */
let app: TestApp;
const ROUNDS = 12;
const SHARED_POOL = '00000000-0000-0000-0000-000000000000';

/** A round's application, with tenants One and Two. */
const freshRound = (authIsolation: AuthIsolation) => freshApplication(app, { authIsolation, tenants: ['One', 'Two'] });
type Round = Awaited<ReturnType<typeof freshRound>>;

/** While shared: Alice, one identity in both tenants. */
async function aliceInBoth(round: Round): Promise<string> {
  const alice = await round.admin.post('/users', { email: 'alice@x.example', tenantId: round.tenants[0] });
  expect(alice.status).toBe(201);
  expect((await round.admin.patch(`/users/${alice.body.id}`, { tenantIds: [round.tenants[0], round.tenants[1]] })).status).toBe(200);
  return alice.body.id;
}

const count = async (query: string, params: unknown[]) => Number((await app.sql<{ n: string }>(query, params))[0]?.n);

/**
 * What must hold in every mode, and in the mode the application is in: `shared` holds no tenant auth data and one
 * pool; `isolated` keeps each user in the pool of their one tenant. Never: two members of a tenant with one e-mail,
 * a user in a tenant that does not exist, a tenant key or role held by a user who is not a member of that tenant.
 */
async function assertConsistent(round: Round): Promise<void> {
  const mode = (await round.admin.get(round.appPath)).body.tenancyConfig.authIsolation;
  const id = round.applicationId;
  if (mode === 'shared') {
    for (const table of ['auth_provider', 'setting', 'domain']) {
      const where = table === 'setting' ? ` and feature = 'policy'` : '';
      expect(await count(`select count(*) as n from ${table} where application_id = ? and tenant_id is not null${where}`, [id]), table).toBe(0);
    }
    expect(await count('select count(*) as n from app_user where application_id = ? and pool_id <> ?', [id, SHARED_POOL])).toBe(0);
  } else {
    expect(await count(`select count(*) as n from app_user where application_id = ? and tenant_ids <> '{}' and tenant_ids <> array[pool_id]`, [id])).toBe(0);
  }
  const twins = await app.sql(
    `select tenant_id, email_normalized from app_user, unnest(tenant_ids) as tenant_id where application_id = ?
      group by 1, 2 having count(*) > 1`,
    [id],
  );
  expect(twins).toEqual([]);
  const strays = await app.sql(
    `select u.id from app_user u left join tenant t on t.application_id = u.application_id and t.id = u.pool_id
      where u.application_id = ? and u.pool_id <> ? and t.id is null`,
    [id, SHARED_POOL],
  );
  expect(strays).toEqual([]);
  const foreignKeys = await app.sql(
    `select k.id from api_key k join app_user u on u.application_id = k.application_id and u.id = k.user_id
      where k.application_id = ? and k.tenant_id is not null and not (k.tenant_id = any(u.tenant_ids))`,
    [id],
  );
  expect(foreignKeys).toEqual([]);
  const foreignRoles = await app.sql(
    `select r.id from role_assignment r join app_user u on u.application_id = r.application_id and u.id = r.subject_id
      where r.application_id = ? and r.subject_type = 'user' and r.tenant_id is not null and not (r.tenant_id = any(u.tenant_ids))`,
    [id],
  );
  expect(foreignRoles).toEqual([]);
}

/** The statuses of the two requests of a round, for the outcome checks. */
const statuses = (...responses: HttpResponse[]) => responses.map((response) => response.status);

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

describe('tenant auth data written while the application goes back to shared', () => {
  const writers: Record<string, { write: (round: Round) => Promise<HttpResponse>; success: number }> = {
    'an auth provider': { write: (round) => round.admin.post(`${round.appPath}/tenants/${round.tenants[0]}/auth-providers`, { type: 'password' }), success: 201 },
    'a password policy': { write: (round) => round.admin.put(`${round.appPath}/tenants/${round.tenants[0]}/policies/password`, { minLength: 12 }), success: 200 },
    'MFA settings': { write: (round) => round.admin.put(`${round.appPath}/tenants/${round.tenants[0]}/policies/mfa`, { enforcement: 'required' }), success: 200 },
    'a custom domain': { write: (round) => round.admin.post(`${round.appPath}/tenants/${round.tenants[0]}/domains`, { hostname: `login-${round.applicationId}.race.example` }), success: 201 },
  };

  for (const [what, { write, success }] of Object.entries(writers)) {
    it(`${what}: either the write is refused (409 tenant_customization_disabled) or the switch is (409 tenant_auth_data_remains)`, async () => {
      for (let i = 0; i < ROUNDS; i += 1) {
        const round = await freshRound('isolated');
        const [written, switched] = await Promise.all([write(round), round.switchTo('shared')]);
        if (switched.status === 200) {
          expect(statuses(written, switched)).toEqual([409, 200]);
          expect(written.body).toMatchObject({ code: 'tenant_customization_disabled', field: 'tenancyConfig.authIsolation' });
        } else {
          expect(statuses(written, switched)).toEqual([success, 409]);
          expect(switched.body.code).toBe('tenant_auth_data_remains');
          expect(switched.body.details).toEqual([expect.objectContaining({ tenantId: round.tenants[0] })]);
        }
        await assertConsistent(round);
      }
    });
  }
});

describe('users and keys written while the application splits into isolated pools', () => {
  it('a user created with an e-mail a tenant member holds is refused, before the split or after it', async () => {
    for (let i = 0; i < ROUNDS; i += 1) {
      const round = await freshRound('shared');
      await aliceInBoth(round);
      const [created, switched] = await Promise.all([round.admin.post('/users', { email: 'Alice@x.example', tenantId: round.tenants[1] }), round.switchTo('isolated')]);
      expect(statuses(created, switched)).toEqual([409, 200]);
      expect(created.body).toMatchObject({ code: 'already_exists', field: 'email' });
      await assertConsistent(round);
    }
  });

  it('a new user lands in the pool of the mode in force when it commits', async () => {
    for (let i = 0; i < ROUNDS; i += 1) {
      const round = await freshRound('shared');
      await aliceInBoth(round);
      const [created, switched] = await Promise.all([round.admin.post('/users', { email: 'bob@x.example', tenantId: round.tenants[1] }), round.switchTo('isolated')]);
      expect(statuses(created, switched)).toEqual([201, 200]);
      const [bob] = await app.sql<{ pool_id: string }>('select pool_id from app_user where application_id = ? and id = ?', [round.applicationId, created.body.id]);
      expect(bob?.pool_id).toBe(round.tenants[1]);
      await assertConsistent(round);
    }
  });

  it('a membership change either precedes the split or is refused by it (422 tenantIds)', async () => {
    for (let i = 0; i < ROUNDS; i += 1) {
      const round = await freshRound('shared');
      const alice = (await round.admin.post('/users', { email: 'alice@x.example', tenantId: round.tenants[0] })).body.id;
      const [joined, switched] = await Promise.all([round.admin.patch(`/users/${alice}`, { tenantIds: [round.tenants[0], round.tenants[1]] }), round.switchTo('isolated')]);
      expect(switched.status).toBe(200);
      if (joined.status !== 200) expect(joined.body).toMatchObject({ code: 'validation_error', field: 'tenantIds' });
      // Joined first: the split gave Two a copy. Refused: Two never had Alice.
      expect((await round.admin.get(`${round.appPath}/tenants/${round.tenants[1]}/users`)).body.data).toHaveLength(joined.status === 200 ? 1 : 0);
      await assertConsistent(round);
    }
  });

  it('a tenant-scoped delete either removes the membership before the split or finds no such member after it', async () => {
    for (let i = 0; i < ROUNDS; i += 1) {
      const round = await freshRound('shared');
      const alice = await aliceInBoth(round);
      const [removed, switched] = await Promise.all([round.admin.delete(`${round.appPath}/tenants/${round.tenants[1]}/users/${alice}`), round.switchTo('isolated')]);
      expect(switched.status).toBe(200);
      expect([204, 404]).toContain(removed.status);
      // Removed first: Two has nobody left to copy Alice into. Split first: Two has its own Alice, another id.
      expect((await round.admin.get(`${round.appPath}/tenants/${round.tenants[1]}/users`)).body.data).toHaveLength(removed.status === 204 ? 0 : 1);
      await assertConsistent(round);
    }
  });

  it('a tenant key for a shared user ends bound to that tenant’s own copy, or is refused (422 userId)', async () => {
    for (let i = 0; i < ROUNDS; i += 1) {
      const round = await freshRound('shared');
      const alice = await aliceInBoth(round);
      const key = { name: 'alice-two', permissions: ['users:read'], tenantId: round.tenants[1], userId: alice };
      const [issued, switched] = await Promise.all([round.admin.post('/api-keys', key), round.switchTo('isolated')]);
      expect(switched.status).toBe(200);
      if (issued.status === 201) {
        const copy = (await round.admin.get(`${round.appPath}/tenants/${round.tenants[1]}/users`)).body.data[0];
        expect((await round.admin.get(`/api-keys/${issued.body.key.id}`)).body.userId).toBe(copy.id);
      } else {
        expect(issued.body).toMatchObject({ code: 'validation_error', field: 'userId' });
      }
      await assertConsistent(round);
    }
  });

  it('a role assigned in a tenant to a shared user ends held by that tenant’s own copy, or is refused (404 subject.id)', async () => {
    for (let i = 0; i < ROUNDS; i += 1) {
      const round = await freshRound('shared');
      const alice = await aliceInBoth(round);
      const role = await round.admin.post('/roles', { key: 'reader', name: 'Reader', permissions: ['users:read'] });
      expect(role.status).toBe(201);
      const assignment = { subject: { type: 'user', id: alice }, roleId: role.body.id, tenantId: round.tenants[1] };
      const [assigned, switched] = await Promise.all([round.admin.post('/role-assignments', assignment), round.switchTo('isolated')]);
      expect(switched.status).toBe(200);
      const held = await round.admin.get(`${round.appPath}/tenants/${round.tenants[1]}/role-assignments`);
      if (assigned.status === 201) {
        const copy = (await round.admin.get(`${round.appPath}/tenants/${round.tenants[1]}/users`)).body.data[0];
        expect(held.body.data).toEqual([expect.objectContaining({ id: assigned.body.id, subject: { type: 'user', id: copy.id } })]);
      } else {
        expect(assigned.body, JSON.stringify(assigned.body)).toMatchObject({ code: 'not_found', field: 'subject.id' });
        expect(held.body.data).toEqual([]);
      }
      await assertConsistent(round);
    }
  });

  it('a tenant deleted during the split takes every copy made for it', async () => {
    for (let i = 0; i < ROUNDS; i += 1) {
      const round = await freshRound('shared');
      await aliceInBoth(round);
      const [deleted, switched] = await Promise.all([round.admin.delete(`${round.appPath}/tenants/${round.tenants[1]}`), round.switchTo('isolated')]);
      expect(statuses(deleted, switched)).toEqual([204, 200]);
      await assertConsistent(round);
    }
  });
});

describe('the switch against itself', () => {
  it('concurrent switches each answer, in turn, and the last one decides', async () => {
    for (let i = 0; i < ROUNDS; i += 1) {
      const round = await freshRound('shared');
      await aliceInBoth(round);
      const answers = await Promise.all([round.switchTo('isolated'), round.switchTo('isolated'), round.admin.patch(round.appPath, { name: `Renamed ${i}` })]);
      expect(statuses(...answers)).toEqual([200, 200, 200]);
      expect((await round.admin.get(`${round.appPath}/tenants/${round.tenants[1]}/users`)).body.data).toHaveLength(1);
      await assertConsistent(round);
    }
  });
});
