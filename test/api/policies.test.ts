import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/db/entities/index.ts';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { issueTestKey } from '../support/keys.ts';

let app: TestApp;
let appPath: string;
let acme: string;
let globex: string;

const DEFAULT_PASSWORD = {
  kind: 'password',
  minLength: 8,
  requireUppercase: false,
  requireLowercase: false,
  requireDigit: false,
  requireSymbol: false,
  maxAge: null,
  disallowCommon: true,
  historyCount: 0,
};

async function setIsolation(authIsolation: 'shared' | 'isolated') {
  const response = await app.http.patch(appPath, { tenancyConfig: { authIsolation } });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  ({ app, appPath, tenants: [acme, globex] } = await startTestAppWithTenants(['Acme', 'Globex']));
});
afterAll(async () => app?.close());

describe('policies at application scope', () => {
  it('reads the four built-in defaults, source null, on the bare and application forms', async () => {
    const all = await app.http.get('/policies');
    expect(all.status).toBe(200);
    expect(all.body.password).toEqual({ ...DEFAULT_PASSWORD, source: null, updatedAt: null });
    expect(all.body.mfa).toEqual({ kind: 'mfa', enforcement: 'optional', factors: ['totp', 'email_otp'], rememberDeviceDays: 30, source: null, updatedAt: null });
    expect(all.body.session).toMatchObject({ kind: 'session', idleTimeoutMinutes: 4320, absoluteTimeoutMinutes: 43200, singleSession: false });
    expect(all.body.lockout).toMatchObject({ kind: 'lockout', enabled: true, maxAttempts: 10, lockoutMinutes: 15, resetAfterMinutes: 15, accountLockAddresses: 5 });
    const one = await app.http.get(`${appPath}/policies/lockout`);
    expect(one.body).toEqual(all.body.lockout);
  });

  it('PUT replaces the whole policy: fields left out take the defaults', async () => {
    const first = await app.http.put('/policies/password', { minLength: 12, requireSymbol: true, maxAge: 90 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ...DEFAULT_PASSWORD, minLength: 12, requireSymbol: true, maxAge: 90, source: null });
    expect(first.body.updatedAt).toEqual(expect.any(String));
    const second = await app.http.put(`${appPath}/policies/password`, { minLength: 10 });
    expect(second.body).toMatchObject({ ...DEFAULT_PASSWORD, minLength: 10 });
    expect((await app.http.get('/policies/password')).body).toEqual(second.body);
    const audit = await app.gatehouse.services.orm.em.fork().find(AuditLog, { action: 'policy.updated' }, { filters: false });
    expect(audit.map((entry) => entry.after)).toContainEqual(expect.objectContaining({ minLength: 10 }));
  });

  it('writes the other kinds', async () => {
    const mfa = await app.http.put('/policies/mfa', { enforcement: 'required', factors: ['email_otp'] });
    expect(mfa.body).toMatchObject({ kind: 'mfa', enforcement: 'required', factors: ['email_otp'], rememberDeviceDays: 30 });
    const session = await app.http.put('/policies/session', { idleTimeoutMinutes: 30, absoluteTimeoutMinutes: 720, singleSession: true });
    expect(session.body).toMatchObject({ idleTimeoutMinutes: 30, absoluteTimeoutMinutes: 720, singleSession: true });
    const threshold = await app.http.graphql('mutation { putPolicy(kind: lockout, input: { accountLockAddresses: 2 }) { ... on LockoutPolicy { maxAttempts accountLockAddresses } } }');
    expect(threshold.body.data).toEqual({ putPolicy: { maxAttempts: 10, accountLockAddresses: 2 } });
    const lockout = await app.http.put('/policies/lockout', { maxAttempts: 5, lockoutMinutes: null, accountLockAddresses: null });
    expect(lockout.body).toMatchObject({ enabled: true, maxAttempts: 5, lockoutMinutes: null, resetAfterMinutes: 15, accountLockAddresses: null });
    // Passkeys are a second factor a policy may list.
    const keys = await app.http.put('/policies/mfa', { enforcement: 'required', factors: ['webauthn', 'totp'] });
    expect(keys.body).toMatchObject({ kind: 'mfa', factors: ['webauthn', 'totp'] });
  });

  it('refuses unknown kinds, fields of another kind and values out of range with 422 naming the field', async () => {
    const before = (await app.http.get('/policies')).body;
    const cases: [string, unknown, string][] = [
      ['/policies/biometric', {}, 'kind'],
      ['/policies/password', { minLength: 4 }, 'minLength'],
      ['/policies/password', { minLength: 500 }, 'minLength'],
      ['/policies/password', { minLength: 'long' }, 'minLength'],
      ['/policies/password', { minLength: null }, 'minLength'],
      ['/policies/password', { enforcement: 'required' }, 'enforcement'],
      ['/policies/password', { colour: 'red' }, 'colour'],
      ['/policies/mfa', { enforcement: 'always' }, 'enforcement'],
      ['/policies/mfa', { enforcement: 'required', factors: [] }, 'factors'],
      ['/policies/mfa', { factors: ['totp', 'totp'] }, 'factors'],
      ['/policies/mfa', { factors: ['sms'] }, 'factors[0]'],
      ['/policies/session', { idleTimeoutMinutes: 600, absoluteTimeoutMinutes: 60 }, 'idleTimeoutMinutes'],
      // The idle timeout left out is its default (3 days): the field sent is the one at fault.
      ['/policies/session', { absoluteTimeoutMinutes: 60 }, 'absoluteTimeoutMinutes'],
      ['/policies/lockout', { maxAttempts: 1 }, 'maxAttempts'],
      // One address alone may not lock the account: that is locking a victim out.
      ['/policies/lockout', { accountLockAddresses: 1 }, 'accountLockAddresses'],
      ['/policies/lockout', { accountLockAddresses: 1001 }, 'accountLockAddresses'],
      ['/policies/lockout', { accountLockAddresses: 2.5 }, 'accountLockAddresses'],
    ];
    for (const [path, body, field] of cases) {
      const response = await app.http.put(path, body);
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(422);
      expect(response.body).toMatchObject({ code: 'validation_error', field });
    }
    expect((await app.http.put('/policies/session', { absoluteTimeoutMinutes: 60 })).body.message).toBe(
      'absoluteTimeoutMinutes may not be below idleTimeoutMinutes, which is 4320 when left out',
    );
    expect((await app.http.get('/policies/biometric')).body).toMatchObject({ code: 'validation_error', field: 'kind' });
    expect((await app.http.get('/policies')).body).toEqual(before);
  });

  it('refuses missing credentials (401) and missing permissions (403)', async () => {
    expect((await app.as({}).get('/policies')).status).toBe(401);
    const reader = await issueTestKey(app, { permissions: ['policies:read'] });
    expect((await reader.get('/policies/password')).status).toBe(200);
    const refused = await reader.put('/policies/password', { minLength: 20 });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
    const none = await issueTestKey(app, { permissions: ['users:read'] });
    expect((await none.get('/policies')).status).toBe(403);
    expect((await app.http.get('/policies/password')).body.minLength).toBe(10);
  });

  it('another application is not found', async () => {
    const other = await app.bootstrapAnother();
    const read = await app.http.get(`/applications/${other.applicationId}/policies`);
    expect(read.status).toBe(404);
    const write = await app.http.put(`/applications/${other.applicationId}/policies/password`, { minLength: 30 });
    expect(write.status).toBe(404);
    const theirs = await app.as({ apiKey: other.apiKey }).get('/policies/password');
    expect(theirs.body.minLength).toBe(8);
  });

  it('has nothing to remove at application scope', async () => {
    const response = await app.http.delete('/policies/password');
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'validation_error', field: 'tenantId' });
  });
});

