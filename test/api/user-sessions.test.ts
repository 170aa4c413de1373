import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { endGrantsOfDeletedClients } from '../../src/domain/oauth-clients/deleted-client-grants.ts';
import { newId } from '../../src/ids.ts';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { issueTestKey } from '../support/keys.ts';
import { basicAuth, createTestClient, discover, OFFLINE_CONSENT, postForm, startAuthorization, TestBrowser, type TestClient } from '../support/oauth.ts';
import { landing, offlineSignIn, provenNotResumed } from '../support/seam-sessions.ts';

/**
 * DELETE /users/{userId}/sessions (revokeUserSessions): an administrator signs a user out everywhere in the scope, the
 * grants no session lists included (an offline grant that outlived its browser session's sign-out).
 */
const REDIRECT = 'https://app.example/callback';
const PASSWORD = 'Correct-Horse-Battery-9';
let app: TestApp;
let spa: TestClient;
let introspector: TestClient;
let tenantA: string;
let tenantB: string;

const tenantPath = (tenantId: string) => `/applications/${app.root.applicationId}/tenants/${tenantId}`;

beforeAll(async () => {
  ({ app, tenants: [tenantA, tenantB] } = await startTestAppWithTenants(['A', 'B'], {}, { reachablePublicUrl: true }));
  spa = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
  introspector = await createTestClient(app);
});
afterAll(async () => app?.close());

/** A sign-in with a refresh token, in `browser` or a browser of its own. */
const signIn = (userId: string, tenantId: string, clientId = spa.clientId, browser?: TestBrowser) =>
  offlineSignIn(app, { clientId, redirectUri: REDIRECT, userId, tenantId, browser });

/** Refreshes, and returns the refresh token to use next (rotated or not); undefined when refused as `invalid_grant`. */
async function refresh(config: oidc.Configuration, refreshToken: string): Promise<string | undefined> {
  try {
    return (await oidc.refreshTokenGrant(config, refreshToken)).refresh_token ?? refreshToken;
  } catch (error) {
    expect((error as { error?: string }).error).toBe('invalid_grant');
    return undefined;
  }
}

const active = async (token: string) =>
  (await postForm(`${app.gatehouse.services.config.publicUrl}/oauth2/introspect`, { token }, { authorization: basicAuth(introspector.clientId, introspector.clientSecret!) }))
    .body.active as boolean;

/**
 * Signed in with offline_access through the sign-in page, then signed out in that browser: the refresh token outlives
 * it, its grant a session of its own (no address).
 */
async function offlineGrantOutlivingSignOut(email: string, tenantId = tenantA, clientId = spa.clientId) {
  const created = await app.http.post('/users', { email, password: PASSWORD, tenantId });
  expect(created.status).toBe(201);
  const config = await discover(app, clientId, oidc.None(), { redirect_uris: [REDIRECT] });
  const flow = await startAuthorization(config, { redirectUri: REDIRECT, resource: '' }, { tenant: tenantId, ...OFFLINE_CONSENT });
  const issuer = app.gatehouse.services.config.publicUrl;
  const callback = await flow.jar.followOut(await flow.jar.submit(flow.page, { email, password: PASSWORD }), issuer);
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  const confirm = await flow.jar.visit(`${issuer}/oauth2/logout?client_id=${clientId}`);
  expect((await flow.jar.submit(confirm, { logout: 'yes' })).location).toBe(`${issuer}/oauth2/logout/success`);
  const refreshToken = await refresh(config, tokens.refresh_token!);
  expect(refreshToken).toEqual(expect.any(String));
  const sessions = (await app.http.get(`/users/${created.body.id}/sessions`)).body.data as Record<string, unknown>[];
  expect(sessions).toEqual([expect.objectContaining({ tenantId, ip: null })]);
  return { userId: created.body.id as string, config, refreshToken: refreshToken!, session: sessions[0]! };
}

