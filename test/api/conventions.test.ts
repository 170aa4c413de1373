import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandRoutes, ROUTES } from '../../src/rest/routes.ts';
import { createServer, type Server } from '../../src/server.ts';
import { startTestApp, startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { forgeCursor } from '../support/cursors.ts';
import { HttpClient, rawRequest, type HttpResponse, type RawResponse } from '../support/http.ts';
import { issueTestKey } from '../support/keys.ts';

const SAMPLE_ID = '01890a5d-ac96-774b-bcce-b302099a8057';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectRateLimitHeaders(response: HttpResponse, label: string) {
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    expect(response.headers.get(name), `${label}: ${name}`).toMatch(/^\d+$/);
  }
}

describe('conventions on every response', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => app?.close());

  it('carries X-RateLimit-Limit, -Remaining and -Reset on successes and on every kind of error, over REST and GraphQL', async () => {
    const appPath = `/applications/${app.root.applicationId}`;
    const responses: Record<string, HttpResponse> = {
      'REST 200': await app.http.get('/applications'),
      'REST 401': await app.as({}).get('/applications'),
      'REST 404': await app.http.get('/nowhere'),
      'REST 405': await app.http.request('PUT', `/api/v1${appPath}`, { body: {} }),
      'REST 413': await app.http.patch(appPath, { name: 'x'.repeat(1024 * 1024 + 1) }),
      'REST 415': await app.http.request('PATCH', `/api/v1${appPath}`, { raw: 'name=x', headers: { 'content-type': 'text/plain' } }),
      'REST 422': await app.http.get('/applications/not-a-uuid'),
      'GraphQL 200': await app.http.graphql('{ version }'),
      'GraphQL 401': await app.as({}).graphql('{ version }'),
      'GraphQL 422': await app.http.graphql('{ nothing }'),
      'GraphQL 413': await app.http.graphql('{ version }', { padding: 'x'.repeat(1024 * 1024 + 1) }),
      // No route takes these: an oversized body on an unknown path, a path that is not valid percent-encoding, a path
      // parameter past the router's limit (under it, the parameter's validation answers).
      'unknown path 413': await app.as({}).request('POST', '/nowhere', { body: { padding: 'x'.repeat(1024 * 1024 + 1) } }),
      'malformed path 404': await app.http.request('GET', '/api/v1/users/%E0%A4%A'),
      'overlong parameter 404': await app.http.get(`/users/${'a'.repeat(1100)}`),
      'long parameter 422': await app.http.get(`/users/${'a'.repeat(1000)}`),
    };
    const statuses = Object.fromEntries(Object.entries(responses).map(([label, response]) => [label, response.status]));
    expect(statuses).toEqual({
      'REST 200': 200,
      'REST 401': 401,
      'REST 404': 404,
      'REST 405': 405,
      'REST 413': 413,
      'REST 415': 415,
      'REST 422': 422,
      'GraphQL 200': 200,
      'GraphQL 401': 401,
      'GraphQL 422': 422,
      'GraphQL 413': 413,
      'unknown path 413': 413,
      'malformed path 404': 404,
      'overlong parameter 404': 404,
      'long parameter 422': 422,
    });
    expect(responses['malformed path 404']?.body).toEqual({ code: 'not_found', message: expect.any(String) });
    expect(responses['overlong parameter 404']?.headers.get('x-request-id')).toMatch(UUID);
    expect(responses['long parameter 422']?.body).toMatchObject({ code: 'validation_error', field: 'userId' });
    for (const [label, response] of Object.entries(responses)) expectRateLimitHeaders(response, label);
    expect(responses['REST 200']?.headers.get('x-ratelimit-limit')).toBe('100000');
  });

  it('never takes the application or tenant from the query string, on any route of the table', async () => {
    const wrong: string[] = [];
    for (const route of expandRoutes(ROUTES)) {
      const { variables } = route.operation;
      const url = route.url.replace(/:(\w+)/g, (_match, name: string) => (name === 'appId' ? app.root.applicationId : SAMPLE_ID));
      for (const name of ['appId', 'tenantId'].filter((n) => variables.has(n) && !route.url.includes(`:${n}`))) {
        const response = await app.http.request(route.method, `/api/v1${url}?${name}=${SAMPLE_ID}`, route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} });
        if (response.status !== 422 || response.body.field !== name) wrong.push(`${route.method} ${route.url}?${name} → ${response.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('an answer to credentials is never stored by a cache nor sniffed: the secrets of creations and rotations, a mail’s link', async () => {
    const key = await app.http.post('/api-keys', { name: 'cached?', permissions: ['users:read'] });
    const client = await app.http.post('/oauth-clients', { name: 'web', type: 'web', redirectUris: ['https://app.example/cb'] });
    const answers = [
      key,
      await app.http.post(`/api-keys/${key.body.key.id as string}/rotate`),
      client,
      await app.http.post(`/oauth-clients/${client.body.id as string}/rotate-secret`, {}),
      await app.http.post('/m2m-credentials', { name: 'svc', permissions: ['users:read'] }),
      await app.http.graphql('mutation { createApiKey(input: { name: "gql", permissions: ["users:read"] }) { secret } }'),
      await app.http.get('/email/deliveries?pageSize=1'),
      await app.as({ apiKey: 'ghk_wrong' }).get('/users'),
    ];
    for (const [index, answer] of answers.entries()) {
      expect(answer.headers.get('cache-control'), String(index)).toBe('no-store');
      expect(answer.headers.get('x-content-type-options'), String(index)).toBe('nosniff');
    }
  });

  it('echoes a sane X-Request-Id and replaces anything else with a fresh UUID', async () => {
    const kept = await app.http.get('/applications', { headers: { 'x-request-id': 'trace-42.abc:def' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-42.abc:def');
    const keptOnError = await app.as({}).graphql('{ version }', {}, { headers: { 'x-request-id': 'trace-43' } });
    expect(keptOnError.headers.get('x-request-id')).toBe('trace-43');
    for (const insane of ['has spaces', 'x'.repeat(129), 'semi;colon']) {
      const replaced = await app.http.get('/applications', { headers: { 'x-request-id': insane } });
      expect(replaced.headers.get('x-request-id')).toMatch(UUID);
    }
    const fresh = [await app.http.get('/applications'), await app.http.get('/applications')].map((r) => r.headers.get('x-request-id'));
    expect(fresh[0]).toMatch(UUID);
    expect(fresh[0]).not.toBe(fresh[1]);
  });

  it('answers /healthz and /readyz without credentials', async () => {
    const health = await app.as({}).request('GET', '/healthz');
    expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await app.as({}).request('GET', '/readyz');
    expect(ready).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('a version other than /api/v1 is 404 saying that version is not served and where the API is, with or without credentials', async () => {
    for (const [client, path] of [
      [app.http, '/api/v2/users'],
      [app.as({}), '/api/v2/users'],
      [app.http, '/api/v0/applications'],
      [app.http, '/api/v2'],
    ] as const) {
      const answer = await client.request('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).toEqual({ code: 'not_found', message: `API version ${path.split('/')[2]} is not served; this service serves /api/v1` });
      expectRateLimitHeaders(answer, path);
    }
    // The served version's own unknown paths keep the route's answer.
    expect((await app.http.get('/nowhere')).body).toEqual({ code: 'not_found', message: 'No route GET /api/v1/nowhere' });
    const unversioned = await app.http.request('GET', '/api/users');
    expect(unversioned.body).toEqual({ code: 'not_found', message: 'No route GET /api/users; management paths are rooted at /api/v1' });
  });

  it('a path ending in `/` or with an empty segment is no route on every method, with or without credentials: never an item with an empty id', async () => {
    const filled = (url: string) => url.replace(/:(\w+)/g, (_match, name: string) => (name === 'appId' ? app.root.applicationId : SAMPLE_ID));
    const paths = new Set<string>(['/', '/applications/', `/applications/${app.root.applicationId}/`, '/audit-logs/stream/', '/applications//audit-logs/stream', `/applications/${app.root.applicationId}/tenants//audit-logs/stream`]);
    for (const { url } of expandRoutes(ROUTES)) {
      paths.add(`${filled(url)}/`);
      // Each parameter left empty in turn: a trailing one is the path `/users/`, an inner one `/users//sessions`.
      for (const [param] of url.matchAll(/:\w+/g)) paths.add(filled(url.replace(param, '')));
    }
    const wrong: string[] = [];
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
        const answer = await app.http.request(method, `/api/v1${path}`, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
        const expected = { code: 'not_found', message: `No route ${method} /api/v1${path}` };
        if (answer.status !== 404 || JSON.stringify(answer.body) !== JSON.stringify(expected) || answer.headers.get('allow') !== null) {
          wrong.push(`${method} ${path} → ${answer.status} ${JSON.stringify(answer.body)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    for (const client of [app.http, app.as({}), app.as({ apiKey: 'ghk_wrong' })]) {
      const answer = await client.request('DELETE', '/api/v1/users/');
      expect(answer.body).toEqual({ code: 'not_found', message: 'No route DELETE /api/v1/users/' });
      expectRateLimitHeaders(answer, 'DELETE /api/v1/users/');
    }
    // The paths without the slash answer as before.
    expect((await app.http.get('/users')).status).toBe(200);
    expect((await app.http.request('PUT', '/api/v1/users')).headers.get('allow')).toBe('GET, POST, HEAD');
    expect((await app.http.get('/users/not-a-uuid')).body).toMatchObject({ code: 'validation_error', field: 'userId' });
  });

  it('GraphQL errors carry code, status and field in extensions, with the HTTP status of the error', async () => {
    const missing = await app.http.graphql('query($appId: UUID!) { application(appId: $appId) { id } }', { appId: SAMPLE_ID });
    expect(missing.status).toBe(404);
    expect(missing.body.errors?.[0]?.extensions).toMatchObject({ code: 'not_found', status: 404 });

    const malformed = await app.http.graphql('query($appId: UUID!) { application(appId: $appId) { id } }', { appId: 'not-a-uuid' });
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors?.[0]?.extensions).toEqual({ code: 'validation_error', status: 422, field: 'appId' });

    const create = 'mutation($appId: UUID!, $input: CreateTenantInput!) { createTenant(appId: $appId, input: $input) { id } }';
    const unknown = await app.http.graphql(create, { appId: app.root.applicationId, input: { name: 'Acme', colour: 'red' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors?.[0]?.extensions).toEqual({ code: 'validation_error', status: 422, field: 'colour' });
    const literal = await app.http.graphql(`mutation { createTenant(appId: "${app.root.applicationId}", input: { name: "Acme", colour: "red" }) { id } }`);
    expect(literal.status).toBe(422);
    expect(literal.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', status: 422 });

    const anonymous = await app.as({}).graphql('{ version }');
    expect(anonymous.body.errors?.[0]?.extensions).toMatchObject({ code: 'unauthenticated', status: 401 });
  });

  it('refuses malformed input with the same message and field over REST as over GraphQL, and changes nothing', async () => {
    const appId = app.root.applicationId;
    const operation = (name: string) => expandRoutes(ROUTES).find((route) => route.operation.name === name)!.operation.query;
    const before = await app.http.get(`/applications/${appId}/tenants?pageSize=100`);
    const cases = [
      { method: 'PATCH', path: `/applications/${appId}`, body: { tenancyConfig: { brandingScope: 'nope' } }, name: 'UpdateApplication', field: 'tenancyConfig.brandingScope' },
      { method: 'POST', path: `/applications/${appId}/tenants`, body: { name: 'Acme', colour: 'red' }, name: 'CreateTenant', field: 'colour' },
      { method: 'POST', path: `/applications/${appId}/tenants`, body: { name: 5 }, name: 'CreateTenant', field: 'name' },
      { method: 'GET', path: `/applications/${appId}/tenants?pageSize=many`, name: 'ListTenants', variables: { appId, pageSize: 'many' }, field: 'pageSize' },
    ];
    for (const { method, path, body, name, variables, field } of cases) {
      const rest = await app.http.request(method, `/api/v1${path}`, body === undefined ? {} : { body });
      const graphql = await app.http.graphql(operation(name), variables ?? { appId, input: body });
      const [error] = graphql.body.errors ?? [];
      expect(graphql.status, name).toBe(422);
      expect(error?.extensions, name).toEqual({ code: 'validation_error', status: 422, field });
      expect(rest.status, name).toBe(422);
      expect(rest.body, name).toEqual({ code: 'validation_error', message: error?.message, field });
    }
    expect(await app.http.get(`/applications/${appId}/tenants?pageSize=100`)).toMatchObject({ body: before.body });
  });

  it('refuses a JSON array or any other non-object where an object is expected, naming its field, over REST and GraphQL, and changes nothing', async () => {
    const appId = app.root.applicationId;
    const operation = (name: string) => expandRoutes(ROUTES).find((route) => route.operation.name === name)!.operation.query;
    expect((await app.http.put('/branding', { colors: { primary: '#123456' } })).status).toBe(200);
    const branding = async () => (await app.http.get('/branding')).body;
    const application = async () => (await app.http.get(`/applications/${appId}`)).body;
    const [brandingBefore, applicationBefore] = [await branding(), await application()];
    const cases = [
      { method: 'PUT', path: '/branding', body: [], name: 'PutBranding', restField: 'body', field: 'input' },
      { method: 'PUT', path: '/branding', body: 'plain', name: 'PutBranding', restField: 'body', field: 'input' },
      { method: 'PUT', path: '/branding', body: { colors: [] }, name: 'PutBranding', field: 'colors' },
      { method: 'PUT', path: '/branding', body: { colors: [{ primary: '#000000' }] }, name: 'PutBranding', field: 'colors' },
      { method: 'PATCH', path: `/applications/${appId}`, body: [], name: 'UpdateApplication', restField: 'body', field: 'input' },
      { method: 'PATCH', path: `/applications/${appId}`, body: { tenancyConfig: [] }, name: 'UpdateApplication', field: 'tenancyConfig' },
    ];
    for (const { method, path, body, name, restField, field } of cases) {
      const label = `${name} ${JSON.stringify(body)}`;
      const rest = await app.http.request(method, `/api/v1${path}`, { body });
      expect(rest.status, label).toBe(422);
      expect(rest.body, label).toEqual({ code: 'validation_error', message: expect.stringMatching(/expected an object$/), field: restField ?? field });
      const graphql = await app.http.graphql(operation(name), { appId, input: body });
      expect(graphql.status, label).toBe(422);
      expect(graphql.body.errors?.[0]?.extensions, label).toEqual({ code: 'validation_error', status: 422, field });
      expect(graphql.body.errors?.[0]?.message, label).toBe(rest.body.message);
    }
    expect(await branding()).toEqual(brandingBefore);
    expect(await application()).toEqual(applicationBefore);
  });

  it('a required body left out or sent as null is refused as over GraphQL (on `body`, REST’s name for `input`), and writes nothing', async () => {
    const appPath = `/applications/${app.root.applicationId}`;
    const audits = async () => (await app.gatehouse.services.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from audit_log'))[0]!.n;
    const before = await audits();
    const graphql = await app.http.graphql('mutation($appId: UUID!) { updateApplication(appId: $appId, input: null) { id } }', { appId: app.root.applicationId });
    expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'input', status: 422 });
    for (const body of [undefined, null]) {
      const refused = await app.http.request('PATCH', `/api/v1${appPath}`, body === undefined ? {} : { body });
      expect(refused.status, String(body)).toBe(422);
      expect(refused.body, String(body)).toMatchObject({ code: 'validation_error', field: 'body' });
    }
    expect(await audits()).toBe(before);
    // An optional body (a rotation's) may still be left out.
    const client = await app.http.post('/oauth-clients', { name: 'Rotated without a body', type: 'web', redirectUris: ['https://app.example/cb'] });
    expect((await app.http.post(`/oauth-clients/${client.body.clientId}/rotate-secret`)).status).toBe(200);
  });

  it('REST takes a list only as a JSON array, as its OpenAPI schema says; GraphQL coerces a single value as its spec says', async () => {
    const listed = async () => (await app.http.get('/oauth-clients?pageSize=100')).body.data.length;
    const before = await listed();
    const cases = [
      { path: '/oauth-clients', body: { name: 'One URI', type: 'web', redirectUris: 'https://app.example/cb' }, field: 'redirectUris', expected: 'an array of strings' },
      { path: '/api-keys', body: { name: 'One permission', permissions: 'users:read' }, field: 'permissions', expected: 'an array of strings' },
      { path: '/m2m-credentials', body: { name: 'One key', permissions: ['users:read'], authMethod: 'private_key_jwt', jwks: { keys: { kty: 'EC' } } }, field: 'jwks.keys', expected: 'an array of objects' },
    ];
    for (const { path, body, field, expected } of cases) {
      const refused = await app.http.post(path, body);
      expect(refused.status, path).toBe(422);
      expect(refused.body, path).toEqual({ code: 'validation_error', message: `Invalid ${field}: expected ${expected}`, field });
    }
    expect(await listed()).toBe(before);
    // The same value as a list of one is taken.
    expect((await app.http.post('/oauth-clients', { ...cases[0]!.body, redirectUris: ['https://app.example/cb'] })).status).toBe(201);
    const viaGraphQL = await app.http.graphql('mutation($input: CreateOAuthClientInput!) { createOAuthClient(input: $input) { redirectUris } }', {
      input: cases[0]!.body,
    });
    expect(viaGraphQL.body.data?.createOAuthClient).toEqual({ redirectUris: ['https://app.example/cb'] });
  });

  it('refuses a UUID in braces or with a stray brace as any other malformed id, in a path, a body and a GraphQL argument', async () => {
    const malformedId = await app.http.get('/users/not-a-uuid');
    expect(malformedId.body).toMatchObject({ code: 'validation_error', field: 'userId' });
    const userQuery = 'query($userId: UUID!) { user(userId: $userId) { id } }';
    const malformedOverGraphQL = await app.http.graphql(userQuery, { userId: 'not-a-uuid' });
    for (const braced of [`${SAMPLE_ID}}`, `{${SAMPLE_ID}}`, `{${SAMPLE_ID}`]) {
      const path = await app.http.get(`/users/${encodeURIComponent(braced)}`);
      expect(path, braced).toMatchObject({ status: 422, body: malformedId.body });
      const body = await app.http.post('/users', { email: 'braced@app.example', tenantId: braced });
      expect(body, braced).toMatchObject({ status: 422, body: { code: 'validation_error', field: 'tenantId' } });
      const variable = await app.http.graphql(userQuery, { userId: braced });
      expect(variable.status, braced).toBe(422);
      expect(variable.body.errors?.[0], braced).toEqual(malformedOverGraphQL.body.errors?.[0]);
      const literal = await app.http.graphql(`{ user(userId: "${braced}") { id } }`);
      expect(literal.status, braced).toBe(422);
      expect(literal.body.errors?.[0]?.extensions, braced).toEqual({ code: 'validation_error', status: 422, field: 'userId' });
    }
  });

  it('refuses a UUID of another version and the nil UUID as malformed ids (ids are UUIDv7), in a path, a body, a list and a GraphQL argument', async () => {
    const message = 'Invalid userId: expected a UUIDv7 (Gatehouse ids are UUIDv7)';
    const userQuery = 'query($userId: UUID!) { user(userId: $userId) { id } }';
    const usersBefore = (await app.http.get('/users?pageSize=100')).body.data.length;
    for (const id of ['550e8400-e29b-41d4-a716-446655440000', '00000000-0000-0000-0000-000000000000', SAMPLE_ID.replace('-774b-', '-174b-')]) {
      expect(await app.http.get(`/users/${id}`), id).toMatchObject({ status: 422, body: { code: 'validation_error', message, field: 'userId' } });
      expect(await app.http.delete(`/applications/${app.root.applicationId}/tenants/${id}`), id).toMatchObject({
        status: 422,
        body: { code: 'validation_error', field: 'tenantId' },
      });
      const body = await app.http.post('/users', { email: 'not-seven@app.example', tenantId: id });
      expect(body, id).toMatchObject({ status: 422, body: { code: 'validation_error', message: 'Invalid tenantId: expected a UUIDv7 (Gatehouse ids are UUIDv7)', field: 'tenantId' } });
      expect(await app.http.get(`/users?ids=${SAMPLE_ID},${id}`), id).toMatchObject({ status: 422, body: { code: 'validation_error', field: 'ids[1]' } });
      const variable = await app.http.graphql(userQuery, { userId: id });
      expect(variable.status, id).toBe(422);
      expect(variable.body.errors?.[0], id).toMatchObject({ message, extensions: { code: 'validation_error', status: 422, field: 'userId' } });
      const literal = await app.http.graphql(`{ user(userId: "${id}") { id } }`);
      expect(literal.status, id).toBe(422);
      expect(literal.body.errors?.[0]?.extensions, id).toEqual({ code: 'validation_error', status: 422, field: 'userId' });
      const input = await app.http.graphql('mutation($input: CreateUserInput!) { createUser(input: $input) { id } }', { input: { email: 'not-seven@app.example', tenantId: id } });
      expect(input.body.errors?.[0]?.extensions, id).toEqual({ code: 'validation_error', status: 422, field: 'tenantId' });
    }
    expect((await app.http.get('/users?pageSize=100')).body.data.length).toBe(usersBefore);
    // A well-formed UUIDv7 of nothing is looked up: 404, not 422.
    expect(await app.http.get(`/users/${SAMPLE_ID}`)).toMatchObject({ status: 404, body: { code: 'not_found', field: 'userId' } });
  });

  it('gives every created resource a UUIDv7 id, and ids sort lexically in the order of creation, over REST and GraphQL alike', async () => {
    const made: string[] = [];
    for (let round = 0; round < 3; round++) {
      made.push((await app.http.post(`/applications/${app.root.applicationId}/tenants`, { name: `Sorted ${round}` })).body.id);
      made.push((await app.http.post('/users', { email: `sorted-${round}@ids.test` })).body.id);
      const tenant = await app.http.graphql<{ createTenant: { id: string } }>(
        'mutation($appId: UUID!, $name: String!) { createTenant(appId: $appId, input: { name: $name }) { id } }',
        { appId: app.root.applicationId, name: `Sorted by GraphQL ${round}` },
      );
      made.push(tenant.body.data?.createTenant.id ?? '');
      made.push((await app.http.post('/roles', { key: `sorted-${round}`, name: `Sorted ${round}`, permissions: ['users:read'] })).body.id);
      made.push((await app.http.post('/api-keys', { name: `sorted ${round}`, permissions: ['users:read'] })).body.key.id);
    }
    for (const id of made) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...made].sort()).toEqual(made);
  });

  it('reads UUIDs case-insensitively and answers them in lower case', async () => {
    const appId = app.root.applicationId;
    const upper = await app.http.get(`/applications/${appId.toUpperCase()}`);
    expect(upper).toMatchObject({ status: 200, body: { id: appId } });
    const overGraphQL = await app.http.graphql(`{ application(appId: "${appId.toUpperCase()}") { id } }`);
    expect(overGraphQL).toMatchObject({ status: 200, body: { data: { application: { id: appId } } } });
    const tenantId = await app.createTenant('Upper Case');
    const tenantKey = await issueTestKey(app, { tenantId });
    const ownTenant = await tenantKey.get(`/applications/${appId}/tenants/${tenantId.toUpperCase()}`);
    expect(ownTenant).toMatchObject({ status: 200, body: { id: tenantId } });
  });

  it('never echoes a refused value in the message: it may be a secret', async () => {
    const refusals = [
      {
        secret: 'SG.TOPSECRETVALUE',
        field: 'secrets.apikey',
        rest: () => app.http.put('/email/provider', { type: 'sendgrid', fromAddress: 'a@app.example', secrets: { apikey: 'SG.TOPSECRETVALUE' } }),
        variable: () =>
          app.http.graphql('mutation($input: EmailProviderInput!) { putEmailProvider(input: $input) { type } }', {
            input: { type: 'sendgrid', fromAddress: 'a@app.example', secrets: { apikey: 'SG.TOPSECRETVALUE' } },
          }),
        literal: () => app.http.graphql('mutation { putEmailProvider(input: { type: sendgrid, fromAddress: "a@app.example", secrets: { apikey: "SG.TOPSECRETVALUE" } }) { type } }'),
      },
      {
        secret: 'GHSECRETSTRING',
        field: 'secrets',
        rest: () => app.http.post('/auth-providers', { type: 'oauth', config: { provider: 'github', clientId: 'gh' }, secrets: 'GHSECRETSTRING' }),
        variable: () =>
          app.http.graphql('mutation($input: CreateAuthProviderInput!) { createAuthProvider(input: $input) { id } }', {
            input: { type: 'oauth', config: { provider: 'github', clientId: 'gh' }, secrets: 'GHSECRETSTRING' },
          }),
        literal: () => app.http.graphql('mutation { createAuthProvider(input: { type: oauth, secrets: "GHSECRETSTRING" }) { id } }'),
      },
      {
        secret: 'p4ssw0rd-in-the-wrong-place',
        field: 'userId',
        rest: () => app.http.get('/users/p4ssw0rd-in-the-wrong-place'),
        variable: () => app.http.graphql('query($id: UUID!) { user(userId: $id) { id } }', { id: 'p4ssw0rd-in-the-wrong-place' }),
        literal: () => app.http.graphql('{ user(userId: "p4ssw0rd-in-the-wrong-place") { id } }'),
      },
    ];
    for (const { secret, field, rest, variable, literal } of refusals) {
      const overRest = await rest();
      expect(overRest, secret).toMatchObject({ status: 422, body: { code: 'validation_error', field } });
      expect(overRest.body.message, secret).not.toContain(secret);
      for (const response of [await variable(), await literal()]) {
        const [error] = response.body.errors ?? [];
        expect(response.status, secret).toBe(422);
        expect(error?.extensions, secret).toEqual({ code: 'validation_error', status: 422, field });
        expect(error?.message, secret).not.toContain(secret);
      }
    }
  });

  it('answers transport failures on /graphql in the GraphQL error shape too', async () => {
    const huge = await app.http.graphql('{ version }', { padding: 'x'.repeat(1024 * 1024 + 1) });
    expect(huge.body.errors?.[0]?.extensions).toMatchObject({ code: 'payload_too_large', status: 413 });
    const text = await app.http.request('POST', '/graphql', { raw: '{ version }', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.body.errors?.[0]?.extensions).toMatchObject({ code: 'unsupported_media_type', status: 415 });
  });

  it('a JSON body must be UTF-8: other bytes are 422 on body over REST and GraphQL, and create nothing', async () => {
    const tenants = `/applications/${app.root.applicationId}/tenants`;
    const count = async () => (await app.http.get(`${tenants}?pageSize=100`)).body.data.length as number;
    const before = await count();
    const json = { 'content-type': 'application/json' };
    const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => Buffer.from(typeof part === 'string' ? Buffer.from(part) : part)));
    // Invalid bytes, latin-1's é, an overlong '/', and the UTF-8 bytes of a lone surrogate (which \ud800 is refused as).
    for (const invalid of [[0xff, 0xfe], [0xe9], [0xc0, 0xaf], [0xed, 0xa0, 0x80]]) {
      const rest = await app.http.request('POST', `/api/v1${tenants}`, { raw: bytes('{"name":"bad', invalid, '"}'), headers: json });
      expect(rest.status, JSON.stringify(invalid)).toBe(422);
      expect(rest.body).toEqual({ code: 'validation_error', message: 'The request body is not UTF-8 text', field: 'body' });
      const query = 'mutation($input: CreateTenantInput!) { createTenant(input: $input) { id } }';
      const graphql = await app.http.request('POST', '/graphql', {
        raw: bytes(`{"query":${JSON.stringify(query)},"variables":{"input":{"name":"bad`, invalid, '"}}}'),
        headers: json,
      });
      expect(graphql.status).toBe(422);
      expect(graphql.body.errors[0].extensions).toMatchObject({ code: 'validation_error', field: 'body', status: 422 });
    }
    expect(await count()).toBe(before);
    // UTF-8 is taken as written, after a byte order mark too.
    const accepted = await app.http.request('POST', `/api/v1${tenants}`, { raw: bytes([0xef, 0xbb, 0xbf], '{"name":"Café Zoë"}'), headers: json });
    expect(accepted.status).toBe(201);
    expect(accepted.body.name).toBe('Café Zoë');
  });

  it('serves a GraphiQL page whose scripts and styles are all inline', async () => {
    const page = await app.as({}).request<string>('GET', '/graphql');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const tags = page.body.match(/<(script|link)\b[^>]*>/gi) ?? [];
    expect(tags.length).toBeGreaterThan(0);
    const external = tags.filter((tag) => /\b(src|href)\s*=\s*["']?\s*(https?:)?\/\//i.test(tag));
    expect(external).toEqual([]);
  });

  it('serves the GraphiQL page as every HTML answer: never framed or sniffed, no Referer, its own scripts only', async () => {
    const page = await app.as({}).request<string>('GET', '/graphql');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const policy = Object.fromEntries((page.headers.get('content-security-policy') ?? '').split(/;\s*/).map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1)]));
    expect(policy).toMatchObject({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"], 'base-uri': ["'none'"], 'connect-src': ["'self'"] });
    // Each inline script by its hash, and nothing else: no 'unsafe-inline', no origin.
    const scripts = [...page.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, content = '']) => `'sha256-${createHash('sha256').update(content).digest('base64')}'`);
    expect(scripts.length).toBeGreaterThan(0);
    expect(policy['script-src']).toEqual([...new Set(scripts)]);
    // A JSON answer beside it carries no page policy.
    const api = await app.http.graphql('{ version }');
    expect(api.headers.get('content-security-policy')).toBeNull();
  });

  describe('methods HTTP defines that no route takes', () => {
    it('QUERY (RFC 10008) and TRACE on a path of the route table are 405 with Allow, with or without a Content-Type, never a 500', async () => {
      const key = { 'x-api-key': app.root.apiKey };
      const json = { ...key, 'content-type': 'application/json' };
      const answers = {
        'QUERY without Content-Type': await rawRequest(app.baseUrl, 'QUERY', '/api/v1/users', key),
        'QUERY with a JSON body': await rawRequest(app.baseUrl, 'QUERY', '/api/v1/users', json, '{}'),
        TRACE: await rawRequest(app.baseUrl, 'TRACE', '/api/v1/users', key),
        'QUERY on a record': await rawRequest(app.baseUrl, 'QUERY', `/api/v1/users/${app.root.applicationId}`, key),
      };
      for (const [label, answer] of Object.entries(answers)) {
        expect(answer.status, `${label}: ${answer.body}`).toBe(405);
        expect(answer.headers['allow'], label).toMatch(/^GET, (POST, )?(PATCH, DELETE, )?HEAD$/);
        expect(JSON.parse(answer.body), label).toEqual({ code: 'method_not_allowed', message: expect.any(String) });
        expect(answer.headers['x-ratelimit-remaining'], label).toMatch(/^\d+$/);
      }
    });

    it('QUERY on /graphql is 405 in the GraphQL shape, and on a path no route takes a 404, never a 500', async () => {
      const graphql = await rawRequest(app.baseUrl, 'QUERY', '/graphql', { 'x-api-key': app.root.apiKey });
      expect(graphql.status, graphql.body).toBe(405);
      expect(graphql.headers['allow']).toBe('GET, POST, HEAD');
      expect(JSON.parse(graphql.body)).toEqual({ errors: [{ message: expect.any(String), extensions: { code: 'method_not_allowed', status: 405 } }] });
      const nowhere = await rawRequest(app.baseUrl, 'QUERY', '/api/v1/nowhere', {});
      expect(nowhere.status, nowhere.body).toBe(404);
      expect(JSON.parse(nowhere.body)).toEqual({ code: 'not_found', message: expect.any(String) });
      expect(nowhere.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    });
  });

  describe('rate-limit headers when authentication itself fails', () => {
    it('a 500 while the credentials are read (the database unreachable) carries X-RateLimit-*, over REST and GraphQL', async () => {
      const cache = app.gatehouse.services.apiKeys as unknown as { find: (...args: unknown[]) => Promise<unknown> };
      const find = cache.find;
      cache.find = async () => {
        throw new Error('the database did not answer');
      };
      try {
        const rest = await app.http.get('/users');
        const graphql = await app.http.graphql('{ version }');
        expect(rest.status).toBe(500);
        expect(rest.body).toEqual({ code: 'internal_error', message: 'Internal server error' });
        expect(graphql.status).toBe(500);
        expect(graphql.body).toEqual({ errors: [{ message: 'Internal server error', extensions: { code: 'internal_error', status: 500 } }] });
        expectRateLimitHeaders(rest, 'REST');
        expectRateLimitHeaders(graphql, 'GraphQL');
      } finally {
        cache.find = find;
      }
      expect((await app.http.get('/users')).status).toBe(200);
    });
  });
});

