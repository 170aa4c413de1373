import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandRoutes, type ExpandedRoute } from '../../src/rest/routes.ts';
import { ALL_PERMISSIONS } from '../../src/auth/permissions.ts';
import type { OperationRule } from '../../src/auth/operation-permissions.ts';
import { issueApiKey } from '../../src/domain/api-keys/issue.ts';
import { operationRule } from '../../src/graphql/authorize-operation.ts';
import { buildSchema } from '../../src/graphql/schema.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import type { HttpClient } from '../support/http.ts';
import { seedSession, seedVictim, type Victim } from './fixtures.ts';

/**
 * Walks every row of the route table (every path form) with credentials that must not reach the victim's data:
 * another application's key, a key of the victim's other tenant, a key without the permission the permission table
 * names for it (and one with exactly it, on reads), and none at all;
 * over REST and over GraphQL. Each must be refused with the contract's status, and leak no victim data.
 */
let app: TestApp;
let victim: Victim;
let foreignApp: HttpClient;
let otherTenant: HttpClient;
let anonymous: HttpClient;
const routes = expandRoutes();
const schema = buildSchema();
const ruleOfRoute = (route: ExpandedRoute) => operationRule(schema, route.operation.document, route.operation.definition);
/** An id no record has. */
const SAMPLE_ID = '01890a5d-ac96-774b-bcce-b302099a8057';

/** Routes that act on the credentials' own application by design, so another application's key may call them. */
const CREDENTIAL_SCOPED = new Set(['ListApplications', 'CreateApplication']);

/**
 * A credentials-form path whose parameters name no record (`/policies/:kind`) resolves in the caller's own
 * application, where the name exists too: another application's key reaches only its own data there.
 */
const keyedByName = (route: ExpandedRoute) =>
  route.form === 'credentials' && route.url.includes(':') && !/:\w+Id\b/.test(route.url);

function pathFor(route: ExpandedRoute): string {
  return route.url.replace(/:(\w+)/g, (_, name: string) => {
    const value = victim.params[name];
    if (value === undefined) throw new Error(`isolation fixtures have no value for :${name} (${route.method} ${route.url})`);
    return value;
  });
}

function bodyFor(route: ExpandedRoute): unknown {
  if (!route.operation.variables.has('input')) return undefined;
  const body = victim.bodies[route.operation.name];
  if (body === undefined) throw new Error(`isolation fixtures have no request body for ${route.operation.name}`);
  return body;
}

function variablesFor(route: ExpandedRoute): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const name of route.operation.variables.keys()) {
    if (name === 'input') variables[name] = bodyFor(route);
    else if (route.url.includes(`:${name}`)) variables[name] = victim.params[name];
  }
  return variables;
}

async function keyFor(tenantId: string | null, permissions: string[]): Promise<string> {
  const em = app.gatehouse.services.orm.em.fork();
  const { secret } = issueApiKey(em, {
    applicationId: app.root.applicationId,
    tenantId,
    userId: null,
    name: 'isolation',
    permissions,
    expiresAt: null,
  });
  await em.flush();
  return secret;
}

function expectNoVictimData(body: unknown) {
  const text = JSON.stringify(body ?? null);
  for (const [name, id] of Object.entries(victim.params)) {
    if (name === 'tenantId' || name === 'appId' || name === 'orgId' || !name.endsWith('Id')) continue;
    expect(text, `leaks ${name}`).not.toContain(id);
  }
  expect(text).not.toContain('Victim');
}

beforeAll(async () => {
  app = await startTestApp();
  victim = await seedVictim(app);
  const other = await app.bootstrapAnother();
  foreignApp = app.as({ apiKey: other.apiKey });
  const tenantB = (await app.http.get(`/applications/${app.root.applicationId}/tenants?pageSize=100`)).body.data.find(
    (t: { name: string }) => t.name === 'Victim B',
  ).id as string;
  otherTenant = app.as({ apiKey: await keyFor(tenantB, ['*']) });
  anonymous = app.as({});
});
afterAll(async () => app?.close());

