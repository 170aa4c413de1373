import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar, type Visit } from '../support/cookie-jar.ts';
import { recordSuccessfulSignIn } from '../../src/hosted/lockout.ts';
import { resolveTarget } from '../../src/hosted/sign-in.ts';
import { readSignInUser } from '../../src/domain/users/sign-in-user.ts';
import { HttpClient } from '../support/http.ts';
import { createTestClient, discover } from '../support/oauth.ts';

/** Account lockout per the effective lockout policy, and answers that do not tell whether an account exists. */
const REDIRECT_URI = 'https://app.example/callback';
const PASSWORD = 'Correct-Horse-9';
const WRONG = 'Wrong-Horse-9';

let app: TestApp;
let issuer: string;
let config: oidc.Configuration;
let clientId: string;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  const client = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
  clientId = client.clientId;
  config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  const policy = await app.http.put('/policies/lockout', { enabled: true, maxAttempts: 3, lockoutMinutes: 5, resetAfterMinutes: 15 });
  expect(policy.status, JSON.stringify(policy.body)).toBe(200);
});
afterAll(async () => app?.close());

async function createUser(email: string, http = app.http, path = '/users') {
  const created = await http.post(path, { email, password: PASSWORD });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

async function signInPage(configuration = config, parameters: Record<string, string> = {}): Promise<{ jar: CookieJar; page: Visit }> {
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
    ...parameters,
  });
  const jar = new CookieJar();
  const start = await jar.visit(url.href);
  expect(start.location).toMatch(new RegExp(`^${issuer}/interaction/`));
  return { jar, page: await jar.visit(start.location!) };
}

/** One attempt on a fresh page; the answer and how long it took. */
async function attempt(email: string, password: string, configuration = config, parameters: Record<string, string> = {}) {
  const { jar, page } = await signInPage(configuration, parameters);
  const started = performance.now();
  const answer = await jar.submit(page, { email, password });
  return { answer, ms: performance.now() - started };
}

