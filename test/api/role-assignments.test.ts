import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password-hash.ts';
import { ensureConsoles } from '../../src/domain/console/console.ts';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { auditRecordsOf, traced } from '../support/audit.ts';
import { issueTestKey } from '../support/keys.ts';
import { createUserThrough } from '../support/users.ts';

/** Role assignments: who (a user, M2M credential or API key) holds which role, in one tenant or in every tenant. */
let app: TestApp;
let appPath: string;
let tenantA: string;
let tenantB: string;
let pathA: string;
let pathB: string;
/** Role ids by key. */
const roles: Record<string, string> = {};

const createUser = (path: string) => createUserThrough(app.http, { email: `u-${crypto.randomUUID()}@example.com` }, `${path}/users`);

async function assign(path: string, subject: { type: string; id: string }, roleId: string): Promise<{ id: string; tenantId: string | null }> {
  const created = await app.http.post(`${path}/role-assignments`, { subject, roleId });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

const user = (id: string) => ({ type: 'user', id });

beforeAll(async () => {
  ({ app, appPath, tenants: [tenantA, tenantB] } = await startTestAppWithTenants(['Tenant A', 'Tenant B']));
  pathA = `${appPath}/tenants/${tenantA}`;
  pathB = `${appPath}/tenants/${tenantB}`;
  for (const role of (await app.http.get('/roles')).body.data) roles[role.key] = role.id;
  roles['a_clerk'] = (await app.http.post(`${pathA}/roles`, { key: 'a_clerk', name: 'Clerk of A', permissions: ['users:read'] })).body.id;
});
afterAll(async () => app?.close());

describe('role assignments', () => {
  it('assigns a role application-wide or in the path’s tenant, with its audit record, and reads it back', async () => {
    const userId = await createUser(pathA);
    const { requestId, headers } = traced();
    const created = await app.http.post('/role-assignments', { subject: user(userId), roleId: roles['member'] }, { headers });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), applicationId: app.root.applicationId, subject: user(userId), roleId: roles['member'], tenantId: null, createdAt: expect.any(String) });
    expect((await auditRecordsOf(app, requestId))[0]).toMatchObject({
      action: 'role_assignment.created',
      targetType: 'role_assignment',
      targetId: created.body.id,
      tenantId: null,
      after: { roleId: roles['member'], subjectType: 'user', subjectId: userId, tenantId: null },
    });
    expect((await app.http.get(`/role-assignments/${created.body.id}`)).body).toEqual(created.body);

    const inA = await assign(pathA, user(userId), roles['a_clerk']!);
    expect(inA.tenantId).toBe(tenantA);
    // The same role in another place is another assignment; in the same place, a duplicate.
    expect((await assign(pathA, user(userId), roles['member']!)).tenantId).toBe(tenantA);
    for (const [path, roleId] of [[appPath, roles['member']], [pathA, roles['a_clerk']]] as const) {
      const duplicate = await app.http.post(`${path}/role-assignments`, { subject: user(userId), roleId });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.code).toBe('already_exists');
    }
  });

  it('takes the tenant from the path or credentials, else the body’s, as other areas do', async () => {
    const userId = await createUser(pathA);
    const inBody = await app.http.post('/role-assignments', { subject: user(userId), roleId: roles['a_clerk'], tenantId: tenantA });
    expect(inBody.status, JSON.stringify(inBody.body)).toBe(201);
    expect(inBody.body.tenantId).toBe(tenantA);
    const notMember = await app.http.post('/role-assignments', { subject: user(userId), roleId: roles['member'], tenantId: tenantB });
    expect(notMember.body).toMatchObject({ code: 'not_found', field: 'subject.id' });
    const contradiction = await app.http.post(`${pathA}/role-assignments`, { subject: user(userId), roleId: roles['member'], tenantId: tenantB });
    expect(contradiction.body).toMatchObject({ code: 'validation_error', field: 'tenantId' });
    const unknown = await app.http.post('/role-assignments', { subject: user(userId), roleId: roles['member'], tenantId: '01890a5d-ac96-774b-bcce-b302099a8057' });
    expect(unknown.body).toMatchObject({ code: 'not_found', field: 'tenantId' });
    const tenantKey = await issueTestKey(app, { tenantId: tenantA });
    expect((await tenantKey.post('/role-assignments', { subject: user(userId), roleId: roles['member'], tenantId: tenantB })).status).toBe(403);
    const own = await tenantKey.post('/role-assignments', { subject: user(userId), roleId: roles['member'] });
    expect(own.body.tenantId).toBe(tenantA);
  });

  it('takes a subject only where it may act: 404 on subject.id otherwise', async () => {
    const inB = await createUser(pathB);
    const keyOfB = (await app.http.post(`${pathB}/api-keys`, { name: 'B key', permissions: ['users:read'] })).body.key.id;
    const appKey = (await app.http.post('/api-keys', { name: 'App key', permissions: ['users:read'] })).body.key.id;
    const revoked = (await app.http.post('/api-keys', { name: 'Revoked', permissions: ['users:read'] })).body.key.id;
    expect((await app.http.delete(`/api-keys/${revoked}`)).status).toBeLessThan(300);
    const credential = (await app.http.post(`${pathA}/m2m-credentials`, { name: 'A m2m', permissions: ['users:read'] })).body.id;
    const other = await app.bootstrapAnother();
    const foreignUser = (await app.as({ apiKey: other.apiKey }).post('/users', { email: 'foreign@example.com' })).body.id;
    for (const subject of [
      user(inB),
      user(foreignUser),
      user('01890a5d-ac96-774b-bcce-b302099a8057'),
      { type: 'api_key', id: keyOfB },
      { type: 'api_key', id: revoked },
      { type: 'm2m_credential', id: inB },
    ]) {
      const refused = await app.http.post(`${pathA}/role-assignments`, { subject, roleId: roles['member'] });
      expect(refused.status, JSON.stringify(subject)).toBe(404);
      expect(refused.body).toMatchObject({ code: 'not_found', field: 'subject.id' });
    }
    // An application-wide key may hold a role in a tenant; a tenant's key or credential in its own.
    await assign(pathA, { type: 'api_key', id: appKey }, roles['member']!);
    await assign(pathA, { type: 'm2m_credential', id: credential }, roles['a_clerk']!);
    await assign(appPath, { type: 'api_key', id: keyOfB }, roles['member']!);
    await assign(pathB, user(inB), roles['member']!);
  });

  it('only their owner gives roles to the application’s own keys and credentials: else 404 subject.id as an unknown one, nothing stored or audited', async () => {
    const appKey = (await app.http.post('/api-keys', { name: 'Owner’s reader', permissions: ['users:read'] })).body.key.id as string;
    const appCredential = (await app.http.post('/m2m-credentials', { name: 'Owner’s m2m', permissions: ['users:read'] })).body.id as string;
    const tenantKey = await issueTestKey(app, { tenantId: tenantA });
    // A Bearer token carrying tenant_id is bound to its tenant as a tenant key is.
    const tenantBearer = app.as({ bearer: await app.mintAccessToken({ app_id: app.root.applicationId, tenant_id: tenantA, permissions: ['*'] }) });
    // Bound to no tenant, but administering tenant A only: the tenant's, not the owner.
    const adminOfA = await createUser(pathA);
    await assign(pathA, user(adminOfA), roles['tenant_admin']!);
    const tenantAdmin = app.as({ bearer: await app.mintAccessToken({ sub: adminOfA, app_id: app.root.applicationId }) });
    const unknown = '01890a5d-ac96-774b-bcce-b302099a8057';
    const callers = [['tenant key', tenantKey, ['', pathA]], ['tenant Bearer', tenantBearer, ['', pathA]], ['admin of A only', tenantAdmin, [pathA]]] as const;
    for (const [name, caller, paths] of callers) {
      for (const path of paths) {
        for (const [type, id] of [['api_key', appKey], ['m2m_credential', appCredential]] as const) {
          const asUnknown = await caller.post(`${path}/role-assignments`, { subject: { type, id: unknown }, roleId: roles['tenant_admin'] });
          const { requestId, headers } = traced();
          const refused = await caller.post(`${path}/role-assignments`, { subject: { type, id }, roleId: roles['tenant_admin'] }, { headers });
          expect([refused.status, refused.body], `${name} ${path} ${type}`).toEqual([404, asUnknown.body]);
          expect(refused.body).toMatchObject({ code: 'not_found', field: 'subject.id' });
          expect(await auditRecordsOf(app, requestId)).toEqual([]);
        }
      }
      expect((await caller.get(`${paths.at(-1)}/api-keys/${appKey}`)).status).toBe(404);
      expect((await caller.get(`${paths.at(-1)}/m2m-credentials/${appCredential}`)).status).toBe(404);
    }
    expect(await app.sql('select id from role_assignment where subject_id in (?, ?)', [appKey, appCredential])).toEqual([]);

    // Over GraphQL, the same service.
    const overGraphql = await tenantKey.graphql('mutation ($input: CreateRoleAssignmentInput!) { createRoleAssignment(input: $input) { id } }', {
      input: { subject: { type: 'api_key', id: appKey }, roleId: roles['tenant_admin'] },
    });
    expect(overGraphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'not_found', field: 'subject.id', status: 404 });
    expect(await app.sql('select id from role_assignment where subject_id in (?, ?)', [appKey, appCredential])).toEqual([]);

    // The application's owner gives them a role in the tenant, on its path, as before.
    const keyInA = await assign(pathA, { type: 'api_key', id: appKey }, roles['tenant_admin']!);
    const credentialInA = await assign(pathA, { type: 'm2m_credential', id: appCredential }, roles['tenant_admin']!);
    expect([keyInA.tenantId, credentialInA.tenantId]).toEqual([tenantA, tenantA]);
  });

  it('a caller bound to a tenant still gives roles to its tenant’s keys, credentials and users, and to the console’s operators', async () => {
    await ensureConsoles(app.gatehouse.services.orm, app.gatehouse.services.config.publicUrl, randomUUID(), {
      email: 'first@ops.example',
      passwordHash: await hashPassword('a long first passphrase'),
    });
    const [{ id: operator }] = (await app.sql<{ id: string }>(
      'select u.id from app_user as u join application as a on a.id = u.application_id where a.organization_id = ? and a.console limit 1',
      [app.root.organizationId],
    )) as [{ id: string }];
    const keyOfA = (await app.http.post(`${pathA}/api-keys`, { name: 'A key', permissions: ['users:read'] })).body.key.id as string;
    const credentialOfA = (await app.http.post(`${pathA}/m2m-credentials`, { name: 'A m2m', permissions: ['users:read'] })).body.id as string;
    const tenantKey = await issueTestKey(app, { tenantId: tenantA });
    const tenantBearer = app.as({ bearer: await app.mintAccessToken({ app_id: app.root.applicationId, tenant_id: tenantA, permissions: ['*'] }) });
    for (const caller of [tenantKey, tenantBearer]) {
      const member = await createUser(pathA);
      for (const subject of [{ type: 'api_key', id: keyOfA }, { type: 'm2m_credential', id: credentialOfA }, user(member), { type: 'operator', id: operator }]) {
        const { requestId, headers } = traced();
        const created = await caller.post('/role-assignments', { subject, roleId: roles['a_clerk'] }, { headers });
        expect(created.status, JSON.stringify([subject, created.body])).toBe(201);
        expect(created.body).toMatchObject({ subject, tenantId: tenantA });
        expect((await auditRecordsOf(app, requestId)).map((record) => [record.action, record.targetId])).toEqual([['role_assignment.created', created.body.id]]);
        expect((await caller.delete(`/role-assignments/${created.body.id}`)).status).toBe(204);
      }
    }
  });

  it('a caller bound to a tenant sees and removes a role given in its tenant to an application-wide key, by its id alone', async () => {
    const appKey = (await app.http.post('/api-keys', { name: 'Given a role in A', permissions: ['users:read'] })).body.key.id as string;
    const inA = await assign(pathA, { type: 'api_key', id: appKey }, roles['member']!);
    const wide = await assign(appPath, { type: 'api_key', id: appKey }, roles['tenant_admin']!);
    const tenantKey = await issueTestKey(app, { tenantId: tenantA });
    const listed = await tenantKey.get(`/role-assignments?subjectType=api_key&subjectId=${appKey}`);
    expect(listed.body.data).toEqual([{ id: inA.id, applicationId: app.root.applicationId, tenantId: tenantA, roleId: roles['member'], subject: { type: 'api_key', id: appKey }, createdAt: expect.any(String) }]);
    expect((await tenantKey.get(`/role-assignments/${wide.id}`)).status).toBe(404);
    expect((await tenantKey.delete(`/role-assignments/${wide.id}`)).status).toBe(404);
    expect((await tenantKey.delete(`/role-assignments/${inA.id}`)).status).toBe(204);
    expect((await app.http.get(`/role-assignments/${wide.id}`)).status).toBe(200);
  });

  it('takes a role only where the scope sees it (404 on roleId), and one whose permissions the caller holds (403)', async () => {
    const userId = await createUser(pathB);
    for (const [path, roleId] of [[pathB, roles['a_clerk']], [appPath, roles['a_clerk']], [appPath, '01890a5d-ac96-774b-bcce-b302099a8057']] as const) {
      const refused = await app.http.post(`${path}/role-assignments`, { subject: user(userId), roleId });
      expect(refused.status, `${path} ${roleId}`).toBe(404);
      expect(refused.body).toMatchObject({ code: 'not_found', field: 'roleId' });
    }
    const narrow = await issueTestKey(app, { tenantId: tenantB, permissions: ['role_assignments:*', 'users:read'] });
    const tooWide = await narrow.post('/role-assignments', { subject: user(userId), roleId: roles['tenant_admin'] });
    expect(tooWide.status).toBe(403);
    expect(tooWide.body.code).toBe('forbidden');
    const within = await narrow.post('/role-assignments', { subject: user(userId), roleId: roles['member'] });
    expect(within.status, JSON.stringify(within.body)).toBe(201);
    expect(within.body.tenantId).toBe(tenantB);
  });

  it('lists by subject and by role; a tenant sees its own and the application-wide ones of its subjects', async () => {
    const member = await createUser(pathA);
    const outsider = await createUser(pathB);
    const own = await assign(pathA, user(member), roles['a_clerk']!);
    const wide = await assign(appPath, user(member), roles['tenant_admin']!);
    const elsewhere = await assign(appPath, user(outsider), roles['tenant_admin']!);
    const ids = (body: { data: { id: string }[] }) => body.data.map((assignment) => assignment.id);

    const bySubject = await app.http.get(`/role-assignments?subjectType=user&subjectId=${member}`);
    expect(ids(bySubject.body)).toEqual([own.id, wide.id]);
    const byRole = await app.http.get(`/role-assignments?roleId=${roles['tenant_admin']}&pageSize=100`);
    expect(ids(byRole.body)).toEqual(expect.arrayContaining([wide.id, elsewhere.id]));
    expect(ids((await app.http.get(`/role-assignments?roleId=${roles['tenant_admin']}&subjectType=user&subjectId=${outsider}`)).body)).toEqual([elsewhere.id]);

    const inA = ids((await app.http.get(`${pathA}/role-assignments?roleId=${roles['tenant_admin']}&pageSize=100`)).body);
    expect(inA).toContain(wide.id);
    expect(inA).not.toContain(elsewhere.id);
    expect((await app.http.get(`${pathA}/role-assignments/${elsewhere.id}`)).status).toBe(404);
    expect((await app.http.get(`${pathB}/role-assignments/${own.id}`)).status).toBe(404);

    const half = await app.http.get(`/role-assignments?subjectId=${member}`);
    expect(half.status).toBe(422);
    expect(half.body).toMatchObject({ code: 'validation_error', field: 'subjectType' });
    // A type alone: every subject of that kind.
    const all = (await app.http.get('/role-assignments?pageSize=100')).body.data as { id: string; subject: { type: string } }[];
    for (const type of ['user', 'api_key']) {
      const ofType = (await app.http.get(`/role-assignments?subjectType=${type}&pageSize=100`)).body.data as { id: string }[];
      expect(ofType.map((assignment) => assignment.id)).toEqual(all.filter((assignment) => assignment.subject.type === type).map((assignment) => assignment.id));
      expect(ofType.length).toBeGreaterThan(0);
    }

    // Pages: a cursor of one filtered list is no cursor of another.
    const first = await app.http.get(`/role-assignments?subjectType=user&subjectId=${member}&pageSize=1`);
    expect(ids(first.body)).toEqual([own.id]);
    const next = await app.http.get(`/role-assignments?subjectType=user&subjectId=${member}&pageSize=1&cursor=${encodeURIComponent(first.body.next)}`);
    expect(ids(next.body)).toEqual([wide.id]);
    expect(next.body.next).toBeNull();
    const misused = await app.http.get(`/role-assignments?pageSize=1&cursor=${encodeURIComponent(first.body.next)}`);
    expect(misused.body).toMatchObject({ code: 'validation_error', field: 'cursor' });
  });

  it('removes an assignment, audited and replayable; a tenant may not remove an application-wide one (403)', async () => {
    const member = await createUser(pathA);
    const wide = await assign(appPath, user(member), roles['member']!);
    const own = await assign(pathA, user(member), roles['member']!);
    const tenantKey = await issueTestKey(app, { tenantId: tenantA });
    const refused = await tenantKey.delete(`/role-assignments/${wide.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
    expect((await app.http.delete(`${pathB}/role-assignments/${own.id}`)).status).toBe(404);

    const { requestId, headers } = traced();
    const keyed = { headers: { ...headers, 'idempotency-key': crypto.randomUUID() } };
    const removed = await tenantKey.delete(`/role-assignments/${own.id}`, keyed);
    expect(removed.status).toBe(204);
    const replayed = await tenantKey.delete(`/role-assignments/${own.id}`, keyed);
    expect([replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([204, 'true']);
    expect((await auditRecordsOf(app, requestId)).map((record) => [record.action, record.targetId, record.tenantId])).toEqual([['role_assignment.deleted', own.id, tenantA]]);
    expect((await tenantKey.delete(`/role-assignments/${own.id}`)).status).toBe(404);
    expect((await app.http.get(`/role-assignments/${wide.id}`)).status).toBe(200);
  });

  it('removes only an assignment the caller could have made: a role_assignments clerk does not demote an admin (403)', async () => {
    const admin = await createUser(pathB);
    const wide = await assign(appPath, user(admin), roles['app_admin']!);
    const inB = await assign(pathB, user(admin), roles['tenant_admin']!);
    const member = await assign(pathB, user(admin), roles['member']!);
    const clerk = await issueTestKey(app, { permissions: ['role_assignments:*', 'users:read'] });
    const tenantClerk = await issueTestKey(app, { tenantId: tenantB, permissions: ['role_assignments:*', 'users:read'] });
    for (const [client, id] of [[clerk, wide.id], [clerk, inB.id], [tenantClerk, inB.id]] as const) {
      const refused = await client.delete(`/role-assignments/${id}`);
      expect(refused.status, id).toBe(403);
      expect(refused.body.code).toBe('forbidden');
      expect((await app.http.get(`/role-assignments/${id}`)).status).toBe(200);
    }
    expect((await tenantClerk.delete(`/role-assignments/${member.id}`)).status).toBe(204);
    const overGraphql = await clerk.graphql('mutation($id: UUID!) { deleteRoleAssignment(assignmentId: $id) }', { id: wide.id });
    expect(overGraphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'forbidden', status: 403 });
    expect((await app.http.delete(`/role-assignments/${wide.id}`)).status).toBe(204);
  });

  it('a user’s deletion takes their assignments, each audited; leaving a tenant takes those made there', async () => {
    const shared = await createUser(appPath);
    expect((await app.http.patch(`/users/${shared}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    const wide = await assign(appPath, user(shared), roles['member']!);
    const inA = await assign(pathA, user(shared), roles['a_clerk']!);
    const inB = await assign(pathB, user(shared), roles['member']!);

    const left = traced();
    expect((await app.http.delete(`${pathA}/users/${shared}`, { headers: left.headers })).status).toBe(204);
    expect((await auditRecordsOf(app, left.requestId)).filter((record) => record.action === 'role_assignment.deleted').map((record) => record.targetId)).toEqual([inA.id]);
    expect((await app.http.get(`/role-assignments/${wide.id}`)).status).toBe(200);

    const gone = traced();
    expect((await app.http.delete(`/users/${shared}`, { headers: gone.headers })).status).toBe(204);
    const removed = (await auditRecordsOf(app, gone.requestId)).filter((record) => record.action === 'role_assignment.deleted');
    expect(removed.map((record) => [record.targetId, record.tenantId]).sort()).toEqual([[wide.id, null], [inB.id, tenantB]].sort());
    expect((await app.http.get(`/role-assignments?subjectType=user&subjectId=${shared}`)).body.data).toEqual([]);
  });

  it('a key’s or credential’s deletion, with its user or its tenant, takes its application-wide roles, each audited', async () => {
    const owner = await createUser(pathA);
    const userKey = (await app.http.post(`${pathA}/api-keys`, { name: 'Owner key', permissions: ['users:read'], userId: owner })).body.key.id;
    const ofUserKey = await assign(appPath, { type: 'api_key', id: userKey }, roles['member']!);
    const gone = traced();
    expect((await app.http.delete(`/users/${owner}`, { headers: gone.headers })).status).toBe(204);
    expect((await auditRecordsOf(app, gone.requestId)).filter((record) => record.action === 'role_assignment.deleted').map((record) => record.targetId)).toEqual([ofUserKey.id]);

    const doomed = await app.createTenant('Doomed');
    const doomedPath = `${appPath}/tenants/${doomed}`;
    const key = (await app.http.post(`${doomedPath}/api-keys`, { name: 'Doomed key', permissions: ['users:read'] })).body.key.id;
    const credential = (await app.http.post(`${doomedPath}/m2m-credentials`, { name: 'Doomed m2m', permissions: ['users:read'] })).body.id;
    const ofKey = await assign(appPath, { type: 'api_key', id: key }, roles['member']!);
    const ofCredential = await assign(appPath, { type: 'm2m_credential', id: credential }, roles['member']!);
    const deletion = traced();
    expect((await app.http.delete(doomedPath, { headers: deletion.headers })).status).toBe(204);
    const removed = (await auditRecordsOf(app, deletion.requestId)).filter((record) => record.action === 'role_assignment.deleted');
    expect(removed.map((record) => record.targetId).sort()).toEqual([ofKey.id, ofCredential.id].sort());
    expect((await app.http.get(`/role-assignments?roleId=${roles['member']}&pageSize=100`)).body.data.map((each: { id: string }) => each.id)).not.toContain(ofKey.id);
  });

  it('answers the same over GraphQL', async () => {
    const member = await createUser(pathA);
    const created = await app.http.graphql(
      'mutation ($input: CreateRoleAssignmentInput!) { createRoleAssignment(input: $input) { subject { type id } tenantId } }',
      { input: { subject: user(member), roleId: roles['member'] } },
    );
    expect(created.body).toEqual({ data: { createRoleAssignment: { subject: user(member), tenantId: null } } });
    const listed = await app.http.graphql('query ($id: UUID) { roleAssignments(subjectType: user, subjectId: $id) { data { roleId } next } }', { id: member });
    expect(listed.body.data.roleAssignments).toEqual({ data: [{ roleId: roles['member'] }], next: null });
    const refused = await app.http.graphql(
      'mutation ($input: CreateRoleAssignmentInput!) { createRoleAssignment(input: $input) { id } }',
      { input: { subject: user(member), roleId: roles['a_clerk'] } },
    );
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'not_found', field: 'roleId', status: 404 });
  });
});
