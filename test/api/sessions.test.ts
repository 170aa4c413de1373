import * as oidc from 'openid-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { issueTestKey } from '../support/keys.ts';
import { isolatedApplication, type IsolatedApplication } from '../support/surface-sign-in.ts';
import { sweepRevokedSignIns } from '../../src/domain/sessions/revoked-sign-ins.ts';
import { TenantSwitchUnconfirmed } from '../../src/domain/sign-in/refusals.ts';
import { purgeExpiredAuditRecords } from '../../src/domain/audit/retention.ts';
import { recheckDomains } from '../../src/domain/domains/recheck.ts';
import { publishing, verifyWith } from '../support/domains.ts';
import { CookieJar, type Visit } from '../support/cookie-jar.ts';
import {
  authorizationRequest,
  codeThroughSeam,
  createTestClient,
  decodeJwt,
  discover,
  OFFLINE_CONSENT,
  startAuthorization,
  TestBrowser,
  type TestClient,
} from '../support/oauth.ts';
import { offlineSignIn, refreshFails } from '../support/seam-sessions.ts';
import { freshApplication } from '../support/applications.ts';

/**
 * Sessions (API.md, "Session"): one per sign-in of a user in an application, the OP's browser session with its grants.
 * Listed on the application, tenant and user paths, read, revoked (its refresh tokens fail at once) and validated from
 * any of its tokens; and the application's stats, which count its sign-ins.
 */
const REDIRECT = 'https://app.example/callback';
const PASSWORD = 'Correct-Horse-Battery-9';
let app: TestApp;
let spa: TestClient;
let tenantA: string;
let tenantB: string;

beforeAll(async () => {
  ({ app, tenants: [tenantA, tenantB] } = await startTestAppWithTenants(['A', 'B'], {}, { reachablePublicUrl: true }));
  spa = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
});
afterAll(async () => app?.close());

const createUser = (email: string, tenantId = tenantA) => app.createUser(email, tenantId);

/** A sign-in with a refresh token, of the client `clientId` (the SPA's by default), in a browser of its own or `browser`. */
const signIn = (userId: string, tenantId: string | null = tenantA, resource?: string, clientId = spa.clientId, browser?: TestBrowser) =>
  offlineSignIn(app, { clientId, redirectUri: REDIRECT, userId, tenantId, resource, browser });

const tenantPath = (tenantId: string) => `/applications/${app.root.applicationId}/tenants/${tenantId}`;

