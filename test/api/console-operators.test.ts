import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password-hash.ts';
import { ALL_PERMISSIONS, BUILT_IN_ROLES } from '../../src/auth/permissions.ts';
import { ensureConsoles, ensureOrganizationConsole } from '../../src/domain/console/console.ts';
import { newId } from '../../src/ids.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { issueTestKey } from '../support/keys.ts';
import type { HttpClient } from '../support/http.ts';

/**
 * API.md, Bootstrap: an organization's console application holds the dashboard's operators; an operator manages
 * another application of the organization with what that application's role assignments give the `operator` subject.
 */
let app: TestApp;
let consoleId: string;
let firstOperator: string;
let tenantT: string;
let tenantU: string;

const ensure = async (operator?: { email: string; password: string }) =>
  ensureConsoles(
    app.gatehouse.services.orm,
    app.gatehouse.services.config.publicUrl,
    randomUUID(),
    operator === undefined ? undefined : { email: operator.email, passwordHash: await hashPassword(operator.password) },
  );

/** A console user's token (the dashboard's), acting on `applicationId` when given. */
async function operatorClient(operatorId: string, applicationId?: string): Promise<HttpClient & { headers: Record<string, string> }> {
  const bearer = await app.mintAccessToken({ sub: operatorId, app_id: consoleId });
  const client = app.as({ bearer });
  const headers: Record<string, string> = applicationId === undefined ? {} : { 'x-gatehouse-application': applicationId };
  return Object.assign(client, { headers });
}

const get = (client: HttpClient & { headers: Record<string, string> }, path: string) => client.get(path, { headers: client.headers });
const post = (client: HttpClient & { headers: Record<string, string> }, path: string, body: unknown) => client.post(path, body, { headers: client.headers });

beforeAll(async () => {
  app = await startTestApp();
  expect(await ensure({ email: 'first@ops.example', password: 'a long first passphrase' })).toEqual({ email: 'first@ops.example', passwordLink: null });
  [{ id: consoleId }] = (await app.sql<{ id: string }>('select id from application where organization_id = ? and console', [app.root.organizationId])) as [{ id: string }];
  [{ id: firstOperator }] = (await app.sql<{ id: string }>('select id from app_user where application_id = ?', [consoleId])) as [{ id: string }];
  tenantT = await app.createTenant('Operators T');
  tenantU = await app.createTenant('Operators U');
});
afterAll(async () => app?.close());

