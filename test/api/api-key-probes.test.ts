import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, startTestAppWithTenants, type TestApp } from '../support/app.ts';
import type { HttpResponse } from '../support/http.ts';

/** A reviewer's probes of API keys, the common request rules and their refusals, each against the contract. */
let app: TestApp;
let appPath: string;
let tenantA: string;
let tenantB: string;

async function createKey(body: Record<string, unknown>, client = app.http): Promise<{ id: string; secret: string }> {
  const created = await client.post('/api-keys', { name: 'probe', ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.key.id, secret: created.body.secret };
}

const expectError = (response: HttpResponse, status: number, code: string, field?: string) => {
  expect([response.status, response.body?.code, response.body?.field], JSON.stringify(response.body)).toEqual([status, code, field]);
};

beforeAll(async () => {
  ({ app, appPath, tenants: [tenantA, tenantB] } = await startTestAppWithTenants(['Tenant A', 'Tenant B']));
});
afterAll(async () => app?.close());

describe('introspection across scopes', () => {
  it('a tenant key introspects its tenant’s keys only: application-wide and other tenants’ keys read inactive', async () => {
    const inspector = app.as({ apiKey: (await createKey({ permissions: ['api_keys:read'], tenantId: tenantA })).secret });
    const own = await createKey({ permissions: ['users:read'], tenantId: tenantA });
    const wide = await createKey({ permissions: ['users:read'] });
    const other = await createKey({ permissions: ['users:read'], tenantId: tenantB });
    const ownAnswer = await inspector.post('/api-keys/introspect', { secret: own.secret });
    expect([ownAnswer.status, ownAnswer.body.active, ownAnswer.body.key?.id]).toEqual([200, true, own.id]);
    for (const secret of [wide.secret, other.secret]) {
      expect((await inspector.post('/api-keys/introspect', { secret })).body).toEqual({ active: false, key: null });
    }
    const foreign = await app.bootstrapAnother();
    expect((await app.http.post('/api-keys/introspect', { secret: foreign.apiKey })).body).toEqual({ active: false, key: null });
  });

  it('a malformed secret is 422 naming it', async () => {
    expectError(await app.http.post('/api-keys/introspect', { secret: 42 }), 422, 'validation_error', 'secret');
    expectError(await app.http.post('/api-keys/introspect', {}), 422, 'validation_error', 'secret');
  });
});

describe('X-API-Key with a Bearer token (Authentication, rules 1-5)', () => {
  it('a tenant key with a token of another tenant is 403; of another application 401', async () => {
    const keyA = (await createKey({ permissions: ['users:read'], tenantId: tenantA })).secret;
    const tokenB = await app.mintAccessToken({ app_id: app.root.applicationId, tenant_id: tenantB, permissions: ['users:read'] });
    expectError(await app.as({ apiKey: keyA, bearer: tokenB }).get('/users'), 403, 'forbidden');
    const other = await app.bootstrapAnother();
    const foreignToken = await app.mintAccessToken({ app_id: other.applicationId, permissions: ['users:read'] });
    expectError(await app.as({ apiKey: keyA, bearer: foreignToken }).get('/users'), 401, 'unauthenticated');
  });

  it('a tenant key with a token without tenant: another tenant’s path is 403', async () => {
    const keyA = (await createKey({ permissions: ['users:read'], tenantId: tenantA })).secret;
    const token = await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['users:read'] });
    expectError(await app.as({ apiKey: keyA, bearer: token }).get(`${appPath}/tenants/${tenantB}/users`), 403, 'forbidden');
  });

  it('the token narrows what a new key may grant: only what both hold', async () => {
    const token = await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['api_keys:write', 'users:read'] });
    const both = app.as({ apiKey: app.root.apiKey, bearer: token });
    expectError(await both.post('/api-keys', { name: 'wide', permissions: ['*'] }), 403, 'forbidden');
    expectError(await both.post('/api-keys', { name: 'wide', permissions: ['users:write'] }), 403, 'forbidden');
    expect((await both.post('/api-keys', { name: 'narrow', permissions: ['users:read'] })).status).toBe(201);
  });

  it('the token narrows rotation too: a key with more than the token may not be rotated', async () => {
    const target = await createKey({ permissions: ['users:*'] });
    const token = await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['api_keys:write', 'users:read'] });
    const rotated = await app.as({ apiKey: app.root.apiKey, bearer: token }).post(`/api-keys/${target.id}/rotate`);
    expectError(rotated, 403, 'forbidden');
    expect((await app.as({ apiKey: target.secret }).get('/users')).status).toBe(200);
  });
});

