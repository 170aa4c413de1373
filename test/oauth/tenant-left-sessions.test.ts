import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { codeThroughSeam, createTestClient, discover, OFFLINE_CONSENT, TestBrowser } from '../support/oauth.ts';

/**
 * A shared-pool user removed from a tenant, or the tenant deleted: the user's sessions signed in to that tenant end
 * (the OP's browser session, its grants and tokens, the service's index row, each audited) and the OP no longer signs
 * them in silently to it; their sessions of other tenants stand (src/domain/sessions/end-sessions.ts).
 */
const REDIRECT = 'https://app.example/callback';
const PASSWORD = 'Correct-Horse-Battery-9';
let app: TestApp;
let config: oidc.Configuration;

const tenantPath = (tenantId: string) => `/applications/${app.root.applicationId}/tenants/${tenantId}`;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  const spa = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
  config = await discover(app, spa.clientId, oidc.None(), { redirect_uris: [REDIRECT] });
});
afterAll(async () => app?.close());

/** A user of the shared pool, member of every tenant given. */
async function member(email: string, tenantIds: string[]): Promise<string> {
  const created = await app.http.post('/users', { email, password: PASSWORD, tenantId: tenantIds[0] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const joined = await app.http.patch(`/users/${created.body.id}`, { tenantIds });
  expect(joined.status, JSON.stringify(joined.body)).toBe(200);
  return created.body.id as string;
}

/**
 * Signs the user in to `tenantId` in a browser of its own: the browser, the refresh token, the session's id and what
 * the OP keeps of it (its browser session's uid, the grant's id).
 */
async function signIn(userId: string, tenantId: string) {
  const browser = new TestBrowser();
  const { callback, verifier } = await codeThroughSeam(app, config, REDIRECT, { userId, tenantId }, { ...OFFLINE_CONSENT, tenant: tenantId }, browser);
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
  const sessions = (await app.http.get(`/users/${userId}/sessions`)).body.data as { id: string; tenantId: string }[];
  const session = sessions.find((candidate) => candidate.tenantId === tenantId);
  expect(session).toBeDefined();
  const [op] = await app.sql<{ uid: string; grant_id: string }>(
    `select s.op_session_uid as uid, t.grant_id from user_session as s, oidc_model as t where s.id = ? and t.model = 'RefreshToken' and t.id = ?`,
    [session!.id, tokens.refresh_token],
  );
  return { browser, sessionId: session!.id, refreshToken: tokens.refresh_token!, uid: op!.uid, grantId: op!.grant_id };
}

/** `prompt=none` to `tenantId`: `code`, or the OIDC error. */
async function silently(browser: TestBrowser, userId: string, tenantId: string): Promise<string> {
  const { callback } = await codeThroughSeam(app, config, REDIRECT, { userId, tenantId }, { prompt: 'none', tenant: tenantId }, browser);
  return callback.searchParams.get('code') === null ? (callback.searchParams.get('error') ?? 'no answer') : 'code';
}

/** The rows the OP keeps of a sign-in: its browser session, its grant and everything issued under it. */
async function opRows(signedIn: { uid: string; grantId: string }): Promise<number> {
  const [row] = await app.sql<{ count: number }>(
    `select count(*)::int as count from oidc_model where (model = 'Session' and uid = ?) or (model = 'Grant' and id = ?) or grant_id = ?`,
    [signedIn.uid, signedIn.grantId, signedIn.grantId],
  );
  return row?.count ?? 0;
}

const sessionRevocations = async (sessionId: string) =>
  (await app.http.get(`/audit-logs?action=session.revoked&target=${sessionId}`)).body.data as { changes: { after: unknown } }[];

describe('a shared-pool user removed from a tenant', () => {
  it('loses their sessions of that tenant (OP session, grants, tokens, index row, audited); their other tenant’s session stands', async () => {
    const north = await app.createTenant('North');
    const south = await app.createTenant('South');
    const userId = await member('ada@example.com', [north, south]);
    const inNorth = await signIn(userId, north);
    const inSouth = await signIn(userId, south);
    expect(await opRows(inNorth)).toBeGreaterThanOrEqual(3);

    const removed = await app.http.delete(`${tenantPath(north)}/users/${userId}`);
    expect(removed.status).toBe(204);

    expect((await app.http.get(`/sessions/${inNorth.sessionId}`)).status).toBe(404);
    expect(await app.sql('select 1 from user_session where id = ?', [inNorth.sessionId])).toEqual([]);
    expect(await opRows(inNorth)).toBe(0);
    expect(await silently(inNorth.browser, userId, north)).toBe('login_required');
    expect(await sessionRevocations(inNorth.sessionId)).toEqual([expect.objectContaining({ changes: expect.objectContaining({ after: { reason: 'membership_removed', grantsRevoked: 1 } }) })]);

    expect((await app.http.get(`/sessions/${inSouth.sessionId}`)).status).toBe(200);
    expect(await opRows(inSouth)).toBeGreaterThanOrEqual(3);
    expect(await silently(inSouth.browser, userId, south)).toBe('code');
    expect((await app.http.post('/sessions/validate', { token: inSouth.refreshToken })).body.valid).toBe(true);
  });

  it('taken out of a tenant by a PATCH of their tenants, the same', async () => {
    const east = await app.createTenant('East');
    const west = await app.createTenant('West');
    const userId = await member('bob@example.com', [east, west]);
    const inEast = await signIn(userId, east);
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [west] })).status).toBe(200);
    expect((await app.http.get(`/sessions/${inEast.sessionId}`)).status).toBe(404);
    expect(await opRows(inEast)).toBe(0);
    expect(await silently(inEast.browser, userId, east)).toBe('login_required');
  });
});

