import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from '../support/http.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { issueTestKey } from '../support/keys.ts';

/** `tenants(search)`: the tenants whose name (any case) or slug starts with it, in both transports, scoped as the list. */
let app: TestApp;
let appPath: string;
const ids: Record<string, string> = {};

const TENANTS = [
  ['Acme Corp', 'acme'],
  ['ACME Labs', 'labs'],
  ['Crème Brûlée', 'dessert'],
  ['Globex', 'acme-globex'],
  ['50%_off', 'percent'],
  ['Initech', 'initech'],
] as const;

beforeAll(async () => {
  app = await startTestApp();
  appPath = `/applications/${app.root.applicationId}`;
  for (const [name, slug] of TENANTS) {
    const created = await app.http.post(`${appPath}/tenants`, { name, slug });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    ids[name] = created.body.id;
  }
  const other = await app.bootstrapAnother();
  await app.createTenant('Acme elsewhere', other);
});
afterAll(async () => app?.close());

const names = async (search: string, client: HttpClient = app.http): Promise<string[]> => {
  const response = await client.get(`${appPath}/tenants?pageSize=100&search=${encodeURIComponent(search)}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body.data as { name: string }[]).map((tenant) => tenant.name);
};

describe('tenants?search', () => {
  it('matches the start of a name in any case, or of a slug, in the list’s order; never another application’s', async () => {
    expect(await names('acme')).toEqual(['Acme Corp', 'ACME Labs', 'Globex']);
    expect(await names('ACME L')).toEqual(['ACME Labs']);
    expect(await names('crÈme')).toEqual(['Crème Brûlée']);
    expect(await names('DESS')).toEqual(['Crème Brûlée']);
    expect(await names('corp')).toEqual([]);
    expect(await names('Acme elsewhere')).toEqual([]);
  });

  it('compares names in Unicode NFC: a name or a search typed with combining accents finds the precomposed one, and back', async () => {
    const composed = (await app.http.post(`${appPath}/tenants`, { name: 'Zo\u00eb Composed', slug: 'composed' })).body.id;
    const decomposed = (await app.http.post(`${appPath}/tenants`, { name: 'Zoe\u0308 Decomposed', slug: 'decomposed' })).body.id;
    const found = async (search: string) => {
      const response = await app.http.get(`${appPath}/tenants?pageSize=100&search=${encodeURIComponent(search)}`);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return (response.body.data as { id: string }[]).map((tenant) => tenant.id);
    };
    expect(await found('zo\u00eb')).toEqual([composed, decomposed]);
    expect(await found('ZOE\u0308')).toEqual([composed, decomposed]);
    expect(await found('Crè')).toEqual([ids['Crème Brûlée']]);
    expect(await found('Cre\u0300')).toEqual([ids['Crème Brûlée']]);
    expect(await found('zoe')).toEqual([]);
    expect((await app.http.delete(`${appPath}/tenants/${decomposed}`)).status).toBe(204);
    expect((await app.http.delete(`${appPath}/tenants/${composed}`)).status).toBe(204);
  });

  it('takes % and _ literally', async () => {
    expect(await names('50%')).toEqual(['50%_off']);
    expect(await names('%')).toEqual([]);
    expect(await names('_')).toEqual([]);
  });

  it('pages with a cursor bound to the search', async () => {
    const first = await app.http.get(`${appPath}/tenants?search=acme&pageSize=2`);
    expect(first.body.data.map((tenant: { name: string }) => tenant.name)).toEqual(['Acme Corp', 'ACME Labs']);
    const cursor = encodeURIComponent(first.body.next);
    const second = await app.http.get(`${appPath}/tenants?search=acme&pageSize=2&cursor=${cursor}`);
    expect(second.body).toEqual({ data: [expect.objectContaining({ name: 'Globex' })], next: null });
    const elsewhere = await app.http.get(`${appPath}/tenants?search=acm&pageSize=2&cursor=${cursor}`);
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body).toMatchObject({ code: 'validation_error', field: 'cursor' });
  });

  it('a tenant-scoped credential finds only its own tenant', async () => {
    const acmeKey = await issueTestKey(app, { tenantId: ids['Acme Corp']! });
    expect(await names('acme', acmeKey)).toEqual(['Acme Corp']);
    expect(await names('ini', acmeKey)).toEqual([]);
  });

  it('through GraphQL', async () => {
    const response = await app.http.request('POST', '/graphql', {
      body: { query: 'query ($appId: UUID!) { tenants(appId: $appId, search: "acme l") { data { id } next } }', variables: { appId: app.root.applicationId } },
    });
    expect(response.body).toEqual({ data: { tenants: { data: [{ id: ids['ACME Labs'] }], next: null } } });
  });

  it('refuses an empty, blank, overlong or control-character search (422, field search), and through GraphQL', async () => {
    for (const refused of ['', '   ', 'a'.repeat(201), 'ac\u0000me', 'ac\nme']) {
      const response = await app.http.get(`${appPath}/tenants?search=${encodeURIComponent(refused)}`);
      expect(response.status, JSON.stringify(refused)).toBe(422);
      expect(response.body, JSON.stringify(refused)).toMatchObject({ code: 'validation_error', field: 'search' });
    }
    expect(await names('é'.repeat(200))).toEqual([]);
    const response = await app.http.request('POST', '/graphql', {
      body: { query: 'query ($appId: UUID!) { tenants(appId: $appId, search: "") { next } }', variables: { appId: app.root.applicationId } },
    });
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'validation_error', field: 'search' });
  });
});
