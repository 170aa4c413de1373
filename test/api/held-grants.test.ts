import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHeldGrants } from '../../src/domain/authorization/held-roles.ts';
import { newId } from '../../src/ids.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/** What a subject holds, in one statement for many subjects (src/domain/authorization/held-roles.ts). */
let app: TestApp;
let appId: string;
const roleId = async (key: string): Promise<string> =>
  (await app.sql<{ id: string }>('select id from role where application_id = ? and key = ?', [appId, key]))[0]!.id;
const assign = (subjectType: string, subjectId: string, role: string, tenantId: string | null) =>
  app.sql('insert into role_assignment values (?, ?, ?, ?, ?, ?, now())', [appId, newId(), tenantId, role, subjectType, subjectId]);

beforeAll(async () => {
  app = await startTestApp();
  appId = app.root.applicationId;
});
afterAll(async () => app?.close());

describe('held grants', () => {
  it('every application has the built-in roles', async () => {
    const rows = await app.sql<{ key: string }>('select key, built_in from role where application_id = ? order by key', [appId]);
    expect(rows.map((r) => r.key)).toEqual(['app_admin', 'member', 'tenant_admin']);
  });

  it('unions application-wide and tenant assignments; a tenant’s hold for its members only', async () => {
    const tenantA = await app.createTenant('A');
    const tenantB = await app.createTenant('B');
    const user = await app.http.post('/users', { email: `held-${newId()}@example.com`, tenantId: tenantA });
    expect(user.status, JSON.stringify(user.body)).toBe(201);
    await assign('user', user.body.id, await roleId('member'), null);
    await assign('user', user.body.id, await roleId('tenant_admin'), tenantA);
    const stranger = { type: 'user' as const, id: newId() };
    const subject = { type: 'user' as const, id: user.body.id };
    const connection = app.gatehouse.services.orm.em.getConnection();

    const inA = await readHeldGrants(connection, appId, tenantA, [subject, stranger]);
    expect(inA.get(`user:${user.body.id}`)?.roles.map((r) => r.key).sort()).toEqual(['member', 'tenant_admin']);
    expect(inA.has(`user:${stranger.id}`)).toBe(false);

    const appWide = await readHeldGrants(connection, appId, null, [subject]);
    expect(appWide.get(`user:${user.body.id}`)?.roles.map((r) => r.key)).toEqual(['member']);

    // Not a member of B: holds the application-wide role there (in every tenant), not a role assigned in B.
    await assign('user', user.body.id, await roleId('tenant_admin'), tenantB);
    const inB = await readHeldGrants(connection, appId, tenantB, [subject]);
    expect(inB.get(`user:${user.body.id}`)?.roles.map((r) => r.key)).toEqual(['member']);
    const other = await app.bootstrapAnother();
    expect((await readHeldGrants(connection, other.applicationId, null, [subject])).size).toBe(0);
  });

  it('reads an API key’s own list beside its roles', async () => {
    const key = await app.http.post('/api-keys', { name: 'k', permissions: ['users:read'] });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    await assign('api_key', key.body.key.id, await roleId('member'), null);
    const held = await readHeldGrants(app.gatehouse.services.orm.em.getConnection(), appId, null, [{ type: 'api_key', id: key.body.key.id }]);
    expect(held.get(`api_key:${key.body.key.id}`)).toMatchObject({ own: ['users:read'], roles: [{ key: 'member', permissions: [] }] });
  });
});
