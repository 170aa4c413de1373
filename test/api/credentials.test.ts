import type { JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKey, signJwt } from '../../src/auth/jwt.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { liveUserClaims } from '../support/oauth.ts';
import { TestRoles } from '../support/roles.ts';
import { createKeySecret } from '../support/keys.ts';

/**
 * The credentials rules of the spec (Authentication): X-API-Key, Bearer, both together, the tenant precedence
 * (path > Bearer `tenant_id` > the key's tenant), and what each wrong credential answers.
 */
let app: TestApp;
let appId: string;
let appPath: string;
let tenantA: string;
let tenantB: string;
let userA: string;
let userB: string;
let userShared: string;

/** A client-credentials token of a new M2M credential holding `permissions`. */
const bearer = (claims: { tenant_id?: string; permissions: string[]; app_id?: string }) => app.mintAccessToken({ app_id: appId, ...claims });

const ids = (body: { data: { id: string }[] }) => body.data.map((u) => u.id).sort();

/** A live user's token, signed with the service's own active key; the test chooses audience, issuer and lifetime. */
async function signWithServiceKey(claims: Record<string, unknown>, options: { audience?: string; issuer?: string; expiresInSeconds?: number }) {
  const [row] = await app.sql<{ private_jwk: JWK }>(`select private_jwk from signing_key where status = 'active' and alg = 'ES256'`);
  return signJwt(row!.private_jwk, claims, {
    issuer: options.issuer ?? 'http://gatehouse.test',
    audience: options.audience ?? 'http://gatehouse.test/api/v1',
    subject: userShared,
    expiresInSeconds: options.expiresInSeconds ?? 300,
  });
}

beforeAll(async () => {
  app = await startTestApp();
  appId = app.root.applicationId;
  appPath = `/applications/${appId}`;
  tenantA = await app.createTenant('Tenant A');
  tenantB = await app.createTenant('Tenant B');
  userA = (await app.http.post('/users', { email: 'a@example.com', tenantId: tenantA })).body.id;
  userB = (await app.http.post('/users', { email: 'b@example.com', tenantId: tenantB })).body.id;
  userShared = (await app.http.post('/users', { email: 'nobody@example.com' })).body.id;
  const roles = new TestRoles(app);
  await roles.assign({ type: 'user', id: userShared }, await roles.create('user_reader', ['users:read']));
  await roles.assign({ type: 'user', id: userA }, await roles.create('user_manager', ['users:*']), tenantA);
});
afterAll(async () => app?.close());

describe('one credential at a time', () => {
  it('X-API-Key alone authenticates with the key’s permissions', async () => {
    const reader = app.as({ apiKey: await createKeySecret(app, ['users:read']) });
    const list = await reader.get('/users?pageSize=100');
    expect(list.status).toBe(200);
    expect(ids(list.body)).toEqual([userA, userB, userShared].sort());
    expect((await reader.post('/users', { email: 'no@example.com' })).status).toBe(403);
  });

  it('a Bearer token alone acts as its subject (an M2M credential, a user), with its permissions and tenant', async () => {
    const appWide = app.as({ bearer: await bearer({ permissions: ['users:read'] }) });
    expect(ids((await appWide.get('/users?pageSize=100')).body)).toEqual([userA, userB, userShared].sort());
    const write = await appWide.post('/users', { email: 'no@example.com' });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('forbidden');

    // A user of tenant A signed in there, holding a role of A that grants users:*.
    const sub = userA;
    const inA = app.as({ bearer: await app.mintAccessToken({ app_id: appId, tenant_id: tenantA, sub }) });
    expect(ids((await inA.get('/users')).body)).toEqual([userA]);
    const created = await inA.post('/users', { email: 'by-bearer@example.com' });
    expect(created.status).toBe(201);
    expect(created.body.tenantIds).toEqual([tenantA]);
    const [audit] = await app.sql<{ actor_type: string; actor_id: string; tenant_id: string }>(
      `select actor_type, actor_id, tenant_id from audit_log where target_id = ? and action = 'user.created'`,
      [created.body.id],
    );
    expect(audit).toEqual({ actor_type: 'user', actor_id: sub, tenant_id: tenantA });
  });
});