describe('Idempotency-Key on destructive operations', () => {
  it('the same key on another path is 409 and revokes nothing', async () => {
    const [first, second] = [await createKey({ permissions: ['users:read'] }), await createKey({ permissions: ['users:read'] })];
    const key = randomUUID();
    expect((await app.http.delete(`/api-keys/${first.id}`, { headers: { 'idempotency-key': key } })).status).toBe(204);
    expectError(await app.http.delete(`/api-keys/${second.id}`, { headers: { 'idempotency-key': key } }), 409, 'idempotency_conflict');
    expect((await app.as({ apiKey: second.secret }).get('/users')).status).toBe(200);
    expectError(await app.http.post(`/api-keys/${first.id}/rotate`, undefined, { headers: { 'idempotency-key': key } }), 409, 'idempotency_conflict');
  });

  it('a key that is not a UUID is 422 on DELETE and revokes nothing', async () => {
    const target = await createKey({ permissions: ['users:read'] });
    for (const bad of ['not-a-uuid', '', '123', `${randomUUID()}x`]) {
      expectError(await app.http.delete(`/api-keys/${target.id}`, { headers: { 'idempotency-key': bad } }), 422, 'validation_error', 'Idempotency-Key');
    }
    expect((await app.as({ apiKey: target.secret }).get('/users')).status).toBe(200);
  });

  it('another credential (of this or another application) with the same key is a new request, never the replay', async () => {
    const key = randomUUID();
    const target = await createKey({ permissions: ['users:read'] });
    const rotated = await app.http.post(`/api-keys/${target.id}/rotate`, undefined, { headers: { 'idempotency-key': key } });
    expect(rotated.status).toBe(200);
    const peer = app.as({ apiKey: (await createKey({ permissions: ['*'] })).secret });
    const again = await peer.post(`/api-keys/${target.id}/rotate`, undefined, { headers: { 'idempotency-key': key } });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.secret).not.toBe(rotated.body.secret);
    const foreign = await app.bootstrapAnother();
    const foreignAnswer = await app.as({ apiKey: foreign.apiKey }).post(`/api-keys/${target.id}/rotate`, undefined, { headers: { 'idempotency-key': key } });
    expectError(foreignAnswer, 404, 'not_found', 'keyId');
    expect(foreignAnswer.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('pagination', () => {
  it('pageSize defaults to 20, takes 1..100, refuses anything else naming pageSize', async () => {
    for (let i = 0; i < 22; i++) await createKey({ permissions: ['users:read'] });
    const first = await app.http.get('/api-keys');
    expect(first.body.data).toHaveLength(20);
    expect(typeof first.body.next).toBe('string');
    expect((await app.http.get('/api-keys?pageSize=100')).status).toBe(200);
    for (const size of ['0', '101', '-1', '1.5', 'abc', '']) {
      expectError(await app.http.get(`/api-keys?pageSize=${size}`), 422, 'validation_error', 'pageSize');
    }
  });

  it('a cursor of another list, tenant or application, or altered, is 422 naming cursor', async () => {
    for (let i = 0; i < 3; i++) await createKey({ permissions: ['users:read'], tenantId: tenantA });
    const keysCursor = (await app.http.get('/api-keys?pageSize=1')).body.next as string;
    const tenantCursor = (await app.http.get(`${appPath}/tenants/${tenantA}/api-keys?pageSize=1`)).body.next as string;
    expect(keysCursor).toEqual(expect.any(String));
    expect(tenantCursor).toEqual(expect.any(String));
    const foreign = app.as({ apiKey: (await app.bootstrapAnother()).apiKey });
    const refusals = [
      await app.http.get(`/m2m-credentials?cursor=${encodeURIComponent(keysCursor)}`),
      await app.http.get(`/users?cursor=${encodeURIComponent(keysCursor)}`),
      await app.http.get(`${appPath}/tenants/${tenantB}/api-keys?cursor=${encodeURIComponent(tenantCursor)}`),
      await app.http.get(`/api-keys?cursor=${encodeURIComponent(tenantCursor)}`),
      await foreign.get(`/api-keys?cursor=${encodeURIComponent(keysCursor)}`),
      await app.http.get(`/api-keys?cursor=${encodeURIComponent(keysCursor.slice(0, -1) + (keysCursor.endsWith('A') ? 'B' : 'A'))}`),
      await app.http.get(`/api-keys?cursor=${encodeURIComponent(Buffer.from(JSON.stringify({ a: randomUUID() })).toString('base64url'))}`),
      await app.http.get(`/api-keys?cursor=${encodeURIComponent(`${Buffer.from('{').toString('base64url')}.${keysCursor.split('.')[1]}`)}`),
    ];
    for (const refused of refusals) expectError(refused, 422, 'validation_error', 'cursor');
  });
});

describe('rate-limit headers', () => {
  it('are on every management answer: success, 401, 403, 404, 405, 415, 422, GraphQL', async () => {
    const reader = app.as({ apiKey: (await createKey({ permissions: ['users:read'] })).secret });
    const answers = [
      await app.http.get('/users'),
      await app.as({}).get('/users'),
      await app.as({ apiKey: 'ghk_nothing' }).get('/users'),
      await reader.post('/users', { email: 'x@example.com' }),
      await app.http.get('/no-such-route'),
      await app.http.request('PATCH', '/api/v1/api-keys/introspect'),
      await app.http.request('POST', '/api/v1/api-keys', { raw: new TextEncoder().encode('name=x'), headers: { 'content-type': 'text/plain' } }),
      await app.http.get('/users?pageSize=0'),
      await app.http.graphql('{ users { data { id } } }'),
      await app.http.request('GET', '/.well-known/openid-configuration'),
      await app.http.request('POST', '/oauth2/token'),
    ];
    for (const answer of answers) {
      for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
        expect(answer.headers.get(header), `${answer.status} ${JSON.stringify(answer.body).slice(0, 80)} ${header}`).toMatch(/^\d+$/);
      }
    }
  });
});

describe('M2M credentials across tenants', () => {
  it('a tenant scope cannot rotate, revoke or replace the keys of an application-wide or another tenant’s credential: 404, nothing changes', async () => {
    const tenantKey = app.as({ apiKey: (await createKey({ permissions: ['m2m_credentials:*', 'users:read'], tenantId: tenantA })).secret });
    const jwk = { kty: 'EC', crv: 'P-256', kid: 'k', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' };
    const wide = (await app.http.post('/m2m-credentials', { name: 'wide', permissions: ['users:read'], authMethod: 'private_key_jwt', jwks: { keys: [jwk] } })).body;
    const other = (await app.http.post(`${appPath}/tenants/${tenantB}/m2m-credentials`, { name: 'other', permissions: ['users:read'] })).body;
    for (const target of [wide, other]) {
      expectError(await tenantKey.post(`/m2m-credentials/${target.id}/rotate`), 404, 'not_found', 'credentialId');
      expectError(await tenantKey.put(`/m2m-credentials/${target.id}/jwks`, { keys: [{ ...jwk, kid: 'mine' }] }), 404, 'not_found', 'credentialId');
      expectError(await tenantKey.delete(`/m2m-credentials/${target.id}`), 404, 'not_found', 'credentialId');
      expectError(await tenantKey.get(`/m2m-credentials/${target.id}`), 404, 'not_found', 'credentialId');
      const after = (await app.http.get(`/m2m-credentials/${target.id}`)).body;
      expect([after.revokedAt, after.jwks, after.updatedAt]).toEqual([null, target.jwks, target.updatedAt]);
    }
  });
});

describe('a deactivated organization', () => {
  it('its keys and tokens can neither read, create, revoke, rotate nor introspect; another organization is served', async () => {
    const orgId = (await app.http.get(`/applications/${app.root.applicationId}`)).body.organizationId as string;
    const target = await createKey({ permissions: ['users:read'] });
    const token = await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['*'] });
    expect((await app.http.post(`/organizations/${orgId}/deactivate`)).status).toBe(200);
    try {
      for (const client of [app.http, app.as({ bearer: token }), app.as({ apiKey: app.root.apiKey, bearer: token })]) {
        const refusals = [
          await client.get('/api-keys'),
          await client.post('/api-keys', { name: 'x', permissions: ['users:read'] }),
          await client.post('/api-keys/introspect', { secret: target.secret }),
          await client.delete(`/api-keys/${target.id}`, { headers: { 'idempotency-key': randomUUID() } }),
          await client.post(`/api-keys/${target.id}/rotate`),
          await client.post('/m2m-credentials', { name: 'x', permissions: ['users:read'] }),
          await client.put(`/organizations/${orgId}/billing`, { plan: 'pro' }),
        ];
        for (const refused of refusals) expectError(refused, 403, 'organization_deactivated');
      }
      expectError(await app.as({ apiKey: target.secret }).get('/users'), 403, 'organization_deactivated');
      const key = (await app.sql<{ revoked_at: Date | null; last_rotated_at: Date | null }>('select revoked_at, last_rotated_at from api_key where id = ?', [target.id]))[0];
      expect(key).toEqual({ revoked_at: null, last_rotated_at: null });
      const foreign = await app.bootstrapAnother();
      expect((await app.as({ apiKey: foreign.apiKey }).get('/api-keys')).status).toBe(200);
    } finally {
      expect((await app.http.post(`/organizations/${orgId}/reactivate`)).status).toBe(200);
    }
    expect((await app.as({ apiKey: target.secret }).get('/users')).status).toBe(200);
    expect((await app.http.get(`/organizations/${orgId}`)).body.billing.plan).toBe('free');
  });
});

describe('429', () => {
  it('a request over the limit is 429 with Retry-After and the headers, and changes nothing; another credential is counted apart', async () => {
    const limited = await startTestApp({ rateLimit: { max: 3, windowMs: 60_000, redisPrefix: `gatehouse-test-${randomUUID()}-` } });
    try {
      const created = await limited.http.post('/api-keys', { name: 'spare', permissions: ['users:read'] });
      const other = await limited.http.post('/api-keys', { name: 'other', permissions: ['users:read'] });
      expect((await limited.http.get('/users')).headers.get('x-ratelimit-remaining')).toBe('0');
      const refused = await limited.http.delete(`/api-keys/${created.body.key.id}`);
      expectError(refused, 429, 'rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(refused.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
      const gql = await limited.http.graphql('{ apiKeys { data { id } } }');
      expect([gql.status, gql.body.errors?.[0]?.extensions.code]).toEqual([429, 'rate_limited']);
      expect((await limited.sql<{ revoked_at: Date | null }>('select revoked_at from api_key where id = ?', [created.body.key.id]))[0]?.revoked_at).toBeNull();
      expect((await limited.as({ apiKey: other.body.secret }).get('/users')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