describe('sessions', () => {
  it('a sign-in is a session: listed on every path form, read, validated from its tokens, revoked for good', async () => {
    const userId = await createUser('one@example.com');
    const { config, tokens } = await signIn(userId);

    const listed = await app.http.get(`/users/${userId}/sessions`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    const session = listed.body.data[0];
    expect(session).toMatchObject({ userId, tenantId: tenantA, clientId: spa.clientId, methods: [] });
    expect(Object.keys(session).sort()).toEqual(['clientId', 'createdAt', 'expiresAt', 'id', 'ip', 'lastActiveAt', 'methods', 'tenantId', 'userAgent', 'userId']);
    expect(session.ip).toEqual(expect.any(String));
    expect(new Date(session.expiresAt).getTime()).toBeGreaterThan(Date.now());

    for (const path of ['/sessions', `/applications/${app.root.applicationId}/sessions`, `${tenantPath(tenantA)}/sessions`]) {
      const all = await app.http.get(path);
      expect(all.status, path).toBe(200);
      expect(all.body.data.map((row: { id: string }) => row.id), path).toContain(session.id);
    }
    expect((await app.http.get(`${tenantPath(tenantB)}/sessions`)).body.data.map((row: { id: string }) => row.id)).not.toContain(session.id);
    expect((await app.http.get(`/sessions/${session.id}`)).body).toEqual(session);
    expect((await app.http.get(`${tenantPath(tenantB)}/sessions/${session.id}`)).status).toBe(404);

    // Its refresh token and its access token both name it.
    for (const token of [tokens.refresh_token!, tokens.access_token]) {
      const validated = await app.http.post('/sessions/validate', { token });
      expect(validated.status, JSON.stringify(validated.body)).toBe(200);
      expect(validated.body).toMatchObject({ valid: true, session: { id: session.id, userId } });
    }
    expect((await app.http.post(`${tenantPath(tenantB)}/sessions/validate`, { token: tokens.access_token })).body).toEqual({ valid: false, session: null });

    // Revoked: gone from the lists, its tokens invalid, its refresh token refused at the OP; audited; a second time 404.
    const key = crypto.randomUUID();
    const revoked = await app.http.delete(`/sessions/${session.id}`, { headers: { 'idempotency-key': key } });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(204);
    const replay = await app.http.delete(`/sessions/${session.id}`, { headers: { 'idempotency-key': key } });
    expect(replay.status).toBe(204);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await app.http.delete(`/sessions/${session.id}`)).status).toBe(404);
    expect((await app.http.get(`/sessions/${session.id}`)).status).toBe(404);
    expect((await app.http.get(`/users/${userId}/sessions`)).body.data).toEqual([]);
    for (const token of [tokens.refresh_token!, tokens.access_token]) {
      expect((await app.http.post('/sessions/validate', { token })).body).toEqual({ valid: false, session: null });
    }
    expect(await refreshFails(config, tokens.refresh_token!)).toBe(true);
    const records = await app.sql<{ action: string; tenant_id: string }>(`select action, tenant_id from audit_log where target_id = ? and action = 'session.revoked'`, [session.id]);
    expect(records).toEqual([{ action: 'session.revoked', tenant_id: tenantA }]);
    expect(await app.sql(`select 1 from oidc_model where model = 'Session' and payload->>'accountId' = ?`, [userId])).toEqual([]);
  });

  it('validation: a suspended or deleted user’s tokens, another application’s, garbage: valid false; a JWT for the management API names its session', async () => {
    const userId = await createUser('two@example.com');
    const resource = `${app.gatehouse.services.config.publicUrl}/api/v1`;
    const { tokens } = await signIn(userId, tenantA, resource);
    expect(tokens.access_token.split('.')).toHaveLength(3);
    const validated = await app.http.post('/sessions/validate', { token: tokens.access_token });
    expect(validated.body).toMatchObject({ valid: true, session: { userId, tenantId: tenantA } });
    expect((await app.http.post(`${tenantPath(tenantA)}/sessions/validate`, { token: tokens.access_token })).body.valid).toBe(true);

    const other = await app.bootstrapAnother();
    expect((await app.as({ apiKey: other.apiKey }).post('/sessions/validate', { token: tokens.access_token })).body).toEqual({ valid: false, session: null });
    expect((await app.as({ apiKey: other.apiKey }).post('/sessions/validate', { token: tokens.refresh_token })).body).toEqual({ valid: false, session: null });
    for (const token of ['nope', 'a.b.c', `${tokens.access_token}x`, 'x'.repeat(8192)]) {
      expect((await app.http.post('/sessions/validate', { token })).body, token.slice(0, 20)).toEqual({ valid: false, session: null });
    }
    for (const token of ['', 'x'.repeat(8193)]) {
      const refused = await app.http.post('/sessions/validate', { token });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'validation_error', field: 'token' });
    }
    expect((await app.http.post(`/users/${userId}/suspend`)).status).toBe(200);
    expect((await app.http.post('/sessions/validate', { token: tokens.access_token })).body).toEqual({ valid: false, session: null });
    expect((await app.http.post(`/users/${userId}/activate`)).status).toBe(200);
    expect((await app.http.post('/sessions/validate', { token: tokens.access_token })).body.valid).toBe(false);

    const gone = await createUser('three@example.com');
    const second = await signIn(gone);
    expect((await app.http.post('/sessions/validate', { token: second.tokens.refresh_token })).body.valid).toBe(true);
    expect((await app.http.delete(`/users/${gone}`)).status).toBe(204);
    expect((await app.http.post('/sessions/validate', { token: second.tokens.refresh_token })).body).toEqual({ valid: false, session: null });
    expect(await app.sql(`select 1 from user_session where user_id = ?`, [gone])).toEqual([]);
  });

  it('an access token found valid is answered from memory, forgotten at once when revoked at the endpoint; a refresh token is read each time', async () => {
    const userId = await createUser('remembered@example.com');
    const { config, tokens } = await signIn(userId);
    expect((await app.http.post('/sessions/validate', { token: tokens.access_token })).body.valid).toBe(true);
    const before = app.queries.length;
    const again = await app.http.post('/sessions/validate', { token: tokens.access_token });
    expect(again.body).toMatchObject({ valid: true, session: { userId, tenantId: tenantA } });
    expect(app.queries.length - before).toBe(0);
    // Another tenant's path is still refused from memory.
    expect((await app.http.post(`${tenantPath(tenantB)}/sessions/validate`, { token: tokens.access_token })).body).toEqual({ valid: false, session: null });

    // A rotated refresh token is spent with no invalidation: never answered from memory.
    expect((await app.http.post('/sessions/validate', { token: tokens.refresh_token })).body.valid).toBe(true);
    const rotated = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect((await app.http.post('/sessions/validate', { token: tokens.refresh_token })).body).toEqual({ valid: false, session: null });

    // Revoked at the revocation endpoint (RFC 7009): the grant's tokens go, and so do the answers kept about them.
    for (let i = 0; i < 2; i += 1) expect((await app.http.post('/sessions/validate', { token: rotated.access_token })).body.valid).toBe(true);
    await oidc.tokenRevocation(config, rotated.access_token, { token_type_hint: 'access_token' });
    for (const token of [rotated.access_token, tokens.access_token]) {
      expect((await app.http.post('/sessions/validate', { token })).body).toEqual({ valid: false, session: null });
    }
  });

  it('a deleted client’s tokens no longer validate, the access token answered from memory before included', async () => {
    const client = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
    const userId = await createUser('client-gone@example.com');
    const { tokens } = await signIn(userId, tenantA, `${app.gatehouse.services.config.publicUrl}/api/v1`, client.clientId);
    const valid = async (token: string) => (await app.http.post('/sessions/validate', { token })).body.valid as boolean;
    expect(await valid(tokens.access_token)).toBe(true);
    expect(await valid(tokens.refresh_token!)).toBe(true);

    expect((await app.http.delete(`/oauth-clients/${client.clientId}`)).status).toBe(204);
    // As the management API and the OP refuse them.
    expect((await app.as({ bearer: tokens.access_token }).get('/users')).status).toBe(401);
    expect(await valid(tokens.access_token)).toBe(false);
    expect(await valid(tokens.refresh_token!)).toBe(false);
  });

  it('a JWT signed with a key since revoked (a leak) is valid no more, the answer kept in memory included', async () => {
    const resource = `${app.gatehouse.services.config.publicUrl}/api/v1`;
    const { tokens } = await signIn(await createUser('leaked-key@example.com'), tenantA, resource);
    const valid = async (token: string) => (await app.http.post('/sessions/validate', { token })).body.valid as boolean;
    expect(await valid(tokens.access_token)).toBe(true);
    await app.gatehouse.services.signingKeys.rotate({ revoke: true });
    // As the management API refuses it.
    expect((await app.as({ bearer: tokens.access_token }).get('/users')).status).toBe(401);
    expect(await valid(tokens.access_token)).toBe(false);
    // Its refresh token is no JWT: it stands, and so does the access token it now gets, signed with the new key.
    expect(await valid(tokens.refresh_token!)).toBe(true);
    const { tokens: fresh } = await signIn(await createUser('new-key@example.com'), tenantA, resource);
    expect(await valid(fresh.access_token)).toBe(true);
  });

  it('revoking a session ends its management API Bearer token at once', async () => {
    const userId = await createUser('bearer@example.com');
    const { tokens } = await signIn(userId, tenantA, `${app.gatehouse.services.config.publicUrl}/api/v1`);
    const asUser = app.as({ bearer: tokens.access_token });
    // Authenticated (a user holds no management permission here): refused for what it lacks, not for who it is.
    expect((await asUser.get('/users')).status).toBe(403);
    const [session] = (await app.http.get(`/users/${userId}/sessions`)).body.data;
    expect((await app.http.delete(`/sessions/${session.id}`)).status).toBe(204);
    const refused = await asUser.get('/users');
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('unauthenticated');
  });

  it('a sign-out in the browser ends the session: gone from the lists, its tokens invalid', async () => {
    const userId = (await app.http.post('/users', { email: 'out@example.com', password: PASSWORD, tenantId: tenantA })).body.id as string;
    const config = await discover(app, spa.clientId, oidc.None(), { redirect_uris: [REDIRECT] });
    const flow = await startAuthorization(config, { redirectUri: REDIRECT, resource: '' }, { tenant: tenantA });
    const issuer = app.gatehouse.services.config.publicUrl;
    const callback = await flow.jar.followOut(await flow.jar.submit(flow.page, { email: 'out@example.com', password: PASSWORD }), issuer);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
    const [session] = (await app.http.get(`/users/${userId}/sessions`)).body.data;
    expect(session).toMatchObject({ tenantId: tenantA, methods: ['password'] });
    expect((await app.http.post('/sessions/validate', { token: tokens.access_token })).body.valid).toBe(true);

    const confirm = await flow.jar.visit(`${issuer}/oauth2/logout?client_id=${spa.clientId}`);
    expect(confirm.status).toBe(200);
    expect((await flow.jar.submit(confirm, { logout: 'yes' })).location).toBe(`${issuer}/oauth2/logout/success`);
    expect((await app.http.get(`/users/${userId}/sessions`)).body.data).toEqual([]);
    expect((await app.http.get(`/sessions/${session.id}`)).status).toBe(404);
    expect((await app.http.post('/sessions/validate', { token: tokens.access_token })).body).toEqual({ valid: false, session: null });
  });

  it('a sign-out leaves an offline sign-in a session of its own, the answer kept in memory included: listed, validated with it, revoked with its tokens', async () => {
    const userId = (await app.http.post('/users', { email: 'offline-out@example.com', password: PASSWORD, tenantId: tenantA })).body.id as string;
    const config = await discover(app, spa.clientId, oidc.None(), { redirect_uris: [REDIRECT] });
    const flow = await startAuthorization(config, { redirectUri: REDIRECT, resource: '' }, { tenant: tenantA, ...OFFLINE_CONSENT });
    const issuer = app.gatehouse.services.config.publicUrl;
    const callback = await flow.jar.followOut(await flow.jar.submit(flow.page, { email: 'offline-out@example.com', password: PASSWORD }), issuer);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
    const [browserSession] = (await app.http.get(`/users/${userId}/sessions`)).body.data;
    for (let i = 0; i < 2; i += 1) expect((await app.http.post('/sessions/validate', { token: tokens.access_token })).body.session.id).toBe(browserSession.id);
    const confirm = await flow.jar.visit(`${issuer}/oauth2/logout?client_id=${spa.clientId}`);
    expect((await flow.jar.submit(confirm, { logout: 'yes' })).location).toBe(`${issuer}/oauth2/logout/success`);
    // The grant stays signed in with no browser (offline_access): the sign-in the account page lists, an id to revoke.
    const listed = (await app.http.get(`/users/${userId}/sessions`)).body.data;
    expect(listed).toEqual([
      expect.objectContaining({ userId, tenantId: tenantA, clientId: spa.clientId, ip: null, userAgent: null, methods: [] }),
    ]);
    const [session] = listed;
    expect(session.id).not.toBe(browserSession.id);
    for (const token of [tokens.access_token, tokens.refresh_token!]) {
      expect((await app.http.post('/sessions/validate', { token })).body).toEqual({ valid: true, session });
    }
    expect((await app.http.delete(`/sessions/${session.id}`)).status).toBe(204);
    expect(await refreshFails(config, tokens.refresh_token!)).toBe(true);
    for (const token of [tokens.access_token, tokens.refresh_token!]) {
      expect((await app.http.post('/sessions/validate', { token })).body).toEqual({ valid: false, session: null });
    }
    expect((await app.http.get(`/users/${userId}/sessions`)).body.data).toEqual([]);
    expect((await app.http.delete(`/sessions/${session.id}`)).status).toBe(404);
  });

  it('a tenant’s deletion ends its sign-ins, each recorded as a revocation records it', async () => {
    const doomed = await app.createTenant('Doomed');
    const userId = await createUser('doomed@example.com', doomed);
    await signIn(userId, doomed);
    const [session] = (await app.http.get(`/users/${userId}/sessions`)).body.data;
    const twin = await createUser('twin@example.com', doomed);
    await signIn(twin, doomed);
    const [twinSession] = (await app.http.get(`/users/${twin}/sessions`)).body.data;
    expect((await app.http.delete(`/sessions/${twinSession.id}`)).status).toBe(204);
    expect((await app.http.delete(`/applications/${app.root.applicationId}/tenants/${doomed}`)).status).toBe(204);
    expect(await app.sql(`select 1 from user_session where tenant_id = ?`, [doomed])).toEqual([]);
    const records = await app.sql<{ target_id: string; tenant_id: string; before: unknown; after: unknown }>(
      `select target_id, tenant_id, before, after from audit_log where action = 'session.revoked' and target_id in (?, ?) order by target_id`,
      [session.id, twinSession.id],
    );
    const byTarget = new Map(records.map((record) => [record.target_id, record]));
    expect(byTarget.get(session.id)).toEqual({ target_id: session.id, tenant_id: doomed, before: session, after: { reason: 'tenant_deleted', grantsRevoked: 1 } });
    expect(byTarget.get(twinSession.id)).toMatchObject({ tenant_id: doomed, before: twinSession, after: { grantsRevoked: 1 } });
  });

  it('one client signed in to another tenant in the same browser: its sign-in to the first ends, tokens and all, recorded', async () => {
    const userId = await createUser('switching@example.com');
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    const browser = new TestBrowser();
    const inA = await signIn(userId, tenantA, undefined, spa.clientId, browser);
    // The client asks for tenant B (its `tenant` parameter): the session's grant, A's, does not fit. The consent ends
    // nothing until the user confirms the switch (the switch page's POST).
    const toB = { ...OFFLINE_CONSENT, tenant: tenantB };
    await expect(codeThroughSeam(app, inA.config, REDIRECT, { userId, tenantId: tenantB }, toB, browser)).rejects.toThrow(TenantSwitchUnconfirmed);
    expect((await app.http.post('/sessions/validate', { token: inA.tokens.refresh_token! })).body).toMatchObject({ valid: true });
    const { callback, verifier } = await codeThroughSeam(app, inA.config, REDIRECT, { userId, tenantId: tenantB, switchConfirmed: true }, toB, browser);
    const inB = { config: inA.config, tokens: await oidc.authorizationCodeGrant(inA.config, callback, { pkceCodeVerifier: verifier }) };
    // The browser session keeps one grant per client: A's no longer listed, so it may not live on unseen.
    expect(await refreshFails(inA.config, inA.tokens.refresh_token!)).toBe(true);
    for (const token of [inA.tokens.access_token, inA.tokens.refresh_token!]) {
      expect((await app.http.post('/sessions/validate', { token })).body).toEqual({ valid: false, session: null });
    }
    const [revoked] = await app.sql<{ actor_type: string; actor_id: string; tenant_id: string; after: { reason: string } }>(
      `select actor_type, actor_id, tenant_id, after from audit_log where action = 'grant.revoked' and after->>'userId' = ?`,
      [userId],
    );
    expect(revoked).toMatchObject({ actor_type: 'user', actor_id: userId, tenant_id: tenantA, after: { reason: 'tenant_switch' } });
    // B's sign-in is the session, and the application's path ends it.
    const [onB, ...more] = (await app.http.get(`/users/${userId}/sessions`)).body.data as { id: string; tenantId: string }[];
    expect([onB?.tenantId, more]).toEqual([tenantB, []]);
    expect((await app.http.post('/sessions/validate', { token: inB.tokens.refresh_token! })).body).toMatchObject({ valid: true, session: { id: onB!.id } });
    expect((await app.http.delete(`/sessions/${onB!.id}`)).status).toBe(204);
    expect(await refreshFails(inB.config, inB.tokens.refresh_token!)).toBe(true);
  });

  it('a browser session that ended (its idle or absolute end) validates none of the tokens that end with it, though they are unexpired', async () => {
    const userId = await createUser('idle@example.com');
    const config = await discover(app, spa.clientId, oidc.None(), { redirect_uris: [REDIRECT] });
    const { callback, verifier } = await codeThroughSeam(app, config, REDIRECT, { userId, tenantId: tenantA });
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
    expect((await app.http.get(`/users/${userId}/sessions`)).body.data).toHaveLength(1);
    await app.sql(`update oidc_model set expires_at = now() - interval '1 second' where model = 'Session' and payload->>'accountId' = ?`, [userId]);
    expect((await app.http.post('/sessions/validate', { token: tokens.access_token })).body).toEqual({ valid: false, session: null });
    expect((await app.http.get(`/users/${userId}/sessions`)).body.data).toEqual([]);
  });

  it('an offline sign-in whose browser session ended is a session of its own while its tokens live, in its tenant’s scope only', async () => {
    const userId = await createUser('idle-offline@example.com');
    const { config, tokens } = await signIn(userId);
    const [browserSession] = (await app.http.get(`/users/${userId}/sessions`)).body.data;
    await app.sql(`update oidc_model set expires_at = now() - interval '1 second' where model = 'Session' and payload->>'accountId' = ?`, [userId]);
    const [session, ...more] = (await app.http.get(`/users/${userId}/sessions`)).body.data;
    expect(more).toEqual([]);
    expect(session).toMatchObject({ userId, tenantId: tenantA, clientId: spa.clientId, ip: null, userAgent: null, methods: [] });
    expect(session.id).not.toBe(browserSession.id);
    // Active when it last refreshed; it ends when its refresh token does, unless it refreshes.
    const [refreshToken] = await app.sql<{ iat: string; expires_at: Date }>(
      `select (payload->>'iat')::bigint as iat, expires_at from oidc_model where model = 'RefreshToken' and id = ?`,
      [tokens.refresh_token],
    );
    expect(new Date(session.lastActiveAt).getTime()).toBe(Number(refreshToken!.iat) * 1000);
    expect(new Date(session.expiresAt).getTime()).toBeGreaterThanOrEqual(new Date(refreshToken!.expires_at).getTime() - 1000);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    const validated = (await app.http.post('/sessions/validate', { token: refreshed.refresh_token! })).body;
    expect(validated).toMatchObject({ valid: true, session: { id: session.id, createdAt: session.createdAt } });

    for (const path of ['/sessions', `${tenantPath(tenantA)}/sessions`]) {
      expect((await app.http.get(path)).body.data.map((row: { id: string }) => row.id), path).toContain(session.id);
    }
    expect((await app.http.get(`${tenantPath(tenantA)}/sessions/${session.id}`)).body).toEqual(validated.session);
    // Refusals: another tenant's path and another application see none of it, and end nothing.
    expect((await app.http.get(`${tenantPath(tenantB)}/sessions`)).body.data.map((row: { id: string }) => row.id)).not.toContain(session.id);
    expect((await app.http.get(`${tenantPath(tenantB)}/sessions/${session.id}`)).status).toBe(404);
    expect((await app.http.delete(`${tenantPath(tenantB)}/sessions/${session.id}`)).status).toBe(404);
    expect((await app.http.post(`${tenantPath(tenantB)}/sessions/validate`, { token: refreshed.refresh_token! })).body).toEqual({ valid: false, session: null });
    const other = await app.bootstrapAnother();
    const foreign = app.as({ apiKey: other.apiKey });
    expect((await foreign.get(`/sessions/${session.id}`)).status).toBe(404);
    expect((await foreign.delete(`/sessions/${session.id}`)).status).toBe(404);
    expect((await foreign.post('/sessions/validate', { token: refreshed.refresh_token! })).body).toEqual({ valid: false, session: null });
    expect((await app.http.post('/sessions/validate', { token: refreshed.refresh_token! })).body.valid).toBe(true);

    // Its tenant's path revokes it, recorded as the session's revocation.
    expect((await app.http.delete(`${tenantPath(tenantA)}/sessions/${session.id}`)).status).toBe(204);
    expect(await refreshFails(config, refreshed.refresh_token!)).toBe(true);
    expect((await app.http.get(`/users/${userId}/sessions`)).body.data).toEqual([]);
    const [record] = await app.sql<{ tenant_id: string; before: unknown; after: unknown }>(
      `select tenant_id, before, after from audit_log where action = 'session.revoked' and target_id = ?`,
      [session.id],
    );
    expect(record).toEqual({ tenant_id: tenantA, before: validated.session, after: { grantsRevoked: 1 } });
  });

  it('a browser signed in to two tenants: a sign-in to each, listed, validated and revoked in its own tenant; the application’s path ends both', async () => {
    const userId = await createUser('two-tenants@example.com');
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    const browser = new TestBrowser();
    const inA = await signIn(userId, tenantA, undefined, spa.clientId, browser);
    const spaB = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
    const inB = await signIn(userId, tenantB, undefined, spaB.clientId, browser);
    const listed = async (path: string) => ((await app.http.get(`${path}/users/${userId}/sessions`)).body.data as { id: string; tenantId: string; clientId: string }[]);

    const [onA, ...moreA] = await listed(tenantPath(tenantA));
    const [onB, ...moreB] = await listed(tenantPath(tenantB));
    expect([moreA, moreB]).toEqual([[], []]);
    expect(onA).toMatchObject({ userId, tenantId: tenantA, clientId: spa.clientId });
    expect(onB).toMatchObject({ userId, tenantId: tenantB, clientId: spaB.clientId });
    expect((await listed(`/applications/${app.root.applicationId}`)).map((session) => session.id)).toEqual([onA!.id, onB!.id]);
    expect((await app.http.get(`${tenantPath(tenantB)}/sessions`)).body.data.map((session: { id: string }) => session.id)).toContain(onB!.id);
    expect((await app.http.get(`${tenantPath(tenantB)}/sessions`)).body.data.map((session: { id: string }) => session.id)).not.toContain(onA!.id);

    // Each token names its own tenant's sign-in, and validates on that tenant's path only.
    for (const [signedIn, session, own, other] of [[inA, onA!, tenantA, tenantB], [inB, onB!, tenantB, tenantA]] as const) {
      for (const token of [signedIn.tokens.access_token, signedIn.tokens.refresh_token!]) {
        expect((await app.http.post(`${tenantPath(own)}/sessions/validate`, { token })).body).toMatchObject({ valid: true, session: { id: session.id, tenantId: own } });
        expect((await app.http.post(`${tenantPath(other)}/sessions/validate`, { token })).body).toEqual({ valid: false, session: null });
      }
    }

    // A use of B's client in the browser marks B's sign-in active, not A's.
    await app.sql(`update user_session set last_active_at = now() - interval '10 minutes' where user_id = ?`, [userId]);
    const silent = await codeThroughSeam(app, inB.config, REDIRECT, { userId, tenantId: tenantB }, { prompt: 'none' }, browser);
    expect(silent.callback.searchParams.get('code')).toEqual(expect.any(String));
    const idle = await app.sql<{ tenant_id: string; idle: boolean }>(
      `select tenant_id, last_active_at < now() - interval '5 minutes' as idle from user_session where user_id = ? order by id`,
      [userId],
    );
    expect(idle).toEqual([{ tenant_id: tenantA, idle: true }, { tenant_id: tenantB, idle: false }]);

    // Another tenant's sign-in is not A's to see or end: 404, and nothing changes.
    const keyA = await issueTestKey(app, { tenantId: tenantA, permissions: ['sessions:*'] });
    expect((await keyA.get(`/sessions/${onB!.id}`)).status).toBe(404);
    expect((await keyA.delete(`/sessions/${onB!.id}`)).body).toMatchObject({ code: 'not_found', field: 'sessionId' });
    expect((await app.http.delete(`${tenantPath(tenantA)}/sessions/${onB!.id}`)).status).toBe(404);
    expect((await listed(`/applications/${app.root.applicationId}`)).map((session) => session.id)).toEqual([onA!.id, onB!.id]);

    // B's credentials end B's sign-in: its grant and tokens; A's stands in the same browser session.
    const keyB = await issueTestKey(app, { tenantId: tenantB, permissions: ['sessions:*'] });
    const shownB = (await keyB.get(`/sessions/${onB!.id}`)).body;
    expect((await keyB.delete(`/sessions/${onB!.id}`)).status).toBe(204);
    expect(await refreshFails(inB.config, inB.tokens.refresh_token!)).toBe(true);
    expect((await app.http.post(`${tenantPath(tenantB)}/sessions/validate`, { token: inB.tokens.access_token })).body).toEqual({ valid: false, session: null });
    const refreshedA = await oidc.refreshTokenGrant(inA.config, inA.tokens.refresh_token!);
    expect((await app.http.post(`${tenantPath(tenantA)}/sessions/validate`, { token: refreshedA.access_token })).body).toMatchObject({ valid: true, session: { id: onA!.id } });
    expect(await listed(tenantPath(tenantB))).toEqual([]);
    expect((await listed(`/applications/${app.root.applicationId}`)).map((session) => session.id)).toEqual([onA!.id]);
    const [browserSession] = await app.sql<{ clients: string[] }>(
      `select array(select jsonb_object_keys(payload->'authorizations')) as clients from oidc_model where model = 'Session' and payload->>'accountId' = ?`,
      [userId],
    );
    expect(browserSession?.clients).toEqual([spa.clientId]);
    const revokedB = await app.sql<{ tenant_id: string; before: unknown; after: unknown }>(`select tenant_id, before, after from audit_log where action = 'session.revoked' and target_id = ?`, [onB!.id]);
    expect(revokedB).toEqual([{ tenant_id: tenantB, before: shownB, after: { grantsRevoked: 1 } }]);

    // Signed in to B again in that browser: a new sign-in. The application's path ends the browser session, both sign-ins.
    const againB = await signIn(userId, tenantB, undefined, spaB.clientId, browser);
    const [onBAgain] = await listed(tenantPath(tenantB));
    expect(onBAgain?.id).not.toBe(onB!.id);
    expect((await app.http.delete(`/sessions/${onA!.id}`)).status).toBe(204);
    expect(await refreshFails(inA.config, refreshedA.refresh_token!)).toBe(true);
    expect(await refreshFails(againB.config, againB.tokens.refresh_token!)).toBe(true);
    expect(await listed(`/applications/${app.root.applicationId}`)).toEqual([]);
    expect(await app.sql(`select 1 from oidc_model where model = 'Session' and payload->>'accountId' = ?`, [userId])).toEqual([]);
    const revoked = await app.sql<{ target_id: string; tenant_id: string }>(
      `select target_id, tenant_id from audit_log where action = 'session.revoked' and target_id in (?, ?) order by target_id`,
      [onA!.id, onBAgain!.id],
    );
    expect(revoked).toEqual([{ target_id: onA!.id, tenant_id: tenantA }, { target_id: onBAgain!.id, tenant_id: tenantB }]);
  });

  it('an administrator’s new password for the user ends their sign-ins, as a reset does; a change of name does not', async () => {
    const userId = await createUser('compromised@example.com');
    const { config, tokens } = await signIn(userId);
    expect((await app.http.patch(`/users/${userId}`, { name: 'Renamed' })).status).toBe(200);
    expect((await app.http.post('/sessions/validate', { token: tokens.access_token })).body.valid).toBe(true);
    expect((await app.http.patch(`/users/${userId}`, { password: 'A new one for a leak 7' })).status).toBe(200);
    expect(await refreshFails(config, tokens.refresh_token!)).toBe(true);
    expect((await app.http.post('/sessions/validate', { token: tokens.access_token })).body.valid).toBe(false);
    expect((await app.http.get(`/users/${userId}/sessions`)).body.data).toEqual([]);
  });

  it('lastActiveAt moves on a validation at most once a minute', async () => {
    const userId = await createUser('four@example.com');
    const { tokens } = await signIn(userId);
    await app.sql(`update user_session set last_active_at = now() - interval '10 minutes' where user_id = ?`, [userId]);
    const [before] = await app.sql<{ last_active_at: Date }>(`select last_active_at from user_session where user_id = ?`, [userId]);
    await app.http.post('/sessions/validate', { token: tokens.access_token });
    const [after] = await app.sql<{ last_active_at: Date }>(`select last_active_at from user_session where user_id = ?`, [userId]);
    expect(new Date(after!.last_active_at).getTime()).toBeGreaterThan(new Date(before!.last_active_at).getTime());
    // Within the minute: no write, whatever the number of validations.
    const [reset] = await app.sql<{ last_active_at: Date }>(
      `update user_session set last_active_at = now() - interval '10 minutes' where user_id = ? returning last_active_at`,
      [userId],
    );
    for (let i = 0; i < 3; i += 1) await app.http.post('/sessions/validate', { token: tokens.access_token });
    const [still] = await app.sql<{ last_active_at: Date }>(`select last_active_at from user_session where user_id = ?`, [userId]);
    expect(new Date(still!.last_active_at).getTime()).toBe(new Date(reset!.last_active_at).getTime());
  });

  it('refusals: another application’s session and user are 404, a key without sessions permissions 403, malformed ids 422', async () => {
    const userId = await createUser('five@example.com');
    await signIn(userId);
    const [session] = (await app.http.get(`/users/${userId}/sessions`)).body.data;
    const other = await app.bootstrapAnother();
    const foreign = app.as({ apiKey: other.apiKey });
    expect((await foreign.get(`/sessions/${session.id}`)).status).toBe(404);
    expect((await foreign.delete(`/sessions/${session.id}`)).body).toMatchObject({ code: 'not_found', field: 'sessionId' });
    expect((await foreign.get(`/users/${userId}/sessions`)).body).toMatchObject({ code: 'not_found', field: 'userId' });
    expect((await foreign.get('/sessions')).body.data).toEqual([]);
    expect((await app.http.get(`${tenantPath(tenantB)}/users/${userId}/sessions`)).status).toBe(404);

    const reader = await app.http.post('/api-keys', { name: 'users only', permissions: ['users:read'] });
    const narrow = app.as({ apiKey: reader.body.secret });
    expect((await narrow.get('/sessions')).status).toBe(403);
    expect((await narrow.post('/sessions/validate', { token: 'x' })).status).toBe(403);
    const sessionsReader = await app.http.post('/api-keys', { name: 'sessions reader', permissions: ['sessions:read'] });
    expect((await app.as({ apiKey: sessionsReader.body.secret }).delete(`/sessions/${session.id}`)).status).toBe(403);
    expect((await app.http.get(`/sessions/${session.id}`)).status).toBe(200);

    expect((await app.http.get('/sessions/not-a-uuid')).body).toMatchObject({ code: 'validation_error', field: 'sessionId' });
    expect((await app.http.post('/sessions/validate', { token: 'x', extra: 1 })).status).toBe(422);
  });

  it('a user’s list looks the user up before its page arguments: an absent or foreign user is 404 whatever pageSize says', async () => {
    const userId = await createUser('parent-first@example.com');
    const absent = '01900000-0000-7000-8000-000000000000';
    for (const path of ['', `/applications/${app.root.applicationId}`, tenantPath(tenantA)]) {
      for (const query of ['?pageSize=0', '?pageSize=101', '?pageSize=1&cursor=forged']) {
        expect((await app.http.get(`${path}/users/${absent}/sessions${query}`)).body, `${path} ${query}`).toMatchObject({ code: 'not_found', field: 'userId' });
      }
    }
    expect((await app.http.get(`${tenantPath(tenantB)}/users/${userId}/sessions?pageSize=0`)).body).toMatchObject({ code: 'not_found', field: 'userId' });
    // The user found, the page arguments are judged as before; a malformed id is still 422 userId.
    expect((await app.http.get(`/users/${userId}/sessions?pageSize=0`)).body).toMatchObject({ code: 'validation_error', field: 'pageSize' });
    expect((await app.http.get(`/users/${userId}/sessions?cursor=forged`)).body).toMatchObject({ code: 'validation_error', field: 'cursor' });
    expect((await app.http.get('/users/not-a-uuid/sessions?pageSize=0')).body).toMatchObject({ code: 'validation_error', field: 'userId' });
    const gql = await app.http.request('POST', '/graphql', { body: { query: 'query($id: UUID!) { userSessions(userId: $id, pageSize: 0) { next } }', variables: { id: absent } } });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'not_found', field: 'userId' });
  });

  it('a cursor pages only the list that issued it: on another user’s, tenant’s or application’s list it is 422 cursor', async () => {
    const [first, second] = [await createUser('cursor-1@example.com'), await createUser('cursor-2@example.com')];
    const inB = await createUser('cursor-b@example.com', tenantB);
    for (const userId of [first, first, second, inB]) await signIn(userId, userId === inB ? tenantB : tenantA);
    const nextOf = async (path: string) => {
      const page = await app.http.get(`${path}?pageSize=1`);
      expect(page.body.next, path).toEqual(expect.any(String));
      return encodeURIComponent(page.body.next as string);
    };
    const ofFirst = await nextOf(`/users/${first}/sessions`);
    const ofTenantA = await nextOf(`${tenantPath(tenantA)}/sessions`);
    const ofApplication = await nextOf('/sessions');
    const other = app.as({ apiKey: (await app.bootstrapAnother()).apiKey });
    const misused = [
      app.http.get(`/users/${second}/sessions?cursor=${ofFirst}`),
      app.http.get(`/sessions?cursor=${ofFirst}`),
      app.http.get(`${tenantPath(tenantB)}/sessions?cursor=${ofTenantA}`),
      app.http.get(`/sessions?cursor=${ofTenantA}`),
      app.http.get(`${tenantPath(tenantB)}/users/${inB}/sessions?cursor=${ofApplication}`),
      other.get(`/sessions?cursor=${ofApplication}`),
    ];
    for (const answer of await Promise.all(misused)) expect(answer.body).toMatchObject({ code: 'validation_error', field: 'cursor' });
    expect((await app.http.get(`/users/${first}/sessions?cursor=${ofFirst}`)).status).toBe(200);
  });

  it('through GraphQL too', async () => {
    const userId = await createUser('six@example.com');
    const { tokens } = await signIn(userId);
    const response = await app.http.request('POST', '/graphql', {
      body: {
        query: 'query($id: UUID!) { userSessions(userId: $id) { data { userId tenantId } } }',
        variables: { id: userId },
      },
    });
    expect(response.body).toEqual({ data: { userSessions: { data: [{ userId, tenantId: tenantA }] } } });
    const validated = await app.http.request('POST', '/graphql', {
      body: { query: 'mutation($t: String!) { validateSession(input: { token: $t }) { valid session { userId } } }', variables: { t: tokens.access_token } },
    });
    expect(validated.body).toEqual({ data: { validateSession: { valid: true, session: { userId } } } });
  });
});

