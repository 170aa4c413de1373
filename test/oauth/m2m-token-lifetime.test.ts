import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createTestClient, decodeJwt, discover, discoverSurface, type TestClientOptions } from '../support/oauth.ts';

/** The enabled `m2m` provider's tokenLifetimeSeconds is the lifetime of client-credentials tokens. */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
});
afterAll(async () => app?.close());

/** A client-credentials grant of a new credential (of the root application unless `client` says otherwise). */
async function grant(client: TestClientOptions = {}): Promise<{ expiresIn: number | undefined; lifetime: number }> {
  const { clientId, clientSecret } = await createTestClient(app, { permissions: ['users:read'], ...client });
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

describe('tokenLifetimeSeconds of an isolated tenant', () => {
  it("follows the token's tenant (the credential's, else its path's): its own provider while enabled, else the application's", async () => {
    // A fresh application: the one above ends with its provider disabled.
    const other = await app.bootstrapAnother();
    const admin = app.as({ apiKey: other.apiKey });
    const appPath = `/applications/${other.applicationId}`;
    expect((await admin.post('/auth-providers', { type: 'm2m', config: { tokenLifetimeSeconds: 600 } })).status).toBe(201);
    expect((await admin.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const acme = await app.createTenant('Acme', other);
    const globex = await app.createTenant('Globex', other);
    const boundTo = (tenantId: string | null) => grant({ applicationId: other.applicationId, tenantId });

    const own = await admin.post(`${appPath}/tenants/${acme}/auth-providers`, { type: 'm2m', config: { tokenLifetimeSeconds: 120 } });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(await boundTo(acme)).toEqual({ expiresIn: 120, lifetime: 120 });
    expect(await boundTo(globex)).toEqual({ expiresIn: 600, lifetime: 600 });
    expect(await boundTo(null)).toEqual({ expiresIn: 600, lifetime: 600 });
    // An application-wide credential on Acme's path gets a token of Acme's, and Acme's lifetime with it.
    const wide = await createTestClient(app, { permissions: ['users:read'], applicationId: other.applicationId });
    const acmeSlug = (await admin.get(`${appPath}/tenants/${acme}`)).body.slug as string;
    const onAcme = await oidc.clientCredentialsGrant(await discoverSurface(`${app.gatehouse.services.config.publicUrl}/t/${acmeSlug}`, wide));
    expect(decodeJwt(onAcme.access_token).payload).toMatchObject({ tenant_id: acme });
    expect(onAcme.expires_in).toBe(120);

    // Disabled, it still makes Acme's set its own (the application's is not inherited) and sets nothing: the default hour.
    expect((await admin.patch(`${appPath}/tenants/${acme}/auth-providers/${own.body.id}`, { enabled: false })).status).toBe(200);
    expect(await boundTo(acme)).toEqual({ expiresIn: 3600, lifetime: 3600 });
    expect((await admin.delete(`${appPath}/tenants/${acme}/auth-providers/${own.body.id}`)).status).toBe(204);
    expect(await boundTo(acme)).toEqual({ expiresIn: 600, lifetime: 600 });
  });
});
