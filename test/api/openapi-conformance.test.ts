import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandRoutes, successStatus, type ExpandedRoute } from '../../src/rest/routes.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import type { HttpClient, HttpResponse } from '../support/http.ts';
import { issueTestKey } from '../support/keys.ts';
import { DocumentedResponses, toOpenApiPath } from '../support/openapi.ts';
import { seedVictim, type Victim } from '../isolation/fixtures.ts';

/**
 * Every route of the table, in every path form, answered for real and checked against the OpenAPI document the
 * service serves: its success and each refusal a client meets (no credentials, no permission, another application,
 * a tenant's key where the credentials name the scope, a malformed id, a body naming a record that does not exist, an unknown query parameter or body field, a body too
 * large or not JSON, the rate limit). Each answer's status must be one the route documents, with the documented
 * headers and body; the refusals a GraphQL client can meet read the same over /graphql.
 */
let app: TestApp;
let victim: Victim;
let documented: DocumentedResponses;
let anonymous: HttpClient;
let withoutPermission: HttpClient;
let foreignApp: HttpClient;
let victimTenant: HttpClient;

/** A well-formed id of nothing. */
const ABSENT_ID = '01890a5d-ac96-774b-bcce-b302099a8057';

/**
 * Deletions last, and those that take other records with them after those records' own: a role takes its
 * assignments, a user their keys, a tenant its clients and credentials, the application everything. Each route meets
 * the victim's records in place.
 */
const DELETED_LAST = ['DeleteRole', 'DeleteUser', 'DeleteTenant', 'DeleteApplication'];
const routes = expandRoutes().sort((a, b) => rank(a) - rank(b));
function rank(route: ExpandedRoute): number {
  if (route.method !== 'DELETE') return 0;
  return 1 + DELETED_LAST.indexOf(route.operation.name) + 1;
}

/**
 * Operations whose success the shared fixtures cannot reach, each for a reason of the fixtures, not of the document:
 * their refusals are still checked on every path form.
 */
const SUCCESS_OUT_OF_REACH: Readonly<Record<string, string>> = {
  RotateM2MCredential: 'the victim’s credential uses private_key_jwt, which has no secret to rotate',
  RemoveBrandingOverride: 'the victim’s tenant has no override to remove (brandingScope stays application)',
  RemoveEmailProviderOverride: 'no override to remove (emailProviderScope stays application)',
  RemoveEmailTemplateOverride: 'no override to remove (emailTemplatesScope stays application)',
  RemovePolicy: 'no override to remove (authIsolation stays shared)',
  RotateSamlSpKey: 'the victim’s provider is a password provider, which has no SP key (saml-sp-key-rotation.test.ts)',
};
const succeeded = new Set<string>();

beforeAll(async () => {
  app = await startTestApp();
  victim = await seedVictim(app);
  documented = new DocumentedResponses((await app.as({}).get('/openapi.json')).body);
  anonymous = app.as({});
  withoutPermission = await issueTestKey(app, { permissions: ['organizations:read'] });
  foreignApp = app.as({ apiKey: (await app.bootstrapAnother()).apiKey });
  victimTenant = await issueTestKey(app, { tenantId: victim.params['tenantId'] });
});
afterAll(async () => app?.close());

const pathParams = (route: ExpandedRoute) => [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1] as string);

function pathFor(route: ExpandedRoute, overrides: Record<string, string> = {}): string {
  return `/api/v1${route.url.replace(/:(\w+)/g, (_, name: string) => overrides[name] ?? (victim.params[name] as string))}`;
}

function bodyFor(route: ExpandedRoute): Record<string, unknown> | undefined {
  return route.operation.variables.has('input') ? (victim.bodies[route.operation.name] as Record<string, unknown>) : undefined;
}

/** The documented schema of the route's body (its component), and whether the body may be left out. */
function bodySchema(route: ExpandedRoute): Record<string, unknown> | undefined {
  const method = route.method.toLowerCase() as 'get';
  const requestBody = documented.document.paths[toOpenApiPath(route.url)]?.[method]?.requestBody;
  const schema = JSON.stringify(requestBody?.content['application/json'].schema ?? {});
  return documented.document.components.schemas[/#\/components\/schemas\/(\w+)/.exec(schema)?.[1] ?? ''];
}

/** The top-level fields of the route's body that hold ids (`tenantId`, `userId`, `tenantIds`), as documented. */
function idFields(route: ExpandedRoute): { name: string; list: boolean }[] {
  const properties = (bodySchema(route)?.['properties'] ?? {}) as Record<string, unknown>;
  return Object.entries(properties)
    .filter(([, property]) => JSON.stringify(property).includes('"format":"uuid"'))
    .map(([name, property]) => ({ name, list: JSON.stringify(property).includes('"array"') }));
}

/** Whether a property's documented schema admits JSON null (`type: [T, "null"]`, or a `{type: "null"}` alternative). */
function admitsNull(property: Record<string, unknown>): boolean {
  const type = property['type'];
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  return ((property['anyOf'] ?? []) as Record<string, unknown>[]).some(admitsNull);
}

interface Probe {
  readonly label: string;
  readonly client: HttpClient;
  readonly path: string;
  /** The variables of the same request over GraphQL; absent when only REST can send it (query string, raw bytes). */
  readonly variables?: Record<string, unknown>;
  readonly body?: unknown;
  readonly raw?: { text: string; contentType: string };
  /** The `field` a 422 (or 404) must name. */
  readonly field?: string;
}

function variablesOf(route: ExpandedRoute, overrides: Record<string, string>, body: unknown): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const name of pathParams(route)) variables[name] = overrides[name] ?? victim.params[name];
  if (route.operation.variables.has('input')) variables['input'] = body;
  return variables;
}