describe('a user-bound API key', () => {
  it('acts with what both the key and its user hold: never more than the user, in the tenant acted in', async () => {
    const roles = new TestRoles(app);
    const holder = (await app.http.post('/users', { email: 'bound-key-holder@example.com', tenantId: tenantA })).body.id as string;
    const boundKey = (permissions: string[]) => app.http.post('/api-keys', { name: 'bound', permissions, userId: holder });
    const wide = await boundKey(['*']);
    expect(wide.status, JSON.stringify(wide.body)).toBe(201);
    const asWide = app.as({ apiKey: wide.body.secret });
    // The user holds no role yet: the key's `*` gives nothing.
    for (const refused of [await asWide.get('/users'), await asWide.patch(appPath, { name: 'Taken over' }), await asWide.delete(`/users/${userB}`)]) {
      expect([refused.status, refused.body.code]).toEqual([403, 'forbidden']);
    }
    expect((await app.http.get(appPath)).body.name).not.toBe('Taken over');
    expect((await app.http.get(`/users/${userB}`)).status).toBe(200);
    const check = async (permission: string) =>
      (await app.http.post('/permissions/check', { subject: { type: 'api_key', id: wide.body.key.id }, permission })).body.allowed as boolean;
    expect(await check('users:read')).toBe(false);

    // Reading, application-wide; writing, in tenant A alone.
    await roles.assign({ type: 'user', id: holder }, await roles.create('bound_reader', ['users:read']));
    await roles.assign({ type: 'user', id: holder }, await roles.create('bound_writer_a', ['users:write'], tenantA), tenantA);
    expect((await asWide.get('/users')).status).toBe(200);
    expect((await asWide.post('/users', { email: 'bound-app-wide@example.com' })).status).toBe(403);
    expect((await asWide.post(`${appPath}/tenants/${tenantA}/users`, { email: 'bound-in-a@example.com' })).status).toBe(201);
    expect([await check('users:read'), await check('users:write')]).toEqual([true, false]);

    // The key's own list narrows the user's too.
    const asReader = app.as({ apiKey: (await boundKey(['users:read'])).body.secret });
    expect((await asReader.post(`${appPath}/tenants/${tenantA}/users`, { email: 'bound-reader@example.com' })).status).toBe(403);
  });
});

