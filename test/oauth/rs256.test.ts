import { createLocalJWKSet, jwtVerify, type JWK } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RETIRED_KEY_VERIFIES_MS } from '../../src/auth/signing-keys.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { codeThroughSeam, decodeJwt, discover } from '../support/oauth.ts';

/**
 * ID tokens in RS256 (OIDC Core 15.1: every OP supports it) for the clients that choose it through the management
 * API, ES256 for the others; access tokens ES256 for both. openid-client is the RP, with its non-repudiation checks
 * on: it verifies every ID token's signature against the published JWKS, for the algorithm the client registered.
 */
const REDIRECT = 'https://app.example/callback';

let app: TestApp;
let issuer: string;
let resource: string;
let tenantA: string;
let ada: string;
let rsaClient: string;
let ecClient: string;

type Alg = 'ES256' | 'RS256';

/** openid-client configured as the client registered, verifying ID token signatures; fresh, so its JWKS cache too. */
async function rp(clientId: string, alg: Alg): Promise<oidc.Configuration> {
  const config = await discover(app, clientId, oidc.None(), { redirect_uris: [REDIRECT], id_token_signed_response_alg: alg });
  oidc.enableNonRepudiationChecks(config);
  return config;
}

/** Ada signs in through the seam; the RP redeems the code for an ID token and a management API access token. */
async function signIn(config: oidc.Configuration) {
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const { callback, verifier } = await codeThroughSeam(app, config, REDIRECT, { userId: ada, tenantId: tenantA }, { scope: 'openid email', resource, state, nonce });
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce }, { resource });
  return { idToken: tokens.id_token!, accessToken: tokens.access_token, claims: tokens.claims()! };
}

async function publishedKeys(): Promise<JWK[]> {
  const response = await fetch(`${app.baseUrl}/.well-known/jwks.json`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { keys: JWK[] }).keys;
}

/** Verifies a token against the set published now, accepting `alg` only (as a relying party pins it). */
async function verifiesNow(token: string, alg: Alg, audience: string) {
  return jwtVerify(token, createLocalJWKSet({ keys: await publishedKeys() }), { algorithms: [alg], issuer, audience });
}

const kidOf = (token: string) => decodeJwt(token).header.kid as string;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  resource = `${issuer}/api/v1`;
  tenantA = await app.createTenant('Tenant A');
  const user = await app.http.post('/users', { email: 'ada@example.com', name: 'Ada Lovelace', tenantId: tenantA });
  expect(user.status).toBe(201);
  ada = user.body.id;
  const register = async (body: Record<string, unknown>) => {
    const created = await app.http.post('/oauth-clients', { name: 'SPA', type: 'spa', redirectUris: [REDIRECT], managementApi: true, ...body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.clientId as string;
  };
  rsaClient = await register({ idTokenSigningAlg: 'RS256' });
  ecClient = await register({});
});
afterAll(async () => app?.close());