function probesOf(route: ExpandedRoute): Probe[] {
  const body = bodyFor(route);
  const ids = pathParams(route).filter((param) => param.endsWith('Id'));
  const plain = (label: string, client: HttpClient, field?: string): Probe => ({ label, client, path: pathFor(route), body, variables: variablesOf(route, {}, body), field });
  const probes: Probe[] = [plain('no credentials', anonymous), plain('without the permission', withoutPermission)];
  // Another application's records are absent to it: the 404 names the path's first id, as for any absent record. Not
  // a create on a path without ids: it would make its own, and take a name unique across the service (an identifier).
  if (ids.length > 0 || route.method !== 'POST') probes.push(plain('another application', foreignApp, ids[0]));
  // The credentials name the scope of a path without ids: a tenant's key acts on its tenant (e.g. removing an
  // override it does not have). Not a create: the victim's own would then meet a duplicate.
  if (pathParams(route).length === 0 && route.method !== 'POST') probes.push(plain('a key of a tenant', victimTenant));
  for (const name of ids) {
    const malformed = { [name]: 'not-a-uuid' };
    probes.push({ label: `malformed ${name}`, client: app.http, path: pathFor(route, malformed), body, variables: variablesOf(route, malformed, body), field: name });
  }
  probes.push({ label: 'unknown query parameter', client: app.http, path: `${pathFor(route)}?unknownParameter=1`, body, field: 'unknownParameter' });
  if (body === undefined) return probes;
  for (const { name, list } of idFields(route)) {
    const naming = { ...body, [name]: list ? [ABSENT_ID] : ABSENT_ID };
    probes.push({ label: `${name} of nothing`, client: app.http, path: pathFor(route), body: naming, variables: variablesOf(route, {}, naming), field: name });
  }
  const unknown = { ...body, unknownField: 1 };
  probes.push({ label: 'unknown body field', client: app.http, path: pathFor(route), body: unknown, variables: variablesOf(route, {}, unknown), field: 'unknownField' });
  probes.push({ label: 'body over 1 MiB', client: app.http, path: pathFor(route), raw: { text: JSON.stringify({ padding: 'x'.repeat(1024 * 1024) }), contentType: 'application/json' } });
  probes.push({ label: 'body not JSON', client: app.http, path: pathFor(route), raw: { text: 'name=x', contentType: 'application/x-www-form-urlencoded' } });
  return probes;
}

function send(route: ExpandedRoute, probe: Probe): Promise<HttpResponse> {
  if (probe.raw !== undefined) return probe.client.request(route.method, probe.path, { raw: probe.raw.text, headers: { 'content-type': probe.raw.contentType } });
  return probe.client.request(route.method, probe.path, { body: probe.body });
}

/** A refusal as both transports carry it. */
const refusal = (status: number, error: { code?: unknown; field?: unknown } | undefined) => ({ status, code: error?.code, field: error?.field });

async function expectSameOverGraphQL(route: ExpandedRoute, probe: Probe, rest: HttpResponse) {
  if (probe.variables === undefined || rest.status < 400) return;
  const gql = await probe.client.graphql(route.operation.query, probe.variables);
  const [error] = gql.body.errors ?? [];
  expect(refusal(error?.extensions['status'], error?.extensions), `${probe.label} over GraphQL`).toEqual(refusal(rest.status, rest.body));
}

/**
 * Null in each top-level field of the body: where the document leaves null out of the field's type (`@notNull` in the
 * SDL, or a required field), refused with 422 naming the field; where it admits null, never refused for being null
 * (it may still be refused for what it means, e.g. a spa client without redirect URIs).
 */