describe('a tenant deleted', () => {
  it('ends every session signed in to it, with what the OP kept of them', async () => {
    const doomed = await app.createTenant('Doomed');
    const kept = await app.createTenant('Kept');
    const userId = await member('carol@example.com', [doomed, kept]);
    const inDoomed = await signIn(userId, doomed);
    const inKept = await signIn(userId, kept);

    expect((await app.http.delete(tenantPath(doomed))).status).toBe(204);

    expect(await app.sql('select 1 from user_session where id = ?', [inDoomed.sessionId])).toEqual([]);
    expect(await opRows(inDoomed)).toBe(0);
    expect(await silently(inDoomed.browser, userId, kept)).toBe('login_required');
    expect(await sessionRevocations(inDoomed.sessionId)).toEqual([expect.objectContaining({ changes: expect.objectContaining({ after: { reason: 'tenant_deleted', grantsRevoked: 1 } }) })]);
    expect(await silently(inKept.browser, userId, kept)).toBe('code');
  });
});

describe('one browser signed in to several tenants', () => {
  it('loses the sign-in to the tenant left, then to the tenant deleted; the browser session stands for the other', async () => {
    const kept = await app.createTenant('Harbour');
    const left = await app.createTenant('Ridge');
    const doomed = await app.createTenant('Gone');
    const userId = await member('dan@example.com', [kept, left, doomed]);
    const browser = new TestBrowser();
    // Each tenant through a client of its own, in the one browser.
    const signedIn = new Map<string, { config: oidc.Configuration; refreshToken: string; sessionId: string }>();
    for (const tenantId of [kept, left, doomed]) {
      const client = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
      const clientConfig = await discover(app, client.clientId, oidc.None(), { redirect_uris: [REDIRECT] });
      const { callback, verifier } = await codeThroughSeam(app, clientConfig, REDIRECT, { userId, tenantId }, { ...OFFLINE_CONSENT, tenant: tenantId }, browser);
      const tokens = await oidc.authorizationCodeGrant(clientConfig, callback, { pkceCodeVerifier: verifier });
      const [session] = (await app.http.get(`${tenantPath(tenantId)}/users/${userId}/sessions`)).body.data as { id: string }[];
      signedIn.set(tenantId, { config: clientConfig, refreshToken: tokens.refresh_token!, sessionId: session!.id });
    }
    const refreshes = async (tenantId: string) => {
      const { config: clientConfig, refreshToken } = signedIn.get(tenantId)!;
      return oidc.refreshTokenGrant(clientConfig, refreshToken).then(
        (tokens) => {
          signedIn.set(tenantId, { ...signedIn.get(tenantId)!, refreshToken: tokens.refresh_token! });
          return true;
        },
        () => false,
      );
    };
    const [browserSession] = await app.sql<{ uid: string }>(`select uid from oidc_model where model = 'Session' and payload->>'accountId' = ?`, [userId]);

    expect((await app.http.delete(`${tenantPath(left)}/users/${userId}`)).status).toBe(204);
    expect((await app.http.get(`/sessions/${signedIn.get(left)!.sessionId}`)).status).toBe(404);
    expect(await sessionRevocations(signedIn.get(left)!.sessionId)).toEqual([expect.objectContaining({ changes: expect.objectContaining({ after: { reason: 'membership_removed', grantsRevoked: 1 } }) })]);
    expect(await refreshes(left)).toBe(false);
    expect(await refreshes(kept)).toBe(true);
    expect(await refreshes(doomed)).toBe(true);

    expect((await app.http.delete(tenantPath(doomed))).status).toBe(204);
    expect(await app.sql('select 1 from user_session where id = ?', [signedIn.get(doomed)!.sessionId])).toEqual([]);
    expect(await sessionRevocations(signedIn.get(doomed)!.sessionId)).toEqual([expect.objectContaining({ changes: expect.objectContaining({ after: { reason: 'tenant_deleted', grantsRevoked: 1 } }) })]);
    expect(await refreshes(kept)).toBe(true);

    // The same browser session, signed in to the one tenant left.
    expect(await app.sql(`select 1 from oidc_model where model = 'Session' and uid = ?`, [browserSession!.uid])).toHaveLength(1);
    const sessions = (await app.http.get(`/users/${userId}/sessions`)).body.data as { id: string; tenantId: string }[];
    expect(sessions.map((session) => [session.id, session.tenantId])).toEqual([[signedIn.get(kept)!.sessionId, kept]]);
  });
});