describe('the console', () => {
  it('is made once per organization, signs in by password without sign-up, and has the dashboard client', async () => {
    await app.bootstrapAnother();
    expect(await ensure({ email: 'second@ops.example', password: 'another long passphrase' })).toBeNull();
    const consoles = await app.sql<{ organization_id: string }>('select organization_id from application where console');
    expect(new Set(consoles.map((row) => row.organization_id)).size).toBe(consoles.length);
    expect(consoles.map((row) => row.organization_id)).toContain(app.root.organizationId);
    const providers = await app.sql<{ type: string; config: Record<string, unknown> }>('select type, config from auth_provider where application_id = ?', [consoleId]);
    expect(providers).toEqual([{ type: 'password', config: { allowSignup: false, requireEmailVerification: true } }]);
    expect(await app.sql("select actor_type, actor_id from audit_log where application_id = ? and action = 'auth_provider.created'", [consoleId])).toEqual([
      { actor_type: 'system', actor_id: 'console' },
    ]);
    const clients = await app.sql<{ type: string; redirect_uris: string[]; management_api: boolean; auth_method: string }>(
      'select type, redirect_uris, management_api, auth_method from oauth_client where application_id = ?',
      [consoleId],
    );
    expect(clients).toEqual([{ type: 'spa', redirect_uris: [`${app.gatehouse.services.config.publicUrl}/dashboard/`], management_api: true, auth_method: 'none' }]);
  });

  it('gets a new dashboard client when PUBLIC_URL changes, and the old one goes', async () => {
    const redirects = async () =>
      (await app.sql<{ redirect_uris: string[] }>("select redirect_uris from oauth_client where application_id = ? and type = 'spa' order by id", [consoleId])).map((row) => row.redirect_uris);
    // A client of the console's own with the same shape but no management API access is not the dashboard's.
    const own = await (await operatorClient(firstOperator)).post('/oauth-clients', { name: 'Own', type: 'spa', redirectUris: ['https://own.example/dashboard/'] });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    // Nor is the operators' own management client, at a path of the same name: only the service's dashboard clients go.
    const portal = await (await operatorClient(firstOperator)).post('/oauth-clients', { name: 'Admin portal', type: 'spa', redirectUris: ['https://portal.example/dashboard/'], managementApi: true });
    expect(portal.status, JSON.stringify(portal.body)).toBe(201);
    await ensureConsoles(app.gatehouse.services.orm, 'https://moved.example', randomUUID());
    expect(await redirects()).toEqual([['https://own.example/dashboard/'], ['https://portal.example/dashboard/'], ['https://moved.example/dashboard/']]);
    await ensureConsoles(app.gatehouse.services.orm, app.gatehouse.services.config.publicUrl, randomUUID());
    expect(await redirects()).toEqual([['https://own.example/dashboard/'], ['https://portal.example/dashboard/'], [`${app.gatehouse.services.config.publicUrl}/dashboard/`]]);
    expect((await (await operatorClient(firstOperator)).delete(`/oauth-clients/${portal.body.id as string}`)).status).toBe(204);
  });

  it('cannot be deleted, even by its own app_admin', async () => {
    const operator = await operatorClient(firstOperator);
    const refused = await operator.delete(`/applications/${consoleId}`);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'appId' });
    expect(await app.sql('select 1 from application where id = ?', [consoleId])).toHaveLength(1);
  });

  it('keeps the service’s dashboard client: neither deleted nor changed (422, nothing changed), its operators’ own clients are theirs', async () => {
    const operator = await operatorClient(firstOperator);
    const dashboardUri = `${app.gatehouse.services.config.publicUrl}/dashboard/`;
    const [{ id: dashboard }] = (await app.sql<{ id: string }>(
      "select id from oauth_client where application_id = ? and name = 'Gatehouse dashboard' and redirect_uris = array[?]::text[]",
      [consoleId, dashboardUri],
    )) as [{ id: string }];
    const state = () => app.sql('select * from oauth_client where id = ?', [dashboard]);
    const records = async () => (await app.sql("select 1 from audit_log where application_id = ? and action like 'oauth_client.%'", [consoleId])).length;
    const [stateBefore, recordsBefore] = [await state(), await records()];

    const refusedDeletion = await operator.delete(`/oauth-clients/${dashboard}`);
    expect(refusedDeletion.status).toBe(422);
    expect(refusedDeletion.body).toMatchObject({ code: 'validation_error', field: 'clientId' });
    expect(refusedDeletion.body.message).toMatch(/dashboard client.*cannot be deleted/);
    const changes = {
      redirectUris: ['https://elsewhere.example/dashboard/'],
      postLogoutRedirectUris: [],
      managementApi: false,
      allowedOrigins: ['https://elsewhere.example'],
      name: 'Renamed',
    };
    for (const [field, value] of Object.entries(changes)) {
      const refused = await operator.patch(`/oauth-clients/${dashboard}`, { [field]: value });
      expect(refused.status, field).toBe(422);
      expect(refused.body, field).toMatchObject({ code: 'validation_error', field });
      expect(refused.body.message).toContain(`its ${field} cannot change`);
    }
    const refusedGraphql = await operator.graphql('mutation ($id: UUID!) { deleteOAuthClient(clientId: $id) }', { id: dashboard });
    expect(refusedGraphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'clientId', status: 422 });
    // A request that changes nothing is no change.
    const unchanged = await operator.patch(`/oauth-clients/${dashboard}`, { name: 'Gatehouse dashboard', managementApi: true });
    expect(unchanged.status, JSON.stringify(unchanged.body)).toBe(200);
    expect(await state()).toEqual(stateBefore);
    expect(await records()).toBe(recordsBefore + 1);

    // A later client of the same shape (the test's http address is no redirect URI the API takes) is not the one the
    // dashboard signs in with: changed and deleted as any.
    const twin = newId();
    await app.sql(
      `insert into oauth_client select (jsonb_populate_record(null::oauth_client, to_jsonb(c) || jsonb_build_object('id', ?::uuid))).* from oauth_client as c where c.id = ?`,
      [twin, dashboard],
    );
    expect((await operator.patch(`/oauth-clients/${twin}`, { name: 'Ours' })).status).toBe(200);
    expect((await operator.delete(`/oauth-clients/${twin}`)).status).toBe(204);
    const other = await operator.post('/oauth-clients', { name: 'Other', type: 'spa', redirectUris: ['https://other.example/cb'] });
    expect((await operator.delete(`/oauth-clients/${other.body.id as string}`)).status).toBe(204);
    expect(await state()).toEqual(stateBefore);
  });

  it('keeps an enabled sign-in provider: its last is neither disabled nor deleted (409), an m2m one does not count, another way in frees it', async () => {
    const operator = await operatorClient(firstOperator);
    const [password] = (await operator.get('/auth-providers')).body.data as { id: string; type: string }[];
    expect(password).toMatchObject({ type: 'password' });
    const state = () => app.sql<{ type: string; enabled: boolean }>('select type, enabled from auth_provider where application_id = ? order by id', [consoleId]);
    const records = async () => (await app.sql("select 1 from audit_log where application_id = ? and action like 'auth_provider.%'", [consoleId])).length;
    const audited = await records();
    const refusedBoth = async (field: 'enabled' | 'providerId', change: () => Promise<{ status: number; body: any }>) => {
      const refused = await change();
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'last_sign_in_provider', field });
    };
    await refusedBoth('enabled', () => operator.patch(`/auth-providers/${password!.id}`, { enabled: false }));
    await refusedBoth('providerId', () => operator.delete(`/auth-providers/${password!.id}`));
    const m2m = (await operator.post('/auth-providers', { type: 'm2m' })).body.id as string;
    await refusedBoth('enabled', () => operator.patch(`/auth-providers/${password!.id}`, { enabled: false }));
    expect(await state()).toEqual([{ type: 'password', enabled: true }, { type: 'm2m', enabled: true }]);
    expect(await records()).toBe(audited + 1);

    const magicLink = (await operator.post('/auth-providers', { type: 'magic_link' })).body.id as string;
    expect((await operator.patch(`/auth-providers/${password!.id}`, { enabled: false })).status).toBe(200);
    await refusedBoth('enabled', () => operator.patch(`/auth-providers/${magicLink}`, { enabled: false }));
    await refusedBoth('providerId', () => operator.delete(`/auth-providers/${magicLink}`));
    // Other changes of a disabled provider are not refused.
    expect((await operator.patch(`/auth-providers/${password!.id}`, { name: 'Passwords' })).status).toBe(200);
    expect((await operator.patch(`/auth-providers/${password!.id}`, { enabled: true })).status).toBe(200);
    expect((await operator.delete(`/auth-providers/${magicLink}`)).status).toBe(204);
    expect((await operator.delete(`/auth-providers/${m2m}`)).status).toBe(204);
    expect(await state()).toEqual([{ type: 'password', enabled: true }]);
  });
});

