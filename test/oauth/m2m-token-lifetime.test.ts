import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createTestClient, decodeJwt, discover } from '../support/oauth.ts';

/** The enabled `m2m` provider's tokenLifetimeSeconds is the lifetime of client-credentials tokens. */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
});
afterAll(async () => app?.close());

async function grant(): Promise<{ expiresIn: number | undefined; lifetime: number }> {
  const { clientId, clientSecret } = await createTestClient(app, { permissions: ['users:read'] });
  const tokens = await oidc.clientCredentialsGrant(await discover(app, clientId, oidc.ClientSecretBasic(clientSecret)));
  const { payload } = decodeJwt(tokens.access_token);
  return { expiresIn: tokens.expires_in, lifetime: (payload['exp'] as number) - (payload['iat'] as number) };
}

describe('tokenLifetimeSeconds', () => {
  it('sets the lifetime while the provider is enabled; the default hour otherwise; never beyond the hour', async () => {
    expect(await grant()).toEqual({ expiresIn: 3600, lifetime: 3600 });
    const provider = await app.http.post('/auth-providers', { type: 'm2m', config: { tokenLifetimeSeconds: 120 } });
    expect(provider.status, JSON.stringify(provider.body)).toBe(201);
    expect(await grant()).toEqual({ expiresIn: 120, lifetime: 120 });

    expect((await app.http.patch(`/auth-providers/${provider.body.id}`, { enabled: false })).status).toBe(200);
    expect(await grant()).toEqual({ expiresIn: 3600, lifetime: 3600 });

    const tooLong = await app.http.patch(`/auth-providers/${provider.body.id}`, { enabled: true, config: { tokenLifetimeSeconds: 3601 } });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body).toMatchObject({ code: 'validation_error', field: 'config.tokenLifetimeSeconds' });
  });
});
