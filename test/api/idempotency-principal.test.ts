import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { TestRoles } from '../support/roles.ts';

/**
 * A stored response answers to the caller that made it (src/http/idempotency.ts): the credential, the user it acts as and
 * its tenant, as long as it holds at least the permissions it held then (after a Bearer token's narrowing) in the tenants
 * the request acts in. The permission check comes before any replay, on both transports; a caller refused gets its own
 * 403 and one that holds less than it did a 409, never the stored secret.
 */
let app: TestApp;
let roles: TestRoles;
let adminKey: string;
/** Users holding `*` (app_admin) and `users:read`, application-wide. */
let admin: string;
let reader: string;
let adminAssignment: string;

beforeAll(async () => {
  app = await startTestApp();
  const created = await app.http.post('/api-keys', { name: 'K', permissions: ['*'] });
  expect(created.status).toBe(201);
  adminKey = created.body.secret;
  roles = new TestRoles(app);
  admin = (await app.http.post('/users', { email: 'operator@example.com' })).body.id;
  reader = (await app.http.post('/users', { email: 'reader@example.com' })).body.id;
  adminAssignment = await roles.assign({ type: 'user', id: admin }, 'app_admin');
  await roles.assign({ type: 'user', id: reader }, await roles.create('reader', ['users:read']));
});
afterAll(async () => app?.close());

/** The same API key beside a new token of `userId`. */
async function keyWithToken(userId: string) {
  const bearer = await app.mintAccessToken({ sub: userId, app_id: app.root.applicationId });
  return app.as({ apiKey: adminKey, bearer });
}

async function keyToRotate(): Promise<{ id: string; secret: string }> {
  const created = await app.http.post('/api-keys', { name: 'rotated', permissions: ['users:read'] });
  expect(created.status).toBe(201);
  return { id: created.body.key.id, secret: created.body.secret };
}

const withKey = (idempotencyKey: string) => ({ headers: { 'idempotency-key': idempotencyKey } });

describe('Idempotency-Key and the effective principal (REST)', () => {
  it('a narrower token beside the same API key gets its 403, not the stored secret', async () => {
    const target = await keyToRotate();
    const idempotencyKey = crypto.randomUUID();
    const rotated = await (await keyWithToken(admin)).post(`/api-keys/${target.id}/rotate`, undefined, withKey(idempotencyKey));
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^ghk_/);

    const narrow = await keyWithToken(reader);
    expect((await narrow.post(`/api-keys/${target.id}/rotate`)).status).toBe(403);
    const refused = await narrow.post(`/api-keys/${target.id}/rotate`, undefined, withKey(idempotencyKey));
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: 'forbidden', message: expect.any(String) });
    expect(refused.headers.get('idempotent-replayed')).toBeNull();
    // Nothing ran: the secret of the first rotation is still the key's.
    expect((await app.as({ apiKey: rotated.body.secret }).get('/users')).status).toBe(200);
  });

  it('a user who may still rotate but holds less than it did gets 409, not the secret, and nothing runs again', async () => {
    const user = (await app.http.post('/users', { email: 'narrowed@example.com' })).body.id;
    const role = await roles.create('narrowed-rotator', ['api_keys:write', 'api_keys:read', 'users:read']);
    await roles.assign({ type: 'user', id: user }, role);
    const target = await keyToRotate();
    const idempotencyKey = crypto.randomUUID();
    expect((await (await keyWithToken(user)).post(`/api-keys/${target.id}/rotate`, undefined, withKey(idempotencyKey))).status).toBe(200);
    // The key grants users:read, which the user no longer holds: a rotation is no longer theirs to make.
    await roles.setPermissions(role, ['api_keys:write', 'api_keys:read']);
    const retry = await (await keyWithToken(user)).post(`/api-keys/${target.id}/rotate`, undefined, withKey(idempotencyKey));
    expect(retry.status).toBe(409);
    expect(retry.body).toEqual({ code: 'idempotency_conflict', message: expect.stringContaining('no longer holds') });
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    // Unkeyed, the rotation is refused as the key grants what the user no longer holds.
    expect((await (await keyWithToken(user)).post(`/api-keys/${target.id}/rotate`)).status).toBe(403);
  });

  it('a retry after a role is granted replays the first answer: one tenant is created', async () => {
    const user = (await app.http.post('/users', { email: `creator-${crypto.randomUUID()}@example.com` })).body.id;
    await roles.assign({ type: 'user', id: user }, await roles.create(`creator-${crypto.randomUUID()}`, ['tenants:write', 'tenants:read']));
    const client = app.as({ bearer: await app.mintAccessToken({ sub: user, app_id: app.root.applicationId }) });
    const idempotencyKey = crypto.randomUUID();
    const input = { name: `Created once ${idempotencyKey}` };
    const created = await client.post(`/applications/${app.root.applicationId}/tenants`, input, withKey(idempotencyKey));
    expect(created.status).toBe(201);
    await roles.assign({ type: 'user', id: user }, await roles.id('reader'));
    const retried = await client.post(`/applications/${app.root.applicationId}/tenants`, input, withKey(idempotencyKey));
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toEqual(created.body);
    const named = ((await app.http.get(`/applications/${app.root.applicationId}/tenants?pageSize=100`)).body.data as { name: string }[]).filter((tenant) => tenant.name === input.name);
    expect(named).toHaveLength(1);
  });

  it('the same effective principal still gets the replay, with another token of the same user too', async () => {
    const target = await keyToRotate();
    const idempotencyKey = crypto.randomUUID();
    const operator = await keyWithToken(admin);
    const rotated = await operator.post(`/api-keys/${target.id}/rotate`, undefined, withKey(idempotencyKey));
    expect(rotated.status).toBe(200);
    for (const client of [operator, await keyWithToken(admin)]) {
      const replay = await client.post(`/api-keys/${target.id}/rotate`, undefined, withKey(idempotencyKey));
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(rotated.body);
    }
    // The same principal reusing the key for another request still conflicts.
    const conflict = await operator.post(`/api-keys/${(await keyToRotate()).id}/rotate`, undefined, withKey(idempotencyKey));
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('idempotency_conflict');
  });
});

