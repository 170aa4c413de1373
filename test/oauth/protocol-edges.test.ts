import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { authorize, basicAuth, createTestClient, discover, postForm, type TestClient } from '../support/oauth.ts';

/**
 * The OP at the edges of RFC 6749, 7009, 7523 and 8414: a client assertion living too long, another client's token at
 * revocation, keys at upload that the OP could never verify with, what discovery says revocation accepts, and a
 * request's malformed transport answered in OAuth terms.
 */
const REDIRECT = 'https://app.example/callback';
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

let app: TestApp;
let issuer: string;
let tokenUrl: string;
let spa: TestClient;
let ada: string;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  tokenUrl = `${app.baseUrl}/oauth2/token`;
  const created = await app.http.post('/users', { email: 'ada@example.com', name: 'Ada' });
  expect(created.status).toBe(201);
  ada = created.body.id;
  spa = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
});
afterAll(async () => app?.close());

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact JWS (ES256 in JOSE's r||s form, or Ed25519), for assertions openid-client will not build. */
function signJws(header: Record<string, unknown>, payload: Record<string, unknown>, key: KeyObject): string {
  const input = `${b64url(header)}.${b64url(payload)}`;
  const signature = sign(key.asymmetricKeyType === 'ed25519' ? null : 'sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

/** A client-credentials request authenticated by `assertion` (private_key_jwt). */
const withAssertion = (clientId: string, assertion: string) =>
  postForm(tokenUrl, { grant_type: 'client_credentials', client_id: clientId, client_assertion_type: ASSERTION_TYPE, client_assertion: assertion });

const assertionClaims = (clientId: string, exp: number) => ({ iss: clientId, sub: clientId, aud: issuer, jti: randomUUID(), exp });

/** A user's tokens for the SPA (code + PKCE through the hosted pages' seam). */
async function userTokens() {
  const config = await discover(app, spa.clientId, oidc.None(), { redirect_uris: [REDIRECT] });
  const verifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid offline_access',
    prompt: 'consent',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const outcome = await authorize(app, url, { userId: ada, tenantId: null });
  if (outcome.kind !== 'redirect') throw new Error(`expected a redirect, got ${outcome.status}`);
  return { config, tokens: await oidc.authorizationCodeGrant(config, outcome.url, { pkceCodeVerifier: verifier }) };
}

describe('private_key_jwt client assertions (RFC 7523)', () => {
  it('an assertion that expires too far ahead is invalid_client, never a server error; a short-lived one works', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const { clientId } = await createTestClient(app, {
      authMethod: 'private_key_jwt',
      jwks: { keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1' }] },
    });
    const now = Math.floor(Date.now() / 1000);
    for (const exp of [1e15, 1e300, now + 2 * 3600]) {
      const refused = await withAssertion(clientId, signJws({ alg: 'ES256', kid: 'k1' }, assertionClaims(clientId, exp), privateKey));
      expect(refused.status, String(exp)).toBe(401);
      expect(refused.body.error).toBe('invalid_client');
    }
    const accepted = await withAssertion(clientId, signJws({ alg: 'ES256', kid: 'k1' }, assertionClaims(clientId, now + 60), privateKey));
    expect(accepted.status).toBe(200);
  });
});

describe('M2M JWKS upload: only keys the OP can verify with', () => {
  const jwkOf = (key: KeyObject, extra: Record<string, unknown> = {}) => ({ ...key.export({ format: 'jwk' }), kid: 'k', ...extra });

  it('refuses curves and algorithms the token endpoint does not verify, naming the member', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
    const cases: [Record<string, unknown>, string][] = [
      [jwkOf(generateKeyPairSync('ed448').publicKey), 'jwks.keys[0].crv'],
      [jwkOf(generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).publicKey), 'jwks.keys[0].crv'],
      [jwkOf(rsa, { alg: 'ES256' }), 'jwks.keys[0].alg'],
      [jwkOf(p256, { alg: 'ES384' }), 'jwks.keys[0].alg'],
      [jwkOf(p256, { alg: 'EdDSA' }), 'jwks.keys[0].alg'],
    ];
    for (const [jwk, field] of cases) {
      const refused = await app.http.post('/m2m-credentials', { name: 'x', permissions: ['users:read'], authMethod: 'private_key_jwt', jwks: { keys: [jwk] } });
      expect(refused.status, JSON.stringify(jwk).slice(0, 60)).toBe(422);
      expect(refused.body).toMatchObject({ code: 'validation_error', field });
    }
  });

  it('accepts an Ed25519 key naming the fully-specified alg the discovery document advertises, and it authenticates', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const created = await app.http.post('/m2m-credentials', {
      name: 'ed25519',
      permissions: ['users:read'],
      authMethod: 'private_key_jwt',
      jwks: { keys: [jwkOf(publicKey, { alg: 'Ed25519' })] },
    });
    expect(created.status).toBe(201);
    const clientId = created.body.clientId as string;
    const assertion = signJws({ alg: 'Ed25519', kid: 'k' }, assertionClaims(clientId, Math.floor(Date.now() / 1000) + 60), privateKey);
    expect((await withAssertion(clientId, assertion)).status).toBe(200);
  });
});

