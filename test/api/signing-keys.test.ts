import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_ACCESS_TOKEN_SECONDS, PUBLISHED_BEFORE_SIGNING_MS, RETIRED_KEY_VERIFIES_MS, SigningKeyStore } from '../../src/auth/signing-keys.ts';
import { SigningKey } from '../../src/db/entities/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { basicAuth, createTestClient, postForm } from '../support/oauth.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

/** The service's published key set, as relying parties fetch it. */
async function jwks(): Promise<{ kid: string }[]> {
  const response = await fetch(`${app.baseUrl}/.well-known/jwks.json`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { keys: { kid: string }[] }).keys;
}

/** An access token from the OP's token endpoint (client credentials, for the management API). */
async function clientCredentialsToken(): Promise<string> {
  const { clientId, clientSecret } = await createTestClient(app, { permissions: ['applications:read'] });
  const response = await postForm(`${app.baseUrl}/oauth2/token`, { grant_type: 'client_credentials' }, { authorization: basicAuth(clientId, clientSecret!) });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.access_token as string;
}

const header = (token: string) => JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString()) as Record<string, string>;

describe('signing keys', () => {
  it('signs ES256 at+jwt tokens that the management API accepts', async () => {
    const token = await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['applications:read'] });
    expect(header(token)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    const response = await app.as({ bearer: token }).get('/applications');
    expect(response.status).toBe(200);
    expect(response.body.data[0].id).toBe(app.root.applicationId);
  });

  it('a rotated-in key is published at once by every instance, and signs only after a cache period and a margin', async () => {
    const { orm, config } = app.gatehouse.services;
    const keys = app.gatehouse.services.signingKeys;
    // Another instance behind the same load balancer, which read the keys just before the rotation (its cache lasts 30 s).
    const other = new SigningKeyStore(orm.em.fork(), config.publicUrl);
    const before = await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['applications:read'] });
    const oldKid = header(before).kid!;
    await other.publicJwks();
    const startedAt = Date.now();
    const { kid, signsFrom } = await keys.rotate();
    expect(kid).not.toBe(oldKid);
    // Every instance re-reads the keys within 30 s: by then each publishes the new key, well before it signs.
    expect(PUBLISHED_BEFORE_SIGNING_MS).toBeGreaterThan(30_000);
    expect(signsFrom.getTime()).toBeGreaterThanOrEqual(startedAt + PUBLISHED_BEFORE_SIGNING_MS);

    // Published at once by the instance that rotated, at the JWKS endpoint as in the store...
    expect((await keys.publicJwks()).map((jwk) => jwk.kid)).toEqual(expect.arrayContaining([kid, oldKid]));
    expect((await jwks()).map((jwk) => jwk.kid)).toEqual(expect.arrayContaining([kid, oldKid]));
    expect((await keys.publicJwks()).every((jwk) => !('d' in jwk))).toBe(true);
    // ...but neither it, its OP, nor the instance that has not read it yet signs with it: an RP that fetched the other
    // instance's set could not verify it.
    expect(header(await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['applications:read'] })).kid).toBe(oldKid);
    expect(header(await clientCredentialsToken()).kid).toBe(oldKid);
    expect((await other.publicJwks()).map((jwk) => jwk.kid)).not.toContain(kid);
    expect(header(await other.signAccessToken('user', { app_id: app.root.applicationId, permissions: [] })).kid).toBe(oldKid);

    // A minute later (the clock moved on past `signsFrom`; every cache has expired): every instance and the OP sign with
    // it, and the old key's tokens still verify.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      vi.setSystemTime(signsFrom.getTime() + 1_000);
      expect(header(await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['applications:read'] })).kid).toBe(kid);
      expect(header(await other.signAccessToken('user', { app_id: app.root.applicationId, permissions: [] })).kid).toBe(kid);
      const fromOp = await clientCredentialsToken();
      expect(header(fromOp).kid).toBe(kid);
      expect((await app.as({ bearer: fromOp }).get('/applications')).status).toBe(200);
      expect((await app.as({ bearer: before }).get('/applications')).status).toBe(200);
      expect((await jwks()).map((jwk) => jwk.kid)).toEqual(expect.arrayContaining([kid, oldKid]));
    } finally {
      vi.useRealTimers();
    }
  });

  it('a rotation at once (a leaked key) signs with the new key at once', async () => {
    const keys = app.gatehouse.services.signingKeys;
    const { kid, signsFrom } = await keys.rotate({ at: 'once' });
    expect(signsFrom.getTime()).toBeLessThanOrEqual(Date.now());
    expect(header(await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['applications:read'] })).kid).toBe(kid);
    expect(header(await clientCredentialsToken()).kid).toBe(kid);
  });

  it('a retired key verifies for a token lifetime after its retirement, and a cache period more (a clock behind, a rotation at once)', async () => {
    const keys = app.gatehouse.services.signingKeys;
    // Signed by an instance that had not yet read a rotation at once (its cache lasts 30 s), just before it did.
    const token = await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['applications:read'] });
    const kid = header(token).kid!;
    await keys.rotate();
    const retireAgo = async (ms: number) => {
      await app.gatehouse.services.orm.em.getConnection().execute('update signing_key set retired_at = ? where kid = ?', [new Date(Date.now() - ms), kid]);
      // Another instance reading the keys afresh.
      return new SigningKeyStore(app.gatehouse.services.orm.em.fork(), app.gatehouse.services.config.publicUrl);
    };
    const late = await retireAgo(MAX_ACCESS_TOKEN_SECONDS * 1000 + 20_000);
    expect((await late.publicJwks()).map((jwk) => jwk.kid)).toContain(kid);
    const gone = await retireAgo(RETIRED_KEY_VERIFIES_MS + 1_000);
    expect((await gone.publicJwks()).map((jwk) => jwk.kid)).not.toContain(kid);
  });

  it('refuses alg none, a tampered payload, and a token of another audience', async () => {
    const valid = await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['*'] });
    const [head, payload] = valid.split('.') as [string, string];
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`;
    const widened = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    widened['app_id'] = '00000000-0000-7000-8000-000000000000';
    const tampered = `${head}.${Buffer.from(JSON.stringify(widened)).toString('base64url')}.${valid.split('.')[2]}`;
    const otherAudience = await app.gatehouse.services.signingKeys.signAccessToken('user', { app_id: app.root.applicationId, permissions: ['*'] }, { audience: 'https://customer.example/api' });
    for (const token of [none, tampered, 'not.a.jwt', otherAudience]) {
      const response = await app.as({ bearer: token }).get('/applications');
      expect(response.status, token).toBe(401);
      expect(response.body.code).toBe('unauthenticated');
    }
  });

  // Last: it replaces the keys the tests above signed with.
  it('leaves one active key when instances start together on a database without one, or rotate together', async () => {
    const orm = app.gatehouse.services.orm;
    const instances = () => Array.from({ length: 6 }, () => new SigningKeyStore(orm.em, app.gatehouse.services.config.publicUrl));
    const active = () => orm.em.fork().count(SigningKey, { status: 'active' });
    await orm.em.fork().nativeDelete(SigningKey, {});
    await Promise.all(instances().map((store) => store.ensureActiveKey()));
    expect(await active()).toBe(1);
    expect(await orm.em.fork().count(SigningKey, {})).toBe(1);
    await Promise.all(instances().map((store) => store.rotate()));
    expect(await active()).toBe(1);
  });
});