describe('pages of every list of the route table', () => {
  let app: TestApp;
  let tenantA: string;
  let tenantB: string;
  beforeAll(async () => {
    ({ app, tenants: [tenantA, tenantB] } = await startTestAppWithTenants(['A', 'B']));
    const appPath = `/applications/${app.root.applicationId}`;
    const inA = `${appPath}/tenants/${tenantA}`;
    for (let i = 0; i < 21; i += 1) await app.createUser(`page-${i}@example.com`, tenantA);
    for (let i = 0; i < 2; i += 1) {
      await app.http.post(`${inA}/api-keys`, { name: `key ${i}`, permissions: ['users:read'] });
      await app.http.post(`${inA}/oauth-clients`, { name: `client ${i}`, type: 'spa', redirectUris: ['https://a.example/cb'] });
      await app.http.post(`${inA}/m2m-credentials`, { name: `m2m ${i}`, permissions: ['users:read'], authMethod: 'client_secret_basic' });
      await app.http.post(`${inA}/invitations`, { email: `invited-${i}@example.com` });
      const role = await app.http.post(`${inA}/roles`, { key: `role_${i}`, name: `Role ${i}`, permissions: ['users:read'] });
      await app.http.post(`${inA}/role-assignments`, { subject: { type: 'user', id: await app.createUser(`assigned-${i}@example.com`, tenantA) }, roleId: role.body.id });
      await app.http.post(`${inA}/permissions`, { key: `things:do-${i}` });
      await app.http.post('/api-resources', { identifier: `https://api-${i}.example/`, name: `API ${i}` });
      await app.http.post(`${appPath}/domains`, { hostname: `login-${i}.example.com` });
      await app.http.post(`${inA}/email/test`, { to: `mail-${i}@example.com` });
    }
    await app.http.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } });
    for (const type of ['password', 'magic_link']) await app.http.post(`${inA}/auth-providers`, { type });
  });
  afterAll(async () => app?.close());

  it('pages 20 by default, ends with next null, and refuses an altered cursor and a tenant’s cursor on another tenant’s path', async () => {
    const url = (route: { url: string }, tenantId: string) =>
      `/api/v1${route.url.replace(':appId', app.root.applicationId).replace(':tenantId', tenantId)}`;
    const lists = expandRoutes().filter((route) => route.method === 'GET' && route.operation.variables.has('pageSize') && !/:(?!appId|tenantId)\w+/.test(route.url) && !route.url.endsWith('/stream'));
    const checked: string[] = [];
    for (const route of lists) {
      const path = url(route, tenantA);
      const all = (await app.http.request('GET', `${path}?pageSize=100`)).body.data as unknown[];
      if (all.length < 2) continue;
      checked.push(route.url);
      const byDefault = (await app.http.request('GET', path)).body;
      expect([byDefault.data.length, typeof byDefault.next], route.url).toEqual(all.length > 20 ? [20, 'string'] : [all.length, 'object']);
      expect((await app.http.request('GET', `${path}?pageSize=${Math.min(all.length, 100)}`)).body.next, route.url).toBeNull();
      const cursor = (await app.http.request('GET', `${path}?pageSize=1`)).body.next as string;
      const misused = [`${path}?cursor=${encodeURIComponent(forgeCursor(cursor))}`];
      if (route.form === 'tenant') misused.push(`${url(route, tenantB)}?cursor=${encodeURIComponent(cursor)}`);
      for (const target of misused) {
        const refused = await app.http.request('GET', target);
        expect([refused.status, refused.body.field], `${route.url}: ${target}`).toEqual([422, 'cursor']);
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(30);
  });
});

