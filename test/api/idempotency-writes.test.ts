import { createDecipheriv, createHash, createHmac, hkdfSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/auth/permissions.ts';
import { requestFingerprint } from '../../src/http/idempotency.ts';
import { READS_ASKED_BY_POST } from '../../src/http/reads-asked-by-post.ts';
import { newId } from '../../src/ids.ts';
import { expandRoutes } from '../../src/rest/routes.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { lockTurnsWaitingAtLeast, lockWaitersAtLeast, usingEmbeddedDatabase } from '../support/database.ts';
import { addDomain, publishing, verifyWith } from '../support/domains.ts';
import type { HttpResponse } from '../support/http.ts';
import { issueTestKey } from '../support/keys.ts';
import { queuedBehind, type HeldRow } from '../support/row-lock.ts';

/**
 * `Idempotency-Key` on every write of the REST API, as on every mutation of /graphql: the same operation answers the
 * same header alike on both transports; reads ignore it on both. A create retried after a lost answer replays it instead of creating twice.
 * Without the header, two identical writes at once still leave one effect and one audit record.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const withKey = (idempotencyKey: string) => ({ headers: { 'idempotency-key': idempotencyKey } });
const CREATE_API_KEY = `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { key { id } secret } }`;
/** A /graphql request body sent as given: an object as JSON, a string as these very bytes. */
const postGraphQL = (body: object | string, idempotencyKey: string) =>
  app.http.request('POST', '/graphql', {
    raw: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...withKey(idempotencyKey).headers },
  });
/**
 * The record releases before 2026-12-04 keep for the bootstrap key (`*`, application-wide): keyed by the credential,
 * the key it acts as, no tenant and every permission, its body sealed alone. Read here as those releases do.
 */