describe('the first operator', () => {
  it('is app_admin of the console and, as an operator, of the organization’s first application', async () => {
    const held = await app.sql<{ application_id: string; subject_type: string; key: string }>(
      `select a.application_id, a.subject_type, r.key from role_assignment as a join role as r on r.application_id = a.application_id and r.id = a.role_id
        where a.subject_id = ? order by a.subject_type`,
      [firstOperator],
    );
    expect(held).toEqual([
      { application_id: app.root.applicationId, subject_type: 'operator', key: 'app_admin' },
      { application_id: consoleId, subject_type: 'user', key: 'app_admin' },
    ]);
  });

  it('lists the applications they manage, and manages one with X-Gatehouse-Application', async () => {
    const listed = await get(await operatorClient(firstOperator), '/managed-applications');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    // app_admin of both: every permission of the management API, spelled out, in the application and in the console.
    expect(listed.body).toEqual({ data: [{ id: app.root.applicationId, name: 'My application', multiTenant: true, permissions: ALL_PERMISSIONS, tenants: null }], next: null, consolePermissions: ALL_PERMISSIONS });

    const operator = await operatorClient(firstOperator, app.root.applicationId);
    const created = await post(operator, `/applications/${app.root.applicationId}/tenants`, { name: 'Made by an operator' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const audit = await app.http.get('/audit-logs?action=tenant.created&pageSize=100');
    expect(audit.status, JSON.stringify(audit.body)).toBe(200);
    const record = (audit.body.data as { target: { id: string }; actor: unknown }[]).find((entry) => entry.target.id === created.body.id);
    expect(record?.actor).toMatchObject({ type: 'operator', id: firstOperator });
  });

  it('manages, as its operator app_admin, an application they create through the console; a key’s creation makes no operator', async () => {
    const created = await (await operatorClient(firstOperator)).post('/applications', { name: 'Made on the dashboard' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const listed = await get(await operatorClient(firstOperator), '/managed-applications');
    expect(listed.body.data).toContainEqual({ id: created.body.id, name: 'Made on the dashboard', multiTenant: false, permissions: ALL_PERMISSIONS, tenants: null });
    const byKey = await app.http.post('/applications', { name: 'Made by a key' });
    expect(byKey.status, JSON.stringify(byKey.body)).toBe(201);
    expect(await app.sql('select 1 from role_assignment where application_id = ? and subject_type = ?', [byKey.body.id, 'operator'])).toEqual([]);
    // Gone again: the tests below count the applications this operator is the last admin of.
    const operator = await operatorClient(firstOperator, created.body.id);
    expect((await operator.delete(`/applications/${created.body.id}`, { headers: operator.headers })).status).toBe(204);
  });
});

describe('an operator of one tenant', () => {
  let second: string;
  beforeAll(async () => {
    // Operators are the console's users: an operator made by the first one, through the console itself.
    const made = await (await operatorClient(firstOperator)).post('/users', { email: 'tenant-ops@ops.example' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    second = made.body.id;
    const roles = (await app.http.get('/roles')).body.data as { id: string; key: string }[];
    const tenantAdmin = roles.find((role) => role.key === 'tenant_admin')!.id;
    const assigned = await app.http.post(`/applications/${app.root.applicationId}/tenants/${tenantT}/role-assignments`, { subject: { type: 'operator', id: second }, roleId: tenantAdmin });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
  });

  it('manages that tenant and nothing else', async () => {
    const operator = await operatorClient(second, app.root.applicationId);
    expect((await get(operator, `/applications/${app.root.applicationId}/tenants/${tenantT}/users`)).status).toBe(200);
    expect((await get(operator, `/applications/${app.root.applicationId}/tenants/${tenantU}/users`)).status).toBe(403);
    const refused = await post(operator, `/applications/${app.root.applicationId}/tenants`, { name: 'Not theirs to make' });
    expect(refused.status).toBe(403);
    expect((await app.http.get(`/applications/${app.root.applicationId}/tenants?pageSize=100`)).body.data.map((t: { name: string }) => t.name)).not.toContain('Not theirs to make');
  });

  it('is listed the application with the tenants in which they hold roles, each once', async () => {
    const member = ((await app.http.get('/roles')).body.data as { id: string; key: string }[]).find((role) => role.key === 'member')!.id;
    expect((await app.http.post(`/applications/${app.root.applicationId}/tenants/${tenantT}/role-assignments`, { subject: { type: 'operator', id: second }, roleId: member })).status).toBe(201);
    const listed = await get(await operatorClient(second), '/managed-applications');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const [{ name }] = (await app.sql<{ name: string }>('select name from tenant where id = ?', [tenantT])) as [{ name: string }];
    // Tenant admin and Member there, nothing application-wide, and no role in the console.
    const tenantAdmin = ALL_PERMISSIONS.filter((permission) => BUILT_IN_ROLES.tenant_admin.permissions.some((held) => held === permission));
    expect(listed.body).toEqual({
      data: [{ id: app.root.applicationId, name: 'My application', multiTenant: true, permissions: [], tenants: [{ id: tenantT, name, permissions: tenantAdmin }] }],
      next: null,
      consolePermissions: [],
    });
  });

  it('is listed, holding only Member application-wide, the application without a permission there', async () => {
    const made = await (await operatorClient(firstOperator)).post('/users', { email: 'member-ops@ops.example' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const member = ((await app.http.get('/roles')).body.data as { id: string; key: string }[]).find((role) => role.key === 'member')!.id;
    expect((await app.http.post('/role-assignments', { subject: { type: 'operator', id: made.body.id }, roleId: member })).status).toBe(201);
    const listed = await get(await operatorClient(made.body.id), '/managed-applications');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body).toEqual({ data: [{ id: app.root.applicationId, name: 'My application', multiTenant: true, permissions: [], tenants: null }], next: null, consolePermissions: [] });
  });

  it('holds nothing of the console’s roles in the application they manage', async () => {
    // The first operator is app_admin of the console; an application they hold no role in is not theirs.
    const other = await app.http.post('/applications', { name: 'Unassigned' });
    expect(other.status).toBe(201);
    const operator = await operatorClient(firstOperator, other.body.id);
    expect((await get(operator, '/users')).status).toBe(403);
    const listed = await get(await operatorClient(firstOperator), '/managed-applications');
    expect(listed.body.data.map((application: { id: string }) => application.id)).not.toContain(other.body.id);
  });

  it('stops at once when suspended in the console', async () => {
    const third = (await (await operatorClient(firstOperator)).post('/users', { email: 'suspended-ops@ops.example' })).body.id as string;
    await app.http.post(`/applications/${app.root.applicationId}/role-assignments`, {
      subject: { type: 'operator', id: third },
      roleId: ((await app.http.get('/roles')).body.data as { id: string; key: string }[]).find((role) => role.key === 'app_admin')!.id,
    });
    const operator = await operatorClient(third, app.root.applicationId);
    expect((await get(operator, '/users')).status).toBe(200);
    expect((await (await operatorClient(firstOperator)).post(`/users/${third}/suspend`)).status).toBe(200);
    expect((await get(operator, '/users')).status).toBe(401);
  });
});

describe('an operator deleted from the console', () => {
  it('loses their roles in the applications they managed, each removal in that application’s log', async () => {
    const first = await operatorClient(firstOperator);
    const gone = (await first.post('/users', { email: 'leaving-ops@ops.example' })).body.id as string;
    const roles = (await app.http.get('/roles')).body.data as { id: string; key: string }[];
    const tenantAdmin = roles.find((role) => role.key === 'tenant_admin')!.id;
    const assigned = await app.http.post(`/applications/${app.root.applicationId}/tenants/${tenantU}/role-assignments`, { subject: { type: 'operator', id: gone }, roleId: tenantAdmin });
    expect(assigned.status).toBe(201);
    expect((await first.delete(`/users/${gone}`)).status).toBe(204);
    expect(await app.sql('select 1 from role_assignment where subject_id = ?', [gone])).toHaveLength(0);
    const audit = await app.http.get('/audit-logs?action=role_assignment.deleted&pageSize=100');
    expect((audit.body.data as { target: { id: string } }[]).map((entry) => entry.target.id)).toContain(assigned.body.id);
  });
});

describe('refusals', () => {
  it('refuses X-Gatehouse-Application outside the console’s organization, on the console itself, and malformed', async () => {
    const foreign = await app.bootstrapAnother();
    for (const target of [foreign.applicationId, consoleId, 'not-a-uuid']) {
      const operator = await operatorClient(firstOperator, target);
      const refused = await get(operator, '/users');
      expect(refused.status, target).toBe(403);
      expect(refused.body.code).toBe('forbidden');
    }
  });

  it('reads X-Gatehouse-Application in capitals as the same application: its paths answer, and a removed role stops at once', async () => {
    const operator = (await (await operatorClient(firstOperator)).post('/users', { email: 'capitals-ops@ops.example' })).body.id as string;
    const tenantAdmin = ((await app.http.get('/roles')).body.data as { id: string; key: string }[]).find((role) => role.key === 'tenant_admin')!.id;
    const assigned = await app.http.post('/role-assignments', { subject: { type: 'operator', id: operator }, roleId: tenantAdmin });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
    const client = await operatorClient(operator);
    const headers = { 'x-gatehouse-application': app.root.applicationId.toUpperCase() };
    // The application's path, and the header's alone, whose roles are remembered under the application's id.
    for (const path of [`/applications/${app.root.applicationId}/roles`, '/roles']) {
      const read = await client.get(path, { headers });
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      expect((read.body.data as { key: string }[]).map((role) => role.key)).toContain('tenant_admin');
    }
    expect((await app.http.delete(`/role-assignments/${assigned.body.id as string}`)).status).toBe(204);
    for (const path of [`/applications/${app.root.applicationId}/roles`, '/roles']) {
      const refused = await client.get(path, { headers });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('forbidden');
    }
  });

  it('refuses X-Gatehouse-Application beside an API key, and for a token of an application that is no console', async () => {
    const withKey = await app.http.get('/users', { headers: { 'x-gatehouse-application': app.root.applicationId } });
    expect(withKey.status).toBe(403);
    const sibling = await app.http.post('/applications', { name: 'Sibling' });
    const user = await app.createUser('not-an-operator@example.com');
    const bearer = await app.mintAccessToken({ sub: user, app_id: app.root.applicationId });
    const refused = await app.as({ bearer }).get('/users', { headers: { 'x-gatehouse-application': sibling.body.id } });
    expect(refused.status).toBe(403);
  });

  it('assigns the operator subject only to a user of the organization’s console', async () => {
    const roles = (await app.http.get('/roles')).body.data as { id: string; key: string }[];
    const member = roles.find((role) => role.key === 'member')!.id;
    const endUser = await app.createUser('end-user@example.com');
    for (const id of [endUser, newId()]) {
      const refused = await app.http.post('/role-assignments', { subject: { type: 'operator', id }, roleId: member });
      expect(refused.status).toBe(404);
      expect(refused.body).toMatchObject({ code: 'not_found', field: 'subject.id' });
    }
    expect(await app.sql(`select 1 from role_assignment where subject_type = 'operator' and subject_id = ?`, [endUser])).toHaveLength(0);
  });

  it('lists no managed application to an API key or a user of another application', async () => {
    const keys = await app.http.get('/managed-applications');
    expect(keys.status).toBe(200);
    expect(keys.body).toEqual({ data: [], next: null, consolePermissions: [] });
    const user = await app.createUser('plain-user@example.com');
    const bearer = await app.mintAccessToken({ sub: user, app_id: app.root.applicationId });
    const listed = await app.as({ bearer }).get('/managed-applications');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ data: [], next: null, consolePermissions: [] });
  });
});

describe('the application’s last Application admin operator', () => {
  const appAdminAssignments = async () => {
    const appAdmin = ((await app.http.get('/roles')).body.data as { id: string; key: string }[]).find((role) => role.key === 'app_admin')!.id;
    const listed = await app.http.get(`/role-assignments?subjectType=operator&roleId=${appAdmin}&pageSize=100`);
    return { appAdmin, assignments: (listed.body.data as { id: string; tenantId: string | null; subject: { id: string } }[]).filter((a) => a.tenantId === null) };
  };

  it('is kept: its removal is refused 422 naming the assignment, and nothing changes', async () => {
    const { assignments } = await appAdminAssignments();
    const kept = assignments.find((assignment) => assignment.subject.id === firstOperator)!;
    for (const other of assignments.filter((assignment) => assignment !== kept)) expect((await app.http.delete(`/role-assignments/${other.id}`)).status).toBe(204);

    const refused = await app.http.delete(`/role-assignments/${kept.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'assignmentId' });
    expect(await app.sql('select 1 from role_assignment where id = ?', [kept.id])).toHaveLength(1);
    const audit = await app.http.get('/audit-logs?action=role_assignment.deleted&pageSize=100');
    expect((audit.body.data as { target: { id: string } }[]).map((entry) => entry.target.id)).not.toContain(kept.id);
  });

  it('may go once another operator is Application admin application-wide, and of two removed at once one stays', async () => {
    const { appAdmin, assignments: [first] } = await appAdminAssignments();
    const other = (await (await operatorClient(firstOperator)).post('/users', { email: 'successor-ops@ops.example' })).body.id as string;
    const tenantWide = await app.http.post(`/applications/${app.root.applicationId}/tenants/${tenantT}/role-assignments`, { subject: { type: 'operator', id: other }, roleId: appAdmin });
    expect(tenantWide.status).toBe(201);
    const second = await app.http.post('/role-assignments', { subject: { type: 'operator', id: other }, roleId: appAdmin });
    expect(second.status).toBe(201);

    const removals = await Promise.all([first!.id, second.body.id as string].map((id) => app.http.delete(`/role-assignments/${id}`)));
    expect(removals.map((removal) => removal.status).sort()).toEqual([204, 422]);
    expect((await appAdminAssignments()).assignments).toHaveLength(1);
  });
});

describe('an application’s last Application admin operator who can act, as a console user', () => {
  interface Managed {
    readonly id: string;
    readonly name: string;
    /** A credential of the application holding `*`. */
    readonly manager: HttpClient;
    readonly appAdmin: string;
  }
  let consoleAdmin: HttpClient & { headers: Record<string, string> };
  let keptA: Managed;
  let keptB: Managed;
  /** Application admin of both, alone at first. */
  let lone: string;

  const newApplication = async (name: string): Promise<Managed> => {
    const created = await app.http.post('/applications', { name });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const manager = app.as({ bearer: await app.mintAccessToken({ app_id: created.body.id, permissions: ['*'] }) });
    const appAdmin = ((await manager.get('/roles')).body.data as { id: string; key: string }[]).find((role) => role.key === 'app_admin')!.id;
    return { id: created.body.id, name, manager, appAdmin };
  };
  const newOperator = async (email: string): Promise<string> => {
    const made = await consoleAdmin.post('/users', { email });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body.id;
  };
  const makeAdmin = async (application: Managed, operatorId: string): Promise<string> => {
    const assigned = await application.manager.post('/role-assignments', { subject: { type: 'operator', id: operatorId }, roleId: application.appAdmin });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
    return assigned.body.id;
  };
  const assignmentsOf = (operatorId: string) =>
    app.sql<{ application_id: string; id: string }>(`select application_id, id from role_assignment where subject_type = 'operator' and subject_id = ? order by application_id, id`, [operatorId]);
  const statusOf = async (userId: string) => (await app.sql<{ status: string }>('select status from app_user where application_id = ? and id = ?', [consoleId, userId]))[0]?.status;
  /** The application-wide `app_admin` operators of `application` whose console user is not suspended. */
  const actingAdmins = async (application: Managed) =>
    (
      await app.sql<{ subject_id: string }>(
        `select a.subject_id from role_assignment as a join app_user as u on u.application_id = ? and u.id = a.subject_id
          where a.application_id = ? and a.role_id = ? and a.tenant_id is null and a.subject_type = 'operator' and u.status <> 'suspended'`,
        [consoleId, application.id, application.appAdmin],
      )
    ).map((row) => row.subject_id);
  const auditedTargets = async (action: string) =>
    ((await consoleAdmin.get(`/audit-logs?action=${action}&pageSize=100`)).body.data as { target: { id: string } }[]).map((entry) => entry.target.id);

  beforeAll(async () => {
    consoleAdmin = await operatorClient(firstOperator);
    keptA = await newApplication('Kept A');
    keptB = await newApplication('Kept B');
    lone = await newOperator('lone-admin@ops.example');
    await makeAdmin(keptA, lone);
    await makeAdmin(keptB, lone);
  });

  it('is not deleted: 422 naming each application left without one, and the user keeps their account and roles', async () => {
    const before = await assignmentsOf(lone);
    const refused = await consoleAdmin.delete(`/users/${lone}`);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'validation_error',
      field: 'userId',
      details: [
        { applicationId: keptA.id, name: 'Kept A' },
        { applicationId: keptB.id, name: 'Kept B' },
      ],
    });
    expect(refused.body.message).toContain(`2 applications: Kept A (${keptA.id}), Kept B (${keptB.id})`);
    expect(await statusOf(lone)).toBe('active');
    expect(await assignmentsOf(lone)).toEqual(before);
    expect(await auditedTargets('user.deleted')).not.toContain(lone);
  });

  it('is not deleted through GraphQL either', async () => {
    const answer = await consoleAdmin.graphql('mutation($appId: UUID!, $userId: UUID!) { deleteUser(appId: $appId, userId: $userId) }', { appId: consoleId, userId: lone });
    expect(answer.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', status: 422, field: 'userId', details: [{ applicationId: keptA.id }, { applicationId: keptB.id }] });
    expect(await statusOf(lone)).toBe('active');
    expect(await assignmentsOf(lone)).toHaveLength(2);
  });

  it('is not suspended: 422 naming only the applications left without one, and nothing changes', async () => {
    const heir = await newOperator('heir-admin@ops.example');
    await makeAdmin(keptA, heir);
    const refused = await consoleAdmin.post(`/users/${lone}/suspend`);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'userId', details: [{ applicationId: keptB.id, name: 'Kept B' }] });
    expect(refused.body.message).toContain(`application Kept B (${keptB.id})`);
    expect(refused.body.message).not.toContain('Kept A');
    expect(await statusOf(lone)).toBe('active');
    expect(await assignmentsOf(lone)).toHaveLength(2);
    expect(await auditedTargets('user.suspended')).not.toContain(lone);
    // The operator still acts.
    expect((await get(await operatorClient(lone, keptB.id), '/users')).status).toBe(200);
  });

  describe('once another operator is Application admin wherever they are', () => {
    let heir: string;
    let heirInA: string;
    beforeAll(async () => {
      heir = (await app.sql<{ id: string }>('select id from app_user where application_id = ? and email = ?', [consoleId, 'heir-admin@ops.example']))[0]!.id;
      heirInA = (await assignmentsOf(heir)).find((row) => row.application_id === keptA.id)!.id;
      await makeAdmin(keptB, heir);
    });

    it('is suspended', async () => {
      const suspended = await consoleAdmin.post(`/users/${lone}/suspend`);
      expect(suspended.status, JSON.stringify(suspended.body)).toBe(200);
      expect(suspended.body.status).toBe('suspended');
      expect(await actingAdmins(keptA)).toEqual([heir]);
    });

    it('then counts for no one: the other, who alone can act, keeps their role, account and status', async () => {
      const removal = await keptA.manager.delete(`/role-assignments/${heirInA}`);
      expect(removal.status).toBe(422);
      expect(removal.body).toMatchObject({ code: 'validation_error', field: 'assignmentId' });
      expect(removal.body.message).toContain('last Application admin');
      const suspension = await consoleAdmin.post(`/users/${heir}/suspend`);
      expect(suspension.status).toBe(422);
      expect(suspension.body).toMatchObject({ field: 'userId', details: [{ applicationId: keptA.id }, { applicationId: keptB.id }] });
      expect((await consoleAdmin.delete(`/users/${heir}`)).status).toBe(422);
      expect(await statusOf(heir)).toBe('active');
      expect((await assignmentsOf(heir)).map((row) => row.id)).toContain(heirInA);
      expect(await actingAdmins(keptA)).toEqual([heir]);
      expect(await actingAdmins(keptB)).toEqual([heir]);
    });

    it('is deleted while suspended, and their roles go', async () => {
      expect((await consoleAdmin.delete(`/users/${lone}`)).status).toBe(204);
      expect(await statusOf(lone)).toBeUndefined();
      expect(await assignmentsOf(lone)).toEqual([]);
    });

    it('counts a locked operator, whose lockout ends or is lifted', async () => {
      const locked = await newOperator('locked-admin@ops.example');
      await makeAdmin(keptA, locked);
      await makeAdmin(keptB, locked);
      // As the lockout policy leaves a console user after failed sign-ins.
      await app.sql(`update app_user set status = 'locked', locked_until = null where application_id = ? and id = ?`, [consoleId, locked]);
      const suspended = await consoleAdmin.post(`/users/${heir}/suspend`);
      expect(suspended.status, JSON.stringify(suspended.body)).toBe(200);
      expect(await actingAdmins(keptA)).toEqual([locked]);
    });
  });

  it('of a suspension and a removal at once, each leaving the other admin, only one passes', async () => {
    const application = await newApplication('Raced by a suspension');
    const first = await newOperator('raced-suspended@ops.example');
    const second = await newOperator('raced-removed@ops.example');
    await makeAdmin(application, first);
    const removed = await makeAdmin(application, second);
    const outcomes = await Promise.all([consoleAdmin.post(`/users/${first}/suspend`), application.manager.delete(`/role-assignments/${removed}`)]);
    expect(outcomes.map((outcome) => outcome.status).filter((status) => status === 422)).toHaveLength(1);
    expect(outcomes.map((outcome) => outcome.status).filter((status) => status === 200 || status === 204)).toHaveLength(1);
    expect(await actingAdmins(application)).toHaveLength(1);
  });

  it('of a deletion and a removal at once, each leaving the other admin, only one passes', async () => {
    const application = await newApplication('Raced by a deletion');
    const first = await newOperator('raced-deleted@ops.example');
    const second = await newOperator('raced-remover@ops.example');
    await makeAdmin(application, first);
    const removed = await makeAdmin(application, second);
    const outcomes = await Promise.all([consoleAdmin.delete(`/users/${first}`), application.manager.delete(`/role-assignments/${removed}`)]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([204, 422]);
    expect(await actingAdmins(application)).toHaveLength(1);
  });
});

describe('the console’s last Application admin who can act', () => {
  // The console's own admins make the operators and write the organization: without one who can act, nobody could.
  it('is kept, whoever asks: removing the assignment, suspending or deleting the console user is 422 and nothing changes', async () => {
    const other = await app.bootstrapAnother();
    await ensure();
    const [{ id: otherConsole }] = (await app.sql<{ id: string }>('select id from application where organization_id = ? and console', [other.organizationId])) as [{ id: string }];
    const consoleKey = await issueTestKey(app, { applicationId: otherConsole });
    const appAdmin = ((await consoleKey.get('/roles')).body.data as { id: string; key: string }[]).find((role) => role.key === 'app_admin')!.id;
    const newOwner = async (email: string) => {
      const user = (await consoleKey.post('/users', { email })).body.id as string;
      const assigned = await consoleKey.post('/role-assignments', { subject: { type: 'user', id: user }, roleId: appAdmin });
      expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
      return { user, assignment: assigned.body.id as string };
    };
    const owner = await newOwner('owner@other-ops.example');
    const own = app.as({ bearer: await app.mintAccessToken({ sub: owner.user, app_id: otherConsole }) });
    for (const client of [own, consoleKey]) {
      const removal = await client.delete(`/role-assignments/${owner.assignment}`);
      expect(removal.status).toBe(422);
      expect(removal.body).toMatchObject({ code: 'validation_error', field: 'assignmentId' });
      const suspension = await client.post(`/users/${owner.user}/suspend`);
      expect(suspension.status).toBe(422);
      expect(suspension.body).toMatchObject({ code: 'validation_error', field: 'userId', details: [{ applicationId: otherConsole }] });
      expect((await client.delete(`/users/${owner.user}`)).status).toBe(422);
    }
    expect(await app.sql('select status from app_user where application_id = ? and id = ?', [otherConsole, owner.user])).toEqual([{ status: 'active' }]);
    expect(await app.sql('select 1 from role_assignment where application_id = ? and id = ?', [otherConsole, owner.assignment])).toHaveLength(1);

    // With another who can act, one may go; a suspended one counts for no one.
    const heir = await newOwner('heir@other-ops.example');
    expect((await consoleKey.post(`/users/${owner.user}/suspend`)).status).toBe(200);
    expect((await consoleKey.delete(`/role-assignments/${heir.assignment}`)).status).toBe(422);
    expect((await consoleKey.delete(`/role-assignments/${owner.assignment}`)).status).toBe(204);
    expect((await consoleKey.delete(`/users/${owner.user}`)).status).toBe(204);
    expect((await consoleKey.delete(`/users/${heir.user}`)).status).toBe(422);
  });
});

describe('a way into the operators’ accounts', () => {
  // Its users' tokens act as operators wherever they are: a client of one's own would collect them through a silent sign-in.
  it('is made or changed only by a caller holding, as an operator, all that every operator holds, as is where their mail goes', async () => {
    const other = await app.bootstrapAnother();
    await ensureOrganizationConsole(app.gatehouse.services.orm, app.gatehouse.services.config.publicUrl, randomUUID(), other.organizationId);
    const [{ id: otherConsole }] = (await app.sql<{ id: string }>('select id from application where organization_id = ? and console', [other.organizationId])) as [{ id: string }];
    const [{ id: owner }] = (await app.sql<{ id: string }>('select id from app_user where application_id = ?', [otherConsole])) as [{ id: string }];
    const ownerClient = app.as({ bearer: await app.mintAccessToken({ sub: owner, app_id: otherConsole }) });
    // An Application admin of the console who is no operator anywhere.
    const consoleOnly = (await ownerClient.post('/users', { email: 'console-only@ops.example' })).body.id as string;
    const appAdmin = ((await ownerClient.get('/roles')).body.data as { id: string; key: string }[]).find((role) => role.key === 'app_admin')!.id;
    expect((await ownerClient.post('/role-assignments', { subject: { type: 'user', id: consoleOnly }, roleId: appAdmin })).status).toBe(201);
    const consoleAdmin = app.as({ bearer: await app.mintAccessToken({ sub: consoleOnly, app_id: otherConsole }) });

    const clients = () => app.sql<{ id: string; redirect_uris: string[] }>('select id, redirect_uris from oauth_client where application_id = ? order by id', [otherConsole]);
    const before = await clients();
    const harvester = { name: 'Harvester', type: 'spa', redirectUris: ['https://harvest.example/cb'], managementApi: true };
    const refused = await consoleAdmin.post('/oauth-clients', harvester);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
    const redirected = await consoleAdmin.patch(`/oauth-clients/${before[0]!.id}`, { redirectUris: ['https://harvest.example/dashboard/'] });
    expect(redirected.status).toBe(403);
    expect(await clients()).toEqual(before);

    // Nor may they read the operators' reset mail: the console's reset template and e-mail provider stay.
    const settingsBefore = await app.sql('select feature, key from setting where application_id = ? order by feature, key', [otherConsole]);
    const template = await consoleAdmin.put('/email/templates/password_reset', { subject: 'Reset', html: '<p>{{ link }}</p>', text: '{{ link }}' });
    expect(template.status).toBe(403);
    const provider = await consoleAdmin.put('/email/provider', { type: 'sendgrid', fromAddress: 'no-reply@harvest.example', secrets: { apiKey: 'SG.harvest' } });
    expect(provider.status).toBe(403);
    const settings = () => app.sql('select feature, key from setting where application_id = ? order by feature, key', [otherConsole]);
    expect(await settings()).toEqual(settingsBefore);

    // The organization's owner, its application's operator Application admin, may.
    const made = await ownerClient.post('/oauth-clients', harvester);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await ownerClient.put('/email/templates/password_reset', { subject: 'Reset', html: '<p>{{ link }}</p>', text: '{{ link }}' })).status).toBe(200);
  });
});

describe('an application’s deletion', () => {
  it('keeps the record of an application’s deletion, whose own log no credential can read any more', async () => {
    const created = await app.http.post('/applications', { name: 'Deleted later' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const own = app.as({ apiKey: created.body.initialApiKey.secret as string });
    expect((await own.delete(`/applications/${created.body.id as string}`)).status).toBe(204);
    const operator = await operatorClient(firstOperator);
    const records = (await operator.get(`/audit-logs?action=application.deleted&target=${created.body.id as string}`)).body.data as unknown[];
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ target: { id: created.body.id }, changes: { before: { name: 'Deleted later' } } });
    // Another organization's console does not see it.
    const other = await app.bootstrapAnother();
    expect((await app.as({ apiKey: other.apiKey }).get(`/audit-logs?action=application.deleted&target=${created.body.id as string}`)).body.data).toEqual([]);
  });
});

describe('operators’ e-mails in an application’s role assignments', () => {
  const query = `query ($appId: UUID!) { roleAssignments(appId: $appId, subjectType: operator, pageSize: 100) { data { subject { type id email } } } }`;
  let shared: string;
  let elsewhere: string;
  const ids: Record<'alice' | 'bob' | 'carol', string> = { alice: '', bob: '', carol: '' };

  /** The operators of `applicationId` as `operatorId` reads them there: id → e-mail, or the refusal's code. */
  async function operatorsSeenBy(operatorId: string, applicationId: string): Promise<Record<string, string | null> | string> {
    const client = await operatorClient(operatorId, applicationId);
    const answer = await client.graphql(query, { appId: applicationId }, { headers: client.headers });
    if (answer.body.errors !== undefined) return answer.body.errors[0]!.extensions.code as string;
    return Object.fromEntries((answer.body.data.roleAssignments.data as { subject: { id: string; email: string | null } }[]).map(({ subject }) => [subject.id, subject.email]));
  }

  async function roleOf(applicationId: string, key: string): Promise<string> {
    const roles = (await get(await operatorClient(firstOperator, applicationId), '/roles')).body.data as { id: string; key: string }[];
    return roles.find((role) => role.key === key)!.id;
  }

  async function makeOperator(name: keyof typeof ids, applicationId: string, roleId: string): Promise<void> {
    const made = await (await operatorClient(firstOperator)).post('/users', { email: `${name}@ops.example` });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    ids[name] = made.body.id as string;
    const assigned = await post(await operatorClient(firstOperator, applicationId), '/role-assignments', { subject: { type: 'operator', id: ids[name] }, roleId });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
  }

  beforeAll(async () => {
    // The first operator makes both, so is app_admin of each; alice is an app_admin of one, not of the console.
    shared = (await (await operatorClient(firstOperator)).post('/applications', { name: 'Shared by operators' })).body.id as string;
    elsewhere = (await (await operatorClient(firstOperator)).post('/applications', { name: 'Operated elsewhere' })).body.id as string;
    const reader = await post(await operatorClient(firstOperator, shared), '/roles', { key: 'assignment_reader', name: 'Assignment reader', permissions: ['role_assignments:read'] });
    expect(reader.status, JSON.stringify(reader.body)).toBe(201);
    await makeOperator('alice', shared, await roleOf(shared, 'app_admin'));
    await makeOperator('bob', shared, reader.body.id as string);
    await makeOperator('carol', elsewhere, await roleOf(elsewhere, 'app_admin'));
  });

  it('are shown to whoever may assign roles there (an application’s admin), for its own operators only', async () => {
    expect(await operatorsSeenBy(ids.alice, shared)).toEqual({ [firstOperator]: 'first@ops.example', [ids.alice]: 'alice@ops.example', [ids.bob]: 'bob@ops.example' });
    expect(await operatorsSeenBy(ids.carol, elsewhere)).toEqual({ [firstOperator]: 'first@ops.example', [ids.carol]: 'carol@ops.example' });
    // One assignment read or made by its id carries it too.
    const admin = await operatorClient(ids.alice, shared);
    const [assignment] = (await get(admin, `/role-assignments?subjectType=operator&subjectId=${ids.bob}`)).body.data as { id: string }[];
    const one = await admin.graphql('query ($appId: UUID!, $id: UUID!) { roleAssignment(appId: $appId, assignmentId: $id) { subject { email } } }', { appId: shared, id: assignment!.id }, { headers: admin.headers });
    expect(one.body).toEqual({ data: { roleAssignment: { subject: { email: 'bob@ops.example' } } } });
  });

  it('are not shown to a tenant’s credentials, which may give an operator a role in their tenant but manage no operators', async () => {
    const multi = (await (await operatorClient(firstOperator)).post('/applications', { name: 'Operated by tenants', multiTenant: true })).body.id as string;
    const admin = await operatorClient(firstOperator, multi);
    const tenant = await post(admin, `/applications/${multi}/tenants`, { name: 'Operated tenant', slug: 'operated' });
    expect(tenant.status, JSON.stringify(tenant.body)).toBe(201);
    const tenantKey = await issueTestKey(app, { applicationId: multi, tenantId: tenant.body.id as string, permissions: ['role_assignments:read', 'role_assignments:write'] });
    // Carol operates another application: nothing of the tenant's own names her, yet her id (an audit actor's, an
    // invitation's sender's elsewhere) is enough to make her a subject here.
    const made = await tenantKey.graphql('mutation ($input: CreateRoleAssignmentInput!) { createRoleAssignment(input: $input) { id subject { id email } } }', {
      input: { subject: { type: 'operator', id: ids.carol }, roleId: await roleOf(multi, 'member') },
    });
    expect(made.body.errors, JSON.stringify(made.body)).toBeUndefined();
    expect(made.body.data.createRoleAssignment.subject).toEqual({ id: ids.carol, email: null });
    const listed = await tenantKey.graphql('query { roleAssignments(subjectType: operator, pageSize: 100) { data { subject { id email } } } }');
    expect(listed.body.data.roleAssignments.data).toEqual([{ subject: { id: ids.carol, email: null } }]);
    const one = await tenantKey.graphql('query ($id: UUID!) { roleAssignment(assignmentId: $id) { subject { email } } }', { id: made.body.data.createRoleAssignment.id });
    expect(one.body).toEqual({ data: { roleAssignment: { subject: { email: null } } } });
    // The application's admin reads it, on the tenant's path too.
    const adminRead = await admin.graphql(
      'query ($appId: UUID!, $tenantId: UUID!) { roleAssignments(appId: $appId, tenantId: $tenantId, subjectType: operator) { data { subject { id email } } } }',
      { appId: multi, tenantId: tenant.body.id },
      { headers: admin.headers },
    );
    expect(adminRead.body.data.roleAssignments.data).toEqual([{ subject: { id: ids.carol, email: 'carol@ops.example' } }]);
  });

  it('are not shown to one who may only read the assignments, nor to anyone in another application', async () => {
    expect(await operatorsSeenBy(ids.bob, shared)).toEqual({ [firstOperator]: null, [ids.alice]: null, [ids.bob]: null });
    expect(await operatorsSeenBy(ids.alice, elsewhere)).toBe('forbidden');
    expect(await operatorsSeenBy(ids.carol, shared)).toBe('forbidden');
    // A key of the application that may only read them sees ids alone; users and keys have no e-mail here.
    const readKey = await issueTestKey(app, { applicationId: shared, permissions: ['role_assignments:read'] });
    const read = await readKey.graphql(query, { appId: shared });
    expect((read.body.data.roleAssignments.data as { subject: { email: string | null } }[]).map(({ subject }) => subject.email)).toEqual([null, null, null]);
  });
});