describe('X-API-Key and Bearer together', () => {
  it('the key authenticates; the token narrows permissions to the intersection', async () => {
    const adminKey = await createKeySecret(app, ['*']);
    const narrowed = app.as({ apiKey: adminKey, bearer: await bearer({ permissions: ['users:read'] }) });
    expect((await narrowed.get('/users')).status).toBe(200);
    expect((await narrowed.post('/users', { email: 'narrowed@example.com' })).status).toBe(403);
    expect((await narrowed.get(`${appPath}/tenants`)).status).toBe(403);

    const readKey = await createKeySecret(app, ['users:read']);
    const widened = app.as({ apiKey: readKey, bearer: await bearer({ permissions: ['*'] }) });
    expect((await widened.get('/users')).status).toBe(200);
    const refused = await widened.post('/users', { email: 'widened@example.com' });
    expect(refused.status).toBe(403);
    expect((await app.http.get('/users?pageSize=100')).body.data.map((u: { email: string }) => u.email)).not.toContain('widened@example.com');

    // A key narrowed by a token cannot mint a key with what the token withheld.
    const minting = app.as({ apiKey: adminKey, bearer: await bearer({ permissions: ['api_keys:write', 'users:read'] }) });
    expect((await minting.post('/api-keys', { name: 'x', permissions: ['users:read'] })).status).toBe(201);
    expect((await minting.post('/api-keys', { name: 'x', permissions: ['users:write'] })).status).toBe(403);
  });

  it('the token adds its tenant to an application-wide key', async () => {
    const both = app.as({ apiKey: await createKeySecret(app, ['users:*']), bearer: await bearer({ tenant_id: tenantB, permissions: ['users:*'] }) });
    expect(ids((await both.get('/users')).body)).toEqual([userB]);
    expect((await both.get(`/users/${userA}`)).status).toBe(404);
    const created = await both.post('/users', { email: 'both@example.com' });
    expect(created.body.tenantIds).toEqual([tenantB]);
  });

  it('a token of another application beside the key is 401; of another tenant than the key’s, 403', async () => {
    const other = await app.bootstrapAnother();
    const foreignToken = await app.mintAccessToken({ app_id: other.applicationId, permissions: ['*'] });
    const mixed = await app.as({ apiKey: await createKeySecret(app, ['users:read']), bearer: foreignToken }).get('/users');
    expect(mixed.status).toBe(401);
    expect(mixed.body.code).toBe('unauthenticated');
    const keyA = await createKeySecret(app, ['users:read'], tenantA);
    const crossed = await app.as({ apiKey: keyA, bearer: await bearer({ tenant_id: tenantB, permissions: ['*'] }) }).get('/users');
    expect(crossed.status).toBe(403);
    expect(crossed.body.code).toBe('forbidden');
    const agreeing = await app.as({ apiKey: keyA, bearer: await bearer({ tenant_id: tenantA, permissions: ['*'] }) }).get('/users');
    expect(ids(agreeing.body)).toEqual(expect.arrayContaining([userA]));
    expect(ids(agreeing.body)).not.toContain(userB);
  });

  it('an Authorization header that is no Bearer token is 401 beside a key, not dropped (which would undo the narrowing)', async () => {
    const adminKey = await createKeySecret(app, ['*']);
    const token = await bearer({ permissions: ['users:read'] });
    const malformed = [`Bearer\t${token}`, 'Bearer', 'Bearer ', `DPoP ${token}`, `Bearer,${token}`, `Basic ${Buffer.from('a:b').toString('base64')}`, `Bearer ${token} extra`];
    for (const authorization of malformed) {
      const refused = await app.as({ apiKey: adminKey }).post('/users', { email: 'escalated@example.com' }, { headers: { authorization } });
      expect(refused.status, authorization).toBe(401);
      expect(refused.body, authorization).toMatchObject({ code: 'unauthenticated' });
      const viaGraphQL = await app.as({ apiKey: adminKey }).graphql('{ users { next } }', {}, { headers: { authorization } });
      expect(viaGraphQL.status, authorization).toBe(401);
    }
    expect((await app.http.get('/users?pageSize=100')).body.data.map((u: { email: string }) => u.email)).not.toContain('escalated@example.com');
    // The scheme is case-insensitive, and spaces may be several (RFC 6750 2.1).
    const narrowed = app.as({ apiKey: adminKey });
    expect((await narrowed.post('/users', { email: 'narrowed-again@example.com' }, { headers: { authorization: `bearer  ${token}` } })).status).toBe(403);
    expect((await narrowed.get('/users', { headers: { authorization: `BEARER ${token}` } })).status).toBe(200);
  });

  it('an empty X-API-Key header is 401, beside a Bearer token too, not dropped (which would undo the key’s scope)', async () => {
    const token = await bearer({ permissions: ['users:read'] });
    for (const client of [app.as({}), app.as({ bearer: token })]) {
      const refused = await client.get('/users', { headers: { 'x-api-key': '' } });
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: 'unauthenticated', message: 'The X-API-Key header is empty' });
      expect((await client.graphql('{ users { next } }', {}, { headers: { 'x-api-key': '' } })).status).toBe(401);
    }
    expect((await app.as({ bearer: token }).get('/users')).status).toBe(200);
  });

  it('every 401 says how to authenticate (WWW-Authenticate), over REST and GraphQL', async () => {
    for (const client of [app.as({}), app.as({ bearer: 'not-a-token' }), app.as({ apiKey: 'ghk_unknown' })]) {
      for (const response of [await client.get('/users'), await client.graphql('{ users { next } }')]) {
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="gatehouse"/);
      }
    }
    expect((await app.as({ bearer: 'not-a-token' }).get('/users')).headers.get('www-authenticate')).toBe('Bearer realm="gatehouse", error="invalid_token"');
    expect((await app.as({}).get('/users')).headers.get('www-authenticate')).toBe('Bearer realm="gatehouse"');
  });

  it('invalid_token only when the Bearer token was refused; a 403 to a token is insufficient_scope', async () => {
    const reader = await app.mintAccessToken({ app_id: appId, permissions: ['users:read'] });
    // A good token beside a bad API key: the key failed, not the token.
    const badKey = await app.as({ apiKey: 'ghk_unknown', bearer: reader }).get('/users');
    expect(badKey.status).toBe(401);
    expect(badKey.headers.get('www-authenticate')).toBe('Bearer realm="gatehouse"');
    const otherApplication = await app.bootstrapAnother();
    const crossed = await app.as({ apiKey: otherApplication.apiKey, bearer: reader }).get('/users');
    expect(crossed.status).toBe(401);
    expect(crossed.headers.get('www-authenticate')).toBe('Bearer realm="gatehouse", error="invalid_token"');
    const refused = await app.as({ bearer: reader }).post('/users', { email: 'scoped@example.com' });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="gatehouse", error="insufficient_scope"');
    // A key's 403 has no Bearer challenge.
    const keyOnly = await app.as({ apiKey: (await app.http.post('/api-keys', { name: 'reader', permissions: ['users:read'] })).body.secret }).post('/users', {
      email: 'scoped@example.com',
    });
    expect(keyOnly.status).toBe(403);
    expect(keyOnly.headers.get('www-authenticate')).toBeNull();
  });
});