async function expectNullsAsDocumented(route: ExpandedRoute) {
  const body = bodyFor(route);
  const properties = (bodySchema(route)?.['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  if (body === undefined) return;
  for (const [name, property] of Object.entries(properties)) {
    const withNull = { ...body, [name]: null };
    const probe: Probe = { label: `${name}: null`, client: app.http, path: pathFor(route), body: withNull, variables: variablesOf(route, {}, withNull) };
    const response = await send(route, probe);
    documented.expectRoute(route, response, probe.label);
    const refused = response.status === 422 && response.body.field === name;
    const outcome = `${probe.label} → ${response.status} ${JSON.stringify(response.body)}`;
    if (admitsNull(property)) expect(refused && /\bnull\b/.test(response.body.message), outcome).toBe(false);
    else expect(refused, outcome).toBe(true);
    await expectSameOverGraphQL(route, probe, response);
  }
}

const declaresQuery = (route: ExpandedRoute, name: string) =>
  documented.document.paths[toOpenApiPath(route.url)]?.[route.method.toLowerCase() as 'get']?.parameters.some((p) => p['in'] === 'query' && p['name'] === name) === true;

/** The declared query parameters are the ones read: a page of one, then the next page through its cursor. */
async function expectPagesAsDocumented(route: ExpandedRoute) {
  const first = await app.http.request(route.method, `${pathFor(route)}?pageSize=1`);
  documented.expectRoute(route, first, 'pageSize=1');
  expect(first.body.data.length, 'pageSize=1').toBeLessThanOrEqual(1);
  if (first.body.next === null) return;
  const next = await app.http.request(route.method, `${pathFor(route)}?pageSize=1&cursor=${encodeURIComponent(first.body.next)}`);
  documented.expectRoute(route, next, 'cursor');
  expect(next.status).toBe(successStatus(route));
}

describe('every answer of every route is the documented one', () => {
  it.each(routes.map((route) => [`${route.method} ${route.url}`, route] as const))('%s', async (_, route) => {
    for (const probe of probesOf(route)) {
      const response = await send(route, probe);
      documented.expectRoute(route, response, probe.label);
      if (probe.field !== undefined && (response.status === 404 || response.status === 422)) {
        expect(response.body.field, `${probe.label}: field`).toBe(probe.field);
      }
      await expectSameOverGraphQL(route, probe, response);
    }
    // A write's success under an Idempotency-Key, so that every write runs in its request transaction, and replays.
    const keyed = route.idempotent ? { headers: { 'idempotency-key': crypto.randomUUID() } } : {};
    const response = await app.http.request(route.method, pathFor(route), { body: bodyFor(route), ...keyed });
    documented.expectRoute(route, response, 'success');
    if (response.status === successStatus(route)) succeeded.add(route.operation.name);
    // Not an application's deletion: the credentials that would send the replay go with it (401).
    if (route.idempotent && route.operation.name !== 'DeleteApplication') {
      const replayed = await app.http.request(route.method, pathFor(route), { body: bodyFor(route), ...keyed });
      expect([replayed.status, replayed.headers.get('idempotent-replayed')], 'the replay').toEqual([response.status, 'true']);
      expect(replayed.body, 'the replay').toEqual(response.body);
      documented.expectRoute(route, replayed, 'the replay');
    }
    if (route.form === 'fixed' || route.form === 'credentials') await expectNullsAsDocumented(route);
    if (declaresQuery(route, 'cursor')) await expectPagesAsDocumented(route);
    if (route.method === 'GET') {
      // Read again until two reads agree: a mail the outbox settles between them changes the deliveries listed.
      let rest = response.body;
      let over = (await app.http.graphql(route.operation.query, variablesOf(route, {}, undefined))).body.data?.[route.operation.rootField];
      for (let reads = 1; reads < 5 && !isDeepStrictEqual(over, rest); reads += 1) {
        rest = (await app.http.request('GET', pathFor(route))).body;
        over = (await app.http.graphql(route.operation.query, variablesOf(route, {}, undefined))).body.data?.[route.operation.rootField];
      }
      expect(over, 'the same data over GraphQL').toEqual(rest);
    }
  });

  it('reached the documented success of every operation the fixtures allow', () => {
    const operations = new Set(routes.map((route) => route.operation.name));
    const unreached = [...operations].filter((name) => !succeeded.has(name) && SUCCESS_OUT_OF_REACH[name] === undefined);
    expect(unreached).toEqual([]);
  });
});

describe('the rate limit', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ rateLimit: { max: 1, windowMs: 60_000, redisPrefix: `gatehouse-test-${crypto.randomUUID()}-` } });
  });
  afterAll(async () => limited?.close());

  it('answers 429 on every route as documented, Retry-After included', async () => {
    const client = limited.as({});
    await client.get('/applications');
    for (const route of expandRoutes()) {
      const response = await client.request(route.method, `/api/v1${route.url.replace(/:(\w+)/g, ABSENT_ID)}`);
      expect(response.status, `${route.method} ${route.url}`).toBe(429);
      documented.expectRoute(route, response);
    }
  });
});
