import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar, readForm } from '../support/cookie-jar.ts';
import { authorizationRequest, authorize, createTestClient, discover, postForm, type TestClient } from '../support/oauth.ts';

/**
 * The audit records of the OP's grant revocations (src/oidc/grant-revocation.ts): a client's revocation (RFC 7009), a refresh
 * token presented again, a code redeemed twice, a sign-out. One record per grant revoked, in the statement that
 * deletes it: never two for one grant, none for a grant that had expired.
 */
const REDIRECT_URI = 'https://app.example/callback';
const POST_LOGOUT_URI = 'https://app.example/signed-out';
const PASSWORD = 'Correct-Horse-9';

let app: TestApp;
let issuer: string;
let spa: TestClient;
let spaConfig: oidc.Configuration;
let web: TestClient;
let webConfig: oidc.Configuration;
let tenantId: string;
let userId: string;

const logged: string[] = [];
/** The request's `request completed` log line. */
const completedLine = (requestId: string) =>
  logged.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line['reqId'] === requestId && line['msg'] === 'request completed');

beforeAll(async () => {
  // The loopback proxy is trusted: a lockout test's failures come from addresses of its choosing (X-Forwarded-For).
  app = await startTestApp({ trustProxy: ['loopback'] }, { reachablePublicUrl: true, logStream: { write: (line) => logged.push(line) } });
  issuer = app.gatehouse.services.config.publicUrl;
  spa = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT_URI] });
  spaConfig = await discover(app, spa.clientId, oidc.None(), { redirect_uris: [REDIRECT_URI] });
  web = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI], postLogoutRedirectUris: [POST_LOGOUT_URI] });
  webConfig = await discover(app, web.clientId, oidc.ClientSecretBasic(web.clientSecret ?? ''));
  tenantId = await app.createTenant('Acme');
  const user = await app.http.post('/users', { email: 'ora@example.com', password: PASSWORD, tenantId });
  expect(user.status).toBe(201);
  userId = user.body.id as string;
  const policy = await app.http.put('/policies/lockout', { enabled: true, maxAttempts: 3, lockoutMinutes: 5, resetAfterMinutes: 15, accountLockAddresses: 2 });
  expect(policy.status, JSON.stringify(policy.body)).toBe(200);
});
afterAll(async () => app?.close());

interface GrantRecord {
  application_id: string;
  tenant_id: string | null;
  actor_type: string;
  actor_id: string;
  action: string;
  target_type: string;
  request_id: string;
  after: { reason: string; clientId: string; userId: string };
}


/** The audit records of a grant (revoked, or its tokens revoked). */
const recordsOf = (grantId: string) =>
  app.sql<GrantRecord>(
    `select application_id, tenant_id, actor_type, actor_id, action, target_type, request_id, after from audit_log
      where target_id = ? order by created_at, id`,
    [grantId],
  );

/** The hosted sign-in form of a new authorization request of the web client, posted with `values`, traced as `requestId`. */
async function signInWith(values: Record<string, string>, requestId: string = crypto.randomUUID(), from?: string) {
  const jar = new CookieJar();
  const { url } = await authorizationRequest(webConfig, { redirectUri: REDIRECT_URI, resource: '' });
  const start = await jar.visit(url.href);
  const page = await jar.visit(start.location!);
  const form = readForm(page.url, page.body);
  return jar.visit(form.action, { form: { ...form.fields, ...values }, headers: { ...traced(requestId), ...(from === undefined ? {} : { 'x-forwarded-for': from }) } });
}

const traced = (requestId: string) => ({ 'x-request-id': requestId });

const grantOfToken = async (model: 'RefreshToken' | 'AccessToken' | 'AuthorizationCode', id: string) =>
  (await app.sql<{ grant_id: string }>('select grant_id from oidc_model where model = ? and id = ?', [model, id]))[0]!.grant_id;

const grantExists = async (grantId: string) => (await app.sql(`select 1 from oidc_model where model = 'Grant' and id = ?`, [grantId])).length > 0;

