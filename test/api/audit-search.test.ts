import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { HttpClient } from '../support/http.ts';
import { issueTestKey } from '../support/keys.ts';
import { TestRoles } from '../support/roles.ts';

/** GET /audit-logs and /audit-logs/{recordId}: the records every write leaves, searched, in their scope only. */
let app: TestApp;
let admin: HttpClient;
let tenantA: string;
let tenantB: string;
let userA: string;
let userB: string;
let startedAt: string;
const USER_AGENT = 'audit-search-test/1.0';

beforeAll(async () => {
  app = await startTestApp();
  admin = new HttpClient(app.baseUrl, { apiKey: app.root.apiKey });
  tenantA = await app.createTenant('A');
  tenantB = await app.createTenant('B');
  startedAt = new Date().toISOString();
  const headers = { 'user-agent': USER_AGENT };
  // Through the tenant paths: the records are then the tenants' own.
  const tenantPath = (tenantId: string) => `/applications/${app.root.applicationId}/tenants/${tenantId}/users`;
  userA = (await admin.post(tenantPath(tenantA), { email: 'a@example.com' }, { headers })).body.id;
  userB = (await admin.post(tenantPath(tenantB), { email: 'b@example.com' }, { headers })).body.id;
  expect((await admin.patch(`${tenantPath(tenantA)}/${userA}`, { name: 'Ada' }, { headers })).status).toBe(200);
});
afterAll(async () => app?.close());

