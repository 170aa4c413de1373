import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.ts';
import type { HttpClient } from '../support/http.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { issueTestKey } from '../support/keys.ts';

/**
 * The `ids` argument of the lists that name items (users, tenants, roles, OAuth clients, API keys, M2M credentials, API
 * resources, permissions, invitations).
 */
let app: TestApp;
let appId: string;
let tenantA: string;
let tenantB: string;
/** A tenant of each application for the items an application's path makes that must have one (invitations). */
let tenantC: string;
let otherTenant: string;
let tenantAKey: HttpClient;

/**
 * Where one list's items were made: the application's own, tenant A's, tenant B's (none for application-level items),
 * and another application's.
 */
interface Seeded {
  readonly ofApplication: readonly string[];
  readonly ofTenantA: string | undefined;
  readonly ofTenantB: string | undefined;
  readonly ofOtherApplication: string;
}

interface ListCase {
  readonly path: string;
  /** The GraphQL field, and its arguments besides `ids`. */
  readonly field: string;
  readonly fieldArguments?: () => string;
  /**
   * Makes one item under `path` (an application's or tenant's path form) with `client`, returning its id; `tenantId` is
   * the path's tenant, else one of the path's application.
   */
  readonly create?: (client: HttpClient, path: string, n: number, tenantId: string) => Promise<string>;
  /** Its items are the application's, which every tenant sees: none is made on a tenant's path. */
  readonly applicationLevel?: true;
}

async function created(client: HttpClient, path: string, body: unknown, idOf = (answer: any): string => answer.id): Promise<string> {
  const response = await client.post(path, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return idOf(response.body);
}

const LISTS: Readonly<Record<string, ListCase>> = {
  users: { path: 'users', field: 'users', create: (client, path, n) => created(client, path, { email: `ids-${n}@example.com` }) },
  tenants: { path: 'tenants', field: 'tenants', fieldArguments: () => `appId: "${appId}", ` },
  roles: { path: 'roles', field: 'roles', create: (client, path, n) => created(client, path, { key: `ids_${n}`, name: `Ids ${n}`, permissions: [] }) },
  oauthClients: {
    path: 'oauth-clients',
    field: 'oauthClients',
    create: (client, path, n) => created(client, path, { name: `Ids ${n}`, type: 'spa', redirectUris: ['https://spa.example.com/cb'] }),
  },
  apiKeys: { path: 'api-keys', field: 'apiKeys', create: (client, path, n) => created(client, path, { name: `Ids ${n}`, permissions: ['users:read'] }, (answer) => answer.key.id) },
  m2mCredentials: { path: 'm2m-credentials', field: 'm2mCredentials', create: (client, path, n) => created(client, path, { name: `Ids ${n}`, permissions: ['users:read'] }) },
  apiResources: {
    path: 'api-resources',
    field: 'apiResources',
    create: (client, path, n) => created(client, path, { identifier: `https://api.example.com/ids-${n}-${newId()}`, name: `Ids ${n}` }),
    applicationLevel: true,
  },
  permissions: { path: 'permissions', field: 'permissions', create: (client, path, n) => created(client, path, { key: `ids${n}:read` }) },
  invitations: { path: 'invitations', field: 'invitations', create: (client, path, n, tenantId) => created(client, path, { email: `ids-invited-${n}@example.com`, tenantId }) },
};

const seeded = new Map<string, Seeded>();
let counter = 0;

beforeAll(async () => {
  app = await startTestApp();
  appId = app.root.applicationId;
  tenantA = await app.createTenant('Ids A');
  tenantB = await app.createTenant('Ids B');
  tenantC = await app.createTenant('Ids C');
  tenantAKey = await issueTestKey(app, { tenantId: tenantA });
  const other = await app.bootstrapAnother();
  const otherClient = app.as({ apiKey: other.apiKey });
  otherTenant = await app.createTenant('Ids other', other);
  for (const [name, list] of Object.entries(LISTS)) {
    if (list.create === undefined) {
      seeded.set(name, { ofApplication: [tenantC], ofTenantA: tenantA, ofTenantB: tenantB, ofOtherApplication: otherTenant });
      continue;
    }
    const make = (client: HttpClient, path: string, tenantId: string) => list.create!(client, `${path}/${list.path}`, (counter += 1), tenantId);
    const ofTenant = async (tenantId: string) => (list.applicationLevel ? undefined : make(app.http, `/applications/${appId}/tenants/${tenantId}`, tenantId));
    seeded.set(name, {
      ofApplication: [await make(app.http, `/applications/${appId}`, tenantC), await make(app.http, `/applications/${appId}`, tenantC)],
      ofTenantA: await ofTenant(tenantA),
      ofTenantB: await ofTenant(tenantB),
      ofOtherApplication: await make(otherClient, `/applications/${other.applicationId}`, otherTenant),
    });
  }
});
afterAll(async () => app?.close());

const listedIds = async (client: HttpClient, path: string): Promise<string[]> => {
  const response = await client.get(path);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body.data as { id: string }[]).map((item) => item.id);
};