describe('rate limiting', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ rateLimit: { max: 5, windowMs: 60_000, redisPrefix: `gatehouse-test-${crypto.randomUUID()}-` } });
  });
  afterAll(async () => app?.close());

  it('counts per credential and answers 429 with Retry-After and rate_limited, over REST and GraphQL', async () => {
    const { apiKey } = await app.bootstrapAnother();
    const client = app.as({ apiKey });
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 5; i += 1) {
      const response = await client.get('/applications');
      expect(response.status).toBe(200);
      remaining.push(response.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    const limited = await client.get('/applications');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ code: 'rate_limited', message: expect.any(String) });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expectRateLimitHeaders(limited, '429');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');

    const graphql = await client.graphql('{ version }');
    expect(graphql.status).toBe(429);
    expect(graphql.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'rate_limited', status: 429 });

    const other = await app.as({ apiKey: (await app.bootstrapAnother()).apiKey }).get('/applications');
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('counts requests with credentials that fail to authenticate against the address: invented keys buy no buckets', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await app.as({ apiKey: `ghk_invented-${crypto.randomUUID()}` }).get('/applications');
      statuses.push(response.status);
      expectRateLimitHeaders(response, String(response.status));
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const bearer = await app.as({ bearer: 'not.a.token' }).graphql('{ version }');
    expect(bearer.status).toBe(429);
    // A valid credential from the same address keeps its own bucket.
    expect((await app.as({ apiKey: (await app.bootstrapAnother()).apiKey }).get('/applications')).status).toBe(200);
  });

  // The counters live in Redis when REDIS_URL is set (API.md), so every instance enforces one shared limit; without
  // it each instance counts alone. A second server on the same services stands for a second instance.
  const redisUrl = process.env['REDIS_URL'];
  it(redisUrl ? 'shares the counters of one credential between instances through Redis' : 'counts per instance without Redis', async () => {
    const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
    const second: Server = await createServer(app.gatehouse.services, { logger: false, ...(redis === undefined ? {} : { redis }) });
    try {
      await second.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = second.app.server.address() as AddressInfo;
      const { apiKey } = await app.bootstrapAnother();
      const first = app.as({ apiKey });
      const other = new HttpClient(`http://127.0.0.1:${port}`, { apiKey });
      for (let i = 0; i < 3; i += 1) expect((await first.get('/applications')).status).toBe(200);
      const onSecond = await other.get('/applications');
      expect(onSecond.status).toBe(200);
      expect(onSecond.headers.get('x-ratelimit-remaining')).toBe(redis ? '1' : '4');
      if (redis) {
        expect((await other.get('/applications')).status).toBe(200);
        expect((await first.get('/applications')).status).toBe(429);
        expect((await other.get('/applications')).status).toBe(429);
      }
    } finally {
      await second.app.close();
      await second.apollo.stop();
      redis?.disconnect();
    }
  });
});