describe('signing a user out everywhere', () => {
  it('ends their sign-ins and the offline grant that outlived its sign-out, each recorded as a session; another user’s stand; idempotent', async () => {
    const offline = await offlineGrantOutlivingSignOut('everywhere@example.com');
    const live = await signIn(offline.userId, tenantA);
    const second = await signIn(offline.userId, tenantA);
    const sessions = (await app.http.get(`/users/${offline.userId}/sessions`)).body.data as { id: string; ip: string | null }[];
    expect(sessions).toHaveLength(3);
    const browserSessions = sessions.filter((listed) => listed.ip !== null);
    const grantSignIn = sessions.find((listed) => listed.ip === null)!;
    expect(browserSessions).toEqual([expect.objectContaining({ userId: offline.userId, tenantId: tenantA }), expect.objectContaining({ userId: offline.userId, tenantId: tenantA })]);
    const bystanderId = await app.createUser('bystander@example.com', tenantA);
    const bystander = await signIn(bystanderId, tenantA);
    expect(await active(offline.refreshToken)).toBe(true);

    const headers = { 'idempotency-key': randomUUID() };
    const revoked = await app.http.delete(`/users/${offline.userId}/sessions`, { headers });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(204);
    expect(await refresh(offline.config, offline.refreshToken)).toBeUndefined();
    expect(await refresh(live.config, live.tokens.refresh_token!)).toBeUndefined();
    expect(await refresh(second.config, second.tokens.refresh_token!)).toBeUndefined();
    expect(await active(offline.refreshToken)).toBe(false);
    for (const token of [offline.refreshToken, live.tokens.access_token]) {
      expect((await app.http.post('/sessions/validate', { token })).body).toEqual({ valid: false, session: null });
    }
    expect((await app.http.get(`/users/${offline.userId}/sessions`)).body.data).toEqual([]);

    expect((await app.http.get(`/users/${bystanderId}/sessions`)).body.data).toHaveLength(1);
    expect(await refresh(bystander.config, bystander.tokens.refresh_token!)).toEqual(expect.any(String));

    // One record per session, the grant's as DELETE /sessions/{id} records it; each counts its own grants only.
    const ids = sessions.map((listed) => listed.id);
    const records = await app.sql<{ action: string; target_id: string; tenant_id: string; actor_type: string; before: unknown; after: unknown }>(
      `select action, target_id, tenant_id, actor_type, before, after from audit_log
        where (action = 'session.revoked' and target_id in (?, ?, ?)) or (action = 'grant.revoked' and after->>'userId' = ?) order by target_id`,
      [...ids, offline.userId],
    );
    expect(records).toEqual(
      [...browserSessions.map((session) => ({ ...session, before: expect.objectContaining({ id: session.id }) })), { ...grantSignIn, before: grantSignIn }]
        .sort((a, b) => a.id.localeCompare(b.id))
        .map((session) => ({ action: 'session.revoked', target_id: session.id, tenant_id: tenantA, actor_type: 'api_key', before: session.before, after: { grantsRevoked: 1 } })),
    );

    const replayed = await app.http.delete(`/users/${offline.userId}/sessions`, { headers });
    expect([replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([204, 'true']);
    expect((await app.http.delete(`/users/${offline.userId}/sessions`)).status).toBe(204);
    expect(await app.sql(`select 1 from audit_log where action in ('session.revoked', 'grant.revoked') and (target_id in (?, ?, ?) or after->>'userId' = ?)`, [...ids, offline.userId])).toHaveLength(3);
  });

  it('ends a sign-in proven on the hosted pages whose browser has not come back to the OP yet; another user’s goes on', async () => {
    const userId = await app.createUser('in-flight@example.com', tenantA);
    const bystanderId = await app.createUser('in-flight-bystander@example.com', tenantA);
    const proven = (id: string) => provenNotResumed(app, { clientId: spa.clientId, redirectUri: REDIRECT, userId: id, tenantId: tenantA });
    const theirs = await proven(userId);
    const other = await proven(bystanderId);
    expect((await app.http.delete(`/users/${userId}/sessions`)).status).toBe(204);
    const landed = await landing(theirs.browser, theirs.resume, REDIRECT);
    expect(landed.client, landed.url.href).toBe(false);
    expect((await app.http.get(`/users/${userId}/sessions`)).body.data).toEqual([]);
    expect((await landing(other.browser, other.resume, REDIRECT)).client).toBe(true);
  });

  it('on a tenant’s path, ends a sign-in to that tenant proven and not resumed yet; one to another tenant goes on', async () => {
    const userId = await app.createUser('in-flight-tenants@example.com', tenantA);
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    const proven = (tenantId: string) => provenNotResumed(app, { clientId: spa.clientId, redirectUri: REDIRECT, userId, tenantId });
    const toA = await proven(tenantA);
    const toB = await proven(tenantB);
    expect((await app.http.delete(`${tenantPath(tenantA)}/users/${userId}/sessions`)).status).toBe(204);
    const landed = await landing(toA.browser, toA.resume, REDIRECT);
    expect(landed.client, landed.url.href).toBe(false);
    expect((await landing(toB.browser, toB.resume, REDIRECT)).client).toBe(true);
  });

  it('on a tenant’s path, only the sign-ins to that tenant and the grants made for it end', async () => {
    const offlineInA = await offlineGrantOutlivingSignOut('both@example.com');
    const { userId } = offlineInA;
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    const spaB = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
    const browser = new TestBrowser();
    const inA = await signIn(userId, tenantA, spa.clientId, browser);
    const inB = await signIn(userId, tenantB, spaB.clientId, browser);

    expect((await app.http.delete(`${tenantPath(tenantA)}/users/${userId}/sessions`)).status).toBe(204);
    expect(await refresh(inA.config, inA.tokens.refresh_token!)).toBeUndefined();
    expect(await refresh(offlineInA.config, offlineInA.refreshToken)).toBeUndefined();
    expect(await refresh(inB.config, inB.tokens.refresh_token!)).toEqual(expect.any(String));
    const left = (await app.http.get(`/users/${userId}/sessions`)).body.data as { tenantId: string }[];
    expect(left.map((session) => session.tenantId)).toEqual([tenantB]);
    // The browser session stands for B, and signs the user in to A again only with a credential.
    expect(await app.sql(`select 1 from revoked_sign_in where user_id = ? and tenant_id = ?`, [userId, tenantA])).toHaveLength(1);
  });

  it('refusals: an unknown user, another tenant’s or application’s is 404, a key without sessions:delete 403; nothing ends', async () => {
    const userId = await app.createUser('refused@example.com', tenantA);
    const signedIn = await signIn(userId, tenantA);
    const other = await app.bootstrapAnother();

    expect((await app.http.delete(`/users/${newId()}/sessions`)).body).toMatchObject({ code: 'not_found', field: 'userId' });
    expect((await app.http.delete(`${tenantPath(tenantB)}/users/${userId}/sessions`)).status).toBe(404);
    const keyB = await issueTestKey(app, { tenantId: tenantB, permissions: ['sessions:*'] });
    expect((await keyB.delete(`/users/${userId}/sessions`)).body).toMatchObject({ code: 'not_found', field: 'userId' });
    expect((await app.as({ apiKey: other.apiKey }).delete(`/users/${userId}/sessions`)).status).toBe(404);
    const reader = await app.http.post('/api-keys', { name: 'sessions reader', permissions: ['sessions:read', 'users:*'] });
    expect((await app.as({ apiKey: reader.body.secret }).delete(`/users/${userId}/sessions`)).status).toBe(403);
    const graphql = await app.as({ apiKey: reader.body.secret }).request('POST', '/graphql', {
      body: { query: 'mutation($id: UUID!) { revokeUserSessions(userId: $id) }', variables: { id: userId } },
    });
    expect(graphql.body.errors?.[0]?.extensions?.code).toBe('forbidden');

    expect((await app.http.get(`/users/${userId}/sessions`)).body.data).toHaveLength(1);
    expect(await refresh(signedIn.config, signedIn.tokens.refresh_token!)).toEqual(expect.any(String));
  });

  it('through GraphQL too', async () => {
    const offline = await offlineGrantOutlivingSignOut('graphql-everywhere@example.com');
    const response = await app.http.request('POST', '/graphql', {
      body: { query: 'mutation($id: UUID!) { revokeUserSessions(userId: $id) }', variables: { id: offline.userId } },
    });
    expect(response.body).toEqual({ data: { revokeUserSessions: true } });
    expect(await refresh(offline.config, offline.refreshToken)).toBeUndefined();
  });
});

describe('a grant sign-in ended with its tenant', () => {
  /** Its `session.revoked` records: as DELETE /sessions/{id} records it, with the path's reason. */
  const revocations = (sessionId: string) => app.sql<{ tenant_id: string; before: unknown; after: unknown }>(
    `select tenant_id, before, after from audit_log where action = 'session.revoked' and target_id = ?`,
    [sessionId],
  );

  it('a user taken out of the tenant: ended, recorded as a session (membership_removed), no grant record', async () => {
    const left = await app.createTenant('Left');
    const offline = await offlineGrantOutlivingSignOut('left-offline@example.com', left);
    expect((await app.http.patch(`/users/${offline.userId}`, { tenantIds: [tenantA] })).status).toBe(200);
    expect(await refresh(offline.config, offline.refreshToken)).toBeUndefined();
    expect((await app.http.get(`/users/${offline.userId}/sessions`)).body.data).toEqual([]);
    expect(await revocations(offline.session['id'] as string)).toEqual([
      { tenant_id: left, before: offline.session, after: { reason: 'membership_removed', grantsRevoked: 1 } },
    ]);
    expect(await app.sql(`select 1 from audit_log where action = 'grant.revoked' and after->>'userId' = ?`, [offline.userId])).toEqual([]);
  });

  it('the tenant deleted: ended, recorded as a session (tenant_deleted); a user of a kept tenant signed in the same way stands', async () => {
    const doomed = await app.createTenant('Doomed');
    const offline = await offlineGrantOutlivingSignOut('doomed-offline@example.com', doomed);
    const kept = await offlineGrantOutlivingSignOut('kept-offline@example.com');
    expect((await app.http.delete(tenantPath(doomed))).status).toBe(204);
    expect(await refresh(offline.config, offline.refreshToken)).toBeUndefined();
    expect(await revocations(offline.session['id'] as string)).toEqual([{ tenant_id: doomed, before: offline.session, after: { reason: 'tenant_deleted', grantsRevoked: 1 } }]);
    expect(await app.sql(`select 1 from audit_log where action = 'grant.revoked' and after->>'userId' = ?`, [offline.userId])).toEqual([]);
    expect(await refresh(kept.config, kept.refreshToken)).toEqual(expect.any(String));
    expect(await revocations(kept.session['id'] as string)).toEqual([]);
  });
});

describe('a grant sign-in whose client no longer stands', () => {
  it('revoked or deleted, it is no session: not listed, read, validated nor revoked; the user’s sign-in with a standing client is', async () => {
    for (const end of ['revoked', 'deleted'] as const) {
      const client = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
      const gone = await offlineGrantOutlivingSignOut(`client-${end}@example.com`, tenantA, client.clientId);
      const id = gone.session['id'] as string;
      const standing = await signIn(gone.userId, tenantA);
      const listed = async () => ((await app.http.get(`/users/${gone.userId}/sessions`)).body.data as { id: string }[]).map((session) => session.id);
      expect(await listed()).toContain(id);
      expect((await app.http.get(`/sessions/${id}`)).status).toBe(200);

      // The management API revokes only M2M credentials: the OP's rows outlive a client's revocation as its deletion.
      if (end === 'revoked') await app.sql(`update oauth_client set revoked_at = now() where id = ?`, [client.clientId]);
      else expect((await app.http.delete(`/oauth-clients/${client.clientId}`)).status).toBe(204);

      expect((await app.http.post('/sessions/validate', { token: gone.refreshToken })).body, end).toEqual({ valid: false, session: null });
      expect(await listed(), end).not.toContain(id);
      expect((await app.http.get('/sessions?pageSize=100')).body.data.map((session: { id: string }) => session.id), end).not.toContain(id);
      expect((await app.http.get(`${tenantPath(tenantA)}/sessions/${id}`)).status, end).toBe(404);
      expect((await app.http.get(`/sessions/${id}`)).status, end).toBe(404);
      expect((await app.http.delete(`/sessions/${id}`)).status, end).toBe(404);
      // A deletion ended it, recorded; nothing can revoke it after.
      expect(await app.sql(`select after from audit_log where action = 'session.revoked' and target_id = ?`, [id])).toEqual(
        end === 'revoked' ? [] : [{ after: { reason: 'client_deleted', grantsRevoked: 1 } }],
      );

      expect((await app.http.post('/sessions/validate', { token: standing.tokens.refresh_token! })).body.valid, end).toBe(true);
      expect(await listed(), end).toHaveLength(1);
    }
  });
});

describe('a client deleted', () => {
  /** Its `session.revoked` and `grant.revoked` records' `after`, by target. */
  const records = (action: string, targetId: string) => app.sql<{ tenant_id: string; after: unknown }>(
    'select tenant_id, after from audit_log where action = ? and target_id = ? order by id',
    [action, targetId],
  );
  /** The token endpoint's answer to a refresh by the public client `clientId`. */
  const refreshBy = async (clientId: string, refreshToken: string) => {
    const answer = await postForm(`${app.baseUrl}/oauth2/token`, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });
    return { status: answer.status, error: (answer.body as { error?: string }).error };
  };
  const grantOf = async (refreshToken: string) =>
    (await app.sql<{ grant_id: string }>(`select grant_id from oidc_model where model = 'RefreshToken' and id = ?`, [refreshToken]))[0]!.grant_id;
  const opRow = (model: string, id: string) => app.sql(`select 1 from oidc_model where model = ? and id = ?`, [model, id]);
  /** The sweep's records of the grants of clients gone, by target. */
  const system = { actor_type: 'system', actor_id: 'deleted-client-grants' };
  const recorded = (action: string, targetId: string) => app.sql<{ tenant_id: string | null; actor_type: string; actor_id: string; after: unknown }>(
    'select tenant_id, actor_type, actor_id, after from audit_log where action = ? and target_id = ?',
    [action, targetId],
  );
  const sweptRecords = async () => (await app.sql<{ n: number }>(`select count(*)::int as n from audit_log where actor_id = 'deleted-client-grants'`))[0]!.n;

  it('ends its grant sign-ins, each recorded (client_deleted); the OP refuses its refresh tokens; another client’s, tenant’s or application’s stand', async () => {
    const doomed = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
    const gone = await offlineGrantOutlivingSignOut('doomed-client-a@example.com', tenantA, doomed.clientId);
    const goneInB = await offlineGrantOutlivingSignOut('doomed-client-b@example.com', tenantB, doomed.clientId);
    const goneGrant = await grantOf(gone.refreshToken);
    const bystander = await offlineGrantOutlivingSignOut('bystander-client@example.com', tenantA);
    const other = await app.bootstrapAnother();
    const theirs = (await app.as({ apiKey: other.apiKey }).post('/oauth-clients', { name: 'Theirs', type: 'spa', redirectUris: [REDIRECT] })).body;

    // Refusals first: another application's client, a tenant key aimed at an application-wide client, end nothing.
    expect((await app.http.delete(`/oauth-clients/${theirs.clientId}`)).status).toBe(404);
    const tenantKey = await issueTestKey(app, { tenantId: tenantB, permissions: ['oauth_clients:delete'] });
    expect((await tenantKey.delete(`/oauth-clients/${doomed.clientId}`)).status).toBe(404);
    expect(await opRow('Grant', goneGrant)).toHaveLength(1);
    expect(await records('session.revoked', gone.session['id'] as string)).toEqual([]);

    expect((await app.http.delete(`/oauth-clients/${doomed.clientId}`)).status).toBe(204);

    expect(await refreshBy(doomed.clientId, gone.refreshToken)).toEqual({ status: 401, error: 'invalid_client' });
    expect(await opRow('Grant', goneGrant)).toEqual([]);
    expect(await app.sql('select 1 from oidc_model where grant_id = ?', [goneGrant])).toEqual([]);
    for (const ended of [gone, goneInB]) {
      expect(await records('session.revoked', ended.session['id'] as string)).toEqual([
        { tenant_id: ended.session['tenantId'], after: { reason: 'client_deleted', grantsRevoked: 1 } },
      ]);
    }
    expect(await app.sql(`select 1 from audit_log where action = 'grant.revoked' and after->>'clientId' = ?`, [doomed.clientId])).toEqual([]);

    expect(await refresh(bystander.config, bystander.refreshToken)).toEqual(expect.any(String));
    expect(await records('session.revoked', bystander.session['id'] as string)).toEqual([]);
  });

  it('drops its authorizations from the browser sessions: a sign-in held by it alone ends recorded, one held by another client too stands', async () => {
    const doomed = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
    const created = await app.http.post('/users', { email: 'two-clients@example.com', password: PASSWORD, tenantId: tenantA });
    const userId = created.body.id as string;
    // One browser signed in through both clients, another through the doomed one only.
    const both = new TestBrowser();
    const kept = await signIn(userId, tenantA, spa.clientId, both);
    const alongside = await signIn(userId, tenantA, doomed.clientId, both);
    const alone = await signIn(userId, tenantA, doomed.clientId, new TestBrowser());
    const sessions = async () => (await app.http.get(`/users/${userId}/sessions`)).body.data as { id: string; clientId: string }[];
    const before = await sessions();
    expect(before).toHaveLength(2);
    // Each row names its tenant's first client in its browser session.
    const rowOf = async (clientId: string) =>
      (await app.sql<{ id: string; uid: string }>('select id, op_session_uid as uid from user_session where id = ?', [before.find((session) => session.clientId === clientId)!.id]))[0]!;
    const keptRow = await rowOf(spa.clientId);
    const aloneRow = await rowOf(doomed.clientId);
    const alongsideGrant = await grantOf(alongside.tokens.refresh_token!);
    const aloneGrant = await grantOf(alone.tokens.refresh_token!);

    expect((await app.http.delete(`/oauth-clients/${doomed.clientId}`)).status).toBe(204);

    expect((await sessions()).map((session) => session.id)).toEqual([keptRow.id]);
    const [browser] = await app.sql<{ clients: string[] }>(
      `select array(select jsonb_object_keys(payload->'authorizations')) as clients from oidc_model where model = 'Session' and uid = ?`,
      [keptRow.uid],
    );
    expect(browser!.clients).toEqual([spa.clientId]);
    expect(await opRow('Grant', alongsideGrant)).toEqual([]);
    expect(await records('grant.revoked', alongsideGrant)).toEqual([
      { tenant_id: tenantA, after: { reason: 'client_deleted', clientId: doomed.clientId, userId } },
    ]);
    expect(await refresh(kept.config, kept.tokens.refresh_token!)).toEqual(expect.any(String));

    expect(await app.sql(`select 1 from oidc_model where model = 'Session' and uid = ?`, [aloneRow.uid])).toEqual([]);
    expect(await opRow('Grant', aloneGrant)).toEqual([]);
    expect(await records('session.revoked', aloneRow.id)).toEqual([{ tenant_id: tenantA, after: { reason: 'client_deleted', grantsRevoked: 1 } }]);
    expect(await records('session.revoked', keptRow.id)).toEqual([]);
  });

  it('left by a deletion that ended none (an older deployment’s): ended by the step, recorded as a deletion ends them; a standing client’s, another application’s stand', async () => {
    const old = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
    const offline = await offlineGrantOutlivingSignOut('left-by-old-deletion@example.com', tenantA, old.clientId);
    const offlineGrant = await grantOf(offline.refreshToken);
    const userId = offline.userId;
    // A browser signed in through the old client alone, another through a standing client too.
    await signIn(userId, tenantA, old.clientId, new TestBrowser());
    const both = new TestBrowser();
    const kept = await signIn(userId, tenantA, spa.clientId, both);
    const alongside = await signIn(userId, tenantA, old.clientId, both);
    const alongsideGrant = await grantOf(alongside.tokens.refresh_token!);
    const bystander = await offlineGrantOutlivingSignOut('bystander-of-old-deletion@example.com', tenantA);
    const other = await app.bootstrapAnother();
    const theirs = (await app.as({ apiKey: other.apiKey }).post('/oauth-clients', { name: 'Theirs', type: 'spa', redirectUris: [REDIRECT] })).body;
    const theirGrant = randomUUID();
    await app.sql(`insert into oidc_model (model, id, application_id, payload) values ('Grant', ?, ?, ?::jsonb)`, [
      theirGrant,
      other.applicationId,
      JSON.stringify({ clientId: theirs.clientId, accountId: randomUUID(), iat: Math.floor(Date.now() / 1000) }),
    ]);
    const sessions = async () => (await app.http.get(`/users/${userId}/sessions`)).body.data as { id: string; clientId: string }[];
    const sessionIds = async () => (await sessions()).map((session) => session.id);
    // The browser session's row: the grant sign-in names the old client too.
    const aloneId = (await sessions()).find((session) => session.clientId === old.clientId && session.id !== offline.session['id'])!.id;
    const aloneRow = (await app.sql<{ id: string; uid: string }>('select id, op_session_uid as uid from user_session where id = ?', [aloneId]))[0]!;
    // As a deletion before grants ended with their client left them: the client's row gone, nothing else.
    await app.sql('delete from oauth_client where id = ?', [old.clientId]);
    expect(await sessionIds()).toContain(aloneRow.id);

    await endGrantsOfDeletedClients(app.gatehouse.services);

    expect(await app.sql('select 1 from oidc_model where grant_id in (?, ?) or id in (?, ?)', [offlineGrant, alongsideGrant, offlineGrant, alongsideGrant])).toEqual([]);
    expect(await app.sql(`select 1 from oidc_model where model = 'Grant' and payload->>'clientId' = ?`, [old.clientId])).toEqual([]);
    expect(await app.sql(`select 1 from oidc_model where model = 'Session' and uid = ?`, [aloneRow.uid])).toEqual([]);
    expect(await sessionIds()).not.toContain(aloneRow.id);
    expect(await recorded('session.revoked', offline.session['id'] as string)).toEqual([
      { tenant_id: tenantA, ...system, after: { reason: 'client_deleted', grantsRevoked: 1 } },
    ]);
    expect(await recorded('session.revoked', aloneRow.id)).toEqual([{ tenant_id: tenantA, ...system, after: { reason: 'client_deleted', grantsRevoked: 1 } }]);
    expect(await recorded('grant.revoked', alongsideGrant)).toEqual([
      { tenant_id: tenantA, ...system, after: { reason: 'client_deleted', clientId: old.clientId, userId } },
    ]);

    // The standing client's sign-ins stand, in the shared browser and outside any; another application's grant too.
    expect(await refresh(kept.config, kept.tokens.refresh_token!)).toEqual(expect.any(String));
    expect(await refresh(bystander.config, bystander.refreshToken)).toEqual(expect.any(String));
    expect(await records('session.revoked', bystander.session['id'] as string)).toEqual([]);
    expect(await opRow('Grant', theirGrant)).toHaveLength(1);
    // Nothing is left to end: a second run records nothing.
    const ran = await sweptRecords();
    await endGrantsOfDeletedClients(app.gatehouse.services);
    expect(await sweptRecords()).toBe(ran);
  });

  it('left by a deletion that ended none, under a session policy made stricter: its browser session recorded with the end the list showed', async () => {
    const old = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
    const created = await app.http.post('/users', { email: 'stricter-old-deletion@example.com', password: PASSWORD, tenantId: tenantA });
    expect(created.status).toBe(201);
    const { idleTimeoutMinutes, absoluteTimeoutMinutes, singleSession, notifyNewBrowser } = (await app.http.get('/policies/session')).body as Record<string, unknown>;
    const policy = { idleTimeoutMinutes, absoluteTimeoutMinutes, singleSession, notifyNewBrowser };
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      await signIn(created.body.id as string, tenantA, old.clientId, new TestBrowser());
      expect((await app.http.put('/policies/session', { ...policy, idleTimeoutMinutes: 30 })).status).toBe(200);
      vi.setSystemTime(start + 10 * 60_000);
      const [session] = ((await app.http.get(`/users/${created.body.id}/sessions`)).body.data as { id: string; ip: string | null }[]).filter((listed) => listed.ip !== null);
      await app.sql('delete from oauth_client where id = ?', [old.clientId]);

      await endGrantsOfDeletedClients(app.gatehouse.services);

      expect(await app.sql(`select before from audit_log where action = 'session.revoked' and target_id = ?`, [session!.id])).toEqual([{ before: session }]);
    } finally {
      vi.useRealTimers();
      expect((await app.http.put('/policies/session', policy)).status).toBe(200);
    }
  });

  it('saved by the OP from its client cache as the deletion committed (no application): ended by the step, recorded as a deletion ends them', async () => {
    const late = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
    const offline = await offlineGrantOutlivingSignOut('saved-after-deletion@example.com', tenantA, late.clientId);
    const grant = await grantOf(offline.refreshToken);
    // Its grant and tokens saved once the client's row was gone: no application; the tenant's row names the client's.
    await app.sql('delete from oauth_client where id = ?', [late.clientId]);
    await app.sql(`update oidc_model set application_id = null where model <> 'GrantTenant' and (id = ? or grant_id = ?)`, [grant, grant]);
    // Another the OP saved again after the deletion ended it, with no tenant's row: its user's application.
    const resaved = randomUUID();
    await app.sql(`insert into oidc_model (model, id, application_id, payload) values ('Grant', ?, null, ?::jsonb)`, [
      resaved,
      JSON.stringify({ clientId: late.clientId, accountId: offline.userId, iat: Math.floor(Date.now() / 1000) }),
    ]);
    const ran = await sweptRecords();

    await endGrantsOfDeletedClients(app.gatehouse.services);

    expect(await app.sql('select model from oidc_model where id in (?, ?) or grant_id in (?, ?)', [grant, resaved, grant, resaved])).toEqual([]);
    expect(await recorded('session.revoked', offline.session['id'] as string)).toEqual([
      { tenant_id: tenantA, ...system, after: { reason: 'client_deleted', grantsRevoked: 1 } },
    ]);
    expect(await recorded('grant.revoked', resaved)).toEqual([
      { tenant_id: null, ...system, after: { reason: 'client_deleted', clientId: late.clientId, userId: offline.userId } },
    ]);
    expect(await sweptRecords()).toBe(ran + 2);
    expect(await refresh(offline.config, offline.refreshToken)).toBeUndefined();
  });
});

