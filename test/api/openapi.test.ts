import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/graphql/schema.ts';
import { newId, UUIDV7_PATTERN } from '../../src/ids.ts';
import { announcedAddresses } from '../../src/observability/log.ts';
import { buildOpenApiDocument, type OpenApiDocument, type OpenApiMethod } from '../../src/rest/openapi.ts';
import { AUDIT_STREAM } from '../../src/rest/audit-stream.ts';
import { expandRoutes, ROUTES, successStatus } from '../../src/rest/routes.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DocumentedResponses, printedRoutes, toOpenApiPath } from '../support/openapi.ts';
import { openSse, recordsOf } from '../support/sse.ts';

let app: TestApp;
let document: OpenApiDocument;
let documented: DocumentedResponses;
beforeAll(async () => {
  app = await startTestApp();
  const served = await app.as({}).get('/openapi.json');
  expect(served.status).toBe(200);
  document = served.body;
  documented = new DocumentedResponses(document);
});
afterAll(async () => app?.close());

/** Asserts that a real response matches the documented response of `method path` for its status. */
const expectDocumented = (method: OpenApiMethod, path: string, response: Parameters<DocumentedResponses['expect']>[2]) =>
  documented.expect(method, path, response);

describe('OpenAPI document', () => {
  it('is served without credentials, with the rate-limit headers, and matches what the service builds', async () => {
    const served = await app.as({}).get('/openapi.json');
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^application\/json/);
    expect(served.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(served.body).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(buildSchema(), 'http://gatehouse.test'))));
    expect(document.servers).toEqual([{ url: 'http://gatehouse.test/api/v1' }]);
  });

  it('is the REST address the start-up line names, and every address it names answers without credentials', async () => {
    const { publicUrl } = app.gatehouse.services.config;
    const addresses = announcedAddresses({ publicUrl });
    expect(addresses.openapi).toBe(`${publicUrl}/api/v1/openapi.json`);
    for (const url of Object.values(addresses)) {
      expect(url.startsWith(publicUrl)).toBe(true);
      const answer = await app.as({}).request('GET', url.slice(publicUrl.length), { headers: { accept: 'text/html' } });
      expect(answer.status, url).toBe(200);
    }
  });

  it('describes exactly the routes of the table and the audit stream’s, each method once', () => {
    const expected = [...expandRoutes(ROUTES).map((route) => `${route.method} ${toOpenApiPath(route.url)}`), ...AUDIT_STREAM.paths.map((url) => `GET ${toOpenApiPath(url)}`)];
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(new Set(expected).size).toBe(expected.length);
    expect(documented.sort()).toEqual(expected.sort());
  });

  it('describes every route served under /api/v1 but the document itself, each method its path allows', async () => {
    const fastify = app.gatehouse.server.app;
    const served: string[] = [];
    for (const { url, methods } of printedRoutes(fastify.printRoutes({ commonPrefix: false }))) {
      if (!url.startsWith('/api/v1/') || url === '/api/v1/openapi.json') continue;
      // The methods a path refuses (405) are routes too: its `Allow` says which it serves.
      const refusal = await fastify.inject({ method: 'OPTIONS', url: url.replace(/:(\w+)/g, newId()) });
      const allowed = refusal.statusCode === 405 ? String(refusal.headers['allow']).split(', ') : methods;
      const path = toOpenApiPath(url.slice('/api/v1'.length));
      served.push(...methods.filter((method) => method !== 'HEAD' && allowed.includes(method)).map((method) => `${method} ${path}`));
    }
    const described = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(served).toContain('GET /audit-logs/stream');
    expect(served.sort()).toEqual(described.sort());
  });

  it('describes the audit stream as the list it follows: its tag, rule, path ids and filters, Last-Event-ID, events of the list’s records', () => {
    expect(AUDIT_STREAM.paths.map(toOpenApiPath)).toEqual(['/audit-logs/stream', '/applications/{appId}/audit-logs/stream', '/applications/{appId}/tenants/{tenantId}/audit-logs/stream']);
    expect(AUDIT_STREAM.filters).toEqual(['actor', 'apiKey', 'action', 'target', 'from', 'to']);
    for (const url of AUDIT_STREAM.paths) {
      const path = toOpenApiPath(url);
      const stream = document.paths[path]?.get;
      const list = document.paths[path.replace(/\/stream$/, '')]?.get;
      expect(stream, path).toBeDefined();
      expect(stream?.tags, path).toEqual(['audit-logs']);
      expect(stream?.tags, path).toEqual(list?.tags);
      expect(stream?.['x-permissions'], path).toEqual(['audit_logs:read']);
      expect(stream?.['x-tenant-scope-permissions'], path).toEqual(list?.['x-tenant-scope-permissions']);
      expect(stream?.['x-application-level'], path).toEqual(list?.['x-application-level']);
      expect(stream?.description, path).toMatch(/text\/event-stream[\s\S]*heartbeat[\s\S]*Last-Event-ID/);
      // The list's own parameters (the same UUID rule for the ids, the same schemas for the filters), not a copy.
      const ofList = (name: string) => list?.parameters.find((parameter) => parameter['name'] === name);
      const pathIds = [...url.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
      expect(stream?.parameters, path).toEqual([
        ...pathIds.map(ofList),
        ...AUDIT_STREAM.filters.map(ofList),
        expect.objectContaining({ name: 'after', in: 'query', required: false, schema: { type: 'string', format: 'uuid', pattern: UUIDV7_PATTERN } }),
        expect.objectContaining({ name: 'resumeAt', in: 'query', required: false, schema: { type: 'string' } }),
        expect.objectContaining({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } }),
      ]);
      expect(pathIds.map(ofList), path).toEqual(pathIds.map(() => expect.objectContaining({ schema: expect.objectContaining({ pattern: UUIDV7_PATTERN }) })));
      const errors = (operation: typeof list) => Object.entries(operation?.responses ?? {}).filter(([status]) => Number(status) >= 400);
      expect(errors(stream), path).toEqual(errors(list));
      const success = documented.response('get', path, 200);
      expect(Object.keys(success?.content ?? {}), path).toEqual(['text/event-stream']);
      expect(success?.headers, path).toEqual(documented.response('get', path.replace(/\/stream$/, ''), 200)?.headers);
      const listPage = documented.response('get', path.replace(/\/stream$/, ''), 200)?.content?.['application/json']?.schema as { properties: { data: { items: unknown } } };
      const events = (success?.content as Record<string, Record<string, unknown>> | undefined)?.['text/event-stream']?.['x-itemSchema'];
      expect(events, path).toMatchObject({ oneOf: [{ properties: { event: { const: 'audit' }, data: { contentMediaType: 'application/json', contentSchema: listPage?.properties.data.items } } }, { properties: { event: { const: 'end' } } }] });
    }
  });

  it('answers the audit stream as documented: its events carry the documented record; its refusals are the documented errors', async () => {
    const path = '/applications/{appId}/audit-logs/stream';
    const url = `/applications/${app.root.applicationId}/audit-logs/stream`;
    const stream = await openSse(`${app.baseUrl}/api/v1${url}`, { 'x-api-key': app.root.apiKey });
    let tenantId: string | undefined;
    try {
      expect(stream.status).toBe(200);
      for (const [name, header] of Object.entries(documented.response('get', path, 200)?.headers ?? {})) {
        if (document.components.headers[header.$ref.split('/').pop() as string]?.required === true) expect(stream.headers.get(name), name).not.toBeNull();
      }
      const tenant = await app.http.post(`/applications/${app.root.applicationId}/tenants`, { name: 'Streamed and documented' });
      expect(tenant.status).toBe(201);
      tenantId = tenant.body.id;
      await stream.until((s) => recordsOf(s).some((record) => record.target.id === tenantId), 'the tenant’s record');
    } finally {
      stream.close();
    }
    const record = documented.at('paths', path, 'get', 'responses', '200', 'content', 'text/event-stream', 'x-itemSchema', 'oneOf', '0', 'properties', 'data', 'contentSchema');
    const event = stream.events.find((each) => each.event === 'audit' && JSON.parse(each.data).target.id === tenantId);
    expect(documented.at('paths', path, 'get', 'responses', '200', 'content', 'text/event-stream', 'x-itemSchema')(event), JSON.stringify(event)).toBe(true);
    expect(record(JSON.parse(event?.data ?? 'null')), JSON.stringify(record.errors)).toBe(true);
    for (const [client, refused, field] of [
      [app.as({}), url, undefined],
      [app.http, '/applications/not-a-uuid/audit-logs/stream', 'appId'],
      [app.http, `${url}?pageSize=1`, 'pageSize'],
      [app.http, `${url}?from=yesterday`, 'from'],
    ] as const) {
      const response = await client.get(refused);
      expectDocumented('get', path, response);
      expect(response.body.field, refused).toBe(field);
    }
    const resumed = await app.http.request('GET', `/api/v1${url}`, { headers: { 'last-event-id': newId() } });
    expectDocumented('get', path, resumed);
    expect(resumed.body.field).toBe('Last-Event-ID');
  });

  it('is a valid OpenAPI 3.1 document whose references all resolve', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
    const ids = Object.values(document.paths).flatMap((methods) => Object.values(methods).map((operation) => operation.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('documents parameters, bodies, statuses and headers of every route from the table', () => {
    for (const route of expandRoutes(ROUTES)) {
      const operation = document.paths[toOpenApiPath(route.url)]?.[route.method.toLowerCase() as OpenApiMethod];
      const label = `${route.method} ${route.url}`;
      expect(operation?.summary, label).toBe(route.summary);
      const pathParams = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]);
      const declared = operation?.parameters.filter((p) => p['in'] === 'path').map((p) => p['name']);
      expect(declared, label).toEqual(pathParams);
      const idempotency = operation?.parameters.some((p) => p['$ref'] === '#/components/parameters/IdempotencyKey');
      expect(idempotency, label).toBe(route.idempotent === true);
      // The spec: no tenantId query parameter on any endpoint.
      expect(operation?.parameters.some((p) => p['in'] === 'query' && (p['name'] === 'tenantId' || p['name'] === 'appId')), label).toBe(false);
      const success = String(successStatus(route));
      expect(Object.keys(operation?.responses ?? {}), label).toEqual(expect.arrayContaining([success, '401', '403', '422', '429']));
      expect(Object.keys(operation?.responses ?? {}).filter((status) => Number(status) < 400), label).toEqual([success]);
    }
    expect(Object.keys(document.components.responses['RateLimited']?.headers ?? {})).toEqual(
      expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After']),
    );
    // API.md: every response, errors included, carries them; a replay's marker only a replay.
    const { headers } = document.components;
    for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id', 'Retry-After']) {
      expect(headers[name]?.required, name).toBe(true);
    }
    expect(headers['Idempotent-Replayed']?.required).toBeUndefined();
    // A 401 always says how to authenticate; a 403 says `insufficient_scope` only to a Bearer token.
    const wwwAuthenticate = (response: string) => document.components.responses[response]?.headers['WWW-Authenticate']?.$ref.replace('#/components/headers/', '');
    expect(headers[wwwAuthenticate('Unauthenticated') ?? '']?.required).toBe(true);
    expect(headers[wwwAuthenticate('Forbidden') ?? '']).toMatchObject({ description: expect.stringContaining('insufficient_scope') });
    expect(headers[wwwAuthenticate('Forbidden') ?? '']?.required).toBeUndefined();
    expect(document.components.securitySchemes).toMatchObject({
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    });
  });

  it('converts GraphQL types: inputs closed with required non-null fields, enums, scalars, list parameters', () => {
    const { schemas } = document.components;
    expect(schemas['CreateTenantInput']).toMatchObject({ type: 'object', required: ['name'], additionalProperties: false });
    expect(schemas['CustomizationScope']).toMatchObject({ type: 'string', enum: ['application', 'tenant'] });
    expect(schemas['ErrorBody']).toMatchObject({ required: ['code', 'message'], properties: { code: { enum: expect.arrayContaining(['validation_error', 'rate_limited']) } } });
    const list = document.paths['/applications/{appId}/tenants']?.get;
    expect(list?.parameters).toEqual([
      expect.objectContaining({ name: 'appId', in: 'path', required: true, schema: { type: 'string', format: 'uuid', pattern: UUIDV7_PATTERN } }),
      expect.objectContaining({ name: 'pageSize', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } }),
      expect.objectContaining({ name: 'cursor', in: 'query', required: false, schema: { type: 'string' } }),
      {
        name: 'search',
        in: 'query',
        required: false,
        description: 'Only tenants whose name (in any case) or slug starts with this (1 to 200 characters, not only spaces).',
        schema: { type: 'string' },
      },
      {
        name: 'ids',
        in: 'query',
        required: false,
        description: 'Only the items of these ids (1 to 100); ids not found in the scope are left out.',
        style: 'form',
        explode: false,
        schema: { type: 'array', items: { type: 'string', format: 'uuid', pattern: UUIDV7_PATTERN }, minItems: 1, maxItems: 100 },
      },
    ]);
    const id = new RegExp(UUIDV7_PATTERN);
    expect([newId(), newId().toUpperCase()].every((value) => id.test(value))).toBe(true);
    expect(['550e8400-e29b-41d4-a716-446655440000', '00000000-0000-0000-0000-000000000000', `{${newId()}}`].some((value) => id.test(value))).toBe(false);
    expect(document.paths['/applications/{appId}']?.patch?.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/UpdateApplicationInput' } } },
    });
  });

  it('tags each operation with its area (the SDL file of its root field) and lists the tags used', () => {
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    const used = new Set(operations.map((operation) => operation.tags[0]));
    expect(document.tags).toEqual([...used].sort().map((name) => ({ name })));
    expect(operations.every((operation) => operation.tags.length === 1)).toBe(true);
    expect(document.paths['/users/{userId}/suspend']?.post?.tags).toEqual(['users']);
    expect(document.paths['/applications/{appId}/tenants/{tenantId}/users']?.get?.tags).toEqual(['users']);
    expect(document.paths['/applications/{appId}/tenants']?.post?.tags).toEqual(['tenants']);
    expect(document.paths['/permissions/check']?.post?.tags).toEqual(['checks']);
    expect(document.paths['/api-keys']?.get?.tags).toEqual(['api-keys']);
  });

  it('types free-form objects as maps of any JSON value, and states the permissions each operation needs', () => {
    const { schemas } = document.components;
    expect(schemas['AuditRecordFields']?.['properties']).toMatchObject({ changes: { properties: { before: { type: ['object', 'null'], additionalProperties: true } } } });
    // Where the SDL says what every member is (`@members`).
    expect(schemas['BrandingInput']?.['properties']).toMatchObject({ copy: { type: ['object', 'null'], additionalProperties: { type: 'string' } } });
    expect(schemas['BrandingFields']?.['properties']).toMatchObject({ copy: { type: 'object', additionalProperties: { type: 'string' } } });
    expect(schemas['UpdateAuthProviderInput']?.['properties']).toMatchObject({ secrets: { additionalProperties: { type: ['string', 'null'] } } });
    expect(document.paths['/users']?.post).toMatchObject({ 'x-permissions': ['users:write'] });
    expect(document.paths['/users']?.get).toMatchObject({ 'x-permissions': ['users:read'] });
  });

  it('declares a body required only where the operation requires one: the others may be left out', async () => {
    expect(document.paths['/applications/{appId}']?.patch?.requestBody?.required).toBe(true);
    for (const path of ['/oauth-clients/{clientId}/rotate-secret', '/m2m-credentials/{credentialId}/rotate', '/email/templates/{templateKey}/preview']) {
      expect(document.paths[path]?.post?.requestBody?.required, path).toBe(false);
    }
    const client = await app.http.post('/oauth-clients', { name: 'Bodiless rotation', type: 'web', redirectUris: ['https://app.example.com/callback'] });
    expectDocumented('post', '/oauth-clients/{clientId}/rotate-secret', await app.http.request('POST', `/api/v1/oauth-clients/${client.body.id}/rotate-secret`));
    expectDocumented('post', '/email/templates/{templateKey}/preview', await app.http.request('POST', '/api/v1/email/templates/welcome/preview'));
  });

  it('leaves null out of the fields that may be left out but not nulled (`@notNull`), nested ones included', async () => {
    const switches = document.components.schemas['TenancyConfigInput']?.['properties'] as Record<string, Record<string, unknown>>;
    expect(Object.keys(switches)).toEqual(['brandingScope', 'emailTemplatesScope', 'emailProviderScope', 'authIsolation']);
    for (const [name, property] of Object.entries(switches)) {
      expect(property, name).not.toHaveProperty('anyOf');
      expect(property['$ref'], name).toMatch(/^#\/components\/schemas\//);
      const refused = await app.http.patch(`/applications/${app.root.applicationId}`, { tenancyConfig: { [name]: null } });
      expect(refused.status, name).toBe(422);
      expect(refused.body.field).toBe(`tenancyConfig.${name}`);
    }
    // A field whose null means something stays nullable: a user's name is cleared, a policy's maxAge means never.
    expect(document.components.schemas['UpdateUserInput']?.['properties']).toMatchObject({ name: { type: ['string', 'null'] }, email: { type: 'string' } });
    expect(document.components.schemas['PolicyInput']?.['properties']).toMatchObject({ maxAge: { type: ['integer', 'null'] }, minLength: { type: 'integer' } });
  });

  it('documents the real responses: lists, creations, reads and deletions', async () => {
    const tenants = `/applications/${app.root.applicationId}/tenants`;
    const list = await app.http.get('/applications');
    expectDocumented('get', '/applications', list);
    // The check has teeth: a missing, a mistyped or an undocumented field fails it.
    const validate = documented.body('get', '/applications', 200);
    const [first] = list.body.data;
    const nameless = { ...first };
    delete nameless.name;
    for (const wrong of [nameless, { ...first, multiTenant: 'yes' }, { ...first, secret: 'x' }]) {
      expect(validate({ data: [wrong], next: null })).toBe(false);
    }
    const created = await app.http.post(tenants, { name: 'Documented' });
    expectDocumented('post', '/applications/{appId}/tenants', created);
    expectDocumented('get', '/applications/{appId}/tenants', await app.http.get(tenants));
    expectDocumented('post', '/applications', await app.http.post('/applications', { name: 'Documented app', multiTenant: true }));
    expectDocumented('get', '/organizations/{orgId}', await app.http.get(`/organizations/${app.root.organizationId}`));
    const deleted = await app.http.delete(`${tenants}/${created.body.id}`);
    expect(deleted.status).toBe(204);
    expect(document.paths['/applications/{appId}/tenants/{tenantId}']?.delete?.responses['204']).not.toHaveProperty('content');
  });

  it('documents the real error bodies', async () => {
    expectDocumented('get', '/applications', await app.as({}).get('/applications'));
    expectDocumented('get', '/applications/{appId}', await app.http.get('/applications/not-a-uuid'));
    const other = await app.bootstrapAnother();
    expectDocumented('get', '/applications/{appId}', await app.http.get(`/applications/${other.applicationId}`));
    const tenants = `/applications/${app.root.applicationId}/tenants`;
    await app.http.post(tenants, { name: 'Twice', slug: 'twice' });
    expectDocumented('post', '/applications/{appId}/tenants', await app.http.post(tenants, { name: 'Twice', slug: 'twice' }));
    // Refused by the HTTP parser, before any route: documented on every operation, without rate-limit headers.
    const tooLarge = await app.http.get(`/applications?x=${'a'.repeat(20_000)}`);
    expect(tooLarge.status).toBe(431);
    expectDocumented('get', '/applications', tooLarge);
    expect(document.components.responses['RequestHeaderFieldsTooLarge']?.headers).toEqual({ 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } });
  });

  it('documents the headers of a replayed refusal, and the Retry-After of a key whose first request is still writing', async () => {
    const key = { headers: { 'idempotency-key': newId() } };
    const absent = `/api-keys/${newId()}`;
    const first = await app.http.delete(absent, key);
    const replayed = await app.http.delete(absent, key);
    expect([first.status, replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([404, 404, 'true']);
    expectDocumented('delete', '/api-keys/{keyId}', replayed);
    // A 409 of a key in use says when to retry (idempotency-writes.test.ts makes one), which no other 409 does.
    const retryAfter = documented.response('delete', '/api-keys/{keyId}', 409)?.headers['Retry-After']?.$ref.split('/').pop();
    expect(document.components.headers[retryAfter ?? '']).toMatchObject({ description: expect.stringContaining('Idempotency-Key') });
    expect(document.components.headers[retryAfter ?? '']?.required).toBeUndefined();
  });
});

describe('the OpenAPI document and the bodies of routes that take none', () => {
  it('documents the 413 and 415 that every write answers to an oversized or non-JSON body, input or none', async () => {
    const undocumented: string[] = [];
    for (const route of expandRoutes().filter((each) => each.method !== 'GET')) {
      const responses: Record<string, unknown> = document.paths[toOpenApiPath(route.url)]?.[route.method.toLowerCase() as OpenApiMethod]?.responses ?? {};
      for (const status of ['413', '415']) if (responses[status] === undefined) undocumented.push(`${route.method} ${route.url} ${status}`);
    }
    // What such a route answers: a key revoked (DELETE, no input) with a text body, and with a body over 1 MiB.
    const created = await app.http.post('/api-keys', { name: 'revoked with a body', permissions: ['users:read'] });
    expect(created.status).toBe(201);
    const path = `/api-keys/${created.body.key.id}`;
    const text = await app.http.request('DELETE', `/api/v1${path}`, { raw: 'revoke', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    const large = await app.http.request('DELETE', `/api/v1${path}`, { body: { padding: 'x'.repeat(1024 * 1024 + 1) } });
    expect(large.status).toBe(413);
    expect(undocumented).toEqual([]);
  });
});
