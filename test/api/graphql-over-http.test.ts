import { auditServer, type AuditResult } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerMode } from '../../src/graphql/http-media.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const RESPONSE_JSON = 'application/graphql-response+json';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

/** POST /graphql with the root key, this Accept (none when undefined) and this body, sent as JSON text. */
async function post(accept: string | undefined, body: unknown, headers: Record<string, string> = {}) {
  return app.http.request('POST', '/graphql', {
    raw: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...(accept === undefined ? {} : { accept }), ...headers },
  });
}

describe('GraphQL over HTTP', () => {
  it("passes graphql-http's audit: every MUST and SHOULD", async () => {
    const results = await auditServer({
      url: `${app.baseUrl}/graphql`,
      // The audit's requests carry no credentials; /graphql needs them before it runs anything.
      fetchFn: (input: string, init: RequestInit = {}) => {
        const headers = new Headers(init.headers);
        headers.set('x-api-key', app.root.apiKey);
        return fetch(input, { ...init, headers });
      },
    });
    const failed = (status: AuditResult['status']) =>
      results.filter((result) => result.status === status).map((result) => `${result.id} ${result.name}: ${'reason' in result ? result.reason : ''}`);
    expect(results.length).toBeGreaterThan(50);
    expect(failed('error')).toEqual([]);
    // Its MAYs left unmet (notices): 400 for a malformed request that names no media type (the contract's 422), and
    // queries over GET (GET /graphql is the playground; an operation sent with it is 405).
    expect(failed('warn')).toEqual([]);
  });

  it('chooses the media type from Accept: the named type of highest q, the first among equals; the contract without one', () => {
    expect(answerMode(RESPONSE_JSON)).toBe('graphql-response');
    expect(answerMode('application/json')).toBe('json');
    expect(answerMode(`${RESPONSE_JSON}, application/json`)).toBe('graphql-response');
    expect(answerMode(`application/json, ${RESPONSE_JSON}`)).toBe('json');
    expect(answerMode(`${RESPONSE_JSON};q=0.5, application/json;q=0.9`)).toBe('json');
    expect(answerMode(`Application/GraphQL-Response+JSON ; charset=utf-8, application/json;q=0`)).toBe('graphql-response');
    expect(answerMode(`${RESPONSE_JSON};q=0, */*`)).toBe('contract');
    for (const accept of [undefined, '', '*/*', 'application/*', 'text/html']) expect(answerMode(accept), String(accept)).toBe('contract');
  });

  it('answers each media type with its own statuses, the error bodies alike', async () => {
    const invalidId = { query: 'query($id: UUID!) { user(userId: $id) { id } }', variables: { id: 'nope' } };
    const absent = { query: 'query($id: UUID!) { user(userId: $id) { id } }', variables: { id: '01a20981-1ca0-7374-8a83-c78b71164e1e' } };
    const unparsable = { query: '{' };
    const cases = [
      // [body, contract status, graphql-response+json status, application/json status, code]
      [invalidId, 422, 400, 200, 'validation_error'],
      [unparsable, 422, 400, 200, 'validation_error'],
      // Refused in execution: `data` is there (null), which graphql-response+json answers 200.
      [absent, 404, 200, 200, 'not_found'],
      // Not well-formed GraphQL over HTTP: 400 in both of the spec's types.
      [{ variables: {} }, 422, 400, 400, 'validation_error'],
      [[{ query: '{ version }' }], 422, 400, 400, 'validation_error'],
      ['{ "query": ', 422, 400, 400, 'validation_error'],
    ] as const;
    for (const [body, contract, graphqlResponse, json, code] of cases) {
      const label = JSON.stringify(body);
      for (const [accept, status, type] of [
        [undefined, contract, 'application/json'],
        ['*/*', contract, 'application/json'],
        [RESPONSE_JSON, graphqlResponse, RESPONSE_JSON],
        ['application/json', json, 'application/json'],
      ] as const) {
        const response = await post(accept, body);
        expect(response.status, `${label} ${accept}`).toBe(status);
        expect(response.headers.get('content-type'), `${label} ${accept}`).toBe(`${type}; charset=utf-8`);
        expect(response.headers.get('vary'), `${label} ${accept}`).toMatch(/accept/i);
        expect(response.body.errors?.[0]?.extensions, `${label} ${accept}`).toMatchObject({ code, status: contract });
      }
    }
  });

  it('answers a refused permission 403 in graphql-response+json and 200 in application/json; an unknown key 401 in every type', async () => {
    const tenantId = await app.createTenant('Media');
    const created = await app.http.post('/api-keys', { name: 'Reads users only', permissions: ['users:read'], tenantId });
    expect(created.status).toBe(201);
    const narrow = app.as({ apiKey: created.body.secret });
    const listTenants = JSON.stringify({ query: `{ tenants(appId: "${app.root.applicationId}") { data { id } } }` });
    const expected = { [RESPONSE_JSON]: 403, 'application/json': 200, '*/*': 403 };
    for (const [accept, status] of Object.entries(expected)) {
      const refused = await narrow.request('POST', '/graphql', { raw: listTenants, headers: { 'content-type': 'application/json', accept } });
      expect(refused.status, accept).toBe(status);
      expect(refused.body.data, accept).toBeUndefined();
      expect(refused.body.errors?.[0]?.extensions, accept).toMatchObject({ code: 'forbidden', status: 403 });
      const unknown = await app.as({ apiKey: 'gh_unknown' }).request('POST', '/graphql', { raw: listTenants, headers: { 'content-type': 'application/json', accept } });
      expect(unknown.status, accept).toBe(401);
      expect(unknown.body.errors?.[0]?.extensions, accept).toMatchObject({ code: 'unauthenticated' });
    }
  });

  it('answers a success 200 in every type, in the type asked for', async () => {
    for (const [accept, type] of [
      [RESPONSE_JSON, RESPONSE_JSON],
      [`application/json;q=0.5, ${RESPONSE_JSON}`, RESPONSE_JSON],
      ['application/json', 'application/json'],
      ['text/html', 'application/json'],
    ] as const) {
      const response = await post(accept, { query: '{ __typename }' });
      expect(response.status, accept).toBe(200);
      expect(response.headers.get('content-type'), accept).toBe(`${type}; charset=utf-8`);
      expect(response.body, accept).toEqual({ data: { __typename: 'Query' } });
    }
  });

  it('refuses an operation sent with GET 405, naming POST, in any media type but HTML; a browser gets GraphiQL, its query in the URL too', async () => {
    for (const [accept, search] of [
      [RESPONSE_JSON, '?query=%7B__typename%7D'],
      ['application/json', '?query=%7B__typename%7D&operationName=Q'],
      ['', '?query='],
      ['*/*', '?variables=%7B%7D'],
    ] as const) {
      const response = await app.http.request('GET', `/graphql${search}`, { headers: { accept } });
      expect(response.status, `${accept} ${search}`).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(response.body.errors?.[0]).toEqual({ message: expect.stringContaining('POST'), extensions: { code: 'method_not_allowed', status: 405 } });
    }
    for (const search of ['', '?query=%7B__typename%7D']) {
      const page = await fetch(`${app.baseUrl}/graphql${search}`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
      expect(page.status, search).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    }
  });
});

describe('subscriptions asked as JSON', () => {
  it('are refused with 422 naming the media type they are served in, before anything runs', async () => {
    for (const query of ['subscription { __typename }', 'subscription S { auditLogs { id } }', 'query Q { version } subscription S { auditLogs { id } }']) {
      const response = await app.http.request<{ data?: unknown; errors?: { message: string; extensions: Record<string, unknown> }[] }>('POST', '/graphql', {
        body: { query, operationName: query.includes('Q') ? 'S' : null },
      });
      expect(response.status, `${query}: ${JSON.stringify(response.body)}`).toBe(422);
      expect(response.body.data ?? null).toBeNull();
      expect(response.body.errors?.[0]).toMatchObject({ message: expect.stringContaining('Accept: text/event-stream'), extensions: { code: 'validation_error', status: 422, field: 'query' } });
    }
  });
});
