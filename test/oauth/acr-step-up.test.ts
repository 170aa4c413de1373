import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACR_MULTI_FACTOR, ACR_SINGLE_FACTOR } from '../../src/domain/mfa/requirement.ts';
import type { TestApp } from '../support/app.ts';
import { CookieJar, readForm, type Visit } from '../support/cookie-jar.ts';
import { HttpClient } from '../support/http.ts';
import { createTestClient, decodeJwt, discover, startAuthorization, type AuthorizationFlow } from '../support/oauth.ts';
import { giveTotp, totpCodeAt as codeAt, withTimeLeftInStep } from '../support/totp.ts';
import { createPasswordUser, PASSWORD } from '../support/users.ts';
import { REDIRECT_URI, startHostedTestApp } from '../support/hosted-app.ts';

/**
 * Step-up by `acr_values` (src/oidc/policies.ts, src/hosted/mfa.ts): a client asking for the multi-factor acr gets a
 * second step whatever spared it before (a remembered browser, an `optional` policy, a session signed in with one
 * factor), a session that already gave it passes, prompt=none is refused where it did not, a user without a factor
 * enrols one (a session's user only after the sign-in form: the session alone enrols nothing), and where MFA is off the
 * single-factor acr comes back.
 */
/** A TOTP step: the session's own sign-in used this window's code, so the step takes the next one (one step either side is accepted). */
const STEP_MS = 30_000;

let app: TestApp;
let issuer: string;

beforeAll(async () => {
  ({ app, issuer } = await startHostedTestApp());
});
afterAll(async () => app?.close());


/** An application with the MFA policy `mfa` (optional, TOTP, browsers remembered 30 days unless given), its admin and a web client. */
async function applicationWith(mfa: object = {}) {
  const other = await app.bootstrapAnother();
  const admin = new HttpClient(app.baseUrl, { apiKey: other.apiKey });
  expect((await admin.put('/policies/mfa', { enforcement: 'optional', factors: ['totp'], rememberDeviceDays: 30, ...mfa })).status).toBe(200);
  const client = await createTestClient(app, { type: 'web', applicationId: other.applicationId, redirectUris: [REDIRECT_URI] });
  const configuration = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  return { applicationId: other.applicationId, admin, configuration, bootstrap: other };
}

type Scope = Awaited<ReturnType<typeof applicationWith>>;

/** How the user's browser session (the OP's) says they signed in: what the sign-ins it makes from then on list. */
const opSessionMethods = async (userId: string) =>
  (await app.sql<{ methods: unknown }>(`select payload->'methods' as methods from oidc_model where model = 'Session' and payload->>'accountId' = ?`, [userId])).map((row) => row.methods);


/** An authorization request of the scope's client in `jar`: the OP's answer (to the hosted pages, or to the client). */
const authorize = (scope: Scope, jar: CookieJar, parameters: Record<string, string> = {}) =>
  startAuthorization(scope.configuration, { redirectUri: REDIRECT_URI, resource: '' }, parameters, jar);

/** Follows the OP's answers to the hosted page they lead to. */
async function pageOf(jar: CookieJar, visit: Visit): Promise<Visit> {
  for (let hops = 0; hops < 10 && (visit.status === 302 || visit.status === 303) && visit.location!.startsWith(`${issuer}/`); hops += 1) {
    visit = await jar.visit(visit.location!);
  }
  return visit;
}