describe('a user split into copies by the switch to isolated pools', () => {
  it('loses their sign-ins to the tenants their copies take over, so a return to them after the way back revives none', async () => {
    const split = await app.createTenant('Split');
    const offline = await offlineGrantOutlivingSignOut('split-offline@example.com', split);
    const kept = await offlineGrantOutlivingSignOut('split-kept@example.com');
    expect((await app.http.patch(`/users/${offline.userId}`, { tenantIds: [tenantA, split] })).status).toBe(200);
    expect((await app.http.patch(`/users/${kept.userId}`, { tenantIds: [tenantA, split] })).status).toBe(200);
    const appPath = `/applications/${app.root.applicationId}`;
    expect((await app.http.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    try {
      // The original stays in A, where the other user's sign-in stands; its copy is Split's member, signed in nowhere.
      expect(
        (await app.sql<{ tenant_id: string; after: unknown }>(`select tenant_id, after from audit_log where action = 'session.revoked' and target_id = ?`, [offline.session['id']]))
      ).toEqual([{ tenant_id: split, after: { reason: 'membership_removed', grantsRevoked: 1 } }]);
      expect(await refresh(kept.config, kept.refreshToken)).toEqual(expect.any(String));
    } finally {
      // The way back: the copies go (the administrator's call), and the original returns to Split.
      const copies = await app.sql<{ id: string }>(`select target_id as id from audit_log where application_id = ? and action = 'user.copied'`, [app.root.applicationId]);
      for (const copy of copies) expect((await app.http.delete(`/users/${copy.id}`)).status).toBe(204);
      const back = await app.http.patch(appPath, { tenancyConfig: { authIsolation: 'shared' } });
      expect(back.status, JSON.stringify(back.body)).toBe(200);
    }
    expect((await app.http.patch(`/users/${offline.userId}`, { tenantIds: [tenantA, split] })).status).toBe(200);
    expect(await refresh(offline.config, offline.refreshToken)).toBeUndefined();
    expect((await app.http.get(`/users/${offline.userId}/sessions`)).body.data).toEqual([]);
  });
});