// Without REDIS_URL (or while Redis is unreachable) the counters are in this instance's memory, where no number of other
// addresses may push a live count out (src/http/rate-limit-memory.ts): IPv6 hands anyone tens of thousands of /64s.
describe('rate limiting in memory, without Redis', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ redisUrl: undefined, rateLimit: { max: 5, windowMs: 60_000, redisPrefix: `gatehouse-test-${crypto.randomUUID()}-` } });
  });
  afterAll(async () => app?.close());

  const inject = (remoteAddress: string, headers: Record<string, string> = {}) =>
    app.gatehouse.server.app.inject({ method: 'GET', url: '/api/v1/users', remoteAddress, headers });

  it('keeps a credential’s and an address’s spent budget for the window while 5,000 other addresses (/64s of one /48) ask', async () => {
    const key = { 'x-api-key': app.root.apiKey };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await inject('198.51.100.1', key)).statusCode);
    for (let i = 0; i < 6; i += 1) statuses.push((await inject('198.51.100.2')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 401, 401, 401, 401, 401, 429]);
    // The plugin's own store was an LRU of the 5,000 keys last used: these pushed both counts out.
    for (let i = 0; i < 5000; i += 1) expect((await inject(`2001:db8:0:${i.toString(16)}::1`)).statusCode).toBe(401);
    const credential = await inject('198.51.100.1', key);
    const address = await inject('198.51.100.2');
    expect([credential, address].map((answer) => ({ status: answer.statusCode, remaining: answer.headers['x-ratelimit-remaining'] }))).toEqual([
      { status: 429, remaining: '0' },
      { status: 429, remaining: '0' },
    ]);
  }, 120_000);
});

