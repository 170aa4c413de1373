import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createTestClient, decodeJwt, discover } from '../support/oauth.ts';

let app: TestApp;
let issuer: string;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
});
afterAll(async () => app?.close());

describe('discovery', () => {
  it('publishes the spec’s endpoints, code + PKCE S256 only, and the client auth methods', async () => {
    const response = await fetch(`${app.baseUrl}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(response.headers.get('x-request-id')).not.toBeNull();
    const document = (await response.json()) as Record<string, any>;
    expect(document).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/oauth2/authorize`,
      token_endpoint: `${issuer}/oauth2/token`,
      revocation_endpoint: `${issuer}/oauth2/revoke`,
      userinfo_endpoint: `${issuer}/oauth2/userinfo`,
      device_authorization_endpoint: `${issuer}/oauth2/device_authorization`,
      end_session_endpoint: `${issuer}/oauth2/logout`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['ES256', 'RS256'],
    });
    expect(document.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code']),
    );
    expect(document.grant_types_supported).not.toContain('implicit');
    expect(document.grant_types_supported).not.toContain('password');
    expect(document.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none']),
    );
    expect(document.token_endpoint_auth_methods_supported).not.toContain('client_secret_jwt');
    expect(document).not.toHaveProperty('pushed_authorization_request_endpoint');
  });

  it('serves URLs of PUBLIC_URL whatever Host or X-Forwarded-* the client sends', async () => {
    const response = await fetch(`${app.baseUrl}/.well-known/openid-configuration`, {
      headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    const document = (await response.json()) as Record<string, any>;
    expect(document.token_endpoint).toBe(`${issuer}/oauth2/token`);
  });

  it('is what openid-client discovers', async () => {
    const { clientId, clientSecret } = await createTestClient(app);
    const config = await discover(app, clientId, oidc.ClientSecretBasic(clientSecret));
    expect(config.serverMetadata().issuer).toBe(issuer);
    expect(config.serverMetadata().supportsPKCE()).toBe(true);
  });

  it('answers other paths under /oauth2 with the API’s 404', async () => {
    const response = await fetch(`${app.baseUrl}/oauth2/nothing`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('JWKS', () => {
  const jwks = async () => {
    const response = await fetch(`${app.baseUrl}/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { keys: Record<string, unknown>[] }).keys;
  };

  it('publishes public keys only: ES256 (P-256) and RS256', async () => {
    const keys = await jwks();
    expect(keys.map((key) => key.alg).sort()).toEqual(['ES256', 'RS256']);
    for (const key of keys) {
      const shape = key.alg === 'ES256' ? { kty: 'EC', crv: 'P-256' } : { kty: 'RSA', e: 'AQAB' };
      expect(key).toMatchObject({ ...shape, use: 'sig', kid: expect.any(String) });
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key).not.toHaveProperty(secret);
    }
  });

  it('survives rotation: the old kid stays published and its tokens keep working; new tokens use the new kid', async () => {
    const { clientId, clientSecret } = await createTestClient(app, { permissions: ['users:read'] });
    const config = await discover(app, clientId, oidc.ClientSecretBasic(clientSecret));
    const before = await oidc.clientCredentialsGrant(config);
    const oldKid = decodeJwt(before.access_token).header.kid;
    expect((await jwks()).map((key) => key.kid)).toContain(oldKid);

    // At once, as for a leaked key (a rotation's key otherwise signs a minute after it is published: signing-keys.test.ts).
    const { kids: { ES256: newKid } } = await app.gatehouse.services.signingKeys.rotate({ at: 'once' });
    expect(newKid).not.toBe(oldKid);

    const kids = (await jwks()).map((key) => key.kid);
    expect(kids).toEqual(expect.arrayContaining([oldKid, newKid]));
    expect((await app.as({ bearer: before.access_token }).get('/users')).status).toBe(200);

    const after = await oidc.clientCredentialsGrant(config);
    expect(decodeJwt(after.access_token).header.kid).toBe(newKid);
    expect((await app.as({ bearer: after.access_token }).get('/users')).status).toBe(200);
  });
});