describe('tenant precedence: path, then Bearer tenant_id, then the key’s tenant', () => {
  it('an application-wide key takes the path’s tenant, else the token’s, else none', async () => {
    const appKey = await createKeySecret(app, ['users:read']);
    const plain = app.as({ apiKey: appKey });
    expect(ids((await plain.get('/users?pageSize=100')).body)).toContain(userShared);
    expect(ids((await plain.get(`${appPath}/tenants/${tenantA}/users`)).body)).not.toContain(userB);
    const withToken = app.as({ apiKey: appKey, bearer: await bearer({ tenant_id: tenantA, permissions: ['users:read'] }) });
    const byToken = ids((await withToken.get('/users')).body);
    expect(byToken).toContain(userA);
    expect(byToken).not.toContain(userB);
    expect(byToken).not.toContain(userShared);
    expect((await withToken.get(`${appPath}/tenants/${tenantA}/users`)).status).toBe(200);
    // The path names a tenant other than the credentials': wrong tenant.
    const pathB = await withToken.get(`${appPath}/tenants/${tenantB}/users`);
    expect(pathB.status).toBe(403);
    expect(pathB.body.code).toBe('forbidden');
  });

  it('a tenant-scoped key is scoped to its tenant; a token without tenant_id keeps it', async () => {
    const keyA = await createKeySecret(app, ['users:read'], tenantA);
    const alone = app.as({ apiKey: keyA });
    const own = ids((await alone.get('/users')).body);
    expect(own).toContain(userA);
    expect(own).not.toContain(userB);
    expect(own).not.toContain(userShared);
    const withToken = app.as({ apiKey: keyA, bearer: await bearer({ permissions: ['users:read'] }) });
    expect(ids((await withToken.get('/users')).body)).toEqual(own);
    expect((await alone.get(`${appPath}/tenants/${tenantA}/users`)).status).toBe(200);
    const other = await alone.get(`${appPath}/tenants/${tenantB}/users`);
    expect(other.status).toBe(403);
    expect((await alone.get(`${appPath}/tenants/${tenantB}/users/${userB}`)).status).toBe(403);
  });

  it('over GraphQL the tenantId argument plays the path: it scopes an application-wide key, else the token’s tenant, else the key’s', async () => {
    const USERS = 'query($tenantId: UUID) { users(tenantId: $tenantId, pageSize: 100) { data { id } } }';
    const listed = async (client: ReturnType<TestApp['as']>, tenantId?: string) => {
      const answer = await client.graphql<{ users: { data: { id: string }[] } }>(USERS, tenantId === undefined ? {} : { tenantId });
      return answer.body.data === undefined ? answer.body.errors?.[0]?.extensions : ids(answer.body.data.users);
    };
    /** Tenant A's members and no one else's: other tests of this file may add members to A. */
    const inA = (listed: unknown) => Array.isArray(listed) && listed.includes(userA) && !listed.includes(userB) && !listed.includes(userShared);
    const appKey = await createKeySecret(app, ['users:read']);
    const plain = app.as({ apiKey: appKey });
    expect(await listed(plain)).toContain(userShared);
    expect(inA(await listed(plain, tenantA))).toBe(true);
    const withToken = app.as({ apiKey: appKey, bearer: await bearer({ tenant_id: tenantA, permissions: ['users:read'] }) });
    expect(inA(await listed(withToken))).toBe(true);
    expect(inA(await listed(withToken, tenantA))).toBe(true);
    expect(await listed(withToken, tenantB)).toMatchObject({ code: 'forbidden', status: 403 });
    const keyA = app.as({ apiKey: await createKeySecret(app, ['users:read'], tenantA) });
    expect(inA(await listed(keyA))).toBe(true);
    expect(await listed(keyA, tenantB)).toMatchObject({ code: 'forbidden', status: 403 });
  });

  it('a Bearer token alone with a tenant may not use another tenant’s path', async () => {
    const inA = app.as({ bearer: await bearer({ tenant_id: tenantA, permissions: ['*'] }) });
    expect((await inA.get(`${appPath}/tenants/${tenantB}/users`)).status).toBe(403);
    expect((await inA.get(`${appPath}/tenants/${tenantA}/users`)).status).toBe(200);
  });
});