async function idToken(scope: Scope, flow: AuthorizationFlow, answer: Visit) {
  const callback = await flow.jar.followOut(answer, issuer);
  const tokens = await oidc.authorizationCodeGrant(scope.configuration, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  return decodeJwt(tokens.id_token!).payload;
}

/** A sign-in with the password in `jar` (`parameters` added to the request): the answer to the login form's POST. */
async function passwordSignIn(scope: Scope, jar: CookieJar, email: string, parameters: Record<string, string> = {}) {
  const flow = await authorize(scope, jar, parameters);
  const page = await pageOf(jar, flow.page);
  expect(page.body).toContain('name="password"');
  return { flow, answer: await jar.submit(page, { email, password: PASSWORD }) };
}

/** A user holding TOTP whose browser `jar` passed the step once (remembered), then signed in with the password alone. */
async function rememberedSingleFactorSession(scope: Scope, email: string) {
  const userId = await createPasswordUser(scope.admin, email);
  const secret = await giveTotp(app, scope.applicationId, userId);
  const jar = new CookieJar();
  const first = await passwordSignIn(scope, jar, email);
  expect(first.answer.location).toMatch(/\/mfa$/);
  const step = await jar.visit(first.answer.location!);
  expect(await idToken(scope, first.flow, await jar.submit(step, { code: codeAt(secret) }))).toMatchObject({ acr: ACR_MULTI_FACTOR });
  const again = await passwordSignIn(scope, jar, email, { prompt: 'login' });
  expect(again.answer.location).not.toContain('/mfa');
  expect(await idToken(scope, again.flow, again.answer)).toMatchObject({ sub: userId, amr: ['pwd'], acr: ACR_SINGLE_FACTOR });
  return { userId, secret, jar };
}

describe('acr_values asking for the multi-factor acr', () => {
  it('is advertised; the claims parameter is not offered', async () => {
    const metadata = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(metadata['acr_values_supported']).toEqual([ACR_SINGLE_FACTOR, ACR_MULTI_FACTOR]);
    expect(metadata['claims_parameter_supported']).toBe(false);
  });

  it('a single-factor session goes straight to the MFA step (no password again), a wrong code is refused, the right one gives pwd otp mfa; then the session passes as it is', async () => {
    const scope = await applicationWith();
    const { userId, secret, jar } = await rememberedSingleFactorSession(scope, 'step-up@example.com');
    expect(await opSessionMethods(userId)).toEqual([['password']]);
    const flow = await authorize(scope, jar, { acr_values: ACR_MULTI_FACTOR });
    const step = await pageOf(jar, flow.page);
    expect(step.url).toMatch(/\/interaction\/[\w-]+\/mfa$/);
    expect(step.body).toContain('name="code"');
    const next = codeAt(secret, Date.now() + STEP_MS);
    const wrong = await jar.submit(step, { code: String((Number(next) + 1) % 1_000_000).padStart(6, '0') });
    expect(wrong.status).toBe(400);
    const done = await jar.submit(wrong, { code: next });
    expect(await idToken(scope, flow, done)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'], acr: ACR_MULTI_FACTOR });
    // The step-up goes on from the session's password.
    expect(await opSessionMethods(userId)).toEqual([['password', 'totp']]);
    // The session now gave the multi-factor acr: asked again (silently too), it passes without a page.
    const asked: Record<string, string>[] = [{ acr_values: ACR_MULTI_FACTOR }, { acr_values: ACR_MULTI_FACTOR, prompt: 'none' }];
    for (const parameters of asked) {
      const again = await authorize(scope, jar, parameters);
      expect(again.start.location, JSON.stringify(parameters)).toMatch(/^https:\/\/app\.example\/callback\?/);
      expect(await idToken(scope, again, again.start)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'], acr: ACR_MULTI_FACTOR });
    }
  });

  it('a session’s step-up keeps its sign-in time (loginTs: auth_time, the absolute end and the account page’s recent sign-in count from it): no first factor was proven again', async () => {
    const scope = await applicationWith();
    const { userId, secret, jar } = await rememberedSingleFactorSession(scope, 'step-up-time@example.com');
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    await app.sql(`update oidc_model set payload = jsonb_set(payload, '{loginTs}', to_jsonb(?::int)) where model = 'Session' and payload->>'accountId' = ?`, [hourAgo, userId]);
    const flow = await authorize(scope, jar, { acr_values: ACR_MULTI_FACTOR });
    const step = await pageOf(jar, flow.page);
    expect(step.url).toMatch(/\/mfa$/);
    const done = await jar.submit(step, { code: codeAt(secret, Date.now() + STEP_MS) });
    expect(await idToken(scope, flow, done)).toMatchObject({ sub: userId, acr: ACR_MULTI_FACTOR });
    const loginTs = await app.sql<{ ts: number }>(`select (payload->>'loginTs')::int as ts from oidc_model where model = 'Session' and payload->>'accountId' = ?`, [userId]);
    expect(loginTs).toEqual([{ ts: hourAgo }]);
  });

  it('the session’s step-up takes 5 wrong codes, however many requests bring it to the step; then the sign-in form asks for the password, after which the right code passes', async () => {
    const scope = await applicationWith();
    const lockoutOff = { enabled: false, maxAttempts: 10, lockoutMinutes: 15, resetAfterMinutes: 15, accountLockAddresses: null };
    expect((await scope.admin.put('/policies/lockout', lockoutOff)).status).toBe(200);
    const { userId, secret, jar } = await rememberedSingleFactorSession(scope, 'step-up-guessed@example.com');
    const wrong = String((Number(codeAt(secret, Date.now() + STEP_MS)) + 1) % 1_000_000).padStart(6, '0');
    let step: Visit | undefined;
    for (const guesses of [3, 2]) {
      step = await pageOf(jar, (await authorize(scope, jar, { acr_values: ACR_MULTI_FACTOR })).page);
      expect(step.url).toMatch(/\/interaction\/[\w-]+\/mfa$/);
      for (let guess = 0; guess < guesses; guess += 1) step = await jar.submit(step, { code: wrong });
    }
    expect(step!.body).toContain('Too many wrong codes were entered. Sign in again to continue.');
    const flow = await authorize(scope, jar, { acr_values: ACR_MULTI_FACTOR });
    const form = await pageOf(jar, flow.page);
    expect(form.body).toContain('name="password"');
    const answer = await jar.submit(form, { email: 'step-up-guessed@example.com', password: PASSWORD });
    expect(answer.location).toMatch(/\/mfa$/);
    const done = await jar.submit(await jar.visit(answer.location!), { code: codeAt(secret, Date.now() + STEP_MS) });
    expect(await idToken(scope, flow, done)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'], acr: ACR_MULTI_FACTOR });
  });

  it('prompt=none with a single-factor session is refused with interaction_required; asking for either acr passes as it is', async () => {
    const scope = await applicationWith();
    const { userId, jar } = await rememberedSingleFactorSession(scope, 'silent@example.com');
    const silent = await authorize(scope, jar, { acr_values: ACR_MULTI_FACTOR, prompt: 'none' });
    const refused = new URL(silent.start.location!);
    expect(refused.origin + refused.pathname).toBe(REDIRECT_URI);
    expect(refused.searchParams.get('error')).toBe('interaction_required');
    expect(refused.searchParams.get('state')).toBe(silent.state);
    const either = await authorize(scope, jar, { acr_values: `${ACR_MULTI_FACTOR} ${ACR_SINGLE_FACTOR}`, prompt: 'none' });
    expect(await idToken(scope, either, either.start)).toMatchObject({ sub: userId, amr: ['pwd'], acr: ACR_SINGLE_FACTOR });
  });

  it('with prompt=login a remembered browser does not spare the step: the password, then the code', async () => {
    const scope = await applicationWith();
    const { userId, secret, jar } = await rememberedSingleFactorSession(scope, 'relogin@example.com');
    const { flow, answer } = await passwordSignIn(scope, jar, 'relogin@example.com', { prompt: 'login', acr_values: ACR_MULTI_FACTOR });
    expect(answer.location).toMatch(/\/mfa$/);
    const done = await jar.submit(await jar.visit(answer.location!), { code: codeAt(secret, Date.now() + STEP_MS) });
    expect(await idToken(scope, flow, done)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'], acr: ACR_MULTI_FACTOR });
  });

  it('a user holding no factor under optional enrols one the policy lists, then signs in with two factors; without acr_values they are not asked', async () => {
    const scope = await applicationWith();
    const userId = await createPasswordUser(scope.admin, 'no-factor@example.com');
    const plain = await passwordSignIn(scope, new CookieJar(), 'no-factor@example.com');
    expect(plain.answer.location).not.toContain('/mfa');
    const jar = new CookieJar();
    const { flow, answer } = await passwordSignIn(scope, jar, 'no-factor@example.com', { acr_values: ACR_MULTI_FACTOR });
    expect(answer.location).toMatch(/\/mfa$/);
    const enrol = await jar.visit(answer.location!);
    expect(enrol.body).toContain('Set up two-step verification');
    const secret = new URL(/otpauth:\/\/totp\/[^\s<]+/.exec(enrol.body)![0].replaceAll('&#38;', '&')).searchParams.get('secret')!;
    const codes = await jar.submit(enrol, { code: codeAt(secret) });
    expect(codes.status).toBe(200);
    const done = await jar.submit(codes, {});
    expect(await idToken(scope, flow, done)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'], acr: ACR_MULTI_FACTOR });
    expect(await app.sql(`select kind from mfa_factor where user_id = ?`, [userId])).toEqual([{ kind: 'totp' }]);
  });

  it('a no-factor session’s step-up shows the sign-in form first: a wrong password enrols nothing, the right one leads to the enrolment and the multi-factor acr, with a fresh sign-in time', async () => {
    const scope = await applicationWith();
    const userId = await createPasswordUser(scope.admin, 'no-factor-session@example.com');
    const jar = new CookieJar();
    const first = await passwordSignIn(scope, jar, 'no-factor-session@example.com');
    expect(await idToken(scope, first.flow, first.answer)).toMatchObject({ sub: userId, acr: ACR_SINGLE_FACTOR });
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    await app.sql(`update oidc_model set payload = jsonb_set(payload, '{loginTs}', to_jsonb(?::int)) where model = 'Session' and payload->>'accountId' = ?`, [hourAgo, userId]);
    // Whoever holds only the browser's session must not enrol a factor of their own: a first factor again, then the enrolment.
    const flow = await authorize(scope, jar, { acr_values: ACR_MULTI_FACTOR });
    const form = await pageOf(jar, flow.page);
    expect(form.url).not.toMatch(/\/mfa$/);
    expect(form.body).toContain('name="password"');
    const wrong = await jar.submit(form, { email: 'no-factor-session@example.com', password: `${PASSWORD}-wrong` });
    expect(wrong.status).toBe(400);
    expect(wrong.location ?? '').not.toContain('/mfa');
    expect(await jar.visit(`${new URL(form.url).origin}${new URL(form.url).pathname}/mfa`)).toMatchObject({ status: 303 });
    expect(await app.sql(`select kind from mfa_factor where user_id = ?`, [userId])).toEqual([]);
    const answer = await jar.submit(wrong, { email: 'no-factor-session@example.com', password: PASSWORD });
    expect(answer.location).toMatch(/\/mfa$/);
    const enrol = await jar.visit(answer.location!);
    expect(enrol.body).toContain('Set up two-step verification');
    const secret = new URL(/otpauth:\/\/totp\/[^\s<]+/.exec(enrol.body)![0].replaceAll('&#38;', '&')).searchParams.get('secret')!;
    const codes = await jar.submit(enrol, { code: codeAt(secret) });
    expect(codes.status).toBe(200);
    const done = await jar.submit(codes, {});
    expect(await idToken(scope, flow, done)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'], acr: ACR_MULTI_FACTOR });
    // A first factor was proven again: the sign-in time (loginTs: auth_time) is this sign-in's, not the session's earlier one.
    const [session] = await app.sql<{ ts: number }>(`select (payload->>'loginTs')::int as ts from oidc_model where model = 'Session' and payload->>'accountId' = ?`, [userId]);
    expect(session?.ts).toBeGreaterThan(hourAgo + 60);
    expect(await app.sql(`select kind from mfa_factor where user_id = ?`, [userId])).toEqual([{ kind: 'totp' }]);
  });

  it('a session’s step-up whose user loses their factors while it waits (an mfa-reset) enrols nothing on the session alone: the sign-in form first', async () => {
    const scope = await applicationWith();
    const { userId, jar } = await rememberedSingleFactorSession(scope, 'reset-while-stepping@example.com');
    const challenges = [];
    for (let i = 0; i < 2; i += 1) {
      const challenge = await pageOf(jar, (await authorize(scope, jar, { acr_values: ACR_MULTI_FACTOR })).page);
      expect(challenge.url).toMatch(/\/interaction\/[\w-]+\/mfa$/);
      challenges.push(challenge);
    }
    const [shown, posted] = challenges as [Visit, Visit];
    // The owner lost their authenticator app and an administrator reset their second step.
    expect((await scope.admin.post(`/users/${userId}/mfa-reset`, {})).status).toBe(200);
    // Neither the step's page nor its form turns into an enrolment: each goes back to its sign-in.
    const again = await jar.visit(shown.url);
    expect(again.status).toBe(303);
    expect(again.location).toBe(shown.url.replace(/\/mfa$/, ''));
    const answered = await jar.submit(posted, { code: '123456' });
    expect(answered.status).toBe(303);
    expect(answered.location).toBe(posted.url.replace(/\/mfa$/, ''));
    const form = await pageOf(jar, again);
    expect(form.body).not.toContain('otpauth://totp/');
    expect(form.body).toContain('name="password"');
    expect(await app.sql(`select kind from mfa_factor where user_id = ?`, [userId])).toEqual([]);
    // The password proven again, the enrolment follows.
    const answer = await jar.submit(form, { email: 'reset-while-stepping@example.com', password: PASSWORD });
    expect(answer.location).toMatch(/\/mfa$/);
    expect((await jar.visit(answer.location!)).body).toContain('otpauth://totp/');
  });

  it('a session whose password has expired since is stepped up without the forced change: no password was proven, so the session alone sets none', async () => {
    const scope = await applicationWith();
    expect((await scope.admin.put('/policies/password', { maxAge: 1 })).status).toBe(200);
    const { userId, secret, jar } = await rememberedSingleFactorSession(scope, 'expired-step-up@example.com');
    await app.sql(`update app_user set password_changed_at = now() - interval '3 days' where id = ?`, [userId]);
    const [before] = await app.sql<{ password_hash: string }>('select password_hash from app_user where id = ?', [userId]);
    // Whoever holds the browser's session (not the password) is taken to the step a factor holder proves.
    const flow = await authorize(scope, jar, { acr_values: ACR_MULTI_FACTOR });
    const step = await pageOf(jar, flow.page);
    expect(step.url).toMatch(/\/interaction\/[\w-]+\/mfa$/);
    const done = await jar.submit(step, { code: codeAt(secret, Date.now() + STEP_MS) });
    // Not the expired password's change page, which takes no current password.
    expect(done.location ?? '', done.body.slice(0, 300)).not.toMatch(/\/interaction\/[\w-]+\/password$/);
    expect(await idToken(scope, flow, done)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'], acr: ACR_MULTI_FACTOR });
    expect(await app.sql<{ password_hash: string }>('select password_hash from app_user where id = ?', [userId])).toEqual([before]);
  });

  it('where MFA is off no factor is asked: the single-factor acr comes back, and the session passes afterwards (no loop)', async () => {
    const scope = await applicationWith({ enforcement: 'off', factors: [] });
    const userId = await createPasswordUser(scope.admin, 'off@example.com');
    const jar = new CookieJar();
    const { flow, answer } = await passwordSignIn(scope, jar, 'off@example.com', { acr_values: ACR_MULTI_FACTOR });
    expect(answer.location).not.toContain('/mfa');
    expect(await idToken(scope, flow, answer)).toMatchObject({ sub: userId, amr: ['pwd'], acr: ACR_SINGLE_FACTOR });
    const again = await authorize(scope, jar, { acr_values: ACR_MULTI_FACTOR });
    const back = await pageOf(jar, again.page);
    expect(back.location).toMatch(/^https:\/\/app\.example\/callback\?/);
    expect(await idToken(scope, again, back)).toMatchObject({ sub: userId, amr: ['pwd'], acr: ACR_SINGLE_FACTOR });
  });
});

describe('an MFA policy made required', () => {
  it('takes a session signed in before it without a second factor to the step at its next authorization (silently: interaction_required), once', async () => {
    const scope = await applicationWith();
    const userId = await createPasswordUser(scope.admin, 'tightened@example.com');
    const secret = await giveTotp(app, scope.applicationId, userId);
    const jar = new CookieJar();
    // The browser passed the step once (remembered), then signed in with the password alone.
    const first = await passwordSignIn(scope, jar, 'tightened@example.com');
    expect(await idToken(scope, first.flow, await jar.submit(await jar.visit(first.answer.location!), { code: codeAt(secret) }))).toMatchObject({ acr: ACR_MULTI_FACTOR });
    const single = await passwordSignIn(scope, jar, 'tightened@example.com', { prompt: 'login' });
    expect(await idToken(scope, single.flow, single.answer)).toMatchObject({ acr: ACR_SINGLE_FACTOR });
    // A user without a factor signed in with the password alone, in another browser.
    const plainId = await createPasswordUser(scope.admin, 'tightened-plain@example.com');
    const plainJar = new CookieJar();
    const plain = await passwordSignIn(scope, plainJar, 'tightened-plain@example.com');
    expect(await idToken(scope, plain.flow, plain.answer)).toMatchObject({ sub: plainId, acr: ACR_SINGLE_FACTOR });

    expect((await scope.admin.put('/policies/mfa', { enforcement: 'required', factors: ['totp'], rememberDeviceDays: 0 })).status).toBe(200);

    for (const browser of [jar, plainJar]) {
      const silent = await authorize(scope, browser, { prompt: 'none' });
      const refused = new URL(silent.start.location!);
      expect(refused.origin + refused.pathname).toBe(REDIRECT_URI);
      expect(refused.searchParams.get('error')).toBe('interaction_required');
    }
    // No password again for the holder: the session's user is taken to the challenge. The other would enrol: the form first.
    const flow = await authorize(scope, jar);
    const step = await pageOf(jar, flow.page);
    expect(step.url).toMatch(/\/interaction\/[\w-]+\/mfa$/);
    expect(step.body).toContain('name="code"');
    const done = await jar.submit(step, { code: codeAt(secret, Date.now() + STEP_MS) });
    expect(await idToken(scope, flow, done)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'], acr: ACR_MULTI_FACTOR });
    const plainFlow = await authorize(scope, plainJar);
    const form = await pageOf(plainJar, plainFlow.page);
    expect(form.url).not.toMatch(/\/mfa$/);
    expect(form.body).toContain('name="password"');
    const signedIn = await plainJar.submit(form, { email: 'tightened-plain@example.com', password: PASSWORD });
    expect(signedIn.location).toMatch(/\/mfa$/);
    expect((await plainJar.visit(signedIn.location!)).body).toContain('otpauth://totp/');
    // Passed under the policy as it is, the session goes on silently.
    const silent = await authorize(scope, jar, { prompt: 'none' });
    expect(await idToken(scope, silent, silent.start)).toMatchObject({ sub: userId, acr: ACR_MULTI_FACTOR });
  });

  it('so does an isolated tenant’s looser override removed: the application’s policy then judges the sessions it judged', async () => {
    const scope = await applicationWith({ enforcement: 'required' });
    const created = await scope.admin.post(`/applications/${scope.applicationId}/tenants`, { name: 'Loose' });
    expect(created.status).toBe(201);
    const tenant = `/applications/${scope.applicationId}/tenants/${created.body.id as string}`;
    expect((await scope.admin.patch(`/applications/${scope.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    expect((await scope.admin.put(`${tenant}/policies/mfa`, { enforcement: 'optional', factors: ['totp'] })).status).toBe(200);
    const userId = await createPasswordUser(scope.admin, 'loosened@example.com', `${tenant}/users`);
    const inTenant = { tenant: created.body.id as string };
    const jar = new CookieJar();
    const signedIn = await passwordSignIn(scope, jar, 'loosened@example.com', inTenant);
    expect(await idToken(scope, signedIn.flow, signedIn.answer)).toMatchObject({ sub: userId, acr: ACR_SINGLE_FACTOR });
    const silently = () => authorize(scope, jar, { ...inTenant, prompt: 'none' });
    // Under the override, the session goes on silently.
    expect(new URL((await silently()).start.location!).searchParams.get('error')).toBeNull();

    expect((await scope.admin.delete(`${tenant}/policies/mfa`)).status).toBe(204);
    expect(new URL((await silently()).start.location!).searchParams.get('error')).toBe('interaction_required');
  });

  it('a remembered browser spares the step it asks for, as at a sign-in under it, and the session then goes on: no loop', async () => {
    const scope = await applicationWith();
    const { userId, jar } = await rememberedSingleFactorSession(scope, 'remembered-required@example.com');
    expect((await scope.admin.put('/policies/mfa', { enforcement: 'required', factors: ['totp'], rememberDeviceDays: 30 })).status).toBe(200);
    const refused = new URL((await authorize(scope, jar, { prompt: 'none' })).start.location!);
    expect(refused.searchParams.get('error')).toBe('interaction_required');
    // Judged by the policy now (the browser remembered): back to the client without a page.
    const flow = await authorize(scope, jar);
    const back = await pageOf(jar, flow.page);
    expect(back.location!.startsWith(REDIRECT_URI), back.url).toBe(true);
    expect(await idToken(scope, flow, back)).toMatchObject({ sub: userId, amr: ['pwd'], acr: ACR_SINGLE_FACTOR });
    const silent = await authorize(scope, jar, { prompt: 'none' });
    expect(await idToken(scope, silent, silent.start)).toMatchObject({ sub: userId, amr: ['pwd'], acr: ACR_SINGLE_FACTOR });
  });

  /** A member of Acme and Globex whose browser passed the step once (remembered), then signed in to Acme with the password
   *  alone holding a refresh token; then the policy made required. */
  async function signedInToAcmeThenRequired(email: string) {
    const scope = await applicationWith();
    const [acme, globex] = [await app.createTenant('Acme', scope.bootstrap), await app.createTenant('Globex', scope.bootstrap)];
    const userId = await createPasswordUser(scope.admin, email, '/users', { tenantId: acme });
    expect((await scope.admin.patch(`/users/${userId}`, { tenantIds: [acme, globex] })).status).toBe(200);
    const secret = await giveTotp(app, scope.applicationId, userId);
    const jar = new CookieJar();
    // The step passed once (the browser remembered), then a sign-in to Acme with the password alone, holding a refresh token.
    const first = await passwordSignIn(scope, jar, email, { tenant: 'acme' });
    expect(await idToken(scope, first.flow, await jar.submit(await jar.visit(first.answer.location!), { code: codeAt(secret) }))).toMatchObject({ acr: ACR_MULTI_FACTOR });
    const inAcme = await passwordSignIn(scope, jar, email, { tenant: 'acme', prompt: 'login consent', scope: 'openid offline_access' });
    expect(inAcme.answer.location).not.toContain('/mfa');
    const callback = await jar.followOut(inAcme.answer, issuer);
    let refreshToken = (await oidc.authorizationCodeGrant(scope.configuration, callback, { pkceCodeVerifier: inAcme.flow.verifier, expectedState: inAcme.flow.state })).refresh_token!;
    const stillSignedIn = async () => {
      refreshToken = (await oidc.refreshTokenGrant(scope.configuration, refreshToken)).refresh_token!;
    };
    expect((await scope.admin.put('/policies/mfa', { enforcement: 'required', factors: ['totp'], rememberDeviceDays: 30 })).status).toBe(200);
    return { scope, acme, globex, userId, jar, stillSignedIn, refreshToken: () => refreshToken };
  }

  it('a remembered browser’s step-up for another tenant ends no sign-in by itself: the switch page asks, the user’s POST switches', async () => {
    const { scope, acme, globex, userId, jar, stillSignedIn, refreshToken } = await signedInToAcmeThenRequired('stepped-switch@example.com');
    // A cross-site navigation to Globex: the step is spared (remembered), and the page asks before anything ends.
    const asked = await authorize(scope, jar, { tenant: 'globex' });
    const page = await pageOf(jar, asked.page);
    expect(page.status, page.location).toBe(200);
    expect(page.body).toContain('Continuing in Globex ends that sign-in.');
    expect(readForm(page.url, page.body).action).toMatch(/\/switch$/);
    await stillSignedIn();
    // A forged POST ends nothing; a tenant the request did not ask for goes back to the page.
    expect((await jar.submit(page, { csrf: 'forged' })).status).toBe(403);
    expect(await jar.submit(page, { tenant: acme })).toMatchObject({ status: 303, location: page.url.replace(/\/switch$/, '') });
    await stillSignedIn();
    // The user's own confirmation: signed in to Globex, Acme's grant ended with its tokens.
    const confirmed = await pageOf(jar, await jar.submit(page, {}));
    expect(confirmed.location!.startsWith(REDIRECT_URI), confirmed.url).toBe(true);
    const switched = await oidc.authorizationCodeGrant(scope.configuration, await jar.followOut(confirmed, issuer), { pkceCodeVerifier: asked.verifier, expectedState: asked.state });
    expect(decodeJwt(switched.id_token!).payload).toMatchObject({ sub: userId, tenant_id: globex });
    await expect(oidc.refreshTokenGrant(scope.configuration, refreshToken())).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('a remembered browser’s step-up in the tenant the session is signed in to goes on without a page, its grant kept', async () => {
    const { scope, acme, userId, jar, stillSignedIn } = await signedInToAcmeThenRequired('stepped-same@example.com');
    const flow = await authorize(scope, jar, { tenant: 'acme' });
    const back = await pageOf(jar, flow.page);
    expect(back.location!.startsWith(REDIRECT_URI), back.url).toBe(true);
    expect(await idToken(scope, flow, back)).toMatchObject({ sub: userId, tenant_id: acme });
    await stillSignedIn();
  });

  it('so does one whose tenant is chosen on the page: the choice is no confirmation, the switch page’s POST is', async () => {
    const { scope, globex, userId, jar, stillSignedIn, refreshToken } = await signedInToAcmeThenRequired('stepped-choice@example.com');
    const asked = await authorize(scope, jar);
    const chooser = await pageOf(jar, asked.page);
    expect(readForm(chooser.url, chooser.body).action).toMatch(/\/tenant$/);
    const page = await pageOf(jar, await jar.submit(chooser, { tenant: globex }));
    expect(page.body).toContain('Continuing in Globex ends that sign-in.');
    await stillSignedIn();
    const confirmed = await pageOf(jar, await jar.submit(page, {}));
    expect(await idToken(scope, asked, confirmed)).toMatchObject({ sub: userId, tenant_id: globex });
    await expect(oidc.refreshTokenGrant(scope.configuration, refreshToken())).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('nor does a session’s step-up sign in again, without a credential, to a tenant whose sign-in was revoked in the browser, switch page or not', async () => {
    const email = 'stepped-revoked@example.com';
    const { scope, acme, userId, jar } = await signedInToAcmeThenRequired(email);
    // Another client of the application signed in to Globex in the same browser keeps the session once Acme's is revoked.
    const other = await createTestClient(app, { type: 'web', applicationId: scope.applicationId, redirectUris: [REDIRECT_URI] });
    const otherScope = { ...scope, configuration: await discover(app, other.clientId, oidc.ClientSecretBasic(other.clientSecret ?? '')) };
    const elsewhere = await passwordSignIn(otherScope, jar, email, { tenant: 'globex', prompt: 'login' });
    expect(await idToken(otherScope, elsewhere.flow, await pageOf(jar, elsewhere.answer))).toMatchObject({ sub: userId });
    const sessions = (await scope.admin.get(`/applications/${scope.applicationId}/tenants/${acme}/sessions`)).body.data as { id: string }[];
    for (const { id } of sessions) expect((await scope.admin.delete(`/applications/${scope.applicationId}/tenants/${acme}/sessions/${id}`)).status).toBe(204);
    expect(await app.sql('select 1 from revoked_sign_in where tenant_id = ?', [acme])).toHaveLength(1);
    // This client's kept grant becomes Globex's, by the password (the step spared: remembered).
    const inGlobex = await passwordSignIn(scope, jar, email, { tenant: 'globex', prompt: 'login' });
    expect(await idToken(scope, inGlobex.flow, await pageOf(jar, inGlobex.answer))).toMatchObject({ sub: userId });
    // Named, Acme asks for the password. Chosen on the tenant page of a session's step-up (the policy made required again
    // since, the step spared by the remembered browser), it is refused, confirmed or not: the revoked sign-in stays revoked.
    const named = await pageOf(jar, (await authorize(scope, jar, { tenant: 'acme' })).page);
    expect(named.body).toContain('name="password"');
    expect((await scope.admin.put('/policies/mfa', { enforcement: 'optional', factors: ['totp'], rememberDeviceDays: 30 })).status).toBe(200);
    expect((await scope.admin.put('/policies/mfa', { enforcement: 'required', factors: ['totp'], rememberDeviceDays: 30 })).status).toBe(200);
    const asked = await authorize(scope, jar);
    const chooser = await pageOf(jar, asked.page);
    expect(readForm(chooser.url, chooser.body).action).toMatch(/\/tenant$/);
    let answered = await pageOf(jar, await jar.submit(chooser, { tenant: acme }));
    // Were the switch page shown, its POST must be refused alike.
    if (answered.body.includes('Continuing in Acme ends that sign-in.')) answered = await pageOf(jar, await jar.submit(answered, {}));
    const answer = new URL(answered.location!);
    expect(`${answer.origin}${answer.pathname}`).toBe(REDIRECT_URI);
    expect(answer.searchParams.get('error')).toBe('access_denied');
    expect(await app.sql('select 1 from revoked_sign_in where tenant_id = ?', [acme])).toHaveLength(1);
    // With the password it signs in there again.
    const again = await passwordSignIn(scope, jar, email, { tenant: 'acme', prompt: 'login' });
    expect(await idToken(scope, again.flow, await pageOf(jar, again.answer))).toMatchObject({ sub: userId, tenant_id: acme });
  });

  it('a remembered browser’s sign-in that changes an expired password was judged by the policy: the session then goes on silently, and opens the account page', async () => {
    const scope = await applicationWith();
    const email = 'remembered-expired@example.com';
    const { userId, jar } = await rememberedSingleFactorSession(scope, email);
    expect((await scope.admin.put('/policies/mfa', { enforcement: 'required', factors: ['totp'], rememberDeviceDays: 30 })).status).toBe(200);
    expect((await scope.admin.put('/policies/password', { maxAge: 1 })).status).toBe(200);
    await app.sql(`update app_user set password_changed_at = now() - interval '3 days' where id = ?`, [userId]);
    // The password, the step spared by the remembered browser, then the forced change.
    const { flow, answer } = await passwordSignIn(scope, jar, email, { prompt: 'login' });
    expect(answer.location).toMatch(/\/password$/);
    const done = await jar.submit(await jar.visit(answer.location!), { password: 'Battery-Staple-42' });
    expect(await idToken(scope, flow, done)).toMatchObject({ sub: userId, amr: ['pwd'], acr: ACR_SINGLE_FACTOR });
    // Not taken for a sign-in the policy never judged: no step asked again, silently or on the account page.
    const silent = await authorize(scope, jar, { prompt: 'none' });
    expect(new URL(silent.start.location!).searchParams.get('error')).toBeNull();
    expect(await idToken(scope, silent, silent.start)).toMatchObject({ sub: userId, acr: ACR_SINGLE_FACTOR });
    const page = await jar.visit(`${issuer}/account?${new URLSearchParams({ client_id: scope.configuration.clientMetadata().client_id })}`);
    expect(page.status, page.location).toBe(200);
  });

  it('keeps the account page from a session signed in before it without a second factor until the step is passed: its forms change nothing', async () => {
    const scope = await applicationWith();
    const userId = await createPasswordUser(scope.admin, 'account-tightened@example.com');
    const jar = new CookieJar();
    const signedIn = await passwordSignIn(scope, jar, 'account-tightened@example.com');
    expect(await idToken(scope, signedIn.flow, signedIn.answer)).toMatchObject({ acr: ACR_SINGLE_FACTOR });
    const accountUrl = `${issuer}/account?${new URLSearchParams({ client_id: scope.configuration.clientMetadata().client_id })}`;
    const page = await jar.visit(accountUrl);
    expect(page.status, page.body).toBe(200);
    // The owner adds an authenticator app in another browser; then the policy is made required.
    const secret = await giveTotp(app, scope.applicationId, userId);
    expect((await scope.admin.put('/policies/mfa', { enforcement: 'required', factors: ['totp'], rememberDeviceDays: 0 })).status).toBe(200);

    const again = await jar.visit(accountUrl);
    expect(again.status, again.body).toBe(303);
    expect(again.location).toContain('response_mode=gatehouse_account');
    // Whoever holds the session and the password adds no authenticator app of theirs with the page shown before.
    const forms = [...page.body.matchAll(/<form\b[^>]*method="post"[\s\S]*?<\/form>/g)].map(([html]) => readForm(page.url, html));
    const totpForm = forms.find((form) => form.action.includes('/account/mfa-totp'))!;
    const offered = /Key: <code>([A-Z2-7 ]+)<\/code>/.exec(page.body)![1]!.replaceAll(' ', '');
    const added = await jar.visit(totpForm.action, { form: { ...totpForm.fields, totp_code: codeAt(offered), totp_password: PASSWORD } });
    expect(added.status).toBe(403);
    expect(await app.sql(`select kind from mfa_factor where user_id = ?`, [userId])).toEqual([{ kind: 'totp' }]);

    // Through the sign-in (the password, then the owner's code) the page opens again.
    const form = await pageOf(jar, again);
    const step = await jar.submit(form, { email: 'account-tightened@example.com', password: PASSWORD });
    expect(step.location).toMatch(/\/mfa$/);
    await withTimeLeftInStep();
    const back = await pageOf(jar, await jar.submit(await jar.visit(step.location!), { code: codeAt(secret) }));
    expect(back.status, back.body).toBe(200);
    expect(back.url.startsWith(`${issuer}/account`)).toBe(true);
  });
});