describe('rate limiting of requests no route takes', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ rateLimit: { max: 2, windowMs: 60_000, redisPrefix: `gatehouse-test-${crypto.randomUUID()}-` } });
  });
  afterAll(async () => app?.close());

  it('counts unknown and malformed paths against the address, oversized bodies included, and answers 429', async () => {
    const anonymous = app.as({});
    const statuses = [
      (await anonymous.request('POST', '/nowhere', { body: { padding: 'x'.repeat(1024 * 1024 + 1) } })).status,
      (await anonymous.request('GET', '/%zz')).status,
    ];
    const limited = await anonymous.request('GET', '/%zz');
    expect([...statuses, limited.status]).toEqual([413, 404, 429]);
    expect(limited.body).toEqual({ code: 'rate_limited', message: expect.any(String) });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await anonymous.request('POST', '/nowhere', { body: {} })).status).toBe(429);
  });
});

describe('rate limiting of 404s and 405s sent with credentials', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ rateLimit: { max: 600, windowMs: 60_000, redisPrefix: `gatehouse-test-${crypto.randomUUID()}-` } });
  });
  afterAll(async () => app?.close());

  const remainingOf = (answer: HttpResponse | RawResponse) =>
    answer.headers instanceof Headers ? answer.headers.get('x-ratelimit-remaining') : answer.headers['x-ratelimit-remaining'];

  it('counts a 404 and a 405 sent with working credentials against them, as their routes do, and answers as before', async () => {
    const { apiKey } = await app.bootstrapAnother();
    const client = app.as({ apiKey });
    const listed = await client.get('/users');
    const nowhere = await client.get('/nope');
    const otherMethod = await client.request('DELETE', '/api/v1/api-keys');
    const again = await client.get('/users');
    expect([listed.status, nowhere.status, otherMethod.status, again.status]).toEqual([200, 404, 405, 200]);
    expect([listed, nowhere, otherMethod, again].map(remainingOf)).toEqual(['599', '598', '597', '596']);
    expect(otherMethod.headers.get('allow')).toBe('GET, POST, HEAD');
    expect(otherMethod.body).toEqual({ code: 'method_not_allowed', message: 'Allowed methods: GET, POST, HEAD' });
    expect(nowhere.body).toEqual({ code: 'not_found', message: 'No route GET /api/v1/nope' });

    // The other management paths' 405s, a path the router cannot read and the API description count there too.
    const graphql = await rawRequest(app.baseUrl, 'PUT', '/graphql', { 'x-api-key': apiKey });
    const unreadable = await rawRequest(app.baseUrl, 'GET', '/api/v1/%zz', { 'x-api-key': apiKey });
    const description = await client.get('/openapi.json');
    // Counted before its body is read, as without credentials.
    const oversized = await client.request('POST', '/api/v1/nowhere', { body: { padding: 'x'.repeat(1024 * 1024 + 1) } });
    expect([graphql.status, unreadable.status, description.status, oversized.status]).toEqual([405, 404, 200, 413]);
    expect([graphql, unreadable, description, oversized].map(remainingOf)).toEqual(['595', '594', '593', '592']);
    expect(graphql.headers['allow']).toBe('GET, POST, HEAD');
  });

  it('counts a 404 or 405 whose credentials fail, or that has none, against the address, and still answers 404 or 405', async () => {
    const anonymous = app.as({});
    const invented = app.as({ apiKey: `ghk_invented-${crypto.randomUUID()}` });
    const answers = [
      await anonymous.get('/nope'),
      await invented.get('/nope'),
      await app.as({ bearer: 'not.a.token' }).get('/nope'),
      await invented.request('DELETE', '/api/v1/api-keys'),
      await anonymous.request('DELETE', '/api/v1/api-keys'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 405, 405]);
    const first = Number(remainingOf(answers[0]!));
    expect(answers.map((answer) => Number(remainingOf(answer)))).toEqual([first, first - 1, first - 2, first - 3, first - 4]);
    expect(answers[3]!.headers.get('allow')).toBe('GET, POST, HEAD');
    expect(answers[3]!.body).toEqual({ code: 'method_not_allowed', message: 'Allowed methods: GET, POST, HEAD' });
    expect(answers[3]!.headers.get('www-authenticate')).toBeNull();
    const basic = await rawRequest(app.baseUrl, 'GET', '/api/v1/nope', { authorization: 'Basic Zm9vOmJhcg==' });
    expect(basic.status).toBe(404);
    expect(Number(remainingOf(basic))).toBe(first - 5);
  });

  it('leaves the probes uncounted and the OAuth endpoints and hosted pages counted against the address, credentials or not', async () => {
    const { apiKey } = await app.bootstrapAnother();
    const client = app.as({ apiKey });
    const health = await client.request('GET', '/healthz');
    const ready = await client.request('GET', '/readyz');
    expect([health.status, ready.status]).toEqual([200, 200]);
    expect([health, ready].map(remainingOf)).toEqual([null, null]);
    const anonymous = await app.as({}).get('/nope');
    const discovery = await client.request('GET', '/.well-known/openid-configuration');
    const hosted = await rawRequest(app.baseUrl, 'GET', '/interaction/none', { 'x-api-key': apiKey, accept: 'text/html' });
    const first = Number(remainingOf(anonymous));
    expect([Number(remainingOf(discovery)), Number(remainingOf(hosted))]).toEqual([first - 1, first - 2]);
    // Its own bucket untouched by them.
    expect(remainingOf(await client.get('/users'))).toBe('599');
  });
});