/** The page with what legitimately differs between two answers blanked out: interaction, token, nonce, e-mail. */
const normalized = (visit: Visit, email: string) =>
  visit.body
    .replaceAll(/\/interaction\/[\w-]+\//g, '/interaction/…/')
    .replaceAll(/value="[\w-]{43}"/g, 'value="…"')
    .replaceAll(/nonce="[^"]+"/g, 'nonce="…"')
    .replaceAll(email, '…');

const status = async (userId: string) => (await app.http.get(`/users/${userId}`)).body.status as string;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('lockout', () => {
  it('locks after maxAttempts consecutive failures; then even the right password gets the generic answer', async () => {
    const userId = await createUser('dan@example.com');
    for (let i = 0; i < 2; i += 1) expect((await attempt('dan@example.com', WRONG)).answer.status).toBe(400);
    expect(await status(userId)).toBe('active');
    const third = await attempt('dan@example.com', WRONG);
    expect(third.answer.status).toBe(400);
    expect(await status(userId)).toBe('locked');
    const right = await attempt('dan@example.com', PASSWORD);
    expect(right.answer.status).toBe(400);
    expect(normalized(right.answer, 'dan@example.com')).toBe(normalized(third.answer, 'dan@example.com'));
    // One record of the lock (written by the statement that locked), none of the refused right password.
    const audit = await app.gatehouse.services.orm.em
      .getConnection()
      .execute<{ actor_type: string; actor_id: string; tenant_id: string | null; before: unknown; after: { lockedUntil: string } }[]>(
        `select actor_type, actor_id, tenant_id, before, after from audit_log where target_id = ? and action = 'user.lock'`,
        [userId],
      );
    expect(audit).toEqual([
      {
        actor_type: 'oauth_client',
        actor_id: clientId,
        tenant_id: null,
        before: null,
        after: { status: 'locked', lockedUntil: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), reason: 'failed_sign_ins', maxAttempts: 3 },
      },
    ]);
    const lockedFor = Date.parse(audit[0]!.after.lockedUntil) - Date.now();
    expect(lockedFor).toBeGreaterThan(4 * 60_000);
    expect(lockedFor).toBeLessThanOrEqual(5 * 60_000);
  });

  it('the lock ends the user’s management API tokens and keys at once (not when this instance’s cache expires)', async () => {
    const userId = await createUser('ned@example.com');
    const token = await app.mintAccessToken({ sub: userId, app_id: app.root.applicationId, permissions: [] });
    const key = (await app.http.post('/api-keys', { name: 'ned', permissions: ['users:read'], userId })).body.secret as string;
    // Live (and remembered so): authenticated, the token with no permission.
    expect((await app.as({ bearer: token }).get('/users')).status).toBe(403);
    expect((await app.as({ apiKey: key }).get('/users')).status).toBe(200);
    for (let i = 0; i < 3; i += 1) await attempt('ned@example.com', WRONG);
    expect(await status(userId)).toBe('locked');
    expect((await app.as({ bearer: token }).get('/users')).status).toBe(401);
    expect((await app.as({ apiKey: key }).get('/users')).status).toBe(401);
    expect((await app.http.post('/api-keys/introspect', { secret: key })).body).toEqual({ active: false, key: null });
    // Unlocked, the key works again at once: it was never revoked.
    expect((await app.http.post(`/users/${userId}/unlock`)).body).toMatchObject({ id: userId, status: 'active' });
    expect((await app.as({ apiKey: key }).get('/users')).status).toBe(200);
    expect((await app.http.post('/api-keys/introspect', { secret: key })).body).toMatchObject({ active: true });
  });

  it('once a lock has run out, the user’s keys and tokens work again, before any sign-in lifts it', async () => {
    const userId = await createUser('ona@example.com');
    const token = await app.mintAccessToken({ sub: userId, app_id: app.root.applicationId, permissions: [] });
    const key = (await app.http.post('/api-keys', { name: 'ona', permissions: ['users:read'], userId })).body.secret as string;
    for (let i = 0; i < 3; i += 1) await attempt('ona@example.com', WRONG);
    expect(await status(userId)).toBe('locked');
    expect((await app.as({ apiKey: key }).get('/users')).status).toBe(401);
    expect((await app.as({ bearer: token }).get('/users')).status).toBe(401);
    // Time passes beyond the lock (and beyond what the instance remembers of the user).
    await app.gatehouse.services.orm.em.getConnection().execute(`update app_user set locked_until = now() - interval '1 second' where id = ?`, [userId]);
    await app.gatehouse.services.invalidations.publish({ kind: 'user', id: userId });
    expect(await status(userId)).toBe('locked');
    expect((await app.as({ apiKey: key }).get('/users')).status).toBe(200);
    expect((await app.http.post('/api-keys/introspect', { secret: key })).body).toMatchObject({ active: true });
    // Authenticated again: the token carries no permission, so the route is 403, no longer 401.
    expect((await app.as({ bearer: token }).get('/users')).status).toBe(403);
  });

  it('a success clears the count: failures must be consecutive', async () => {
    const userId = await createUser('fay@example.com');
    for (const password of [WRONG, WRONG, PASSWORD, WRONG, WRONG]) await attempt('fay@example.com', password);
    expect(await status(userId)).toBe('active');
    expect((await attempt('fay@example.com', PASSWORD)).answer.status).toBe(303);
  });

  it('a lock that has run out is lifted by the next sign-in', async () => {
    const userId = await createUser('gus@example.com');
    for (let i = 0; i < 3; i += 1) await attempt('gus@example.com', WRONG);
    expect(await status(userId)).toBe('locked');
    await app.gatehouse.services.orm.em.getConnection().execute(`update app_user set locked_until = now() - interval '1 second' where id = ?`, [userId]);
    const lifted = await attempt('gus@example.com', PASSWORD);
    expect(lifted.answer.status, lifted.answer.body.slice(-1500)).toBe(303);
    expect(await status(userId)).toBe('active');
  });

  it('a right password verified while other attempts locked the account is refused: the row is read again to decide', async () => {
    // A burst of guesses: the sign-in read the row (active), then its Argon2id verification queued behind the others,
    // which locked the user meanwhile. The verification succeeds on the stale row; the decision must not.
    const userId = await createUser('nat@example.com');
    const { services } = app.gatehouse;
    const target = await resolveTarget(services, 'lockout-test', { clientId, data: { applicationId: app.root.applicationId, tenantId: null, type: 'web', permissions: [] } }, undefined);
    const readBeforeVerifying = (await readSignInUser(services.orm.em.fork(), app.root.applicationId, { id: userId }))!;
    expect(readBeforeVerifying).toMatchObject({ status: 'active', failedSignIns: 0 });
    const connection = services.orm.em.getConnection();
    await connection.execute(`update app_user set status = 'locked', locked_until = now() + interval '5 minutes', failed_sign_ins = 3 where id = ?`, [userId]);
    expect(await recordSuccessfulSignIn(target, readBeforeVerifying)).toBeNull();
    expect(await status(userId)).toBe('locked');
    // Suspended meanwhile: refused too. Active with failures counted meanwhile: the success clears them.
    await connection.execute(`update app_user set status = 'suspended', locked_until = null where id = ?`, [userId]);
    expect(await recordSuccessfulSignIn(target, readBeforeVerifying)).toBeNull();
    await connection.execute(`update app_user set status = 'active', failed_sign_ins = 2, last_failed_sign_in_at = now() where id = ?`, [userId]);
    expect(await recordSuccessfulSignIn(target, readBeforeVerifying)).toEqual([]);
    const [row] = await connection.execute<{ failed_sign_ins: number }[]>('select failed_sign_ins from app_user where id = ?', [userId]);
    expect(row?.failed_sign_ins).toBe(0);
  });

  it('lockoutMinutes null locks until an administrator unlocks: POST /users/{userId}/unlock, audited', async () => {
    expect((await app.http.put('/policies/lockout', { maxAttempts: 3, lockoutMinutes: null })).status).toBe(200);
    try {
      const userId = await createUser('hal@example.com');
      for (let i = 0; i < 3; i += 1) await attempt('hal@example.com', WRONG);
      const connection = app.gatehouse.services.orm.em.getConnection();
      const row = async () =>
        (await connection.execute<{ status: string; locked_until: Date | null; failed_sign_ins: number }[]>(
          'select status, locked_until, failed_sign_ins from app_user where id = ?',
          [userId],
        ))[0];
      expect(await row()).toEqual({ status: 'locked', locked_until: null, failed_sign_ins: 3 });
      expect((await attempt('hal@example.com', PASSWORD)).answer.status).toBe(400);

      // Refused: no such user, no permission to write users; nothing changes.
      expect((await app.http.post('/users/01890a5d-ac96-774b-bcce-b302099a8057/unlock')).body).toMatchObject({ code: 'not_found', field: 'userId' });
      const reader = (await app.http.post('/api-keys', { name: 'reader', permissions: ['users:read'] })).body.secret as string;
      expect((await app.as({ apiKey: reader }).post(`/users/${userId}/unlock`)).status).toBe(403);
      expect(await row()).toMatchObject({ status: 'locked', failed_sign_ins: 3 });

      const unlocked = await app.http.post(`/users/${userId}/unlock`);
      expect(unlocked.status).toBe(200);
      expect(unlocked.body).toMatchObject({ id: userId, status: 'active' });
      expect(await row()).toEqual({ status: 'active', locked_until: null, failed_sign_ins: 0 });
      const audits = async () =>
        connection.execute<{ before: Record<string, unknown>; after: Record<string, unknown> }[]>(
          `select before, after from audit_log where action = 'user.unlock' and target_id = ?`,
          [userId],
        );
      const [audit] = await audits();
      expect(audit).toMatchObject({ before: { status: 'locked', failedSignIns: 3, lockedUntil: null }, after: { status: 'active', failedSignIns: 0 } });
      // Unlocking an active user changes nothing and records nothing; over GraphQL the same.
      const again = await app.http.graphql('mutation($userId: UUID!) { unlockUser(userId: $userId) { status } }', { userId });
      expect(again.body.data).toEqual({ unlockUser: { status: 'active' } });
      expect(await audits()).toHaveLength(1);
      expect((await attempt('hal@example.com', PASSWORD)).answer.status).toBe(303);
    } finally {
      await app.http.put('/policies/lockout', { enabled: true, maxAttempts: 3, lockoutMinutes: 5, resetAfterMinutes: 15 });
    }
  });

  it('a disabled policy counts nothing', async () => {
    expect((await app.http.put('/policies/lockout', { enabled: false })).status).toBe(200);
    try {
      const userId = await createUser('ivy@example.com');
      for (let i = 0; i < 4; i += 1) await attempt('ivy@example.com', WRONG);
      expect(await status(userId)).toBe('active');
    } finally {
      await app.http.put('/policies/lockout', { enabled: true, maxAttempts: 3, lockoutMinutes: 5, resetAfterMinutes: 15 });
    }
  });
});

