import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_LIMITS } from '../../src/graphql/operation-limits.ts';
import { INPUT_REFUSALS_MAX, MORE_REFUSALS } from '../../src/graphql/variable-coercion.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import type { HttpResponse } from '../support/http.ts';

type GraphQLResponse = HttpResponse<{ data?: unknown; errors?: { message: string; extensions: Record<string, unknown> }[] }>;

/** A refused GraphQL request: no data, its HTTP status that of its first error, and that error's extensions. */
function refusal(response: GraphQLResponse) {
  const [error] = response.body.errors ?? [];
  expect(response.body.data ?? null).toBeNull();
  expect(response.status).toBe(error?.extensions['status']);
  return { status: response.status, message: error?.message, ...error?.extensions };
}

describe('GraphQL refusals', () => {
  let app: TestApp;
  /** The service's log lines: a refusal of input is never an error-level line. */
  const logged: { level: number; msg: string; reqId?: string }[] = [];
  beforeAll(async () => {
    app = await startTestApp({}, { logStream: { write: (line) => logged.push(JSON.parse(line) as (typeof logged)[number]) } });
  });
  afterAll(async () => app?.close());

  it('names the input path as REST does, whatever the client calls its variables', async () => {
    const appId = app.root.applicationId;
    const update = 'mutation($id: UUID!, $i: UpdateApplicationInput!) { updateApplication(appId: $id, input: $i) { id } }';
    const rest = await app.http.patch(`/applications/${appId}`, { tenancyConfig: { brandingScope: 'tenants' } });
    expect(rest.body).toMatchObject({ code: 'validation_error', field: 'tenancyConfig.brandingScope' });
    const renamed = await app.http.graphql(update, { id: appId, i: { tenancyConfig: { brandingScope: 'tenants' } } });
    expect(refusal(renamed)).toMatchObject({ status: 422, code: 'validation_error', field: 'tenancyConfig.brandingScope', message: rest.body.message });

    const scalar = await app.http.graphql(update, { id: 'nope', i: {} });
    expect(refusal(scalar)).toMatchObject({ status: 422, code: 'validation_error', field: 'appId' });
    const missing = await app.http.graphql(update, { i: {} });
    expect(refusal(missing)).toMatchObject({ status: 422, code: 'validation_error', field: 'appId' });
    const unknown = await app.http.graphql(update, { id: appId, i: { colour: 'red' } });
    expect(refusal(unknown)).toMatchObject({ status: 422, code: 'validation_error', field: 'colour' });
    const nested = await app.http.graphql('mutation($e: String!) { createUser(input: { email: $e }) { id } }', { e: 5 });
    expect(refusal(nested)).toMatchObject({ status: 422, code: 'validation_error', field: 'email' });

    const listItem = await app.http.post('/api-keys', { name: 'k', permissions: ['users:read', 5] });
    expect(listItem.body).toMatchObject({ code: 'validation_error', field: 'permissions[1]' });
    const permissions = await app.http.graphql('mutation($p: [String!]!) { createApiKey(input: { name: "k", permissions: $p }) { secret } }', {
      p: ['users:read', 5],
    });
    expect(refusal(permissions)).toMatchObject({ status: 422, field: 'permissions[1]', message: listItem.body.message });
  });

  it('quotes an unknown key as the client sent it, empty, quoted or worded like graphql-js; `field` is its path only if a name', async () => {
    const tenants = `/applications/${app.root.applicationId}/tenants`;
    const create = 'mutation($a: UUID!, $i: CreateTenantInput!) { createTenant(appId: $a, input: $i) { id } }';
    const mimic = 'a" is not defined by type "X". Did you mean "name';
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'x', '': 1 }, 'Unknown field ""', 'input'],
      [{ name: 'x', 'a"b': 1 }, 'Unknown field "a\\"b"', 'input'],
      [{ name: 'x', [mimic]: 1 }, `Unknown field ${JSON.stringify(mimic)}`, 'input'],
      [{ name: 'x', nam: 1 }, 'Unknown field "nam"', 'nam'],
    ];
    for (const [input, message, field] of cases) {
      const rest = await app.http.post(tenants, input);
      // REST names the body, the `input` argument, as `body`.
      expect(rest.body, message).toEqual({ code: 'validation_error', message, field: field === 'input' ? 'body' : field });
      const graphql = await app.http.graphql(create, { a: app.root.applicationId, i: input });
      expect(refusal(graphql), message).toMatchObject({ status: 422, code: 'validation_error', message, field });
    }
    const update = 'mutation($a: UUID!, $i: UpdateApplicationInput!) { updateApplication(appId: $a, input: $i) { id } }';
    const nested: [Record<string, unknown>, string, string][] = [
      [{ '': 1 }, 'Unknown field "" in tenancyConfig', 'tenancyConfig'],
      [{ 'a.b': 1 }, 'Unknown field "a.b" in tenancyConfig', 'tenancyConfig'],
      [{ brandingScop: 1 }, 'Unknown field "brandingScop" in tenancyConfig', 'tenancyConfig.brandingScop'],
    ];
    for (const [tenancyConfig, message, field] of nested) {
      const rest = await app.http.patch(`/applications/${app.root.applicationId}`, { tenancyConfig });
      expect(rest.body, message).toEqual({ code: 'validation_error', message, field });
      const graphql = await app.http.graphql(update, { a: app.root.applicationId, i: { tenancyConfig } });
      expect(refusal(graphql), message).toMatchObject({ status: 422, code: 'validation_error', message, field });
    }
    const literal = await app.http.graphql(`mutation { createTenant(appId: "${app.root.applicationId}", input: { name: "x", nam: 1 }) { id } }`);
    expect(refusal(literal)).toMatchObject({ status: 422, code: 'validation_error', message: 'Unknown field "nam"', field: 'nam' });
    expect((await app.http.get(`${tenants}?pageSize=100`)).body.data.map((tenant: { name: string }) => tenant.name)).not.toContain('x');
  });

  it('names the argument a variable declared with the wrong type is passed to', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['mutation($userId: String!) { deleteUser(userId: $userId) }', { userId: 'x' }, 'userId'],
      ['mutation($a: UUID!, $input: JSONObject!) { createTenant(appId: $a, input: $input) { id } }', { a: app.root.applicationId, input: { name: 'x' } }, 'input'],
      ['query($kind: String!) { policy(kind: $kind) { kind } }', { kind: 'password' }, 'kind'],
      ['query($size: String) { users(pageSize: $size) { next } }', { size: '5' }, 'pageSize'],
      ['mutation($e: Int!) { createUser(input: { email: $e }) { id } }', { e: 5 }, 'email'],
    ];
    for (const [query, variables, field] of cases) {
      const response = await app.http.graphql(query, variables);
      expect(refusal(response), query).toMatchObject({ status: 422, code: 'validation_error', field, message: expect.stringMatching(/^Variable "\$\w+" of type "[^"]+" used in position expecting type "[^"]+"\.$/) });
    }
  });

  it('names only the kind of the token a syntax error stops at, not its text', async () => {
    const misplaced = await app.http.graphql('mutation { putEmailProvider(input: { type: sendgrid } "SG.TOPSECRETVALUE") { type } }');
    expect(refusal(misplaced)).toMatchObject({ status: 422, code: 'validation_error', message: 'Syntax Error: Expected Name, found String.' });
  });

  it('names the argument, or the input path inside it, of a refused inline literal', async () => {
    const cases = [
      { query: '{ user(userId: "abc") { id } }', field: 'userId' },
      { query: 'mutation { createUser(input: { email: "x@y.z", bogus: 1 }) { id } }', field: 'bogus' },
      { query: 'mutation { createUser(input: { name: "X" }) { id } }', field: 'email' },
      { query: `mutation { updateApplication(appId: "${app.root.applicationId}", input: { tenancyConfig: { brandingScope: tenants } }) { id } }`, field: 'tenancyConfig.brandingScope' },
      { query: '{ user(userId: "01a20981-1ca0-7374-8a83-c78b71164e1e", colour: 1) { id } }', field: 'colour' },
      { query: '{ user { id } }', field: 'userId' },
    ];
    for (const { query, field } of cases) {
      expect(refusal(await app.http.graphql(query)), query).toMatchObject({ status: 422, code: 'validation_error', field });
    }
  });

  it('names the document (`query`) when it does not parse or validate, and `operationName` when no operation is chosen', async () => {
    const nesting = OPERATION_LIMITS.nesting + 1;
    const SAMPLE_USER = '01a20981-1ca0-7374-8a83-c78b71164e1e';
    const cases: [string, { query: string; operationName?: string }][] = [
      ['query', { query: '{ users { data { id }' }],
      ['query', { query: '{ nothing }' }],
      ['query', { query: `{ ${'users { '.repeat(nesting)}id${' }'.repeat(nesting)} }` }],
      ['query', { query: `mutation { a: unlockUser(userId: "${SAMPLE_USER}") { id } b: unlockUser(userId: "${SAMPLE_USER}") { id } }` }],
      ['operationName', { query: 'query A { version } query B { version }' }],
      ['operationName', { query: 'query A { version } query B { version }', operationName: 'C' }],
    ];
    for (const [field, body] of cases) {
      const response = await app.http.request('POST', '/graphql', { body });
      expect(refusal(response), JSON.stringify(body)).toMatchObject({ status: 422, code: 'validation_error', field });
    }
    const twoMutations = await app.http.request('POST', '/graphql', { body: cases[3]![1] });
    expect(refusal(twoMutations).message).toMatch(/^A mutation may select at most 1 root field/);
  });

  it('answers malformed requests with the HTTP status their error carries, CSRF prevention included', async () => {
    const bodies: Record<string, unknown> = { empty: {}, 'query not a string': { query: 5 }, batch: [{ query: '{ version }' }] };
    for (const [label, body] of Object.entries(bodies)) {
      const response = await app.http.request('POST', '/graphql', { body });
      expect(refusal(response), label).toMatchObject({ status: 422, code: 'validation_error' });
    }
    // A member of the wrong type names itself, as any refused input does.
    for (const [field, body] of [
      ['query', { query: 5 }],
      ['variables', { query: '{ version }', variables: 'x' }],
      ['variables', { query: '{ version }', variables: [1] }],
      ['operationName', { query: '{ version }', operationName: 7 }],
      // An unknown member is refused as an unknown field of a REST body is (API.md), not ignored.
      ['operationname', { query: '{ version }', operationname: 'Q' }],
      ['body', { query: '{ version }', 'not a name': 1 }],
    ] as const) {
      const response = await app.http.request('POST', '/graphql', { body });
      expect(refusal(response), JSON.stringify(body)).toMatchObject({ status: 422, code: 'validation_error', field });
    }
    // No body (nor Content-Type, which a browser could send cross-site without a preflight): refused unexecuted, on
    // `body`, before Apollo, whose refusal of it read as a Cross-Site Request Forgery (request-bodies.test.ts: any type).
    const bare = await app.http.request('POST', '/graphql');
    expect(refusal(bare)).toMatchObject({ status: 422, code: 'validation_error', field: 'body', message: expect.stringContaining('takes a JSON body') });
  });

  it('refuses a request with more refused values than it reports: the first ones in `details`, as over REST, none internal', async () => {
    const unknownFields = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, 'v']));
    const response = await app.http.graphql('mutation($a: UUID!, $i: CreateTenantInput!) { createTenant(appId: $a, input: $i) { id } }', {
      a: app.root.applicationId,
      i: { name: 'Acme', ...unknownFields },
    });
    expect(response.body.errors).toHaveLength(1);
    const refused = refusal(response);
    const firsts = Array.from({ length: INPUT_REFUSALS_MAX }, (_, i) => ({ message: `Unknown field "k${i}"`, field: `k${i}` }));
    expect(refused).toEqual({
      status: 422,
      code: 'validation_error',
      message: 'Unknown field "k0"',
      field: 'k0',
      details: [...firsts, { message: MORE_REFUSALS }],
    });
    const rest = await app.http.post(`/applications/${app.root.applicationId}/tenants`, { name: 'Acme', ...unknownFields });
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual({ code: 'validation_error', message: 'Unknown field "k0"', field: 'k0', details: [...firsts, { message: MORE_REFUSALS }] });
    const requestId = response.headers.get('x-request-id');
    expect(logged.filter((line) => line.reqId === requestId && line.level >= 50)).toEqual([]);
    // Up to the limit, every refusal is listed and the list says it is whole.
    const few = await app.http.post(`/applications/${app.root.applicationId}/tenants`, { name: 'Acme', k0: 1, k1: 2 });
    expect(few.body).toEqual({ code: 'validation_error', message: 'Unknown field "k0"', field: 'k0', details: firsts.slice(0, 2) });
  });

  it('refuses automatic persisted queries as a client error, with or without the query', async () => {
    const persistedQuery = { version: 1, sha256Hash: 'abc' };
    for (const body of [{ query: '{ version }', extensions: { persistedQuery } }, { extensions: { persistedQuery } }]) {
      const response = await app.http.request('POST', '/graphql', { body });
      expect(refusal(response), JSON.stringify(body)).toMatchObject({ status: 422, code: 'validation_error' });
    }
  });
});