/** A code of the SPA for the user's sign-in to the tenant (offline_access: a refresh token comes with it). */
async function spaCode() {
  const { url, verifier, state } = await authorizationRequest(
    spaConfig,
    { redirectUri: REDIRECT_URI, resource: '' },
    { scope: 'openid offline_access', prompt: 'consent', tenant: tenantId },
  );
  const outcome = await authorize(app, url, { userId, tenantId });
  if (outcome.kind !== 'redirect') throw new Error(`expected a redirect, got ${outcome.status}`);
  return { callback: outcome.url, verifier, state };
}

/** The SPA's tokens, and the grant they were issued under. */
async function spaTokens() {
  const { callback, verifier, state } = await spaCode();
  const tokens = await oidc.authorizationCodeGrant(spaConfig, callback, { pkceCodeVerifier: verifier, expectedState: state });
  return { tokens, grantId: await grantOfToken('RefreshToken', tokens.refresh_token!) };
}

const endpoint = (path: string) => `${issuer}/oauth2/${path}`;
const revoke = (token: string, requestId: string = crypto.randomUUID(), hint?: string) =>
  postForm(endpoint('revoke'), { token, client_id: spa.clientId, ...(hint === undefined ? {} : { token_type_hint: hint }) }, traced(requestId));
/** `params` beside the refresh token (a `scope`, another `client_id`). */
const refresh = (refreshToken: string, requestId: string = crypto.randomUUID(), params: Record<string, string> = {}) =>
  postForm(endpoint('token'), { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: spa.clientId, ...params }, traced(requestId));

/** What every record of a revocation by the SPA holds. */
const bySpa = (reason: string) => ({
  application_id: app.root.applicationId,
  tenant_id: tenantId,
  actor_type: 'oauth_client',
  actor_id: spa.clientId,
  target_type: 'grant',
  after: { reason, clientId: spa.clientId, userId },
});

