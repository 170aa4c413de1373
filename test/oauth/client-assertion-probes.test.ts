import { createHmac, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createTestClient, postForm } from '../support/oauth.ts';

/** RFC 7523 client assertions a hostile or careless client may send: each is invalid_client (401), nothing issued. */
let app: TestApp;
let issuer: string;
let tokenUrl: string;

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function signJws(header: Record<string, unknown>, payload: Record<string, unknown>, key: KeyObject): string {
  const input = `${b64url(header)}.${b64url(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

const withAssertion = (clientId: string, assertion: string) =>
  postForm(tokenUrl, {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    client_assertion: assertion,
  });

const now = () => Math.floor(Date.now() / 1000);
const claims = (clientId: string, extra: Record<string, unknown> = {}) => ({ iss: clientId, sub: clientId, aud: issuer, jti: randomUUID(), exp: now() + 60, ...extra });

async function keyedClient(applicationId?: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'ES256', use: 'sig' };
  const { clientId } = await createTestClient(app, { authMethod: 'private_key_jwt', jwks: { keys: [jwk] }, permissions: ['users:read'], ...(applicationId === undefined ? {} : { applicationId }) });
  return { clientId, privateKey, jwk };
}

async function expectRefused(response: Awaited<ReturnType<typeof withAssertion>>, what: string) {
  expect(response.status, `${what}: ${JSON.stringify(response.body)}`).toBe(401);
  expect(response.body.error, what).toBe('invalid_client');
  expect(response.body.access_token, what).toBeUndefined();
}

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  tokenUrl = `${app.baseUrl}/oauth2/token`;
});
afterAll(async () => app?.close());

describe('private_key_jwt assertions that must not authenticate', () => {
  it('a well-formed assertion works (the baseline of the refusals below)', async () => {
    const { clientId, privateKey } = await keyedClient();
    const accepted = await withAssertion(clientId, signJws({ alg: 'ES256', kid: 'k1' }, claims(clientId), privateKey));
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  });

  it('another audience, expired, issued or valid only in the future, without jti, exp or sub, of another issuer', async () => {
    const { clientId, privateKey } = await keyedClient();
    const cases: [string, Record<string, unknown>][] = [
      ['another audience', claims(clientId, { aud: 'https://evil.example/oauth2/token' })],
      ['expired', claims(clientId, { exp: now() - 120, iat: now() - 180 })],
      ['issued in the future', claims(clientId, { iat: now() + 600, exp: now() + 900 })],
      ['not yet valid', claims(clientId, { nbf: now() + 600 })],
      ['no jti', { iss: clientId, sub: clientId, aud: issuer, exp: now() + 60 }],
      ['no exp', { iss: clientId, sub: clientId, aud: issuer, jti: randomUUID() }],
      ['no sub', { iss: clientId, aud: issuer, jti: randomUUID(), exp: now() + 60 }],
      ['iat not a number', claims(clientId, { iat: 'yesterday' })],
      ['iss of another client', claims(clientId, { iss: randomUUID() })],
    ];
    const answers: Record<string, number> = {};
    for (const [what, payload] of cases) answers[what] = (await withAssertion(clientId, signJws({ alg: 'ES256', kid: 'k1' }, payload, privateKey))).status;
    expect(answers).toEqual(Object.fromEntries(cases.map(([what]) => [what, 401])));
    // RFC 7523 3: the subject must be the client; the OP answers the mismatch with client_id as a malformed request.
    const otherSubject = await withAssertion(clientId, signJws({ alg: 'ES256', kid: 'k1' }, claims(clientId, { sub: randomUUID() }), privateKey));
    expect([otherSubject.status, otherSubject.body.error]).toEqual([400, 'invalid_request']);
  });

  it('algorithm confusion: alg none, HS256 keyed with the public key, a header naming another alg', async () => {
    const { clientId, privateKey, jwk } = await keyedClient();
    const payload = claims(clientId);
    const unsigned = `${b64url({ alg: 'none' })}.${b64url(payload)}.`;
    await expectRefused(await withAssertion(clientId, unsigned), 'alg none');
    const input = `${b64url({ alg: 'HS256', kid: 'k1' })}.${b64url(claims(clientId))}`;
    for (const secret of [JSON.stringify(jwk), String(jwk.x)]) {
      const hs = `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
      await expectRefused(await withAssertion(clientId, hs), 'HS256 with the public key');
    }
    await expectRefused(await withAssertion(clientId, signJws({ alg: 'ES384', kid: 'k1' }, claims(clientId), privateKey)), 'header alg ES384 on a P-256 key');
  });

  it('a key of another credential (of another application) signs nothing for this one', async () => {
    const other = await app.bootstrapAnother();
    const foreign = await keyedClient(other.applicationId);
    const { clientId } = await keyedClient();
    // Same kid, the other credential's private key: this credential's JWKS does not hold it.
    await expectRefused(await withAssertion(clientId, signJws({ alg: 'ES256', kid: 'k1' }, claims(clientId), foreign.privateKey)), 'foreign key');
    // The foreign credential's own valid assertion, presented with this client_id: the OP refuses the mismatch first.
    const mismatched = await withAssertion(clientId, signJws({ alg: 'ES256', kid: 'k1' }, claims(foreign.clientId), foreign.privateKey));
    expect([mismatched.status, mismatched.body.error, mismatched.body.access_token]).toEqual([400, 'invalid_request', undefined]);
  });

  it('a secret credential cannot authenticate with an assertion (client_secret_jwt keyed by its secret)', async () => {
    const { clientId, clientSecret } = await createTestClient(app, { authMethod: 'client_secret_basic', permissions: ['users:read'] });
    const input = `${b64url({ alg: 'HS256' })}.${b64url(claims(clientId))}`;
    const hs = `${input}.${createHmac('sha256', clientSecret!).update(input).digest('base64url')}`;
    await expectRefused(await withAssertion(clientId, hs), 'client_secret_jwt');
  });

  it('a replayed jti is refused even after the first assertion expired from the OP’s view; a new jti works', async () => {
    const { clientId, privateKey } = await keyedClient();
    const payload = claims(clientId);
    expect((await withAssertion(clientId, signJws({ alg: 'ES256', kid: 'k1' }, payload, privateKey))).status).toBe(200);
    // The same jti in a freshly signed assertion (another exp): still a replay.
    await expectRefused(await withAssertion(clientId, signJws({ alg: 'ES256', kid: 'k1' }, { ...payload, exp: payload.exp + 30 }, privateKey)), 'same jti, new exp');
  });
});