describe('an administrator’s new password, suspension or deletion of a user: each session it ends recorded, with its reason', () => {
  type Listed = { id: string; tenantId: string | null };
  const listed = async (userId: string) => (await app.http.get(`/users/${userId}/sessions`)).body.data as Listed[];
  const revocations = (ids: readonly string[]) =>
    app.sql<{ target_id: string; actor_type: string; tenant_id: string | null; before: unknown; after: unknown }>(
      `select target_id, actor_type, tenant_id, before, after from audit_log where action = 'session.revoked' and target_id in (?) order by target_id`,
      [ids],
    );

  /** A user signed in twice: a browser session, and an offline grant whose browser session ended (a grant sign-in). */
  async function signedInTwice(email: string) {
    const userId = await createUser(email);
    await signIn(userId);
    const [first] = await listed(userId);
    await app.sql(`update oidc_model set expires_at = now() - interval '1 second' where model = 'Session' and uid = (select op_session_uid from user_session where id = ?)`, [first!.id]);
    const browser = await signIn(userId);
    const sessions = (await listed(userId)).sort((a, b) => a.id.localeCompare(b.id));
    expect(sessions).toHaveLength(2);
    expect(sessions.map((session) => session.id)).not.toContain(first!.id);
    return { userId, sessions, browser };
  }

  type Client = typeof app.http;
  const ends = [
    ['a new password', 'password_changed', (userId: string, as: Client = app.http, path = '') => as.patch(`${path}/users/${userId}`, { password: 'A new one for a leak 7' })],
    ['a suspension', 'user_suspended', (userId: string, as: Client = app.http, path = '') => as.post(`${path}/users/${userId}/suspend`)],
    ['a deletion', 'user_deleted', (userId: string, as: Client = app.http, path = '') => as.delete(`${path}/users/${userId}`)],
  ] as const;

  for (const [what, reason, end] of ends) {
    it(`${what}: session.revoked for the browser session and the grant sign-in, reason ${reason}`, async () => {
      const { userId, sessions, browser } = await signedInTwice(`ended-${reason}@example.com`);
      const response = await end(userId);
      expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
      expect(await refreshFails(browser.config, browser.tokens.refresh_token!)).toBe(true);
      expect(await revocations(sessions.map((session) => session.id))).toEqual(
        sessions.map((session) => ({ target_id: session.id, actor_type: 'api_key', tenant_id: session.tenantId, before: session, after: { reason, grantsRevoked: 1 } })),
      );
    });
  }

  it('a suspension on the application’s path of a user of two tenants: each tenant reads the suspension and the end of its own sign-in, not the other’s', async () => {
    const userId = await createUser('ended-in-both@example.com');
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    await signIn(userId, tenantA);
    await signIn(userId, tenantB);
    const sessions = await listed(userId);
    expect(sessions.map((session) => session.tenantId).sort()).toEqual([tenantA, tenantB].sort());
    expect((await app.http.post(`/users/${userId}/suspend`)).status).toBe(200);
    for (const tenantId of [tenantA, tenantB]) {
      const reader = await issueTestKey(app, { tenantId, permissions: ['users:read', 'audit_logs:read'] });
      const ended = ((await reader.get('/audit-logs?action=session.revoked&pageSize=100')).body.data as { target: { id: string }; tenantId: string | null }[])
        .filter((record) => sessions.some((session) => session.id === record.target.id));
      const own = sessions.find((session) => session.tenantId === tenantId)!.id;
      expect(ended).toEqual([expect.objectContaining({ target: { type: 'session', id: own }, tenantId, changes: expect.objectContaining({ after: { reason: 'user_suspended', grantsRevoked: 1 } }) })]);
      const suspended = (await reader.get(`/audit-logs?target=${userId}&action=user.suspended`)).body.data as { tenantId: string | null }[];
      expect(suspended).toEqual([expect.objectContaining({ tenantId: null })]);
    }
  });

  it('refusals end nothing and record nothing: another tenant’s path, another application, a tenant scope on a user of two tenants', async () => {
    const { userId, sessions } = await signedInTwice('ended-refused@example.com');
    const foreign = app.as({ apiKey: (await app.bootstrapAnother()).apiKey });
    for (const [what, , end] of ends) {
      expect((await end(userId, app.http, tenantPath(tenantB))).status, what).toBe(404);
      expect((await end(userId, foreign)).status, what).toBe(404);
    }
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    for (const [what, , end] of ends.slice(0, 2)) expect((await end(userId, app.http, tenantPath(tenantA))).status, what).toBe(403);
    expect((await listed(userId)).sort((a, b) => a.id.localeCompare(b.id))).toEqual(sessions);
    expect(await revocations(sessions.map((session) => session.id))).toEqual([]);
  });
});