const query = (ids: readonly string[]) => `ids=${ids.join(',')}`;

describe.each(Object.entries(LISTS))('%s?ids', (name, list) => {
  const items = () => seeded.get(name)!;
  /** Every item made, another tenant's and another application's included, a repeat and an id of nothing. */
  const asked = () => {
    const { ofApplication, ofTenantA, ofTenantB, ofOtherApplication } = items();
    return [ofTenantB, ...ofApplication, ofTenantA, ofOtherApplication, newId(), ofTenantA].filter((id) => id !== undefined);
  };

  it('lists exactly the items asked that the scope sees, in the list’s usual order', async () => {
    const { ofApplication, ofTenantA, ofTenantB, ofOtherApplication } = items();
    const made = [...ofApplication, ofTenantA, ofTenantB].filter((id) => id !== undefined);
    const everything = await listedIds(app.http, `/applications/${appId}/${list.path}?pageSize=100`);
    const expected = everything.filter((id) => made.includes(id));
    expect(expected).toHaveLength(made.length);
    const listed = await listedIds(app.http, `/applications/${appId}/${list.path}?${query(asked())}`);
    expect(listed).toEqual(expected);
    expect(listed).not.toContain(ofOtherApplication);
  });

  it('in a tenant scope: what the tenant sees of them, never another tenant’s', async () => {
    const { ofApplication, ofTenantA, ofTenantB } = items();
    const seen = await listedIds(tenantAKey, `/applications/${appId}/${list.path}?pageSize=100`);
    const filtered = await listedIds(tenantAKey, `/applications/${appId}/${list.path}?${query(asked())}`);
    expect(filtered).toEqual(seen.filter((id) => asked().includes(id)));
    // An application-level list shows the application's items to every tenant.
    expect(filtered).toEqual(expect.arrayContaining(ofTenantA === undefined ? [...ofApplication] : [ofTenantA]));
    if (ofTenantB !== undefined) expect(filtered).not.toContain(ofTenantB);
  });

  it('through GraphQL', async () => {
    const { ofApplication, ofOtherApplication } = items();
    const response = await app.http.request('POST', '/graphql', {
      body: { query: `query ($ids: [UUID!]) { ${list.field}(${list.fieldArguments?.() ?? ''}ids: $ids) { data { id } } }`, variables: { ids: [ofOtherApplication, ...ofApplication] } },
    });
    expect(response.body).toEqual({ data: { [list.field]: { data: ofApplication.map((id) => ({ id })) } } });
  });

  it('refuses an empty list, more than 100 ids and a repeated parameter (422, field ids)', async () => {
    const refusals = ['ids=', query(Array.from({ length: 101 }, () => newId())), `ids=${newId()}&ids=${newId()}`];
    for (const refused of refusals) {
      const response = await app.http.get(`/applications/${appId}/${list.path}?${refused}`);
      expect(response.status, refused).toBe(422);
      expect(response.body, refused).toMatchObject({ code: 'validation_error', field: 'ids' });
    }
    for (const ids of [[], Array.from({ length: 101 }, () => newId())]) {
      const response = await app.http.request('POST', '/graphql', {
        body: { query: `query ($ids: [UUID!]) { ${list.field}(${list.fieldArguments?.() ?? ''}ids: $ids) { next } }`, variables: { ids } },
      });
      expect(response.body.errors[0].extensions, `${ids.length} ids`).toMatchObject({ code: 'validation_error', field: 'ids' });
    }
  });

  it('refuses a malformed id as every UUID argument, naming it in the list', async () => {
    const response = await app.http.get(`/applications/${appId}/${list.path}?${query([newId(), 'not-a-uuid'])}`);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code: 'validation_error', message: 'Invalid ids[1]: expected a UUIDv7 (Gatehouse ids are UUIDv7)', field: 'ids[1]' });
    const graphql = await app.http.request('POST', '/graphql', {
      body: { query: `query ($ids: [UUID!]) { ${list.field}(${list.fieldArguments?.() ?? ''}ids: $ids) { next } }`, variables: { ids: [newId(), 'not-a-uuid'] } },
    });
    expect(graphql.body.errors[0].extensions).toMatchObject({ code: 'validation_error', field: 'ids[1]' });
  });
});

