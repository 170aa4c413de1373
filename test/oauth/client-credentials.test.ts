import { generateKeyPairSync, randomUUID, sign, webcrypto, type KeyObject } from 'node:crypto';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { basicAuth, createTestClient, decodeJwt, discover, postForm } from '../support/oauth.ts';

let app: TestApp;
let issuer: string;
let tokenUrl: string;
let tenantA: string;
let tenantB: string;

/** An EC key pair: the private key signs client assertions, the public JWK goes into the client's JWKS. */
async function assertionKey(kid: string, alg: 'ES256' | 'ES384' = 'ES256') {
  const namedCurve = alg === 'ES256' ? 'P-256' : 'P-384';
  const { privateKey, publicKey } = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const jwk = { ...(await webcrypto.subtle.exportKey('jwk', publicKey)), kid, alg, use: 'sig' };
  return { privateKey, jwk: jwk as Record<string, unknown> };
}

/** The refusal as openid-client surfaces it: the OAuth error code and HTTP status. */
async function oauthError(promise: Promise<unknown>): Promise<{ error: string; status: number | undefined }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof oidc.ResponseBodyError) return { error: error.error, status: error.status };
    if (error instanceof oidc.WWWAuthenticateChallengeError) {
      return { error: String(error.cause[0]?.parameters.error), status: error.status };
    }
    throw error;
  }
  throw new Error('expected an OAuth error response');
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact JWS (ES256 in JOSE's r||s form, or Ed25519), for assertions openid-client will not build. */
function signJws(header: Record<string, unknown>, payload: Record<string, unknown>, key: KeyObject): string {
  const input = `${b64url(header)}.${b64url(payload)}`;
  const signature = sign(key.asymmetricKeyType === 'ed25519' ? null : 'sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

/** A client-credentials request authenticated by `assertion` (private_key_jwt). */
const withAssertion = (clientId: string, assertion: string) =>
  postForm(tokenUrl, {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    client_assertion: assertion,
  });

const assertionClaims = (clientId: string, exp: number) => ({ iss: clientId, sub: clientId, aud: issuer, jti: randomUUID(), exp });

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  tokenUrl = `${app.baseUrl}/oauth2/token`;
  const appPath = `/applications/${app.root.applicationId}`;
  tenantA = (await app.http.post(`${appPath}/tenants`, { name: 'Tenant A' })).body.id;
  tenantB = (await app.http.post(`${appPath}/tenants`, { name: 'Tenant B' })).body.id;
  for (const [tenantId, email] of [
    [tenantA, 'ada@a.example'],
    [tenantB, 'bob@b.example'],
  ] as const) {
    expect((await app.http.post('/users', { email, tenantId })).status).toBe(201);
  }
});
afterAll(async () => app?.close());

describe('client credentials', () => {
  it('client_secret_basic: an ES256 at+jwt (RFC 9068) carrying app_id and permissions, a Bearer of the management API', async () => {
    const { clientId, clientSecret } = await createTestClient(app, { permissions: ['users:read'] });
    const config = await discover(app, clientId, oidc.ClientSecretBasic(clientSecret));
    const tokens = await oidc.clientCredentialsGrant(config);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toBeUndefined();
    // No scope asked, none granted: the response names none (RFC 6749 5.1), and neither does the token.
    expect(tokens.scope).toBeUndefined();

    const { header, payload } = decodeJwt(tokens.access_token);
    expect(header).toEqual({ alg: 'ES256', typ: 'at+jwt', kid: expect.any(String) });
    expect(payload).toEqual({
      iss: issuer,
      aud: `${issuer}/api/v1`,
      sub: clientId,
      client_id: clientId,
      app_id: app.root.applicationId,
      permissions: ['users:read'],
      jti: expect.any(String),
      iat: expect.any(Number),
      exp: payload.iat + 3600,
    });

    const bearer = app.as({ bearer: tokens.access_token });
    const users = await bearer.get('/users');
    expect(users.status).toBe(200);
    expect(users.body.data.map((user: any) => user.email).sort()).toEqual(['ada@a.example', 'bob@b.example']);
    // Beside it, what the permissions do not cover.
    expect((await bearer.post('/users', { email: 'eve@example.com' })).status).toBe(403);
    expect((await bearer.get(`/applications/${app.root.applicationId}/tenants`)).status).toBe(403);
  });

  it('the token endpoint’s answers say Cache-Control: no-store and Pragma: no-cache (RFC 6749 5.1), as the device authorization’s', async () => {
    const { clientId, clientSecret } = await createTestClient(app, { permissions: ['users:read'] });
    const issued = await postForm(`${issuer}/oauth2/token`, { grant_type: 'client_credentials' }, { authorization: basicAuth(clientId, clientSecret!) });
    const refused = await postForm(`${issuer}/oauth2/token`, { grant_type: 'client_credentials' }, { authorization: basicAuth(clientId, 'wrong') });
    const device = await createTestClient(app, { type: 'device', authMethod: 'none' });
    const started = await postForm(`${issuer}/oauth2/device_authorization`, { client_id: device.clientId, scope: 'openid', tenant: tenantA });
    for (const [answer, status] of [[issued, 200], [refused, 401], [started, 200]] as const) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('pragma')).toBe('no-cache');
    }
  });

  it('a credential without users:read gets a token that the management API refuses with 403', async () => {
    const { clientId, clientSecret } = await createTestClient(app, { permissions: ['tenants:read'] });
    const tokens = await oidc.clientCredentialsGrant(await discover(app, clientId, oidc.ClientSecretBasic(clientSecret)));
    const bearer = app.as({ bearer: tokens.access_token });
    expect((await bearer.get('/users')).status).toBe(403);
    expect((await bearer.get(`/applications/${app.root.applicationId}/tenants`)).status).toBe(200);
  });

  it('client_secret_post', async () => {
    const { clientId, clientSecret } = await createTestClient(app, { authMethod: 'client_secret_post', permissions: ['users:read'] });
    const tokens = await oidc.clientCredentialsGrant(await discover(app, clientId, oidc.ClientSecretPost(clientSecret)));
    expect(decodeJwt(tokens.access_token).payload.client_id).toBe(clientId);
    expect((await app.as({ bearer: tokens.access_token }).get('/users')).status).toBe(200);
  });

  it('private_key_jwt: an assertion signed by a key of the client’s JWKS; a key outside it is invalid_client', async () => {
    const registered = await assertionKey('key-1');
    const { clientId } = await createTestClient(app, {
      authMethod: 'private_key_jwt',
      jwks: { keys: [registered.jwk] },
      permissions: ['users:read'],
    });
    const tokens = await oidc.clientCredentialsGrant(
      await discover(app, clientId, oidc.PrivateKeyJwt({ key: registered.privateKey, kid: 'key-1' })),
    );
    expect(decodeJwt(tokens.access_token).payload).toMatchObject({ sub: clientId, permissions: ['users:read'] });
    expect((await app.as({ bearer: tokens.access_token }).get('/users')).status).toBe(200);

    const stranger = await assertionKey('key-1');
    const refused = await oauthError(
      oidc.clientCredentialsGrant(await discover(app, clientId, oidc.PrivateKeyJwt({ key: stranger.privateKey, kid: 'key-1' }))),
    );
    expect(refused).toEqual({ error: 'invalid_client', status: 401 });
  });

  it('private_key_jwt with another asymmetric algorithm the JWKS may name (ES384)', async () => {
    const key = await assertionKey('p384', 'ES384');
    const { clientId } = await createTestClient(app, { authMethod: 'private_key_jwt', jwks: { keys: [key.jwk] } });
    const tokens = await oidc.clientCredentialsGrant(await discover(app, clientId, oidc.PrivateKeyJwt({ key: key.privateKey, kid: 'p384' })));
    expect(decodeJwt(tokens.access_token).payload.client_id).toBe(clientId);
  });

  it('private_key_jwt: a key kept with its key_ops and ext as WebCrypto exported them authenticates, ext false too', async () => {
    for (const ext of [true, false]) {
      const key = await assertionKey(`exported-${ext}`);
      const jwk: Record<string, unknown> = { ...key.jwk, ext };
      expect(jwk['key_ops']).toEqual(['verify']);
      const { clientId } = await createTestClient(app, { authMethod: 'private_key_jwt', jwks: { keys: [jwk] } });
      const stored = await app.sql<{ jwks: unknown }>('select jwks from oauth_client where id = ?', [clientId]);
      expect(stored[0]?.jwks).toEqual({ keys: [jwk] });
      const tokens = await oidc.clientCredentialsGrant(await discover(app, clientId, oidc.PrivateKeyJwt({ key: key.privateKey, kid: `exported-${ext}` })));
      expect(decodeJwt(tokens.access_token).payload.client_id).toBe(clientId);
    }
  });

  it('a replayed client assertion is refused', async () => {
    const key = await assertionKey('replay');
    const { clientId } = await createTestClient(app, { authMethod: 'private_key_jwt', jwks: { keys: [key.jwk] } });
    let assertion = '';
    const config = await discover(app, clientId, oidc.PrivateKeyJwt({ key: key.privateKey, kid: 'replay' }));
    // Keep the assertion openid-client sent, to send it again.
    config[oidc.customFetch] = async (url, options) => {
      assertion = new URLSearchParams(options.body as URLSearchParams).get('client_assertion') ?? '';
      return fetch(url, options as RequestInit);
    };
    await oidc.clientCredentialsGrant(config);
    const replayed = await withAssertion(clientId, assertion);
    expect(replayed.status).toBe(401);
    expect(replayed.body.error).toBe('invalid_client');
  });

  it('a tenant-scoped credential’s token carries tenant_id and sees that tenant’s users only', async () => {
    const { clientId, clientSecret } = await createTestClient(app, { tenantId: tenantA, permissions: ['users:read'] });
    const tokens = await oidc.clientCredentialsGrant(await discover(app, clientId, oidc.ClientSecretBasic(clientSecret)));
    expect(decodeJwt(tokens.access_token).payload).toMatchObject({ app_id: app.root.applicationId, tenant_id: tenantA });
    const bearer = app.as({ bearer: tokens.access_token });
    const users = await bearer.get('/users');
    expect(users.status).toBe(200);
    expect(users.body.data.map((user: any) => user.email)).toEqual(['ada@a.example']);
    const appPath = `/applications/${app.root.applicationId}`;
    expect((await bearer.get(`${appPath}/tenants/${tenantA}/users`)).status).toBe(200);
    expect((await bearer.get(`${appPath}/tenants/${tenantB}/users`)).status).toBe(403);
  });

  it('a credential of another application gets tokens for that application only', async () => {
    const other = await app.bootstrapAnother();
    const { clientId, clientSecret } = await createTestClient(app, { applicationId: other.applicationId, permissions: ['users:read'] });
    const tokens = await oidc.clientCredentialsGrant(await discover(app, clientId, oidc.ClientSecretBasic(clientSecret)));
    expect(decodeJwt(tokens.access_token).payload.app_id).toBe(other.applicationId);
    const bearer = app.as({ bearer: tokens.access_token });
    expect((await bearer.get('/users')).body.data).toEqual([]);
    expect((await bearer.get(`/applications/${app.root.applicationId}/users`)).status).toBe(404);
  });
});