describe('401: missing, unknown, revoked or expired credentials', () => {
  it('refuses a missing, unknown, revoked or expired API key', async () => {
    const expectUnauthenticated = async (client: ReturnType<TestApp['as']>) => {
      const response = await client.get('/users');
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 'unauthenticated', message: expect.any(String) });
      const gql = await client.graphql('{ users { data { id } } }');
      expect(gql.status).toBe(401);
      expect(gql.body.errors?.[0]?.extensions.code).toBe('unauthenticated');
    };
    await expectUnauthenticated(app.as({}));
    await expectUnauthenticated(app.as({ apiKey: 'ghk_' + 'A'.repeat(43) }));
    await expectUnauthenticated(app.as({ apiKey: 'not even a key' }));

    const revoked = await app.http.post('/api-keys', { name: 'revoked', permissions: ['users:read'] });
    expect((await app.as({ apiKey: revoked.body.secret }).get('/users')).status).toBe(200);
    await app.http.delete(`/api-keys/${revoked.body.key.id}`);
    await expectUnauthenticated(app.as({ apiKey: revoked.body.secret }));

    const expiring = await app.http.post('/api-keys', { name: 'expiring', permissions: ['users:read'], expiresAt: new Date(Date.now() + 60_000).toISOString() });
    expect((await app.as({ apiKey: expiring.body.secret }).get('/users')).status).toBe(200);
    // Time passes in SQL: the instance's cache, which checks the expiry it read on every use, is told.
    await app.sql(`update api_key set expires_at = now() - interval '1 second' where id = ?`, [expiring.body.key.id]);
    await app.gatehouse.services.invalidations.publish({ kind: 'api_key', id: expiring.body.key.id });
    await expectUnauthenticated(app.as({ apiKey: expiring.body.secret }));
    // A bad key is not rescued by a good token beside it.
    await expectUnauthenticated(app.as({ apiKey: revoked.body.secret, bearer: await bearer({ permissions: ['*'] }) }));
  });

  it('refuses malformed, expired, wrong-audience, wrong-issuer, unsigned and foreign-signed tokens', async () => {
    const claims = await liveUserClaims(app, userShared, { app_id: appId });
    expect((await app.as({ bearer: await signWithServiceKey(claims, {}) }).get('/users')).status).toBe(200);

    const header = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const payload = header({ ...claims, sub: userShared, iss: 'http://gatehouse.test', aud: 'http://gatehouse.test/api/v1', iat: now, exp: now + 300 });
    const foreign = await generateSigningKey();
    const tokens: Record<string, string> = {
      garbage: 'not.a.jwt',
      expired: await signWithServiceKey(claims, { expiresInSeconds: -60 }),
      wrongAudience: await signWithServiceKey(claims, { audience: 'https://api.customer.example' }),
      wrongIssuer: await signWithServiceKey(claims, { issuer: 'https://evil.example' }),
      algNone: `${header({ alg: 'none', typ: 'at+jwt' })}.${payload}.`,
      foreignKey: await signJwt(foreign.privateJwk, claims, {
        issuer: 'http://gatehouse.test',
        audience: 'http://gatehouse.test/api/v1',
        subject: userShared,
        expiresInSeconds: 300,
      }),
      noAppId: await signWithServiceKey({ permissions: ['*'] }, {}),
      // A user's token names the client it was issued to and its grant.
      noGrant: await signWithServiceKey({ app_id: appId, client_id: claims.client_id, permissions: ['*'] }, {}),
      noClient: await signWithServiceKey({ app_id: appId, grant_id: claims.grant_id, permissions: ['*'] }, {}),
    };
    for (const [name, token] of Object.entries(tokens)) {
      const response = await app.as({ bearer: token }).get('/users');
      expect(response.status, name).toBe(401);
      expect(response.body.code, name).toBe('unauthenticated');
    }
  });
});

