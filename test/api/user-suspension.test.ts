import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { issuedLink } from '../support/email-sign-in.ts';
import { HttpClient } from '../support/http.ts';
import { makeAdmin } from '../support/roles.ts';
import * as oidc from 'openid-client';
import { createTestClient, discover, type TestClient } from '../support/oauth.ts';
import { landing, offlineSignIn, provenNotResumed, refreshFails } from '../support/seam-sessions.ts';
import { secondInstance, settled, TWO_INSTANCES } from '../support/second-instance.ts';

/**
 * `POST /users/{userId}/suspend` and `/activate`: a suspended user's grants, tokens and browser sessions are gone for
 * good, sign-ins proven but not yet resumed too, their Bearer tokens and user-bound keys answer 401 while suspended;
 * activation gives back the account only.
 */
const REDIRECT = 'https://app.example/callback';
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

/** A sign-in with a refresh token: a grant and a browser session of the user. */
const signIn = (userId: string) => offlineSignIn(app, { clientId: spa.clientId, redirectUri: REDIRECT, userId, tenantId: tenantA, idTokenExpected: true });

const opRowsOf = async (userId: string) =>
  (await app.sql<{ model: string }>(`select model from oidc_model where payload->>'accountId' = ? order by model`, [userId])).map((row) => row.model);

