import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

/** The api_keys provider's maxLifetimeDays bounds the keys created while it is enabled. */
let app: TestApp;
const DAY_MS = 24 * 3600 * 1000;
const daysAhead = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

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

    expect((await app.http.patch(`/auth-providers/${provider.body.id}`, { enabled: false })).status).toBe(200);
    expect((await createKey({ expiresAt: daysAhead(365) })).status).toBe(201);
    expect((await createKey()).body.key.expiresAt).toBeNull();
  });
});
