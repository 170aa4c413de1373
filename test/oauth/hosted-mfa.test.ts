import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { askedForLock } from '../../src/domain/email/flow-mail.ts';
import { CODE_ATTEMPTS, recoveryCodeHash } from '../../src/domain/mfa/codes.ts';
import { ACR_MULTI_FACTOR, ACR_SINGLE_FACTOR } from '../../src/domain/mfa/requirement.ts';
import type { TestApp } from '../support/app.ts';
import { CookieJar, readForm, type Visit } from '../support/cookie-jar.ts';
import { csrfOf, emailFormAction, mailedCode, mails } from '../support/email-sign-in.ts';
import { HttpClient } from '../support/http.ts';
import { cookieLinesOf, recordingJar } from '../support/set-cookies.ts';
import { authorizationRequest, createTestClient, decodeJwt, discover } from '../support/oauth.ts';
import { isolatedNorthSouth } from '../support/surface-sign-in.ts';
import { usingEmbeddedDatabase } from '../support/database.ts';
import { formsSentAtOnce, queuedBehind, sentAtOnce } from '../support/row-lock.ts';
import { changedAtWrite, suspendedAtWrite, suspendedInTurn } from '../support/suspend-trigger.ts';
import { totpCodeAt as codeAt, giveTotp as giveTotpTo, withTimeLeftInStep } from '../support/totp.ts';
import { createPasswordUser, PASSWORD } from '../support/users.ts';
import { REDIRECT_URI, startHostedTestApp } from '../support/hosted-app.ts';

/**
 * The MFA step of the hosted sign-in, driven as a browser would with the cookie jar: the challenge after the password
 * (TOTP codes computed here, e-mail codes read from the outbox, recovery codes), the enrolment under `required`,
 * the refusals (a replayed code, one outside the window, a used recovery code, another user's code), an isolated
 * tenant's policy, what the ID token says was used, and an expired password changed only once the step has passed.
 */
const STEP_MS = 30_000;

let app: TestApp;
let issuer: string;
let config: oidc.Configuration;

beforeAll(async () => {
  ({ app, issuer, config } = await startHostedTestApp());
});
afterAll(async () => app?.close());

async function webClient(applicationId: string): Promise<oidc.Configuration> {
  const client = await createTestClient(app, { type: 'web', applicationId, redirectUris: [REDIRECT_URI] });
  return discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
}

/** Another application with one policy set (`policy`: its path, `body`: the policy), its admin and a web client. */
async function applicationWith(policy: string, body: object) {
  const other = await app.bootstrapAnother();
  const admin = new HttpClient(app.baseUrl, { apiKey: other.apiKey });
  expect((await admin.put(policy, body)).status).toBe(200);
  return { other, admin, configuration: await webClient(other.applicationId) };
}


/** A TOTP factor given to the user directly (as an enrolment stores it), and its secret. */
const giveTotp = (userId: string, applicationId = app.root.applicationId) => giveTotpTo(app, applicationId, userId);

interface Flow {
  readonly jar: CookieJar;
  readonly verifier: string;
  readonly state: string;
}

type SignInOptions = { configuration?: oidc.Configuration; parameters?: Record<string, string>; jar?: CookieJar; password?: string };

/** An authorization request and the password typed: the answer to the login form's POST. */
async function signIn(email: string, options: SignInOptions = {}) {
  const { flow, page } = await signInPage(options);
  return { flow, answer: await flow.jar.submit(page, { email, password: options.password ?? PASSWORD }) };
}

/** An authorization request's sign-in page. */
async function signInPage(options: SignInOptions = {}) {
  const jar = options.jar ?? new CookieJar();
  const { url, verifier, state } = await authorizationRequest(options.configuration ?? config, { redirectUri: REDIRECT_URI, resource: '' }, options.parameters);
  const start = await jar.visit(url.href);
  expect(start.location).toMatch(new RegExp(`^${issuer}/interaction/`));
  return { flow: { jar, verifier, state }, page: await jar.visit(start.location!) };
}

/** The password proven, the MFA step's page (the login POST's 303 followed). */
async function stepPage(email: string, options: SignInOptions = {}) {
  const { flow, answer } = await signIn(email, options);
  expect(answer.status, answer.body.slice(-1500)).toBe(303);
  expect(answer.location).toMatch(new RegExp(`^${issuer}/interaction/[\\w-]+/mfa$`));
  return { flow, page: await flow.jar.visit(answer.location!) };
}

