import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';

/** The users list narrowed by status, e-mail and e-mail prefix, in both transports and every path form. */
let app: TestApp;
let tenantA: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  ({ app, tenants: [tenantA] } = await startTestAppWithTenants(['A']));
  for (const [email, tenantId] of [['Ada@Example.com', tenantA], ['adam@example.com', null], ['bob@example.com', tenantA], ['a_b%c@example.com', null]] as const) {
    const created = await app.http.post('/users', { email, ...(tenantId === null ? {} : { tenantId }) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    ids[email] = created.body.id;
  }
  expect((await app.http.post(`/users/${ids['bob@example.com']}/suspend`)).status).toBe(200);
});
afterAll(async () => app?.close());

const emails = async (query: string, path = '/users') => {
  const response = await app.http.get(`${path}?${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body.data as { email: string }[]).map((user) => user.email).sort();
};

describe('users list filters', () => {
  it('by status, exact e-mail (as sign-in compares it) and e-mail prefix', async () => {
    expect(await emails('status=suspended')).toEqual(['bob@example.com']);
    expect(await emails('email=ADA%40example.COM')).toEqual(['Ada@Example.com']);
    expect(await emails('emailPrefix=ada')).toEqual(['Ada@Example.com', 'adam@example.com']);
    expect(await emails('emailPrefix=ada&status=active')).toEqual(['Ada@Example.com', 'adam@example.com']);
    expect(await emails('emailPrefix=ada&email=adam%40example.com')).toEqual(['adam@example.com']);
  });

  it('a filter value shaped like an id is compared as it is, whatever the page query compiled in its place', async () => {
    const email = '00000000-0000-4000-8000-0000000000a3@example.com';
    const created = await app.http.post('/users', { email });
    expect(created.status).toBe(201);
    expect(await emails(`email=${encodeURIComponent(email)}`)).toEqual([email]);
    expect(await emails(`emailPrefix=${encodeURIComponent(email.slice(0, 36))}`)).toEqual([email]);
    expect(await emails(`emailPrefix=${app.root.applicationId}`)).toEqual([]);
  });

  it('a prefix reaching into an internationalized domain finds its addresses, though their key holds the domain in ASCII', async () => {
    for (const email of ['pat@bücher.de', 'pat@BÄR.example', 'pat@bank.example']) expect((await app.http.post('/users', { email })).status).toBe(201);
    expect(await emails(`emailPrefix=${encodeURIComponent('pat@b')}`)).toEqual(['pat@BÄR.example', 'pat@bank.example', 'pat@bücher.de']);
    expect(await emails(`emailPrefix=${encodeURIComponent('PAT@BÜ')}`)).toEqual(['pat@bücher.de']);
    expect(await emails(`emailPrefix=${encodeURIComponent('pat@bu\u0308ch')}`)).toEqual(['pat@bücher.de']);
    expect(await emails(`emailPrefix=${encodeURIComponent('pat@bücher.d')}`)).toEqual(['pat@bücher.de']);
    expect(await emails(`emailPrefix=${encodeURIComponent('pat@xn--bcher')}`)).toEqual(['pat@bücher.de']);
    expect(await emails(`emailPrefix=${encodeURIComponent('pat@ba')}`)).toEqual(['pat@bank.example']);
    // The local part is still compared whole up to the `@`: another mailbox at the domain is not found.
    expect(await emails(`emailPrefix=${encodeURIComponent('pa@b')}`)).toEqual([]);
    expect(await emails(`emailPrefix=${encodeURIComponent('pat@b')}&email=${encodeURIComponent('PAT@bücher.de')}`)).toEqual(['pat@bücher.de']);
  });

  it('a prefix is literal: % and _ match only themselves', async () => {
    expect(await emails('emailPrefix=a_')).toEqual(['a_b%c@example.com']);
    expect(await emails('emailPrefix=%25')).toEqual([]);
    expect(await emails('emailPrefix=a_b%25')).toEqual(['a_b%c@example.com']);
  });

  it('combine with the tenant path form, and page with a cursor bound to the filter', async () => {
    expect(await emails('emailPrefix=a', `/applications/${app.root.applicationId}/tenants/${tenantA}/users`)).toEqual(['Ada@Example.com']);
    const first = await app.http.get('/users?emailPrefix=a&pageSize=1');
    expect(first.body.data).toHaveLength(1);
    const second = await app.http.get(`/users?emailPrefix=a&pageSize=2&cursor=${encodeURIComponent(first.body.next)}`);
    expect(second.status).toBe(200);
    expect(second.body.data).toHaveLength(2);
    const elsewhere = await app.http.get(`/users?status=active&pageSize=1&cursor=${encodeURIComponent(first.body.next)}`);
    expect(elsewhere.status).toBe(422);
  });

  it('through GraphQL', async () => {
    const response = await app.http.request('POST', '/graphql', { body: { query: '{ users(status: suspended) { data { email } } }' } });
    expect(response.body).toEqual({ data: { users: { data: [{ email: 'bob@example.com' }] } } });
  });

  it('refusals: an unknown status, an empty or overlong prefix, a tenantId query parameter', async () => {
    expect((await app.http.get('/users?status=deleted')).body).toMatchObject({ code: 'validation_error', field: 'status' });
    expect((await app.http.get('/users?emailPrefix=')).body).toMatchObject({ code: 'validation_error', field: 'emailPrefix' });
    expect((await app.http.get(`/users?emailPrefix=${'a'.repeat(321)}`)).body).toMatchObject({ code: 'validation_error', field: 'emailPrefix' });
    // Spaces are trimmed as an address is: a prefix of spaces alone would match every user.
    for (const blank of ['%20', '%20%20%09']) {
      const refused = await app.http.get(`/users?emailPrefix=${blank}`);
      expect(refused.status, blank).toBe(422);
      expect(refused.body).toMatchObject({ code: 'validation_error', field: 'emailPrefix' });
    }
    expect(await emails('emailPrefix=%20ada')).toEqual(['Ada@Example.com', 'adam@example.com']);
    expect((await app.http.get(`/users?tenantId=${tenantA}`)).body).toMatchObject({ code: 'validation_error', field: 'tenantId' });
  });

  it('a filter holding a NUL, which PostgreSQL cannot compare, is 422 naming it (not a 500), on both transports', async () => {
    for (const field of ['email', 'emailPrefix']) {
      for (const path of ['/users', `/applications/${app.root.applicationId}/tenants/${tenantA}/users`]) {
        const refused = await app.http.get(`${path}?${field}=ada%00%40example.com`);
        expect(refused.status, `${field} on ${path}`).toBe(422);
        expect(refused.body).toMatchObject({ code: 'validation_error', field });
      }
      const graphql = await app.http.request('POST', '/graphql', {
        body: { query: `query ($value: String) { users(${field}: $value) { data { id } } }`, variables: { value: 'ada\u0000@example.com' } },
      });
      expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field });
    }
  });
});