describe('suspend and activate', () => {
  it('suspending ends every grant, token and session of the user for good; their key works again on activation', async () => {
    const userId = await createUser('sus@example.com');
    await makeAdmin(app, userId, tenantA);
    const { config, tokens } = await signIn(userId);
    expect(await opRowsOf(userId)).toEqual(expect.arrayContaining(['Grant', 'Session']));
    const bearer = await app.mintAccessToken({ sub: userId, app_id: app.root.applicationId, permissions: [] });
    const key = await app.http.post('/api-keys', { name: 'theirs', permissions: ['users:read'], userId, tenantId: tenantA });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const asKey = app.as({ apiKey: key.body.secret });
    expect((await asKey.get('/users')).status).toBe(200);

    const suspended = await app.http.post(`/users/${userId}/suspend`);
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(200);
    expect(suspended.body.status).toBe('suspended');
    expect(await opRowsOf(userId)).toEqual([]);
    expect(await refreshFails(config, tokens.refresh_token!)).toBe(true);
    expect((await app.as({ bearer }).get('/users')).status).toBe(401);
    expect((await asKey.get('/users')).status).toBe(401);
    const [record] = await app.sql<{ after: Record<string, unknown> }>(`select after from audit_log where action = 'user.suspended' and target_id = ?`, [userId]);
    expect(record?.after).toMatchObject({ status: 'suspended', grantsRevoked: 2, sessionsEnded: 1 });

    // Again: nothing to change, nothing recorded.
    expect((await app.http.post(`/users/${userId}/suspend`)).body.status).toBe('suspended');
    expect(await app.sql(`select 1 from audit_log where action = 'user.suspended' and target_id = ?`, [userId])).toHaveLength(1);

    const activated = await app.http.post(`/users/${userId}/activate`);
    expect(activated.status).toBe(200);
    expect(activated.body.status).toBe('active');
    expect((await asKey.get('/users')).status).toBe(200);
    expect(await refreshFails(config, tokens.refresh_token!)).toBe(true);
    expect((await app.as({ bearer }).get('/users')).status).toBe(401);
    // A new sign-in works.
    const again = await signIn(userId);
    expect(await refreshFails(again.config, again.tokens.refresh_token!)).toBe(false);
  });

  it('suspending ends the links mailed before it: a reset link of then does not work after the activation', async () => {
    const userId = await createUser('mailed@example.com');
    const reset = new URL(await issuedLink(app, userId, spa.clientId, app.baseUrl));
    const page = () => fetch(`${app.baseUrl}${reset.pathname}${reset.search}`).then((response) => response.status);
    expect(await page()).toBe(200);
    expect((await app.http.post(`/users/${userId}/suspend`)).status).toBe(200);
    expect((await app.http.post(`/users/${userId}/activate`)).body.status).toBe('active');
    expect(await page()).toBe(400);
  });

  it('activating a user whose lockout still runs leaves them locked; activating an active user changes nothing', async () => {
    const userId = await createUser('lock@example.com');
    expect((await app.http.post(`/users/${userId}/activate`)).body.status).toBe('active');
    expect(await app.sql(`select 1 from audit_log where action = 'user.activated' and target_id = ?`, [userId])).toHaveLength(0);
    await app.sql(`update app_user set status = 'locked', locked_until = now() + interval '5 minutes' where id = ?`, [userId]);
    expect((await app.http.post(`/users/${userId}/suspend`)).body.status).toBe('suspended');
    expect((await app.http.post(`/users/${userId}/activate`)).body.status).toBe('locked');
  });

  it('a lock without an end outlives a suspension: activation leaves the user locked, unlock lifts it, suspended or not', async () => {
    const userId = await createUser('forever@example.com');
    await makeAdmin(app, userId, tenantA);
    const key = await app.http.post('/api-keys', { name: 'theirs', permissions: ['users:read'], userId, tenantId: tenantA });
    expect(key.status).toBe(201);
    const theirs = app.as({ apiKey: key.body.secret as string });
    // The lockout policy's `lockoutMinutes: null`: locked until an administrator unlocks (src/domain/sign-in/lockout.ts).
    const lock = async () => {
      await app.sql(`update app_user set status = 'locked', locked_until = null, failed_sign_ins = 50 where id = ?`, [userId]);
      await app.gatehouse.services.invalidations.publish({ kind: 'user', id: userId });
    };
    await lock();
    expect((await app.http.post(`/users/${userId}/suspend`)).body.status).toBe('suspended');
    expect((await app.http.post(`/users/${userId}/activate`)).body.status).toBe('locked');
    expect((await theirs.get('/users')).status).toBe(401);
    expect((await app.http.post(`/users/${userId}/unlock`)).body.status).toBe('active');
    expect((await theirs.get('/users')).status).toBe(200);

    // Unlocked while suspended: the activation that follows finds no lock.
    await lock();
    expect((await app.http.post(`/users/${userId}/suspend`)).body.status).toBe('suspended');
    const unlocked = await app.http.post(`/users/${userId}/unlock`);
    expect(unlocked.body.status).toBe('suspended');
    expect((await app.http.post(`/users/${userId}/activate`)).body.status).toBe('active');
    expect((await theirs.get('/users')).status).toBe(200);
  });

  it('records a user whose lock has run out as the API shows them, active: in a change of their own and in a set-based one', async () => {
    const tenantC = await app.createTenant('Lock records');
    const userId = await createUser('ran-out@example.com');
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [tenantA, tenantC] })).status).toBe(200);
    await app.sql(`update app_user set status = 'locked', locked_until = now() - interval '1 minute' where id = ?`, [userId]);
    expect((await app.http.get(`/users/${userId}`)).body.status).toBe('active');
    const changesOf = async (action: string) =>
      (await app.sql<{ before: { status: string }; after: { status: string } | null }>(`select before, after from audit_log where action = ? and target_id = ?`, [action, userId]))[0];

    expect((await app.http.delete(`/applications/${app.root.applicationId}/tenants/${tenantC}`)).status).toBe(204);
    expect((await changesOf('user.membership.removed'))?.before.status).toBe('active');
    expect((await app.http.post(`/users/${userId}/suspend`)).body.status).toBe('suspended');
    expect((await changesOf('user.suspended'))?.before.status).toBe('active');
  });

  it('through GraphQL too', async () => {
    const userId = await createUser('gql@example.com');
    const response = await app.http.request('POST', '/graphql', {
      body: { query: 'mutation($id: UUID!) { suspendUser(userId: $id) { status } }', variables: { id: userId } },
    });
    expect(response.body).toEqual({ data: { suspendUser: { status: 'suspended' } } });
  });

  it('refusals: another application’s user is 404, a tenant scope may not suspend a user of other tenants too, a narrower key is 403', async () => {
    const other = await app.bootstrapAnother();
    const foreign = await app.as({ apiKey: other.apiKey }).post('/users', { email: 'far@example.com' });
    const refused = await app.http.post(`/users/${foreign.body.id}/suspend`);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ code: 'not_found', field: 'userId' });

    const both = await createUser('both@example.com');
    expect((await app.http.patch(`/users/${both}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    const tenantPath = `/applications/${app.root.applicationId}/tenants/${tenantA}/users/${both}/suspend`;
    expect((await app.http.post(tenantPath)).status).toBe(403);
    const only = await createUser('only@example.com');
    expect((await app.http.post(`/applications/${app.root.applicationId}/tenants/${tenantA}/users/${only}/suspend`)).body.status).toBe('suspended');

    const reader = await app.http.post('/api-keys', { name: 'reader', permissions: ['users:read'] });
    expect((await app.as({ apiKey: reader.body.secret }).post(`/users/${both}/suspend`)).status).toBe(403);
    const [row] = await app.sql<{ status: string }>('select status from app_user where id = ?', [both]);
    expect(row?.status).toBe('active');
  });

  it('deleting a user ends what the OP kept of their sign-ins too', async () => {
    const userId = await createUser('gone@example.com');
    await signIn(userId);
    expect(await opRowsOf(userId)).toEqual(expect.arrayContaining(['Grant', 'Session']));
    expect((await app.http.delete(`/users/${userId}`)).status).toBe(204);
    expect(await opRowsOf(userId)).toEqual([]);
  });
});

describe('a sign-in proven on the hosted pages, its browser not back at the OP yet', () => {
  const proven = (userId: string) => provenNotResumed(app, { clientId: spa.clientId, redirectUri: REDIRECT, userId, tenantId: tenantA });

  it('does not sign in after a suspension and the activation', async () => {
    const userId = await createUser('in-flight@example.com');
    const { browser, resume } = await proven(userId);
    expect((await app.http.post(`/users/${userId}/suspend`)).status).toBe(200);
    expect((await app.http.post(`/users/${userId}/activate`)).body.status).toBe('active');
    const landed = await landing(browser, resume, REDIRECT);
    expect(landed.client, landed.url.href).toBe(false);
    expect(landed.url.searchParams.get('code')).toBeNull();
    expect(await opRowsOf(userId)).toEqual([]);
  });

  it('back during the suspension, leaves no browser session to sign in silently after the activation', async () => {
    const userId = await createUser('in-flight-2@example.com');
    const { browser, resume } = await proven(userId);
    expect((await app.http.post(`/users/${userId}/suspend`)).status).toBe(200);
    expect((await landing(browser, resume, REDIRECT)).client).toBe(false);
    expect((await app.http.post(`/users/${userId}/activate`)).body.status).toBe('active');
    const config = await discover(app, spa.clientId, oidc.None(), { redirect_uris: [REDIRECT] });
    const challenge = await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier());
    const silent = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', prompt: 'none', code_challenge: challenge, code_challenge_method: 'S256' });
    const landed = await landing(browser, silent, REDIRECT);
    expect(landed.url.searchParams.get('code')).toBeNull();
    expect(landed.url.searchParams.get('error')).toBe('login_required');
  });

  it('does not sign in once an administrator has set a new password; another user’s proven sign-in goes on', async () => {
    const userId = await createUser('in-flight-3@example.com');
    const bystander = await createUser('in-flight-4@example.com');
    const theirs = await proven(userId);
    const other = await proven(bystander);
    expect((await app.http.patch(`/users/${userId}`, { password: 'Another-Horse-Battery-7' })).status).toBe(200);
    expect((await landing(theirs.browser, theirs.resume, REDIRECT)).client).toBe(false);
    const landed = await landing(other.browser, other.resume, REDIRECT);
    expect(landed.client).toBe(true);
    expect(landed.url.searchParams.get('code')).not.toBeNull();
  });
});

describe.runIf(TWO_INSTANCES)('across instances (Redis)', () => {
  const second = secondInstance(() => app);

  it('a user suspended on one instance is refused on the other, whose cache had their key and token as live', async () => {
    const userId = await createUser('far@example.com');
    await makeAdmin(app, userId, tenantA);
    const bearer = await app.mintAccessToken({ sub: userId, app_id: app.root.applicationId, permissions: [] });
    const key = await app.http.post('/api-keys', { name: 'theirs', permissions: ['users:read'], userId, tenantId: tenantA });
    const elsewhere = new HttpClient(second.url(), { apiKey: key.body.secret });
    const bearerElsewhere = new HttpClient(second.url(), { bearer });
    expect((await elsewhere.get('/users')).status).toBe(200);
    expect((await bearerElsewhere.get('/users')).status).toBe(403);
    expect((await app.http.post(`/users/${userId}/suspend`)).status).toBe(200);
    expect(await settled(async () => (await elsewhere.get('/users')).status, (status) => status === 401)).toBe(401);
    expect(await settled(async () => (await bearerElsewhere.get('/users')).status, (status) => status === 401)).toBe(401);
  });
});