describe('tenant policies', () => {
  it('while shared: a tenant inherits, and its override is refused with 409', async () => {
    const read = await app.http.get(`${appPath}/tenants/${acme}/policies/password`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ minLength: 10, source: 'inherited' });
    const refused = await app.http.put(`${appPath}/tenants/${acme}/policies/password`, { minLength: 16 });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'tenant_customization_disabled', field: 'tenancyConfig.authIsolation' });
    // Removing is a write too, refused alike (none can remain while shared: the switch to shared waits for none).
    const remove = await app.http.delete(`${appPath}/tenants/${acme}/policies/password`);
    expect(remove).toMatchObject({ status: 409, body: { code: 'tenant_customization_disabled', field: 'tenancyConfig.authIsolation' } });
    const overGraphQL = await app.http.graphql(`mutation { removePolicy(kind: password, appId: "${app.root.applicationId}", tenantId: "${acme}") }`);
    expect(overGraphQL.body.errors?.[0]?.extensions).toEqual({ code: 'tenant_customization_disabled', status: 409, field: 'tenancyConfig.authIsolation' });
  });

  it('while isolated: a tenant overrides, reads customized, and removing restores inheritance', async () => {
    await setIsolation('isolated');
    const acmePath = `${appPath}/tenants/${acme}/policies`;
    const put = await app.http.put(`${acmePath}/password`, { minLength: 16, requireSymbol: true });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ ...DEFAULT_PASSWORD, minLength: 16, requireSymbol: true, source: 'customized' });
    const all = await app.http.get(acmePath);
    expect(all.body.password).toMatchObject({ minLength: 16, source: 'customized' });
    expect(all.body.mfa).toMatchObject({ enforcement: 'required', source: 'inherited' });
    expect((await app.http.get(`${appPath}/tenants/${globex}/policies/password`)).body).toMatchObject({ minLength: 10, source: 'inherited' });
    expect((await app.http.get('/policies/password')).body).toMatchObject({ minLength: 10, source: null });

    // The application's policy changing does not reach a customized tenant, and does reach an inheriting one.
    await app.http.put('/policies/password', { minLength: 11 });
    expect((await app.http.get(`${acmePath}/password`)).body.minLength).toBe(16);
    expect((await app.http.get(`${appPath}/tenants/${globex}/policies/password`)).body.minLength).toBe(11);

    const key = crypto.randomUUID();
    const removed = await app.http.delete(`${acmePath}/password`, { headers: { 'idempotency-key': key } });
    expect(removed.status).toBe(204);
    expect((await app.http.get(`${acmePath}/password`)).body).toMatchObject({ minLength: 11, source: 'inherited' });
    expect((await app.http.delete(`${acmePath}/password`, { headers: { 'idempotency-key': key } })).headers.get('idempotent-replayed')).toBe('true');
    expect((await app.http.delete(`${acmePath}/password`)).status).toBe(404);
  });

  it('a tenant-scoped key acts on its own tenant on every form, and is refused another tenant with 403', async () => {
    const acmeKey = await issueTestKey(app, { tenantId: acme });
    const bare = await acmeKey.put('/policies/lockout', { maxAttempts: 3 });
    expect(bare.status).toBe(200);
    expect(bare.body).toMatchObject({ maxAttempts: 3, source: 'customized' });
    expect((await acmeKey.get('/policies/lockout')).body).toMatchObject({ maxAttempts: 3, source: 'customized' });
    expect((await acmeKey.get(`${appPath}/policies/lockout`)).body.source).toBe('customized');
    expect((await app.http.get(`${appPath}/tenants/${acme}/policies/lockout`)).body.maxAttempts).toBe(3);
    expect((await app.http.get('/policies/lockout')).body).toMatchObject({ maxAttempts: 5, source: null });

    const foreign = await acmeKey.put(`${appPath}/tenants/${globex}/policies/lockout`, { maxAttempts: 4 });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('forbidden');
    expect((await acmeKey.get(`${appPath}/tenants/${globex}/policies`)).status).toBe(403);
    expect((await acmeKey.delete(`${appPath}/tenants/${globex}/policies/lockout`)).status).toBe(403);
    expect((await app.http.get(`${appPath}/tenants/${globex}/policies/lockout`)).body.source).toBe('inherited');

    expect((await acmeKey.delete('/policies/lockout')).status).toBe(204);
    expect((await acmeKey.get('/policies/lockout')).body.source).toBe('inherited');
  });

  it('a tenant of another application, or an unknown tenant, is not found', async () => {
    const other = await app.bootstrapAnother();
    const theirTenant = await app.createTenant('Theirs', other);
    expect((await app.http.get(`${appPath}/tenants/${theirTenant}/policies`)).status).toBe(404);
    expect((await app.http.put(`${appPath}/tenants/${theirTenant}/policies/password`, { minLength: 9 })).status).toBe(404);
    expect((await app.http.get(`${appPath}/tenants/not-a-uuid/policies`)).body).toMatchObject({ code: 'validation_error', field: 'tenantId' });
  });
});