describe('a client revokes a token (POST /oauth2/revoke)', () => {
  it('a refresh token: the grant is revoked, one grant.revoked record under the request, the client its actor', async () => {
    const { tokens, grantId } = await spaTokens();
    const requestId = `revoke-${crypto.randomUUID()}`;
    expect((await revoke(tokens.refresh_token!, requestId, 'refresh_token')).status).toBe(200);
    expect(await grantExists(grantId)).toBe(false);
    expect((await refresh(tokens.refresh_token!)).body).toMatchObject({ error: 'invalid_grant' });
    expect(await recordsOf(grantId)).toEqual([{ ...bySpa('revocation'), action: 'grant.revoked', request_id: requestId }]);
    // Revoked again: nothing left to revoke, nothing recorded.
    expect((await revoke(tokens.refresh_token!)).status).toBe(200);
    expect(await recordsOf(grantId)).toHaveLength(1);
  });

  it('the same refresh token revoked by many requests at once: one record', async () => {
    const { tokens, grantId } = await spaTokens();
    const answers = await Promise.all(Array.from({ length: 8 }, () => revoke(tokens.refresh_token!)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(await grantExists(grantId)).toBe(false);
    expect(await recordsOf(grantId)).toMatchObject([{ ...bySpa('revocation'), action: 'grant.revoked' }]);
  });

  it('an opaque access token: the tokens of its grant are revoked (the refresh token too), the grant kept, one grant.tokens.revoked record', async () => {
    const { tokens, grantId } = await spaTokens();
    const requestId = `revoke-at-${crypto.randomUUID()}`;
    const answers = await Promise.all([revoke(tokens.access_token, requestId), revoke(tokens.access_token)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect((await refresh(tokens.refresh_token!)).body).toMatchObject({ error: 'invalid_grant' });
    // oidc-provider's revokeGrantPolicy keeps the grant when an access token is revoked.
    expect(await grantExists(grantId)).toBe(true);
    expect(await recordsOf(grantId)).toMatchObject([{ ...bySpa('revocation'), action: 'grant.tokens.revoked' }]);
  });

  it('another client’s token: nothing revoked, nothing recorded', async () => {
    const { tokens, grantId } = await spaTokens();
    const other = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT_URI] });
    const answer = await postForm(endpoint('revoke'), { token: tokens.refresh_token!, client_id: other.clientId });
    expect(answer.status).toBe(200);
    expect(await grantExists(grantId)).toBe(true);
    expect(await recordsOf(grantId)).toEqual([]);
  });

  it('a grant that has expired is not revoked by anyone: no record', async () => {
    const { tokens, grantId } = await spaTokens();
    await app.sql(`update oidc_model set expires_at = now() - interval '1 second' where model = 'Grant' and id = ?`, [grantId]);
    expect((await revoke(tokens.refresh_token!)).status).toBe(200);
    expect(await grantExists(grantId)).toBe(false);
    expect(await recordsOf(grantId)).toEqual([]);
  });
});

describe('a replay revokes the grant', () => {
  it('a rotated refresh token presented again: one refresh_token.reuse_detected (the grant revoked), reason refresh_token_reuse', async () => {
    const { tokens, grantId } = await spaTokens();
    expect((await refresh(tokens.refresh_token!)).status).toBe(200);
    expect(await recordsOf(grantId)).toEqual([]);
    const requestId = `reuse-${crypto.randomUUID()}`;
    expect((await refresh(tokens.refresh_token!, requestId)).body).toMatchObject({ error: 'invalid_grant' });
    expect(await grantExists(grantId)).toBe(false);
    expect(await recordsOf(grantId)).toEqual([{ ...bySpa('refresh_token_reuse'), action: 'refresh_token.reuse_detected', request_id: requestId }]);
    // A security refusal for the operator: a warning with its reason.
    expect(completedLine(requestId)).toMatchObject({ level: 40, status: 400, reason: 'refresh_token_reuse' });
  });

  // oidc-provider checks the account, the scope asked and the token's bindings before it checks the token was rotated: a
  // user held out or a wider scope must not hide a reuse.
  it.each([
    ['while the user is suspended', (_rotated: string) => app.sql(`update app_user set status = 'suspended' where id = ?`, [userId]), {}],
    ['while the user is locked', (_rotated: string) => app.sql(`update app_user set status = 'locked', locked_until = now() + interval '5 minutes' where id = ?`, [userId]), {}],
    // A session policy made stricter since: the rotated token is past its idle limit, not yet expired.
    [
      'while the rotated token is past the idle limit',
      (rotated: string) =>
        app.sql(`update oidc_model set payload = jsonb_set(payload, '{iat}', to_jsonb((payload->>'iat')::bigint - 30 * 86400)) where model = 'RefreshToken' and id = ?`, [rotated]),
      {},
    ],
    // Otherwise `invalid_scope`, the grant left to the other copy.
    ['asking a scope wider than the token’s', async (_rotated: string) => {}, { scope: 'openid offline_access email' }],
  ])('a rotated refresh token presented again %s: revoked as a reuse; the current token is refused', async (_case, holdOut, params) => {
    const { tokens, grantId } = await spaTokens();
    const current = await refresh(tokens.refresh_token!);
    expect(current.status).toBe(200);
    const requestId = `reuse-${crypto.randomUUID()}`;
    await holdOut(tokens.refresh_token!);
    try {
      expect((await refresh(tokens.refresh_token!, requestId, params)).body).toMatchObject({ error: 'invalid_grant' });
    } finally {
      await app.sql(`update app_user set status = 'active', locked_until = null where id = ?`, [userId]);
    }
    expect(await grantExists(grantId)).toBe(false);
    expect(await recordsOf(grantId)).toEqual([{ ...bySpa('refresh_token_reuse'), action: 'refresh_token.reuse_detected', request_id: requestId }]);
    expect(completedLine(requestId)).toMatchObject({ level: 40, status: 400, reason: 'refresh_token_reuse' });
    expect((await refresh(current.body.refresh_token as string)).body).toMatchObject({ error: 'invalid_grant' });
  });

  // A client acts on its own grants only: another's request is told `invalid_grant`, as for a token not rotated.
  it('a rotated refresh token presented by another client: refused, the grant kept, nothing recorded', async () => {
    const { tokens, grantId } = await spaTokens();
    const current = await refresh(tokens.refresh_token!);
    expect(current.status).toBe(200);
    const other = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT_URI] });
    expect((await refresh(tokens.refresh_token!, crypto.randomUUID(), { client_id: other.clientId })).body).toMatchObject({ error: 'invalid_grant' });
    expect(await grantExists(grantId)).toBe(true);
    expect(await recordsOf(grantId)).toEqual([]);
    expect((await refresh(current.body.refresh_token as string)).status).toBe(200);
  });

  it('one refresh token rotated by many requests at once: one succeeds, the grant is revoked once', async () => {
    const { tokens, grantId } = await spaTokens();
    const answers = await Promise.all(Array.from({ length: 6 }, () => refresh(tokens.refresh_token!)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(await grantExists(grantId)).toBe(false);
    expect(await recordsOf(grantId)).toMatchObject([{ ...bySpa('refresh_token_reuse'), action: 'refresh_token.reuse_detected' }]);
  });

  it('a code redeemed twice: one grant.revoked, reason code_replay', async () => {
    const { callback, verifier } = await spaCode();
    const code = callback.searchParams.get('code')!;
    const redeem = (requestId: string) =>
      postForm(
        endpoint('token'),
        { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: spa.clientId },
        traced(requestId),
      );
    expect((await redeem(crypto.randomUUID())).status).toBe(200);
    const grantId = await grantOfToken('AuthorizationCode', code);
    const requestId = `replay-${crypto.randomUUID()}`;
    expect((await redeem(requestId)).body).toMatchObject({ error: 'invalid_grant' });
    expect(await grantExists(grantId)).toBe(false);
    expect(await recordsOf(grantId)).toEqual([{ ...bySpa('code_replay'), action: 'grant.revoked', request_id: requestId }]);
  });
});

