import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoveryCodeHash } from '../../src/domain/mfa/codes.ts';
import { newId } from '../../src/ids.ts';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { HttpClient } from '../support/http.ts';

/**
 * The management side of MFA: the policy's refusals (a factor not served yet, an empty list while enforced),
 * `POST /users/{userId}/mfa-reset` (every factor and recovery code removed, audited, within the caller's scope) and
 * `GET /analytics/mfa-adoption` counted from the factors themselves.
 */
let app: TestApp;
let tenantA: string;
let tenantB: string;

beforeAll(async () => {
  ({ app, tenants: [tenantA, tenantB] } = await startTestAppWithTenants(['A', 'B']));
});
afterAll(async () => app?.close());

/** Factors as an enrolment stores them (the hosted step: test/oauth/hosted-mfa.test.ts), with two recovery codes. */
async function giveFactors(userId: string, kinds: readonly ('totp' | 'email_otp')[], applicationId = app.root.applicationId) {
  for (const kind of kinds) {
    const secret = kind === 'totp' ? app.gatehouse.services.storedSecrets.encrypt('JBSWY3DPEHPK3PXP') : null;
    await app.sql(`insert into mfa_factor (application_id, id, user_id, kind, secret_encrypted) values (?, ?, ?, ?, ?)`, [applicationId, newId(), userId, kind, secret]);
  }
  for (const code of ['aaaaa-bbbbb', 'ccccc-ddddd']) {
    await app.sql(`insert into mfa_recovery_code (application_id, user_id, code_hash) values (?, ?, ?)`, [applicationId, userId, recoveryCodeHash(code)]);
  }
}

const held = async (userId: string) => ({
  factors: (await app.sql<{ kind: string }>(`select kind from mfa_factor where user_id = ? order by kind`, [userId])).map((row) => row.kind),
  codes: (await app.sql<{ n: number }>(`select count(*)::int as n from mfa_recovery_code where user_id = ?`, [userId]))[0]!.n,
});

const resets = (userId: string) =>
  app.sql<{ before: unknown; after: unknown; tenant_id: string | null }>(`select before, after, tenant_id from audit_log where target_id = ? and action = 'user.mfa.reset'`, [userId]);

describe('the MFA policy', () => {
  it('refuses a factor it does not know, and changes nothing', async () => {
    const refused = await app.http.put('/policies/mfa', { enforcement: 'required', factors: ['totp', 'sms'] });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: expect.stringMatching(/^factors/) });
    expect((await app.http.get('/policies/mfa')).body).toMatchObject({ enforcement: 'optional', factors: ['totp', 'email_otp'], updatedAt: null });
  });

  it('refuses an empty factor list while enforced, and a remembered browser beyond a year', async () => {
    expect((await app.http.put('/policies/mfa', { enforcement: 'required', factors: [] })).body).toMatchObject({ field: 'factors' });
    expect((await app.http.put('/policies/mfa', { rememberDeviceDays: 366 })).body).toMatchObject({ field: 'rememberDeviceDays' });
    expect((await app.http.put('/policies/mfa', { enforcement: 'off', factors: [] })).status).toBe(200);
    expect((await app.http.put('/policies/mfa', {})).body).toMatchObject({ enforcement: 'optional', factors: ['totp', 'email_otp'], rememberDeviceDays: 30 });
  });
});

describe('POST /users/{userId}/mfa-reset', () => {
  it('removes every factor and recovery code, audited once; a user with none is answered unchanged', async () => {
    const userId = await app.createUser('reset@example.com', tenantA);
    await giveFactors(userId, ['totp', 'email_otp']);
    const reset = await app.http.post(`/users/${userId}/mfa-reset`);
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(reset.body).toMatchObject({ id: userId, email: 'reset@example.com', status: 'active' });
    expect(await held(userId)).toEqual({ factors: [], codes: 0 });
    expect(await resets(userId)).toEqual([{ before: { factors: ['email_otp', 'totp'], recoveryCodes: 2 }, after: { factors: [], recoveryCodes: 0 }, tenant_id: null }]);
    expect((await app.http.post(`/users/${userId}/mfa-reset`)).status).toBe(200);
    expect(await resets(userId)).toHaveLength(1);
  });

  it('a tenant scope resets a user of that tenant alone, not one who belongs to another tenant too (403)', async () => {
    const own = await app.createUser('own@example.com', tenantA);
    await giveFactors(own, ['totp']);
    expect((await app.http.post(`/applications/${app.root.applicationId}/tenants/${tenantA}/users/${own}/mfa-reset`)).status).toBe(200);
    expect(await resets(own)).toEqual([expect.objectContaining({ tenant_id: tenantA })]);
    const both = await app.createUser('both@example.com', tenantA);
    expect((await app.http.patch(`/users/${both}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    await giveFactors(both, ['totp']);
    const refused = await app.http.post(`/applications/${app.root.applicationId}/tenants/${tenantA}/users/${both}/mfa-reset`);
    expect(refused.status).toBe(403);
    expect(await held(both)).toEqual({ factors: ['totp'], codes: 2 });
    // Not a member of the tenant named: as unknown there.
    const outsider = await app.createUser('outsider@example.com', tenantB);
    expect((await app.http.post(`/applications/${app.root.applicationId}/tenants/${tenantA}/users/${outsider}/mfa-reset`)).status).toBe(404);
  });

  it('an unknown user is 404, a malformed id 422, another application’s user 404 with nothing removed', async () => {
    expect((await app.http.post(`/users/${newId()}/mfa-reset`)).status).toBe(404);
    expect((await app.http.post('/users/not-an-id/mfa-reset')).body).toMatchObject({ field: 'userId' });
    const other = await app.bootstrapAnother();
    const otherAdmin = new HttpClient(app.baseUrl, { apiKey: other.apiKey });
    const created = await otherAdmin.post('/users', { email: 'theirs@example.com' });
    await giveFactors(created.body.id, ['totp'], other.applicationId);
    expect((await app.http.post(`/users/${created.body.id}/mfa-reset`)).status).toBe(404);
    expect(await held(created.body.id)).toEqual({ factors: ['totp'], codes: 2 });
  });
});

describe('GET /analytics/mfa-adoption', () => {
  it('counts the users holding factors, by factor, for the application and for a tenant', async () => {
    const other = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: other.apiKey });
    const north = await app.createTenant('North', other);
    const user = async (email: string, tenantId?: string) => (await admin.post('/users', { email, ...(tenantId === undefined ? {} : { tenantId }) })).body.id as string;
    const both = await user('both@example.com', north);
    const totp = await user('totp@example.com');
    await user('none@example.com', north);
    await giveFactors(both, ['totp', 'email_otp'], other.applicationId);
    await giveFactors(totp, ['totp'], other.applicationId);
    expect((await admin.get('/analytics/mfa-adoption')).body).toEqual({ users: 3, usersWithMfa: 2, ratio: 2 / 3, byFactor: { totp: 2, email_otp: 1 } });
    expect((await admin.get(`/applications/${other.applicationId}/tenants/${north}/analytics/mfa-adoption`)).body).toEqual({
      users: 2,
      usersWithMfa: 1,
      ratio: 0.5,
      byFactor: { totp: 1, email_otp: 1 },
    });
    expect((await admin.post(`/users/${both}/mfa-reset`)).status).toBe(200);
    expect((await admin.get('/analytics/mfa-adoption')).body).toEqual({ users: 3, usersWithMfa: 1, ratio: 1 / 3, byFactor: { totp: 1 } });
  });
});