describe('rate limiting of the sign-in asked for at another host (421)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ rateLimit: { max: 2, windowMs: 60_000, redisPrefix: `gatehouse-test-${crypto.randomUUID()}-` } });
  });
  afterAll(async () => app?.close());

  it('counts the 421 against the address before looking the host up, with the rate-limit headers, then answers 429', async () => {
    app.queries.length = 0;
    const answers = [];
    for (let i = 0; i < 4; i += 1) {
      answers.push(await rawRequest(app.baseUrl, 'GET', `/interaction/x${i}`, { host: `h${i}.elsewhere.example`, accept: 'text/html' }));
    }
    expect(answers.map((answer) => answer.status)).toEqual([421, 421, 429, 429]);
    expect(answers.map((answer) => answer.headers['x-ratelimit-remaining'])).toEqual(['1', '0', '0', '0']);
    for (const answer of answers) {
      expect(answer.headers['x-ratelimit-limit']).toBe('2');
      expect(answer.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
    }
    expect(Number(answers[2]!.headers['retry-after'])).toBeGreaterThan(0);
    // Only the two it let through looked their host up.
    expect(app.queries).toEqual([expect.stringContaining('from domain where hostname = ?'), expect.stringContaining('from domain where hostname = ?')]);
    expect((await app.as({}).get('/openapi.json')).status).toBe(429);
  });
});

