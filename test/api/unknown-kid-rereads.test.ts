import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKey, signJwt } from '../../src/auth/jwt.ts';
import { UNKNOWN_KID_REREAD_MS } from '../../src/auth/signing-keys.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { liveM2MClaims } from '../support/oauth.ts';

/** Forged Bearer tokens cost no more than any refused request: an unknown kid re-reads the signing keys at most once per UNKNOWN_KID_REREAD_MS. */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const signingKeyReads = () => app.queries.filter((query) => /from "signing_key"/.test(query)).length;

describe('forged Bearer tokens', () => {
  it('a token naming an unknown kid does not make every request re-read the signing keys', async () => {
    const { signingKeys, config } = app.gatehouse.services;
    const live = await liveM2MClaims(app, { app_id: app.root.applicationId, permissions: ['*'] });
    // Warm: the key set is cached.
    expect((await app.as({ bearer: await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['*'] }) }).get('/applications')).status).toBe(200);
    const before = signingKeyReads();
    for (let i = 0; i < 20; i += 1) {
      // An attacker's own key, a fresh kid each time: nothing of ours signed it.
      const foreign = await generateSigningKey('ES256');
      const token = await signJwt(foreign.privateJwk, live.claims, { issuer: config.publicUrl, audience: signingKeys.managementAudience, subject: live.subject, expiresInSeconds: 300 });
      const response = await app.as({ bearer: token }).get('/applications');
      expect(response.status).toBe(401);
    }
    // One forced re-read may be fair (a key rotated in elsewhere); twenty are a database read per forged request.
    expect(signingKeyReads() - before).toBeLessThanOrEqual(1);
  });

  it('forged tokens sent together, once the keys are due a re-read, cost one read between them', async () => {
    const { signingKeys, config } = app.gatehouse.services;
    const live = await liveM2MClaims(app, { app_id: app.root.applicationId, permissions: ['*'] });
    await new Promise((resolve) => setTimeout(resolve, UNKNOWN_KID_REREAD_MS + 100));
    const tokens = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const foreign = await generateSigningKey('ES256');
        return signJwt(foreign.privateJwk, live.claims, { issuer: config.publicUrl, audience: signingKeys.managementAudience, subject: live.subject, expiresInSeconds: 300 });
      }),
    );
    const before = signingKeyReads();
    const statuses = await Promise.all(tokens.map(async (token) => (await app.as({ bearer: token }).get('/applications')).status));
    expect(statuses.every((status) => status === 401)).toBe(true);
    expect(signingKeyReads() - before).toBeLessThanOrEqual(1);
    // A token of ours still verifies.
    expect((await app.as({ bearer: await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['*'] }) }).get('/applications')).status).toBe(200);
  });
});