function earlierRelease(idempotencyKey: string, credentialId: string, fingerprint: string) {
  const caller = requestFingerprint(credentialId, 'api_key', credentialId.slice('api_key:'.length), null, ALL_PERMISSIONS);
  const hex = createHash('sha256').update(`idempotency-key\0${caller}\0${idempotencyKey}`).digest('hex');
  const derived = (purpose: string) => Buffer.from(hkdfSync('sha256', idempotencyKey, caller, `gatehouse idempotency ${purpose}`, 32));
  return {
    key: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`,
    keyedHash: createHmac('sha256', derived('request')).update(fingerprint).digest('hex'),
    plainHash: fingerprint,
    unseal(stored: string): unknown {
      const [, iv, sealed] = stored.split('.');
      const data = Buffer.from(sealed!, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', derived('response'), Buffer.from(iv!, 'base64url'));
      decipher.setAuthTag(data.subarray(data.length - 16));
      return JSON.parse(Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8'));
    },
  };
}
const apiKeysNamed = async (name: string) =>
  ((await app.http.get('/api-keys?pageSize=100')).body.data as { name: string }[]).filter((key) => key.name === name).length;

describe('Idempotency-Key on REST writes', () => {
  it('is honored by every route but reads (GET, and the reads asked with POST), and declared on exactly those', async () => {
    const { body: document } = await app.as({}).get('/openapi.json');
    for (const route of expandRoutes()) {
      const read = route.method === 'GET' || READS_ASKED_BY_POST.has(route.operation.rootField);
      expect(route.idempotent, `${route.method} ${route.url}`).toBe(!read);
      const declared = document.paths[route.url.replace(/:(\w+)/g, '{$1}')][route.method.toLowerCase()].parameters;
      expect(declared.some((p: { $ref?: string }) => p.$ref === '#/components/parameters/IdempotencyKey'), `${route.method} ${route.url}`).toBe(route.idempotent);
    }
  });

  it('replays a retried create instead of creating a second key, as GraphQL does', async () => {
    const idempotencyKey = crypto.randomUUID();
    const input = { name: 'Retried', permissions: ['users:read'] };
    const first = await app.http.post('/api-keys', input, withKey(idempotencyKey));
    expect(first.status).toBe(201);
    const retried = await app.http.post('/api-keys', input, withKey(idempotencyKey));
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toEqual(first.body);
    const keys = await app.http.get('/api-keys?pageSize=100');
    expect(keys.body.data.filter((key: { name: string }) => key.name === 'Retried')).toHaveLength(1);

    const graphqlKey = crypto.randomUUID();
    const overGraphQL = await app.http.graphql(CREATE_API_KEY, { input }, withKey(graphqlKey));
    const replayed = await app.http.graphql(CREATE_API_KEY, { input }, withKey(graphqlKey));
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(overGraphQL.body);
  });

  it('replays a retry that writes the same body otherwise: fields in another order, an optional body left out', async () => {
    const user = await app.http.post('/users', { email: 'reordered@example.com' });
    const idempotencyKey = crypto.randomUUID();
    const first = await app.http.patch(`/users/${user.body.id}`, { name: 'Ada', email: 'ada@example.com' }, withKey(idempotencyKey));
    expect(first.status).toBe(200);
    const retried = await app.http.patch(`/users/${user.body.id}`, { email: 'ada@example.com', name: 'Ada' }, withKey(idempotencyKey));
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');

    const client = await app.http.post('/oauth-clients', { name: 'Web', type: 'web', redirectUris: ['https://app.example.com/callback'] });
    const rotationKey = crypto.randomUUID();
    const rotated = await app.http.request('POST', `/api/v1/oauth-clients/${client.body.id}/rotate-secret`, withKey(rotationKey));
    expect(rotated.status).toBe(200);
    const again = await app.http.post(`/oauth-clients/${client.body.id}/rotate-secret`, {}, withKey(rotationKey));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.clientSecret).toBe(rotated.body.clientSecret);
    // Another request is still one: a different value conflicts.
    const other = await app.http.post(`/oauth-clients/${client.body.id}/rotate-secret`, { gracePeriodSeconds: 0 }, withKey(rotationKey));
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency_conflict');
  });

  it('replays a retry whose ids, in the path or the body, are written in another letter case; another id conflicts', async () => {
    const user = await app.http.post('/users', { email: 'cased@example.com' });
    const [tenantA, tenantB] = [await app.createTenant('Cased A'), await app.createTenant('Cased B')];
    const idempotencyKey = crypto.randomUUID();
    const first = await app.http.patch(`/users/${user.body.id}`, { tenantIds: [tenantA] }, withKey(idempotencyKey));
    expect(first.status).toBe(200);
    const retried = await app.http.patch(`/users/${String(user.body.id).toUpperCase()}`, { tenantIds: [tenantA.toUpperCase()] }, withKey(idempotencyKey));
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toEqual(first.body);
    const other = await app.http.patch(`/users/${user.body.id}`, { tenantIds: [tenantB.toUpperCase()] }, withKey(idempotencyKey));
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency_conflict');
    expect((await app.http.get(`/users/${user.body.id}`)).body.tenantIds).toEqual([tenantA]);

    // Over /graphql, in the variables and in the document's own literals alike.
    const suspend = (id: string) => `mutation { suspendUser(userId: "${id}") { id status } }`;
    const graphqlKey = crypto.randomUUID();
    const suspended = await postGraphQL({ query: suspend(user.body.id) }, graphqlKey);
    expect(suspended.body.data.suspendUser.status).toBe('suspended');
    const again = await postGraphQL({ query: suspend(String(user.body.id).toUpperCase()) }, graphqlKey);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(suspended.body);
    const updateUser = 'mutation($userId: UUID!, $input: UpdateUserInput!) { updateUser(userId: $userId, input: $input) { id tenantIds } }';
    const variablesKey = crypto.randomUUID();
    const updated = await postGraphQL({ query: updateUser, variables: { userId: user.body.id, input: { tenantIds: [tenantB] } } }, variablesKey);
    expect(updated.body.data.updateUser.tenantIds).toEqual([tenantB]);
    const replayed = await postGraphQL({ query: updateUser, variables: { userId: String(user.body.id).toUpperCase(), input: { tenantIds: [tenantB.toUpperCase()] } } }, variablesKey);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(updated.body);
    const conflicting = await postGraphQL({ query: updateUser, variables: { userId: user.body.id, input: { tenantIds: [tenantA] } } }, variablesKey);
    expect(conflicting.status).toBe(409);
    expect((await app.http.get(`/users/${user.body.id}`)).body.tenantIds).toEqual([tenantB]);
  });

  it('replays a key reused on another path form of the same operation and scope; another scope, body or operation conflicts', async () => {
    const appId = app.root.applicationId;
    const [tenantA, tenantB] = [await app.createTenant('Forms A'), await app.createTenant('Forms B')];
    const usersNamed = async (email: string) => ((await app.http.get('/users?pageSize=100')).body.data as { email: string }[]).filter((user) => user.email === email).length;
    const idempotencyKey = crypto.randomUUID();
    const body = { email: 'two-forms@example.com', tenantId: tenantA };
    const first = await app.http.post('/users', body, withKey(idempotencyKey));
    expect(first.status).toBe(201);
    for (const path of [`/applications/${appId}/users`, `/applications/${appId.toUpperCase()}/users`]) {
      const replayed = await app.http.post(path, body, withKey(idempotencyKey));
      expect(replayed.status, path).toBe(201);
      expect(replayed.headers.get('idempotent-replayed'), path).toBe('true');
      expect(replayed.body, path).toEqual(first.body);
    }
    // A tenant's path is another scope, another application another record set: 409, never the stored answer.
    const other = await app.bootstrapAnother();
    for (const [path, sent] of [
      [`/applications/${appId}/tenants/${tenantA}/users`, body],
      [`/applications/${other.applicationId}/users`, body],
      [`/applications/${appId}/users`, { ...body, name: 'Another body' }],
      [`/applications/${appId}/api-keys`, { name: 'Another operation', permissions: ['users:read'] }],
    ] as const) {
      const refused = await app.http.post(path, sent, withKey(idempotencyKey));
      expect(refused.status, path).toBe(409);
      expect(refused.body.code, path).toBe('idempotency_conflict');
    }
    expect(await usersNamed(body.email)).toBe(1);
    expect(await apiKeysNamed('Another operation')).toBe(0);

    // Tenant-bound credentials: their tenant's path is their own scope, the same operation as the credentials' form.
    const tenantKey = await issueTestKey(app, { tenantId: tenantB });
    const tenantIdempotencyKey = crypto.randomUUID();
    const tenantBody = { email: 'tenant-forms@example.com' };
    const created = await tenantKey.post(`/applications/${appId}/tenants/${tenantB}/users`, tenantBody, withKey(tenantIdempotencyKey));
    expect(created.status).toBe(201);
    for (const path of ['/users', `/applications/${appId}/users`]) {
      const replayed = await tenantKey.post(path, tenantBody, withKey(tenantIdempotencyKey));
      expect(replayed.headers.get('idempotent-replayed'), path).toBe('true');
      expect(replayed.body, path).toEqual(created.body);
    }
    expect((await tenantKey.post(`/applications/${appId}/tenants/${tenantA}/users`, tenantBody, withKey(tenantIdempotencyKey))).status).toBe(403);
    expect(await usersNamed(tenantBody.email)).toBe(1);
  });

  it('keeps no request hash that checks a guess at a password sent: only the Idempotency-Key opens the record', async () => {
    const idempotencyKey = crypto.randomUUID();
    const input = { email: 'hashed-request@example.com', password: 'Summer2026!' };
    const created = await app.http.post('/users', input, withKey(idempotencyKey));
    expect(created.status).toBe(201);
    // What a reader of the table could compute for each guess at the password.
    const guessed = requestFingerprint('POST', '/users', { input });
    const stored = await app.sql<{ request_hash: string }>('select request_hash from idempotency_record');
    expect(stored.map((row) => row.request_hash)).not.toContain(guessed);
    const retried = await app.http.post('/users', input, withKey(idempotencyKey));
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toEqual(created.body);
    const otherPassword = await app.http.post('/users', { ...input, password: 'Winter2026!' }, withKey(idempotencyKey));
    expect(otherPassword.status).toBe(409);
    expect(otherPassword.body.code).toBe('idempotency_conflict');
  });

  it('keeps a record as earlier releases do, which one serving beside it replays; and replays theirs, with the keyed or plain hash', async () => {
    for (const hashed of ['keyed', 'plain'] as const) {
      const idempotencyKey = crypto.randomUUID();
      const input = { name: `Stored for an earlier release (${hashed})`, permissions: ['users:read'] };
      const first = await app.http.post('/api-keys', input, withKey(idempotencyKey));
      expect(first.status).toBe(201);
      const [latest] = await app.sql<{ credential_id: string }>('select credential_id from idempotency_record order by created_at desc limit 1');
      const credentialId = latest!.credential_id;
      const earlier = earlierRelease(idempotencyKey, credentialId, requestFingerprint('POST', '/api-keys', { input }));
      // Where an earlier release looks, as it reads it.
      const [kept] = await app.sql<{ request_hash: string; response_body: string }>('select request_hash, response_body from idempotency_record where key = ?', [
        earlier.key,
      ]);
      expect(kept?.request_hash).toBe(earlier.keyedHash);
      expect(earlier.unseal(kept!.response_body)).toEqual(first.body);
      // An earlier release's record alone: this release's own gone.
      await app.sql('delete from idempotency_record where credential_id = ? and key <> ? and created_at >= (select created_at from idempotency_record where key = ?)', [
        credentialId,
        earlier.key,
        earlier.key,
      ]);
      if (hashed === 'plain') await app.sql('update idempotency_record set request_hash = ? where key = ?', [earlier.plainHash, earlier.key]);
      const retried = await app.http.post('/api-keys', input, withKey(idempotencyKey));
      expect(retried.headers.get('idempotent-replayed')).toBe('true');
      expect(retried.body).toEqual(first.body);
      expect(await apiKeysNamed(input.name)).toBe(1);
    }
  });

  it('refuses a key that is not a UUID on a delete and a revocation, over REST as over GraphQL, and removes nothing', async () => {
    const appPath = `/applications/${app.root.applicationId}`;
    const tenant = (await app.http.post(`${appPath}/tenants`, { name: 'Kept by a bad key' })).body.id as string;
    const key = (await app.http.post('/api-keys', { name: 'kept by a bad key', permissions: ['users:read'] })).body;
    for (const [label, answer] of [
      ['REST delete', await app.http.delete(`${appPath}/tenants/${tenant}`, withKey('not-a-uuid'))],
      ['REST revoke', await app.http.delete(`/api-keys/${key.key.id}`, withKey('12345'))],
    ] as const) {
      expect([answer.status, answer.body.code, answer.body.field], label).toEqual([422, 'validation_error', 'Idempotency-Key']);
    }
    const gql = await app.http.graphql('mutation($appId: UUID!, $tenantId: UUID!) { deleteTenant(appId: $appId, tenantId: $tenantId) }', { appId: app.root.applicationId, tenantId: tenant }, withKey('not-a-uuid'));
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'Idempotency-Key', status: 422 });
    expect((await app.http.get(`${appPath}/tenants/${tenant}`)).status).toBe(200);
    expect((await app.as({ apiKey: key.secret }).get('/users')).status).toBe(200);
  });

  it('refuses a key that is not a UUID on every delete, revocation and rotation of the route table, before the id is looked up', async () => {
    const appId = app.root.applicationId;
    const tenantId = (await app.http.post(`/applications/${appId}/tenants`, { name: 'Refused keys' })).body.id as string;
    const destructive = expandRoutes().filter((route) => route.method === 'DELETE' || /\/(rotate|rotate-secret|revoke)$/.test(route.url));
    expect(destructive.length).toBeGreaterThan(20);
    for (const route of destructive) {
      // Ids of nothing: the refusal comes first, so no id needs to exist.
      const url = route.url.replace(/:(\w+)/g, (_, name: string) => (name === 'appId' ? appId : name === 'tenantId' ? tenantId : name === 'kind' ? 'password' : name === 'templateKey' ? 'welcome' : newId()));
      const answer = await app.http.request(route.method, `/api/v1${url}`, withKey('not-a-uuid'));
      expect([answer.status, answer.body.code, answer.body.field], `${route.method} ${route.url}`).toEqual([422, 'validation_error', 'Idempotency-Key']);
    }
  });

  it('refuses a key that is not a UUID on a create, over REST as over GraphQL, and creates nothing', async () => {
    const input = { email: 'not-idempotent@example.com' };
    const rest = await app.http.post('/users', input, withKey('not-a-uuid'));
    expect(rest.status).toBe(422);
    expect(rest.body).toMatchObject({ code: 'validation_error', field: 'Idempotency-Key' });
    const gql = await app.http.graphql(`mutation ($input: CreateUserInput!) { createUser(input: $input) { id } }`, { input }, withKey('not-a-uuid'));
    expect(gql.status).toBe(422);
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'Idempotency-Key', status: 422 });
    expect((await app.http.post('/users', input)).status).toBe(201);
  });

  it('answers a caller the permission table refuses its 403 whatever its key, over GraphQL as over REST, and removes nothing', async () => {
    const appId = app.root.applicationId;
    const [tenantA, tenantB] = [
      (await app.http.post(`/applications/${appId}/tenants`, { name: 'Refused key A' })).body.id as string,
      (await app.http.post(`/applications/${appId}/tenants`, { name: 'Refused key B' })).body.id as string,
    ];
    const user = await app.createUser('refused-key@example.com', tenantB);
    const callers = {
      'without users:delete': { client: await issueTestKey(app, { permissions: ['users:read'] }), tenantId: null, message: 'Missing permission users:delete' },
      'of another tenant': { client: await issueTestKey(app, { tenantId: tenantA }), tenantId: tenantB, message: 'The credentials are for another tenant' },
    };
    const deleteUser = 'mutation($tenantId: UUID, $userId: UUID!) { deleteUser(tenantId: $tenantId, userId: $userId) }';
    for (const [label, { client, tenantId, message }] of Object.entries(callers)) {
      const path = tenantId === null ? `/users/${user}` : `/applications/${appId}/tenants/${tenantId}/users/${user}`;
      const rest = await client.delete(path, withKey('not-a-uuid'));
      expect([rest.status, rest.body], `REST, ${label}`).toEqual([403, { code: 'forbidden', message }]);
      const gql = await client.graphql(deleteUser, { tenantId, userId: user }, withKey('not-a-uuid'));
      expect([gql.status, gql.body.errors?.[0]?.message, gql.body.errors?.[0]?.extensions], `GraphQL, ${label}`).toEqual([403, message, { code: 'forbidden', status: 403 }]);
    }
    expect((await app.http.get(`/users/${user}`)).status).toBe(200);
  });

  it('keeps no 5xx: the same key and body run again after a 500, and leave one credential', async () => {
    const box = app.gatehouse.services.clientSecrets as unknown as { encrypt: (secret: string) => string };
    const encrypt = box.encrypt;
    // Fails inside the keyed write's transaction, once it holds the key: a server fault, which a retry may outlive.
    box.encrypt = () => {
      throw new Error('the secret box failed');
    };
    const idempotencyKey = crypto.randomUUID();
    const input = { name: 'Fails once', permissions: ['users:read'] };
    let failed: HttpResponse;
    try {
      failed = await app.http.post('/m2m-credentials', input, withKey(idempotencyKey));
    } finally {
      box.encrypt = encrypt;
    }
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ code: 'internal_error', message: 'Internal server error' });
    expect(failed.headers.get('idempotent-replayed')).toBeNull();
    const named = async () =>
      ((await app.http.get('/m2m-credentials?pageSize=100')).body.data as { id: string; name: string }[]).filter((credential) => credential.name === input.name);
    expect(await named()).toEqual([]);

    const retried = await app.http.post('/m2m-credentials', input, withKey(idempotencyKey));
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(retried.body.clientSecret).toEqual(expect.any(String));
    // The success is what the key keeps from now on.
    const again = await app.http.post('/m2m-credentials', input, withKey(idempotencyKey));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(retried.body);
    expect((await named()).map((credential) => credential.id)).toEqual([retried.body.id]);
  });

  it('is ignored by reads on both transports: a query sent again answers the data as it is now', async () => {
    const tenantId = await app.createTenant('Before');
    const path = `/applications/${app.root.applicationId}/tenants/${tenantId}`;
    const query = `query ($appId: UUID!, $tenantId: UUID!) { tenant(appId: $appId, tenantId: $tenantId) { name } }`;
    const variables = { appId: app.root.applicationId, tenantId };
    const idempotencyKey = crypto.randomUUID();
    const first = await app.http.graphql(query, variables, withKey(idempotencyKey));
    expect(first.body.data).toEqual({ tenant: { name: 'Before' } });
    expect((await app.http.patch(path, { name: 'After' })).status).toBe(200);
    const again = await app.http.graphql(query, variables, withKey(idempotencyKey));
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.data).toEqual({ tenant: { name: 'After' } });
    // A key that is not a UUID on a read: no key is used, so nothing to refuse, as over REST.
    const malformed = await app.http.graphql(query, variables, withKey('not-a-uuid'));
    expect(malformed.status).toBe(200);
    expect((await app.http.get(path, withKey('not-a-uuid'))).status).toBe(200);
  });

  // A revoked key must not introspect active, nor a revoked role check allowed, because the question was asked before.
  it('is ignored by the reads asked with POST (introspection, checks, validation): a revoked key introspects inactive on both transports', async () => {
    const created = await app.http.post('/api-keys', { name: 'introspected', permissions: ['users:read'] });
    const { secret } = created.body;
    const [restKey, graphqlKey] = [crypto.randomUUID(), crypto.randomUUID()];
    const introspect = `mutation ($input: IntrospectApiKeyInput!) { introspectApiKey(input: $input) { active } }`;
    expect((await app.http.post('/api-keys/introspect', { secret }, withKey(restKey))).body.active).toBe(true);
    expect((await app.http.graphql(introspect, { input: { secret } }, withKey(graphqlKey))).body.data).toEqual({ introspectApiKey: { active: true } });
    expect((await app.http.delete(`/api-keys/${created.body.key.id}`)).status).toBe(204);
    const rest = await app.http.post('/api-keys/introspect', { secret }, withKey(restKey));
    expect([rest.body, rest.headers.get('idempotent-replayed')]).toEqual([{ active: false, key: null }, null]);
    const graphql = await app.http.graphql(introspect, { input: { secret } }, withKey(graphqlKey));
    expect([graphql.body.data, graphql.headers.get('idempotent-replayed')]).toEqual([{ introspectApiKey: { active: false } }, null]);
    // As a read's, a key that is not a UUID is no key: nothing to refuse.
    expect((await app.http.post('/api-keys/introspect', { secret }, withKey('not-a-uuid'))).status).toBe(200);
    expect((await app.http.post('/permissions/check', { subject: { type: 'api_key', id: created.body.key.id }, permission: 'users:read' }, withKey('not-a-uuid'))).status).toBe(200);
  });
});

describe('Idempotency-Key on /graphql: the same request however it is written', () => {
  it('replays a mutation sent again with its document reformatted, its JSON reordered, null members left out', async () => {
    const idempotencyKey = crypto.randomUUID();
    const input = { name: 'Rewritten', permissions: ['users:read', 'users:write'] };
    const first = await postGraphQL({ query: CREATE_API_KEY, variables: { input } }, idempotencyKey);
    expect(first.status).toBe(200);
    expect(first.body.data.createApiKey.secret).toEqual(expect.any(String));
    const rewritten = {
      // Other whitespace, commas and a comment in the document; the members and the input's keys in another order,
      // in JSON text indented otherwise.
      'document and JSON': JSON.stringify(
        {
          variables: { input: { permissions: input.permissions, name: input.name } },
          query: '# retried\nmutation($input:CreateApiKeyInput!){createApiKey(input:$input){key{id},secret}}',
        },
        null,
        4,
      ),
      'null members': { query: CREATE_API_KEY, operationName: null, variables: { input }, extensions: null },
    };
    for (const [label, body] of Object.entries(rewritten)) {
      const retried = await postGraphQL(body, idempotencyKey);
      expect(retried.status, label).toBe(200);
      expect(retried.headers.get('idempotent-replayed'), label).toBe('true');
      expect(retried.body, label).toEqual(first.body);
    }
    expect(await apiKeysNamed('Rewritten')).toBe(1);

    // Anything else that differs is another request: a variable's value, the selection, the operation named.
    const others = {
      'another value': { query: CREATE_API_KEY, variables: { input: { ...input, name: 'Rewritten again' } } },
      'another selection': { query: CREATE_API_KEY.replace('secret', 'secret key { name }'), variables: { input } },
      'another operation name': { query: CREATE_API_KEY.replace('mutation', 'mutation Create'), operationName: 'Create', variables: { input } },
    };
    for (const [label, body] of Object.entries(others)) {
      const refused = await postGraphQL(body, idempotencyKey);
      expect(refused.status, label).toBe(409);
      expect(refused.body.errors?.[0]?.extensions, label).toMatchObject({ code: 'idempotency_conflict', status: 409 });
      expect(refused.headers.get('idempotent-replayed'), label).toBeNull();
    }
    expect(await apiKeysNamed('Rewritten')).toBe(1);
    expect(await apiKeysNamed('Rewritten again')).toBe(0);
  });
});

/** An answer's headers, without those of the request that carried it: its id, date, connection and rate-limit count. */
const answerHeaders = (response: HttpResponse) =>
  Object.fromEntries([...response.headers].filter(([name]) => !/^(date|connection|keep-alive|x-request-id|x-ratelimit-.*|idempotent-replayed)$/.test(name)));

describe('a replayed answer', () => {
  it('carries exactly the first answer’s status, body and headers, on both transports, a success and a refusal alike; none says when to retry', async () => {
    const unknownUser = '01900000-0000-7000-8000-000000000000';
    const input = { name: 'Replayed headers', permissions: ['users:read'] };
    const UPDATE_USER = `mutation ($userId: UUID!) { updateUser(userId: $userId, input: { name: "Nobody" }) { id } }`;
    const sends: Record<string, (key: string) => Promise<HttpResponse>> = {
      'REST 201': (key) => app.http.post('/api-keys', input, withKey(key)),
      'REST 404': (key) => app.http.patch(`/users/${unknownUser}`, { name: 'Nobody' }, withKey(key)),
      'GraphQL data': (key) => app.http.graphql(CREATE_API_KEY, { input }, withKey(key)),
      'GraphQL 404': (key) => app.http.graphql(UPDATE_USER, { userId: unknownUser }, withKey(key)),
    };
    const seen: Record<string, number> = {};
    for (const [name, send] of Object.entries(sends)) {
      const key = crypto.randomUUID();
      const first = await send(key);
      const replayed = await send(key);
      expect(replayed.headers.get('idempotent-replayed'), name).toBe('true');
      expect([replayed.status, answerHeaders(replayed), replayed.body], name).toEqual([first.status, answerHeaders(first), first.body]);
      expect(first.headers.get('retry-after'), name).toBeNull();
      seen[name] = first.status;
    }
    // Only a 429 or a 5xx says when to retry, and neither is kept (email-deliveries.test.ts, and above); a mutation
    // selects one field, so no answer with data carries a refusal's time either.
    expect(seen).toEqual({ 'REST 201': 201, 'REST 404': 404, 'GraphQL data': 200, 'GraphQL 404': 404 });
  });
});

// Needs the test's lock and a request's transaction at once: the embedded database has one session for all connections.
describe.skipIf(usingEmbeddedDatabase())('Idempotency-Key while its first request is still writing', () => {
  it('is 409 with Retry-After on both transports, writes nothing, and replays the first answer once it is in', async () => {
    const key = (await app.http.post('/api-keys', { name: 'revoked while retried', permissions: ['users:read'] })).body.key.id as string;
    const idempotencyKey = crypto.randomUUID();
    const revoke = () => app.http.delete(`/api-keys/${key}`, withKey(idempotencyKey));
    const REVOKE = `mutation ($keyId: UUID!) { revokeApiKey(keyId: $keyId) { id revokedAt } }`;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    // The key's row held by the test: the first revocation waits in its write, holding the Idempotency-Key.
    const held = app.gatehouse.services.orm.em.fork().transactional(async (em) => {
      await em.execute('select id from api_key where application_id = ? and id = ? for share', [app.root.applicationId, key]);
      locked();
      await released;
    });
    await isLocked;
    const first = revoke();
    try {
      await lockWaitersAtLeast(app.gatehouse.services.orm, 1);
      const retried = await revoke();
      expect(retried.status).toBe(409);
      expect(retried.headers.get('retry-after')).toBe('1');
      expect(retried.body).toMatchObject({ code: 'idempotency_conflict', message: expect.stringContaining('still in progress') });
      const overGraphQL = await app.http.graphql(REVOKE, { keyId: key }, withKey(idempotencyKey));
      expect(overGraphQL.status).toBe(409);
      expect(overGraphQL.headers.get('retry-after')).toBe('1');
      expect(overGraphQL.body.errors?.[0]?.extensions).toMatchObject({ code: 'idempotency_conflict', status: 409 });
    } finally {
      release();
      await held;
    }
    expect((await first).status).toBe(204);
    const replayed = await revoke();
    expect(replayed.status).toBe(204);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    const records = await app.sql<{ n: number }>(`select count(*)::int as n from audit_log where action = 'api_key.revoked' and target_id = ?`, [key]);
    expect(records[0]!.n).toBe(1);
  }, 30_000);
});

/**
 * Two identical writes at once without an Idempotency-Key (a client retrying without one, two operators): one effect,
 * one audit record. Each write holds its row FOR UPDATE, read as committed, so the second decides on what the first
 * left: a second deletion is 404, a second revocation or verification writes nothing. The row is held by the test
 * while both queue behind it, so they overlap whatever the machine's speed. Needs two sessions holding locks at once:
 * the embedded database has one session for all connections.
 */
describe.skipIf(usingEmbeddedDatabase())('two identical writes at once', () => {
  let appPath: string;
  let tenantId: string;
  let tenantPath: string;
  beforeAll(async () => {
    appPath = `/applications/${app.root.applicationId}`;
    const tenancyConfig = { brandingScope: 'tenant', emailTemplatesScope: 'tenant', emailProviderScope: 'tenant', authIsolation: 'isolated' };
    expect((await app.http.patch(appPath, { tenancyConfig })).status).toBe(200);
    tenantId = await app.createTenant('Twice');
    tenantPath = `${appPath}/tenants/${tenantId}`;
  });

  /** Both writes queued behind the test's share lock on the row (a write of it waits, reads go through). */
  function twiceAtOnce<T>(row: HeldRow, write: () => Promise<T>): Promise<T[]> {
    return queuedBehind(app.gatehouse.services.orm, row, { lock: 'share' }, [write, write]);
  }

  /** A row of the root application's table. */
  const rowOf = (table: string, id: string): HeldRow => ({ table, applicationId: app.root.applicationId, id });

  const recordsOf = (action: string, targetId: string | null, extra = '', params: unknown[] = []) =>
    app.sql<{ before: any; after: any }>(`select before, after from audit_log where action = ? and target_id is not distinct from ? ${extra} order by id`, [action, targetId, ...params]);

  const statuses = (answers: HttpResponse[]) => answers.map((answer) => answer.status);

  it('revoking an API key twice: one revocation, one record, the first revokedAt kept', async () => {
    const key = (await app.http.post('/api-keys', { name: 'revoked twice', permissions: ['users:read'] })).body.key.id as string;
    const answers = await twiceAtOnce(rowOf('api_key', key), () => app.http.delete(`/api-keys/${key}`));
    expect(statuses(answers)).toEqual([204, 204]);
    const records = await recordsOf('api_key.revoked', key);
    expect(records).toHaveLength(1);
    const [row] = await app.sql<{ revoked_at: string }>('select revoked_at from api_key where id = ?', [key]);
    expect(new Date(row!.revoked_at).toISOString()).toBe(records[0]!.after.revokedAt);
  }, 30_000);

  it('rotating an API key behind its revocation: 422, no secret handed out, no record', async () => {
    const key = (await app.http.post('/api-keys', { name: 'revoked, then rotated', permissions: ['users:read'] })).body.key.id as string;
    const answers = await queuedBehind(app.gatehouse.services.orm, rowOf('api_key', key), { lock: 'share' }, [
      () => app.http.delete(`/api-keys/${key}`),
      () => app.http.post(`/api-keys/${key}/rotate`, {}),
    ]);
    expect(statuses(answers)).toEqual([204, 422]);
    expect(answers[1]!.body).toMatchObject({ code: 'validation_error', field: 'keyId' });
    expect(await recordsOf('api_key.rotated', key)).toEqual([]);
  }, 30_000);

  it('deleting an auth provider twice: 204, then 404, one record', async () => {
    const provider = (await app.http.post(`${tenantPath}/auth-providers`, { type: 'magic_link' })).body.id as string;
    const answers = await twiceAtOnce(rowOf('auth_provider', provider), () => app.http.delete(`${tenantPath}/auth-providers/${provider}`));
    expect(statuses(answers)).toEqual([204, 404]);
    expect(answers[1]!.body).toMatchObject({ code: 'not_found', field: 'providerId' });
    expect(await recordsOf('auth_provider.deleted', provider)).toHaveLength(1);
  }, 30_000);

  it('deleting a domain twice: 204, then 404, one record', async () => {
    const domain = await addDomain(app, { apiKey: app.root.apiKey, applicationId: app.root.applicationId }, 'deleted-twice.example.org', { verified: false });
    const answers = await twiceAtOnce(rowOf('domain', domain), () => app.http.delete(`${appPath}/domains/${domain}`));
    expect(statuses(answers)).toEqual([204, 404]);
    expect(answers[1]!.body).toMatchObject({ code: 'not_found', field: 'domainId' });
    expect(await recordsOf('domain.deleted', domain)).toHaveLength(1);
  }, 30_000);

  it('verifying a domain twice: both verified, one record, the first verifiedAt kept', async () => {
    const created = (await app.http.post(`${appPath}/domains`, { hostname: 'verified-twice.example.org' })).body;
    const dns = publishing({ [created.verificationRecord.name]: created.verificationToken });
    const verify = () => verifyWith(app, app.root.apiKey, { applicationId: app.root.applicationId }, created.id, dns);
    // The first waits at the database for the row, holding the hostname's lock; the second for its turn at that lock.
    const queued = (count: number) => (count === 1 ? lockWaitersAtLeast(app.gatehouse.services.orm, 1) : lockTurnsWaitingAtLeast(1));
    const answers = await queuedBehind(app.gatehouse.services.orm, rowOf('domain', created.id), { lock: 'share' }, [verify, verify], queued);
    expect(answers.map((answer) => answer.verified)).toEqual([true, true]);
    const records = await recordsOf('domain.verified', created.id);
    expect(records).toHaveLength(1);
    expect(answers.map((answer) => answer.domain.verifiedAt?.toISOString())).toEqual([records[0]!.after.verifiedAt, records[0]!.after.verifiedAt]);
  }, 30_000);

  const overrides = [
    { feature: 'branding', path: '/branding', body: { copy: { 'login.title': 'Hello' } }, action: 'branding.override.removed', targetId: null },
    {
      feature: 'email_provider',
      path: '/email/provider',
      body: { type: 'smtp', fromAddress: 'mail@example.com', smtp: { host: 'smtp.example.com', port: 587 } },
      action: 'email_provider.override.removed',
      targetId: null,
    },
    {
      feature: 'email_template',
      path: '/email/templates/verify_email',
      body: { subject: 'Verify', html: '<p>Verify</p>', text: 'Verify' },
      action: 'email_template.override.removed',
      targetId: 'verify_email',
    },
    { feature: 'policy', path: '/policies/password', body: { minLength: 12 }, action: 'policy.override.removed', targetId: 'password' },
  ];
  it.each(overrides)('removing a tenant’s $feature override twice: 204, then 404, one record', async ({ feature, path, body, action, targetId }) => {
    expect((await app.http.put(`${tenantPath}${path}`, body)).status).toBe(200);
    const [row] = await app.sql<{ id: string }>('select id from setting where tenant_id = ? and feature = ?', [tenantId, feature]);
    const answers = await twiceAtOnce(rowOf('setting', row!.id), () => app.http.delete(`${tenantPath}${path}`));
    expect(statuses(answers)).toEqual([204, 404]);
    expect(answers[1]!.body).toMatchObject({ code: 'not_found' });
    expect(await recordsOf(action, targetId, 'and tenant_id = ?', [tenantId])).toHaveLength(1);
  }, 30_000);

  it('renaming a tenant twice at once: each record’s before is what the other left', async () => {
    const renamed = await app.createTenant('Renamed at once');
    const rename = (name: string) => () => app.http.patch(`${appPath}/tenants/${renamed}`, { name });
    const answers = await queuedBehind(app.gatehouse.services.orm, rowOf('tenant', renamed), { lock: 'share' }, [rename('First'), rename('Second')]);
    expect(statuses(answers)).toEqual([200, 200]);
    const records = await recordsOf('tenant.updated', renamed);
    expect(records.map((record) => [record.before.name, record.after.name])).toEqual([
      ['Renamed at once', 'First'],
      ['First', 'Second'],
    ]);
  }, 30_000);

  it('deleting an application twice: 204, then 404, one record', async () => {
    const created = (await app.http.post('/applications', { name: 'Deleted twice' })).body;
    const client = app.as({ apiKey: created.initialApiKey.secret });
    const answers = await twiceAtOnce({ table: 'application', id: created.id }, () => client.delete(`/applications/${created.id}`));
    expect(statuses(answers)).toEqual([204, 404]);
    expect(answers[1]!.body).toMatchObject({ code: 'not_found', field: 'appId' });
    expect(await recordsOf('application.deleted', created.id)).toHaveLength(1);
  }, 30_000);
});