const send = (route: ExpandedRoute, client: HttpClient) =>
  client.request(route.method, `/api/v1${pathFor(route)}`, { body: bodyFor(route) });
const sendGraphQL = (route: ExpandedRoute, client: HttpClient) => client.graphql(route.operation.query, variablesFor(route));
const named = (list: ExpandedRoute[]) => list.map((route) => [`${route.method} ${route.url}`, route] as const);

describe('no credentials: 401 on every route', () => {
  it.each(named(routes))('%s', async (_, route) => {
    const rest = await send(route, anonymous);
    expect(rest.status).toBe(401);
    expect(rest.body.code).toBe('unauthenticated');
    const gql = await sendGraphQL(route, anonymous);
    expect(gql.status).toBe(401);
    expect(gql.body.errors?.[0]?.extensions.code).toBe('unauthenticated');
  });
});

describe('another application: 404 and nothing of the victim', () => {
  it.each(named(routes.filter((route) => !CREDENTIAL_SCOPED.has(route.operation.name) && route.url.includes(':') && !keyedByName(route))))(
    '%s',
    async (_, route) => {
      const rest = await send(route, foreignApp);
      // A credentials-form path (`/users/{id}`) resolves in the foreign app, where the id does not exist.
      expect(rest.status, JSON.stringify(rest.body)).toBe(404);
      expect(rest.body.code).toBe('not_found');
      expectNoVictimData(rest.body);
      const gql = await sendGraphQL(route, foreignApp);
      expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'not_found', status: 404 });
      expectNoVictimData(gql.body);
    },
  );

  it.each(named(routes.filter((route) => CREDENTIAL_SCOPED.has(route.operation.name))))(
    '%s acts on the caller’s own application only',
    async (_, route) => {
      const rest = await send(route, foreignApp);
      expect(rest.status).toBeLessThan(300);
      expectNoVictimData(rest.body);
      expect(JSON.stringify(rest.body)).not.toContain(victim.params['appId']);
    },
  );
  it.each(named(routes.filter(keyedByName)))('%s resolves in the caller’s own application', async (_, route) => {
    const rest = await send(route, foreignApp);
    expect(rest.status, JSON.stringify(rest.body)).toBeLessThan(500);
    expectNoVictimData(rest.body);
    const gql = await sendGraphQL(route, foreignApp);
    expectNoVictimData(gql.body);
  });
});

describe('a key of another tenant: 403', () => {
  it.each(named(routes.filter((route) => route.url.includes(':tenantId'))))('%s', async (_, route) => {
    const rest = await send(route, otherTenant);
    expect(rest.status, JSON.stringify(rest.body)).toBe(403);
    expect(rest.body.code).toBe('forbidden');
    expectNoVictimData(rest.body);
    const gql = await sendGraphQL(route, otherTenant);
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'forbidden', status: 403 });
  });
});

/** Every permission of the table but those `rule` needs: the narrowest miss. */
const allBut = (rule: OperationRule) => ALL_PERMISSIONS.filter((permission) => !rule.permissions.includes(permission));

/** About the caller alone, so they take no permission: the applications an operator manages (none for a key). */
const OF_THE_CALLER = new Set(['ListManagedApplications']);

describe('a key without the operation’s permission (the permission table): 403', () => {
  it('every route needs a permission but those about the caller alone', () => {
    expect(routes.filter((route) => ruleOfRoute(route).permissions.length === 0).map((route) => route.operation.name)).toEqual([...OF_THE_CALLER]);
  });

  it.each(named(routes.filter((route) => OF_THE_CALLER.has(route.operation.name))))('%s answers a key holding nothing with nothing', async (_, route) => {
    const client = app.as({ apiKey: await keyFor(null, []) });
    const rest = await send(route, client);
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(rest.body).toEqual({ data: [], next: null, consolePermissions: [] });
  });

  it.each(named(routes.filter((route) => !OF_THE_CALLER.has(route.operation.name))))('%s', async (_, route) => {
    const rule = ruleOfRoute(route);
    const client = app.as({ apiKey: await keyFor(null, allBut(rule)) });
    const rest = await send(route, client);
    expect(rest.status, JSON.stringify(rest.body)).toBe(403);
    expect(rest.body).toMatchObject({ code: 'forbidden', message: `Missing permission ${rule.permissions[0]}` });
    expectNoVictimData(rest.body);
    const gql = await sendGraphQL(route, client);
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'forbidden', status: 403 });
  });
});