describe('enumeration resistance', () => {
  it('unknown e-mail, wrong password, locked and suspended accounts get the same page and status', async () => {
    await createUser('jo@example.com');
    const suspended = await createUser('kim@example.com');
    await app.gatehouse.services.orm.em.getConnection().execute(`update app_user set status = 'suspended' where id = ?`, [suspended]);
    const locked = await createUser('lee@example.com');
    for (let i = 0; i < 3; i += 1) await attempt('lee@example.com', WRONG);
    expect(await status(locked)).toBe('locked');

    const answers = [
      ['nobody@example.com', PASSWORD],
      ['jo@example.com', WRONG],
      ['kim@example.com', PASSWORD],
      ['lee@example.com', PASSWORD],
    ].map(async ([email, password]) => ({ email: email!, ...(await attempt(email!, password!)) }));
    const settled = [];
    for (const answer of answers) settled.push(await answer);
    for (const { answer, email } of settled) {
      expect(answer.status).toBe(400);
      expect(normalized(answer, email)).toBe(normalized(settled[0]!.answer, settled[0]!.email));
    }
  });

  it('a refusal that counts no failure waits as long as counting one takes, while the lockout policy is on', async () => {
    const { refusalTiming } = app.gatehouse.services;
    await createUser('pat@example.com');
    const locked = await createUser('quin@example.com');
    const suspended = await createUser('rue@example.com');
    for (let i = 0; i < 3; i += 1) await attempt('quin@example.com', WRONG);
    expect(await status(locked)).toBe('locked');
    await app.gatehouse.services.orm.em.getConnection().execute(`update app_user set status = 'suspended' where id = ?`, [suspended]);
    const pad = vi.spyOn(refusalTiming, 'pad');
    const measure = vi.spyOn(refusalTiming, 'measure');
    try {
      // The wrong password of a known user counts (a measured write); the others count nothing and wait instead.
      await attempt('pat@example.com', WRONG);
      expect([measure.mock.calls.length, pad.mock.calls.length]).toEqual([1, 0]);
      for (const [email, password] of [
        ['nobody@example.com', WRONG],
        ['quin@example.com', PASSWORD],
        ['rue@example.com', PASSWORD],
        ['', WRONG],
      ] as const) {
        await attempt(email, password);
      }
      expect([measure.mock.calls.length, pad.mock.calls.length]).toEqual([1, 4]);
      // With the policy off nothing is counted, so nothing is waited for.
      expect((await app.http.put('/policies/lockout', { enabled: false })).status).toBe(200);
      await attempt('nobody@example.com', WRONG);
      await attempt('pat@example.com', WRONG);
      expect([measure.mock.calls.length, pad.mock.calls.length]).toEqual([1, 4]);
    } finally {
      pad.mockRestore();
      measure.mockRestore();
      await app.http.put('/policies/lockout', { enabled: true, maxAttempts: 3, lockoutMinutes: 5, resetAfterMinutes: 15 });
    }
  });

  it('an unknown e-mail takes about as long as a wrong password (one Argon2id verification each)', async () => {
    await createUser('mo@example.com');
    expect((await app.http.put('/policies/lockout', { enabled: false })).status).toBe(200);
    try {
      const unknown: number[] = [];
      const wrong: number[] = [];
      for (let i = 0; i < 7; i += 1) {
        unknown.push((await attempt(`nobody${i}@example.com`, WRONG)).ms);
        wrong.push((await attempt('mo@example.com', WRONG)).ms);
      }
      // What this guards: both refusals cost one Argon2id verification (without the dummy one, an unknown e-mail
      // answers in well under a tenth of the time). Closer figures are the bench's business: on a loaded 2-core
      // machine one median of 7 can be twice the other.
      const ratio = median(unknown) / median(wrong);
      expect(ratio, `unknown ${median(unknown)} ms, wrong ${median(wrong)} ms`).toBeGreaterThan(0.33);
      expect(ratio, `unknown ${median(unknown)} ms, wrong ${median(wrong)} ms`).toBeLessThan(3);
    } finally {
      await app.http.put('/policies/lockout', { enabled: true, maxAttempts: 3, lockoutMinutes: 5, resetAfterMinutes: 15 });
    }
  });
});