describe('policies over GraphQL', () => {
  it('reads, writes and removes a tenant override with the same rules', async () => {
    const put = await app.http.graphql(
      `mutation($appId: UUID, $tenantId: UUID) {
        putPolicy(appId: $appId, tenantId: $tenantId, kind: session, input: { idleTimeoutMinutes: 15, absoluteTimeoutMinutes: 60 }) {
          kind source ... on SessionPolicy { idleTimeoutMinutes absoluteTimeoutMinutes singleSession }
        }
      }`,
      { appId: app.root.applicationId, tenantId: globex },
    );
    expect(put.body.errors).toBeUndefined();
    expect(put.body.data.putPolicy).toEqual({ kind: 'session', source: 'customized', idleTimeoutMinutes: 15, absoluteTimeoutMinutes: 60, singleSession: false });
    expect((await app.http.get('/policies/session')).body).toMatchObject({ notifyNewBrowser: false });
    const read = await app.http.graphql(
      `query($tenantId: UUID) { policies(tenantId: $tenantId) { session { source idleTimeoutMinutes } password { source minLength } } }`,
      { tenantId: globex },
    );
    expect(read.body.data.policies).toEqual({ session: { source: 'customized', idleTimeoutMinutes: 15 }, password: { source: 'inherited', minLength: 11 } });
    const invalid = await app.http.graphql(`mutation { putPolicy(kind: password, input: { minLength: 3 }) { kind } }`);
    expect(invalid.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'minLength', status: 422 });
    const removed = await app.http.graphql(`mutation($t: UUID) { removePolicy(kind: session, tenantId: $t) }`, { t: globex });
    expect(removed.body.data.removePolicy).toBe(true);
  });
});