describe('a sign-in to a tenant its user has left by the shared → isolated split (a copy holds that tenant now)', () => {
  it('is no session, as its tokens no longer refresh: not listed, read nor validated; the sign-in to the tenant kept stands', async () => {
    const { admin, appPath, applicationId, tenants: [one, two], switchTo } = await freshApplication(app, { tenants: ['One', 'Two'] });
    const client = await createTestClient(app, { applicationId, type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
    const userId = (await admin.post('/users', { email: 'split@example.com', tenantId: one })).body.id as string;
    expect((await admin.patch(`/users/${userId}`, { tenantIds: [one, two] })).status).toBe(200);
    const [kept, left] = [await signIn(userId, one, undefined, client.clientId), await signIn(userId, two, undefined, client.clientId)];
    const validate = async (token: string) => (await admin.post(`${appPath}/sessions/validate`, { token })).body.valid as boolean;
    expect(await validate(left.tokens.refresh_token!)).toBe(true);

    expect((await switchTo('isolated')).status).toBe(200);
    expect(await refreshFails(left.config, left.tokens.refresh_token!)).toBe(true);
    for (const token of [left.tokens.access_token, left.tokens.refresh_token!]) expect(await validate(token)).toBe(false);
    expect((await admin.get(`${appPath}/tenants/${two}/sessions`)).body.data).toEqual([]);
    const listed = (await admin.get(`${appPath}/users/${userId}/sessions`)).body.data as { tenantId: string }[];
    expect(listed.map((session) => session.tenantId)).toEqual([one]);
    expect(await validate(kept.tokens.refresh_token!)).toBe(true);
  });
});

describe('a locked user’s sessions: listed and read as they validate, none while the lock runs, again once it ends', () => {
  it('while locked no read lists, reads or validates them; the user’s sign-out everywhere still ends them; after the lock, all of them again', async () => {
    const userId = await createUser('locked-sessions@example.com');
    await signIn(userId);
    await app.sql(`update oidc_model set expires_at = now() - interval '1 second' where model = 'Session' and payload->>'accountId' = ?`, [userId]);
    const browser = await signIn(userId);
    const sessions = ((await app.http.get(`/users/${userId}/sessions`)).body.data as { id: string; ip: string | null }[]).sort((a, b) => a.id.localeCompare(b.id));
    expect(sessions.map((session) => session.ip === null).sort()).toEqual([false, true]);
    const ids = sessions.map((session) => session.id);
    const lock = async (until: string) => {
      await app.sql(`update app_user set status = 'locked', locked_until = now() + interval '${until}' where id = ?`, [userId]);
      await app.gatehouse.services.invalidations.publish({ kind: 'user', id: userId });
    };
    /** The ids of ours a list shows, every page of it. */
    const listedOfOurs = async (path: string) => {
      const shown: string[] = [];
      for (let cursor: string | null = ''; cursor !== null; ) {
        const page = (await app.http.get(`${path}?pageSize=100${cursor === '' ? '' : `&cursor=${encodeURIComponent(cursor)}`}`)).body as { data: { id: string }[]; next: string | null };
        shown.push(...page.data.map((session) => session.id).filter((id) => ids.includes(id)));
        cursor = page.next;
      }
      return shown.sort();
    };
    const reads = async () => ({
      user: await listedOfOurs(`/users/${userId}/sessions`),
      all: await listedOfOurs('/sessions'),
      tenant: await listedOfOurs(`${tenantPath(tenantA)}/sessions`),
      read: await Promise.all(ids.map(async (id) => (await app.http.get(`/sessions/${id}`)).status)),
      valid: await Promise.all([browser.tokens.access_token, browser.tokens.refresh_token!].map(async (token) => (await app.http.post('/sessions/validate', { token })).body.valid as boolean)),
    });

    await lock('5 minutes');
    expect(await reads()).toEqual({ user: [], all: [], tenant: [], read: [404, 404], valid: [false, false] });
    expect((await app.http.delete(`/sessions/${ids[0]}`)).status).toBe(404);
    // The lock ran out: the sessions stand again, in every read.
    await lock('-1 second');
    expect(await reads()).toEqual({ user: ids, all: ids, tenant: ids, read: [200, 200], valid: [true, true] });

    // Locked again: an administrator's sign-out everywhere ends what no read shows, each recorded.
    await lock('5 minutes');
    expect((await app.http.delete(`/users/${userId}/sessions`)).status).toBe(204);
    await lock('-1 second');
    expect(await reads()).toEqual({ user: [], all: [], tenant: [], read: [404, 404], valid: [false, false] });
    expect((await app.sql<{ target_id: string }>(`select target_id from audit_log where action = 'session.revoked' and target_id in (?) order by target_id`, [ids])).map((row) => row.target_id)).toEqual(ids);
  });
});

describe('validation of a sign-in surface’s tokens: valid only while their issuer serves their tenant (docs/decisions.md, "Sign-in surfaces")', () => {
  let isolated: IsolatedApplication;
  const pathOf = (ref: string) => `${isolated.service}/t/${ref}`;
  const domainOf = (hostname: string) => `http://${hostname}`;
  /** Each token's answer, on the application's path and on the tenant's. */
  const answersOf = async (tokens: { accessToken: string; refreshToken: string }, tenantId: string) => {
    const paths = ['/sessions/validate', `/applications/${isolated.application.applicationId}/tenants/${tenantId}/sessions/validate`];
    const answers = [];
    for (const token of [tokens.accessToken, tokens.refreshToken]) {
      for (const path of paths) answers.push((await isolated.admin.post(path, { token })).body);
    }
    return answers;
  };
  const INVALID = { valid: false, session: null };

  beforeAll(async () => {
    isolated = await isolatedApplication(app);
  });

  it('a tenant’s slug renamed, then given to another tenant: the tokens of that path are no longer valid', async () => {
    const west = await isolated.tenantWithUser('west', 'wes@example.com');
    const tokens = await isolated.signIn(pathOf('west'), 'wes@example.com');
    for (const answer of await answersOf(tokens, west)) expect(answer).toMatchObject({ valid: true, session: { tenantId: west } });
    await isolated.rename(west, 'west-old');
    // Renamed: the issuer names no surface (the management API refuses them too).
    expect(await answersOf(tokens, west)).toEqual(Array(4).fill(INVALID));
    await isolated.tenantWithUser('west', 'wendy@example.com');
    expect(await answersOf(tokens, west)).toEqual(Array(4).fill(INVALID));
  });

  it('a renamed tenant: the tokens of its id path stay valid, and so do its new path’s', async () => {
    const east = await isolated.tenantWithUser('east', 'eve@example.com');
    const byId = await isolated.signIn(pathOf(east), 'eve@example.com');
    await isolated.rename(east, 'east-new');
    const byNewSlug = await isolated.signIn(pathOf('east-new'), 'eve@example.com');
    for (const tokens of [byId, byNewSlug]) {
      for (const answer of await answersOf(tokens, east)) expect(answer).toMatchObject({ valid: true, session: { tenantId: east } });
    }
  });

  it('a tenant’s domain deleted: its tokens are no longer valid, nor once it is verified for another tenant', async () => {
    const hostname = 'login.moved.example';
    const north = await isolated.tenantWithUser('north', 'nora@example.com');
    const south = await isolated.tenantWithUser('south', 'sam@example.com');
    const domain = await isolated.addDomain(hostname, north);
    const tokens = await isolated.signIn(domainOf(hostname), 'nora@example.com');
    for (const answer of await answersOf(tokens, north)) expect(answer).toMatchObject({ valid: true, session: { tenantId: north } });
    await isolated.deleteDomain(domain, north);
    expect(await answersOf(tokens, north)).toEqual(Array(4).fill(INVALID));
    await isolated.addDomain(hostname, south);
    expect(await answersOf(tokens, north)).toEqual(Array(4).fill(INVALID));
    const southTokens = await isolated.signIn(domainOf(hostname), 'sam@example.com');
    for (const answer of await answersOf(southTokens, south)) expect(answer).toMatchObject({ valid: true, session: { tenantId: south } });
  });

  it('the application’s domain and the service’s surface, which fix no tenant: valid for the tenant the sign-in named', async () => {
    const hostname = 'login.application.example';
    const central = await isolated.tenantWithUser('central', 'cal@example.com');
    await isolated.addDomain(hostname);
    for (const surface of [domainOf(hostname), isolated.service]) {
      const tokens = await isolated.signIn(surface, 'cal@example.com', central);
      for (const answer of await answersOf(tokens, central)) expect(answer).toMatchObject({ valid: true, session: { tenantId: central } });
    }
  });
});

describe('a surface that ends (its domain deleted, its slug renamed, its application shared) ends the sign-ins made on it: back again, none of them stands', () => {
  let isolated: IsolatedApplication;
  const pathOf = (ref: string) => `${isolated.service}/t/${ref}`;
  const domainOf = (hostname: string) => `http://${hostname}`;
  const INVALID = { valid: false, session: null };
  type SignedIn = Awaited<ReturnType<IsolatedApplication['signIn']>>;

  beforeAll(async () => {
    isolated = await isolatedApplication(app);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The ids of the tenant's sessions, as its path lists them. */
  const listed = async (of: IsolatedApplication, tenantId: string): Promise<string[]> => {
    const answer = await of.admin.get(`/applications/${of.application.applicationId}/tenants/${tenantId}/sessions`);
    expect(answer.status).toBe(200);
    return answer.body.data.map((session: { id: string }) => session.id);
  };
  const revocationOf = (sessionId: string) =>
    app.sql<{ tenant_id: string; after: unknown }>(`select tenant_id, after from audit_log where action = 'session.revoked' and target_id = ?`, [sessionId]);
  /** Nothing of `of`'s sign-in made at `issuer` works there: its refresh token, its access token, its browser's session. */
  const ended = async (of: IsolatedApplication, issuer: string, signedIn: SignedIn, tenant?: string) => {
    expect(await of.refresh(issuer, signedIn.refreshToken)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await app.as({ bearer: signedIn.accessToken }).get('/users')).status).toBe(401);
    for (const token of [signedIn.accessToken, signedIn.refreshToken]) expect((await of.admin.post('/sessions/validate', { token })).body).toEqual(INVALID);
    expect(await of.silently(issuer, signedIn.jar, tenant)).toBe('login_required');
  };
  /** Its tokens valid for `tenantId`, its access token accepted by the management API (no permissions: 403). */
  const stands = async (of: IsolatedApplication, signedIn: SignedIn, tenantId: string) => {
    expect((await app.as({ bearer: signedIn.accessToken }).get('/users')).status).toBe(403);
    for (const token of [signedIn.accessToken, signedIn.refreshToken]) {
      expect((await of.admin.post('/sessions/validate', { token })).body).toMatchObject({ valid: true, session: { tenantId } });
    }
  };

  it('a tenant’s domain deleted: its sign-in ends, recorded (domain_deleted); verified again, for the tenant or the application, it does not come back', async () => {
    const hostname = 'login.readd.example';
    const north = await isolated.tenantWithUser('north-readd', 'nell@example.com');
    const south = await isolated.tenantWithUser('south-readd', 'saul@example.com');
    const domain = await isolated.addDomain(hostname, north);
    await isolated.addDomain('login.south-readd.example', south);
    const onDomain = await isolated.signIn(domainOf(hostname), 'nell@example.com');
    const [session] = await listed(isolated, north);
    const onPath = await isolated.signIn(pathOf(north), 'nell@example.com');
    const southDomain = await isolated.signIn(domainOf('login.south-readd.example'), 'saul@example.com');
    const standing = await listed(isolated, north);
    expect(standing).toHaveLength(2);

    await isolated.deleteDomain(domain, north);
    expect(await listed(isolated, north)).toEqual(standing.filter((id) => id !== session));
    expect(await revocationOf(session!)).toEqual([{ tenant_id: north, after: { reason: 'domain_deleted', grantsRevoked: 1 } }]);
    expect(await app.sql(`select model from oidc_model where payload->>'gatehouseIssuer' = ?`, [domainOf(hostname)])).toEqual([]);

    const again = await isolated.addDomain(hostname, north);
    await ended(isolated, domainOf(hostname), onDomain);
    await isolated.deleteDomain(again, north);
    await isolated.addDomain(hostname);
    await ended(isolated, domainOf(hostname), onDomain, north);
    await stands(isolated, onPath, north);
    await stands(isolated, southDomain, south);
    expect(await listed(isolated, north)).toEqual(standing.filter((id) => id !== session));
    expect(await listed(isolated, south)).toHaveLength(1);
  });

  it('a tenant’s domain its re-checks un-verify (its record gone past the grace): its sign-in ends, recorded (domain_unverified)', async () => {
    const hostname = 'login.lapsed.example';
    const north = await isolated.tenantWithUser('north-lapsed', 'lara@example.com');
    const domain = await isolated.addDomain(hostname, north);
    const onDomain = await isolated.signIn(domainOf(hostname), 'lara@example.com');
    const [session] = await listed(isolated, north);
    const onPath = await isolated.signIn(pathOf(north), 'lara@example.com');
    // DNS keeps every other domain's record: only this one's is gone.
    const others = await app.sql<{ name: string; token: string }>(
      `select '_gatehouse-challenge.' || hostname as name, verification_token as token from domain where verified_at is not null and id <> ?`,
      [domain],
    );
    const dns = publishing(Object.fromEntries(others.map(({ name, token }) => [name, token])));
    const hoursOn = (hours: number) => () => new Date(Date.now() + hours * 3_600_000);
    await recheckDomains(app.gatehouse.services, hoursOn(25), dns);
    await stands(isolated, onDomain, north);
    await recheckDomains(app.gatehouse.services, hoursOn(25 + 73), dns);

    expect(await revocationOf(session!)).toEqual([{ tenant_id: north, after: { reason: 'domain_unverified', grantsRevoked: 1 } }]);
    // Its record published again and the domain verified again: the sign-in made before does not come back.
    const [record] = await app.sql<{ name: string; token: string }>(
      `select '_gatehouse-challenge.' || hostname as name, verification_token as token from domain where id = ?`,
      [domain],
    );
    const target = { applicationId: isolated.application.applicationId, tenantId: north };
    expect((await verifyWith(app, isolated.application.apiKey, target, domain, publishing({ [record!.name]: record!.token }))).verified).toBe(true);
    await ended(isolated, domainOf(hostname), onDomain);
    await stands(isolated, onPath, north);
  });

  it('a sign-in from before grants and browser sessions recorded their surface (its tokens did) ends with its domain too', async () => {
    const hostname = 'login.older.example';
    const east = await isolated.tenantWithUser('east-older', 'ed@example.com');
    const domain = await isolated.addDomain(hostname, east);
    const older = await isolated.signIn(domainOf(hostname), 'ed@example.com');
    const [session] = await listed(isolated, east);
    const unrecorded = await app.sql<{ model: string }>(
      `update oidc_model set payload = payload - 'gatehouseIssuer' where model in ('Grant', 'Session') and payload->>'gatehouseIssuer' = ? returning model`,
      [domainOf(hostname)],
    );
    expect(unrecorded.map((row) => row.model).sort()).toEqual(['Grant', 'Session']);
    await isolated.deleteDomain(domain, east);
    expect(await listed(isolated, east)).toEqual([]);
    expect(await revocationOf(session!)).toEqual([{ tenant_id: east, after: { reason: 'domain_deleted', grantsRevoked: 1 } }]);
    await isolated.addDomain(hostname, east);
    await ended(isolated, domainOf(hostname), older);
  });

  it('a grant whose codes, tokens and browser session are gone (its JWT access token stands while the grant does) ends with its domain', async () => {
    const hostname = 'login.bare-grant.example';
    const west = await isolated.tenantWithUser('west-bare', 'wanda@example.com');
    const domain = await isolated.addDomain(hostname, west);
    const signedIn = await isolated.signIn(domainOf(hostname), 'wanda@example.com');
    const grantId = decodeJwt(signedIn.accessToken).payload['grant_id'] as string;
    await app.sql(`delete from oidc_model where (grant_id = ? and model not in ('Grant', 'GrantTenant')) or (model = 'Session' and payload->>'gatehouseIssuer' = ?)`, [
      grantId,
      domainOf(hostname),
    ]);
    expect((await app.as({ bearer: signedIn.accessToken }).get('/users')).status).toBe(403);
    await isolated.deleteDomain(domain, west);
    const records = await app.sql<{ after: unknown }>(`select after from audit_log where action = 'grant.revoked' and target_id = ?`, [grantId]);
    expect(records).toEqual([{ after: expect.objectContaining({ reason: 'domain_deleted' }) }]);
    await isolated.addDomain(hostname, west);
    expect((await app.as({ bearer: signedIn.accessToken }).get('/users')).status).toBe(401);
  });

  it('a tenant’s unverified claim of the application’s verified hostname, deleted: the sign-ins on that host stay', async () => {
    const hostname = 'login.claimed.example';
    const west = await isolated.tenantWithUser('west-claim', 'wil@example.com');
    const claim = await isolated.admin.post(`/applications/${isolated.application.applicationId}/tenants/${west}/domains`, { hostname });
    expect(claim.status).toBe(201);
    await isolated.addDomain(hostname);
    const signedIn = await isolated.signIn(domainOf(hostname), 'wil@example.com', west);
    await isolated.deleteDomain(claim.body.id, west);
    await stands(isolated, signedIn, west);
    expect(await isolated.silently(domainOf(hostname), signedIn.jar, west)).toBe('code');
    expect(await listed(isolated, west)).toHaveLength(1);
  });

  /** Past the grace, with its record missing: by a check asked through the API, or by the daily re-check (DNS publishing
   *  every other verified domain's record, so that only this one fails). */
  const unverifications: readonly [string, string, (domain: string, tenantId: string) => Promise<void>][] = [
    [
      'a check asked through the API',
      'north-asked',
      async (domain, tenantId) => {
        const target = { applicationId: isolated.application.applicationId, tenantId };
        expect((await verifyWith(app, isolated.application.apiKey, target, domain, publishing({}))).verified).toBe(false);
      },
    ],
    [
      'the daily re-check',
      'north-daily',
      async (domain) => {
        const others = await app.sql<{ name: string; token: string }>(
          `select '_gatehouse-challenge.' || hostname as name, verification_token as token from domain where verified_at is not null and id <> ?`,
          [domain],
        );
        await app.sql(`update domain set checked_at = null where id = ?`, [domain]);
        const run = await recheckDomains(app.gatehouse.services, () => new Date(), publishing(Object.fromEntries(others.map(({ name, token }) => [name, token]))));
        expect(run.unverified).toBe(1);
      },
    ],
  ];

  for (const [how, slug, unverify] of unverifications) {
    it(`a tenant’s domain un-verified past the grace by ${how}: its sign-in recorded with the end the session policy gives it, as listed`, async () => {
      const hostname = `login.${slug}.example`;
      const north = await isolated.tenantWithUser(slug, `${slug}@example.com`);
      const domain = await isolated.addDomain(hostname, north);
      const start = Date.now();
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
      await isolated.signIn(domainOf(hostname), `${slug}@example.com`);
      expect((await isolated.admin.put(`/applications/${isolated.application.applicationId}/tenants/${north}/policies/session`, { idleTimeoutMinutes: 30 })).status).toBe(200);
      vi.setSystemTime(start + 10 * 60_000);
      const [session] = (await isolated.admin.get(`/applications/${isolated.application.applicationId}/tenants/${north}/sessions`)).body.data as { id: string }[];
      // Its re-checks failing for longer than the grace.
      await app.sql(`update domain set failing_since = now() - interval '73 hours' where id = ?`, [domain]);
      await unverify(domain, north);
      expect(await app.sql(`select after->>'reason' as reason, before from audit_log where action = 'session.revoked' and target_id = ?`, [session!.id])).toEqual([
        { reason: 'domain_unverified', before: session },
      ]);
    });
  }

  it('a tenant’s slug renamed: its old path’s sign-in ends, recorded (slug_changed); renamed back, it does not come back; its id path’s and another application’s tenant of that slug stay', async () => {
    const ridge = await isolated.tenantWithUser('ridge', 'rita@example.com');
    const bySlug = await isolated.signIn(pathOf('ridge'), 'rita@example.com');
    const [session] = await listed(isolated, ridge);
    const byId = await isolated.signIn(pathOf(ridge), 'rita@example.com');
    const theirs = await isolatedApplication(app);
    const theirRidge = await theirs.tenantWithUser('ridge', 'rory@example.com');
    const theirSignIn = await theirs.signIn(pathOf('ridge'), 'rory@example.com');
    // The same slug sent again is no rename.
    await isolated.rename(ridge, 'ridge');
    const standing = await listed(isolated, ridge);
    expect(standing).toHaveLength(2);

    await isolated.rename(ridge, 'ridge-renamed');
    expect(await listed(isolated, ridge)).toEqual(standing.filter((id) => id !== session));
    expect(await revocationOf(session!)).toEqual([{ tenant_id: ridge, after: { reason: 'slug_changed', grantsRevoked: 1 } }]);
    await isolated.rename(ridge, 'ridge');
    await ended(isolated, pathOf('ridge'), bySlug);
    await stands(isolated, byId, ridge);
    await stands(theirs, theirSignIn, theirRidge);
    expect(await theirs.silently(pathOf('ridge'), theirSignIn.jar)).toBe('code');
    expect(await listed(theirs, theirRidge)).toHaveLength(1);
  });

  /** `authIsolation` switched (200 expected). */
  const switchTo = async (of: IsolatedApplication, authIsolation: 'shared' | 'isolated') => {
    const answer = await of.admin.patch(`/applications/${of.application.applicationId}`, { tenancyConfig: { authIsolation } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  };

  it('an application switched to shared: its tenants’ path sign-ins end, recorded (auth_isolation_shared); isolated again, none comes back; the service’s, its domain’s and another application’s stay', async () => {
    const own = await isolatedApplication(app);
    const hostname = 'login.switched.example';
    const ash = await own.tenantWithUser('ash', 'ash@example.com');
    const birch = await own.tenantWithUser('birch', 'bea@example.com');
    await own.addDomain(hostname);
    const bySlug = await own.signIn(pathOf('ash'), 'ash@example.com');
    const [slugSession] = await listed(own, ash);
    const byId = await own.signIn(pathOf(birch), 'bea@example.com');
    const [idSession] = await listed(own, birch);
    const onService = await own.signIn(own.service, 'ash@example.com', ash);
    const onDomain = await own.signIn(domainOf(hostname), 'bea@example.com', birch);
    const theirs = await isolatedApplication(app);
    const theirAsh = await theirs.tenantWithUser('ash', 'abe@example.com');
    const theirSignIn = await theirs.signIn(pathOf('ash'), 'abe@example.com');
    const standing = { ash: await listed(own, ash), birch: await listed(own, birch) };
    expect([standing.ash.length, standing.birch.length]).toEqual([2, 2]);

    await switchTo(own, 'shared');
    expect(await listed(own, ash)).toEqual(standing.ash.filter((id) => id !== slugSession));
    expect(await listed(own, birch)).toEqual(standing.birch.filter((id) => id !== idSession));
    expect(await revocationOf(slugSession!)).toEqual([{ tenant_id: ash, after: { reason: 'auth_isolation_shared', grantsRevoked: 1 } }]);
    expect(await revocationOf(idSession!)).toEqual([{ tenant_id: birch, after: { reason: 'auth_isolation_shared', grantsRevoked: 1 } }]);
    const ownUsers = `select id::text from app_user where application_id = ?`;
    const madeOnPaths = `select model from oidc_model where payload->>'gatehouseIssuer' in (?) and payload->>'accountId' in (${ownUsers})`;
    expect(await app.sql(madeOnPaths, [[pathOf('ash'), pathOf(birch)], own.application.applicationId])).toEqual([]);

    await switchTo(own, 'isolated');
    await ended(own, pathOf('ash'), bySlug);
    await ended(own, pathOf(birch), byId);
    await stands(own, onService, ash);
    await stands(own, onDomain, birch);
    expect(await own.silently(own.service, onService.jar, ash)).toBe('code');
    expect(await own.silently(domainOf(hostname), onDomain.jar, birch)).toBe('code');
    await stands(theirs, theirSignIn, theirAsh);
    expect(await theirs.silently(pathOf('ash'), theirSignIn.jar)).toBe('code');
    expect(await listed(own, ash)).toHaveLength(1);
    expect(await listed(own, birch)).toHaveLength(1);
  });

  it('an application switched to shared under a stricter session policy: each path sign-in recorded as the list showed it, one the policy ended under its offline grant', async () => {
    const own = await isolatedApplication(app);
    const elm = await own.tenantWithUser('elm', 'eli@example.com');
    const fir = await own.tenantWithUser('fir', 'fay@example.com');
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    const elmSignIn = await own.signIn(pathOf('elm'), 'eli@example.com');
    vi.setSystemTime(start + 25 * 60_000);
    await own.signIn(pathOf('fir'), 'fay@example.com');
    // Elm's refresh token used at 25, its browser session last at 0.
    expect((await own.refresh(pathOf('elm'), elmSignIn.refreshToken)).status).toBe(200);
    expect((await own.admin.put('/policies/session', { idleTimeoutMinutes: 30 })).status).toBe(200);
    vi.setSystemTime(start + 40 * 60_000);
    const sessionsOf = async (tenantId: string) =>
      (await own.admin.get(`/applications/${own.application.applicationId}/tenants/${tenantId}/sessions`)).body.data as { id: string; ip: string | null }[];
    // Elm's browser session idle past 30 minutes: its offline grant is listed as its own sign-in; fir's is shortened.
    const [elmGrant] = await sessionsOf(elm);
    const [firSession] = await sessionsOf(fir);
    expect([elmGrant!.ip, firSession!.ip]).toEqual([null, expect.any(String)]);

    await switchTo(own, 'shared');
    const recorded = await app.sql<{ target_id: string; before: unknown }>(
      `select target_id, before from audit_log where action = 'session.revoked' and tenant_id in (?) order by target_id`,
      [[elm, fir]],
    );
    expect(recorded).toEqual([elmGrant, firSession].map((session) => ({ target_id: session!.id, before: session })).sort((a, b) => a.target_id.localeCompare(b.target_id)));
  });

  it('a path sign-in an earlier release left when its application went shared ends when it goes isolated again', async () => {
    const own = await isolatedApplication(app);
    const dale = await own.tenantWithUser('dale', 'dot@example.com');
    const left = await own.signIn(pathOf('dale'), 'dot@example.com');
    const [session] = await listed(own, dale);
    // As a release before the switch ended them left it: shared, its path sign-in untouched.
    await app.sql(`update application set auth_isolation = 'shared' where id = ?`, [own.application.applicationId]);
    await switchTo(own, 'isolated');
    expect(await revocationOf(session!)).toEqual([{ tenant_id: dale, after: { reason: 'auth_isolation_shared', grantsRevoked: 1 } }]);
    await ended(own, pathOf('dale'), left);
  });

  it('a switch to shared refused (a tenant’s domain remains): it ends nothing', async () => {
    const own = await isolatedApplication(app);
    const cedar = await own.tenantWithUser('cedar', 'cy@example.com');
    await own.addDomain('login.cedar-kept.example', cedar);
    const onPath = await own.signIn(pathOf('cedar'), 'cy@example.com');
    const standing = await listed(own, cedar);
    const refused = await own.admin.patch(`/applications/${own.application.applicationId}`, { tenancyConfig: { authIsolation: 'shared' } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'tenant_auth_data_remains', field: 'tenancyConfig.authIsolation' });
    expect(await listed(own, cedar)).toEqual(standing);
    expect(await app.sql(`select 1 from audit_log where action = 'session.revoked' and target_id in (?)`, [standing])).toEqual([]);
    await stands(own, onPath, cedar);
    expect(await own.silently(pathOf('cedar'), onPath.jar)).toBe('code');
    expect((await own.refresh(pathOf('cedar'), onPath.refreshToken)).status).toBe(200);
  });
});

describe('a tenant’s sign-in revoked while the browser session stands for another tenant', () => {
  const issuer = () => app.gatehouse.services.config.publicUrl;
  const defaults = { redirectUri: REDIRECT, resource: '' };

  /** A user of the shared pool with a password, member of tenants A and B. */
  async function memberOfBoth(email: string): Promise<string> {
    const created = await app.http.post('/users', { email, password: PASSWORD, tenantId: tenantA });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await app.http.patch(`/users/${created.body.id}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    return created.body.id as string;
  }

  /** A SPA client of the application (`tenantId`: bound to that tenant), as openid-client sees it. */
  async function client(tenantId: string | null) {
    const { clientId } = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT], tenantId });
    return discover(app, clientId, oidc.None(), { redirect_uris: [REDIRECT] });
  }

  /** An authorization request of `config` in the browser `jar`: the client's answer (`code` or the OIDC error), or the page shown. */
  async function outcome(jar: CookieJar, config: oidc.Configuration, parameters: Record<string, string> = {}): Promise<string | Visit> {
    const flow = await startAuthorization(config, defaults, parameters, jar);
    if (flow.page.status === 200) return flow.page;
    const out = await jar.followOut(flow.page, issuer());
    return out.searchParams.get('code') === null ? (out.searchParams.get('error') ?? 'no answer') : 'code';
  }

  /** The sign-in form, as a user signed in already is asked to sign in again (no other account to switch to). */
  function signInForm(shown: string | Visit): Visit {
    if (typeof shown === 'string') throw new Error(`expected the sign-in form, the client got ${shown}`);
    expect(shown.body).toContain('name="password"');
    expect(shown.body).not.toContain('cannot be used for');
    return shown;
  }

  /** The sign-in form filled with the user's password: the client's answer. */
  async function withPassword(jar: CookieJar, shown: string | Visit, email: string): Promise<string> {
    const out = await jar.followOut(await jar.submit(signInForm(shown), { email, password: PASSWORD }), issuer());
    return out.searchParams.get('code') === null ? (out.searchParams.get('error') ?? 'no answer') : 'code';
  }

  const marks = (userId: string) => app.sql<{ tenant_id: string }>('select tenant_id from revoked_sign_in where user_id = ? order by tenant_id', [userId]);
  const sessionOf = async (userId: string, tenantId: string) =>
    ((await app.http.get(`${tenantPath(tenantId)}/users/${userId}/sessions`)).body.data as { id: string }[])[0]!;

  it('needs the user’s credential again for that tenant in that browser, silently or not; the other tenant goes on silently', async () => {
    const email = 'revoked-here@example.com';
    const userId = await memberOfBoth(email);
    const [ofA, ofB, ofPool] = [await client(tenantA), await client(tenantB), await client(null)];
    const jar = new CookieJar();
    expect(await withPassword(jar, await outcome(jar, ofA), email)).toBe('code');
    // Signed in already: B's client signs in to B with no form.
    expect(await outcome(jar, ofB)).toBe('code');

    expect((await app.http.delete(`${tenantPath(tenantA)}/sessions/${(await sessionOf(userId, tenantA)).id}`)).status).toBe(204);
    expect(await marks(userId)).toEqual([{ tenant_id: tenantA }]);

    expect(await outcome(jar, ofA, { prompt: 'none' })).toBe('login_required');
    expect(await outcome(jar, ofB, { prompt: 'none' })).toBe('code');
    expect(await outcome(jar, ofB)).toBe('code');
    // A client of the pool naming A, or naming none (the user would choose among A and B), shows the form too.
    expect(await outcome(jar, ofPool, { prompt: 'none', tenant: tenantA })).toBe('login_required');
    signInForm(await outcome(jar, ofPool));

    // The password proven for A: the mark goes, and A's client signs in silently again, as B's still does.
    expect(await withPassword(jar, await outcome(jar, ofA), email)).toBe('code');
    expect(await marks(userId)).toEqual([]);
    expect(await outcome(jar, ofA, { prompt: 'none' })).toBe('code');
    expect(await outcome(jar, ofB, { prompt: 'none' })).toBe('code');
    expect(await outcome(jar, ofPool, { prompt: 'none', tenant: tenantA })).toBe('code');
    const listed = (await app.http.get(`/users/${userId}/sessions`)).body.data as { tenantId: string }[];
    expect(listed.map((session) => session.tenantId).sort()).toEqual([tenantA, tenantB].sort());
  });

  it('refusals: another tenant’s session on a tenant’s path marks nothing; B’s revoked through GraphQL marks B, not A', async () => {
    const email = 'revoked-there@example.com';
    const userId = await memberOfBoth(email);
    const [toA, toB] = [await client(null), await client(null)];
    const jar = new CookieJar();
    expect(await withPassword(jar, await outcome(jar, toA, { tenant: tenantA }), email)).toBe('code');
    expect(await outcome(jar, toB, { tenant: tenantB })).toBe('code');
    const [onA, onB] = [await sessionOf(userId, tenantA), await sessionOf(userId, tenantB)];

    expect((await app.http.delete(`${tenantPath(tenantB)}/sessions/${onA.id}`)).body).toMatchObject({ code: 'not_found', field: 'sessionId' });
    expect(await marks(userId)).toEqual([]);
    expect(await outcome(jar, toA, { prompt: 'none', tenant: tenantA })).toBe('code');

    const revoked = await app.http.request('POST', '/graphql', {
      body: { query: 'mutation($t: UUID!, $s: UUID!) { revokeSession(tenantId: $t, sessionId: $s) }', variables: { t: tenantB, s: onB.id } },
    });
    expect(revoked.body).toEqual({ data: { revokeSession: true } });
    expect(await marks(userId)).toEqual([{ tenant_id: tenantB }]);
    expect(await outcome(jar, toB, { prompt: 'none', tenant: tenantB })).toBe('login_required');
    expect(await outcome(jar, toA, { prompt: 'none', tenant: tenantA })).toBe('code');
    expect((await app.http.get(`/sessions/${onA.id}`)).status).toBe(200);

    // The application's path ends the browser session whole, as before: nothing is left to sign in with.
    expect((await app.http.delete(`/sessions/${onA.id}`)).status).toBe(204);
    expect(await outcome(jar, toA, { prompt: 'none', tenant: tenantA })).toBe('login_required');
  });

  it('a consent to the tenant asked before its sign-in was revoked, answered after, is refused', async () => {
    const email = 'revoked-meanwhile@example.com';
    const userId = await memberOfBoth(email);
    const [ofA, ofB, ofPool] = [await client(tenantA), await client(tenantB), await client(null)];
    const jar = new CookieJar();
    expect(await withPassword(jar, await outcome(jar, ofA), email)).toBe('code');
    expect(await outcome(jar, ofB)).toBe('code');
    // Another client asks for A: the OP, signed in, brings the hosted pages a consent.
    const asked = await jar.visit((await authorizationRequest(ofPool, defaults, { tenant: tenantA })).url.href);
    expect(asked.location).toMatch(/\/interaction\//);
    expect((await app.http.delete(`${tenantPath(tenantA)}/sessions/${(await sessionOf(userId, tenantA)).id}`)).status).toBe(204);
    const out = await jar.followOut(await jar.visit(asked.location!), issuer());
    expect(out.searchParams.get('error')).toBe('access_denied');
    expect(await marks(userId)).toEqual([{ tenant_id: tenantA }]);
    expect((await app.http.get(`${tenantPath(tenantA)}/users/${userId}/sessions`)).body.data).toEqual([]);
    expect(await outcome(jar, ofB, { prompt: 'none' })).toBe('code');
  });

  it('a mark lasts as long as its browser session, and is swept once the session is gone', async () => {
    const email = 'revoked-swept@example.com';
    const userId = await memberOfBoth(email);
    const [ofA, ofB] = [await client(tenantA), await client(tenantB)];
    const jar = new CookieJar();
    expect(await withPassword(jar, await outcome(jar, ofA), email)).toBe('code');
    expect(await outcome(jar, ofB)).toBe('code');
    expect((await app.http.delete(`${tenantPath(tenantA)}/sessions/${(await sessionOf(userId, tenantA)).id}`)).status).toBe(204);
    const [browserSession] = await app.sql<{ uid: string; expires_at: Date }>(`select uid, expires_at from oidc_model where model = 'Session' and payload->>'accountId' = ?`, [userId]);

    // Past the expiry it was given while the session goes on: kept, with the session's expiry.
    await app.sql(`update revoked_sign_in set expires_at = now() - interval '1 minute' where user_id = ?`, [userId]);
    await sweepRevokedSignIns(app.gatehouse.services.orm.em.getConnection());
    const [kept] = await app.sql<{ op_session_uid: string; expires_at: Date }>('select op_session_uid, expires_at from revoked_sign_in where user_id = ?', [userId]);
    expect(kept).toEqual({ op_session_uid: browserSession!.uid, expires_at: browserSession!.expires_at });
    expect(await outcome(jar, ofA, { prompt: 'none' })).toBe('login_required');

    // The session expired: the mark goes with it.
    await app.sql(`update oidc_model set expires_at = now() - interval '1 second' where model = 'Session' and uid = ?`, [browserSession!.uid]);
    await app.sql(`update revoked_sign_in set expires_at = now() - interval '1 second' where user_id = ?`, [userId]);
    await sweepRevokedSignIns(app.gatehouse.services.orm.em.getConnection());
    expect(await marks(userId)).toEqual([]);
  });
});

describe('reading or revoking one session, or the list, costs the same statements whatever the number of isolated pools holding grants', () => {
  /** An isolated application of `count` tenants, each with a user holding a live grant, as the OP stores one. */
  async function poolsHoldingGrants(count: number) {
    const fresh = await freshApplication(app, { authIsolation: 'isolated', tenants: Array.from({ length: count }, (_, i) => `Pool ${i}`) });
    for (const tenantId of fresh.tenants) {
      const user = await fresh.admin.post(`${fresh.appPath}/tenants/${tenantId}/users`, { email: 'holder@example.com' });
      expect(user.status, JSON.stringify(user.body)).toBe(201);
      await app.sql(`insert into oidc_model (model, id, application_id, payload, expires_at) values ('Grant', ?, ?, ?::jsonb, now() + interval '1 day')`, [
        crypto.randomUUID(),
        fresh.applicationId,
        JSON.stringify({ accountId: user.body.id, clientId: crypto.randomUUID() }),
      ]);
    }
    return fresh;
  }

  it('GET and DELETE of one session and GET /sessions, on the application’s path and on a tenant’s', async () => {
    const few = await poolsHoldingGrants(1);
    const many = await poolsHoldingGrants(20);
    const missing = '0190d1a0-0000-7000-8000-000000000000';
    const requests = [
      ['GET one', (path: string) => `${path}/sessions/${missing}`, 'get', 404],
      ['DELETE one', (path: string) => `${path}/sessions/${missing}`, 'delete', 404],
      ['GET list', (path: string) => `${path}/sessions`, 'get', 200],
    ] as const;
    for (const onTenantPath of [false, true]) {
      for (const [name, url, method, status] of requests) {
        const statements = async (of: typeof few) => {
          const path = onTenantPath ? `${of.appPath}/tenants/${of.tenants[0]}` : of.appPath;
          const before = app.queries.length;
          const answer = await of.admin[method](url(path));
          expect(answer.status, JSON.stringify(answer.body)).toBe(status);
          return app.queries.length - before;
        };
        const request = `${name}${onTenantPath ? ' on a tenant’s path' : ''}`;
        const fewStatements = await statements(few);
        expect({ request, statements: await statements(many) }).toEqual({ request, statements: fewStatements });
        expect(fewStatements, request).toBeLessThanOrEqual(10);
      }
    }
  });
});

describe('application stats', () => {
  /** A fresh application whose one user failed a sign-in on the hosted page, then signed in. */
  async function signedInOnce(name: string) {
    const fresh = await app.http.post('/applications', { name, multiTenant: true });
    expect(fresh.status).toBe(201);
    const appId = fresh.body.id as string;
    const admin = app.as({ apiKey: fresh.body.initialApiKey.secret });
    const tenant = (await admin.post(`/applications/${appId}/tenants`, { name: 'T' })).body.id as string;
    const user = (await admin.post('/users', { email: 'stat@example.com', password: PASSWORD, tenantId: tenant })).body.id as string;
    await admin.post('/users', { email: 'idle@example.com', tenantId: tenant });
    const client = await createTestClient(app, { applicationId: appId, type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
    const config = await discover(app, client.clientId, oidc.None(), { redirect_uris: [REDIRECT] });
    // Through the hosted page: a wrong password (recorded as failed), then the right one (a session of method password).
    const wrong = await startAuthorization(config, { redirectUri: REDIRECT, resource: '' });
    expect((await wrong.jar.submit(wrong.page, { email: 'stat@example.com', password: 'Wrong-password-1' })).status).toBe(400);
    const flow = await startAuthorization(config, { redirectUri: REDIRECT, resource: '' });
    const callback = await flow.jar.followOut(await flow.jar.submit(flow.page, { email: 'stat@example.com', password: PASSWORD }), app.gatehouse.services.config.publicUrl);
    expect(callback.searchParams.get('code')).toEqual(expect.any(String));
    const [session] = (await admin.get(`/users/${user}/sessions`)).body.data;
    expect(session).toMatchObject({ tenantId: tenant, clientId: client.clientId, methods: ['password'] });
    const [failure] = await app.sql<{ outcome: string; tenant_id: string | null }>(`select outcome, tenant_id from audit_log where action = 'user.sign_in_failed' and target_id = ?`, [user]);
    // Filed under the user's only tenant (the page named none): src/domain/audit/auth-events.ts.
    expect(failure).toEqual({ outcome: 'failure', tenant_id: tenant });
    return { appId, admin, tenant };
  }

  it('counts users, tenants, active users and sign-ins, from a figure at most a minute old', async () => {
    const { appId, admin, tenant } = await signedInOnce('Stats');
    const stats = await admin.get(`/applications/${appId}/stats`);
    expect(stats.status, JSON.stringify(stats.body)).toBe(200);
    expect(stats.body).toMatchObject({ users: 2, tenants: 1, activeUsers: { day: 1, week: 1, month: 1 }, signIns: { succeeded: 1, failed: 1 } });
    expect(Date.now() - new Date(stats.body.computedAt).getTime()).toBeLessThan(60_000);
    // Within the minute the same figure, as computedAt says.
    await admin.post('/users', { email: 'late@example.com', tenantId: tenant });
    expect((await admin.get(`/applications/${appId}/stats`)).body).toEqual(stats.body);

    const gql = await admin.request('POST', '/graphql', { body: { query: `{ applicationStats(appId: "${appId}") { users signIns { succeeded } } }` } });
    expect(gql.body).toEqual({ data: { applicationStats: { users: 2, signIns: { succeeded: 1 } } } });
  });

  it('agree with the analytics once audit retention has deleted the sign-ins’ records', async () => {
    const { appId, admin } = await signedInOnce('Stats kept');
    expect((await admin.patch(`/applications/${appId}`, { auditRetentionDays: 1 })).status).toBe(200);
    await purgeExpiredAuditRecords(app.gatehouse.services.orm, () => new Date(Date.now() + 2 * 86_400_000));
    expect(await app.sql(`select 1 from audit_log where application_id = ? and action in ('user.signed_in', 'user.sign_in_failed')`, [appId])).toEqual([]);

    const stats = (await admin.get(`/applications/${appId}/stats`)).body;
    expect(stats).toMatchObject({ activeUsers: { day: 1, week: 1, month: 1 }, signIns: { succeeded: 1, failed: 1 } });
    const signIns = (await admin.get(`/analytics/sign-ins?interval=month`)).body.data as { succeeded: number; failed: number }[];
    expect(signIns.reduce((sum, point) => sum + point.succeeded, 0)).toBe(1);
    expect((await admin.get(`/analytics/active-users?from=${stats.computedAt.slice(0, 10)}`)).body.data.at(-1)).toMatchObject({ count: 1 });
  });

  it('refusals: another application is 404, tenant-scoped credentials 403, a key without applications:read 403', async () => {
    const other = await app.bootstrapAnother();
    expect((await app.http.get(`/applications/${other.applicationId}/stats`)).status).toBe(404);
    const tenantKey = await app.http.post('/api-keys', { name: 'tenant', permissions: ['*'], tenantId: tenantA });
    expect((await app.as({ apiKey: tenantKey.body.secret }).get(`/applications/${app.root.applicationId}/stats`)).status).toBe(403);
    const narrow = await app.http.post('/api-keys', { name: 'users', permissions: ['users:read'] });
    expect((await app.as({ apiKey: narrow.body.secret }).get(`/applications/${app.root.applicationId}/stats`)).status).toBe(403);
  });
});
