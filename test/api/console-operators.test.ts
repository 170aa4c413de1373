import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password-hash.ts';
import { ensureConsoles } from '../../src/domain/console/console.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
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

const sql = <T>(query: string, params: unknown[] = []) => app.gatehouse.services.orm.em.getConnection().execute<T[]>(query, params);
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
  [{ id: consoleId }] = (await sql<{ id: string }>('select id from application where organization_id = ? and console', [app.root.organizationId])) as [{ id: string }];
  [{ id: firstOperator }] = (await sql<{ id: string }>('select id from app_user where application_id = ?', [consoleId])) as [{ id: string }];
  tenantT = await app.createTenant('Operators T');
  tenantU = await app.createTenant('Operators U');
});
afterAll(async () => app?.close());

describe('the console', () => {
  it('is made once per organization, signs in by password without sign-up, and has the dashboard client', async () => {
    await app.bootstrapAnother();
    expect(await ensure({ email: 'second@ops.example', password: 'another long passphrase' })).toBeNull();
    const consoles = await sql<{ organization_id: string }>('select organization_id from application where console');
    expect(new Set(consoles.map((row) => row.organization_id)).size).toBe(consoles.length);
    expect(consoles.map((row) => row.organization_id)).toContain(app.root.organizationId);
    const providers = await sql<{ type: string; config: Record<string, unknown> }>('select type, config from auth_provider where application_id = ?', [consoleId]);
    expect(providers).toEqual([{ type: 'password', config: { allowSignup: false, requireEmailVerification: true } }]);
    const clients = await sql<{ type: string; redirect_uris: string[]; management_api: boolean; auth_method: string }>(
      'select type, redirect_uris, management_api, auth_method from oauth_client where application_id = ?',
      [consoleId],
    );
    expect(clients).toEqual([{ type: 'spa', redirect_uris: [`${app.gatehouse.services.config.publicUrl}/dashboard/`], management_api: true, auth_method: 'none' }]);
  });

  it('gets a new dashboard client when PUBLIC_URL changes, and the old one goes', async () => {
    const redirects = async () =>
      (await sql<{ redirect_uris: string[] }>("select redirect_uris from oauth_client where application_id = ? and type = 'spa' order by id", [consoleId])).map((row) => row.redirect_uris);
    // A client of the console's own with the same shape but no management API access is not the dashboard's.
    const own = await (await operatorClient(firstOperator)).post('/oauth-clients', { name: 'Own', type: 'spa', redirectUris: ['https://own.example/dashboard/'] });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    await ensureConsoles(app.gatehouse.services.orm, 'https://moved.example', randomUUID());
    expect(await redirects()).toEqual([['https://own.example/dashboard/'], ['https://moved.example/dashboard/']]);
    await ensureConsoles(app.gatehouse.services.orm, app.gatehouse.services.config.publicUrl, randomUUID());
    expect(await redirects()).toEqual([['https://own.example/dashboard/'], [`${app.gatehouse.services.config.publicUrl}/dashboard/`]]);
  });

  it('cannot be deleted, even by its own app_admin', async () => {
    const operator = await operatorClient(firstOperator);
    const refused = await operator.delete(`/applications/${consoleId}`);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'appId' });
    expect(await sql('select 1 from application where id = ?', [consoleId])).toHaveLength(1);
  });
});

describe('the first operator', () => {
  it('is app_admin of the console and, as an operator, of the organization’s first application', async () => {
    const held = await sql<{ application_id: string; subject_type: string; key: string }>(
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
    expect(listed.body).toEqual({ data: [{ id: app.root.applicationId, name: 'My application', multiTenant: true }], next: null });

    const operator = await operatorClient(firstOperator, app.root.applicationId);
    const created = await post(operator, `/applications/${app.root.applicationId}/tenants`, { name: 'Made by an operator' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const audit = await app.http.get('/audit-logs?action=tenant.created&pageSize=100');
    expect(audit.status, JSON.stringify(audit.body)).toBe(200);
    const record = (audit.body.data as { target: { id: string }; actor: unknown }[]).find((entry) => entry.target.id === created.body.id);
    expect(record?.actor).toMatchObject({ type: 'operator', id: firstOperator });
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
    expect(await sql('select 1 from role_assignment where subject_id = ?', [gone])).toHaveLength(0);
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
    for (const id of [endUser, randomUUID()]) {
      const refused = await app.http.post('/role-assignments', { subject: { type: 'operator', id }, roleId: member });
      expect(refused.status).toBe(404);
      expect(refused.body).toMatchObject({ code: 'not_found', field: 'subject.id' });
    }
    expect(await sql(`select 1 from role_assignment where subject_type = 'operator' and subject_id = ?`, [endUser])).toHaveLength(0);
  });

  it('lists no managed application to an API key or a user of another application', async () => {
    const keys = await app.http.get('/managed-applications');
    expect(keys.status).toBe(200);
    expect(keys.body).toEqual({ data: [], next: null });
    const user = await app.createUser('plain-user@example.com');
    const bearer = await app.mintAccessToken({ sub: user, app_id: app.root.applicationId });
    const listed = await app.as({ bearer }).get('/managed-applications');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ data: [], next: null });
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
    expect(await sql('select 1 from role_assignment where id = ?', [kept.id])).toHaveLength(1);
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