describe('a sign-out revokes the session’s grants', () => {
  it('RP-initiated logout: one grant.revoked per grant, the user its actor, reason logout', async () => {
    const jar = new CookieJar();
    const { url, verifier, state } = await authorizationRequest(webConfig, { redirectUri: REDIRECT_URI, resource: '' }, { tenant: tenantId });
    const start = await jar.visit(url.href);
    const page = await jar.visit(start.location!);
    const callback = await jar.followOut(await jar.submit(page, { email: 'ora@example.com', password: PASSWORD }), issuer);
    const tokens = await oidc.authorizationCodeGrant(webConfig, callback, { pkceCodeVerifier: verifier, expectedState: state });
    const grantId = await grantOfToken('AccessToken', tokens.access_token);

    const confirm = await jar.visit(oidc.buildEndSessionUrl(webConfig, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: POST_LOGOUT_URI }).href);
    const requestId = `logout-${crypto.randomUUID()}`;
    const form = readForm(confirm.url, confirm.body);
    const done = await jar.visit(form.action, { form: { ...form.fields, logout: 'yes' }, headers: traced(requestId) });
    expect(done.status).toBe(303);
    expect(await grantExists(grantId)).toBe(false);
    expect(await recordsOf(grantId)).toEqual([
      {
        application_id: app.root.applicationId,
        tenant_id: tenantId,
        actor_type: 'user',
        actor_id: userId,
        action: 'grant.revoked',
        target_type: 'grant',
        request_id: requestId,
        after: { reason: 'logout', clientId: web.clientId, userId },
      },
    ]);
  });
});

