import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { codeAuthorizationUrl, postForm } from '../support/oauth.ts';

let app: TestApp;
let issuer: string;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
});
afterAll(async () => app?.close(), 30_000);

describe('OAuth clients the OP would refuse', () => {
  it('refuses claimed-https redirect URIs on a loopback host for native clients (RFC 8252 7.2; the OP refuses such a client)', async () => {
    for (const uri of ['https://localhost/cb', 'https://127.0.0.1:8443/cb', 'https://[::1]/cb']) {
      const created = await app.http.post('/oauth-clients', { name: 'app', type: 'native', redirectUris: ['com.example.app:/cb', uri] });
      expect(created.status, uri).toBe(422);
      expect(created.body).toMatchObject({ code: 'validation_error', field: 'redirectUris[1]' });
      const postLogout = await app.http.post('/oauth-clients', { name: 'app', type: 'native', redirectUris: ['com.example.app:/cb'], postLogoutRedirectUris: [uri] });
      expect(postLogout.status, uri).toBe(422);
      expect(postLogout.body.field).toBe('postLogoutRedirectUris[0]');
    }
    const client = (await app.http.post('/oauth-clients', { name: 'app', type: 'native', redirectUris: ['com.example.app:/cb'] })).body;
    const patched = await app.http.patch(`/oauth-clients/${client.clientId}`, { redirectUris: ['https://localhost/cb'] });
    expect(patched.status).toBe(422);
    expect(patched.body.field).toBe('redirectUris[0]');
    // Claimed https on a real host, and the loopback over http, stay accepted; web and spa keep https://localhost.
    expect((await app.http.post('/oauth-clients', { name: 'ok', type: 'native', redirectUris: ['https://app.example.com/cb', 'http://127.0.0.1:5000/cb'] })).status).toBe(201);
    expect((await app.http.post('/oauth-clients', { name: 'ok', type: 'spa', redirectUris: ['https://localhost:5173/cb'] })).status).toBe(201);
  });

  it('answers an authorization request for a client whose stored metadata the OP refuses, instead of leaving it hanging', async () => {
    const client = (await app.http.post('/oauth-clients', { name: 'app', type: 'native', redirectUris: ['com.example.app:/cb'] })).body;
    // A row stored before the API refused such URIs (or any metadata oidc-provider's schema rejects).
    await app.sql(`update oauth_client set redirect_uris = '{https://localhost/cb}' where id = ?`, [client.clientId]);
    await app.gatehouse.services.invalidations.publish({ kind: 'oauth_client', id: client.clientId });
    const response = await fetch(codeAuthorizationUrl(issuer, client.clientId, 'https://localhost/cb'), {
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    await response.text();
  });
});

/** An RSA "public key" of 2048 bits with exponent `e` (base64url) and a random modulus: no private key exists for it. */
function rsaWithExponent(kid: string, e: string, bytes = 256) {
  const n = Buffer.concat([Buffer.from([0xc0]), randomBytes(bytes - 1)]);
  n[bytes - 1]! |= 1;
  return { kty: 'RSA', kid, n: n.toString('base64url'), e };
}

/** An RS256 JWT "signed" for a key with e = 1: the signature is the PKCS #1 v1.5 encoding of the hash itself. */
function forgedRs256(kid: string, claims: Record<string, unknown>, bytes = 256): string {
  const input = `${Buffer.from(JSON.stringify({ alg: 'RS256', kid })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  const digestInfo = Buffer.concat([Buffer.from('3031300d060960864801650304020105000420', 'hex'), createHash('sha256').update(input).digest()]);
  const encoded = Buffer.concat([Buffer.from([0, 1]), Buffer.alloc(bytes - 3 - digestInfo.length, 0xff), Buffer.from([0]), digestInfo]);
  return `${input}.${encoded.toString('base64url')}`;
}

describe('M2M credential keys that would authenticate anyone, or nobody', () => {
  /** A client-credentials request of `clientId` authenticated by a forged RS256 assertion for the key `kid` with e = 1. */
  const forgedAssertionRequest = (clientId: string, kid: string) =>
    postForm(`${app.baseUrl}/oauth2/token`, {
      grant_type: 'client_credentials',
      client_id: clientId,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: forgedRs256(kid, { iss: clientId, sub: clientId, aud: issuer, exp: Math.floor(Date.now() / 1000) + 60, jti: crypto.randomUUID() }),
    });

  it('refuses an RSA key whose exponent is not an odd number of at least 3: with e = 1 anyone who reads the JWKS signs for it', async () => {
    const created = await app.http.post('/m2m-credentials', {
      name: 'e1',
      permissions: ['users:read'],
      authMethod: 'private_key_jwt',
      jwks: { keys: [rsaWithExponent('k1', 'AQ')] },
    });
    expect(created.status).toBe(422);
    expect(created.body).toMatchObject({ code: 'validation_error', field: 'jwks.keys[0].e' });
    const credential = (await app.http.post('/m2m-credentials', { name: 'ok', permissions: ['users:read'], authMethod: 'private_key_jwt', jwks: { keys: [rsaWithExponent('k', 'AQAB')] } })).body;
    for (const e of ['AQ', 'Ag', 'AAE', 'AQAA']) {
      const put = await app.http.put(`/m2m-credentials/${credential.id}/jwks`, { keys: [rsaWithExponent('k', e)] });
      expect(put.status, e).toBe(422);
      expect(put.body.field).toBe('keys[0].e');
    }
    expect((await app.http.put(`/m2m-credentials/${credential.id}/jwks`, { keys: [rsaWithExponent('k', 'Aw')] })).status).toBe(200);
  });

  it('does not authenticate with a stored key that fails today’s checks (an e = 1 key stored before they existed)', async () => {
    const credential = (await app.http.post('/m2m-credentials', { name: 'old', permissions: ['users:read'], authMethod: 'private_key_jwt', jwks: { keys: [rsaWithExponent('k', 'AQAB')] } })).body;
    const clientId = credential.clientId as string;
    // The forged assertion's check itself: refused while the key is sound.
    expect((await forgedAssertionRequest(clientId, 'weak')).status).toBe(401);
    await app.sql(`update oauth_client set jwks = ?::jsonb where id = ?`, [JSON.stringify({ keys: [rsaWithExponent('weak', 'AQ'), rsaWithExponent('k', 'AQAB')] }), clientId]);
    await app.gatehouse.services.invalidations.publish({ kind: 'oauth_client', id: clientId });
    const forged = await forgedAssertionRequest(clientId, 'weak');
    expect(forged.status, `a forged assertion got ${JSON.stringify(forged.body)}`).toBe(401);
    expect(forged.body.error).toBe('invalid_client');
    // With only the weak key stored, the credential has no key to authenticate with at all.
    await app.sql(`update oauth_client set jwks = ?::jsonb where id = ?`, [JSON.stringify({ keys: [rsaWithExponent('weak', 'AQ')] }), clientId]);
    await app.gatehouse.services.invalidations.publish({ kind: 'oauth_client', id: clientId });
    expect((await forgedAssertionRequest(clientId, 'weak')).status).toBe(401);
  });

  it('refuses an RSA modulus above 16384 bits, which OpenSSL never verifies with', async () => {
    const created = await app.http.post('/m2m-credentials', {
      name: 'huge',
      permissions: ['users:read'],
      authMethod: 'private_key_jwt',
      jwks: { keys: [rsaWithExponent('k1', 'AQAB', 2049)] },
    });
    expect(created.status).toBe(422);
    expect(created.body.field).toBe('jwks.keys[0]');
  });
});