/** The ID token's claims once the browser is back at the client with a code. */
async function idToken(flow: Flow, answer: Visit, configuration = config) {
  const callback = await flow.jar.followOut(answer, issuer);
  const tokens = await oidc.authorizationCodeGrant(configuration, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  return decodeJwt(tokens.id_token!).payload;
}

/** What the user's sessions say they were signed in with, oldest first. */
const sessionMethods = async (userId: string, admin = app.http) => ((await admin.get(`/users/${userId}/sessions`)).body.data as { methods: string[] }[]).map((session) => session.methods);

const records = (userId: string, action: string) =>
  app.sql<{ after: Record<string, unknown>; outcome: string }>(`select after, outcome from audit_log where target_id = ? and action = ? order by id`, [userId, action]);

/** The latest mail of a template to an address, as the outbox holds it. */
async function lastMail(to: string, template: string): Promise<string> {
  const [mail] = await app.sql<{ text_body: string }>(`select text_body from email_delivery where to_address = ? and template_key = ? order by created_at desc limit 1`, [
    to,
    template,
  ]);
  expect(mail, `no ${template} mail to ${to}`).toBeDefined();
  return mail!.text_body;
}

describe('optional (the default)', () => {
  it('a user without a factor signs in with the password alone: amr pwd, single-factor acr, the session’s method password', async () => {
    const userId = await createPasswordUser(app.http, 'plain@example.com');
    const { flow, answer } = await signIn('plain@example.com');
    expect(answer.status).toBe(303);
    expect(answer.location).not.toContain('/mfa');
    expect(await idToken(flow, answer)).toMatchObject({ amr: ['pwd'], acr: ACR_SINGLE_FACTOR });
    expect(await sessionMethods(userId)).toEqual([['password']]);
  });

  it('a user with TOTP is challenged; a code computed here completes the sign-in, with otp and mfa in amr, the session’s methods password and totp', async () => {
    const userId = await createPasswordUser(app.http, 'totp@example.com');
    const secret = await giveTotp(userId);
    const { flow, page } = await stepPage('totp@example.com');
    expect(page.status).toBe(200);
    expect(page.body).toContain('name="code"');
    expect(page.body).toContain('Use a recovery code');
    const done = await flow.jar.submit(page, { code: codeAt(secret) });
    expect(done.status, done.body.slice(-1500)).toBe(303);
    expect(await idToken(flow, done)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'], acr: ACR_MULTI_FACTOR });
    // One sign-in, completed by the step: the password's record is its first factor's only.
    expect((await records(userId, 'user.first_factor_proven')).map((record) => record.after)).toEqual([expect.objectContaining({ method: 'password' })]);
    expect((await records(userId, 'user.signed_in')).map((record) => record.after)).toEqual([expect.objectContaining({ method: 'totp', amr: ['pwd', 'otp', 'mfa'] })]);
    expect(await sessionMethods(userId)).toEqual([['password', 'totp']]);
  });

  it('a replayed code is refused, and so is an earlier step’s once a later one was accepted', async () => {
    const userId = await createPasswordUser(app.http, 'replay@example.com');
    const secret = await giveTotp(userId);
    const code = codeAt(secret);
    const first = await stepPage('replay@example.com');
    expect((await first.flow.jar.submit(first.page, { code })).status).toBe(303);
    const again = await stepPage('replay@example.com');
    const replayed = await again.flow.jar.submit(again.page, { code });
    expect(replayed.status).toBe(400);
    expect(replayed.body).toContain('The code is incorrect, has expired or was already used.');
    await withTimeLeftInStep();
    expect((await again.flow.jar.submit(replayed, { code: codeAt(secret, Date.now() - STEP_MS) })).status).toBe(400);
    const failed = await records(userId, 'user.sign_in_failed');
    expect(failed.map((record) => record.after['reason'])).toEqual(['code_replayed', 'code_replayed']);
    expect(failed.every((record) => record.outcome === 'failure')).toBe(true);
  });

  it('a code outside the ±1 step window is refused; one a step early is accepted', async () => {
    const userId = await createPasswordUser(app.http, 'window@example.com');
    const secret = await giveTotp(userId);
    const { flow, page } = await stepPage('window@example.com');
    // Two refusals only: from the third failure on, an address waits before it is heard again (lockout policy).
    for (const offset of [-2, 2]) {
      await withTimeLeftInStep();
      const refused = await flow.jar.submit(page, { code: codeAt(secret, Date.now() + offset * STEP_MS) });
      expect(refused.status, `offset ${offset}`).toBe(400);
    }
    await withTimeLeftInStep();
    expect((await flow.jar.submit(page, { code: codeAt(secret, Date.now() - STEP_MS) })).status).toBe(303);
    expect((await records(userId, 'user.sign_in_failed')).map((record) => record.after['reason'])).toEqual(['wrong_code', 'wrong_code']);
  });

  it('a code typed as authenticator apps show it, two groups of three (the field allows spaces), is accepted, not counted as a failure', async () => {
    const userId = await createPasswordUser(app.http, 'grouped@example.com');
    const secret = await giveTotp(userId);
    const { flow, page } = await stepPage('grouped@example.com');
    await withTimeLeftInStep();
    const code = codeAt(secret);
    const done = await flow.jar.submit(page, { code: `${code.slice(0, 3)} ${code.slice(3)}` });
    expect(done.status, done.body.slice(-1500)).toBe(303);
    expect(await records(userId, 'user.sign_in_failed')).toEqual([]);
  });

  it('a recovery code works once', async () => {
    const userId = await createPasswordUser(app.http, 'recovery@example.com');
    await giveTotp(userId);
    await app.sql(`insert into mfa_recovery_code (application_id, user_id, code_hash) values (?, ?, ?)`, [app.root.applicationId, userId, recoveryCodeHash('abcde-fghjk')]);
    const first = await stepPage('recovery@example.com');
    const recoveryPage = await first.flow.jar.visit(`${first.page.url}?method=recovery_code`);
    expect(recoveryPage.body).toContain('Recovery code');
    const done = await first.flow.jar.submit(recoveryPage, { code: 'ABCDE FGHJK' });
    expect(await idToken(first.flow, done)).toMatchObject({ amr: ['pwd', 'otp', 'mfa'] });
    expect(await sessionMethods(userId)).toEqual([['password', 'recovery_code']]);
    const second = await stepPage('recovery@example.com');
    const again = await second.flow.jar.visit(`${second.page.url}?method=recovery_code`);
    expect((await second.flow.jar.submit(again, { code: 'abcde-fghjk' })).status).toBe(400);
  });

  it('a code sent twice by one browser (a double submit): the second goes where the first led, no failure recorded', async () => {
    const userId = await createPasswordUser(app.http, 'double@example.com');
    const secret = await giveTotp(userId);
    const { flow, page } = await stepPage('double@example.com');
    await withTimeLeftInStep();
    const code = codeAt(secret);
    const first = await flow.jar.submit(page, { code });
    expect(first.status).toBe(303);
    const second = await flow.jar.submit(page, { code });
    expect([second.status, second.location]).toEqual([303, first.location]);
    expect(await records(userId, 'user.sign_in_failed')).toEqual([]);
    expect(await idToken(flow, second)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'] });
  });

  it('a code sent twice at once by one browser (the second before the first is answered): one sign-in, no failure; both go where it led', async () => {
    const userId = await createPasswordUser(app.http, 'double-at-once@example.com');
    const secret = await giveTotp(userId);
    const { flow, page } = await stepPage('double-at-once@example.com');
    await withTimeLeftInStep();
    const code = codeAt(secret);
    const [first, second] = await Promise.all([flow.jar.submit(page, { code }), flow.jar.submit(page, { code })]);
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(second.location).toBe(first.location);
    expect(await records(userId, 'user.sign_in_failed')).toEqual([]);
    expect(await records(userId, 'user.signed_in')).toHaveLength(1);
    expect(await idToken(flow, second)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'] });
  });

  it('one recovery code, or one TOTP code, posted by two browsers at once signs one of them in', async () => {
    const userId = await createPasswordUser(app.http, 'twice@example.com');
    const secret = await giveTotp(userId);
    await app.sql(`insert into mfa_recovery_code (application_id, user_id, code_hash) values (?, ?, ?)`, [app.root.applicationId, userId, recoveryCodeHash('mnpqr-stuvw')]);
    const steps = await Promise.all([stepPage('twice@example.com'), stepPage('twice@example.com')]);
    const recoveryPages = await Promise.all(steps.map(({ flow, page }) => flow.jar.visit(`${page.url}?method=recovery_code`)));
    const codes = { table: 'mfa_recovery_code', applicationId: app.root.applicationId, column: 'user_id', id: userId };
    const recovered = await sentAtOnce(app.gatehouse.services.orm, codes, steps.map(({ flow }, i) => () => flow.jar.submit(recoveryPages[i]!, { code: 'mnpqr-stuvw' })));
    expect(recovered.map((answer) => answer.status).sort()).toEqual([303, 400]);

    const again = await Promise.all([stepPage('twice@example.com'), stepPage('twice@example.com')]);
    await withTimeLeftInStep(5_000);
    const code = codeAt(secret);
    const factor = { table: 'mfa_factor', applicationId: app.root.applicationId, column: 'user_id', id: userId };
    const answered = await sentAtOnce(app.gatehouse.services.orm, factor, again.map(({ flow, page }) => () => flow.jar.submit(page, { code })));
    expect(answered.map((answer) => answer.status).sort()).toEqual([303, 400]);
    expect((await records(userId, 'user.sign_in_failed')).map((record) => record.after['reason'])).toEqual(['wrong_code', 'code_replayed']);
  });

  it('a code of another user’s factor is refused', async () => {
    const owner = await createPasswordUser(app.http, 'owner@example.com');
    const ownerSecret = await giveTotp(owner);
    await giveTotp(await createPasswordUser(app.http, 'other@example.com'));
    const { flow, page } = await stepPage('other@example.com');
    expect((await flow.jar.submit(page, { code: codeAt(ownerSecret) })).status).toBe(400);
    // The owner's code still works for the owner: the refusal used nothing of theirs.
    const ownerStep = await stepPage('owner@example.com');
    expect((await ownerStep.flow.jar.submit(ownerStep.page, { code: codeAt(ownerSecret) })).status).toBe(303);
  });

  it('a new password set while the step waits: the old password’s step no longer completes, even with the right code', async () => {
    const userId = await createPasswordUser(app.http, 'stale@example.com');
    const secret = await giveTotp(userId);
    const { flow, page } = await stepPage('stale@example.com');
    expect((await app.http.patch(`/users/${userId}`, { password: 'Owners-Own-Choice-8' })).status).toBe(200);
    const refused = await flow.jar.submit(page, { code: codeAt(secret) });
    expect(refused.status).toBe(303);
    const callback = await flow.jar.followOut(refused, issuer);
    expect(Object.fromEntries(callback.searchParams)).toMatchObject({ error: 'access_denied', state: flow.state });
  });

  it('a suspension and the activation, or a sign-out everywhere, while the step waits: the right code completes nothing; another user’s step goes on', async () => {
    const suspendAndActivate = async (userId: string) => {
      expect((await app.http.post(`/users/${userId}/suspend`)).status).toBe(200);
      expect((await app.http.post(`/users/${userId}/activate`)).body.status).toBe('active');
    };
    const signOutEverywhere = async (userId: string) => expect((await app.http.delete(`/users/${userId}/sessions`)).status).toBe(204);
    for (const [email, end] of [['paused@example.com', suspendAndActivate], ['signed-out@example.com', signOutEverywhere]] as const) {
      const userId = await createPasswordUser(app.http, email);
      const secret = await giveTotp(userId);
      const bystander = await createPasswordUser(app.http, `bystander-${email}`);
      const bystanderSecret = await giveTotp(bystander);
      const { flow, page } = await stepPage(email);
      const other = await stepPage(`bystander-${email}`);
      await end(userId);
      await withTimeLeftInStep(5_000);
      const refused = await flow.jar.submit(page, { code: codeAt(secret) });
      expect(refused.status).toBe(303);
      const callback = await flow.jar.followOut(refused, issuer);
      expect(Object.fromEntries(callback.searchParams)).toMatchObject({ error: 'access_denied', state: flow.state });
      const passed = await other.flow.jar.submit(other.page, { code: codeAt(bystanderSecret) });
      expect((await idToken(other.flow, passed)).sub).toBe(bystander);
    }
  });

  it('a user suspended once the challenge’s right code is taken: no sign-in, the failure recorded as a suspended user’s, and the client hears access_denied at once', async () => {
    const userId = await createPasswordUser(app.http, 'challenge-suspended@example.com');
    const secret = await giveTotp(userId);
    const { flow, page } = await stepPage('challenge-suspended@example.com');
    await withTimeLeftInStep(5_000);
    const answer = await suspendedAtWrite(app, userId, { table: 'oidc_model', when: `new.model = 'StepAttempts'` }, () => flow.jar.submit(page, { code: codeAt(secret) }));
    expect(answer.status, answer.body.slice(-1500)).toBe(303);
    const callback = await flow.jar.followOut(answer, issuer);
    expect(Object.fromEntries(callback.searchParams)).toMatchObject({ error: 'access_denied', state: flow.state });
    expect((await records(userId, 'user.sign_in_failed')).map((record) => [record.after['method'], record.after['reason']])).toEqual([['totp', 'user_inactive']]);
    expect(await records(userId, 'user.signed_in')).toEqual([]);
  });

  it('the address locked out once the challenge’s right code is taken: no sign-in, the step’s page refuses it as a locked-out address’s', async () => {
    const userId = await createPasswordUser(app.http, 'challenge-locked-out@example.com');
    const secret = await giveTotp(userId);
    const { flow, page } = await stepPage('challenge-locked-out@example.com');
    await withTimeLeftInStep(5_000);
    const lockOut = `insert into sign_in_failure (application_id, user_id, address, failures, last_failed_at, locked_at, locked_until)
      values ('${app.root.applicationId}', '${userId}', 'mfa:127.0.0.1', 5, now(), now(), now() + interval '5 minutes')`;
    const answer = await changedAtWrite(app, lockOut, { table: 'oidc_model', when: `new.model = 'StepAttempts'` }, () => flow.jar.submit(page, { code: codeAt(secret) }));
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('The code is incorrect, has expired or was already used.');
    expect((await records(userId, 'user.sign_in_failed')).map((record) => [record.after['method'], record.after['reason']])).toEqual([['totp', 'address_locked']]);
    expect(await records(userId, 'user.signed_in')).toEqual([]);
  });

  it('the step cannot be reached without a proven password, nor with another interaction’s cookie', async () => {
    const userId = await createPasswordUser(app.http, 'forged@example.com');
    await giveTotp(userId);
    const { flow, page } = await stepPage('forged@example.com');
    const fresh = new CookieJar();
    const other = await fresh.visit(page.url);
    expect(other.status).toBe(400);
    // The step's cookie is the jar's; a POST of its form without it (its seal run out, or another browser) is refused.
    const stepCookie = flow.jar.all().find((cookie) => cookie.name === 'gh_mfa')!;
    expect(stepCookie.httpOnly).toBe(true);
    expect(stepCookie.path).toMatch(/^\/interaction\/[\w-]+$/);
  });

  it('its cookies: the step’s under the interaction’s path for its 10 minutes, cleared once passed; the remembered browser’s at / for the policy’s days', async () => {
    const { other, admin, configuration } = await applicationWith('/policies/mfa', { enforcement: 'optional', factors: ['totp'], rememberDeviceDays: 30 });
    const secret = await giveTotp(await createPasswordUser(admin, 'cookies@example.com'), other.applicationId);
    const { jar, lines } = recordingJar();
    const { page } = await stepPage('cookies@example.com', { configuration, jar });
    const uid = new URL(page.url).pathname.split('/')[2]!;
    expect(cookieLinesOf(lines, 'gh_mfa=')).toEqual([`gh_mfa=<value>; Path=/interaction/${uid}; Max-Age=600; HttpOnly; SameSite=Lax`]);
    expect((await jar.submit(page, { code: codeAt(secret) })).status).toBe(303);
    expect(cookieLinesOf(lines, 'gh_mfa=')).toEqual([
      `gh_mfa=<value>; Path=/interaction/${uid}; Max-Age=600; HttpOnly; SameSite=Lax`,
      `gh_mfa=; Path=/interaction/${uid}; Max-Age=0; HttpOnly; SameSite=Lax`,
    ]);
    expect(cookieLinesOf(lines, 'gh_mfa_remember_').map((line) => line.replace(/^gh_mfa_remember_[\w-]{16}=/, 'gh_mfa_remember_<binding>='))).toEqual([
      `gh_mfa_remember_<binding>=<value>; Path=/; Max-Age=${30 * 24 * 3600}; HttpOnly; SameSite=Lax`,
    ]);
  });

  it('a user suspended once the step asked for an e-mail code (the step read them active): no code is stored or mailed, the client hears access_denied', async () => {
    const userId = await createPasswordUser(app.http, 'send-suspended@example.com');
    await app.sql(`insert into mfa_factor (application_id, id, user_id, kind) values (?, ?, ?, 'email_otp')`, [app.root.applicationId, randomUUID(), userId]);
    const { flow, page } = await stepPage('send-suspended@example.com');
    const answer = await suspendedInTurn(app, userId, askedForLock(app.root.applicationId, 'send-suspended@example.com'), () => flow.jar.submit(page, { action: 'send', code: '' }));
    expect(answer.status, answer.body.slice(-1500)).toBe(303);
    expect(answer.location).not.toContain('sent=1');
    const callback = await flow.jar.followOut(answer, issuer);
    expect(Object.fromEntries(callback.searchParams)).toMatchObject({ error: 'access_denied', state: flow.state });
    expect(await app.sql(`select 1 from mfa_email_code where user_id = ?`, [userId])).toEqual([]);
    expect(await app.sql(`select 1 from email_delivery where to_address = ? and template_key = 'email_otp'`, ['send-suspended@example.com'])).toEqual([]);
  });

  it('an e-mail code, sent through the outbox, works once', async () => {
    const userId = await createPasswordUser(app.http, 'mailed@example.com');
    await app.sql(`insert into mfa_factor (application_id, id, user_id, kind) values (?, ?, ?, 'email_otp')`, [app.root.applicationId, randomUUID(), userId]);
    const { flow, page } = await stepPage('mailed@example.com');
    expect(page.body).toContain('Send a code');
    const sent = await flow.jar.submit(page, { action: 'send', code: '' });
    expect(sent.status).toBe(303);
    const codePage = await flow.jar.visit(sent.location!);
    expect(codePage.body).toContain('We sent a code to mailed@example.com.');
    const code = /\b(\d{6})\b/.exec(await lastMail('mailed@example.com', 'email_otp'))![1]!;
    const [stored] = await app.sql<{ code_hash: string }>(`select code_hash from mfa_email_code where user_id = ?`, [userId]);
    expect(stored!.code_hash).not.toContain(code);
    const done = await flow.jar.submit(codePage, { code });
    expect(await idToken(flow, done)).toMatchObject({ amr: ['pwd', 'otp', 'mfa'] });
    expect(await sessionMethods(userId)).toEqual([['password', 'email_otp']]);
    const second = await stepPage('mailed@example.com');
    expect((await second.flow.jar.submit(second.page, { action: 'verify', code })).status).toBe(400);
  });

  it('past the address’s mail limit, "send a code" writes nothing: the code mailed before still works', async () => {
    const capped = await startHostedTestApp({ mailsPerAddressPerHour: 1 });
    try {
      const userId = await createPasswordUser(capped.app.http, 'capped@example.com');
      await capped.app.sql(`insert into mfa_factor (application_id, id, user_id, kind) values (?, ?, ?, 'email_otp')`, [capped.app.root.applicationId, randomUUID(), userId]);
      const flow = await capped.authorize();
      const step = await flow.jar.visit((await flow.jar.submit(flow.page, { email: 'capped@example.com', password: PASSWORD })).location!);
      const codePage = await flow.jar.visit((await flow.jar.submit(step, { action: 'send', code: '' })).location!);
      const mailed = () => capped.app.sql<{ text_body: string }>(`select text_body from email_delivery where template_key = 'email_otp'`);
      const code = /\b(\d{6})\b/.exec((await mailed())[0]!.text_body)![1]!;
      const again = await flow.jar.submit(codePage, { action: 'send', code: '' });
      expect(again.status).toBe(303);
      expect(await mailed()).toHaveLength(1);
      const done = await flow.jar.submit(await flow.jar.visit(again.location!), { code });
      expect(done.status, done.body.slice(-800)).toBe(303);
      expect(done.location).not.toMatch(/\/mfa$/);
    } finally {
      await capped.close();
    }
  });

  it('an e-mail code is void after five wrong guesses, whatever the lockout policy, however many sign-ins made them; a new code works', async () => {
    const lockoutOff = { enabled: false, maxAttempts: 10, lockoutMinutes: 15, resetAfterMinutes: 15, accountLockAddresses: 5 };
    const { other, admin, configuration } = await applicationWith('/policies/lockout', lockoutOff);
    const userId = await createPasswordUser(admin, 'guessing@example.com');
    await app.sql(`insert into mfa_factor (application_id, id, user_id, kind) values (?, ?, ?, 'email_otp')`, [other.applicationId, randomUUID(), userId]);
    const first = await stepPage('guessing@example.com', { configuration });
    let current = await first.flow.jar.visit((await first.flow.jar.submit(first.page, { action: 'send', code: '' })).location!);
    const code = /\b(\d{6})\b/.exec(await lastMail('guessing@example.com', 'email_otp'))![1]!;
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let attempt = 0; attempt < 3; attempt += 1) expect((current = await first.flow.jar.submit(current, { code: wrong })).status).toBe(400);
    // A sign-in's own attempts at the step are five too: the code's last two guesses are another sign-in's.
    const { flow, page } = await stepPage('guessing@example.com', { configuration });
    current = await flow.jar.visit(`${page.url}?method=email_otp`);
    for (let attempt = 0; attempt < 2; attempt += 1) expect((current = await flow.jar.submit(current, { code: wrong })).status).toBe(400);
    expect((current = await flow.jar.submit(current, { code })).status).toBe(400);
    expect(current.body).toContain('The code is incorrect');
    const resent = await flow.jar.visit((await flow.jar.submit(current, { action: 'send', code: '' })).location!);
    const fresh = /\b(\d{6})\b/.exec(await lastMail('guessing@example.com', 'email_otp'))![1]!;
    expect(await idToken(flow, await flow.jar.submit(resent, { code: fresh }), configuration)).toMatchObject({ amr: ['pwd', 'otp', 'mfa'] });
  });

  it('e-mail code guesses sent at once by three browsers: with one attempt left, one takes it and the right code after them is refused', async () => {
    const userId = await createPasswordUser(app.http, 'racing@example.com');
    await app.sql(`insert into mfa_factor (application_id, id, user_id, kind) values (?, ?, ?, 'email_otp')`, [app.root.applicationId, randomUUID(), userId]);
    // Each its own sign-in (one browser's forms are answered one at a time), all guessing the code the first had sent.
    const steps = [await stepPage('racing@example.com'), await stepPage('racing@example.com'), await stepPage('racing@example.com')];
    const [sender, ...others] = steps;
    const codePages = [
      await sender!.flow.jar.visit((await sender!.flow.jar.submit(sender!.page, { action: 'send', code: '' })).location!),
      ...(await Promise.all(others.map(({ flow, page }) => flow.jar.visit(`${page.url}?method=email_otp`)))),
    ];
    const code = /\b(\d{6})\b/.exec(await lastMail('racing@example.com', 'email_otp'))![1]!;
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    await app.sql(`update mfa_email_code set attempts = ? where user_id = ?`, [CODE_ATTEMPTS - 1, userId]);
    const held = { table: 'mfa_email_code', applicationId: app.root.applicationId, column: 'user_id', id: userId };
    const answers = await sentAtOnce(app.gatehouse.services.orm, held, steps.map(({ flow }, i) => () => flow.jar.submit(codePages[i]!, { code: wrong })));
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400]);
    expect(await app.sql(`select attempts from mfa_email_code where user_id = ?`, [userId])).toEqual([{ attempts: CODE_ATTEMPTS }]);
    expect((await sender!.flow.jar.submit(codePages[0]!, { code })).status).toBe(400);
  });

  it('a browser that passed is remembered for the user: no challenge at its next sign-in, but in another browser', async () => {
    const userId = await createPasswordUser(app.http, 'remember@example.com');
    const secret = await giveTotp(userId);
    const { flow, page } = await stepPage('remember@example.com');
    expect((await flow.jar.submit(page, { code: codeAt(secret) })).status).toBe(303);
    const remembered = flow.jar.all().filter((cookie) => cookie.name.startsWith('gh_mfa_remember_'));
    expect(remembered.map((cookie) => cookie.httpOnly)).toEqual([true]);
    const again = await signIn('remember@example.com', { jar: flow.jar, parameters: { prompt: 'login' } });
    expect(again.answer.location).not.toContain('/mfa');
    expect(await idToken(again.flow, again.answer)).toMatchObject({ amr: ['pwd'], acr: ACR_SINGLE_FACTOR });
    expect((await signIn('remember@example.com')).answer.location).toMatch(/\/mfa$/);
  });

  it('a browser remembers each application’s and each user’s pass: passing another’s step forgets none', async () => {
    const { other, admin, configuration } = await applicationWith('/policies/mfa', { enforcement: 'optional', factors: ['totp'], rememberDeviceDays: 30 });
    const jar = new CookieJar();
    const passes = [
      { email: 'first-of-root@example.com', secret: await giveTotp(await createPasswordUser(app.http, 'first-of-root@example.com')) },
      { email: 'of-other@example.com', secret: await giveTotp(await createPasswordUser(admin, 'of-other@example.com'), other.applicationId), configuration },
      { email: 'second-of-root@example.com', secret: await giveTotp(await createPasswordUser(app.http, 'second-of-root@example.com')) },
    ];
    for (const { email, secret, configuration: of } of passes) {
      const { flow, page } = await stepPage(email, { jar, ...(of === undefined ? {} : { configuration: of }) });
      expect((await flow.jar.submit(page, { code: codeAt(secret) })).status).toBe(303);
    }
    for (const { email, configuration: of } of passes) {
      const again = await signIn(email, { jar, parameters: { prompt: 'login' }, ...(of === undefined ? {} : { configuration: of }) });
      expect(again.answer.location, email).not.toContain('/mfa');
    }
  });

  it('a browser remembered before the policy’s factor list changed is challenged again; one remembered before its days changed is not', async () => {
    const { other, admin, configuration } = await applicationWith('/policies/mfa', { enforcement: 'optional', factors: ['totp', 'email_otp'], rememberDeviceDays: 30 });
    const userId = await createPasswordUser(admin, 'narrowed@example.com');
    const secret = await giveTotp(userId, other.applicationId);
    await app.sql(`insert into mfa_factor (application_id, id, user_id, kind) values (?, ?, ?, 'email_otp')`, [other.applicationId, randomUUID(), userId]);
    const { flow, page } = await stepPage('narrowed@example.com', { configuration, parameters: { prompt: 'login' } });
    expect((await flow.jar.submit(page, { code: codeAt(secret) })).status).toBe(303);
    const signInAgain = async () => (await signIn('narrowed@example.com', { configuration, jar: flow.jar, parameters: { prompt: 'login' } })).answer.location;
    expect((await admin.put('/policies/mfa', { enforcement: 'optional', factors: ['totp', 'email_otp'], rememberDeviceDays: 20 })).status).toBe(200);
    expect(await signInAgain()).not.toMatch(/\/mfa$/);
    // The e-mail code no longer counts: whichever kind the browser passed with, it is asked which it holds that does.
    expect((await admin.put('/policies/mfa', { enforcement: 'optional', factors: ['totp'], rememberDeviceDays: 20 })).status).toBe(200);
    expect(await signInAgain()).toMatch(/\/mfa$/);
  });

  it('a browser remembered before the policy stopped remembering (0 days: ask every time) is challenged again', async () => {
    const { other, admin, configuration } = await applicationWith('/policies/mfa', { enforcement: 'optional', factors: ['totp'], rememberDeviceDays: 30 });
    const userId = await createPasswordUser(admin, 'forgotten@example.com');
    const secret = await giveTotp(userId, other.applicationId);
    const { flow, page } = await stepPage('forgotten@example.com', { configuration });
    expect((await flow.jar.submit(page, { code: codeAt(secret) })).status).toBe(303);
    expect((await admin.put('/policies/mfa', { enforcement: 'optional', factors: ['totp'], rememberDeviceDays: 0 })).status).toBe(200);
    const again = await signIn('forgotten@example.com', { configuration, jar: flow.jar, parameters: { prompt: 'login' } });
    expect(again.answer.location).toMatch(/\/mfa$/);
  });
});

describe('what a sign-in counts', () => {
  it('once, when it completes: a right password refused at the step is no sign-in and makes no one active; passed, one', async () => {
    const { other, admin, configuration } = await applicationWith('/policies/mfa', { enforcement: 'optional', factors: ['totp'] });
    const userId = await createPasswordUser(admin, 'counted@example.com');
    const secret = await giveTotp(userId, other.applicationId);
    const today = new Date().toISOString().slice(0, 10);
    const counted = async () => {
      const range = `from=${today}&to=${today}`;
      const [signIns] = (await admin.get(`/analytics/sign-ins?${range}`)).body.data as Record<string, unknown>[];
      const [active] = (await admin.get(`/analytics/active-users?${range}`)).body.data as { count: number }[];
      return { ...signIns, active: active!.count };
    };

    await withTimeLeftInStep();
    const refused = await stepPage('counted@example.com', { configuration });
    expect((await refused.flow.jar.submit(refused.page, { code: codeAt(secret, Date.now() + 100 * STEP_MS) })).status).toBe(400);
    expect(await counted()).toEqual({ period: today, succeeded: 0, failed: 1, byMethod: { totp: 1 }, active: 0 });
    expect(await records(userId, 'user.signed_in')).toEqual([]);
    expect(await records(userId, 'user.first_factor_proven')).toEqual([{ after: expect.objectContaining({ method: 'password' }), outcome: 'success' }]);

    await withTimeLeftInStep();
    const passed = await stepPage('counted@example.com', { configuration });
    expect((await passed.flow.jar.submit(passed.page, { code: codeAt(secret) })).status).toBe(303);
    expect(await counted()).toEqual({ period: today, succeeded: 1, failed: 1, byMethod: { totp: 2 }, active: 1 });
    expect(await records(userId, 'user.signed_in')).toHaveLength(1);
  });
});

describe('a new browser (the session policy’s notifyNewBrowser)', () => {
  it('is news once the step is passed: a password stopped at the step mails nothing and leaves the browser unknown', async () => {
    const { other, admin, configuration } = await applicationWith('/policies/session', { notifyNewBrowser: true });
    const userId = await createPasswordUser(admin, 'noticed@example.com');
    const secret = await giveTotp(userId, other.applicationId);
    const knownBrowsers = async () => (await app.sql<{ n: number }>('select count(*)::int as n from known_browser where user_id = ?', [userId]))[0]!.n;
    const browserCookies = (answer: Visit) => answer.headers.getSetCookie().filter((line) => line.startsWith('gh_browser='));

    await withTimeLeftInStep();
    const laptop = await stepPage('noticed@example.com', { configuration });
    const first = await laptop.flow.jar.submit(laptop.page, { code: codeAt(secret) });
    expect(first.status).toBe(303);
    expect(browserCookies(first)).toHaveLength(1);
    expect(await knownBrowsers()).toBe(1);

    // Another browser with the right password only: not a sign-in yet.
    const stranger = await stepPage('noticed@example.com', { configuration });
    expect(stranger.page.status).toBe(200);
    expect(await knownBrowsers()).toBe(1);
    expect(await mails(admin, 'noticed@example.com', 'new_sign_in')).toEqual([]);
    await withTimeLeftInStep();
    const refused = await stranger.flow.jar.submit(stranger.page, { code: codeAt(secret, Date.now() + 100 * STEP_MS) });
    expect(refused.status).toBe(400);
    expect(browserCookies(refused)).toEqual([]);
    expect(await knownBrowsers()).toBe(1);
    expect(await mails(admin, 'noticed@example.com', 'new_sign_in')).toEqual([]);

    // The step passed in that browser (with the next step's code: the laptop's was this step's): now it is news, and known.
    await withTimeLeftInStep();
    const passed = await stranger.flow.jar.submit(refused, { code: codeAt(secret, Date.now() + STEP_MS) });
    expect(passed.status).toBe(303);
    expect(browserCookies(passed)).toHaveLength(1);
    expect(await knownBrowsers()).toBe(2);
    expect(await mails(admin, 'noticed@example.com', 'new_sign_in')).toHaveLength(1);
  });
});

describe('lockout', () => {
  it('wrong codes count as failed sign-ins: the address is locked out, and then even the right code is refused', async () => {
    const lockout = { enabled: true, maxAttempts: 3, lockoutMinutes: 5, resetAfterMinutes: 15, accountLockAddresses: 2 };
    const { other, admin, configuration } = await applicationWith('/policies/lockout', lockout);
    const userId = await createPasswordUser(admin, 'guessed@example.com');
    const secret = await giveTotp(userId, other.applicationId);
    const wrong = String((Number(codeAt(secret)) + 1) % 1_000_000).padStart(6, '0');
    const first = await stepPage('guessed@example.com', { configuration });
    let last = first.page;
    for (let i = 0; i < 2; i += 1) last = await first.flow.jar.submit(last, { code: wrong });
    // The password proven again does not forgive the codes' failures: the third locks the address out.
    const { flow, page } = await stepPage('guessed@example.com', { configuration });
    last = await flow.jar.submit(page, { code: wrong });
    const failures = await app.sql<{ address: string; failures: number; locked: boolean }>(
      `select address, failures, locked_at is not null as locked from sign_in_failure where user_id = ?`,
      [userId],
    );
    expect(failures).toEqual([{ address: 'mfa:127.0.0.1', failures: 3, locked: true }]);
    expect((await flow.jar.submit(last, { code: codeAt(secret) })).status).toBe(400);
    expect((await records(userId, 'user.sign_in_failed')).at(-1)!.after['reason']).toBe('address_locked');
  });
});

describe('a proven first factor’s attempts at the step, whatever the lockout policy', () => {
  const LOCKOUT_OFF = { enabled: false, maxAttempts: 10, lockoutMinutes: 15, resetAfterMinutes: 15, accountLockAddresses: null };
  const TOO_MANY = 'Too many wrong codes were entered. Sign in again to continue.';
  let lockoutOff: Awaited<ReturnType<typeof applicationWith>>;

  beforeAll(async () => {
    lockoutOff = await applicationWith('/policies/lockout', LOCKOUT_OFF);
  });

  const wrongFor = (secret: string) => String((Number(codeAt(secret)) + 1) % 1_000_000).padStart(6, '0');

  /** A user of the lockout-off application with TOTP and one recovery code; its TOTP secret. */
  async function guessedUser(email: string, recoveryCode = 'pqrst-vwxyz') {
    const userId = await createPasswordUser(lockoutOff.admin, email);
    const secret = await giveTotp(userId, lockoutOff.other.applicationId);
    await app.sql(`insert into mfa_recovery_code (application_id, user_id, code_hash) values (?, ?, ?)`, [lockoutOff.other.applicationId, userId, recoveryCodeHash(recoveryCode)]);
    return { userId, secret };
  }

  const reasons = async (userId: string) => (await records(userId, 'user.sign_in_failed')).map((record) => record.after['reason']);

  it('five wrong codes, TOTP and recovery codes together, end the step: the page says to sign in again, and its kept cookie checks no more codes', async () => {
    const { userId, secret } = await guessedUser('budget@example.com');
    const { flow, page } = await stepPage('budget@example.com', { configuration: lockoutOff.configuration });
    const kept = flow.jar.all().find((cookie) => cookie.name === 'gh_mfa')!;
    let current = page;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      current = await flow.jar.submit(current, { code: wrongFor(secret) });
      expect(current.status).toBe(400);
      expect(current.body).toContain('The code is incorrect');
    }
    current = await flow.jar.submit(await flow.jar.visit(`${page.url}?method=recovery_code`), { code: 'aaaaa-bbbbb' });
    expect(current.status).toBe(400);
    const ended = await flow.jar.submit(current, { code: 'ccccc-ddddd' });
    expect(ended.status).toBe(400);
    expect(ended.body).toContain(TOO_MANY);
    expect(ended.body).toContain('name="password"');
    expect(flow.jar.all().some((cookie) => cookie.name === 'gh_mfa')).toBe(false);
    // A guesser keeping the step's sealed cookie: the count is the service's, so the right codes are not even checked.
    const keep = () => flow.jar.store(page.url, [`gh_mfa=${kept.value}; Path=${kept.path}`]);
    keep();
    const recoveryForm = await flow.jar.visit(`${page.url}?method=recovery_code`);
    await withTimeLeftInStep();
    for (const [form, code] of [
      [page, codeAt(secret)],
      [recoveryForm, 'pqrst-vwxyz'],
    ] as const) {
      keep();
      const refused = await flow.jar.submit(form, { code });
      expect(refused.status).toBe(400);
      expect(refused.body).toContain(TOO_MANY);
    }
    expect(await reasons(userId)).toEqual(['wrong_code', 'wrong_code', 'wrong_code', 'wrong_code', 'wrong_code', 'too_many_codes', 'too_many_codes']);
    expect(await app.sql(`select count(*)::int as left from mfa_recovery_code where user_id = ? and used_at is null`, [userId])).toEqual([{ left: 1 }]);
  });

  it('signing in again with the password on that page gets five attempts of its own: four wrong codes, then the right one signs in', async () => {
    const { userId, secret } = await guessedUser('again@example.com');
    const { flow, page } = await stepPage('again@example.com', { configuration: lockoutOff.configuration });
    let current = page;
    for (let attempt = 0; attempt < 5; attempt += 1) current = await flow.jar.submit(current, { code: wrongFor(secret) });
    expect(current.body).toContain(TOO_MANY);
    const signedIn = await flow.jar.submit(current, { email: 'again@example.com', password: PASSWORD });
    expect(signedIn.location).toBe(page.url);
    current = await flow.jar.visit(signedIn.location!);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      current = await flow.jar.submit(current, { code: wrongFor(secret) });
      expect(current.body).toContain('The code is incorrect');
    }
    await withTimeLeftInStep();
    const done = await flow.jar.submit(current, { code: codeAt(secret) });
    expect(await idToken(flow, done, lockoutOff.configuration)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'] });
    expect((await reasons(userId)).filter((reason) => reason === 'wrong_code')).toHaveLength(9);
  });

  it('wrong codes sent at once are checked no more often than five times; the right code after them is refused', async () => {
    const { userId, secret } = await guessedUser('at-once@example.com');
    const { flow, page } = await stepPage('at-once@example.com', { configuration: lockoutOff.configuration });
    expect((await flow.jar.submit(page, { code: wrongFor(secret) })).status).toBe(400);
    // The proof's count, by the key its sealed step carries.
    const kept = flow.jar.all().find((cookie) => cookie.name === 'gh_mfa')!;
    const { step } = JSON.parse(Buffer.from(kept.value.split('.')[0]!, 'base64url').toString()) as { step: { key: string } };
    const held = { table: 'oidc_model', applicationId: lockoutOff.other.applicationId, id: step.key };
    const answers = await formsSentAtOnce(app.gatehouse.services.orm, held, [0, 1, 2, 3, 4, 5].map(() => () => flow.jar.submit(page, { code: wrongFor(secret) })));
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400, 400, 400]);
    expect(answers.filter((answer) => answer.body.includes(TOO_MANY))).toHaveLength(3);
    expect((await reasons(userId)).sort()).toEqual(['too_many_codes', 'too_many_codes', 'wrong_code', 'wrong_code', 'wrong_code', 'wrong_code', 'wrong_code']);
    // The step's cookie was cleared by those answers: kept, as a guesser would.
    flow.jar.store(page.url, [`gh_mfa=${kept.value}; Path=${kept.path}`]);
    await withTimeLeftInStep();
    expect((await flow.jar.submit(page, { code: codeAt(secret) })).body).toContain(TOO_MANY);
  });

  it('a tenant choice posted again goes on with the same proof: its attempts are not renewed', async () => {
    const tenants = [await app.createTenant('Budget One', lockoutOff.other), await app.createTenant('Budget Two', lockoutOff.other)];
    const { userId, secret } = await guessedUser('chooser@example.com');
    expect((await lockoutOff.admin.patch(`/users/${userId}`, { tenantIds: tenants })).status).toBe(200);
    const { flow, answer } = await signIn('chooser@example.com', { configuration: lockoutOff.configuration });
    expect(answer.location).toMatch(/\/tenant$/);
    const chooser = await flow.jar.visit(answer.location!);
    let current = await flow.jar.visit((await flow.jar.submit(chooser, { tenant: tenants[0]! })).location!);
    for (let attempt = 0; attempt < 5; attempt += 1) current = await flow.jar.submit(current, { code: wrongFor(secret) });
    expect(current.body).toContain(TOO_MANY);
    // The choice's form again (its sealed proof unchanged): the step it leads to has no attempt left.
    const again = await flow.jar.submit(chooser, { tenant: tenants[1]! });
    expect(again.location).toMatch(/\/mfa$/);
    await withTimeLeftInStep();
    expect((await flow.jar.submit(await flow.jar.visit(again.location!), { code: codeAt(secret) })).body).toContain(TOO_MANY);
  });

  it('an enabled lockout policy counts every code checked as before; a refusal while the address waits takes none of the attempts', async () => {
    const lockout = { enabled: true, maxAttempts: 10, lockoutMinutes: 15, resetAfterMinutes: 15, accountLockAddresses: 5 };
    const { other, admin, configuration } = await applicationWith('/policies/lockout', lockout);
    const userId = await createPasswordUser(admin, 'counted@example.com');
    const secret = await giveTotp(userId, other.applicationId);
    const { flow, page } = await stepPage('counted@example.com', { configuration });
    const failures = () => app.sql<{ address: string; failures: number }>(`select address, failures from sign_in_failure where user_id = ?`, [userId]);
    // Time passing: the address's last failure a minute ago, so it is heard again.
    const waited = () => app.sql(`update sign_in_failure set last_failed_at = now() - interval '1 minute' where user_id = ?`, [userId]);
    let current = page;
    for (let attempt = 0; attempt < 3; attempt += 1) current = await flow.jar.submit(current, { code: wrongFor(secret) });
    expect(await failures()).toEqual([{ address: 'mfa:127.0.0.1', failures: 3 }]);
    // From the third failure on the address waits (here its last failure is still to come, however slow the machine):
    // refused unheard, uncounted.
    await app.sql(`update sign_in_failure set last_failed_at = now() + interval '1 minute' where user_id = ?`, [userId]);
    current = await flow.jar.submit(current, { code: wrongFor(secret) });
    expect(current.body).toContain('The code is incorrect');
    expect(await failures()).toEqual([{ address: 'mfa:127.0.0.1', failures: 3 }]);
    await waited();
    current = await flow.jar.submit(current, { code: wrongFor(secret) });
    expect(current.body).toContain('The code is incorrect');
    await waited();
    current = await flow.jar.submit(current, { code: wrongFor(secret) });
    expect(current.body).toContain(TOO_MANY);
    expect(await failures()).toEqual([{ address: 'mfa:127.0.0.1', failures: 5 }]);
    expect(await reasons(userId)).toEqual(['wrong_code', 'wrong_code', 'wrong_code', 'address_waiting', 'wrong_code', 'wrong_code']);
  });
});

