import { webcrypto } from 'node:crypto';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { basicAuth, discover, postForm } from '../support/oauth.ts';
import { secondInstance, settled, TWO_INSTANCES } from '../support/second-instance.ts';

/**
 * The OP remembers the client metadata it read (src/oidc/client-cache.ts). The cache lives a minute here, so every
 * refusal below can only come from an invalidation: a rotated, revoked, changed or deleted client (or the deletion of
 * its tenant) stops working at once, on this instance and, through Redis, on the others.
 */
const CACHE_MS = 60_000;
const REDIRECT_URI = 'https://app.example.com/callback';
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ oauthClientCacheMs: CACHE_MS }, { reachablePublicUrl: true });
});
afterAll(async () => app?.close());

/** A client-credentials grant against `baseUrl`: its status (200, or 401 invalid_client). */
async function grant(clientId: string, secret: string, baseUrl = app.baseUrl): Promise<number> {
  const response = await postForm(`${baseUrl}/oauth2/token`, { grant_type: 'client_credentials' }, { authorization: basicAuth(clientId, secret) });
  if (response.status !== 200) expect(response.body.error).toBe('invalid_client');
  return response.status;
}

/** An M2M credential that has obtained a token once, so that the cache holds it. */
async function warmCredential(body: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
  const created = await app.http.post('/m2m-credentials', { name: 'Cached worker', permissions: ['users:read'], ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const credential = { id: created.body.id as string, secret: created.body.clientSecret as string };
  expect(await grant(credential.id, credential.secret)).toBe(200);
  return credential;
}

/** A web client's authentication at the revocation endpoint (RFC 7009: 200 for any token once authenticated). */
async function authenticatesAt(clientId: string, secret: string): Promise<number> {
  const response = await postForm(`${app.baseUrl}/oauth2/revoke`, { token: 'not-a-token' }, { authorization: basicAuth(clientId, secret) });
  return response.status;
}

async function warmWebClient(): Promise<{ id: string; secret: string }> {
  const created = await app.http.post('/oauth-clients', { name: 'Cached web', type: 'web', redirectUris: [REDIRECT_URI, `${REDIRECT_URI}2`] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const client = { id: created.body.id as string, secret: created.body.clientSecret as string };
  expect(await authenticatesAt(client.id, client.secret)).toBe(200);
  return client;
}

/** The OP's answer to an authorization request for `redirectUri`: a redirect to the hosted sign-in, or an error page. */
async function authorizeStatus(clientId: string, redirectUri: string): Promise<number> {
  const url = new URL(`${app.baseUrl}/oauth2/authorize`);
  url.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
  }).toString();
  const response = await fetch(url, { redirect: 'manual' });
  await response.body?.cancel();
  return response.status;
}

describe('the OAuth client cache on one instance', () => {
  it('refuses a rotated M2M secret at once and accepts the new one', async () => {
    const credential = await warmCredential();
    const rotated = await app.http.post(`/m2m-credentials/${credential.id}/rotate`, { gracePeriodSeconds: 0 });
    expect(rotated.status).toBe(200);
    expect(await grant(credential.id, credential.secret)).toBe(401);
    expect(await grant(credential.id, rotated.body.clientSecret)).toBe(200);
  });

  it('keeps the replaced secret working during the grace period of a rotation', async () => {
    const credential = await warmCredential();
    const rotated = await app.http.post(`/m2m-credentials/${credential.id}/rotate`, { gracePeriodSeconds: 3600 });
    expect(await grant(credential.id, credential.secret)).toBe(200);
    expect(await grant(credential.id, rotated.body.clientSecret)).toBe(200);
    // A second rotation ends the first secret's grace at once.
    await app.http.post(`/m2m-credentials/${credential.id}/rotate`, { gracePeriodSeconds: 0 });
    expect(await grant(credential.id, credential.secret)).toBe(401);
    expect(await grant(credential.id, rotated.body.clientSecret)).toBe(401);
  });

  it('refuses a revoked M2M credential at once', async () => {
    const credential = await warmCredential();
    expect((await app.http.delete(`/m2m-credentials/${credential.id}`)).status).toBe(204);
    expect(await grant(credential.id, credential.secret)).toBe(401);
  });

  it('refuses the replaced keys of a private_key_jwt credential at once', async () => {
    const key = async (kid: string) => {
      const { privateKey, publicKey } = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
      return { privateKey, kid, jwk: { ...(await webcrypto.subtle.exportKey('jwk', publicKey)), kid, alg: 'ES256', use: 'sig' } };
    };
    const [first, second] = [await key('first'), await key('second')];
    const created = await app.http.post('/m2m-credentials', { name: 'JWT worker', permissions: ['users:read'], authMethod: 'private_key_jwt', jwks: { keys: [first.jwk] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const signedWith = async (signer: typeof first) => {
      const config = await discover(app, created.body.id, oidc.PrivateKeyJwt({ key: signer.privateKey, kid: signer.kid }));
      return oidc.clientCredentialsGrant(config).then(
        () => 200,
        (error: unknown) => {
          if (error instanceof oidc.ResponseBodyError || error instanceof oidc.WWWAuthenticateChallengeError) return error.status;
          throw error;
        },
      );
    };
    expect(await signedWith(first)).toBe(200);
    expect((await app.http.put(`/m2m-credentials/${created.body.id}/jwks`, { keys: [second.jwk] })).status).toBe(200);
    expect(await signedWith(first)).toBe(401);
    expect(await signedWith(second)).toBe(200);
  });

  it('refuses the credentials of a deleted tenant at once, and leaves the others alone', async () => {
    const tenantId = await app.createTenant('Cached tenant');
    const credential = await warmCredential({ tenantId });
    const bystander = await warmCredential();
    expect((await app.http.delete(`/applications/${app.root.applicationId}/tenants/${tenantId}`)).status).toBe(204);
    expect(await grant(credential.id, credential.secret)).toBe(401);
    expect(await grant(bystander.id, bystander.secret)).toBe(200);
  });

  it('refuses a web client’s rotated secret at once', async () => {
    const client = await warmWebClient();
    const rotated = await app.http.post(`/oauth-clients/${client.id}/rotate-secret`, { gracePeriodSeconds: 0 });
    expect(rotated.status).toBe(200);
    expect(await authenticatesAt(client.id, client.secret)).toBe(401);
    expect(await authenticatesAt(client.id, rotated.body.clientSecret)).toBe(200);
  });

  it('applies a change of redirect URIs at once', async () => {
    const client = await warmWebClient();
    expect(await authorizeStatus(client.id, `${REDIRECT_URI}2`)).toBe(303);
    expect((await app.http.patch(`/oauth-clients/${client.id}`, { redirectUris: [REDIRECT_URI] })).status).toBe(200);
    expect(await authorizeStatus(client.id, `${REDIRECT_URI}2`)).toBe(400);
    expect(await authorizeStatus(client.id, REDIRECT_URI)).toBe(303);
  });

  it('forgets a deleted client at once', async () => {
    const client = await warmWebClient();
    expect((await app.http.delete(`/oauth-clients/${client.id}`)).status).toBe(204);
    expect(await authenticatesAt(client.id, client.secret)).toBe(401);
    expect(await authorizeStatus(client.id, REDIRECT_URI)).toBe(400);
  });
});

describe.runIf(TWO_INSTANCES)('the OAuth client cache across instances (Redis)', () => {
  const second = secondInstance(() => app);

  const grantOnSecondOnceSettled = (clientId: string, secret: string, expected: number) =>
    settled(() => grant(clientId, secret, second.url()), (status) => status === expected);

  it('a secret rotated on one instance stops working on the other, whose cache held it', async () => {
    const credential = await warmCredential();
    expect(await grant(credential.id, credential.secret, second.url())).toBe(200);
    const rotated = await app.http.post(`/m2m-credentials/${credential.id}/rotate`, { gracePeriodSeconds: 0 });
    expect(rotated.status).toBe(200);
    expect(await grantOnSecondOnceSettled(credential.id, credential.secret, 401)).toBe(401);
    expect(await grant(credential.id, rotated.body.clientSecret, second.url())).toBe(200);
  });

  it('a credential revoked on one instance stops working on the other', async () => {
    const credential = await warmCredential();
    expect(await grant(credential.id, credential.secret, second.url())).toBe(200);
    expect((await app.http.delete(`/m2m-credentials/${credential.id}`)).status).toBe(204);
    expect(await grantOnSecondOnceSettled(credential.id, credential.secret, 401)).toBe(401);
  });
});
