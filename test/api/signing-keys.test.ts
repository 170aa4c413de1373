import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ACCESS_TOKEN_SECONDS, RETIRED_KEY_VERIFIES_MS, SigningKeyStore } from '../../src/auth/signing-keys.ts';
import { SigningKey } from '../../src/db/entities/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const header = (token: string) => JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString()) as Record<string, string>;

describe('signing keys', () => {
  it('signs ES256 at+jwt tokens that the management API accepts', async () => {
    const token = await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['applications:read'] });
    expect(header(token)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    const response = await app.as({ bearer: token }).get('/applications');
    expect(response.status).toBe(200);
    expect(response.body.data[0].id).toBe(app.root.applicationId);
  });

  it('after rotation, new tokens carry the new kid and tokens of the old key still verify until they expire', async () => {
    const keys = app.gatehouse.services.signingKeys;
    const before = await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['applications:read'] });
    const kid = await keys.rotate();
    const after = await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['applications:read'] });
    expect(header(after).kid).toBe(kid);
    expect(header(before).kid).not.toBe(kid);
    expect((await app.as({ bearer: before }).get('/applications')).status).toBe(200);
    expect((await app.as({ bearer: after }).get('/applications')).status).toBe(200);
    const published = (await keys.publicJwks()).map((jwk) => jwk.kid);
    expect(published).toEqual(expect.arrayContaining([kid, header(before).kid]));
    expect((await keys.publicJwks()).every((jwk) => !('d' in jwk))).toBe(true);
  });

  it('a retired key verifies for a token lifetime after the last moment another instance may have signed with it (its cache)', async () => {
    const keys = app.gatehouse.services.signingKeys;
    // Signed by an instance that had not yet read the rotation (its cache lasts 30 s), just before it did.
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
