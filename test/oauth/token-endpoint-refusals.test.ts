import { webcrypto } from 'node:crypto';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createTestClient, discover, postForm } from '../support/oauth.ts';

/** Client authentication at the token and revocation endpoints: one assertion authenticates once, and none is none. */
let app: TestApp;
let tokenUrl: string;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  tokenUrl = `${app.baseUrl}/oauth2/token`;
});
afterAll(async () => app?.close());

describe('private_key_jwt client assertions (RFC 7523 3, docs/decisions.md: a replayed assertion jti is refused)', () => {
  it('the same assertion sent many times at once authenticates exactly once', async () => {
    const { privateKey, publicKey } = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const jwk = { ...(await webcrypto.subtle.exportKey('jwk', publicKey)), kid: 'race', alg: 'ES256', use: 'sig' };
    const { clientId } = await createTestClient(app, { authMethod: 'private_key_jwt', jwks: { keys: [jwk] } });
    let assertion = '';
    const config = await discover(app, clientId, oidc.PrivateKeyJwt({ key: privateKey, kid: 'race' }));
    // Capture an assertion openid-client signs, without sending it.
    config[oidc.customFetch] = async (_url, options) => {
      assertion = new URLSearchParams(options.body as URLSearchParams).get('client_assertion') ?? '';
      return new Response(JSON.stringify({ error: 'invalid_request' }), { status: 400, headers: { 'content-type': 'application/json' } });
    };
    await oidc.clientCredentialsGrant(config).catch(() => undefined);
    expect(assertion).not.toBe('');
    const fields = {
      grant_type: 'client_credentials',
      client_id: clientId,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
    };
    // Open the connections first, so that the requests arrive together.
    await Promise.all(Array.from({ length: 20 }, () => fetch(`${app.baseUrl}/.well-known/jwks.json`).then((response) => response.text())));
    const answers = await Promise.all(Array.from({ length: 20 }, () => postForm(tokenUrl, fields)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(19).fill(401)]);
    expect(answers.filter((answer) => answer.status === 401).every((answer) => answer.body.error === 'invalid_client')).toBe(true);
    // And sent again later: still refused.
    expect((await postForm(tokenUrl, fields)).status).toBe(401);
  });
});

describe('replay markers', () => {
  it('of concurrent first uses of one jti exactly one is unique', async () => {
    const { provider } = await app.gatehouse.services.oidc.get();
    const exp = Math.floor(Date.now() / 1000) + 60;
    const answers = await Promise.allSettled(Array.from({ length: 10 }, () => provider.ReplayDetection.unique('client', 'jti-race', exp)));
    // The first use is unique; every other one reads as used (false) or is refused as a replay.
    expect(answers.filter((answer) => answer.status === 'fulfilled' && answer.value === true)).toHaveLength(1);
  });
});

describe('a request that authenticates no client (RFC 6749 5.2: "no client authentication included" is invalid_client)', () => {
  it('is invalid_client with a challenge at the token and revocation endpoints', async () => {
    for (const [path, fields] of [
      ['/oauth2/token', { grant_type: 'client_credentials' }],
      ['/oauth2/revoke', { token: 'some-token' }],
    ] as const) {
      const refused = await postForm(`${app.baseUrl}${path}`, fields);
      expect({ path, status: refused.status, error: refused.body.error }).toEqual({ path, status: 401, error: 'invalid_client' });
      expect(refused.headers.get('www-authenticate')).toMatch(/^Basic realm=.*error="invalid_client"/);
    }
  });
});
