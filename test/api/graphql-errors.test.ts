import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('answers malformed requests with the HTTP status their error carries, CSRF prevention included', async () => {
    const bodies: Record<string, unknown> = { empty: {}, 'query not a string': { query: 5 }, batch: [{ query: '{ version }' }] };
    for (const [label, body] of Object.entries(bodies)) {
      const response = await app.http.request('POST', '/graphql', { body });
      expect(refusal(response), label).toMatchObject({ status: 422, code: 'validation_error' });
    }
    // No Content-Type: a browser could send it cross-site without a preflight, so Apollo refuses it unexecuted.
    const bare = await app.http.request('POST', '/graphql');
    expect(refusal(bare)).toMatchObject({ status: 422, code: 'validation_error', message: expect.stringContaining('Cross-Site Request Forgery') });
  });

  it('refuses a request with more refused variables than graphql-js reports as input refusals, none internal', async () => {
    const unknownFields = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, 'v']));
    const response = await app.http.graphql('mutation($a: UUID!, $i: CreateTenantInput!) { createTenant(appId: $a, input: $i) { id } }', {
      a: app.root.applicationId,
      i: unknownFields,
    });
    expect(refusal(response)).toMatchObject({ status: 422, code: 'validation_error' });
    const errors = response.body.errors ?? [];
    expect(errors.length).toBeGreaterThan(50);
    for (const error of errors) expect(error.extensions, error.message).toMatchObject({ code: 'validation_error', status: 422 });
    expect(errors.at(-1)?.message).toMatch(/^Too many invalid variables/);
    const requestId = response.headers.get('x-request-id');
    expect(logged.filter((line) => line.reqId === requestId && line.level >= 50)).toEqual([]);
  });

  it('refuses automatic persisted queries as a client error, with or without the query', async () => {
    const persistedQuery = { version: 1, sha256Hash: 'abc' };
    for (const body of [{ query: '{ version }', extensions: { persistedQuery } }, { extensions: { persistedQuery } }]) {
      const response = await app.http.request('POST', '/graphql', { body });
      expect(refusal(response), JSON.stringify(body)).toMatchObject({ status: 422, code: 'validation_error' });
    }
  });
});
