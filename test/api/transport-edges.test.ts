import { request as httpRequest } from 'node:http';
import { Kind, parse, print, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expandRoutes } from '../../src/rest/routes.ts';
import { tenantPageWithConfiguration } from '../support/configuration-page.ts';

/** Transport conventions at their edges: the cost of a page in GraphQL, methods no route has, subscriptions, a failed authentication's headers, the OpenAPI document's 413/415, and empty bodies. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with any method (fetch refuses TRACE and spells no QUERY), on its own connection. */
function raw(method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawResponse> {
  const url = new URL(app.baseUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: url.hostname, port: url.port, method, path, headers, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('methods HTTP defines that no route takes', () => {
  it('QUERY (RFC 10008) and TRACE on a path of the route table are 405 with Allow, with or without a Content-Type, never a 500', async () => {
    const key = { 'x-api-key': app.root.apiKey };
    const json = { ...key, 'content-type': 'application/json' };
    const answers = {
      'QUERY without Content-Type': await raw('QUERY', '/api/v1/users', key),
      'QUERY with a JSON body': await raw('QUERY', '/api/v1/users', json, '{}'),
      TRACE: await raw('TRACE', '/api/v1/users', key),
      'QUERY on a record': await raw('QUERY', `/api/v1/users/${app.root.applicationId}`, key),
    };
    for (const [label, answer] of Object.entries(answers)) {
      expect(answer.status, `${label}: ${answer.body}`).toBe(405);
      expect(answer.headers['allow'], label).toMatch(/^GET, (POST, )?(PATCH, DELETE, )?HEAD$/);
      expect(JSON.parse(answer.body), label).toEqual({ code: 'method_not_allowed', message: expect.any(String) });
      expect(answer.headers['x-ratelimit-remaining'], label).toMatch(/^\d+$/);
    }
  });

  it('QUERY on /graphql is 405 in the GraphQL shape, and on a path no route takes a 404, never a 500', async () => {
    const graphql = await raw('QUERY', '/graphql', { 'x-api-key': app.root.apiKey });
    expect(graphql.status, graphql.body).toBe(405);
    expect(graphql.headers['allow']).toBe('GET, POST, HEAD');
    expect(JSON.parse(graphql.body)).toEqual({ errors: [{ message: expect.any(String), extensions: { code: 'method_not_allowed', status: 405 } }] });
    const nowhere = await raw('QUERY', '/api/v1/nowhere', {});
    expect(nowhere.status, nowhere.body).toBe(404);
    expect(JSON.parse(nowhere.body)).toEqual({ code: 'not_found', message: expect.any(String) });
    expect(nowhere.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  });
});

describe('what one GraphQL request may cost', () => {
  it('aliases of a page of 100 tenants with their configurations are refused: the estimate counts a page as its pageSize', async () => {
    const appPath = `/applications/${app.root.applicationId}`;
    for (let i = 0; i < 100; i += 1) expect((await app.http.post(`${appPath}/tenants`, { name: `Tenant ${i}` })).status).toBe(201);
    const document = parse(tenantPageWithConfiguration()!);
    const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    const page = operation.selectionSet.selections[0] as FieldNode;
    const aliased = (count: number) =>
      print({
        ...document,
        definitions: document.definitions.map((d) =>
          d !== operation
            ? d
            : { ...operation, selectionSet: { ...operation.selectionSet, selections: Array.from({ length: count }, (_, i) => ({ ...page, alias: { kind: Kind.NAME, value: `p${i}` } })) } },
        ),
      });
    const variables = { appId: app.root.applicationId, pageSize: 100 };
    // One page, as the dashboard asks for it: about 2 MB and 0.7 s.
    const one = await app.http.graphql(aliased(1), variables);
    expect(one.status, JSON.stringify(one.body.errors)).toBe(200);
    // Five pages were 10 MB and 2 s for one request (twenty: 40 MB and 10 s), where a REST page costs 60 ms.
    const five = await app.http.graphql(aliased(5), variables);
    expect(five.status).toBe(422);
    expect(five.body.data ?? null).toBeNull();
    expect(five.body.errors?.[0]?.message).toMatch(/^The operation asks for too much/);
    // A literal page size counts as itself; a page left without one as the default 20.
    expect((await app.http.graphql(`{ ${Array.from({ length: 20 }, (_, i) => `u${i}: users(pageSize: 100) { data { id email } }`).join(' ')} }`)).status).toBe(200);
  }, 60_000);
});

describe('operations of a kind the API does not have', () => {
  it('a subscription is refused with 422 validation_error before anything runs, not a 500', async () => {
    for (const query of ['subscription { __typename }', 'subscription S { version }', 'query Q { version } subscription S { version }']) {
      const response = await app.http.request<{ data?: unknown; errors?: { message: string; extensions: Record<string, unknown> }[] }>('POST', '/graphql', {
        body: { query, operationName: query.includes('Q') ? 'S' : null },
      });
      expect(response.status, `${query}: ${JSON.stringify(response.body)}`).toBe(422);
      expect(response.body.data ?? null).toBeNull();
      expect(response.body.errors?.[0]).toMatchObject({ message: 'The API has no subscription operations', extensions: { code: 'validation_error', status: 422 } });
    }
  });
});

describe('the OpenAPI document and the bodies of routes that take none', () => {
  it('documents the 413 and 415 that every write answers to an oversized or non-JSON body, input or none', async () => {
    const document = (await app.http.get('/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const undocumented: string[] = [];
    for (const route of expandRoutes().filter((each) => each.method !== 'GET')) {
      const responses = document.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()]?.responses ?? {};
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

describe('an empty body, whatever its Content-Type', () => {
  /** How clients send a body: `curl -X POST -d ''` sends a form's type; a stream goes chunked, Content-Type or none. */
  const senders = [
    { label: "a form's type (curl -d '')", type: 'application/x-www-form-urlencoded' },
    { label: 'text, chunked', type: 'text/plain', chunked: true },
    { label: 'no Content-Type, chunked', chunked: true },
    { label: 'JSON', type: 'application/json' },
    { label: 'no Content-Type' },
  ];
  const send = (path: string, { type, chunked }: { type?: string; chunked?: boolean }, body = '') => {
    const framing: Record<string, string> = chunked === true ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(Buffer.byteLength(body)) };
    return raw('POST', path, { 'x-api-key': app.root.apiKey, ...(type === undefined ? {} : { 'content-type': type }), ...framing }, body);
  };

  it('is no body over REST: a route without input runs, one that needs input is 422 on it; a byte of another type is 415', async () => {
    const user = await app.http.post('/users', { email: 'curl@example.com' });
    expect(user.status).toBe(201);
    const unlock = `/api/v1/users/${user.body.id}/unlock`;
    for (const sender of senders) {
      const unlocked = await send(unlock, sender);
      expect(unlocked.status, sender.label).toBe(200);
      expect(JSON.parse(unlocked.body), sender.label).toMatchObject({ id: user.body.id, status: 'active' });
      const created = await send('/api/v1/users', sender);
      expect(created.status, sender.label).toBe(422);
      expect(JSON.parse(created.body), sender.label).toMatchObject({ code: 'validation_error', field: 'input' });
    }
    // A body is still one: of another type, 415; over 1 MiB of JSON, 413.
    for (const path of [unlock, '/api/v1/users']) {
      for (const sender of senders.filter(({ type }) => type !== 'application/json')) {
        const refused = await send(path, sender, 'email=curl%40example.com');
        expect(refused.status, `${path} ${sender.label}`).toBe(415);
        expect(JSON.parse(refused.body)).toMatchObject({ code: 'unsupported_media_type' });
      }
      const large = await send(path, { type: 'application/json' }, JSON.stringify({ email: 'x'.repeat(1024 * 1024) }));
      expect(large.status, path).toBe(413);
    }
    expect((await app.http.get(`/users/${user.body.id}`)).body.email).toBe('curl@example.com');
    // A path no route takes is 404 whatever its body, as before any body is read.
    expect((await send('/api/v1/no-such-route', senders[0]!, 'a=b')).status).toBe(404);
  });

  it('is no body on /graphql: a 422 on body saying what /graphql takes, whatever the Content-Type; a byte of another type is 415', async () => {
    for (const sender of senders) {
      const refused = await send('/graphql', sender);
      expect(refused.status, sender.label).toBe(422);
      expect(JSON.parse(refused.body).errors?.[0], sender.label).toMatchObject({
        message: expect.stringContaining('takes a JSON body'),
        extensions: { code: 'validation_error', field: 'body', status: 422 },
      });
    }
    for (const sender of senders.filter(({ type }) => type !== 'application/json')) {
      const refused = await send('/graphql', sender, '{ version }');
      expect(refused.status, sender.label).toBe(415);
      expect(JSON.parse(refused.body).errors?.[0]?.extensions).toMatchObject({ code: 'unsupported_media_type', status: 415 });
    }
    const answered = await send('/graphql', { type: 'application/json' }, JSON.stringify({ query: '{ version }' }));
    expect(answered.status).toBe(200);
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
      for (const response of [rest, graphql]) {
        for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(response.headers.get(name), name).toMatch(/^\d+$/);
      }
    } finally {
      cache.find = find;
    }
    expect((await app.http.get('/users')).status).toBe(200);
  });
});