describe('a key holding exactly the operation’s permissions may read', () => {
  it.each(named(routes.filter((route) => route.method === 'GET' && route.form !== 'credentials')))('%s', async (_, route) => {
    const client = app.as({ apiKey: await keyFor(null, [...ruleOfRoute(route).permissions]) });
    const rest = await send(route, client);
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    const gql = await sendGraphQL(route, client);
    expect(gql.body.errors).toBeUndefined();
  });
});

describe('tenant-scoped credentials on an application-level operation: 403', () => {
  it.each(named(routes.filter((route) => ruleOfRoute(route).applicationLevel === true)))('%s', async (_, route) => {
    const client = app.as({ apiKey: await keyFor(victim.params['tenantId'] as string, ['*']) });
    const rest = await send(route, client);
    expect(rest.status, JSON.stringify(rest.body)).toBe(403);
    expect(rest.body.code).toBe('forbidden');
    const gql = await sendGraphQL(route, client);
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'forbidden', status: 403 });
  });
});

/** Path parameters that name one record, which may be the application's own rather than a tenant's. */
const RECORD_PARAMS = ['userId', 'keyId', 'providerId', 'clientId', 'credentialId', 'domainId', 'deliveryId', 'sessionId'] as const;

describe('a key of a tenant: an application-level record answers as an absent one, 404 on the tenant’s paths', () => {
  const appLevel: Record<string, string> = {};
  let tenantKey: HttpClient;
  beforeAll(async () => {
    const appPath = `/applications/${app.root.applicationId}`;
    const created = async (path: string, body: unknown, id = 'id') => {
      const response = await app.http.post(`${appPath}${path}`, body);
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return (response.body.key ?? response.body)[id] as string;
    };
    appLevel['userId'] = await created('/users', { email: 'app-level@example.com' });
    appLevel['keyId'] = await created('/api-keys', { name: 'App-level key', permissions: ['users:read'] });
    appLevel['clientId'] = await created('/oauth-clients', { name: 'App-level web', type: 'web', redirectUris: ['https://app-level.example.com/cb'] }, 'clientId');
    appLevel['credentialId'] = await created('/m2m-credentials', { name: 'App-level m2m', permissions: ['users:read'], authMethod: 'client_secret_basic' });
    appLevel['deliveryId'] = await created('/email/test', { to: 'app-level@example.com' });
    // An application-level sign-in (no tenant) of that user.
    appLevel['sessionId'] = await seedSession(app, appLevel['userId'], victim.params['clientId']!, null);
    // The victim's auth provider and domain are the application's own.
    appLevel['providerId'] = victim.params['providerId']!;
    appLevel['domainId'] = victim.params['domainId']!;
    tenantKey = app.as({ apiKey: await keyFor(victim.params['tenantId']!, ['*']) });
  });

  const withRecord = routes.filter((route) => RECORD_PARAMS.some((name) => route.url.includes(`:${name}`)));
  it.each(named(withRecord))('%s', async (_, route) => {
    const param = RECORD_PARAMS.find((name) => route.url.includes(`:${name}`))!;
    const path = (id: string) => `/api/v1${pathFor(route).replace(victim.params[param]!, id)}`;
    const body = bodyFor(route);
    const absent = await tenantKey.request(route.method, path(SAMPLE_ID), { body });
    const applications = await tenantKey.request(route.method, path(appLevel[param]!), { body });
    const gql = await tenantKey.graphql(route.operation.query, { ...variablesFor(route), [param]: appLevel[param] });
    const gqlAbsent = await tenantKey.graphql(route.operation.query, { ...variablesFor(route), [param]: SAMPLE_ID });
    // The one exception: a record the tenant inherits (the application's auth providers, while it has none of its own)
    // is its to read, shown as inherited; it is not its to change: 403, as for the application's roles below.
    if (param === 'providerId' && (await tenantKey.get(`/auth-providers/${appLevel[param]!}`)).body.source === 'inherited') {
      const expected = route.method === 'GET' ? { status: 200, code: undefined } : { status: 403, code: 'forbidden' };
      expect({ status: applications.status, code: applications.body?.code }, JSON.stringify(applications.body)).toEqual(expected);
      expect(gql.body.errors?.[0]?.extensions.code).toBe(expected.code);
      return;
    }
    expect({ status: applications.status, code: applications.body?.code }).toEqual({ status: absent.status, code: absent.body?.code });
    if (route.form === 'credentials' || route.url.includes(':tenantId')) expect(applications.status).toBe(404);
    expect(gql.body.errors?.[0]?.extensions).toEqual(gqlAbsent.body.errors?.[0]?.extensions);
  });
});