describe('ids with the other arguments of a list', () => {
  it('composes with pageSize and a cursor, which names the set of ids it was issued for', async () => {
    const { ofApplication, ofTenantA, ofTenantB } = seeded.get('users')!;
    const all = [...ofApplication, ofTenantA!, ofTenantB!].sort();
    const first = await app.http.get(`/users?${query(all)}&pageSize=2`);
    expect(first.body.data.map((user: { id: string }) => user.id)).toEqual(all.slice(0, 2));
    const cursor = encodeURIComponent(first.body.next as string);
    const second = await app.http.get(`/users?${query([...all].reverse())}&pageSize=2&cursor=${cursor}`);
    expect(second.body).toMatchObject({ data: all.slice(2, 4).map((id) => ({ id })), next: null });
    for (const elsewhere of [`/users?pageSize=2&cursor=${cursor}`, `/users?${query(all.slice(1))}&pageSize=2&cursor=${cursor}`]) {
      expect((await app.http.get(elsewhere)).body).toMatchObject({ code: 'validation_error', field: 'cursor' });
    }
  });

  it('composes with invitations’ status', async () => {
    const [pending, revoked] = seeded.get('invitations')!.ofApplication as [string, string];
    expect((await app.http.delete(`/invitations/${revoked}`)).status).toBe(204);
    expect(await listedIds(app.http, `/invitations?${query([pending, revoked])}&status=revoked`)).toEqual([revoked]);
    expect(await listedIds(app.http, `/invitations?${query([pending, revoked])}&status=pending`)).toEqual([pending]);
  });

  it('narrows the built-in permissions as the custom ones: built-ins first, page by page', async () => {
    const everything = (await app.http.get('/permissions?pageSize=100')).body.data as { id: string; builtIn: boolean }[];
    const builtIns = everything.filter((permission) => permission.builtIn).map(({ id }) => id);
    const { ofApplication, ofTenantA } = seeded.get('permissions')!;
    const asked = [ofTenantA!, ...ofApplication, builtIns.at(-1)!, builtIns[0]!];
    const first = await app.http.get(`/permissions?${query(asked)}&pageSize=3`);
    expect(first.body.data.map(({ id }: { id: string }) => id)).toEqual([builtIns[0], builtIns.at(-1), ...ofApplication.slice(0, 1)]);
    const second = await app.http.get(`/permissions?${query(asked)}&pageSize=3&cursor=${encodeURIComponent(first.body.next as string)}`);
    expect(second.body).toMatchObject({ data: [...ofApplication.slice(1), ofTenantA].map((id) => ({ id })), next: null });
  });

  it('pages permissions past the built-ins without listing them again', async () => {
    const everything = await listedIds(app.http, '/permissions?pageSize=100');
    const builtIns = ((await app.http.get('/permissions?pageSize=100')).body.data as { builtIn: boolean }[]).filter((permission) => permission.builtIn).length;
    expect(everything.length).toBeGreaterThan(builtIns + 2);
    const paged: string[] = [];
    let next: string | null = null;
    do {
      const page: string = `/permissions?pageSize=${builtIns + 1}${next === null ? '' : `&cursor=${encodeURIComponent(next)}`}`;
      const { body }: { body: { data: { id: string }[]; next: string | null } } = await app.http.get(page);
      paged.push(...body.data.map(({ id }) => id));
      next = body.next;
    } while (next !== null && paged.length <= everything.length);
    expect(paged).toEqual(everything);
  });

  it('composes with users’ status', async () => {
    const [active, suspended] = seeded.get('users')!.ofApplication as [string, string];
    expect((await app.http.post(`/users/${suspended}/suspend`)).status).toBe(200);
    expect(await listedIds(app.http, `/users?${query([active, suspended])}&status=suspended`)).toEqual([suspended]);
    expect(await listedIds(app.http, `/users?${query([active, suspended])}&status=active`)).toEqual([active]);
  });
});