describe('graceful shutdown', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => app?.close());

  it('lets an in-flight request finish with 200 while close() runs, then refuses new connections', async () => {
    const { hostname, port } = new URL(app.baseUrl);
    const body = JSON.stringify({
      query: 'mutation($appId: UUID!) { createTenant(appId: $appId, input: { name: "Late" }) { id name } }',
      variables: { appId: app.root.applicationId },
    });
    // The request's headers arrive before close(); its body only after, so it is in flight while the server stops.
    const request = httpRequest({
      hostname,
      port,
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-api-key': app.root.apiKey },
    });
    const response = new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
      request.on('response', (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: text, connection: incoming.headers.connection }));
      });
      request.on('error', reject);
    });
    request.write(body.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const open = await new Promise<number>((resolve, reject) =>
      app.gatehouse.server.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
    expect(open).toBe(1);
    const closing = app.gatehouse.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    request.end(body.slice(10));

    const finished = await response;
    expect(finished.status).toBe(200);
    expect(JSON.parse(finished.body)).toMatchObject({ data: { createTenant: { name: 'Late' } } });
    // Its keep-alive connection is not left to hold the shutdown open.
    expect(finished.connection).toBe('close');
    await closing;
    await expect(fetch(`${app.baseUrl}/healthz`)).rejects.toThrow();
  });
});
