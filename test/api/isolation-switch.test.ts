import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_POOL } from '../../src/db/entities/user.entity.ts';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { auditRecordsOf, traced } from '../support/audit.ts';

/**
 * `authIsolation` and tenant auth data (API.md, Tenancy configuration): `shared` → `isolated` always works;
 * `isolated` → `shared` is refused while any tenant holds auth providers, policies, MFA settings or custom domains,
 * with a detail per tenant and kind, and nothing changes; once the data is removed the switch succeeds. Tenant auth
 * data is never hidden, unlike the overrides of the three scope switches.
 */
let app: TestApp;
let appPath: string;
let acme: string;
let globex: string;
const data: { acmeProvider?: string; acmeDomain?: string; globexProviders: string[] } = { globexProviders: [] };

const patchIsolation = (authIsolation: string, extra: Record<string, unknown> = {}) =>
  app.http.patch(appPath, { ...extra, tenancyConfig: { authIsolation } });

beforeAll(async () => {
  ({ app, appPath, tenants: [acme, globex] } = await startTestAppWithTenants(['Acme', 'Globex']));
  await app.http.put('/policies/password', { minLength: 10 });
});
afterAll(async () => app?.close());

describe('authIsolation and tenant auth data', () => {
  it('shared → isolated is allowed at once, and tenants may then hold their own auth stack', async () => {
    const switched = await patchIsolation('isolated');
    expect(switched.status).toBe(200);
    expect(switched.body.tenancyConfig.authIsolation).toBe('isolated');
    const inAcme = `${appPath}/tenants/${acme}`;
    const inGlobex = `${appPath}/tenants/${globex}`;
    expect((await app.http.put(`${inAcme}/policies/password`, { minLength: 14 })).status).toBe(200);
    expect((await app.http.put(`${inAcme}/policies/mfa`, { enforcement: 'required' })).status).toBe(200);
    data.acmeProvider = (await app.http.post(`${inAcme}/auth-providers`, { type: 'api_keys' })).body.id;
    data.acmeDomain = (await app.http.post(`${inAcme}/domains`, { hostname: 'login.acme.example' })).body.id;
    expect((await app.http.put(`${inGlobex}/policies/lockout`, { maxAttempts: 5 })).status).toBe(200);
    for (const type of ['password', 'm2m']) data.globexProviders.push((await app.http.post(`${inGlobex}/auth-providers`, { type })).body.id);
    expect(data.acmeProvider).toBeDefined();
    expect(data.acmeDomain).toBeDefined();
  });

  it('isolated → shared is refused with 409 tenant_auth_data_remains naming each tenant and kind; nothing changes', async () => {
    const before = (await app.http.get(appPath)).body;
    const refused = await patchIsolation('shared', { name: 'Renamed meanwhile' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'tenant_auth_data_remains', field: 'tenancyConfig.authIsolation' });
    expect(refused.body.details).toEqual([
      { tenantId: acme, tenantSlug: 'acme', kind: 'auth_providers', count: 1 },
      { tenantId: acme, tenantSlug: 'acme', kind: 'custom_domains', count: 1 },
      { tenantId: acme, tenantSlug: 'acme', kind: 'mfa_settings', count: 1 },
      { tenantId: acme, tenantSlug: 'acme', kind: 'policies', count: 1 },
      { tenantId: globex, tenantSlug: 'globex', kind: 'auth_providers', count: 2 },
      { tenantId: globex, tenantSlug: 'globex', kind: 'policies', count: 1 },
    ]);
    expect((await app.http.get(appPath)).body).toEqual(before);
    // The tenants' data is untouched and still in force.
    expect((await app.http.get(`${appPath}/tenants/${acme}/policies/password`)).body).toMatchObject({ minLength: 14, source: 'customized' });
    expect((await app.http.get(`${appPath}/tenants/${globex}/auth-providers`)).body.data).toHaveLength(2);
  });

  it('is refused the same way over GraphQL', async () => {
    const response = await app.http.graphql(
      `mutation($appId: UUID!) { updateApplication(appId: $appId, input: { tenancyConfig: { authIsolation: shared } }) { id } }`,
      { appId: app.root.applicationId },
    );
    expect(response.status).toBe(409);
    expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: 'tenant_auth_data_remains', status: 409 });
    expect(response.body.errors?.[0]?.extensions.details).toHaveLength(6);
  });

  it('the refusal shrinks as data is removed, overrides switch source as they go, and the switch then succeeds', async () => {
    const inAcme = `${appPath}/tenants/${acme}`;
    const inGlobex = `${appPath}/tenants/${globex}`;
    expect((await app.http.delete(`${inAcme}/policies/password`)).status).toBe(204);
    expect((await app.http.get(`${inAcme}/policies/password`)).body).toMatchObject({ minLength: 10, source: 'inherited' });
    expect((await app.http.delete(`${inAcme}/policies/mfa`)).status).toBe(204);
    expect((await app.http.delete(`${inAcme}/auth-providers/${data.acmeProvider}`)).status).toBe(204);
    expect((await app.http.get(`${inAcme}/auth-providers`)).body.data[0]).toMatchObject({ type: 'password', source: 'inherited' });
    expect((await app.http.delete(`${inAcme}/domains/${data.acmeDomain}`)).status).toBe(204);

    const onlyGlobex = await patchIsolation('shared');
    expect(onlyGlobex.status).toBe(409);
    expect(onlyGlobex.body.details.map((d: { tenantId: string; kind: string }) => [d.tenantId, d.kind])).toEqual([
      [globex, 'auth_providers'],
      [globex, 'policies'],
    ]);

    expect((await app.http.delete(`${inGlobex}/policies/lockout`)).status).toBe(204);
    for (const id of data.globexProviders) expect((await app.http.delete(`${inGlobex}/auth-providers/${id}`)).status).toBe(204);
    const switched = await patchIsolation('shared');
    expect(switched.status).toBe(200);
    expect(switched.body.tenancyConfig.authIsolation).toBe('shared');
  });

  it('back in shared: tenants inherit everything and may not write tenant auth data', async () => {
    const inAcme = `${appPath}/tenants/${acme}`;
    expect((await app.http.get(`${inAcme}/policies`)).body.password).toMatchObject({ minLength: 10, source: 'inherited' });
    expect((await app.http.put(`${inAcme}/policies/password`, { minLength: 20 })).body.code).toBe('tenant_customization_disabled');
    expect((await app.http.post(`${inAcme}/auth-providers`, { type: 'm2m' })).body.code).toBe('tenant_customization_disabled');
    expect((await app.http.post(`${inAcme}/domains`, { hostname: 'again.acme.example' })).body.code).toBe('tenant_customization_disabled');
    // And nothing comes back on the way to isolated again: the data was removed, not hidden.
    expect((await patchIsolation('isolated')).status).toBe(200);
    expect((await app.http.get(`${inAcme}/policies/password`)).body.source).toBe('inherited');
    expect((await app.http.get(`${inAcme}/auth-providers`)).body.data.every((p: { source: string }) => p.source === 'inherited')).toBe(true);
    expect((await app.http.get(`${inAcme}/domains`)).body.data).toEqual([]);
  });

  it('deleting a tenant takes its auth data with it, so it no longer blocks the switch', async () => {
    const doomed = await app.createTenant('Doomed');
    await app.http.put(`${appPath}/tenants/${doomed}/policies/session`, { idleTimeoutMinutes: 10 });
    await app.http.post(`${appPath}/tenants/${doomed}/auth-providers`, { type: 'password' });
    await app.http.post(`${appPath}/tenants/${doomed}/domains`, { hostname: 'doomed.example' });
    expect((await patchIsolation('shared')).status).toBe(409);
    expect((await app.http.delete(`${appPath}/tenants/${doomed}`)).status).toBe(204);
    expect((await patchIsolation('shared')).status).toBe(200);
  });
});

