import * as oidc from 'openid-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { HttpClient } from '../support/http.ts';
import { basicAuth, codeThroughSeam, createTestClient, discover, OFFLINE_CONSENT, postForm, TestBrowser } from '../support/oauth.ts';

/**
 * The session policy (API.md, "Policies"; src/domain/sign-in/session.ts) of the application or, when isolated, of the
 * tenant whose user signs in, enforced: the browser session at the OP stops signing in silently once unused for
 * `idleTimeoutMinutes` or `absoluteTimeoutMinutes` after the sign-in; so do refresh tokens, idle between uses and
 * absolute from the first sign-in; the service's sessions (list, get, validate) end with them; `singleSession` ends
 * the user's other sessions at a sign-in. The clock is moved (vitest's fake Date, as the OP and the service read it),
 * never waited for.
 */
const REDIRECT = 'https://app.example/callback';
const PASSWORD = 'Correct-Horse-Battery-9';
const MINUTE = 60_000;
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
});
afterAll(async () => app?.close());
afterEach(() => {
  vi.useRealTimers();
});

/** From now on the clock reads what `at(minutes)` sets: that many minutes after this call. */
function clock(): (minutes: number) => void {
  const start = Date.now();
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  return (minutes) => vi.setSystemTime(start + minutes * MINUTE);
}

interface Application {
  readonly bootstrap: BootstrapResult;
  readonly admin: HttpClient;
  readonly config: oidc.Configuration;
}

/** A new application with a public client, its policies left at their defaults. */
async function application(): Promise<Application> {
  const bootstrap = await app.bootstrapAnother();
  const spa = await createTestClient(app, { type: 'spa', authMethod: 'none', applicationId: bootstrap.applicationId, redirectUris: [REDIRECT] });
  const config = await discover(app, spa.clientId, oidc.None(), { redirect_uris: [REDIRECT] });
  return { bootstrap, admin: new HttpClient(app.baseUrl, { apiKey: bootstrap.apiKey }), config };
}

async function putSessionPolicy(of: Application, policy: Record<string, unknown>, tenantId?: string): Promise<void> {
  const path = tenantId === undefined ? '/policies/session' : `/applications/${of.bootstrap.applicationId}/tenants/${tenantId}/policies/session`;
  const put = await of.admin.put(path, policy);
  expect(put.status, JSON.stringify(put.body)).toBe(200);
}