describe('RS256 ID tokens', () => {
  it('discovery lists ES256 and RS256 for ID tokens, and the JWKS holds a key of each', async () => {
    const config = await rp(ecClient, 'ES256');
    expect(config.serverMetadata().id_token_signing_alg_values_supported).toEqual(['ES256', 'RS256']);
    expect((await publishedKeys()).map((key) => [key.alg, key.kty]).sort()).toEqual([
      ['ES256', 'EC'],
      ['RS256', 'RSA'],
    ]);
  });

  it('a client registered for RS256 gets RS256 ID tokens that verify against the JWKS; its access token stays ES256', async () => {
    const { idToken, accessToken, claims } = await signIn(await rp(rsaClient, 'RS256'));
    expect(decodeJwt(idToken).header).toMatchObject({ alg: 'RS256', kid: expect.any(String) });
    expect(claims).toMatchObject({ iss: issuer, aud: rsaClient, sub: ada });
    const rsaKey = (await publishedKeys()).find((key) => key.kid === kidOf(idToken));
    expect(rsaKey).toMatchObject({ kty: 'RSA', alg: 'RS256' });
    expect((await verifiesNow(idToken, 'RS256', rsaClient)).protectedHeader.alg).toBe('RS256');
    // An RP pinned to ES256 refuses it: the algorithm is the client's choice, not the OP's default.
    await expect(verifiesNow(idToken, 'ES256', rsaClient)).rejects.toThrow();

    expect(decodeJwt(accessToken).header).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    await verifiesNow(accessToken, 'ES256', resource);
    // Authenticated by the management API (403: users hold no permissions yet), not refused as a token (401).
    expect((await app.as({ bearer: accessToken }).get('/users')).status).toBe(403);
  });

  it('a client left at the default gets ES256 ID tokens; an RP expecting RS256 from it refuses them', async () => {
    const { idToken, accessToken } = await signIn(await rp(ecClient, 'ES256'));
    expect(decodeJwt(idToken).header.alg).toBe('ES256');
    await verifiesNow(idToken, 'ES256', ecClient);
    expect(decodeJwt(accessToken).header).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    const refused = await signIn(await rp(ecClient, 'RS256')).catch((error: unknown) => error);
    expect(refused).toMatchObject({ cause: { message: 'unexpected JWT "alg" header parameter', cause: { header: { alg: 'ES256' }, expected: 'RS256' } } });
  });

  it('a PATCH of idTokenSigningAlg applies to the next ID token at once (the OP forgets the cached client)', async () => {
    // Read once, so the OP holds the client in its cache.
    expect(decodeJwt((await signIn(await rp(ecClient, 'ES256'))).idToken).header.alg).toBe('ES256');
    expect((await app.http.patch(`/oauth-clients/${ecClient}`, { idTokenSigningAlg: 'RS256' })).status).toBe(200);
    try {
      const { idToken } = await signIn(await rp(ecClient, 'RS256'));
      expect(decodeJwt(idToken).header.alg).toBe('RS256');
    } finally {
      expect((await app.http.patch(`/oauth-clients/${ecClient}`, { idTokenSigningAlg: 'ES256' })).status).toBe(200);
    }
    expect(decodeJwt((await signIn(await rp(ecClient, 'ES256'))).idToken).header.alg).toBe('ES256');
  });

  it('a rotation rotates both keys, with the same publish-before-sign timing; old kids verify past their tokens’ expiry, as hints', async () => {
    const before = await signIn(await rp(rsaClient, 'RS256'));
    const beforeEc = await signIn(await rp(ecClient, 'ES256'));
    const { kids, signsFrom } = await app.gatehouse.services.signingKeys.rotate();
    expect(kids.RS256).not.toBe(kidOf(before.idToken));
    expect(kids.ES256).not.toBe(kidOf(beforeEc.idToken));
    // Published at once, both...
    expect((await publishedKeys()).map((key) => key.kid)).toEqual(expect.arrayContaining([kids.RS256, kids.ES256, kidOf(before.idToken), kidOf(beforeEc.idToken)]));
    // ...signing only from signsFrom, both.
    const during = await signIn(await rp(rsaClient, 'RS256'));
    expect(kidOf(during.idToken)).toBe(kidOf(before.idToken));
    expect(kidOf(during.accessToken)).toBe(kidOf(before.accessToken));

    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      vi.setSystemTime(signsFrom.getTime() + 1_000);
      const after = await signIn(await rp(rsaClient, 'RS256'));
      expect(decodeJwt(after.idToken).header).toMatchObject({ alg: 'RS256', kid: kids.RS256 });
      expect(decodeJwt(after.accessToken).header).toMatchObject({ alg: 'ES256', kid: kids.ES256 });
      const afterEc = await signIn(await rp(ecClient, 'ES256'));
      expect(decodeJwt(afterEc.idToken).header).toMatchObject({ alg: 'ES256', kid: kids.ES256 });

      // The old kids stay published until the tokens they signed expire: a second before the old ID token's exp.
      vi.setSystemTime((before.claims.exp - 1) * 1_000);
      await verifiesNow(before.idToken, 'RS256', rsaClient);
      await verifiesNow(beforeEc.idToken, 'ES256', ecClient);
      // Once no session that saw them sign can last (and the margin), they are gone; the new ones remain.
      vi.setSystemTime(signsFrom.getTime() + RETIRED_KEY_VERIFIES_MS + 1_000);
      const kidsLeft = (await publishedKeys()).map((key) => key.kid);
      expect(kidsLeft).not.toContain(kidOf(before.idToken));
      expect(kidsLeft).not.toContain(kidOf(beforeEc.idToken));
      expect(kidsLeft).toEqual(expect.arrayContaining([kids.RS256, kids.ES256]));
    } finally {
      vi.useRealTimers();
    }
  });
});