describe('revocation (RFC 7009) by a confidential client', () => {
  it('another client’s valid token is 200 and stays valid, exactly like an unknown token: no oracle of validity', async () => {
    const { config, tokens } = await userTokens();
    const web = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT] });
    const headers = { authorization: basicAuth(web.clientId, web.clientSecret!) };
    const foreign = await postForm(`${app.baseUrl}/oauth2/revoke`, { token: tokens.refresh_token! }, headers);
    const unknown = await postForm(`${app.baseUrl}/oauth2/revoke`, { token: 'no-such-token' }, headers);
    expect(foreign.status).toBe(200);
    expect(foreign.body).toEqual(unknown.body);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).resolves.toBeDefined();
  });
});

describe('discovery (RFC 8414) tells what revocation accepts', () => {
  it('lists the revocation endpoint’s client authentication methods, public clients included', async () => {
    const document = (await (await fetch(`${app.baseUrl}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(document['revocation_endpoint_auth_methods_supported']).toEqual(document['token_endpoint_auth_methods_supported']);
    expect(document['revocation_endpoint_auth_signing_alg_values_supported']).toEqual(document['token_endpoint_auth_signing_alg_values_supported']);
    // What it says works: a public client revokes its own refresh token with `none`.
    const { config, tokens } = await userTokens();
    const revoked = await postForm(`${app.baseUrl}/oauth2/revoke`, { token: tokens.refresh_token!, client_id: spa.clientId });
    expect(revoked.status).toBe(200);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toThrow();
  });
});

describe('OAuth endpoints answer malformed transport in OAuth terms (RFC 6749 §5.2)', () => {
  it('an unparsable Content-Type is 400 invalid_request in the OAuth body, on every OAuth POST endpoint', async () => {
    for (const path of ['/oauth2/token', '/oauth2/revoke', '/oauth2/device_authorization', '/oauth2/userinfo']) {
      const response = await fetch(`${app.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': ';;;' }, body: 'grant_type=client_credentials' });
      expect(response.status, path).toBe(400);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toMatchObject({ error: 'invalid_request', error_description: expect.any(String) });
    }
  });

  it('the rate limit keeps its own answer there (429 with the API body and Retry-After)', async () => {
    const limited = await startTestApp({ rateLimit: { max: 1, windowMs: 60_000, redisPrefix: `gatehouse-test-${randomUUID()}-` } });
    try {
      const send = () => fetch(`${limited.baseUrl}/oauth2/token`, { method: 'POST', headers: { 'content-type': ';;;' }, body: '' });
      await send();
      const refused = await send();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).not.toBeNull();
      expect(await refused.json()).toMatchObject({ code: 'rate_limited' });
    } finally {
      await limited.close();
    }
  });
});