const search = async (query: string, client = admin, path = '/audit-logs') => {
  const response = await client.get(`${path}${query === '' ? '' : `?${query}`}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { data: { id: string; action: string; target: { id: string }; tenantId: string | null }[]; next: string | null };
};

describe('audit search', () => {
  it('lists newest first, each record with its request’s origin and what it changed', async () => {
    const { data } = await search(`target=${userA}`);
    expect(data.map((record) => record.action)).toEqual(['user.updated', 'user.created']);
    const [update] = data;
    const record = await admin.get(`/audit-logs/${update!.id}`);
    expect(record.status).toBe(200);
    expect(record.body, JSON.stringify(record.body)).toMatchObject({
      id: update!.id,
      applicationId: app.root.applicationId,
      tenantId: tenantA,
      action: 'user.updated',
      target: { type: 'user', id: userA },
      actor: { type: 'api_key' },
      outcome: 'success',
      ip: '127.0.0.1',
      userAgent: USER_AGENT,
      requestId: expect.any(String),
      changes: { before: { name: null }, after: { name: 'Ada' } },
    });
    expect(Date.parse(record.body.time as string)).toBeGreaterThanOrEqual(Date.parse(startedAt));
  });

  it('filters by action (exact or a resource’s prefix), actor and time', async () => {
    expect((await search('action=user.created')).data.map((r) => r.target.id).sort()).toEqual([userA, userB].sort());
    expect((await search('action=user.create')).data).toEqual([]);
    // `_` is a letter of an action, not LIKE's any-character: `use_.*` is no prefix of `user.created`.
    expect((await search('action=use_.*')).data).toEqual([]);
    expect((await search(`action=user.*&from=${encodeURIComponent(startedAt)}`)).data.map((r) => r.action)).toEqual(['user.updated', 'user.created', 'user.created']);
    const [latest] = (await search('')).data;
    const actor = (await admin.get(`/audit-logs/${latest!.id}`)).body.actor.id as string;
    expect((await search(`actor=${actor}&action=user.updated`)).data).toHaveLength(1);
    expect((await search(`actor=00000000-0000-7000-8000-000000000000`)).data).toEqual([]);
    expect((await search(`to=${encodeURIComponent(startedAt)}&action=user.*`)).data).toEqual([]);
  });

  it('an id filter finds the records of that id in either case, as every path and body id is read', async () => {
    expect((await admin.get(`/users/${userA.toUpperCase()}`)).status).toBe(200);
    const lower = (await search(`target=${userA}`)).data.map((r) => r.id);
    expect(lower.length).toBeGreaterThan(0);
    expect((await search(`target=${userA.toUpperCase()}`)).data.map((r) => r.id)).toEqual(lower);
    const [latest] = (await search(`target=${userA}`)).data;
    const actor = (await admin.get(`/audit-logs/${latest!.id}`)).body.actor.id as string;
    expect((await search(`actor=${actor.toUpperCase()}&target=${userA}`)).data.map((r) => r.id)).toEqual((await search(`actor=${actor}&target=${userA}`)).data.map((r) => r.id));
  });

  it('pages with a cursor bound to its search', async () => {
    const first = await search('pageSize=2&action=user.*');
    expect(first.data).toHaveLength(2);
    const second = await search(`pageSize=2&action=user.*&cursor=${encodeURIComponent(first.next!)}`);
    expect(second.data.map((r) => r.action)).toEqual(['user.created']);
    expect(second.next).toBeNull();
    expect((await admin.get(`/audit-logs?pageSize=2&action=user.created&cursor=${encodeURIComponent(first.next!)}`)).status).toBe(422);
  });

  it('answers 20 records a page when pageSize is left out, and the rest on the next page', async () => {
    // Its own search, not the lists' paginate(): the default is proven here too.
    const tenant = await app.createTenant('Twenty-one');
    const tenantPath = `/applications/${app.root.applicationId}/tenants/${tenant}`;
    for (let i = 0; i < 21; i += 1) expect((await admin.post(`${tenantPath}/users`, { email: `page${i}@example.com` })).status).toBe(201);
    const first = await search('action=user.created', admin, `${tenantPath}/audit-logs`);
    expect(first.data).toHaveLength(20);
    expect(first.next).toEqual(expect.any(String));
    const second = await search(`action=user.created&cursor=${encodeURIComponent(first.next!)}`, admin, `${tenantPath}/audit-logs`);
    expect(second.data).toHaveLength(1);
    expect(second.next ?? null).toBeNull();
    expect(new Set([...first.data, ...second.data].map((record) => record.target.id)).size).toBe(21);
  });

  it('a tenant scope sees its own records only: through the tenant path, and with a tenant-scoped key', async () => {
    const tenantPath = `/applications/${app.root.applicationId}/tenants/${tenantA}/audit-logs`;
    const inA = await search('action=user.*', admin, tenantPath);
    expect(inA.data.map((r) => [r.action, r.target.id, r.tenantId])).toEqual([['user.updated', userA, tenantA], ['user.created', userA, tenantA]]);
    const key = await admin.post('/api-keys', { name: 'a', permissions: ['audit_logs:read'], tenantId: tenantA });
    const tenantKey = app.as({ apiKey: key.body.secret });
    expect((await search('action=user.*', tenantKey)).data.map((r) => r.target.id)).toEqual([userA, userA]);
    const [ofB] = (await search(`target=${userB}`)).data;
    expect((await tenantKey.get(`/audit-logs/${ofB!.id}`)).status).toBe(404);
  });

  it('refusals: another application’s record, a missing permission, a malformed filter, and no way to change a record', async () => {
    const other = await app.bootstrapAnother();
    const [foreign] = (await search('', app.as({ apiKey: other.apiKey }))).data;
    expect(await admin.get(`/audit-logs/${foreign!.id}`)).toMatchObject({ status: 404, body: { code: 'not_found', field: 'recordId' } });
    const reader = await admin.post('/api-keys', { name: 'r', permissions: ['users:read'] });
    expect((await app.as({ apiKey: reader.body.secret }).get('/audit-logs')).status).toBe(403);
    for (const action of ['user.*.x', 'user.', '*', 'User.*', 'user.**']) {
      expect((await admin.get(`/audit-logs?action=${encodeURIComponent(action)}`)).body, action).toMatchObject({ code: 'validation_error', field: 'action' });
    }
    expect((await admin.get(`/audit-logs?from=${encodeURIComponent(startedAt)}&to=${encodeURIComponent(startedAt)}`)).body).toMatchObject({ field: 'to' });
    // Before the ids' epoch no record can be (and PostgreSQL holds no year 0); the epoch itself is a bound.
    for (const name of ['from', 'to']) {
      expect((await admin.get(`/audit-logs?${name}=0000-01-01T00:00:00Z`)).body).toMatchObject({ code: 'validation_error', field: name });
      expect((await admin.get(`/audit-logs?${name}=1969-12-31T23:59:59Z`)).body).toMatchObject({ code: 'validation_error', field: name });
    }
    expect((await search('to=1970-01-01T00:00:00Z')).data).toEqual([]);
    // After the last ISO year, which an RFC 3339 offset reaches from 9999-12-31 and PostgreSQL's timestamps are not read as.
    for (const name of ['from', 'to']) {
      expect((await admin.get(`/audit-logs?${name}=${encodeURIComponent('9999-12-31T23:59:59-23:59')}`)).body).toMatchObject({ code: 'validation_error', field: name });
      const asGraphQL = await admin.graphql(`query($t: DateTime) { auditLogs(${name}: $t) { data { id } } }`, { t: '9999-12-31T23:59:59-00:01' });
      expect(asGraphQL.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: name });
      const asLiteral = await admin.graphql(`{ auditLogs(${name}: "9999-12-31T23:59:59-00:01") { data { id } } }`);
      expect(asLiteral.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: name });
    }
    expect((await search(`to=${encodeURIComponent('9999-12-31T23:59:59.999Z')}&target=${userB}`)).data.map((r) => r.action)).toEqual(['user.created']);
    expect((await admin.get(`/audit-logs?actor=${'x'.repeat(201)}`)).body).toMatchObject({ field: 'actor' });
    const [any] = (await search('')).data;
    for (const method of ['PATCH', 'PUT', 'DELETE']) expect((await admin.request(method, `/api/v1/audit-logs/${any!.id}`)).status).toBe(405);
  });

  it('a filter value no record can carry is 422 naming its filter, not an empty list; an id or name of nothing is an empty list', async () => {
    const refused: Record<string, string[]> = {
      actor: ['nope', 'not an id', '01890a5d-ac96-774b-bcce-b302099a805', 'Lockout', ''],
      action: ['nope', 'user', ''],
      target: ['not an id', '../users', 'a,b', ''],
      from: ['nope', '2026-01-01', '2026-01-01T00:00:00', '2026-01-01 00:00:00Z', '1767225600'],
      to: ['nope', '2026-01-01', '2026-01-01T00:00:00', '2026-01-01 00:00:00Z', '1767225600'],
    };
    for (const [name, values] of Object.entries(refused)) {
      for (const value of values) {
        const answer = await admin.get(`/audit-logs?${name}=${encodeURIComponent(value)}`);
        expect(answer.status, `${name}=${value}`).toBe(422);
        expect(answer.body, `${name}=${value}`).toMatchObject({ code: 'validation_error', field: name });
      }
    }
    // The same over GraphQL, and on the stream, whose filters are the search's.
    const asGraphQL = await admin.graphql('{ auditLogs(actor: "nope") { data { id } } }');
    expect(asGraphQL.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'actor' });
    expect((await admin.get('/audit-logs/stream?actor=nope')).body).toMatchObject({ code: 'validation_error', field: 'actor' });
    // `from` after `to` (or equal) is refused on `to`.
    expect((await admin.get('/audit-logs?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z')).body).toMatchObject({ code: 'validation_error', field: 'to' });

    // Well-formed: an id of nothing, a name the service acts under, an action no record has, a date-time with its offset.
    for (const query of [
      'actor=01890a5d-ac96-774b-bcce-b302099a8057',
      'actor=lockout',
      'actor=migration',
      'target=verify_email',
      'target=gDq3ZmNvX9bW_k-1aQ',
      'action=user.mfa.*',
      'action=nothing.done',
      `from=${encodeURIComponent('2026-01-01T00:00:00+02:00')}&to=${encodeURIComponent('2026-01-01T00:00:01.5Z')}`,
    ]) {
      expect((await admin.get(`/audit-logs?${query}`)).status, query).toBe(200);
    }
  });

  it('through GraphQL', async () => {
    const response = await admin.request('POST', '/graphql', {
      body: { query: 'query($t: String) { auditLogs(target: $t) { data { action target { id } } } }', variables: { t: userB } },
    });
    expect(response.body).toEqual({ data: { auditLogs: { data: [{ action: 'user.created', target: { id: userB } }] } } });
    const query = 'query($action: String, $target: String) { auditLogs(action: $action, target: $target) { data { action } } }';
    const family = await admin.graphql(query, { action: 'user.*', target: userA });
    expect(family.body.data.auditLogs.data.map((r: { action: string }) => r.action)).toEqual(['user.updated', 'user.created']);
    expect((await admin.graphql(query, { action: 'tenant.*', target: userA })).body.data.auditLogs.data).toEqual([]);
    for (const action of ['user.*.x', 'user.', '*', 'User.*', 'user.**']) {
      const refused = await admin.graphql(query, { action });
      expect(refused.body.errors?.[0]?.extensions, action).toMatchObject({ code: 'validation_error', field: 'action' });
    }
  });

  it('a tenant key sees a shared user’s tenants in the snapshots as the users API shows them: its own alone', async () => {
    const shared = await app.createUser('both@example.com', tenantA);
    expect((await admin.patch(`/users/${shared}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    const keyOfA = await issueTestKey(app, { tenantId: tenantA, permissions: ['users:read', 'users:delete', 'audit_logs:read'] });
    expect((await keyOfA.get(`/users/${shared}`)).body.tenantIds).toEqual([tenantA]);
    // A tenant-scoped DELETE of a user of several tenants removes them from that tenant: a record of A's naming B.
    expect((await keyOfA.delete(`/users/${shared}`)).status).toBe(204);
    const [removed] = (await search(`target=${shared}&action=user.membership.removed`, keyOfA)).data;
    expect((await keyOfA.get(`/audit-logs/${removed!.id}`)).body.changes).toMatchObject({ before: { tenantIds: [tenantA] }, after: { tenantIds: [] } });
    expect(JSON.stringify((await search(`target=${shared}`, keyOfA)).data)).not.toContain(tenantB);
    const asGraphQL = await keyOfA.graphql(`{ auditLog(recordId: "${removed!.id}") { changes { before after } } }`);
    expect(asGraphQL.body.data).toMatchObject({ auditLog: { changes: { before: { tenantIds: [tenantA] }, after: { tenantIds: [] } } } });
    // Application-wide credentials see every tenant, on a tenant's path too.
    const everyTenant = { before: { tenantIds: [tenantA, tenantB] }, after: { tenantIds: [tenantB] } };
    expect((await admin.get(`/audit-logs/${removed!.id}`)).body.changes).toMatchObject(everyTenant);
    expect((await admin.get(`/applications/${app.root.applicationId}/tenants/${tenantA}/audit-logs/${removed!.id}`)).body.changes).toMatchObject(everyTenant);
  });

  it('a change of a shared user on the application’s path is also their tenants’: each reads it, showing no other tenant; a tenant they are not in does not', async () => {
    const tenantC = await app.createTenant('C');
    const member = await app.createUser('member-of-a-and-c@example.com', tenantA);
    expect((await admin.patch(`/users/${member}`, { tenantIds: [tenantA, tenantC] })).status).toBe(200);
    const readerOf = (tenantId: string) => issueTestKey(app, { tenantId, permissions: ['users:read', 'audit_logs:read'] });
    const [keyOfA, keyOfB, keyOfC] = await Promise.all([readerOf(tenantA), readerOf(tenantB), readerOf(tenantC)]);
    // An application-wide administrator, on the application's path: records of no tenant.
    expect((await admin.post(`/users/${member}/suspend`, {})).status).toBe(200);
    expect((await admin.patch(`/users/${member}`, { name: 'Member' })).status).toBe(200);
    const all = (await search(`target=${member}&action=user.*`)).data;
    const [renamed, suspended] = all;
    expect([renamed, suspended].map((record) => [record!.action, record!.tenantId])).toEqual([['user.updated', null], ['user.suspended', null]]);

    for (const [key, own, other] of [[keyOfA, tenantA, tenantC], [keyOfC, tenantC, tenantA]] as const) {
      const seen = (await search(`target=${member}&action=user.*`, key)).data;
      expect(seen.map((record) => record.id).slice(0, 2)).toEqual([renamed!.id, suspended!.id]);
      const shown = await key.get(`/audit-logs/${suspended!.id}`);
      expect(shown.status).toBe(200);
      expect(shown.body.changes).toMatchObject({ before: { tenantIds: [own], status: 'active' }, after: { tenantIds: [own], status: 'suspended' } });
      // What the suspension ended across every tenant of the user counts the other tenant's sessions too.
      expect(shown.body.changes.after).not.toHaveProperty('sessionsEnded');
      expect(JSON.stringify({ seen, shown: shown.body })).not.toContain(other);
    }
    // A tenant page by page reads what one page shows (its own records and its members', merged newest first).
    const pages: string[] = [];
    for (let cursor: string | null = ''; cursor !== null; ) {
      const page = await search(`target=${member}&pageSize=1${cursor === '' ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, keyOfA);
      pages.push(...page.data.map((record) => record.id));
      cursor = page.next;
    }
    expect(pages).toEqual((await search(`target=${member}`, keyOfA)).data.map((record) => record.id));
    expect(pages.length).toBeGreaterThan(2);

    // Tenant B, where the user is not a member: none of it, by any way in.
    expect((await search(`target=${member}`, keyOfB)).data).toEqual([]);
    expect((await keyOfB.get(`/audit-logs/${suspended!.id}`)).status).toBe(404);
    expect((await search(`target=${member}`, admin, `/applications/${app.root.applicationId}/tenants/${tenantB}/audit-logs`)).data).toEqual([]);
    const asGraphQL = async (key: HttpClient) =>
      (await key.graphql('query($t: String) { auditLogs(target: $t) { data { id changes { after } } } }', { t: member })).body.data.auditLogs.data as { id: string; changes: { after: unknown } | null }[];
    expect((await asGraphQL(keyOfB)).map((record) => record.id)).toEqual([]);
    const ofA = await asGraphQL(keyOfA);
    expect(ofA.find((record) => record.id === suspended!.id)?.changes?.after).toMatchObject({ tenantIds: [tenantA], status: 'suspended' });
    expect(JSON.stringify(ofA)).not.toContain(tenantC);
    // The application sees every tenant and every count.
    expect((await admin.get(`/audit-logs/${suspended!.id}`)).body.changes.after).toMatchObject({ tenantIds: [tenantA, tenantC], sessionsEnded: 0 });

    // Its tenants are those of the time of the change: B, joined later, reads its joining, not what came before.
    expect((await admin.patch(`/users/${member}`, { tenantIds: [tenantA, tenantB, tenantC] })).status).toBe(200);
    const ofB = (await search(`target=${member}`, keyOfB)).data;
    expect(ofB.map((record) => record.action)).toEqual(['user.updated']);
    expect((await keyOfB.get(`/audit-logs/${ofB[0]!.id}`)).body.changes).toMatchObject({ before: { tenantIds: [] }, after: { tenantIds: [tenantB] } });
  });

  it('filters by API key: what was done with it, as the actor and beside a Bearer token, whose subject is then the actor', async () => {
    const created = await app.http.post('/api-keys', { name: 'incident', permissions: ['users:read', 'users:write'] });
    const { key: { id: keyId }, secret } = created.body as { key: { id: string }; secret: string };
    const keyUser = (await app.as({ apiKey: secret }).post('/users', { email: 'by-key@example.com' })).body.id as string;
    const userId = (await app.http.post('/users', { email: 'key-holder@example.com' })).body.id as string;
    await new TestRoles(app).assign({ type: 'user', id: userId }, 'app_admin');
    const bearer = await app.mintAccessToken({ sub: userId, app_id: app.root.applicationId });
    expect((await app.as({ apiKey: secret, bearer }).patch(`/users/${keyUser}`, { name: 'Kay' })).status).toBe(200);

    const withKey = (await search(`apiKey=${keyId}`)).data;
    expect(withKey.map((r) => [r.action, r.target.id])).toEqual([['user.updated', keyUser], ['user.created', keyUser]]);
    expect((await search(`apiKey=${keyId.toUpperCase()}`)).data.map((r) => r.id)).toEqual(withKey.map((r) => r.id));
    expect((await search(`actor=${keyId}`)).data.map((r) => r.action)).toEqual(['user.created']);
    expect((await search(`actor=${userId}&apiKey=${keyId}`)).data.map((r) => r.action)).toEqual(['user.updated']);
    // The key was made with the root key: that record is the root key's, not the new key's.
    expect((await search(`apiKey=${keyId}&action=api_key.*`)).data).toEqual([]);
    const asGraphQL = await admin.graphql('query($k: UUID) { auditLogs(apiKey: $k) { data { id } } }', { k: keyId });
    expect(asGraphQL.body.data.auditLogs.data.map((r: { id: string }) => r.id)).toEqual(withKey.map((r) => r.id));
    // A cursor is its search's: another key's search does not take it.
    const first = await search(`apiKey=${keyId}&pageSize=1`);
    expect((await admin.get(`/audit-logs?apiKey=01a24867-2e94-74db-9232-7f68e292dbac&pageSize=1&cursor=${encodeURIComponent(first.next!)}`)).body).toMatchObject({ field: 'cursor' });
    expect((await admin.get('/audit-logs?apiKey=not-a-key')).body).toMatchObject({ code: 'validation_error', field: 'apiKey' });
  });

  it('an API key filter keeps its scope: a tenant sees what the key did in it only, another application nothing', async () => {
    const created = await app.http.post('/api-keys', { name: 'two tenants', permissions: ['users:write'] });
    const { key: { id: keyId }, secret } = created.body as { key: { id: string }; secret: string };
    const byKey = app.as({ apiKey: secret });
    const tenantsPath = `/applications/${app.root.applicationId}/tenants`;
    const inA = (await byKey.post(`${tenantsPath}/${tenantA}/users`, { email: 'key-in-a@example.com' })).body.id as string;
    const inB = (await byKey.post(`${tenantsPath}/${tenantB}/users`, { email: 'key-in-b@example.com' })).body.id as string;
    expect((await search(`apiKey=${keyId}`)).data.map((r) => r.target.id)).toEqual([inB, inA]);

    expect((await search(`apiKey=${keyId}`, admin, `${tenantsPath}/${tenantA}/audit-logs`)).data.map((r) => [r.target.id, r.tenantId])).toEqual([[inA, tenantA]]);
    const readerOfB = (await admin.post('/api-keys', { name: 'b', permissions: ['audit_logs:read'], tenantId: tenantB })).body.secret as string;
    expect((await search(`apiKey=${keyId}`, app.as({ apiKey: readerOfB }))).data.map((r) => r.target.id)).toEqual([inB]);
    const other = await app.bootstrapAnother();
    expect((await search(`apiKey=${keyId}`, app.as({ apiKey: other.apiKey }))).data).toEqual([]);
  });
});

describe('migration 0046', () => {
  it('renames the actions records were written with before to the contract’s, and no other', async () => {
    const { Migration0046AuditActionNames } = await import('../../src/db/migrations/0046-audit-action-names.ts');
    const orm = app.gatehouse.services.orm;
    // Old names, one a prefix of another, and a name already the contract's.
    const renames = [
      ['user.create', 'user.created'],
      ['user.signup', 'user.signed_up'],
      ['policy.override', 'policy.overridden'],
      ['policy.override.remove', 'policy.override.removed'],
      ['application.update', 'application.updated'],
      ['user.signed_in', 'user.signed_in'],
    ] as const;
    const records = await app.sql<{ id: string; action: string }>('select id, action from audit_log where application_id = ? order by id limit ?', [app.root.applicationId, renames.length]);
    expect(records).toHaveLength(renames.length);
    const setAction = (id: string, action: string) => app.sql('update audit_log set action = ? where id = ?', [action, id]);
    for (const [index, { id }] of records.entries()) await setAction(id, renames[index]![0]);

    const migration = new Migration0046AuditActionNames(orm.em.getDriver(), orm.config);
    migration.up();
    for (const query of migration.getQueries()) await app.sql(query as string);

    const actionOf = async (id: string) => (await app.sql<{ action: string }>('select action from audit_log where id = ?', [id]))[0]?.action;
    for (const [index, { id }] of records.entries()) expect(await actionOf(id)).toBe(renames[index]![1]);
    expect((await search('action=user.created&pageSize=100')).data.map((r) => r.id)).toContain(records[0]!.id);
    for (const { id, action } of records) await setAction(id, action);
  });
});