describe('a lock that has run out is lifted by the next sign-in attempt, audited', () => {
  const WRONG = 'Wrong-Horse-9';

  /** When the run-out locks ended. */
  const ranOutAt = new Date(Date.now() - 1000);

  /**
   * A user locked by three failures (the policy's maximum) from each of two addresses (the policy's account threshold),
   * the lock then run out (at ranOutAt) unless `runOut` is false.
   */
  async function lockedUser(email: string, runOut = true) {
    const created = await app.http.post('/users', { email, password: PASSWORD });
    expect(created.status).toBe(201);
    for (const from of ['203.0.113.1', '203.0.113.2']) {
      for (let i = 0; i < 3; i += 1) expect((await signInWith({ email, password: WRONG }, crypto.randomUUID(), from)).status).toBe(400);
    }
    if (runOut) await app.sql('update app_user set locked_until = ? where id = ?', [ranOutAt, created.body.id]);
    return created.body.id as string;
  }

  const userRow = async (id: string) =>
    (await app.sql<{ status: string; failed_sign_ins: number }>('select status, failed_sign_ins from app_user where id = ?', [id]))[0]!;
  // The lockout's own records: each attempt's user.signed_in / user.sign_in_failed is tested in test/api/auth-events.test.ts.
  const trail = async (id: string) =>
    app.sql<{ action: string; actor_type: string; actor_id: string; request_id: string; tenant_id: string | null; before: any; after: any }>(
      `select action, actor_type, actor_id, request_id, tenant_id, before, after from audit_log
        where target_id = ? and action not in ('user.signed_in', 'user.sign_in_failed') order by created_at, id`,
      [id],
    );

  it('by a sign-in: user.unlocked, the lockout policy its actor, reason lock_expired, under the sign-in’s request id', async () => {
    const id = await lockedUser('gus@example.com');
    const requestId = `lift-${crypto.randomUUID()}`;
    expect((await signInWith({ email: 'gus@example.com', password: PASSWORD }, requestId)).status).toBe(303);
    expect(await userRow(id)).toEqual({ status: 'active', failed_sign_ins: 0 });
    const records = await trail(id);
    expect(records.map((record) => record.action)).toEqual(['user.created', 'user.address.locked', 'user.address.locked', 'user.locked', 'user.unlocked']);
    expect(records[4]).toEqual({
      action: 'user.unlocked',
      actor_type: 'system',
      actor_id: 'lockout',
      request_id: requestId,
      tenant_id: null,
      before: { status: 'locked', failedSignIns: 6, lockedUntil: ranOutAt.toISOString() },
      after: { status: 'active', failedSignIns: 0, lockedUntil: null, reason: 'lock_expired' },
    });
    // Signed in again: nothing more to lift.
    expect((await signInWith({ email: 'gus@example.com', password: PASSWORD })).status).toBe(303);
    expect(await trail(id)).toHaveLength(5);
  });

  it('by a failed attempt: user.unlocked, then the attempt counts as the first of a new run', async () => {
    const id = await lockedUser('hal@example.com');
    expect((await signInWith({ email: 'hal@example.com', password: WRONG })).status).toBe(400);
    expect(await userRow(id)).toEqual({ status: 'active', failed_sign_ins: 1 });
    expect((await trail(id)).map((record) => [record.action, record.after.reason])).toEqual([
      ['user.created', undefined],
      ['user.address.locked', 'failed_sign_ins'],
      ['user.address.locked', 'failed_sign_ins'],
      ['user.locked', 'locked_addresses'],
      ['user.unlocked', 'lock_expired'],
    ]);
  });

  it('by several sign-ins at once: lifted once, one record', async () => {
    const id = await lockedUser('ida@example.com');
    const answers = await Promise.all([0, 1, 2].map(() => signInWith({ email: 'ida@example.com', password: PASSWORD })));
    expect(answers.map((answer) => answer.status)).toEqual([303, 303, 303]);
    expect((await trail(id)).filter((record) => record.action === 'user.unlocked')).toHaveLength(1);
  });

  it('a lock still running is not lifted: the right password is refused, nothing recorded', async () => {
    const id = await lockedUser('jon@example.com', false);
    expect((await signInWith({ email: 'jon@example.com', password: PASSWORD })).status).toBe(400);
    expect((await signInWith({ email: 'jon@example.com', password: WRONG })).status).toBe(400);
    expect(await userRow(id)).toEqual({ status: 'locked', failed_sign_ins: 6 });
    expect((await trail(id)).map((record) => record.action)).toEqual(['user.created', 'user.address.locked', 'user.address.locked', 'user.locked']);
  });
});