async function createUser(of: Application, email: string, tenantId: string, isolated = false): Promise<string> {
  const path = isolated ? `/applications/${of.bootstrap.applicationId}/tenants/${tenantId}/users` : '/users';
  const created = await of.admin.post(path, { email, password: PASSWORD, ...(isolated ? {} : { tenantId }) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

/** A new application with one tenant (its session policy `policy` when given) and a user of that tenant. */
async function userOfNew(tenantName: string, email: string, policy?: Record<string, unknown>) {
  const of = await application();
  const tenant = await app.createTenant(tenantName, of.bootstrap);
  if (policy !== undefined) await putSessionPolicy(of, policy);
  return { of, tenant, userId: await createUser(of, email, tenant) };
}

/** A browser signed in as `userId` to `tenantId`, and the client's tokens (with a refresh token). */
interface SignedIn {
  readonly browser: TestBrowser;
  readonly refreshToken: string;
}

async function signIn(of: Application, userId: string, tenantId: string, browser = new TestBrowser()): Promise<SignedIn> {
  const { callback, verifier } = await codeThroughSeam(app, of.config, REDIRECT, { userId, tenantId }, { ...OFFLINE_CONSENT, tenant: tenantId }, browser);
  const tokens = await oidc.authorizationCodeGrant(of.config, callback, { pkceCodeVerifier: verifier });
  expect(tokens.refresh_token).toEqual(expect.any(String));
  return { browser, refreshToken: tokens.refresh_token! };
}

/** `prompt=none` in the browser: `code` while its session signs in silently, else the OIDC error. */
async function silently(of: Application, browser: TestBrowser, tenantId: string): Promise<string> {
  const { callback } = await codeThroughSeam(app, of.config, REDIRECT, { userId: 'never-asked', tenantId }, { prompt: 'none', tenant: tenantId }, browser);
  return callback.searchParams.get('code') === null ? (callback.searchParams.get('error') ?? 'no answer') : 'code';
}

/** Rotates the refresh token: the new one, or the OAuth error. */
async function refresh(of: Application, refreshToken: string): Promise<{ token: string } | { error: string }> {
  try {
    const tokens = await oidc.refreshTokenGrant(of.config, refreshToken);
    return { token: tokens.refresh_token! };
  } catch (error) {
    return { error: (error as { error?: string }).error ?? String(error) };
  }
}

/** RFC 7662 by a confidential client of the application. */
async function introspect(of: Application, token: string): Promise<Record<string, unknown>> {
  const resourceServer = await createTestClient(app, { applicationId: of.bootstrap.applicationId });
  const answer = await postForm(`${app.gatehouse.services.config.publicUrl}/oauth2/introspect`, { token }, { authorization: basicAuth(resourceServer.clientId, resourceServer.clientSecret!) });
  expect(answer.status).toBe(200);
  return answer.body as Record<string, unknown>;
}

const sessionsOf = async (of: Application, userId: string) => {
  const listed = await of.admin.get(`/users/${userId}/sessions`);
  expect(listed.status).toBe(200);
  return listed.body.data as { id: string; expiresAt: string; ip: string | null }[];
};

describe('the browser session', () => {
  let acme: Application;
  let tenant: string;

  beforeAll(async () => {
    acme = await application();
    tenant = await app.createTenant('Acme', acme.bootstrap);
    await putSessionPolicy(acme, { idleTimeoutMinutes: 10, absoluteTimeoutMinutes: 25 });
  });

  it('unused for the idle lifetime, it signs in silently no more, and the service’s session ends with it', async () => {
    const at = clock();
    const userId = await createUser(acme, 'idle@acme.example', tenant);
    const { browser, refreshToken } = await signIn(acme, userId, tenant);
    const [session] = await sessionsOf(acme, userId);
    // The session's end is the idle one, whatever the absolute one.
    expect(new Date(session!.expiresAt).getTime() - Date.now()).toBeGreaterThan(9 * MINUTE);
    expect(new Date(session!.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(10 * MINUTE + 1000);
    at(9);
    expect(await silently(acme, browser, tenant)).toBe('code');
    // Used at 9 minutes: it stands until 19.
    at(18);
    expect(await silently(acme, browser, tenant)).toBe('code');
    expect(await sessionsOf(acme, userId)).toHaveLength(1);
    at(28.5);
    expect(await silently(acme, browser, tenant)).toBe('login_required');
    // What stays listed is the offline grant's own sign-in, while its access token lives.
    expect(await sessionsOf(acme, userId)).toEqual([expect.objectContaining({ ip: null })]);
    expect((await acme.admin.get(`/sessions/${session!.id}`)).status).toBe(404);
    // The refresh token (idle too: unused since the sign-in) is no longer valid.
    expect((await acme.admin.post('/sessions/validate', { token: refreshToken })).body).toEqual({ valid: false, session: null });
  });

  it('however active, it ends the absolute lifetime after the sign-in', async () => {
    const at = clock();
    const userId = await createUser(acme, 'busy@acme.example', tenant);
    const { browser } = await signIn(acme, userId, tenant);
    for (const minutes of [8, 16, 24]) {
      at(minutes);
      expect(await silently(acme, browser, tenant), `at ${minutes} minutes`).toBe('code');
    }
    // Used at 24 minutes, yet it ends at 25, not 34.
    const [session] = await sessionsOf(acme, userId);
    expect(new Date(session!.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(MINUTE + 1000);
    at(25.5);
    expect(await silently(acme, browser, tenant)).toBe('login_required');
    expect(await sessionsOf(acme, userId)).toEqual([expect.objectContaining({ ip: null })]);
    expect((await acme.admin.get(`/sessions/${session!.id}`)).status).toBe(404);
  });

  it('used every few seconds around its absolute end, it still ends there: a save past the end gives it no more use', async () => {
    const at = clock();
    const userId = await createUser(acme, 'steady@acme.example', tenant);
    const { browser } = await signIn(acme, userId, tenant);
    for (const minutes of [8, 16, 24, 24.9]) {
      at(minutes);
      expect(await silently(acme, browser, tenant), `at ${minutes} minutes`).toBe('code');
    }
    for (const minutes of [25.05, 25.1, 25.15, 25.2]) {
      at(minutes);
      expect(await silently(acme, browser, tenant), `at ${minutes} minutes`).toBe('login_required');
    }
  });
});

describe('a policy made stricter', () => {
  it('ends the sessions and refresh tokens made under the looser one at their next use', async () => {
    const { of: hooli, tenant, userId } = await userOfNew('Hooli', 'long@hooli.example');
    const at = clock();
    const { browser, refreshToken } = await signIn(hooli, userId, tenant);
    const second = await signIn(hooli, userId, tenant, new TestBrowser());
    at(5);
    // Its browser session used too: a session idle by the new policy takes the grants it holds with it (listed, validated).
    expect(await silently(hooli, second.browser, tenant)).toBe('code');
    const rotated = await refresh(hooli, second.refreshToken);
    expect(rotated).toEqual({ token: expect.any(String) });
    // Under the default policy (days) all of it would stand for days yet.
    const validate = async (token: string) => (await hooli.admin.post('/sessions/validate', { token })).body.valid as boolean;
    expect(await validate(refreshToken)).toBe(true);
    await putSessionPolicy(hooli, { idleTimeoutMinutes: 10, absoluteTimeoutMinutes: 25 });
    at(12);
    // Unused for 12 minutes: idle by the new policy, which validation says before the token's next use.
    expect(await validate(refreshToken)).toBe(false);
    expect(await validate((rotated as { token: string }).token)).toBe(true);
    // Introspection (RFC 7662 2.2) says so too: the token endpoint will refuse it.
    expect(await introspect(hooli, refreshToken)).toEqual({ active: false });
    expect(await introspect(hooli, (rotated as { token: string }).token)).toMatchObject({ active: true });
    expect(await refresh(hooli, refreshToken)).toEqual({ error: 'invalid_grant' });
    // Rotated at 5: within the idle time, and it ends at the absolute one all the same.
    const used = await refresh(hooli, (rotated as { token: string }).token);
    expect(used).toEqual({ token: expect.any(String) });
    at(26);
    expect(await validate((used as { token: string }).token)).toBe(false);
    expect(await silently(hooli, browser, tenant)).toBe('login_required');
    expect(await refresh(hooli, (used as { token: string }).token)).toEqual({ error: 'invalid_grant' });
  });
});

describe('an idle timeout made stricter', () => {
  it('ends a browser session idle past it at its next use, before any save; one used since, or under a policy left as it was, signs in', async () => {
    const { of: hooli, tenant, userId } = await userOfNew('Hooli', 'idle@hooli.example');
    const { of: initech, tenant: initechTenant, userId: initechUser } = await userOfNew('Initech', 'idle@initech.example');
    const at = clock();
    const idle = await signIn(hooli, userId, tenant);
    const [idleSession] = await sessionsOf(hooli, userId);
    const used = await signIn(hooli, userId, tenant, new TestBrowser());
    const untouched = await signIn(initech, initechUser, initechTenant);
    at(100);
    expect(await silently(hooli, used.browser, tenant)).toBe('code');
    // An incident: from the default 3 days to 30 minutes.
    await putSessionPolicy(hooli, { idleTimeoutMinutes: 30 });
    at(120);
    // Unused for 2 hours, past the new idle time and well within the old one; the other used 20 minutes ago.
    const listed = await sessionsOf(hooli, userId);
    expect(listed.map((session) => session.id)).not.toContain(idleSession!.id);
    expect(listed).toHaveLength(1);
    expect(Date.parse(listed[0]!.expiresAt)).toBeLessThanOrEqual(Date.now() + 10 * MINUTE + 5_000);
    expect((await hooli.admin.get(`/sessions/${idleSession!.id}`)).status).toBe(404);
    expect(await silently(hooli, idle.browser, tenant)).toBe('login_required');
    expect(await silently(hooli, used.browser, tenant)).toBe('code');
    expect(await silently(initech, untouched.browser, initechTenant)).toBe('code');
    // Its refresh token, unused as long, is refused too; the other browser's was not used either.
    expect(await refresh(hooli, idle.refreshToken)).toEqual({ error: 'invalid_grant' });
    expect(await refresh(initech, untouched.refreshToken)).toEqual({ token: expect.any(String) });
  });

  it('of an isolated tenant’s override ends its own users’ idle sessions; another tenant’s keep the application’s policy', async () => {
    const umbrella = await application();
    const strict = await app.createTenant('Strict', umbrella.bootstrap);
    const lax = await app.createTenant('Lax', umbrella.bootstrap);
    const patched = await umbrella.admin.patch(`/applications/${umbrella.bootstrap.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } });
    expect(patched.status).toBe(200);
    const strictUser = await createUser(umbrella, 'ann@umbrella.example', strict, true);
    const laxUser = await createUser(umbrella, 'ann@umbrella.example', lax, true);
    const at = clock();
    const inStrict = await signIn(umbrella, strictUser, strict);
    const inLax = await signIn(umbrella, laxUser, lax);
    await putSessionPolicy(umbrella, { idleTimeoutMinutes: 30 }, strict);
    at(45);
    // The browser session is gone; its offline grant is listed as its own sign-in while its access token lives.
    expect(await sessionsOf(umbrella, strictUser)).toEqual([expect.objectContaining({ ip: null })]);
    expect(await sessionsOf(umbrella, laxUser)).toHaveLength(1);
    // The application's list, GET and DELETE read both pools' policies at once: each judges its own users' sign-ins.
    const listed = await umbrella.admin.get(`/applications/${umbrella.bootstrap.applicationId}/sessions`);
    const [strictSession, laxSession] = [strictUser, laxUser].map((userId) => (listed.body.data as { id: string; userId: string }[]).find((session) => session.userId === userId));
    expect({ strictSession, laxSession }).toEqual({ strictSession: expect.objectContaining({ ip: null }), laxSession: expect.objectContaining({ ip: expect.any(String) }) });
    expect((await umbrella.admin.get(`/sessions/${strictSession!.id}`)).body).toEqual(strictSession);
    expect((await umbrella.admin.get(`/sessions/${laxSession!.id}`)).body).toEqual(laxSession);
    expect(await silently(umbrella, inStrict.browser, strict)).toBe('login_required');
    expect(await silently(umbrella, inLax.browser, lax)).toBe('code');
    expect(await refresh(umbrella, inStrict.refreshToken)).toEqual({ error: 'invalid_grant' });
    expect(await refresh(umbrella, inLax.refreshToken)).toEqual({ token: expect.any(String) });
  });
});

describe('the sessions list under a policy made stricter', () => {
  it('shows the ends the policy gives now, before the next use saves them, and no sign-in it has ended', async () => {
    const { of: hooli, tenant, userId } = await userOfNew('Hooli', 'listed@hooli.example');
    const at = clock();
    const start = Date.now();
    await signIn(hooli, userId, tenant);
    at(5);
    await signIn(hooli, userId, tenant);
    const [first, second] = await sessionsOf(hooli, userId);
    // Saved under the default policy: days away.
    expect(Date.parse(first!.expiresAt)).toBeGreaterThan(start + 24 * 60 * MINUTE);
    await putSessionPolicy(hooli, { idleTimeoutMinutes: 10, absoluteTimeoutMinutes: 25 });
    at(9);
    const ends = (await sessionsOf(hooli, userId)).map((session) => Date.parse(session.expiresAt));
    // Each 10 minutes after its last use, its sign-in (the seconds of the sign-in itself aside).
    expect(ends[0]).toBeLessThanOrEqual(start + 10 * MINUTE + 5_000);
    expect(ends[1]).toBeLessThanOrEqual(start + 15 * MINUTE + 5_000);
    at(12);
    // The first's offline grant, its browser session ended, is listed as its own sign-in while its access token lives.
    expect((await sessionsOf(hooli, userId)).map((session) => (session.id === second!.id ? 'second' : session.ip))).toEqual([null, 'second']);
    expect((await hooli.admin.get(`/sessions/${first!.id}`)).status).toBe(404);
    expect((await hooli.admin.delete(`/sessions/${first!.id}`)).status).toBe(404);
    expect((await hooli.admin.get(`/sessions/${second!.id}`)).status).toBe(200);
  });

  it('a validation names the end the list shows', async () => {
    const { of: initech, tenant, userId } = await userOfNew('Initech', 'validated@initech.example');
    const at = clock();
    const { refreshToken } = await signIn(initech, userId, tenant);
    await putSessionPolicy(initech, { idleTimeoutMinutes: 10, absoluteTimeoutMinutes: 25 });
    at(1);
    const [listed] = await sessionsOf(initech, userId);
    expect(Date.parse(listed!.expiresAt)).toBeLessThanOrEqual(Date.now() + 25 * MINUTE);
    const validated = await initech.admin.post('/sessions/validate', { token: refreshToken });
    expect(validated.body).toMatchObject({ valid: true, session: { id: listed!.id, expiresAt: listed!.expiresAt } });
  });

  it('reads a page in one statement however many sign-ins the policy has ended before their stored ends', async () => {
    const { of: umbrella, tenant, userId } = await userOfNew('Umbrella', 'many@umbrella.example');
    const at = clock();
    for (let browser = 0; browser < 4; browser += 1) await signIn(umbrella, userId, tenant);
    expect(await sessionsOf(umbrella, userId)).toHaveLength(4);
    await putSessionPolicy(umbrella, { idleTimeoutMinutes: 10, absoluteTimeoutMinutes: 25 });
    // A day on: every browser session ended by the policy (their stored ends days away, under the default one), and
    // every grant's tokens with them.
    at(24 * 60);
    const reads = () => app.queries.filter((query) => query.includes('from user_session as s')).length;
    const before = reads();
    for (const path of [`/users/${userId}/sessions?pageSize=1`, '/sessions?pageSize=1']) {
      const listed = await umbrella.admin.get(path);
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      expect(listed.body).toEqual({ data: [], next: null });
    }
    // One page, one read each: not a read per page of ended sign-ins until a standing one is found.
    expect(reads() - before).toBe(2);
  });
});

describe('refresh tokens', () => {
  let globex: Application;
  let tenant: string;

  beforeAll(async () => {
    globex = await application();
    tenant = await app.createTenant('Globex', globex.bootstrap);
    await putSessionPolicy(globex, { idleTimeoutMinutes: 10, absoluteTimeoutMinutes: 25 });
  });

  it('each rotation lives the idle lifetime: unused for it, the token is refused', async () => {
    const at = clock();
    const userId = await createUser(globex, 'idle@globex.example', tenant);
    const { refreshToken } = await signIn(globex, userId, tenant);
    at(9);
    const rotated = await refresh(globex, refreshToken);
    expect(rotated).toEqual({ token: expect.any(String) });
    // The rotated token is validated as its session's; at 19.5 it has been unused for more than 10 minutes.
    at(19.5);
    const token = (rotated as { token: string }).token;
    expect((await globex.admin.post('/sessions/validate', { token })).body).toEqual({ valid: false, session: null });
    expect(await refresh(globex, token)).toEqual({ error: 'invalid_grant' });
  });

  it('used within the idle lifetime, the chain still ends the absolute lifetime after the first sign-in', async () => {
    const at = clock();
    const userId = await createUser(globex, 'busy@globex.example', tenant);
    let { refreshToken } = await signIn(globex, userId, tenant);
    for (const minutes of [8, 16, 24]) {
      at(minutes);
      const rotated = await refresh(globex, refreshToken);
      expect(rotated, `at ${minutes} minutes`).toEqual({ token: expect.any(String) });
      refreshToken = (rotated as { token: string }).token;
    }
    at(25.5);
    expect(await refresh(globex, refreshToken)).toEqual({ error: 'invalid_grant' });
  });
  it('a refresh reads the policy from the surface settings’ cache: no statement of its own', async () => {
    const userId = await createUser(globex, 'cached@globex.example', tenant);
    const { refreshToken } = await signIn(globex, userId, tenant);
    const warm = await refresh(globex, refreshToken);
    const before = app.queries.length;
    expect(await refresh(globex, (warm as { token: string }).token)).toEqual({ token: expect.any(String) });
    const statements = app.queries.slice(before);
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.filter((statement) => /\bsetting\b|auth_provider|\btenant\b/.test(statement))).toEqual([]);
  });
});

describe('an isolated tenant’s policy', () => {
  let initech: Application;
  let strict: string;
  let lax: string;

  beforeAll(async () => {
    initech = await application();
    strict = await app.createTenant('Strict', initech.bootstrap);
    lax = await app.createTenant('Lax', initech.bootstrap);
    const patched = await initech.admin.patch(`/applications/${initech.bootstrap.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } });
    expect(patched.status).toBe(200);
    await putSessionPolicy(initech, { idleTimeoutMinutes: 60, absoluteTimeoutMinutes: 120 });
    await putSessionPolicy(initech, { idleTimeoutMinutes: 10, absoluteTimeoutMinutes: 20 }, strict);
  });

  it('applies to its own users; another tenant’s users keep the application’s', async () => {
    const at = clock();
    const strictUser = await createUser(initech, 'erin@initech.example', strict, true);
    const laxUser = await createUser(initech, 'erin@initech.example', lax, true);
    const inStrict = await signIn(initech, strictUser, strict);
    const inLax = await signIn(initech, laxUser, lax);
    at(11);
    expect(await silently(initech, inStrict.browser, strict)).toBe('login_required');
    expect(await refresh(initech, inStrict.refreshToken)).toEqual({ error: 'invalid_grant' });
    expect(await silently(initech, inLax.browser, lax)).toBe('code');
    expect(await refresh(initech, inLax.refreshToken)).toEqual({ token: expect.any(String) });
  });
});

describe('singleSession', () => {
  let hooli: Application;
  let tenant: string;

  beforeAll(async () => {
    hooli = await application();
    tenant = await app.createTenant('Hooli', hooli.bootstrap);
  });

  it('off (the default), a second sign-in leaves the first session standing', async () => {
    await putSessionPolicy(hooli, { singleSession: false });
    const userId = await createUser(hooli, 'two@hooli.example', tenant);
    const first = await signIn(hooli, userId, tenant);
    await signIn(hooli, userId, tenant);
    expect(await sessionsOf(hooli, userId)).toHaveLength(2);
    expect(await silently(hooli, first.browser, tenant)).toBe('code');
  });

  it('on, a sign-in ends the user’s other sessions, their grants and refresh tokens, audited; other users keep theirs', async () => {
    await putSessionPolicy(hooli, { singleSession: true });
    const userId = await createUser(hooli, 'one@hooli.example', tenant);
    const bystander = await createUser(hooli, 'other@hooli.example', tenant);
    const theirs = await signIn(hooli, bystander, tenant);
    const first = await signIn(hooli, userId, tenant);
    const [ended] = await sessionsOf(hooli, userId);
    const second = await signIn(hooli, userId, tenant);

    const sessions = await sessionsOf(hooli, userId);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.id).not.toBe(ended!.id);
    expect(await silently(hooli, first.browser, tenant)).toBe('login_required');
    expect(await refresh(hooli, first.refreshToken)).toEqual({ error: 'invalid_grant' });
    expect(await silently(hooli, second.browser, tenant)).toBe('code');
    expect(await refresh(hooli, second.refreshToken)).toEqual({ token: expect.any(String) });
    expect(await silently(hooli, theirs.browser, tenant)).toBe('code');

    const audit = await hooli.admin.get(`/audit-logs?action=session.revoked&target=${ended!.id}`);
    expect(audit.status).toBe(200);
    expect(audit.body.data).toEqual([
      expect.objectContaining({ actor: { type: 'user', id: userId }, tenantId: tenant, changes: expect.objectContaining({ after: { reason: 'single_session', grantsRevoked: 1 } }) }),
    ]);
  });
});

describe('singleSession and a grant no browser session holds', () => {
  it('a new sign-in ends an offline grant whose browser session lapsed, and its refresh tokens', async () => {
    const { of: hooli, tenant, userId } = await userOfNew('Hooli', 'one@hooli.example', { singleSession: true, idleTimeoutMinutes: 10, absoluteTimeoutMinutes: 60 });
    const at = clock();
    const first = await signIn(hooli, userId, tenant);
    at(8);
    const rotated = await refresh(hooli, first.refreshToken);
    expect(rotated).toEqual({ token: expect.any(String) });
    // The browser session is idle since 0; the refresh token, rotated at 8, stands until 18.
    at(12);
    const second = await signIn(hooli, userId, tenant);
    expect(await sessionsOf(hooli, userId)).toHaveLength(1);
    expect(await refresh(hooli, (rotated as { token: string }).token)).toEqual({ error: 'invalid_grant' });
    expect(await refresh(hooli, second.refreshToken)).toEqual({ token: expect.any(String) });
  });
});

describe('singleSession and an expired session not yet swept', () => {
  it('a sign-in records no revocation of the expired session: it had already ended', async () => {
    const { of: globex, tenant, userId } = await userOfNew('Globex', 'lapsed@globex.example', { singleSession: true, idleTimeoutMinutes: 10, absoluteTimeoutMinutes: 25 });
    const at = clock();
    await signIn(globex, userId, tenant);
    const [lapsed] = await sessionsOf(globex, userId);
    at(11);
    expect((await sessionsOf(globex, userId)).map((session) => session.id)).not.toContain(lapsed!.id);

    await signIn(globex, userId, tenant);

    const audit = await globex.admin.get(`/audit-logs?action=session.revoked&target=${lapsed!.id}`);
    expect(audit.status).toBe(200);
    expect(audit.body.data).toEqual([]);
  });
});

describe('an offline grant of a browser session the policy has ended', () => {
  /** Signed in at 0 with `offline_access`, the refresh token rotated at 100, the browser left unused; the session policy
   *  then set to `policy`; the clock at 120. */
  async function idleBrowserUsedToken(email: string, policy: Record<string, unknown>) {
    const { of, tenant, userId } = await userOfNew('Hooli', email);
    const at = clock();
    const signedIn = await signIn(of, userId, tenant);
    const [browserSession] = await sessionsOf(of, userId);
    at(100);
    const rotated = await refresh(of, signedIn.refreshToken);
    expect(rotated).toEqual({ token: expect.any(String) });
    await putSessionPolicy(of, policy);
    at(120);
    return { of, tenant, userId, browser: signedIn.browser, browserSession: browserSession!, token: (rotated as { token: string }).token };
  }

  it('is a sign-in of its own, judged by its refresh token: listed, validated, and revoked with its tokens', async () => {
    const { of: hooli, tenant, userId, browser, browserSession, token } = await idleBrowserUsedToken('offline@hooli.example', { idleTimeoutMinutes: 30 });
    // The browser, unused for 2 hours, is idle by the new policy; the refresh token, used 20 minutes ago, is not.
    expect(await introspect(hooli, token)).toMatchObject({ active: true });
    const listed = await sessionsOf(hooli, userId);
    expect(listed).toEqual([expect.objectContaining({ ip: null, userAgent: null, methods: [] })]);
    const own = listed[0]!;
    expect(own.id).not.toBe(browserSession.id);
    expect((await hooli.admin.get(`/sessions/${own.id}`)).body).toEqual(own);
    expect((await hooli.admin.get(`/sessions/${browserSession.id}`)).status).toBe(404);
    expect((await hooli.admin.post('/sessions/validate', { token })).body).toEqual({ valid: true, session: own });

    const revoked = await hooli.admin.delete(`/sessions/${own.id}`);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(204);
    expect(await sessionsOf(hooli, userId)).toEqual([]);
    expect((await hooli.admin.get(`/sessions/${own.id}`)).status).toBe(404);
    expect((await hooli.admin.post('/sessions/validate', { token })).body).toEqual({ valid: false, session: null });
    expect(await refresh(hooli, token)).toEqual({ error: 'invalid_grant' });
    expect(await silently(hooli, browser, tenant)).toBe('login_required');
    const audit = await hooli.admin.get(`/audit-logs?action=session.revoked&target=${own.id}`);
    expect(audit.body.data).toEqual([expect.objectContaining({ tenantId: tenant, changes: expect.objectContaining({ before: own, after: { grantsRevoked: 1 } }) })]);
  });

  it('under a policy that still stands the browser session, stays that session’s: listed once, validated as it', async () => {
    const { of: hooli, userId, browserSession, token } = await idleBrowserUsedToken('kept@hooli.example', { idleTimeoutMinutes: 180 });
    const listed = await sessionsOf(hooli, userId);
    expect(listed.map((session) => session.id)).toEqual([browserSession.id]);
    expect((await hooli.admin.post('/sessions/validate', { token })).body).toMatchObject({ valid: true, session: { id: browserSession.id } });
  });
  /** The live refresh token of the user's grant: its stored end, and its issue (its last use) and chain's first, seconds. */
  async function refreshTokenOf(userId: string) {
    const [token] = await app.sql<{ expires_at: Date; iat: string; iiat: string; exp: string }>(
      `select expires_at, payload->>'iat' as iat, payload->>'iiat' as iiat, payload->>'exp' as exp from oidc_model
        where model = 'RefreshToken' and payload->>'accountId' = ? and consumed_at is null`,
      [userId],
    );
    return { storedEnd: new Date(token!.expires_at).getTime(), iat: Number(token!.iat), iiat: Number(token!.iiat), lifetime: Number(token!.exp) - Number(token!.iat) };
  }

  /** The sign-in as REST lists and gets it, and GraphQL too: all the same. */
  async function readEverywhere(of: Application, userId: string) {
    const [listed, ...more] = await sessionsOf(of, userId);
    expect(more).toEqual([]);
    expect((await of.admin.get(`/sessions/${listed!.id}`)).body).toEqual(listed);
    const graphql = await of.admin.request('POST', '/graphql', {
      body: {
        query: 'query($userId: UUID!, $id: UUID!) { userSessions(userId: $userId) { data { id expiresAt } } session(sessionId: $id) { expiresAt } }',
        variables: { userId, id: listed!.id },
      },
    });
    expect(graphql.body).toEqual({ data: { userSessions: { data: [{ id: listed!.id, expiresAt: listed!.expiresAt }] }, session: { expiresAt: listed!.expiresAt } } });
    return listed!;
  }

  it('ends when the policy ends its refresh token, idle from its last use, not at the token’s stored end; listed, got and validated alike', async () => {
    // Idle 90 minutes: the browser (unused since 0) ended at 90; the refresh token, used at 100, ends at 190, after the
    // access token issued with it (an hour, to 160) and days before its stored end.
    const { of: hooli, userId, token } = await idleBrowserUsedToken('idle-end@hooli.example', { idleTimeoutMinutes: 90 });
    const { storedEnd, iat, lifetime } = await refreshTokenOf(userId);
    const listed = await readEverywhere(hooli, userId);
    expect(listed.ip).toBeNull();
    // Its last use to the millisecond of its stored end (that end less the lifetime its issue gave it), plus the idle time.
    expect(Date.parse(listed.expiresAt)).toBe(storedEnd - lifetime * 1000 + 90 * MINUTE);
    expect(Date.parse(listed.expiresAt) - (iat * 1000 + 90 * MINUTE)).toBeGreaterThanOrEqual(0);
    expect(Date.parse(listed.expiresAt) - (iat * 1000 + 90 * MINUTE)).toBeLessThan(1000);
    expect(Date.parse(listed.expiresAt)).toBeLessThan(storedEnd - 24 * 60 * MINUTE);
    expect((await hooli.admin.post('/sessions/validate', { token })).body).toEqual({ valid: true, session: listed });
  });

  it('ends the absolute lifetime after its chain’s first issue when that is sooner', async () => {
    // Absolute 170 minutes from the sign-in at 0, before the idle end at 190, after the access token's at 160.
    const { of: hooli, userId, token } = await idleBrowserUsedToken('absolute-end@hooli.example', { idleTimeoutMinutes: 90, absoluteTimeoutMinutes: 170 });
    const { iiat } = await refreshTokenOf(userId);
    const listed = await readEverywhere(hooli, userId);
    expect(Date.parse(listed.expiresAt)).toBe((iiat + 170 * 60) * 1000);
    expect((await hooli.admin.post('/sessions/validate', { token })).body).toEqual({ valid: true, session: listed });
  });

  it('under a policy left as it was, ends at its refresh token’s stored end', async () => {
    const { of: hooli, tenant, userId } = await userOfNew('Hooli', 'unchanged@hooli.example');
    const { refreshToken } = await signIn(hooli, userId, tenant);
    // Its browser session past its stored end: the offline grant is a sign-in of its own.
    await app.sql(`update oidc_model set expires_at = now() - interval '1 second' where model = 'Session' and payload->>'accountId' = ?`, [userId]);
    const { storedEnd } = await refreshTokenOf(userId);
    const listed = await readEverywhere(hooli, userId);
    expect(listed.ip).toBeNull();
    expect(Date.parse(listed.expiresAt)).toBe(storedEnd);
    expect((await hooli.admin.post('/sessions/validate', { token: refreshToken })).body).toEqual({ valid: true, session: listed });
  });
});

/** The user's `session.revoked` records: whom each names, as the list showed it, and why. */
const revocationsOf = (userId: string) =>
  app.sql<{ target_id: string; before: unknown; after: unknown }>(
    `select target_id, before, after from audit_log where action = 'session.revoked' and before->>'userId' = ? order by id`,
    [userId],
  );

describe('a bulk ending of a grant sign-in freed from a browser session the policy has ended', () => {
  /** As idleBrowserUsedToken: signed in at 0, the refresh token rotated at 100, idle 30 minutes set, the clock at 120; the
   *  browser session is ended by the policy (not by its stored end), its offline grant listed as a sign-in of its own. */
  async function freedGrant(email: string, policy: Record<string, unknown> = {}) {
    const { of, tenant, userId } = await userOfNew('Hooli', email);
    const at = clock();
    const { refreshToken } = await signIn(of, userId, tenant);
    const [browserSession] = await sessionsOf(of, userId);
    at(100);
    const rotated = await refresh(of, refreshToken);
    expect(rotated).toEqual({ token: expect.any(String) });
    await putSessionPolicy(of, { idleTimeoutMinutes: 30, ...policy });
    at(120);
    const listed = await sessionsOf(of, userId);
    expect(listed).toEqual([expect.objectContaining({ ip: null })]);
    expect(listed[0]!.id).not.toBe(browserSession!.id);
    return { of, tenant, userId, own: listed[0]!, token: (rotated as { token: string }).token };
  }

  const endings: readonly [string, (of: Application, tenant: string, userId: string) => Promise<void>, Record<string, unknown>][] = [
    ['signed out everywhere', async (of, _tenant, userId) => expect((await of.admin.delete(`/users/${userId}/sessions`)).status).toBe(204), {}],
    [
      'signed out everywhere on the tenant’s path',
      async (of, tenant, userId) => expect((await of.admin.delete(`/applications/${of.bootstrap.applicationId}/tenants/${tenant}/users/${userId}/sessions`)).status).toBe(204),
      {},
    ],
    ['suspended', async (of, _tenant, userId) => expect((await of.admin.post(`/users/${userId}/suspend`)).status).toBe(200), { reason: 'user_suspended' }],
    ['given a new password', async (of, _tenant, userId) => expect((await of.admin.patch(`/users/${userId}`, { password: 'Another-Horse-Battery-7' })).status).toBe(200), { reason: 'password_changed' }],
    ['deleted', async (of, _tenant, userId) => expect((await of.admin.delete(`/users/${userId}`)).status).toBe(204), { reason: 'user_deleted' }],
    [
      'taken out of the tenant',
      async (of, tenant, userId) => {
        const other = await app.createTenant('Other', of.bootstrap);
        expect((await of.admin.patch(`/users/${userId}`, { tenantIds: [other] })).status).toBe(200);
        expect(tenant).not.toBe(other);
      },
      { reason: 'membership_removed' },
    ],
  ];

  for (const [name, end, why] of endings) {
    it(`${name}: recorded under the id the list showed, as DELETE /sessions/{id} records it; the browser session, which no list showed, not at all`, async () => {
      const { of, tenant, userId, own, token } = await freedGrant(`${name.replaceAll(/\W/g, '-')}@hooli.example`);
      await end(of, tenant, userId);
      expect(await refresh(of, token)).toEqual({ error: 'invalid_grant' });
      expect(await revocationsOf(userId)).toEqual([{ target_id: own.id, before: own, after: { ...why, grantsRevoked: 1 } }]);
    });
  }

  it('a sign-in under singleSession: the grant recorded under its own id, by the user', async () => {
    const { of, tenant, userId, own, token } = await freedGrant('single@hooli.example', { singleSession: true });
    await signIn(of, userId, tenant, new TestBrowser());
    expect(await refresh(of, token)).toEqual({ error: 'invalid_grant' });
    expect(await revocationsOf(userId)).toEqual([{ target_id: own.id, before: own, after: { reason: 'single_session', grantsRevoked: 1 } }]);
  });

  it('a browser session the policy still stands is recorded as before, with the grants it holds', async () => {
    const { of, tenant, userId } = await userOfNew('Hooli', 'standing@hooli.example', { idleTimeoutMinutes: 30 });
    await signIn(of, userId, tenant);
    const [session] = await sessionsOf(of, userId);
    expect((await of.admin.post(`/users/${userId}/suspend`)).status).toBe(200);
    expect(await revocationsOf(userId)).toEqual([{ target_id: session!.id, before: expect.objectContaining({ id: session!.id }), after: { reason: 'user_suspended', grantsRevoked: 1 } }]);
  });
});

describe('the audit record of a browser session the policy has shortened', () => {
  /** Signed in under the default policy, then idle 30 minutes set, the clock at 10: listed with the policy's end (20
   *  minutes away), its stored end days away. */
  async function shortenedSession(email: string) {
    const { of, tenant, userId } = await userOfNew('Hooli', email);
    const at = clock();
    await signIn(of, userId, tenant);
    await putSessionPolicy(of, { idleTimeoutMinutes: 30 });
    at(10);
    const [session] = await sessionsOf(of, userId);
    expect(Date.parse(session!.expiresAt)).toBeLessThanOrEqual(Date.now() + 20 * MINUTE + 5_000);
    return { of, userId, session: session! };
  }

  it('revoked alone: recorded with the end the list showed, not its stored one', async () => {
    const { of, userId, session } = await shortenedSession('shortened@hooli.example');
    expect((await of.admin.delete(`/sessions/${session.id}`)).status).toBe(204);
    expect(await revocationsOf(userId)).toEqual([{ target_id: session.id, before: session, after: { grantsRevoked: 1 } }]);
  });

  it('ended by a suspension: recorded with the end the list showed', async () => {
    const { of, userId, session } = await shortenedSession('shortened-suspended@hooli.example');
    expect((await of.admin.post(`/users/${userId}/suspend`)).status).toBe(200);
    expect(await revocationsOf(userId)).toEqual([{ target_id: session.id, before: session, after: { reason: 'user_suspended', grantsRevoked: 1 } }]);
  });
});