describe('required', () => {
  let other: BootstrapResult;
  let admin: HttpClient;
  let configuration: oidc.Configuration;

  beforeAll(async () => {
    ({ other, admin, configuration } = await applicationWith('/policies/mfa', { enforcement: 'required', factors: ['totp', 'email_otp'] }));
  });

  it('a user without a factor enrols TOTP (QR code and URI shown), saves recovery codes, then signs in', async () => {
    const userId = await createPasswordUser(admin, 'enrol@example.com');
    const { flow, page } = await stepPage('enrol@example.com', { configuration });
    expect(page.body).toContain('Set up two-step verification');
    expect(page.body).toMatch(/<svg role="img" aria-label="QR code to scan with an authenticator app"/);
    const uri = /(otpauth:\/\/totp\/[^<\s]+)/.exec(page.body)![1]!.replaceAll('&#38;', '&');
    const secret = new URL(uri).searchParams.get('secret')!;
    expect(new URL(uri).searchParams.get('issuer')).toBeTruthy();
    // A wrong first code shows the same secret again.
    const wrong = await flow.jar.submit(page, { code: '000000' === codeAt(secret) ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain(uri.replaceAll('&', '&#38;'));
    const enrolled = codeAt(secret);
    const codes = await flow.jar.submit(wrong, { code: enrolled });
    expect(codes.status, codes.body.slice(-1500)).toBe(200);
    expect(codes.body).toContain('Save your recovery codes');
    const shown = [...codes.body.matchAll(/<li><code>([a-z0-9-]+)<\/code><\/li>/g)].map((match) => match[1]);
    expect(shown).toHaveLength(10);
    const done = await flow.jar.submit(codes, {});
    expect(await idToken(flow, done, configuration)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'], acr: ACR_MULTI_FACTOR });
    expect(await sessionMethods(userId, admin)).toEqual([['password', 'totp']]);
    // Stored sealed, its codes hashed; audited; the user told.
    const [factor] = await app.sql<{ secret_encrypted: string; last_step: string }>(`select secret_encrypted, last_step from mfa_factor where user_id = ?`, [userId]);
    expect(factor!.secret_encrypted).not.toContain(secret);
    expect(factor!.last_step).not.toBeNull();
    const stored = await app.sql<{ code_hash: string }>(`select code_hash from mfa_recovery_code where user_id = ?`, [userId]);
    expect(stored.map((row) => row.code_hash).sort()).toEqual(shown.map((code) => recoveryCodeHash(code!)).sort());
    expect((await records(userId, 'user.mfa.enrolled')).map((record) => record.after)).toEqual([{ factor: 'totp' }]);
    expect(await lastMail('enrol@example.com', 'mfa_enrolled')).toContain('Authenticator app');
    // The enrolment's code may not serve again: the next sign-in is a challenge, which refuses it.
    const next = await stepPage('enrol@example.com', { configuration });
    expect(next.page.body).toContain('Two-step verification');
    expect((await next.flow.jar.submit(next.page, { code: enrolled })).status).toBe(400);
  });

  it('a user may enrol the e-mail code instead, where the policy offers it', async () => {
    const userId = await createPasswordUser(admin, 'enrol-mail@example.com');
    const { flow, page } = await stepPage('enrol-mail@example.com', { configuration });
    const mailPage = await flow.jar.visit(`${page.url}?method=email_otp`);
    const sent = await flow.jar.submit(mailPage, { action: 'send' });
    const codePage = await flow.jar.visit(sent.location!);
    const code = /\b(\d{6})\b/.exec(await lastMail('enrol-mail@example.com', 'email_otp'))![1]!;
    const codes = await flow.jar.submit(codePage, { code });
    expect(codes.body).toContain('Save your recovery codes');
    await flow.jar.submit(codes, {});
    expect(await app.sql(`select kind from mfa_factor where user_id = ?`, [userId])).toEqual([{ kind: 'email_otp' }]);
  });

  it.skipIf(usingEmbeddedDatabase())('two browsers enrolling at once: the one that enrols second is asked for the factor now held, and adds none', async () => {
    const userId = await createPasswordUser(admin, 'enrol-race@example.com');
    // Whoever knows the password enrols an authenticator app of their own while the owner enrols the e-mail code.
    const stranger = await stepPage('enrol-race@example.com', { configuration });
    const secret = new URL(/(otpauth:\/\/totp\/[^<\s]+)/.exec(stranger.page.body)![1]!.replaceAll('&#38;', '&')).searchParams.get('secret')!;
    const owner = await stepPage('enrol-race@example.com', { configuration });
    const sent = await owner.flow.jar.submit(await owner.flow.jar.visit(`${owner.page.url}?method=email_otp`), { action: 'send' });
    const codePage = await owner.flow.jar.visit(sent.location!);
    const mailed = /\b(\d{6})\b/.exec(await lastMail('enrol-race@example.com', 'email_otp'))![1]!;
    await withTimeLeftInStep(5_000);
    const userRow = { table: 'app_user', applicationId: other.applicationId, id: userId };
    const [first, second] = await queuedBehind(app.gatehouse.services.orm, userRow, { lock: 'update' }, [
      () => owner.flow.jar.submit(codePage, { code: mailed }),
      () => stranger.flow.jar.submit(stranger.page, { code: codeAt(secret) }),
    ]);
    expect(first!.status, first!.body.slice(-1500)).toBe(200);
    expect(first!.body).toContain('Save your recovery codes');
    // The stranger's step is now the owner's factor's challenge: nothing of theirs was added, and the step is not passed.
    expect(second!.status).toBe(409);
    expect(second!.body).not.toContain('Save your recovery codes');
    expect(await app.sql(`select kind from mfa_factor where user_id = ?`, [userId])).toEqual([{ kind: 'email_otp' }]);
    expect((await records(userId, 'user.mfa.enrolled')).map((record) => record.after)).toEqual([{ factor: 'email_otp' }]);
    // Only the owner signed in: the stranger's right code that added nothing is a refusal, not a sign-in.
    expect((await records(userId, 'user.signed_in')).map((record) => record.after['method'])).toEqual(['email_otp']);
    expect((await records(userId, 'user.sign_in_failed')).map((record) => [record.outcome, record.after['method'], record.after['reason']])).toEqual([['failure', 'totp', 'factor_not_added']]);
    const again = await stranger.flow.jar.submit(second!, { code: codeAt(secret) });
    expect(again.status).toBe(400);
  });

  /** The enrolment's page of a new user, on the method `kind`, and its right first answer. */
  async function enrolment(email: string, kind: 'totp' | 'email_otp') {
    const { flow, page } = await stepPage(email, { configuration });
    if (kind === 'totp') {
      const secret = new URL(/(otpauth:\/\/totp\/[^<\s]+)/.exec(page.body)![1]!.replaceAll('&#38;', '&')).searchParams.get('secret')!;
      await withTimeLeftInStep(5_000);
      return { flow, page, code: codeAt(secret) };
    }
    const sent = await flow.jar.submit(await flow.jar.visit(`${page.url}?method=email_otp`), { action: 'send' });
    const codePage = await flow.jar.visit(sent.location!);
    return { flow, page: codePage, code: /\b(\d{6})\b/.exec(await lastMail(email, 'email_otp'))![1]! };
  }

  /** Refused as a suspended user's sign-in (access_denied back at the client), with nothing of the enrolment stored. */
  async function refusedWithNothingStored(flow: Flow, answer: Visit, userId: string, email: string) {
    expect(answer.status, answer.body.slice(-1500)).toBe(303);
    const callback = await flow.jar.followOut(answer, issuer);
    expect(Object.fromEntries(callback.searchParams)).toMatchObject({ error: 'access_denied', state: flow.state });
    expect(await app.sql(`select kind from mfa_factor where user_id = ?`, [userId])).toEqual([]);
    expect(await app.sql(`select 1 from mfa_recovery_code where user_id = ?`, [userId])).toEqual([]);
    expect(await records(userId, 'user.mfa.enrolled')).toEqual([]);
    expect(await app.sql(`select 1 from email_delivery where to_address = ? and template_key in ('mfa_enrolled', 'password_reset')`, [email])).toEqual([]);
    expect(await records(userId, 'user.signed_in')).toEqual([]);
  }

  it.each(['totp', 'email_otp'] as const)('a user suspended once the enrolment’s %s answer is taken (before the factor is added): refused as suspended, nothing stored', async (kind) => {
    const email = `enrol-suspended-${kind}@example.com`;
    const userId = await createPasswordUser(admin, email);
    const { flow, page, code } = await enrolment(email, kind);
    // The step's attempt is counted after the request has read the user (still active) and before the factor is added.
    const answer = await suspendedAtWrite(app, userId, { table: 'oidc_model', when: `new.model = 'StepAttempts'` }, () => flow.jar.submit(page, { code }));
    await refusedWithNothingStored(flow, answer, userId, email);
    // Recorded as a suspended user's sign-in after the first factor is: refused, with the method of the step.
    expect((await records(userId, 'user.sign_in_failed')).map((record) => [record.after['method'], record.after['reason']])).toEqual([[kind, 'user_inactive']]);
  });

  it.skipIf(usingEmbeddedDatabase())('a user suspended while the enrolment waits for their row: the factor is judged under that lock, so nothing is stored', async () => {
    const email = 'enrol-suspended-race@example.com';
    const userId = await createPasswordUser(admin, email);
    const { flow, page, code } = await enrolment(email, 'totp');
    const userRow = { table: 'app_user', applicationId: other.applicationId, id: userId };
    const suspend = (em: EntityManager) => em.execute(`update app_user set status = 'suspended' where application_id = ? and id = ?`, [other.applicationId, userId]);
    const [answer] = await queuedBehind(app.gatehouse.services.orm, userRow, { lock: 'update', beforeCommit: suspend }, [() => flow.jar.submit(page, { code })]);
    await refusedWithNothingStored(flow, answer!, userId, email);
    expect((await records(userId, 'user.sign_in_failed')).map((record) => record.after['reason'])).toEqual(['user_inactive']);
  });

  it('the organization deactivated once the enrolment’s answer is taken: the factor is judged with the organization, so nothing is stored', async () => {
    const email = 'enrol-deactivated@example.com';
    const userId = await createPasswordUser(admin, email);
    const { flow, page, code } = await enrolment(email, 'totp');
    const [{ organization_id: organizationId }] = (await app.sql<{ organization_id: string }>(`select organization_id from application where id = ?`, [other.applicationId])) as [
      { organization_id: string },
    ];
    try {
      const deactivate = `update organization set status = 'deactivated' where id = '${organizationId}'`;
      const answer = await changedAtWrite(app, deactivate, { table: 'oidc_model', when: `new.model = 'StepAttempts'` }, () => flow.jar.submit(page, { code }));
      expect(answer.status, answer.body.slice(-1500)).toBe(303);
      expect(answer.location ?? '').not.toContain(REDIRECT_URI);
    } finally {
      await app.sql(`update organization set status = 'active' where id = ?`, [organizationId]);
    }
    expect(await app.sql(`select kind from mfa_factor where user_id = ?`, [userId])).toEqual([]);
    expect(await app.sql(`select 1 from mfa_recovery_code where user_id = ?`, [userId])).toEqual([]);
    expect(await records(userId, 'user.mfa.enrolled')).toEqual([]);
    expect(await app.sql(`select 1 from email_delivery where to_address = ? and template_key in ('mfa_enrolled', 'password_reset')`, [email])).toEqual([]);
    expect(await records(userId, 'user.signed_in')).toEqual([]);
  });

  it('the password replaced once the enrolment’s answer is taken (a reset by the owner): whoever typed the old one adds nothing', async () => {
    const email = 'enrol-replaced@example.com';
    const userId = await createPasswordUser(admin, email);
    const { flow, page, code } = await enrolment(email, 'totp');
    const replace = `update app_user set password_hash = 'replaced-by-the-owner' where id = '${userId}'`;
    const answer = await changedAtWrite(app, replace, { table: 'oidc_model', when: `new.model = 'StepAttempts'` }, () => flow.jar.submit(page, { code }));
    await refusedWithNothingStored(flow, answer, userId, email);
    expect((await records(userId, 'user.sign_in_failed')).map((record) => [record.after['method'], record.after['reason']])).toEqual([['totp', 'password_replaced']]);
  });

  it('a user suspended between the enrolment shown and its answer posted: refused as suspended, nothing stored', async () => {
    const email = 'enrol-suspended-before@example.com';
    const userId = await createPasswordUser(admin, email);
    const { flow, page, code } = await enrolment(email, 'totp');
    expect((await admin.post(`/users/${userId}/suspend`, {})).status).toBe(200);
    await refusedWithNothingStored(flow, await flow.jar.submit(page, { code }), userId, email);
  });
});

describe('the reset link of an mfa_enrolled mail: “not me” removes the factor it announced', () => {
  const NEW_PASSWORD = 'Battery-Staple-42';
  let other: BootstrapResult;
  let admin: HttpClient;
  let configuration: oidc.Configuration;

  beforeAll(async () => {
    ({ other, admin, configuration } = await applicationWith('/policies/mfa', { enforcement: 'required', factors: ['totp', 'email_otp'] }));
  });

  const secretOf = (page: Visit) => new URL(/(otpauth:\/\/totp\/[^<\s]+)/.exec(page.body)![1]!.replaceAll('&#38;', '&')).searchParams.get('secret')!;
  const shownCodes = (page: Visit) => [...page.body.matchAll(/<li><code>([a-z0-9-]+)<\/code><\/li>/g)].map((match) => match[1]!);
  const resetLinks = async (email: string, template: 'mfa_enrolled' | 'password_reset') =>
    (await mails(admin, email, template)).map((mail) => /(http\S+\/account\/reset-password\?token=\S+)/.exec(mail.text)![1]!);
  const factorsOf = (userId: string) => app.sql<{ id: string; kind: string }>(`select id, kind from mfa_factor where user_id = ? order by kind`, [userId]);
  const unusedCodes = (userId: string) => app.sql<{ code_hash: string }>(`select code_hash from mfa_recovery_code where user_id = ? and used_at is null`, [userId]);
  const removals = (userId: string) => app.sql<{ before: unknown; after: unknown; actor_id: string }>(`select before, after, actor_id from audit_log where target_id = ? and action = 'user.mfa.removed' order by id`, [userId]);

  /** Whoever knows the password signs in as a user without a factor and enrols an authenticator app: the codes they saw. */
  async function intruderEnrols(email: string): Promise<string[]> {
    const { flow, page } = await stepPage(email, { configuration });
    expect(page.body).toContain('Set up two-step verification');
    await withTimeLeftInStep(5_000);
    const codes = await flow.jar.submit(page, { code: codeAt(secretOf(page)) });
    expect(codes.status, codes.body.slice(-1500)).toBe(200);
    expect((await flow.jar.submit(codes, {})).status).toBe(303);
    return shownCodes(codes);
  }

  /** Forgot password on the sign-in page, as anyone may ask it for an address. */
  async function askReset(email: string): Promise<void> {
    const { flow, page } = await signInPage({ configuration });
    const href = /<a href="([^"]+)">Forgot your password\?<\/a>/.exec(page.body)![1]!.replaceAll('&#38;', '&').replaceAll('&amp;', '&');
    const form = await flow.jar.visit(new URL(href, page.url).href);
    expect((await flow.jar.submit(form, { email })).status).toBe(200);
  }

  it('the owner’s new password removes the app and its recovery codes: they then enrol, and the intruder’s codes no longer work; audited', async () => {
    const email = 'not-me@example.com';
    const userId = await createPasswordUser(admin, email);
    const seen = await intruderEnrols(email);
    expect(seen).toHaveLength(10);
    const [link, ...more] = await resetLinks(email, 'mfa_enrolled');
    expect(more).toEqual([]);

    const owner = new CookieJar();
    const form = await owner.visit(link!);
    expect(form.status).toBe(200);
    expect(form.body).toMatch(/<p class="notice">Setting a new password also removes the authenticator app added to your account on [^<]+\d{4}[^<]*\. Your recovery codes stop working too\.<\/p>/);
    // In the page's language.
    const german = await owner.visit(link!, { headers: { 'accept-language': 'de' } });
    expect(german.body).toContain('Mit dem neuen Passwort wird auch die Authenticator-App entfernt');
    // A refused password shows it again; nothing is removed yet.
    const weak = await owner.submit(form, { current: PASSWORD, password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body).toContain('Setting a new password also removes the authenticator app');
    expect(await factorsOf(userId)).toHaveLength(1);

    const done = await owner.submit(form, { current: PASSWORD, password: NEW_PASSWORD });
    expect(done.status, done.body.slice(-1500)).toBe(200);
    expect(done.body).toContain('<h1>Password changed</h1>');
    expect(await factorsOf(userId)).toEqual([]);
    expect(await app.sql(`select 1 from mfa_recovery_code where user_id = ?`, [userId])).toEqual([]);
    expect(await removals(userId)).toEqual([{ actor_id: userId, before: { factor: 'totp', recoveryCodes: 10 }, after: { reason: 'enrolment_disowned' } }]);

    // Signed in with the new password, the owner is asked to enrol (not challenged for the intruder's app).
    const { flow, page } = await stepPage(email, { configuration, password: NEW_PASSWORD });
    expect(page.body).toContain('Set up two-step verification');
    await withTimeLeftInStep(5_000);
    const secret = secretOf(page);
    const theirs = await flow.jar.submit(page, { code: codeAt(secret) });
    expect(shownCodes(theirs)).toHaveLength(10);
    await flow.jar.submit(theirs, {});
    // The intruder's codes are not the owner's: at the next challenge one is refused.
    expect(seen.some((code) => shownCodes(theirs).includes(code))).toBe(false);
    const next = await stepPage(email, { configuration, password: NEW_PASSWORD });
    const recovery = await next.flow.jar.visit(`${next.page.url}?method=recovery_code`);
    expect((await next.flow.jar.submit(recovery, { code: seen[0]! })).status).toBe(400);
  });

  it('the intruder cannot take the link away: a forgot-password link asked after it removes nothing, and the mail’s link still does', async () => {
    const email = 'not-me-asked@example.com';
    const userId = await createPasswordUser(admin, email);
    await intruderEnrols(email);
    await askReset(email);
    const [forgot] = await resetLinks(email, 'password_reset');
    const [announced] = await resetLinks(email, 'mfa_enrolled');
    const plain = await new CookieJar().visit(forgot!);
    expect(plain.status).toBe(200);
    expect(plain.body).not.toContain('also removes');
    const owner = new CookieJar();
    const form = await owner.visit(announced!);
    expect(form.status).toBe(200);
    expect(form.body).toContain('also removes the authenticator app');
    expect((await owner.submit(form, { current: PASSWORD, password: NEW_PASSWORD })).status).toBe(200);
    expect(await factorsOf(userId)).toEqual([]);
    // Used, it ended the forgot-password link with it, as any reset does.
    expect((await new CookieJar().visit(forgot!)).status).toBe(400);
  });

  it('the mailbox alone removes nothing: without the password the account had, the link is refused, and five wrong ones end it', async () => {
    const email = 'not-me-mailbox@example.com';
    const userId = await createPasswordUser(admin, email);
    await intruderEnrols(email);
    const [link] = await resetLinks(email, 'mfa_enrolled');
    // Whoever reads the mailbox may reset the password first: the link still asks for the one it was sent under.
    await askReset(email);
    const [forgot] = await resetLinks(email, 'password_reset');
    const reset = new CookieJar();
    expect((await reset.submit(await reset.visit(forgot!), { password: 'Mailbox-Reader-42' })).status).toBe(200);
    const holder = new CookieJar();
    const form = await holder.visit(link!);
    expect(form.body).toContain('name="current"');
    for (const guess of ['Mailbox-Reader-42', '', 'guess-3', 'guess-4']) {
      const refused = await holder.submit(form, { current: guess, password: NEW_PASSWORD });
      expect(refused.status, guess).toBe(400);
      expect(refused.body).toContain('That is not the password your account had when this email was sent.');
    }
    expect(await factorsOf(userId)).toHaveLength(1);
    expect(await removals(userId)).toEqual([]);
    // The fifth wrong one ends the link: the right one no longer works through it.
    expect((await holder.submit(form, { current: 'guess-5', password: NEW_PASSWORD })).body).not.toContain('name="current"');
    expect((await holder.submit(form, { current: PASSWORD, password: NEW_PASSWORD })).status).toBe(400);
    expect(await factorsOf(userId)).toHaveLength(1);
    expect((await new CookieJar().visit(link!)).body).not.toContain('also removes');
  });

  it('passwords tried at once are no more than the tries left: the right one among them is not told apart once the last was taken', async () => {
    const email = 'not-me-at-once@example.com';
    const userId = await createPasswordUser(admin, email);
    await intruderEnrols(email);
    const [link] = await resetLinks(email, 'mfa_enrolled');
    const form = await new CookieJar().visit(link!);
    await app.sql(`update email_link_token set proof_failures = 4 where user_id = ? and removes_factor_id is not null`, [userId]);
    // One try left: of the three sent at once, one is checked. The right password with a refused new one says only
    // that the new one is refused (the old one was right): it must not have been checked beside a wrong one that ended the link.
    const answers = await Promise.all(['wrong-1', 'wrong-2', PASSWORD].map((current) => new CookieJar().submit(form, { current, password: 'short' })));
    const told = answers.filter((answer) => answer.body.includes('id="password-error"'));
    const [row] = await app.sql<{ used_at: Date | null; proof_failures: number }>(`select used_at, proof_failures from email_link_token where user_id = ? and removes_factor_id is not null`, [userId]);
    expect(told.length === 0 || row!.used_at === null).toBe(true);
    expect(answers.every((answer) => answer.status === 400)).toBe(true);
    expect(row!.proof_failures).toBeLessThanOrEqual(5);
    expect(await factorsOf(userId)).toHaveLength(1);
  });

  it('a forgot-password link removes nothing: the page says nothing of a factor, and the next sign-in is challenged', async () => {
    const email = 'forgot-keeps@example.com';
    const userId = await createPasswordUser(admin, email);
    await giveTotp(userId, other.applicationId);
    await askReset(email);
    const [link] = await resetLinks(email, 'password_reset');
    const jar = new CookieJar();
    const form = await jar.visit(link!);
    expect(form.body).not.toContain('also removes');
    expect((await jar.submit(form, { password: NEW_PASSWORD })).status).toBe(200);
    expect((await factorsOf(userId)).map((factor) => factor.kind)).toEqual(['totp']);
    expect(await removals(userId)).toEqual([]);
    expect((await stepPage(email, { configuration, password: NEW_PASSWORD })).page.body).toContain('Two-step verification');
  });

  it('a link whose factor was removed meanwhile (an mfa-reset) sets the password and removes nothing else: not an app added since', async () => {
    const email = 'not-me-gone@example.com';
    const userId = await createPasswordUser(admin, email);
    await intruderEnrols(email);
    const [link] = await resetLinks(email, 'mfa_enrolled');
    expect((await admin.post(`/users/${userId}/mfa-reset`, {})).status).toBe(200);
    // An app of the same kind, added since: another factor.
    await giveTotp(userId, other.applicationId);
    const jar = new CookieJar();
    const form = await jar.visit(link!);
    expect(form.status).toBe(200);
    expect(form.body).not.toContain('also removes');
    expect((await jar.submit(form, { password: NEW_PASSWORD })).status).toBe(200);
    expect((await factorsOf(userId)).map((factor) => factor.kind)).toEqual(['totp']);
    expect(await removals(userId)).toEqual([]);
    expect((await stepPage(email, { configuration, password: NEW_PASSWORD })).page.body).toContain('Two-step verification');
    expect(await unusedCodes(userId)).toEqual([]);
  });

  it('a link whose factor is gone is a plain reset link: a password set since ends it, as it ends every reset link mailed before', async () => {
    const email = 'not-me-gone-changed@example.com';
    const userId = await createPasswordUser(admin, email);
    await intruderEnrols(email);
    const [link] = await resetLinks(email, 'mfa_enrolled');
    expect((await admin.post(`/users/${userId}/mfa-reset`, {})).status).toBe(200);
    // While the factor stands, a new password keeps the link (it still asks the old one); once it is gone, not.
    expect((await admin.patch(`/users/${userId}`, { password: 'Admin-Chosen-42' })).status).toBe(200);
    const jar = new CookieJar();
    const stale = await jar.visit(link!);
    expect(stale.status).toBe(400);
    expect(stale.body).not.toContain('name="password"');
    const url = new URL(link!);
    const posted = await jar.visit(`${url.origin}${url.pathname}`, { form: { token: url.searchParams.get('token')!, password: NEW_PASSWORD } });
    expect(posted.status).toBe(400);
    expect(await app.sql(`select 1 from audit_log where target_id = ? and action = 'user.password.reset'`, [userId])).toEqual([]);
  });
});

describe('an e-mail sign-in: the mailbox is the first factor, and cannot be the second too', () => {
  let other: BootstrapResult;
  let admin: HttpClient;
  let configuration: oidc.Configuration;

  beforeAll(async () => {
    ({ other, admin, configuration } = await applicationWith('/policies/mfa', { enforcement: 'required', factors: ['totp', 'email_otp'] }));
    expect((await admin.post('/auth-providers', { type: 'magic_link', config: { signInWith: 'code', allowSignup: false } })).status).toBe(201);
  });

  /** The e-mail code typed on the sign-in page, and the step's page it leads to. */
  async function stepAfterMailbox(email: string) {
    const { flow, page } = await signInPage({ configuration });
    const check = await flow.jar.visit(emailFormAction(page, 'email-code'), { form: { csrf: csrfOf(page), email } });
    const answer = await flow.jar.submit(check, { code: await mailedCode(admin, email) });
    expect(answer.status, answer.body.slice(-1500)).toBe(303);
    expect(answer.location).toMatch(new RegExp(`^${issuer}/interaction/[\\w-]+/mfa$`));
    return { flow, page: await flow.jar.visit(answer.location!) };
  }

  const giveMailbox = (userId: string) =>
    app.sql(`insert into mfa_factor (application_id, id, user_id, kind) values (?, ?, ?, 'email_otp')`, [other.applicationId, randomUUID(), userId]);

  it('a user without a factor enrols another kind: the e-mail code is neither offered nor sent', async () => {
    const userId = await createPasswordUser(admin, 'mailbox-new@example.com');
    const { flow, page } = await stepAfterMailbox('mailbox-new@example.com');
    expect(page.body).toContain('Set up two-step verification');
    expect(page.body).not.toContain('method=email_otp');
    const asked = await flow.jar.visit(`${page.url}?method=email_otp`);
    expect(asked.body).toContain('otpauth://totp/');
    await flow.jar.submit(asked, { action: 'send', method: 'email_otp', code: '' });
    expect(await mails(admin, 'mailbox-new@example.com', 'email_otp')).toHaveLength(1);
    const secret = new URL(/(otpauth:\/\/totp\/[^<\s]+)/.exec(asked.body)![1]!.replaceAll('&#38;', '&')).searchParams.get('secret')!;
    const codes = await flow.jar.submit(asked, { code: codeAt(secret) });
    expect(codes.body).toContain('Save your recovery codes');
    const done = await flow.jar.submit(codes, {});
    expect(await idToken(flow, done, configuration)).toMatchObject({ sub: userId, amr: ['otp', 'mfa'], acr: ACR_MULTI_FACTOR });
    expect(await app.sql(`select kind from mfa_factor where user_id = ?`, [userId])).toEqual([{ kind: 'totp' }]);
  });

  it('a user whose only factor is the mailbox has no step to take after it; with the password, the mailed code serves', async () => {
    const userId = await createPasswordUser(admin, 'mailbox-only@example.com');
    await giveMailbox(userId);
    const { page } = await stepAfterMailbox('mailbox-only@example.com');
    expect(page.body).toContain('your only second step is that mailbox too');
    expect(page.body).not.toContain('<form');
    expect(await mails(admin, 'mailbox-only@example.com', 'email_otp')).toHaveLength(1);
    // The step cannot be passed: no sign-in, only its first factor.
    expect(await records(userId, 'user.signed_in')).toEqual([]);
    expect(await records(userId, 'user.first_factor_proven')).toHaveLength(1);

    const withPassword = await stepPage('mailbox-only@example.com', { configuration });
    expect(withPassword.page.body).toContain('Send a code');
  });

  it('under optional, a user whose only factor is the mailbox signs in on the one factor, and amr says so', async () => {
    const optional = await applicationWith('/policies/mfa', { enforcement: 'optional', factors: ['totp', 'email_otp'] });
    expect((await optional.admin.post('/auth-providers', { type: 'magic_link', config: { signInWith: 'code', allowSignup: false } })).status).toBe(201);
    const userId = await createPasswordUser(optional.admin, 'mailbox-optional@example.com');
    await app.sql(`insert into mfa_factor (application_id, id, user_id, kind) values (?, ?, ?, 'email_otp')`, [optional.other.applicationId, randomUUID(), userId]);
    const { flow, page } = await signInPage({ configuration: optional.configuration });
    const check = await flow.jar.visit(emailFormAction(page, 'email-code'), { form: { csrf: csrfOf(page), email: 'mailbox-optional@example.com' } });
    const answer = await flow.jar.submit(check, { code: await mailedCode(optional.admin, 'mailbox-optional@example.com') });
    expect(answer.location ?? '').not.toMatch(/\/mfa$/);
    expect(await idToken(flow, answer, optional.configuration)).toMatchObject({ sub: userId, amr: ['otp'], acr: ACR_SINGLE_FACTOR });
  });

  it('a user with TOTP beside the mailbox is asked for TOTP only', async () => {
    const userId = await createPasswordUser(admin, 'mailbox-totp@example.com');
    await giveMailbox(userId);
    const secret = await giveTotp(userId, other.applicationId);
    const { flow, page } = await stepAfterMailbox('mailbox-totp@example.com');
    expect(page.body).toContain('name="code"');
    expect(page.body).not.toContain('method=email_otp');
    const done = await flow.jar.submit(page, { code: codeAt(secret) });
    expect(await idToken(flow, done, configuration)).toMatchObject({ sub: userId, amr: ['otp', 'mfa'], acr: ACR_MULTI_FACTOR });
    expect((await records(userId, 'user.first_factor_proven')).map((record) => record.after['method'])).toEqual(['email_code']);
    expect((await records(userId, 'user.signed_in')).map((record) => record.after['method'])).toEqual(['totp']);
  });
});

describe('an isolated tenant’s policy', () => {
  it('applies to its own users only', async () => {
    const { application: other, admin, north, south } = await isolatedNorthSouth(app);
    const northPolicy = await admin.put(`/applications/${other.applicationId}/tenants/${north}/policies/mfa`, { enforcement: 'required', factors: ['totp'] });
    expect(northPolicy.status, JSON.stringify(northPolicy.body)).toBe(200);
    await createPasswordUser(admin, 'erin@example.com', `/applications/${other.applicationId}/tenants/${north}/users`);
    await createPasswordUser(admin, 'erin@example.com', `/applications/${other.applicationId}/tenants/${south}/users`);
    const configuration = await webClient(other.applicationId);
    const northStep = await stepPage('erin@example.com', { configuration, parameters: { tenant: 'north' } });
    expect(northStep.page.body).toContain('Set up two-step verification');
    // The enrolment offers the tenant's factors only: no e-mail code.
    expect(northStep.page.body).not.toContain('Get a code by email');
    const south_ = await signIn('erin@example.com', { configuration, parameters: { tenant: 'south' } });
    expect(south_.answer.location).not.toContain('/mfa');
    expect(await idToken(south_.flow, south_.answer, configuration)).toMatchObject({ amr: ['pwd'], tenant_id: south });
  });
});

describe('an expired password (the password policy’s maxAge)', () => {
  const NEW_PASSWORD = 'Battery-Staple-42';
  let other: BootstrapResult;
  let admin: HttpClient;
  let configuration: oidc.Configuration;

  beforeAll(async () => {
    ({ other, admin, configuration } = await applicationWith('/policies/password', { maxAge: 1 }));
  });

  const expire = (userId: string) => app.sql(`update app_user set password_changed_at = now() - interval '3 days' where id = ?`, [userId]);
  const passwordHash = async (userId: string) => (await app.sql<{ password_hash: string }>('select password_hash from app_user where id = ?', [userId]))[0]!.password_hash;

  /** Whether the browser's session still signs in to the client with no form (a password change ends the others). */
  async function sessionSignsIn(jar: CookieJar) {
    const url = oidc.buildAuthorizationUrl(configuration, { redirect_uri: REDIRECT_URI, scope: 'openid', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' });
    let visit = await jar.visit(url.href);
    for (let hops = 0; hops < 10 && visit.location?.startsWith(`${issuer}/`) === true; hops += 1) visit = await jar.visit(visit.location);
    return visit.location?.startsWith(`${REDIRECT_URI}?code=`) === true;
  }

  /** The owner of a TOTP factor, signed in with both factors in their own browser before the password expires. */
  async function ownerWithTotp(email: string) {
    const userId = await createPasswordUser(admin, email);
    const secret = await giveTotp(userId, other.applicationId);
    const owner = await stepPage(email, { configuration });
    await owner.flow.jar.followOut(await owner.flow.jar.submit(owner.page, { code: codeAt(secret) }), issuer);
    expect(await sessionSignsIn(owner.flow.jar)).toBe(true);
    await expire(userId);
    return { userId, secret, ownerJar: owner.flow.jar };
  }

  it('the password alone cannot change it for a user with TOTP: the step comes first, and nothing is written', async () => {
    const { userId, ownerJar } = await ownerWithTotp('expired-totp@example.com');
    const before = await passwordHash(userId);
    const { flow, page } = await stepPage('expired-totp@example.com', { configuration });
    expect(page.body).toContain('Two-step verification');
    // The change's form is not reachable, nor its POST, without the step.
    const uid = new URL(page.url).pathname.split('/')[2]!;
    const changeUrl = `${issuer}/interaction/${uid}/password`;
    expect((await flow.jar.visit(changeUrl)).location).toMatch(new RegExp(`/interaction/${uid}$`));
    const { csrf } = readForm(page.url, page.body).fields;
    const posted = await flow.jar.visit(changeUrl, { form: { csrf: csrf!, password: NEW_PASSWORD } });
    expect(posted.status).toBe(403);
    expect(posted.body).toContain('This form has expired.');
    expect(await passwordHash(userId)).toBe(before);
    expect(await sessionSignsIn(ownerJar)).toBe(true);
    expect(await records(userId, 'user.password.changed')).toEqual([]);
  });

  it('with the TOTP code, the user changes it and signs in with both factors; their other sessions end', async () => {
    const { userId, secret, ownerJar } = await ownerWithTotp('expired-totp-owner@example.com');
    const { flow, page } = await stepPage('expired-totp-owner@example.com', { configuration });
    // The next step's code: the owner's own sign-in used this one.
    const passed = await flow.jar.submit(page, { code: codeAt(secret, Date.now() + STEP_MS) });
    expect(passed.location).toMatch(new RegExp(`^${issuer}/interaction/[\\w-]+/password$`));
    const form = await flow.jar.visit(passed.location!);
    expect(form.body).toContain('The password of expired-totp-owner@example.com has expired.');
    const done = await flow.jar.submit(form, { password: NEW_PASSWORD });
    expect(await idToken(flow, done, configuration)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'], acr: ACR_MULTI_FACTOR });
    expect((await records(userId, 'user.password.changed')).map((record) => record.after)).toEqual([expect.objectContaining({ reason: 'expired' })]);
    expect(await sessionSignsIn(ownerJar)).toBe(false);
    expect(await sessionMethods(userId, admin)).toEqual([['password', 'totp']]);
    // Signed in with the new password elsewhere, no change is asked, only the step.
    expect((await signIn('expired-totp-owner@example.com', { configuration, password: NEW_PASSWORD })).answer.location).toMatch(/\/mfa$/);
  });

  it('the change’s cookie: under the interaction’s path for its 10 minutes, cleared once the password is changed', async () => {
    const userId = await createPasswordUser(admin, 'expired-cookie@example.com');
    await expire(userId);
    const { jar, lines } = recordingJar();
    const { answer } = await signIn('expired-cookie@example.com', { configuration, jar });
    expect(answer.location).toMatch(new RegExp(`^${issuer}/interaction/[\\w-]+/password$`));
    const uid = new URL(answer.location!).pathname.split('/')[2]!;
    const form = await jar.visit(answer.location!);
    await jar.submit(form, { password: 'Battery-Staple-Cookie-7' });
    expect(cookieLinesOf(lines, 'gh_expired=')).toEqual([
      `gh_expired=<value>; Path=/interaction/${uid}; Max-Age=600; HttpOnly; SameSite=Lax`,
      `gh_expired=; Path=/interaction/${uid}; Max-Age=0; HttpOnly; SameSite=Lax`,
    ]);
  });

  it('the new password sent twice (a double submit), after the first is answered or before: changed once, and the sign-in completes', async () => {
    const twice = (jar: CookieJar, form: Visit) => [() => jar.submit(form, { password: NEW_PASSWORD }), () => jar.submit(form, { password: NEW_PASSWORD })];
    const oneAfterTheOther = async ([first, second]: (() => Promise<Visit>)[]) => [await first!(), await second!()];
    const atOnce = (sends: (() => Promise<Visit>)[]) => Promise.all(sends.map((send) => send()));
    for (const [email, send] of [['expired-twice@example.com', oneAfterTheOther], ['expired-at-once@example.com', atOnce]] as const) {
      const userId = await createPasswordUser(admin, email);
      await expire(userId);
      const { flow, answer } = await signIn(email, { configuration });
      const [first, second] = await send(twice(flow.jar, await flow.jar.visit(answer.location!)));
      expect([first!.status, second!.status], email).toEqual([303, 303]);
      expect(second!.location, email).toBe(first!.location);
      expect(await records(userId, 'user.password.changed'), email).toHaveLength(1);
      expect(await idToken(flow, second!, configuration), email).toMatchObject({ sub: userId, amr: ['pwd'] });
    }
  });

  it('a user suspended, or suspended and activated again, before the new password is posted: the client hears access_denied, and nothing is written', async () => {
    const suspend = async (userId: string) => expect((await admin.post(`/users/${userId}/suspend`, {})).status).toBe(200);
    // Active again, the user's proof of the expired password is still void: their sign-ins were ended since.
    const suspendAndActivate = async (userId: string) => {
      await suspend(userId);
      expect((await admin.post(`/users/${userId}/activate`, {})).body.status).toBe('active');
    };
    for (const [email, change] of [['expired-suspended@example.com', suspend], ['expired-paused@example.com', suspendAndActivate]] as const) {
      const userId = await createPasswordUser(admin, email);
      await expire(userId);
      const before = await passwordHash(userId);
      const { flow, answer } = await signIn(email, { configuration });
      const form = await flow.jar.visit(answer.location!);
      await change(userId);
      const refused = await flow.jar.submit(form, { password: NEW_PASSWORD });
      expect(refused.status, email).toBe(303);
      const callback = await flow.jar.followOut(refused, issuer);
      expect(Object.fromEntries(callback.searchParams), email).toMatchObject({ error: 'access_denied', state: flow.state });
      expect(await passwordHash(userId), email).toBe(before);
    }
  });

  it('the owner resets it before the new password is posted: whoever typed the old one sets none, and the client hears access_denied', async () => {
    const userId = await createPasswordUser(admin, 'expired-reset@example.com');
    await expire(userId);
    const { flow, answer } = await signIn('expired-reset@example.com', { configuration });
    const form = await flow.jar.visit(answer.location!);
    // The owner, locking out a thief of the old password, sets a new one (an administrator here, as a reset link does).
    expect((await admin.patch(`/users/${userId}`, { password: 'Owners-Own-Choice-8' })).status).toBe(200);
    const owners = await passwordHash(userId);
    const refused = await flow.jar.submit(form, { password: NEW_PASSWORD });
    expect(refused.status).toBe(303);
    const callback = await flow.jar.followOut(refused, issuer);
    expect(Object.fromEntries(callback.searchParams)).toMatchObject({ error: 'access_denied', state: flow.state });
    expect(await passwordHash(userId)).toBe(owners);
  });

  it('a user without a factor changes it right after the password, as before', async () => {
    const userId = await createPasswordUser(admin, 'expired-plain@example.com');
    await expire(userId);
    const { flow, answer } = await signIn('expired-plain@example.com', { configuration });
    expect(answer.location).toMatch(new RegExp(`^${issuer}/interaction/[\\w-]+/password$`));
    const done = await flow.jar.submit(await flow.jar.visit(answer.location!), { password: NEW_PASSWORD });
    expect(await idToken(flow, done, configuration)).toMatchObject({ sub: userId, amr: ['pwd'], acr: ACR_SINGLE_FACTOR });
  });

  it('a remembered browser skips the step, not the change', async () => {
    const { userId, ownerJar } = await ownerWithTotp('expired-remembered@example.com');
    // The browser still holds its session: the change keeps it, as the interaction resumes into it.
    const { flow, answer } = await signIn('expired-remembered@example.com', { configuration, parameters: { prompt: 'login' }, jar: ownerJar });
    expect(answer.location).toMatch(/\/password$/);
    const done = await flow.jar.submit(await flow.jar.visit(answer.location!), { password: NEW_PASSWORD });
    expect(await idToken(flow, done, configuration)).toMatchObject({ sub: userId, amr: ['pwd'] });
  });

  it('under `required`, a user without a factor enrols first, then changes it', async () => {
    expect((await admin.put('/policies/mfa', { enforcement: 'required', factors: ['totp'] })).status).toBe(200);
    try {
      const userId = await createPasswordUser(admin, 'expired-enrol@example.com');
      await expire(userId);
      const before = await passwordHash(userId);
      const { flow, page } = await stepPage('expired-enrol@example.com', { configuration });
      const secret = new URL(/(otpauth:\/\/totp\/[^<\s]+)/.exec(page.body)![1]!.replaceAll('&#38;', '&')).searchParams.get('secret')!;
      const codes = await flow.jar.submit(page, { code: codeAt(secret) });
      expect(codes.body).toContain('Save your recovery codes');
      expect(await passwordHash(userId)).toBe(before);
      const passed = await flow.jar.submit(codes, {});
      expect(passed.location).toMatch(/\/password$/);
      const done = await flow.jar.submit(await flow.jar.visit(passed.location!), { password: NEW_PASSWORD });
      expect(await idToken(flow, done, configuration)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'] });
    } finally {
      expect((await admin.put('/policies/mfa', { enforcement: 'optional', factors: ['totp', 'email_otp'] })).status).toBe(200);
    }
  });
});

describe('a user of two tenants split into copies (authIsolation switched to isolated)', () => {
  /** A user of North and South with an authenticator app, and `beforeSplit` done, before the switch splits them. */
  async function splitUser(email: string, beforeSplit: (applicationId: string, userId: string) => Promise<unknown> = async () => undefined) {
    const other = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: other.apiKey });
    const north = await app.createTenant('North', other);
    const south = await app.createTenant('South', other);
    const userId = await createPasswordUser(admin, email, `/applications/${other.applicationId}/tenants/${north}/users`);
    expect((await admin.patch(`/users/${userId}`, { tenantIds: [north, south] })).status).toBe(200);
    const secret = await giveTotp(userId, other.applicationId);
    await beforeSplit(other.applicationId, userId);
    expect((await admin.patch(`/applications/${other.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    return { applicationId: other.applicationId, north, south, userId, secret, configuration: await webClient(other.applicationId) };
  }

  it('keeps the second step in the tenant where the copy is: the password alone is not enough there either', async () => {
    const { north, south, secret, configuration } = await splitUser('split@example.com');
    for (const [tenant, tenantId] of [['north', north], ['south', south]] as const) {
      const { flow, page } = await stepPage('split@example.com', { configuration, parameters: { tenant } });
      const done = await flow.jar.submit(page, { code: codeAt(secret, Date.now() + (tenant === 'south' ? 30_000 : 0)) });
      expect(await idToken(flow, done, configuration), tenant).toMatchObject({ amr: ['pwd', 'otp', 'mfa'], tenant_id: tenantId });
    }
  });

  it('spends a copied secret in every copy: a TOTP step or a recovery code accepted in one tenant is refused in the other', async () => {
    const { applicationId, north, south, userId, secret, configuration } = await splitUser('spent@example.com', (applicationId, userId) =>
      app.sql(`insert into mfa_recovery_code (application_id, user_id, code_hash) values (?, ?, ?), (?, ?, ?)`, [
        ...[applicationId, userId, recoveryCodeHash('bcdef-ghjkm')],
        ...[applicationId, userId, recoveryCodeHash('cdefg-hjkmn')],
      ]),
    );
    const step = (tenant: string) => stepPage('spent@example.com', { configuration, parameters: { tenant } });
    const recoveryStep = async (tenant: string) => {
      const { flow, page } = await step(tenant);
      return { flow, page: await flow.jar.visit(`${page.url}?method=recovery_code`) };
    };

    await withTimeLeftInStep(10_000);
    const code = codeAt(secret);
    const northTotp = await step('north');
    expect(await idToken(northTotp.flow, await northTotp.flow.jar.submit(northTotp.page, { code }), configuration)).toMatchObject({ tenant_id: north });
    const southTotp = await step('south');
    expect((await southTotp.flow.jar.submit(southTotp.page, { code })).status).toBe(400);

    const southRecovery = await recoveryStep('south');
    expect(await idToken(southRecovery.flow, await southRecovery.flow.jar.submit(southRecovery.page, { code: 'bcdef-ghjkm' }), configuration)).toMatchObject({
      tenant_id: south,
    });
    const northRecovery = await recoveryStep('north');
    expect((await northRecovery.flow.jar.submit(northRecovery.page, { code: 'bcdef-ghjkm' })).status).toBe(400);
    // The other code stays good in both: only what was spent is.
    expect(await idToken(northRecovery.flow, await northRecovery.flow.jar.submit(northRecovery.page, { code: 'cdefg-hjkmn' }), configuration)).toMatchObject({
      tenant_id: north,
    });
    const copy = await app.sql<{ id: string }>(`select id from app_user where application_id = ? and email = ? and id <> ?`, [applicationId, 'spent@example.com', userId]);
    const failures = await app.sql<{ reason: string }>(`select after->>'reason' as reason from audit_log where action = 'user.sign_in_failed' and target_id in (?, ?) order by id`, [
      userId,
      copy[0]!.id,
    ]);
    expect(failures.map((failure) => failure.reason)).toEqual(['code_replayed', 'wrong_code']);
  });
});