describe('a browser session expired, not yet swept', () => {
  /** The sign-in's browser session past its end, its index row still there: what the sweep has not reached yet. */
  async function expire(signedIn: { uid: string; sessionId: string }): Promise<void> {
    await app.sql(`update oidc_model set expires_at = now() - interval '1 second' where model = 'Session' and uid = ?`, [signedIn.uid]);
    await app.sql(`update user_session set expires_at = now() - interval '1 second' where id = ?`, [signedIn.sessionId]);
  }

  it('is not recorded as revoked by a member’s removal; its offline grant, a sign-in of its own, ends recorded', async () => {
    const north = await app.createTenant('Expired North');
    const userId = await member('erin@example.com', [north]);
    const inNorth = await signIn(userId, north);
    await expire(inNorth);
    const grantSignIn = (await app.http.get(`/users/${userId}/sessions`)).body.data as { id: string }[];
    expect(grantSignIn).toHaveLength(1);
    expect(grantSignIn[0]!.id).not.toBe(inNorth.sessionId);

    expect((await app.http.delete(`${tenantPath(north)}/users/${userId}`)).status).toBe(204);

    expect(await sessionRevocations(inNorth.sessionId)).toEqual([]);
    expect(await sessionRevocations(grantSignIn[0]!.id)).toEqual([
      expect.objectContaining({ changes: expect.objectContaining({ after: { reason: 'membership_removed', grantsRevoked: 1 } }) }),
    ]);
    expect(await app.sql(`select 1 from oidc_model where model = 'Grant' and id = ?`, [inNorth.grantId])).toEqual([]);
  });

  it('is not recorded as revoked by its tenant’s deletion', async () => {
    const doomed = await app.createTenant('Expired Doomed');
    const userId = await member('fay@example.com', [doomed]);
    const inDoomed = await signIn(userId, doomed);
    await expire(inDoomed);

    expect((await app.http.delete(tenantPath(doomed))).status).toBe(204);

    expect(await sessionRevocations(inDoomed.sessionId)).toEqual([]);
    expect(await app.sql('select 1 from user_session where id = ?', [inDoomed.sessionId])).toEqual([]);
  });
});