describe('client authentication refusals', () => {
  it('a wrong secret is invalid_client (401), the right one beside it works', async () => {
    const { clientId, clientSecret } = await createTestClient(app);
    const wrong = await oauthError(oidc.clientCredentialsGrant(await discover(app, clientId, oidc.ClientSecretBasic(`${clientSecret}x`))));
    expect(wrong).toEqual({ error: 'invalid_client', status: 401 });
    await expect(oidc.clientCredentialsGrant(await discover(app, clientId, oidc.ClientSecretBasic(clientSecret)))).resolves.toBeDefined();
  });

  it('a revoked credential is invalid_client', async () => {
    const { clientId, clientSecret } = await createTestClient(app, { revoked: true });
    const refused = await postForm(tokenUrl, { grant_type: 'client_credentials' }, { authorization: basicAuth(clientId, clientSecret!) });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_client');
  });

  it('a row that cannot authenticate (secret erased, no keys for private_key_jwt) is invalid_client, not an error', async () => {
    const secretless = await createTestClient(app);
    const keyless = await createTestClient(app, { authMethod: 'private_key_jwt', jwks: { keys: [] } });
    await app.gatehouse.services.orm.em.getConnection().execute('update oauth_client set secret_encrypted = null where id = ?', [secretless.clientId]);
    const refused = await postForm(tokenUrl, { grant_type: 'client_credentials' }, { authorization: basicAuth(secretless.clientId, secretless.clientSecret!) });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_client');
    const assertion = await postForm(tokenUrl, {
      grant_type: 'client_credentials',
      client_id: keyless.clientId,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: `eyJhbGciOiJFUzI1NiJ9.${Buffer.from(JSON.stringify({ sub: keyless.clientId })).toString('base64url')}.c2ln`,
    });
    expect(assertion.status).toBe(401);
    expect(assertion.body.error).toBe('invalid_client');
  });

  it('a malformed client_assertion is 401 invalid_client (RFC 7523 3.2) at the token, revocation and introspection endpoints', async () => {
    const { clientId } = await createTestClient(app, { authMethod: 'private_key_jwt', jwks: { keys: [(await assertionKey('key-malformed')).jwk] } });
    const fields = { client_id: clientId, client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' };
    for (const assertion of ['not-a-jwt', 'a.b.c', `${b64url({ alg: 'ES256' })}.not-json.c2ln`]) {
      for (const [path, body] of [
        ['/oauth2/token', { grant_type: 'client_credentials' }],
        ['/oauth2/revoke', { token: 'x' }],
        ['/oauth2/introspect', { token: 'x' }],
      ] as const) {
        const refused = await postForm(`${issuer}${path}`, { ...body, ...fields, client_assertion: assertion });
        expect(refused.status, `${path} ${assertion}`).toBe(401);
        expect(refused.body).toMatchObject({ error: 'invalid_client', error_description: expect.any(String) });
        expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_client"/);
      }
    }
  });

  it('an unknown or malformed client_id is invalid_client', async () => {
    for (const clientId of ['0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', 'not-a-uuid']) {
      const refused = await postForm(tokenUrl, { grant_type: 'client_credentials' }, { authorization: basicAuth(clientId, 'secret') });
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('invalid_client');
    }
  });

  it('the previous secret works during its rotation grace period and not after', async () => {
    const graced = await createTestClient(app, { previousSecret: { secret: 'ghs_previous-secret-1', expiresAt: new Date(Date.now() + 60_000) } });
    const ok = await postForm(tokenUrl, { grant_type: 'client_credentials' }, { authorization: basicAuth(graced.clientId, 'ghs_previous-secret-1') });
    expect(ok.status).toBe(200);
    const current = await postForm(tokenUrl, { grant_type: 'client_credentials' }, { authorization: basicAuth(graced.clientId, graced.clientSecret!) });
    expect(current.status).toBe(200);

    const expired = await createTestClient(app, { previousSecret: { secret: 'ghs_previous-secret-2', expiresAt: new Date(Date.now() - 1000) } });
    const refused = await postForm(tokenUrl, { grant_type: 'client_credentials' }, { authorization: basicAuth(expired.clientId, 'ghs_previous-secret-2') });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_client');
  });

  it('two client authentication methods at once are invalid_request', async () => {
    const { clientId, clientSecret } = await createTestClient(app);
    const refused = await postForm(
      tokenUrl,
      { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret! },
      { authorization: basicAuth(clientId, clientSecret!) },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_request');
  });

  it('an M2M credential may not use other grants, nor a public client client credentials: unauthorized_client (RFC 6749 5.2)', async () => {
    const m2m = await createTestClient(app);
    const code = await postForm(
      tokenUrl,
      { grant_type: 'authorization_code', code: 'x', code_verifier: 'y'.repeat(43), redirect_uri: 'https://app.example/cb' },
      { authorization: basicAuth(m2m.clientId, m2m.clientSecret!) },
    );
    // RFC 6749 5.2: the authenticated client may not use this grant type.
    expect(code.status).toBe(400);
    expect(code.body).toEqual({ error: 'unauthorized_client', error_description: 'requested grant type is not allowed for this client' });

    const spa = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: ['https://app.example/cb'] });
    const credentials = await postForm(tokenUrl, { grant_type: 'client_credentials', client_id: spa.clientId });
    expect(credentials.status).toBe(400);
    expect(credentials.body).toEqual({ error: 'unauthorized_client', error_description: 'requested grant type is not allowed for this client' });
  });

  it('a scope the management API does not serve is invalid_scope, and nothing is issued; no scope (or an empty one) gets its token', async () => {
    const { clientId, clientSecret } = await createTestClient(app, { permissions: ['users:read'] });
    const config = await discover(app, clientId, oidc.ClientSecretBasic(clientSecret));
    // Permissions are not scopes, and an M2M token carries no OpenID scope.
    for (const scope of ['users:read', 'openid', 'users:read openid']) {
      expect(await oauthError(oidc.clientCredentialsGrant(config, { scope })), scope).toEqual({ error: 'invalid_scope', status: 400 });
    }
    const authorization = basicAuth(clientId, clientSecret!);
    const refused = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: 'users:read admin', resource: `${issuer}/api/v1` }, { authorization });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'invalid_scope', error_description: expect.any(String), scope: 'users:read admin' });

    for (const fields of [{}, { scope: '' }] as Record<string, string>[]) {
      const issued = await postForm(tokenUrl, { grant_type: 'client_credentials', ...fields }, { authorization });
      expect(issued.status, JSON.stringify(fields)).toBe(200);
      expect(Object.keys(issued.body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
      expect((await app.as({ bearer: issued.body.access_token }).get('/users')).status).toBe(200);
    }
  });

  it('a resource other than the management API is invalid_target', async () => {
    const { clientId, clientSecret } = await createTestClient(app);
    const refused = await postForm(
      tokenUrl,
      { grant_type: 'client_credentials', resource: 'https://api.example/' },
      { authorization: basicAuth(clientId, clientSecret!) },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_target');
    const named = await postForm(
      tokenUrl,
      { grant_type: 'client_credentials', resource: `${issuer}/api/v1` },
      { authorization: basicAuth(clientId, clientSecret!) },
    );
    expect(named.status).toBe(200);
  });
});

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

  it('refuses an RSA key over 3072 bits whose e is longer than 64 bits, which OpenSSL never verifies with', async () => {
    // 2^65 + 1: node:crypto imports such a key, and its verification of any signature answers false.
    const longExponent = Buffer.from('020000000000000001', 'hex').toString('base64url');
    const upload = (modulusLength: number) => app.http.post('/m2m-credentials', {
      name: 'long e',
      permissions: ['users:read'],
      authMethod: 'private_key_jwt',
      jwks: { keys: [jwkOf(generateKeyPairSync('rsa', { modulusLength }).publicKey, { e: longExponent })] },
    });
    const refused = await upload(4096);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'jwks.keys[0].e' });
    // Up to 3072 bits OpenSSL verifies with any exponent.
    expect((await upload(3072)).status).toBe(201);
  });
});