describe('isolated → shared and the addresses a tenant vouched for', () => {
  it('a user whose address only a tenant’s credentials set joins the shared pool unconfirmed, as if made there; the application’s stay confirmed', async () => {
    const created = await app.http.post('/applications', { name: 'Vouching', multiTenant: true, tenancyConfig: { authIsolation: 'isolated' } });
    const admin = app.as({ apiKey: created.body.initialApiKey.secret });
    const path = `/applications/${created.body.id}`;
    const tenantId = (await admin.post(`${path}/tenants`, { name: 'Vouched' })).body.id as string;
    const tenantKey = app.as({ apiKey: (await admin.post(`${path}/tenants/${tenantId}/api-keys`, { name: 'tenant admin', permissions: ['users:read', 'users:write'] })).body.secret });
    const byTenant = await tenantKey.post('/users', { email: 'someone-else@vouching.example', password: 'a long tenant password' });
    const moved = await tenantKey.post('/users', { email: 'first@vouching.example' });
    expect((await tenantKey.patch(`/users/${moved.body.id}`, { email: 'renamed@vouching.example' })).status).toBe(200);
    const byApplication = await admin.post('/users', { email: 'real@vouching.example', tenantId });
    for (const made of [byTenant, moved, byApplication]) expect(made.body).toMatchObject({ emailVerified: true });

    const { requestId, headers } = traced();
    expect((await admin.patch(path, { tenancyConfig: { authIsolation: 'shared' } }, { headers })).status).toBe(200);
    const shown = async (id: string) => (await admin.get(`/users/${id}`)).body;
    expect(await shown(byTenant.body.id)).toMatchObject({ email: 'someone-else@vouching.example', tenantIds: [tenantId], emailVerified: false });
    expect(await shown(moved.body.id)).toMatchObject({ email: 'renamed@vouching.example', emailVerified: false });
    expect(await shown(byApplication.body.id)).toMatchObject({ emailVerified: true });
    // The tenant that set the address is kept with it, as the shared pool keeps it, for a takeover to keep.
    const vouching = await app.sql<{ id: string; vouched_by_tenant_id: string | null }>('select id, vouched_by_tenant_id from app_user where application_id = ? order by id', [created.body.id]);
    expect(Object.fromEntries(vouching.map((row) => [row.id, row.vouched_by_tenant_id]))).toEqual({ [byTenant.body.id]: tenantId, [moved.body.id]: tenantId, [byApplication.body.id]: null });
    // Recorded as the change of each user it is, beside the switch's own record: the pool, and the vouched addresses.
    const records = await auditRecordsOf(app, requestId);
    const changed = (snapshot: unknown) => {
      const { poolId, emailVerified } = snapshot as { poolId: string; emailVerified: boolean };
      return [poolId, emailVerified];
    };
    expect(records.filter((record) => record.action === 'user.updated').map((record) => [record.targetId, record.tenantId, ...changed(record.before), ...changed(record.after)]).sort()).toEqual(
      [
        [byTenant.body.id, tenantId, tenantId, true, SHARED_POOL, false],
        [moved.body.id, tenantId, tenantId, true, SHARED_POOL, false],
        [byApplication.body.id, tenantId, tenantId, true, SHARED_POOL, true],
      ].sort(),
    );
  });
});