describe('Idempotency-Key and the effective principal (GraphQL)', () => {
  it('a narrower token beside the same API key gets its 403, not the stored secret', async () => {
    const target = await keyToRotate();
    const idempotencyKey = crypto.randomUUID();
    const mutation = 'mutation ($keyId: UUID!) { rotateApiKey(keyId: $keyId) { secret } }';
    const rotated = await (await keyWithToken(admin)).graphql(mutation, { keyId: target.id }, withKey(idempotencyKey));
    expect(rotated.status).toBe(200);
    const secret = rotated.body.data?.rotateApiKey.secret as string;
    expect(secret).toMatch(/^ghk_/);

    const refused = await (await keyWithToken(reader)).graphql(mutation, { keyId: target.id }, withKey(idempotencyKey));
    expect(refused.status).toBe(403);
    expect(refused.body.errors?.[0]?.extensions['code']).toBe('forbidden');
    expect(JSON.stringify(refused.body)).not.toContain(secret);
    expect(refused.headers.get('idempotent-replayed')).toBeNull();
  });

  it('the same user and token, once a role is revoked, is a new request: its 403, not the stored secret', async () => {
    const target = await keyToRotate();
    const idempotencyKey = crypto.randomUUID();
    const mutation = 'mutation ($keyId: UUID!) { rotateApiKey(keyId: $keyId) { secret } }';
    const client = await keyWithToken(admin);
    const rotated = await client.graphql(mutation, { keyId: target.id }, withKey(idempotencyKey));
    const secret = rotated.body.data?.rotateApiKey.secret as string;
    expect(secret).toMatch(/^ghk_/);
    await roles.revoke(adminAssignment);
    const refused = await client.graphql(mutation, { keyId: target.id }, withKey(idempotencyKey));
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).not.toContain(secret);
    expect(refused.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('Idempotency-Key after the permission check (GraphQL)', () => {
  const rotate = 'mutation ($keyId: UUID!) { rotateApiKey(keyId: $keyId) { secret } }';
  const rotateIn = 'mutation ($a: UUID, $t: UUID, $keyId: UUID!) { rotateApiKey(appId: $a, tenantId: $t, keyId: $keyId) { secret } }';
  let tenantA: string;
  let inA: string;

  beforeAll(async () => {
    tenantA = await app.createTenant('Acting');
    inA = `/applications/${app.root.applicationId}/tenants/${tenantA}`;
  });

  /** A member of tenant A holding `users:read` application-wide and `inTenant` in A: their token's client and assignments. */
  async function tenantMember(inTenant: string) {
    const userId = await app.createUser(`member-${crypto.randomUUID()}@example.com`, tenantA);
    const applicationWide = await roles.assign({ type: 'user', id: userId }, await roles.id('reader'));
    const tenantWide = await roles.assign({ type: 'user', id: userId }, inTenant, tenantA);
    const bearer = await app.mintAccessToken({ sub: userId, app_id: app.root.applicationId });
    return { client: app.as({ bearer }), userId, applicationWide, tenantWide };
  }

  async function keyInA(): Promise<{ id: string }> {
    const created = await app.http.post(`${inA}/api-keys`, { name: 'rotated in A', permissions: ['users:read'] });
    expect(created.status).toBe(201);
    return { id: created.body.key.id };
  }

  it('while the organization is deactivated a replay is refused 403 organization_deactivated, as over REST', async () => {
    const target = await keyToRotate();
    const idempotencyKey = crypto.randomUUID();
    const rotated = await app.http.graphql(rotate, { keyId: target.id }, withKey(idempotencyKey));
    const secret = rotated.body.data?.rotateApiKey.secret as string;
    expect(secret).toMatch(/^ghk_/);

    const organization = `/organizations/${(await app.http.get(`/applications/${app.root.applicationId}`)).body.organizationId}`;
    expect((await app.http.post(`${organization}/deactivate`)).status).toBe(200);
    try {
      const rest = await app.http.post(`/api-keys/${target.id}/rotate`, undefined, withKey(crypto.randomUUID()));
      expect(rest.status).toBe(403);
      expect(rest.body.code).toBe('organization_deactivated');
      const refused = await app.http.graphql(rotate, { keyId: target.id }, withKey(idempotencyKey));
      expect(refused.status).toBe(403);
      expect(refused.body.errors?.[0]?.extensions['code']).toBe('organization_deactivated');
      expect(JSON.stringify(refused.body)).not.toContain(secret);
      expect(refused.headers.get('idempotent-replayed')).toBeNull();
    } finally {
      await app.http.post(`${organization}/reactivate`);
    }
    // Kept, not spent: once reactivated, the same principal gets its replay.
    const replay = await app.http.graphql(rotate, { keyId: target.id }, withKey(idempotencyKey));
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(rotated.body);
  });

  it('a user whose role in the tenant it acts in is revoked gets its 403, not the stored secret', async () => {
    const { client, tenantWide } = await tenantMember('app_admin');
    const target = await keyInA();
    const variables = { a: app.root.applicationId, t: tenantA, keyId: target.id };
    const idempotencyKey = crypto.randomUUID();
    const rotated = await client.graphql(rotateIn, variables, withKey(idempotencyKey));
    const secret = rotated.body.data?.rotateApiKey.secret as string;
    expect(secret).toMatch(/^ghk_/);
    const replay = await client.graphql(rotateIn, variables, withKey(idempotencyKey));
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(rotated.body);

    await roles.revoke(tenantWide);
    const refused = await client.graphql(rotateIn, variables, withKey(idempotencyKey));
    expect(refused.status).toBe(403);
    expect(refused.body.errors?.[0]?.extensions['code']).toBe('forbidden');
    expect(JSON.stringify(refused.body)).not.toContain(secret);
    expect(refused.headers.get('idempotent-replayed')).toBeNull();
    // Nothing ran: the secret of the first rotation is still the key's.
    expect((await app.as({ apiKey: secret }).get('/users')).status).toBe(200);
  });

  it('replays to a caller holding at least what it held in the tenant it acts in, whatever it holds application-wide', async () => {
    const { client, userId, applicationWide } = await tenantMember(await roles.create('rotator', ['api_keys:write', 'users:read']));
    const target = await keyInA();
    const variables = { a: app.root.applicationId, t: tenantA, keyId: target.id };
    const idempotencyKey = crypto.randomUUID();
    const rotated = await client.graphql(rotateIn, variables, withKey(idempotencyKey));
    expect(rotated.body.data?.rotateApiKey.secret).toMatch(/^ghk_/);

    // `users:read` application-wide is gone, but the user holds it in A all the same: a replay.
    await roles.revoke(applicationWide);
    const replay = await client.graphql(rotateIn, variables, withKey(idempotencyKey));
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(rotated.body);

    // More in A: the same caller, whose retry replays.
    await roles.assign({ type: 'user', id: userId }, await roles.create('role_reader', ['roles:read']), tenantA);
    const widened = await client.graphql(rotateIn, variables, withKey(idempotencyKey));
    expect(widened.headers.get('idempotent-replayed')).toBe('true');
    expect(widened.body).toEqual(rotated.body);
  });
});