describe('token endpoint transport', () => {
  it('GET is 405 with Allow: POST; the password grant does not exist (OAuth error format)', async () => {
    const get = await fetch(tokenUrl);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toContain('POST');
    expect(await get.json()).toMatchObject({ error: 'invalid_request' });

    const { clientId, clientSecret } = await createTestClient(app);
    const post = await postForm(tokenUrl, { grant_type: 'password', username: 'a', password: 'b' }, { authorization: basicAuth(clientId, clientSecret!) });
    expect(post.status).toBe(400);
    expect(post.body).toMatchObject({ error: 'unsupported_grant_type' });
    expect(post.headers.get('x-ratelimit-remaining')).not.toBeNull();
  });

  it('a JSON body is refused (form encoding only) and a body over the OP’s limit too', async () => {
    const { clientId, clientSecret } = await createTestClient(app);
    const json = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth(clientId, clientSecret!) },
      body: JSON.stringify({ grant_type: 'client_credentials' }),
    });
    expect(json.status).toBe(400);
    expect(((await json.json())).error).toBe('invalid_request');

    const large = await postForm(tokenUrl, { grant_type: 'client_credentials', padding: 'x'.repeat(100_000) }, {
      authorization: basicAuth(clientId, clientSecret!),
    });
    expect(large.status).toBe(400);
    expect(large.body.error).toBe('invalid_request');
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
