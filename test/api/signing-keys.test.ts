import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JWK } from 'jose';
import { signJwt } from '../../src/auth/jwt.ts';
import { PUBLISHED_BEFORE_SIGNING_MS, RETIRED_KEY_VERIFIES_MS, SigningKeyStore } from '../../src/auth/signing-keys.ts';
import { SigningKey } from '../../src/db/entities/index.ts';
import type { SigningAlg } from '../../src/db/entities/signing-key.entity.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { basicAuth, createTestClient, liveM2MClaims, postForm } from '../support/oauth.ts';

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

/** The kids of the private set the OP signs with, of one algorithm, in its order (the first of each signs). */
async function opKids(store: SigningKeyStore, alg: string): Promise<string[]> {
  return (await store.privateJwks()).keys.filter((key) => key.alg === alg).map((key) => key.kid!);
}

describe('signing keys', () => {
  it('signs ES256 at+jwt tokens that the management API accepts', async () => {
    const token = await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['applications:read'] });
    expect(header(token)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    const response = await app.as({ bearer: token }).get('/applications');
    expect(response.status).toBe(200);
    expect(response.body.data[0].id).toBe(app.root.applicationId);
  });

  it('holds one active key per algorithm: ES256 signs access tokens, an RSA 2048 key (RS256) is published beside it', async () => {
    const published = (await jwks()) as unknown as JWK[];
    expect(published.map((key) => key.alg).sort()).toEqual(['ES256', 'RS256']);
    const rsa = published.find((key) => key.alg === 'RS256')!;
    expect(rsa).toMatchObject({ kty: 'RSA', e: 'AQAB', use: 'sig' });
    expect(Buffer.from(rsa.n!, 'base64url').length * 8).toBe(2048);
    // The OP's set leads with the key that signs access tokens; each algorithm's signing key comes before the others.
    const { keys } = await app.gatehouse.services.signingKeys.privateJwks();
    expect(keys.map((key) => key.alg)).toEqual(['ES256', 'RS256']);
  });

  it('refuses a Bearer token signed with the RS256 key: access tokens are ES256 only', async () => {
    const { signingKeys, config } = app.gatehouse.services;
    const live = await liveM2MClaims(app, { app_id: app.root.applicationId, permissions: ['applications:read'] });
    const sign = (key: JWK) =>
      signJwt(key, live.claims, { issuer: config.publicUrl, audience: signingKeys.managementAudience, subject: live.subject, expiresInSeconds: 300 });
    const [es256, rs256] = (await signingKeys.privateJwks()).keys as [JWK, JWK];
    expect((await app.as({ bearer: await sign(es256) }).get('/applications')).status).toBe(200);
    const refused = await app.as({ bearer: await sign(rs256) }).get('/applications');
    expect(header(await sign(rs256))).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('unauthenticated');
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
    const oldRsaKid = (await opKids(keys, 'RS256'))[0];
    const {
      kids: { ES256: kid, RS256: rsaKid },
      signsFrom,
    } = await keys.rotate();
    expect(kid).not.toBe(oldKid);
    expect(rsaKid).not.toBe(oldRsaKid);
    // Every instance re-reads the keys within 30 s: by then each publishes the new key, well before it signs.
    expect(PUBLISHED_BEFORE_SIGNING_MS).toBeGreaterThan(30_000);
    expect(signsFrom.getTime()).toBeGreaterThanOrEqual(startedAt + PUBLISHED_BEFORE_SIGNING_MS);

    // Published at once by the instance that rotated, at the JWKS endpoint as in the store...
    expect((await keys.publicJwks()).map((jwk) => jwk.kid)).toEqual(expect.arrayContaining([kid, oldKid]));
    expect((await jwks()).map((jwk) => jwk.kid)).toEqual(expect.arrayContaining([kid, oldKid, rsaKid, oldRsaKid]));
    expect((await keys.publicJwks()).every((jwk) => !('d' in jwk))).toBe(true);
    // The RS256 key with it: published, not yet signing (the OP signs with the first key of the algorithm).
    expect(await opKids(keys, 'RS256')).toEqual([oldRsaKid, rsaKid]);
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
      expect((await jwks()).map((jwk) => jwk.kid)).toEqual(expect.arrayContaining([kid, oldKid, rsaKid, oldRsaKid]));
      expect(await opKids(keys, 'RS256')).toEqual([rsaKid, oldRsaKid]);
      expect(await opKids(other, 'RS256')).toEqual([rsaKid, oldRsaKid]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a rotation at once (a leaked key) signs with the new key at once', async () => {
    const keys = app.gatehouse.services.signingKeys;
    const { kids, signsFrom } = await keys.rotate({ at: 'once' });
    const kid = kids.ES256;
    expect(signsFrom.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await opKids(keys, 'RS256'))[0]).toBe(kids.RS256);
    expect(header(await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['applications:read'] })).kid).toBe(kid);
    expect(header(await clientCredentialsToken()).kid).toBe(kid);
  });

  it('a rotation revoking the old keys (a leak): what they signed is refused at once, they leave the JWKS and sign nothing more', async () => {
    const keys = app.gatehouse.services.signingKeys;
    const before = await clientCredentialsToken();
    const leaked = header(before).kid!;
    const [leakedRsa] = await opKids(keys, 'RS256');
    expect((await app.as({ bearer: before }).get('/applications')).status).toBe(200);
    // A token anyone holding the leaked key could sign, for a live credential.
    const live = await liveM2MClaims(app, { app_id: app.root.applicationId, permissions: ['*'] });
    const [leakedJwk] = (await keys.privateJwks()).keys.filter((key) => key.kid === leaked);
    const forged = await signJwt(leakedJwk!, live.claims, { issuer: app.gatehouse.services.config.publicUrl, audience: keys.managementAudience, subject: live.subject, expiresInSeconds: 300 });
    expect((await app.as({ bearer: forged }).get('/applications')).status).toBe(200);

    const { kids } = await keys.rotate({ revoke: true });
    // Another instance, once its cache has expired, reads the same.
    const other = new SigningKeyStore(app.gatehouse.services.orm.em.fork(), app.gatehouse.services.config.publicUrl);
    for (const token of [before, forged]) {
      const refused = await app.as({ bearer: token }).get('/applications');
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe('unauthenticated');
      await expect(other.verifyAccessToken(token)).rejects.toThrow();
    }
    for (const published of [await jwks(), await other.publicJwks()]) {
      expect(published.map((jwk) => jwk.kid)).not.toContain(leaked);
      expect(published.map((jwk) => jwk.kid)).not.toContain(leakedRsa);
    }
    expect(await opKids(keys, 'RS256')).toEqual([kids.RS256]);
    const after = await clientCredentialsToken();
    expect(header(after).kid).toBe(kids.ES256);
    expect((await app.as({ bearer: after }).get('/applications')).status).toBe(200);
    const statuses = await app.gatehouse.services.orm.em.fork().find(SigningKey, { kid: { $in: [leaked, leakedRsa!] } });
    expect(statuses.map((key) => key.status)).toEqual(['revoked', 'revoked']);
  });

  it('a retired key verifies as long as a session that saw it sign may last (its ID tokens are hints), and a cache period more', async () => {
    const keys = app.gatehouse.services.signingKeys;
    // Signed by an instance that had not yet read a rotation at once (its cache lasts 30 s), just before it did.
    const token = await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['applications:read'] });
    const kid = header(token).kid!;
    // The RS256 key (ID tokens) is retired by the same rotation, by the same rules.
    const [rsaKid] = await opKids(keys, 'RS256');
    await keys.rotate();
    const retireAgo = async (ms: number) => {
      await app.sql('update signing_key set retired_at = ? where kid in (?, ?)', [new Date(Date.now() - ms), kid, rsaKid]);
      // Another instance reading the keys afresh.
      return new SigningKeyStore(app.gatehouse.services.orm.em.fork(), app.gatehouse.services.config.publicUrl);
    };
    // Long past every token it signed: a year's session policy still stands the sign-ins it saw.
    const late = await retireAgo(RETIRED_KEY_VERIFIES_MS - 20_000);
    expect(RETIRED_KEY_VERIFIES_MS).toBeGreaterThanOrEqual(365 * 24 * 3600_000);
    expect((await late.publicJwks()).map((jwk) => jwk.kid)).toEqual(expect.arrayContaining([kid, rsaKid]));
    const gone = await retireAgo(RETIRED_KEY_VERIFIES_MS + 1_000);
    expect((await gone.publicJwks()).map((jwk) => jwk.kid)).not.toContain(kid);
    expect((await gone.publicJwks()).map((jwk) => jwk.kid)).not.toContain(rsaKid);
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

  // Last: they replace the keys the tests above signed with.
  it('a database with only an ES256 key gets its RS256 key on start, once, however many instances start together', async () => {
    const orm = app.gatehouse.services.orm;
    const instances = () => Array.from({ length: 6 }, () => new SigningKeyStore(orm.em, app.gatehouse.services.config.publicUrl));
    // A database made before RS256: its one active ES256 key, and retired ones still verifying.
    await orm.em.fork().nativeDelete(SigningKey, { alg: 'RS256' });
    const before = await orm.em.fork().find(SigningKey, {}, { orderBy: { createdAt: 'asc' } });
    expect(before.filter((key) => key.status === 'active').map((key) => key.alg)).toEqual(['ES256']);
    // The test app's own store among them: the one behind its JWKS endpoint.
    await Promise.all([app.gatehouse.services.signingKeys, ...instances()].map((store) => store.ensureActiveKey()));
    const after = await orm.em.fork().find(SigningKey, {}, { orderBy: { createdAt: 'asc' } });
    // The ES256 keys untouched (not rotated), and one RS256 key, active and signing from its creation.
    expect(after.filter((key) => key.alg === 'ES256').map(({ kid, status }) => ({ kid, status }))).toEqual(before.map(({ kid, status }) => ({ kid, status })));
    const added = after.filter((key) => key.alg === 'RS256');
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ status: 'active', signsFrom: null });
    // Another start finds nothing missing.
    await Promise.all(instances().map((store) => store.ensureActiveKey()));
    expect(await orm.em.fork().count(SigningKey, {})).toBe(after.length);
    // The OP signs and publishes with it at once.
    expect(await opKids(instances()[0]!, 'RS256')).toEqual([added[0]!.kid]);
    expect((await jwks()).map((key) => key.kid)).toContain(added[0]!.kid);
  });

  it('leaves one active key per algorithm when instances start together on a database without one, or rotate together', async () => {
    const orm = app.gatehouse.services.orm;
    const instances = () => Array.from({ length: 6 }, () => new SigningKeyStore(orm.em, app.gatehouse.services.config.publicUrl));
    const active = async (alg: SigningAlg) => orm.em.fork().count(SigningKey, { status: 'active', alg });
    await orm.em.fork().nativeDelete(SigningKey, {});
    await Promise.all(instances().map((store) => store.ensureActiveKey()));
    expect([await active('ES256'), await active('RS256')]).toEqual([1, 1]);
    expect(await orm.em.fork().count(SigningKey, {})).toBe(2);
    await Promise.all(instances().map((store) => store.rotate()));
    expect([await active('ES256'), await active('RS256')]).toEqual([1, 1]);
    expect(await orm.em.fork().count(SigningKey, {})).toBe(14);
  });
});