describe('403 and 404', () => {
  it('a key without the permission is 403 and changes nothing', async () => {
    const reader = app.as({ apiKey: await createKeySecret(app, ['users:read']) });
    const response = await reader.delete(`/users/${userShared}`);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: 'forbidden', message: expect.any(String) });
    expect((await app.http.get(`/users/${userShared}`)).status).toBe(200);
  });

  it('a key without the permission is refused before its input is read: 403, where the holder of it gets 422', async () => {
    const hostile = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`unknown${i}`, i]));
    const reader = app.as({ apiKey: await createKeySecret(app, ['users:read']) });
    const writer = app.as({ apiKey: await createKeySecret(app, ['users:write']) });
    expect((await reader.post('/users', hostile)).body).toMatchObject({ code: 'forbidden', message: 'Missing permission users:write' });
    expect((await writer.post('/users', hostile)).body).toMatchObject({ code: 'validation_error' });
    const mutation = 'mutation($input: CreateUserInput!) { createUser(input: $input) { id } }';
    const refused = await reader.graphql(mutation, { input: hostile });
    expect(refused.status).toBe(403);
    expect(refused.body.errors).toEqual([expect.objectContaining({ message: 'Missing permission users:write' })]);
    expect((await writer.graphql(mutation, { input: hostile })).body.errors?.[0]?.extensions.code).toBe('validation_error');
  });

  it('another tenant is 403 by path and 404 by id; another application is 404', async () => {
    const keyA = app.as({ apiKey: await createKeySecret(app, ['users:*'], tenantA) });
    expect((await keyA.get(`${appPath}/tenants/${tenantB}/users/${userB}`)).status).toBe(403);
    for (const response of [
      await keyA.get(`/users/${userB}`),
      await keyA.patch(`/users/${userB}`, { name: 'x' }),
      await keyA.delete(`/users/${userB}`),
      await keyA.get(`/users/${userShared}`),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('not_found');
    }
    const other = await app.bootstrapAnother();
    const theirs = (await app.as({ apiKey: other.apiKey }).post('/users', { email: 'theirs@example.com' })).body.id;
    expect((await app.http.get(`/users/${theirs}`)).status).toBe(404);
    expect((await app.http.get(`/applications/${other.applicationId}/users/${theirs}`)).status).toBe(404);
    const token = await bearer({ permissions: ['*'] });
    expect((await app.as({ bearer: token }).get(`/users/${theirs}`)).status).toBe(404);
    expect((await app.http.get(`/users/${userB}`)).body.name).toBeNull();
  });
});
