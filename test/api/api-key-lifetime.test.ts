import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecoveryKey } from '../../src/domain/bootstrap.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/** The api_keys provider's maxLifetimeDays bounds the keys created, rotated or recovered while it is enabled. */
let app: TestApp;
const DAY_MS = 24 * 3600 * 1000;
const daysAhead = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const endsWithin30Days = (expiresAt: string | Date | null) =>
  expiresAt !== null && new Date(expiresAt).getTime() - Date.now() > 29 * DAY_MS && new Date(expiresAt).getTime() - Date.now() <= 30 * DAY_MS;

async function recoveryKeyExpiry(): Promise<Date | null> {
  const recovery = await createRecoveryKey(app.gatehouse.services.orm, { applicationId: app.root.applicationId, requestId: randomUUID() });
  const [row] = await app.sql<{ expires_at: Date | null }>('select expires_at from api_key where id = ?', [recovery.apiKeyId]);
  return row!.expires_at;
}

const createKey = (body: Record<string, unknown> = {}) => app.http.post('/api-keys', { name: 'k', permissions: ['users:read'], ...body });

describe('maxLifetimeDays', () => {
  it('refuses an expiry beyond the limit, gives a key without one the limit, and imposes nothing once disabled', async () => {
    const unbounded = await createKey();
    expect(unbounded.body.key.expiresAt).toBeNull();

    const provider = await app.http.post('/auth-providers', { type: 'api_keys', config: { maxLifetimeDays: 30 } });
    expect(provider.status, JSON.stringify(provider.body)).toBe(201);

    const refused = await createKey({ expiresAt: daysAhead(31) });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'expiresAt' });
    const keys = await app.http.get('/api-keys?pageSize=100');
    expect(keys.body.data).toHaveLength(2); // the root key and the unbounded one

    const within = await createKey({ expiresAt: daysAhead(10) });
    expect(within.status).toBe(201);
    const limited = await createKey();
    expect(limited.status).toBe(201);
    const expiresIn = new Date(limited.body.key.expiresAt as string).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(29 * DAY_MS);
    expect(expiresIn).toBeLessThanOrEqual(30 * DAY_MS);

    // A rotation hands out a new secret: one that would outlive the limit ends at it, a sooner expiry stays.
    const rotated = await app.http.post(`/api-keys/${unbounded.body.key.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(endsWithin30Days(rotated.body.key.expiresAt)).toBe(true);
    expect((await app.http.post(`/api-keys/${within.body.key.id}/rotate`)).body.key.expiresAt).toBe(within.body.key.expiresAt);
    // So does the CLI's recovery key (gatehouse create-api-key).
    expect(endsWithin30Days(await recoveryKeyExpiry())).toBe(true);

    expect((await app.http.patch(`/auth-providers/${provider.body.id}`, { enabled: false })).status).toBe(200);
    expect((await createKey({ expiresAt: daysAhead(365) })).status).toBe(201);
    expect((await createKey()).body.key.expiresAt).toBeNull();
    expect(await recoveryKeyExpiry()).toBeNull();
  });
});

describe('maxLifetimeDays of an isolated tenant', () => {
  it("follows the key's tenant: its own provider, else the application's, whose set a tenant with other providers of its own replaces whole", async () => {
    // A fresh application: the one above ends with its provider disabled.
    const other = await app.bootstrapAnother();
    const admin = app.as({ apiKey: other.apiKey });
    const appPath = `/applications/${other.applicationId}`;
    expect((await admin.post('/auth-providers', { type: 'api_keys', config: { maxLifetimeDays: 90 } })).status).toBe(201);
    expect((await admin.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const [acme, globex, initech] = [await app.createTenant('Acme', other), await app.createTenant('Globex', other), await app.createTenant('Initech', other)];
    const inTenant = (tenantId: string) => `${appPath}/tenants/${tenantId}`;
    const createIn = (tenantId: string, body: Record<string, unknown> = {}) =>
      admin.post(`${inTenant(tenantId)}/api-keys`, { name: 'k', permissions: ['users:read'], ...body });
    const lifetimeDays = (created: { body: { key: { expiresAt: string | null } } }) =>
      created.body.key.expiresAt === null ? null : Math.round((Date.parse(created.body.key.expiresAt) - Date.now()) / DAY_MS);

    const own = await admin.post(`${inTenant(acme)}/auth-providers`, { type: 'api_keys', config: { maxLifetimeDays: 30 } });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    // Initech has providers of its own, none of them api_keys: the application's limit is not inherited type by type.
    expect((await admin.post(`${inTenant(initech)}/auth-providers`, { type: 'password' })).status).toBe(201);

    const refused = await createIn(acme, { expiresAt: daysAhead(31) });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'expiresAt' });
    // The key's tenant decides, whichever path names it.
    const namedInBody = await admin.post('/api-keys', { name: 'k', permissions: ['users:read'], tenantId: acme, expiresAt: daysAhead(31) });
    expect(namedInBody.status).toBe(422);
    expect(namedInBody.body).toMatchObject({ code: 'validation_error', field: 'expiresAt' });
    const acmeKey = await createIn(acme);
    expect(acmeKey.status).toBe(201);
    expect(acmeKey.body.key.tenantId).toBe(acme);
    expect(lifetimeDays(acmeKey)).toBe(30);

    const globexAsked = daysAhead(31);
    const globexKey = await createIn(globex, { expiresAt: globexAsked });
    expect(globexKey.status).toBe(201);
    expect(globexKey.body.key.expiresAt).toBe(globexAsked);
    expect(lifetimeDays(await createIn(globex))).toBe(90);
    expect((await createIn(globex, { expiresAt: daysAhead(91) })).body).toMatchObject({ code: 'validation_error', field: 'expiresAt' });

    expect(lifetimeDays(await createIn(initech, { expiresAt: daysAhead(365) }))).toBe(365);
    expect(lifetimeDays(await createIn(initech))).toBeNull();

    // Its last provider deleted, Acme inherits the application's again.
    expect((await admin.delete(`${inTenant(acme)}/auth-providers/${own.body.id}`)).status).toBe(204);
    expect((await createIn(acme, { expiresAt: daysAhead(31) })).status).toBe(201);
    expect(lifetimeDays(await createIn(acme))).toBe(90);
    expect((await createIn(acme, { expiresAt: daysAhead(91) })).status).toBe(422);
  });
});