describe('isolated tenants', () => {
  let another: BootstrapResult;
  let isolated: oidc.Configuration;
  let strictUser: string;
  let laxUser: string;

  beforeAll(async () => {
    another = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: another.apiKey });
    const strict = await app.createTenant('Strict', another);
    const lax = await app.createTenant('Lax', another);
    expect((await admin.patch(`/applications/${another.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const override = await admin.put(`/applications/${another.applicationId}/tenants/${strict}/policies/lockout`, { maxAttempts: 3 });
    expect(override.status, JSON.stringify(override.body)).toBe(200);
    strictUser = await createUser('pat@example.com', admin, `/applications/${another.applicationId}/tenants/${strict}/users`);
    laxUser = await createUser('pat@example.com', admin, `/applications/${another.applicationId}/tenants/${lax}/users`);
    isolated = await discover(app, (await createTestClient(app, { type: 'web', applicationId: another.applicationId, redirectUris: [REDIRECT_URI] })).clientId, oidc.None(), {
      token_endpoint_auth_method: 'client_secret_basic',
    });
  });

  it('the tenant’s own lockout policy applies to its pool; a tenant without one inherits the application’s', async () => {
    for (let i = 0; i < 3; i += 1) {
      await attempt('pat@example.com', WRONG, isolated, { tenant: 'strict' });
      await attempt('pat@example.com', WRONG, isolated, { tenant: 'lax' });
    }
    const admin = new HttpClient(app.baseUrl, { apiKey: another.apiKey });
    expect((await admin.get(`/users/${strictUser}`)).body.status).toBe('locked');
    // The application's default: 10 attempts.
    expect((await admin.get(`/users/${laxUser}`)).body.status).toBe('active');
  });
});