/** Path parameters of authorization's records: a tenant reads the application's roles and permissions, as it holds them. */
const AUTHORIZATION_PARAMS = ['roleId', 'permissionId', 'assignmentId'] as const;

describe('a key of a tenant: an application-wide role, permission or assignment of its subject is its to read, not to change', () => {
  const appLevel: Record<string, string> = {};
  let outsiderAssignment: string;
  let tenantKey: HttpClient;
  beforeAll(async () => {
    const created = async (path: string, body: unknown) => {
      const response = await app.http.post(`/applications/${app.root.applicationId}${path}`, body);
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return response.body.id as string;
    };
    appLevel['roleId'] = await created('/roles', { key: 'app_level', name: 'App level', permissions: ['users:read'] });
    appLevel['permissionId'] = await created('/permissions', { key: 'app_level:act' });
    appLevel['assignmentId'] = await created('/role-assignments', { subject: { type: 'user', id: victim.params['userId'] }, roleId: appLevel['roleId'] });
    // An application-wide assignment of a user outside the tenant is none of its business: absent to it.
    const outsider = await created('/users', { email: 'outsider@example.com' });
    outsiderAssignment = await created('/role-assignments', { subject: { type: 'user', id: outsider }, roleId: appLevel['roleId'] });
    tenantKey = app.as({ apiKey: await keyFor(victim.params['tenantId']!, ['*']) });
  });

  const withRecord = routes.filter((route) => AUTHORIZATION_PARAMS.some((name) => route.url.includes(`:${name}`)));
  it.each(named(withRecord))('%s', async (_, route) => {
    const param = AUTHORIZATION_PARAMS.find((name) => route.url.includes(`:${name}`))!;
    const path = (id: string) => `/api/v1${pathFor(route).replace(victim.params[param]!, id)}`;
    const body = bodyFor(route);
    const rest = await tenantKey.request(route.method, path(appLevel[param]!), { body });
    const gql = await tenantKey.graphql(route.operation.query, { ...variablesFor(route), [param]: appLevel[param] });
    const expected = route.method === 'GET' ? { status: 200, code: undefined } : { status: 403, code: 'forbidden' };
    expect({ status: rest.status, code: rest.body?.code }, JSON.stringify(rest.body)).toEqual(expected);
    expect(gql.body.errors?.[0]?.extensions.code).toBe(expected.code);
    if (param !== 'assignmentId') return;
    const absent = await tenantKey.request(route.method, path(SAMPLE_ID), { body });
    const hidden = await tenantKey.request(route.method, path(outsiderAssignment), { body });
    expect({ status: hidden.status, code: hidden.body?.code }).toEqual({ status: absent.status, code: absent.body?.code });
    expect(hidden.status).toBe(404);
  });
});
