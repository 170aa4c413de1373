import type { EntityManager } from '@mikro-orm/postgresql';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { recoveryCodeHash } from '../../src/domain/mfa/codes.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar, readForm, type Visit } from '../support/cookie-jar.ts';
import { usingEmbeddedDatabase } from '../support/database.ts';
import { addDomain } from '../support/domains.ts';
import { fetchVia } from '../support/host-fetch.ts';
import { HttpClient } from '../support/http.ts';
import { authorizationRequest, createTestClient, decodeJwt, discover } from '../support/oauth.ts';
import { totpCodeAt as codeAt, giveTotp as giveTotpTo } from '../support/totp.ts';
import { mailedCode, mails, normalized } from '../support/email-sign-in.ts';
import { queuedBehind } from '../support/row-lock.ts';
import { suspendedAtWrite } from '../support/suspend-trigger.ts';
import { giveKey as giveKeyTo, SoftAuthenticator, webauthnFormOf } from '../support/webauthn.ts';
import { createPasswordUser, PASSWORD } from '../support/users.ts';
import { expectReadByTenantsOnly } from '../support/audit-readers.ts';

/**
 * Passkeys and WebAuthn (src/domain/webauthn/), driven in Node with a software authenticator: the `passkey` provider's
 * fields, sign-in with a passkey and no password (two factors when it verified its user), the refusals (another
 * origin or RP ID, a replayed answer, a counter that went back, a credential of another application or of another
 * user, a disabled provider), WebAuthn as the MFA step's second factor and its enrolment, the account page's keys, and
 * mfa-reset; on a tenant's path and on its custom domain (its own relying party), where a key of another host still
 * counts as the user's second factor though it cannot be used there.
 */
const REDIRECT_URI = 'https://app.example/callback';

let app: TestApp;
let issuer: string;
let rpId: string;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  rpId = new URL(issuer).hostname;
});
afterAll(async () => app?.close());


interface Scope {
  readonly application: BootstrapResult;
  readonly admin: HttpClient;
  readonly configuration: oidc.Configuration;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly providerId: string;
}

/** An application with the password and a passkey provider (`config`), and a web client. */
async function passkeyScope(config: Record<string, unknown> = {}): Promise<Scope> {
  const application = await app.bootstrapAnother();
  const admin = new HttpClient(app.baseUrl, { apiKey: application.apiKey });
  const created = await admin.post('/auth-providers', { type: 'passkey', config });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const client = await createTestClient(app, { type: 'web', applicationId: application.applicationId, redirectUris: [REDIRECT_URI] });
  const configuration = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  return { application, admin, configuration, clientId: client.clientId, clientSecret: client.clientSecret ?? '', providerId: created.body.id as string };
}

/** A shared user of tenants one and two of a new passkey scope; tenant three is not theirs. */
async function sharedUserOfTwo(label: string, email: string) {
  const scope = await passkeyScope();
  const { applicationId } = scope.application;
  const [one, two, three] = [await app.createTenant(`${label} One`, scope.application), await app.createTenant(`${label} Two`, scope.application), await app.createTenant(`${label} Three`, scope.application)];
  const userId = await createPasswordUser(scope.admin, email, `/applications/${applicationId}/tenants/${one}/users`);
  expect((await scope.admin.patch(`/users/${userId}`, { tenantIds: [one, two] })).status).toBe(200);
  return { scope, applicationId, one, two, three, userId };
}

/** A credential given to the user directly (as a registration stores it), for the relying party `rp`. */
const giveKey = (scope: Scope, userId: string, authenticator = new SoftAuthenticator(), rp = rpId) => giveKeyTo(app, scope.application.applicationId, userId, rp, authenticator);

/** A TOTP factor given to the user directly (as an enrolment stores it), and its secret. */
const giveTotp = (scope: Scope, userId: string) => giveTotpTo(app, scope.application.applicationId, userId);

const giveRecoveryCode = (scope: Scope, userId: string, code: string) =>
  app.sql(`insert into mfa_recovery_code (application_id, user_id, code_hash) values (?, ?, ?)`, [scope.application.applicationId, userId, recoveryCodeHash(code)]);

interface Flow {
  readonly jar: CookieJar;
  readonly verifier: string;
  readonly state: string;
}

/** Where the scope's surface serves its pages: its issuer's origin (the service's, or a custom domain's). */
const originOf = (scope: Scope) => new URL(scope.configuration.serverMetadata().issuer).origin;

/** An authorization request of the scope's client: its login page. */
async function loginPage(scope: Scope, jar = new CookieJar(), parameters: Record<string, string> = {}): Promise<{ flow: Flow; page: Visit }> {
  const { url, verifier, state } = await authorizationRequest(scope.configuration, { redirectUri: REDIRECT_URI, resource: '' }, parameters);
  const start = await jar.visit(url.href);
  expect(start.location).toMatch(new RegExp(`^${originOf(scope)}(/t/[\\w-]+)?/interaction/`));
  return { flow: { jar, verifier, state }, page: await jar.visit(start.location!) };
}

/** Posts a WebAuthn form of `page` with the authenticator's answer (as the page's script does). */
function answer(jar: CookieJar, page: Visit, credential: string, values: Record<string, string> = {}): Promise<Visit> {
  const { form } = webauthnFormOf(page);
  return jar.visit(form.action, { form: { ...form.fields, ...values, credential } });
}

async function idToken(scope: Scope, flow: Flow, done: Visit) {
  const callback = await flow.jar.followOut(done, originOf(scope));
  const tokens = await oidc.authorizationCodeGrant(scope.configuration, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  return decodeJwt(tokens.id_token!).payload;
}

/** What the user's sessions say they were signed in with, oldest first. */
const sessionMethods = async (scope: Scope, userId: string) =>
  ((await scope.admin.get(`/users/${userId}/sessions`)).body.data as { methods: string[] }[]).map((session) => session.methods);

const signInRecords = (applicationId: string, action: string) =>
  app.sql<{ after: Record<string, unknown>; target_id: string | null }>(`select after, target_id from audit_log where application_id = ? and action = ? order by id`, [applicationId, action]);

describe('the passkey provider', () => {
  it('is served with the fields it applies; a malformed allowSignup and an rpId (the surface decides it) are refused; webauthn is an MFA factor', async () => {
    const application = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: application.apiKey });
    const refusedSignup = await admin.post('/auth-providers', { type: 'passkey', config: { allowSignup: 'yes' } });
    expect(refusedSignup.status).toBe(422);
    expect(refusedSignup.body).toMatchObject({ code: 'validation_error', field: 'config.allowSignup' });
    const refusedRp = await admin.post('/auth-providers', { type: 'passkey', config: { rpId: 'login.example.com' } });
    expect(refusedRp.status).toBe(422);
    expect(refusedRp.body).toMatchObject({ code: 'validation_error' });
    // Nothing stored: the application has the password provider it started with, only.
    expect((await admin.get('/auth-providers')).body.data.map((provider: { type: string }) => provider.type)).toEqual(['password']);
    const created = await admin.post('/auth-providers', { type: 'passkey', config: { rpName: 'Acme' } });
    expect(created.status).toBe(201);
    expect(created.body.config).toEqual({ rpName: 'Acme', userVerification: 'required', allowSignup: false });
    expect((await admin.patch(`/auth-providers/${created.body.id}`, { config: { userVerification: 'maybe' } })).status).toBe(422);
    const policy = await admin.put('/policies/mfa', { enforcement: 'required', factors: ['webauthn'] });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
  });
});

describe('sign-up with a passkey', () => {
  /** The scope's passkey sign-up, from the login page's link to the page that makes the passkey (`email`'s code typed). */
  async function signUpToKey(scope: Scope, email: string) {
    const { flow, page } = await loginPage(scope);
    const link = /href="([^"]*\/passkey-signup)"/.exec(page.body)?.[1];
    expect(link, page.body).toBeDefined();
    const form = await flow.jar.visit(new URL(link!, page.url).href);
    expect(form.status).toBe(200);
    expect(form.body).toContain('Create an account with a passkey');
    const check = await flow.jar.submit(form, { email });
    expect(check.status).toBe(200);
    expect(check.body).toContain(`If ${email} can sign up for`);
    return { flow, check };
  }

  it('proves the address by a mailed code, then the passkey made creates the account (verified, no password) and signs it in: amr hwk user mfa', async () => {
    const scope = await passkeyScope({ allowSignup: true });
    const { flow, check } = await signUpToKey(scope, 'New.Comer@example.com');
    const code = await mailedCode(scope.admin, 'New.Comer@example.com');
    const [row] = await app.sql<{ id: string; code_hash: string; user_id: string | null }>(`select id, code_hash, user_id from email_sign_in where method = 'passkey_signup' and email = ?`, ['New.Comer@example.com']);
    expect(row!.code_hash).not.toContain(code);
    expect(row!.user_id).toBeNull();

    const wrong = await flow.jar.submit(check, { code: String((Number(code) + 1) % 1_000_000).padStart(6, '0') });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('The code is incorrect or has expired.');
    const create = await flow.jar.submit(wrong, { code });
    expect(create.status, create.body).toBe(200);
    expect(create.body).toContain('New.Comer@example.com is confirmed.');
    const { ceremony, options } = webauthnFormOf(create);
    expect(ceremony).toBe('create');
    // The user handle is the new account's id, which exists once the passkey is proven.
    const userId = row!.id;
    expect(options).toMatchObject({ rp: { id: rpId }, user: { id: Buffer.from(userId.replaceAll('-', ''), 'hex').toString('base64url'), name: 'New.Comer@example.com' } });
    expect(options['authenticatorSelection']).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(await app.sql('select 1 from app_user where id = ?', [userId])).toEqual([]);

    const key = new SoftAuthenticator();
    const done = await answer(flow.jar, create, key.register(options as never, issuer));
    expect(done.status, done.body.slice(-1500)).toBe(303);
    expect(await idToken(scope, flow, done)).toMatchObject({ sub: userId, amr: ['hwk', 'user', 'mfa'] });
    expect((await scope.admin.get(`/users/${userId}`)).body).toMatchObject({ email: 'New.Comer@example.com', emailVerified: true, tenantIds: [] });
    expect(await app.sql('select password_hash from app_user where id = ?', [userId])).toEqual([{ password_hash: null }]);
    expect(await app.sql('select name, rp_id from webauthn_credential where user_id = ?', [userId])).toEqual([{ name: 'Passkey', rp_id: rpId }]);
    const [signup] = await app.sql<{ after: Record<string, unknown> }>(`select after from audit_log where target_id = ? and action = 'user.signed_up'`, [userId]);
    expect(signup?.after).toMatchObject({ email: 'New.Comer@example.com', hasPassword: false, method: 'passkey', via: scope.clientId });
    expect(await app.sql(`select 1 from audit_log where target_id = ? and action = 'user.passkey.added'`, [userId])).toHaveLength(1);
    const [signedIn] = await signInRecords(scope.application.applicationId, 'user.signed_in');
    expect(signedIn?.after).toMatchObject({ method: 'passkey', amr: ['hwk', 'user', 'mfa'] });
    expect(await sessionMethods(scope, userId)).toEqual([['passkey']]);

    // The form posted again makes nothing: the interaction is over, and the sign-up used.
    const again = await answer(flow.jar, create, key.register(options as never, issuer));
    expect(again.status).toBe(400);
    expect(again.body).toContain('You are already signed in');
    expect(await app.sql('select 1 from webauthn_credential where user_id = ?', [userId])).toHaveLength(1);
    // The passkey signs its owner in from then on.
    const next = await loginPage(scope);
    const signIn = await answer(next.flow.jar, next.page, key.assert(webauthnFormOf(next.page).options, issuer));
    expect(await idToken(scope, next.flow, signIn)).toMatchObject({ sub: userId });
  });

  it('an address with an account gets the same pages and its owner a mail instead of a code; no code then works and nothing is made', async () => {
    const scope = await passkeyScope({ allowSignup: true });
    const owner = await createPasswordUser(scope.admin, 'taken@example.com');
    const { flow, check } = await signUpToKey(scope, 'taken@example.com');
    const fresh = await signUpToKey(scope, 'free@example.com');
    expect(normalized(check, 'taken@example.com')).toBe(normalized(fresh.check, 'free@example.com'));
    expect(await mails(scope.admin, 'taken@example.com', 'email_otp')).toEqual([]);
    expect(await mails(scope.admin, 'taken@example.com', 'welcome')).toHaveLength(1);
    expect(await app.sql(`select 1 from email_sign_in where email = 'taken@example.com'`)).toEqual([]);
    // The code mailed to another interaction's address proves nothing here.
    const refused = await flow.jar.submit(check, { code: await mailedCode(scope.admin, 'free@example.com') });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('The code is incorrect or has expired.');
    expect((await scope.admin.get('/users')).body.data.map((user: { id: string }) => user.id)).toEqual([owner]);
  });

  it('a suspended account’s address gets the same pages and its owner no mail at all', async () => {
    const scope = await passkeyScope({ allowSignup: true });
    const owner = await createPasswordUser(scope.admin, 'suspended@example.com');
    expect((await scope.admin.post(`/users/${owner}/suspend`, {})).status).toBe(200);
    const { check } = await signUpToKey(scope, 'suspended@example.com');
    const fresh = await signUpToKey(scope, 'unheld@example.com');
    expect(normalized(check, 'suspended@example.com')).toBe(normalized(fresh.check, 'unheld@example.com'));
    expect((await scope.admin.get('/email/deliveries?to=suspended%40example.com')).body.data).toEqual([]);
    expect((await scope.admin.get('/users')).body.data.map((user: { id: string }) => user.id)).toEqual([owner]);
  });

  it('an address given an account between its code and its passkey ends as one that had it first: its owner mailed, the password sign-up’s answer, nothing made', async () => {
    const scope = await passkeyScope({ allowSignup: true });
    const { applicationId } = scope.application;
    const raced = await signUpToKey(scope, 'raced@example.com');
    const create = await raced.flow.jar.submit(raced.check, { code: await mailedCode(scope.admin, 'raced@example.com') });
    expect(create.status).toBe(200);
    const owner = await createPasswordUser(scope.admin, 'raced@example.com');
    const welcomed = (await mails(scope.admin, 'raced@example.com', 'welcome')).length;
    const key = new SoftAuthenticator();
    const late = await answer(raced.flow.jar, create, key.register(webauthnFormOf(create).options as never, issuer));
    // As the password sign-up answers an address, taken or not: the mail tells its owner which.
    expect(late.status, late.body.slice(-1500)).toBe(200);
    expect(late.body).toContain('We sent a link to raced@example.com.');
    const [welcome, ...more] = (await mails(scope.admin, 'raced@example.com', 'welcome')).slice(welcomed);
    expect(more).toEqual([]);
    expect(welcome?.subject).toMatch(/^You already have a .* account$/);
    expect(await mails(scope.admin, 'raced@example.com', 'email_otp')).toHaveLength(1);
    expect((await scope.admin.get('/users')).body.data.map((user: { id: string }) => user.id)).toEqual([owner]);
    expect(await app.sql('select 1 from webauthn_credential where application_id = ?', [applicationId])).toEqual([]);
    expect(await signInRecords(applicationId, 'user.sign_in_failed')).toEqual([]);
    // The sign-up is over: its key form sent again makes nothing either.
    const again = await answer(raced.flow.jar, create, key.register(webauthnFormOf(create).options as never, issuer));
    expect(again.status).toBe(400);
    expect(again.body).toContain('That sign-up has expired or is finished.');
    expect(await app.sql('select 1 from webauthn_credential where application_id = ?', [applicationId])).toEqual([]);
  });

  it('refuses a passkey of another origin (the page again, the address still proven), a key form before the code, and a code tried five times wrong', async () => {
    const scope = await passkeyScope({ allowSignup: true });
    const early = await signUpToKey(scope, 'early@example.com');
    const csrf = /name="csrf" value="([^"]+)"/.exec(early.check.body)![1]!;
    const keyAction = new URL(early.check.url.replace(/\/passkey-signup$/, '/passkey-signup/key')).href;
    const premature = await early.flow.jar.visit(keyAction, { form: { csrf, credential: new SoftAuthenticator().register({ challenge: 'x', rp: { id: rpId }, user: { id: 'AA' } }, issuer) } });
    expect(premature.status).toBe(400);
    expect(premature.body).toContain('That sign-up has expired or is finished.');

    const { flow, check } = await signUpToKey(scope, 'other@example.com');
    const create = await flow.jar.submit(check, { code: await mailedCode(scope.admin, 'other@example.com') });
    const key = new SoftAuthenticator();
    const foreign = await answer(flow.jar, create, key.register(webauthnFormOf(create).options as never, 'https://evil.example'));
    expect(foreign.status).toBe(400);
    expect(foreign.body).toContain('The passkey was not made: your browser did not finish. Try again.');
    const cancelled = await answer(flow.jar, foreign, 'cancelled');
    expect(cancelled.status).toBe(400);
    expect((await scope.admin.get('/users')).body.data).toEqual([]);
    const done = await answer(flow.jar, cancelled, key.register(webauthnFormOf(cancelled).options as never, issuer));
    expect(done.status, done.body.slice(-1500)).toBe(303);
    expect((await scope.admin.get('/users')).body.data).toHaveLength(1);
    const reasons = (await signInRecords(scope.application.applicationId, 'user.sign_in_failed')).map((record) => record.after['reason']);
    expect(reasons).toEqual(['invalid_passkey', 'invalid_passkey']);

    // A sign-up's code is no sign-in code: the e-mail methods' form takes none, even where they open sign-up.
    expect((await scope.admin.post('/auth-providers', { type: 'magic_link', config: { signInWith: 'code', allowSignup: true } })).status).toBe(201);
    const crossed = await signUpToKey(scope, 'crossed@example.com');
    const crossedCsrf = /name="csrf" value="([^"]+)"/.exec(crossed.check.body)![1]!;
    const codeAction = crossed.check.url.replace(/\/passkey-signup$/, '/code');
    const signedIn = await crossed.flow.jar.visit(codeAction, { form: { csrf: crossedCsrf, code: await mailedCode(scope.admin, 'crossed@example.com') } });
    expect(signedIn.status).toBe(400);
    expect(await app.sql(`select 1 from app_user where email = 'crossed@example.com'`)).toEqual([]);

    const guessed = await signUpToKey(scope, 'guessed@example.com');
    const code = await mailedCode(scope.admin, 'guessed@example.com');
    let page = guessed.check;
    for (let attempt = 0; attempt < 5; attempt += 1) page = await guessed.flow.jar.submit(page, { code: String((Number(code) + 1 + attempt) % 1_000_000).padStart(6, '0') });
    const voided = await guessed.flow.jar.submit(page, { code });
    expect(voided.status).toBe(400);
    expect(voided.body).toContain('The code is incorrect or has expired.');
  });

  it('mails the code in the language of the page it was asked on', async () => {
    const scope = await passkeyScope({ allowSignup: true });
    const { flow, page } = await loginPage(scope);
    const link = /href="([^"]*\/passkey-signup)"/.exec(page.body)![1]!;
    const form = await flow.jar.visit(new URL(link, page.url).href, { headers: { 'accept-language': 'de' } });
    expect(form.body).toContain('Konto mit einem Passkey erstellen');
    expect((await flow.jar.submit(form, { email: 'neu@example.com' }, { 'accept-language': 'de' })).status).toBe(200);
    const [mail] = await mails(scope.admin, 'neu@example.com', 'email_otp');
    expect(mail!.subject).toMatch(/^\d{6} ist Ihr Code für /);
  });

  it('is not offered where allowSignup is off: no link, and its pages refused', async () => {
    const scope = await passkeyScope();
    const { flow, page } = await loginPage(scope);
    expect(page.body).not.toContain('passkey-signup');
    const form = await flow.jar.visit(new URL(page.url.replace(/\/?$/, '/passkey-signup')).href);
    expect(form.status).toBe(404);
    const posted = await flow.jar.visit(new URL(page.url.replace(/\/?$/, '/passkey-signup')).href, { form: { csrf: /name="csrf" value="([^"]+)"/.exec(page.body)![1]!, email: 'nobody@example.com' } });
    expect(posted.status).toBe(404);
    expect(await mails(scope.admin, 'nobody@example.com', 'email_otp')).toEqual([]);
  });

  it('in an isolated tenant the new account is the tenant’s; a tenant of the shared pool offers no sign-up', async () => {
    const { scope, tenant, own } = await isolatedTenantScope();
    expect((await scope.admin.patch(`${own}/auth-providers/${(await scope.admin.get(`${own}/auth-providers`)).body.data.find((provider: { type: string }) => provider.type === 'passkey').id}`, { config: { allowSignup: true } })).status).toBe(200);
    const { flow, check } = await signUpToKey(scope, 'north.new@example.com');
    const create = await flow.jar.submit(check, { code: await mailedCode(scope.admin, 'north.new@example.com') });
    const done = await answer(flow.jar, create, new SoftAuthenticator().register(webauthnFormOf(create).options as never, issuer));
    expect(done.status, done.body.slice(-1500)).toBe(303);
    const token = await idToken(scope, flow, done);
    expect(token).toMatchObject({ iss: `${issuer}/t/${tenant}` });
    expect((await scope.admin.get(`${own}/users/${token['sub'] as string}`)).body).toMatchObject({ email: 'north.new@example.com' });

    // Shared pool: a tenant's members join by invitation, never by sign-up, so a sign-in for a tenant offers none.
    const shared = await passkeyScope({ allowSignup: true });
    const onTenant = await loginPage(shared, new CookieJar(), { tenant: await app.createTenant('Shared', shared.application) });
    expect(onTenant.page.body).toContain('Sign in with a passkey');
    expect(onTenant.page.body).not.toContain('passkey-signup');
  });
});

describe('sign-in with a passkey', () => {
  it('signs in without a password: amr hwk user mfa, the MFA step (required) counted as done, audited with method passkey', async () => {
    const scope = await passkeyScope();
    expect((await scope.admin.put('/policies/mfa', { enforcement: 'required', factors: ['totp'] })).status).toBe(200);
    const userId = await createPasswordUser(scope.admin, 'keyholder@example.com');
    const key = await giveKey(scope, userId);
    const { flow, page } = await loginPage(scope);
    expect(page.body).toContain('Sign in with a passkey');
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    const { ceremony, options } = webauthnFormOf(page);
    expect(ceremony).toBe('get');
    expect(options).toMatchObject({ rpId, userVerification: 'required', allowCredentials: [] });
    const done = await answer(flow.jar, page, key.assert(options, issuer));
    expect(done.status, done.body.slice(-1500)).toBe(303);
    expect(done.location).not.toContain('/mfa');
    expect(await idToken(scope, flow, done)).toMatchObject({ sub: userId, amr: ['hwk', 'user', 'mfa'] });
    const [record] = await signInRecords(scope.application.applicationId, 'user.signed_in');
    expect(record?.after).toMatchObject({ method: 'passkey', amr: ['hwk', 'user', 'mfa'] });
    // One method proven, which counts as both factors: no `mfa` or `user` among the session's methods.
    expect(await sessionMethods(scope, userId)).toEqual([['passkey']]);
    const [used] = await app.sql<{ counter: string; last_used_at: Date | null }>('select counter, last_used_at from webauthn_credential where user_id = ?', [userId]);
    expect(Number(used?.counter)).toBe(1);
    expect(used?.last_used_at).not.toBeNull();
  });

  it('a synced passkey that did not verify its user (userVerification preferred) is one factor: swk, and the MFA step follows', async () => {
    const scope = await passkeyScope({ userVerification: 'preferred' });
    expect((await scope.admin.put('/policies/mfa', { enforcement: 'required', factors: ['totp'] })).status).toBe(200);
    const userId = await createPasswordUser(scope.admin, 'presence@example.com');
    const key = await giveKey(scope, userId, new SoftAuthenticator({ userVerified: false, synced: true }));
    const { flow, page } = await loginPage(scope);
    const done = await answer(flow.jar, page, key.assert(webauthnFormOf(page).options, issuer));
    expect(done.status).toBe(303);
    expect(done.location).toMatch(/\/mfa$/);
    // No sign-in until the step passes: the key's record is the first factor's.
    const [record] = await signInRecords(scope.application.applicationId, 'user.first_factor_proven');
    expect(record?.after).toMatchObject({ method: 'passkey', amr: ['swk'] });
    expect(await signInRecords(scope.application.applicationId, 'user.signed_in')).toEqual([]);
  });

  it('a key that did not verify its user is the first factor only: the MFA step takes another kind, never the same key again', async () => {
    const scope = await passkeyScope({ userVerification: 'preferred' });
    expect((await scope.admin.put('/policies/mfa', { enforcement: 'required', factors: ['webauthn', 'totp'] })).status).toBe(200);
    const userId = await createPasswordUser(scope.admin, 'one-key@example.com');
    const key = await giveKey(scope, userId, new SoftAuthenticator({ userVerified: false }));
    const secret = await giveTotp(scope, userId);
    const { flow, page } = await loginPage(scope);
    const first = await answer(flow.jar, page, key.assert(webauthnFormOf(page).options, issuer));
    expect(first.location).toMatch(/\/mfa$/);
    // The step offers the app, not a key, whatever the query asks; a key's answer posted anyway is sent back to it.
    const step = await flow.jar.visit(`${first.location!}?method=webauthn`);
    expect(step.status).toBe(200);
    expect(step.body).not.toContain('data-webauthn');
    expect(step.body).toContain('Enter the 6-digit code your authenticator app shows');
    const form = readForm(step.url, step.body);
    const bounced = await flow.jar.visit(form.action, { form: { ...form.fields, method: 'webauthn', credential: key.assert({ challenge: 'AAAA', rpId }, issuer) } });
    expect(bounced.status).toBe(303);
    expect(bounced.location).toMatch(/\/mfa$/);
    const done = await flow.jar.submit(step, { code: codeAt(secret) });
    const claims = await idToken(scope, flow, done);
    expect(claims).toMatchObject({ sub: userId });
    expect(claims['amr']).toEqual(expect.arrayContaining(['hwk', 'otp', 'mfa']));
    expect(await sessionMethods(scope, userId)).toEqual([['passkey', 'totp']]);
  });

  it('such a key alone: under an optional policy it signs in as one factor; under a required one of keys only, nothing can follow it', async () => {
    const optional = await passkeyScope({ userVerification: 'preferred' });
    expect((await optional.admin.put('/policies/mfa', { enforcement: 'optional', factors: ['webauthn', 'totp'] })).status).toBe(200);
    const alone = await createPasswordUser(optional.admin, 'key-alone@example.com');
    const key = await giveKey(optional, alone, new SoftAuthenticator({ userVerified: false }));
    const signIn = await loginPage(optional);
    const done = await answer(signIn.flow.jar, signIn.page, key.assert(webauthnFormOf(signIn.page).options, issuer));
    expect((await idToken(optional, signIn.flow, done))['amr']).toEqual(['hwk']);

    const required = await passkeyScope({ userVerification: 'preferred' });
    expect((await required.admin.put('/policies/mfa', { enforcement: 'required', factors: ['webauthn'] })).status).toBe(200);
    const stuck = await createPasswordUser(required.admin, 'key-stuck@example.com');
    const theirs = await giveKey(required, stuck, new SoftAuthenticator({ userVerified: false }));
    const attempt = await loginPage(required);
    const first = await answer(attempt.flow.jar, attempt.page, theirs.assert(webauthnFormOf(attempt.page).options, issuer));
    expect(first.location).toMatch(/\/mfa$/);
    const step = await attempt.flow.jar.visit(first.location!);
    expect(step.body).toContain('signed you in without checking it is you');
    expect(step.body).not.toContain('<form');
    expect(await app.sql(`select 1 from mfa_factor where user_id = ?`, [stuck])).toEqual([]);
  });

  it('refuses, with the same page, another origin, another RP ID, a replayed answer, a counter gone back, an unknown key, another application’s key, no user verification', async () => {
    const scope = await passkeyScope();
    const other = await passkeyScope();
    const userId = await createPasswordUser(scope.admin, 'careful@example.com');
    const key = await giveKey(scope, userId);
    const foreign = await giveKey(other, await createPasswordUser(other.admin, 'foreign@example.com'));
    const unverified = await giveKey(scope, await createPasswordUser(scope.admin, 'lazy@example.com'), new SoftAuthenticator({ userVerified: false }));
    const attempts: { what: string; answer: (options: { challenge: string; rpId?: string }) => string }[] = [
      { what: 'another origin', answer: (options) => key.assert(options, 'https://evil.example') },
      { what: 'another RP ID', answer: (options) => key.assert(options, issuer, { rpId: 'evil.example' }) },
      { what: 'an unknown key', answer: (options) => new SoftAuthenticator().assert(options, issuer) },
      { what: 'another application’s key', answer: (options) => foreign.assert(options, issuer) },
      { what: 'no user verification', answer: (options) => unverified.assert(options, issuer) },
      { what: 'not JSON', answer: () => 'cancelled' },
    ];
    for (const attempt of attempts) {
      const { flow, page } = await loginPage(scope);
      const refused = await answer(flow.jar, page, attempt.answer(webauthnFormOf(page).options));
      expect(refused.status, attempt.what).toBe(400);
      expect(refused.body, attempt.what).toContain('That passkey did not sign you in.');
    }
    // One good sign-in, its answer replayed on a fresh page (its challenge is used), then a counter that went back.
    const first = await loginPage(scope);
    const good = key.assert(webauthnFormOf(first.page).options, issuer);
    expect((await answer(first.flow.jar, first.page, good)).status).toBe(303);
    const again = await loginPage(scope);
    expect((await answer(again.flow.jar, again.page, good)).status).toBe(400);
    const back = await loginPage(scope);
    expect((await answer(back.flow.jar, back.page, key.assert(webauthnFormOf(back.page).options, issuer, { counter: 1 }))).status).toBe(400);
    const reasons = (await signInRecords(scope.application.applicationId, 'user.sign_in_failed')).map((record) => record.after['reason']);
    expect(reasons).toEqual(['invalid_passkey', 'invalid_passkey', 'unknown_credential', 'unknown_credential', 'invalid_passkey', 'invalid_input', 'invalid_passkey', 'cloned_passkey']);
  });

  it('a challenge is the sign-in’s it was shown in: answered on another sign-in’s page it is refused there, and still signs in its own, once', async () => {
    const scope = await passkeyScope();
    const userId = await createPasswordUser(scope.admin, 'bound@example.com');
    const key = await giveKey(scope, userId);
    const shown = await loginPage(scope);
    const elsewhere = await loginPage(scope);
    const forShown = key.assert(webauthnFormOf(shown.page).options, issuer);
    const crossed = await answer(elsewhere.flow.jar, elsewhere.page, forShown);
    expect(crossed.status).toBe(400);
    expect(crossed.body).toContain('That passkey did not sign you in.');
    const own = await answer(shown.flow.jar, shown.page, forShown);
    expect(own.status).toBe(303);
    expect(await idToken(scope, shown.flow, own)).toMatchObject({ sub: userId, amr: ['hwk', 'user', 'mfa'] });
    const fresh = await loginPage(scope);
    expect((await answer(fresh.flow.jar, fresh.page, forShown)).status).toBe(400);
    const reasons = (await signInRecords(scope.application.applicationId, 'user.sign_in_failed')).map((record) => record.after['reason']);
    expect(reasons).toEqual(['invalid_passkey', 'invalid_passkey']);
  });

  it('a counter gone back (a copy of the key) is refused and audited as cloned_passkey; the key is removed, audited, and its owner mailed', async () => {
    const scope = await passkeyScope();
    const userId = await createPasswordUser(scope.admin, 'cloned@example.com');
    const key = await giveKey(scope, userId);
    const first = await loginPage(scope);
    expect((await answer(first.flow.jar, first.page, key.assert(webauthnFormOf(first.page).options, issuer, { counter: 5 }))).status).toBe(303);
    // A refusal that is no copy's (another origin) removes nothing and mails nobody.
    const forged = await loginPage(scope);
    expect((await answer(forged.flow.jar, forged.page, key.assert(webauthnFormOf(forged.page).options, 'https://evil.example', { counter: 9 }))).status).toBe(400);
    expect(await app.sql(`select counter from webauthn_credential where user_id = ?`, [userId])).toEqual([{ counter: '5' }]);
    expect(await mails(scope.admin, 'cloned@example.com', 'mfa_enrolled')).toEqual([]);
    // The copy: refused, and from then on neither it nor the original signs in.
    for (const counter of [5, 9]) {
      const copy = await loginPage(scope);
      const refused = await answer(copy.flow.jar, copy.page, key.assert(webauthnFormOf(copy.page).options, issuer, { counter }));
      expect(refused.status, String(counter)).toBe(400);
      expect(refused.body).toContain('That passkey did not sign you in.');
    }
    const records = await app.sql<{ outcome: string; target_id: string | null; after: Record<string, unknown> }>(
      `select outcome, target_id, after from audit_log where application_id = ? and action = 'user.sign_in_failed' order by id`,
      [scope.application.applicationId],
    );
    expect(records.map((record) => record.after['reason'])).toEqual(['invalid_passkey', 'cloned_passkey', 'unknown_credential']);
    expect(records[1]).toEqual({ outcome: 'failure', target_id: userId, after: expect.objectContaining({ method: 'passkey', reason: 'cloned_passkey' }) });
    expect(await app.sql(`select 1 from webauthn_credential where user_id = ?`, [userId])).toEqual([]);
    const removals = await app.sql<{ target_id: string; before: Record<string, unknown> }>(
      `select target_id, before from audit_log where application_id = ? and action = 'user.passkey.cloned'`,
      [scope.application.applicationId],
    );
    expect(removals).toEqual([{ target_id: userId, before: { name: 'Test key', rpId } }]);
    const [mail, ...more] = await mails(scope.admin, 'cloned@example.com', 'mfa_enrolled');
    expect(more).toEqual([]);
    expect(mail!.subject).toMatch(/^A passkey was removed from your .+ account$/);
    expect(mail!.text).toContain('Your passkey “Test key” was just used with a signature that shows it may have been copied.');
    // Its reset link names no factor (the key is gone already): its page says nothing of one, and it removes nothing.
    const link = /(http\S+\/account\/reset-password\?token=\S+)/.exec(mail!.text)![1]!;
    await giveTotp(scope, userId);
    const jar = new CookieJar();
    const form = await jar.visit(link);
    expect(form.status).toBe(200);
    expect(form.body).not.toContain('also removes');
    expect((await jar.submit(form, { password: 'Battery-Staple-42' })).status).toBe(200);
    expect(await app.sql(`select kind from mfa_factor where user_id = ?`, [userId])).toEqual([{ kind: 'totp' }]);
  });

  it('a shared user’s copied key removed at the application’s sign-in is read in the audit log of each of their tenants; a tenant they are not in reads none', async () => {
    const { scope, applicationId, one, two, three, userId } = await sharedUserOfTwo('Copy', 'copied-both@example.com');
    const key = await giveKey(scope, userId);
    const first = await loginPage(scope);
    expect((await answer(first.flow.jar, first.page, key.assert(webauthnFormOf(first.page).options, issuer, { counter: 5 }))).status).toBe(303);
    const copy = await loginPage(scope);
    expect((await answer(copy.flow.jar, copy.page, key.assert(webauthnFormOf(copy.page).options, issuer, { counter: 5 }))).status).toBe(400);

    const records = await app.sql<{ id: string }>(`select id from audit_log where target_id = ? and action = 'user.passkey.cloned'`, [userId]);
    expect(records).toHaveLength(1);
    await expectReadByTenantsOnly(app, { applicationId, userId, ids: records.map(({ id }) => id), search: '&action=user.passkey.cloned', tenants: [one, two], outsider: three });
  });

  it('a copied key that was the last factor takes the recovery codes and a pending e-mail code with it, as the account page’s removal does: the next enrolment shows new codes', async () => {
    const scope = await passkeyScope();
    const { applicationId } = scope.application;
    const [alone, beside] = [await createPasswordUser(scope.admin, 'copied-alone@example.com'), await createPasswordUser(scope.admin, 'copied-beside@example.com')];
    const keys = { [alone]: await giveKey(scope, alone), [beside]: await giveKey(scope, beside) };
    await giveTotp(scope, beside);
    for (const userId of [alone, beside]) {
      await giveRecoveryCode(scope, userId, `left-${userId}`);
      await app.sql(`insert into mfa_email_code (application_id, user_id, code_hash, expires_at) values (?, ?, 'pending', now() + interval '10 minutes')`, [applicationId, userId]);
      const first = await loginPage(scope);
      expect((await answer(first.flow.jar, first.page, keys[userId]!.assert(webauthnFormOf(first.page).options, issuer, { counter: 5 }))).status).toBe(303);
      const copy = await loginPage(scope);
      expect((await answer(copy.flow.jar, copy.page, keys[userId]!.assert(webauthnFormOf(copy.page).options, issuer, { counter: 5 }))).status).toBe(400);
    }
    expect(await app.sql(`select 1 from webauthn_credential where user_id in (?, ?)`, [alone, beside])).toEqual([]);
    const left = (table: string) => app.sql<{ user_id: string }>(`select user_id from ${table} where user_id in (?, ?)`, [alone, beside]);
    // Beside the app they still serve; with no factor left they would be shown as the user's at no enrolment again.
    expect(await left('mfa_recovery_code')).toEqual([{ user_id: beside }]);
    expect(await left('mfa_email_code')).toEqual([{ user_id: beside }]);
    expect((await scope.admin.put('/policies/mfa', { enforcement: 'required', factors: ['totp'] })).status).toBe(200);
    const { flow, step } = await passwordThenStep(scope, 'copied-alone@example.com', 'totp');
    const secret = new URL(/(otpauth:\/\/totp\/[^<\s]+)/.exec(step.body)![1]!.replaceAll('&#38;', '&')).searchParams.get('secret')!;
    const enrolled = await flow.jar.submit(step, { code: codeAt(secret) });
    expect(enrolled.status, enrolled.body.slice(-1500)).toBe(200);
    expect(enrolled.body).toContain('Save your recovery codes');
  });

  it.skipIf(usingEmbeddedDatabase())('a copied key refused while an administrator resets MFA: the two take turns on the user, no deadlock', async () => {
    const scope = await passkeyScope();
    const userId = await createPasswordUser(scope.admin, 'cloned-reset@example.com');
    const key = await giveKey(scope, userId);
    const first = await loginPage(scope);
    expect((await answer(first.flow.jar, first.page, key.assert(webauthnFormOf(first.page).options, issuer, { counter: 5 }))).status).toBe(303);
    const copy = await loginPage(scope);
    const copied = key.assert(webauthnFormOf(copy.page).options, issuer, { counter: 5 });
    // The reset waits on the user's row first; the refusal, queued behind it, must not hold the key meanwhile.
    const [reset, refused] = await queuedBehind(app.gatehouse.services.orm, { table: 'app_user', applicationId: scope.application.applicationId, id: userId }, { lock: 'update' }, [
      () => scope.admin.post(`/users/${userId}/mfa-reset`).then((answered) => answered.status),
      () => answer(copy.flow.jar, copy.page, copied).then((page) => page.status),
    ]);
    expect(reset).toBe(200);
    expect(refused).toBe(400);
    expect(await app.sql('select 1 from webauthn_credential where user_id = ?', [userId])).toEqual([]);
    // The reset removed the key: the refusal found none left to remove, and mailed nobody.
    expect(await mails(scope.admin, 'cloned-reset@example.com', 'mfa_enrolled')).toEqual([]);
  });

  it('a disabled provider: no button on the page, and its form refused', async () => {
    const scope = await passkeyScope();
    const { flow, page } = await loginPage(scope);
    expect((await scope.admin.patch(`/auth-providers/${scope.providerId}`, { enabled: false })).status).toBe(200);
    const refused = await answer(flow.jar, page, 'cancelled');
    expect(refused.status).toBe(404);
    expect(refused.body).toContain('Signing in with a passkey is not available');
    expect((await loginPage(scope)).page.body).not.toContain('data-webauthn');
  });
});

/** An application with an isolated tenant North (its own password and passkey providers): its path's scope. */
async function isolatedTenantScope(): Promise<{ scope: Scope; tenant: string; own: string }> {
  const application = await app.bootstrapAnother();
  const admin = new HttpClient(app.baseUrl, { apiKey: application.apiKey });
  const tenant = await app.createTenant('North', application);
  expect((await admin.patch(`/applications/${application.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
  const own = `/applications/${application.applicationId}/tenants/${tenant}`;
  expect((await admin.post(`${own}/auth-providers`, { type: 'password' })).status).toBe(201);
  expect((await admin.post(`${own}/auth-providers`, { type: 'passkey' })).status).toBe(201);
  const client = await createTestClient(app, { type: 'web', applicationId: application.applicationId, redirectUris: [REDIRECT_URI] });
  const configuration = await oidc.discovery(new URL(`${issuer}/t/${tenant}`), client.clientId, {}, oidc.ClientSecretBasic(client.clientSecret ?? ''), {
    execute: [oidc.allowInsecureRequests],
  });
  return { scope: { application, admin, configuration, clientId: client.clientId, clientSecret: client.clientSecret ?? '', providerId: '' }, tenant, own };
}

/** The scope's client on a verified custom domain `host` (the application's, or `tenantId`'s): its own issuer and relying party. */
async function atDomain(scope: Scope, host: string, tenantId?: string): Promise<Scope> {
  const { application } = scope;
  await addDomain(app, { apiKey: application.apiKey, applicationId: application.applicationId, ...(tenantId === undefined ? {} : { tenantId }) }, host);
  const configuration = await oidc.discovery(new URL(`http://${host}`), scope.clientId, {}, oidc.ClientSecretBasic(scope.clientSecret), {
    [oidc.customFetch]: fetchVia(app.baseUrl),
    execute: [oidc.allowInsecureRequests],
  });
  return { ...scope, configuration };
}

/** The account page of the scope's client at `base` (a surface's issuer), signed in there with the password (and `second`, typed into the MFA step). */
async function openAccount(scope: Scope, email: string, base = issuer, jar = new CookieJar(), second?: Record<string, string>): Promise<{ jar: CookieJar; page: Visit }> {
  const origin = new URL(base).origin;
  const settle = async (visit: Visit) => {
    for (let hops = 0; hops < 10 && visit.status === 303 && visit.location!.startsWith(`${origin}/`); hops += 1) visit = await jar.visit(visit.location!);
    return visit;
  };
  const signIn = await settle(await jar.visit(`${base}/account?${new URLSearchParams({ client_id: scope.clientId })}`));
  const afterPassword = await settle(await jar.submit(signIn, { email, password: PASSWORD }));
  const page = second === undefined ? afterPassword : await settle(await jar.submit(afterPassword, second));
  expect(page.status, page.body.slice(-1500)).toBe(200);
  return { jar, page };
}

describe('a tenant’s own surface', () => {
  it('an isolated tenant’s passkey provider signs its users in on /t/{tenant}, the service’s host as RP ID; another tenant’s user’s key is unknown there', async () => {
    const { scope, tenant, own } = await isolatedTenantScope();
    const { application } = scope;
    const member = await createPasswordUser(scope.admin, 'north@example.com', `${own}/users`);
    const key = await giveKey(scope, member);
    const south = await app.createTenant('South', application);
    const outsider = await giveKey(scope, await createPasswordUser(scope.admin, 'south@example.com', `/applications/${application.applicationId}/tenants/${south}/users`));
    const refused = await loginPage(scope);
    expect(webauthnFormOf(refused.page).options).toMatchObject({ rpId });
    expect((await answer(refused.flow.jar, refused.page, outsider.assert(webauthnFormOf(refused.page).options, issuer))).status).toBe(400);
    const { flow, page } = await loginPage(scope);
    const done = await answer(flow.jar, page, key.assert(webauthnFormOf(page).options, issuer));
    expect(done.status, done.body.slice(-1500)).toBe(303);
    expect(await idToken(scope, flow, done)).toMatchObject({ sub: member, amr: ['hwk', 'user', 'mfa'], iss: `${issuer}/t/${tenant}` });
  });
});

/** The password typed on the scope's login page, the MFA step asked for: its page for `method`. */
async function passwordThenStep(scope: Scope, email: string, method = 'webauthn', jar = new CookieJar(), parameters: Record<string, string> = {}) {
  const { flow, page } = await loginPage(scope, jar, parameters);
  const afterPassword = await flow.jar.submit(page, { email, password: PASSWORD });
  expect(afterPassword.location, afterPassword.body.slice(-1500)).toMatch(new RegExp(`^${originOf(scope)}(/t/[\\w-]+)?/interaction/[\\w-]+/mfa$`));
  return { flow, step: await flow.jar.visit(`${afterPassword.location!}?method=${method}`) };
}

describe('a user of two tenants split into copies (authIsolation switched to isolated)', () => {
  it('the copy holds the original’s keys in its tenant: the password alone is not enough there, and the key signs either in', async () => {
    const { scope, applicationId, one, two, userId } = await sharedUserOfTwo('Split', 'split.key@example.com');
    expect((await scope.admin.put('/policies/mfa', { enforcement: 'optional', factors: ['webauthn', 'totp'] })).status).toBe(200);
    const key = await giveKey(scope, userId);
    expect((await scope.admin.patch(`/applications/${applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const [copy] = await app.sql<{ id: string }>('select id from app_user where application_id = ? and pool_id = ?', [applicationId, two]);
    expect(copy).toBeDefined();

    for (const [tenant, sub] of [[one, userId], [two, copy!.id]] as const) {
      const { flow, step } = await passwordThenStep(scope, 'split.key@example.com', 'webauthn', new CookieJar(), { tenant });
      const { options } = webauthnFormOf(step);
      expect(options['allowCredentials'], tenant).toEqual([{ id: key.id, type: 'public-key', transports: [] }]);
      const done = await answer(flow.jar, step, key.assert(options, issuer));
      expect(await idToken(scope, flow, done), tenant).toMatchObject({ sub, amr: ['pwd', 'hwk', 'mfa'], tenant_id: tenant });
      // As the first factor too: each tenant's pool finds its own account's key, whose counter is its own.
      const passkey = await loginPage(scope, new CookieJar(), { tenant });
      const signedIn = await answer(passkey.flow.jar, passkey.page, key.assert(webauthnFormOf(passkey.page).options, issuer));
      expect(await idToken(scope, passkey.flow, signedIn), tenant).toMatchObject({ sub, amr: ['hwk', 'user', 'mfa'], tenant_id: tenant });
    }
    const counters = await app.sql<{ user_id: string; counter: string }>('select user_id, counter from webauthn_credential where application_id = ? order by counter', [applicationId]);
    expect(counters.map((row) => [row.user_id, Number(row.counter)])).toEqual([[userId, 2], [copy!.id, 4]]);
  });

  it.skipIf(usingEmbeddedDatabase())('a key added while the tenancy switches change waits for them, so a switch copies or checks it', async () => {
    const scope = await passkeyScope();
    const userId = await createPasswordUser(scope.admin, 'mid-switch@example.com');
    const { jar, page } = await openAccount(scope, 'mid-switch@example.com');
    const key = new SoftAuthenticator().register(webauthnFormOf(page).options as never, issuer);
    // The application's row held as a switch holds it, which then writes the user's row (moving them to a pool): the
    // enrolment queues behind it before taking the user's row (else the two would deadlock), then lands.
    const moves = (em: EntityManager) => em.execute('update app_user set updated_at = now() where application_id = ? and id = ?', [scope.application.applicationId, userId]);
    const [added] = await queuedBehind(app.gatehouse.services.orm, { table: 'application', id: scope.application.applicationId }, { lock: 'update', beforeCommit: moves }, [
      () => answer(jar, page, key, { passkey_name: 'Mid-switch', passkey_add_password: PASSWORD }),
    ]);
    expect(added!.status, added!.body.slice(-1500)).toBe(303);
    expect(await app.sql('select name from webauthn_credential where application_id = ?', [scope.application.applicationId])).toEqual([{ name: 'Mid-switch' }]);
  });

  it('the way back is refused while a copy whose address changed holds the original’s key; once its factors are reset, the merged pool signs the original in with it', async () => {
    const { scope, applicationId, one, two, userId } = await sharedUserOfTwo('Merge', 'merge.key@example.com');
    const key = await giveKey(scope, userId);
    const tenancy = (authIsolation: string) => scope.admin.patch(`/applications/${applicationId}`, { tenancyConfig: { authIsolation } });
    expect((await tenancy('isolated')).status).toBe(200);
    const [copy] = await app.sql<{ id: string }>('select id from app_user where application_id = ? and pool_id = ?', [applicationId, two]);
    const copyPath = `/applications/${applicationId}/tenants/${two}/users/${copy!.id}`;
    expect((await scope.admin.patch(copyPath, { email: 'merge.key.two@example.com' })).status).toBe(200);

    const refused = await tenancy('shared');
    expect(refused.status).toBe(409);
    const held = { kind: 'users_with_duplicate_passkey', count: 1 };
    expect(refused.body).toMatchObject({ code: 'tenant_auth_data_remains', details: [{ tenantId: one, ...held }, { tenantId: two, ...held }] });
    expect((await app.sql<{ n: number }>('select count(*)::int as n from webauthn_credential where application_id = ? and pool_id = ?', [applicationId, two]))[0]?.n).toBe(1);

    expect((await scope.admin.post(`${copyPath}/mfa-reset`)).status).toBe(200);
    expect((await tenancy('shared')).status).toBe(200);
    const { flow, page } = await loginPage(scope);
    const done = await answer(flow.jar, page, key.assert(webauthnFormOf(page).options, issuer));
    expect(await idToken(scope, flow, done)).toMatchObject({ sub: userId, amr: ['hwk', 'user', 'mfa'] });
  });
});

describe('WebAuthn as a second factor', () => {
  it('a user with a key proves the second step with it: amr pwd hwk mfa; another user’s key is refused and counted', async () => {
    const scope = await passkeyScope();
    expect((await scope.admin.put('/policies/mfa', { enforcement: 'optional', factors: ['webauthn', 'totp'] })).status).toBe(200);
    const userId = await createPasswordUser(scope.admin, 'second@example.com');
    const key = await giveKey(scope, userId);
    const stranger = await giveKey(scope, await createPasswordUser(scope.admin, 'stranger@example.com'));
    const { flow, step } = await passwordThenStep(scope, 'second@example.com');
    const { ceremony, options } = webauthnFormOf(step);
    expect(ceremony).toBe('get');
    expect(options['allowCredentials']).toEqual([{ id: key.id, type: 'public-key', transports: [] }]);
    const refused = await answer(flow.jar, step, stranger.assert(options, issuer));
    expect(refused.status).toBe(400);
    const retry = webauthnFormOf(refused).options;
    const done = await answer(flow.jar, refused, key.assert(retry, issuer));
    expect(done.status, done.body.slice(-1500)).toBe(303);
    expect(await idToken(scope, flow, done)).toMatchObject({ sub: userId, amr: ['pwd', 'hwk', 'mfa'] });
    expect(await sessionMethods(scope, userId)).toEqual([['password', 'webauthn']]);
    const failed = await signInRecords(scope.application.applicationId, 'user.sign_in_failed');
    expect(failed.map((record) => record.after)).toEqual([expect.objectContaining({ method: 'webauthn', reason: 'unknown_credential' })]);
  });

  it('the step’s challenge is its sign-in’s: answered in another sign-in’s step it is refused; a counter gone back is refused as cloned_passkey', async () => {
    const scope = await passkeyScope();
    expect((await scope.admin.put('/policies/mfa', { enforcement: 'optional', factors: ['webauthn', 'totp'] })).status).toBe(200);
    const userId = await createPasswordUser(scope.admin, 'stepbound@example.com');
    const key = await giveKey(scope, userId);
    const shown = await passwordThenStep(scope, 'stepbound@example.com');
    const elsewhere = await passwordThenStep(scope, 'stepbound@example.com');
    const forShown = key.assert(webauthnFormOf(shown.step).options, issuer, { counter: 5 });
    expect((await answer(elsewhere.flow.jar, elsewhere.step, forShown)).status).toBe(400);
    const own = await answer(shown.flow.jar, shown.step, forShown);
    expect(await idToken(scope, shown.flow, own)).toMatchObject({ sub: userId, amr: ['pwd', 'hwk', 'mfa'] });
    const copy = await passwordThenStep(scope, 'stepbound@example.com');
    expect((await answer(copy.flow.jar, copy.step, key.assert(webauthnFormOf(copy.step).options, issuer, { counter: 3 }))).status).toBe(400);
    const failed = await signInRecords(scope.application.applicationId, 'user.sign_in_failed');
    expect(failed.map((record) => record.after)).toEqual([
      expect.objectContaining({ method: 'webauthn', reason: 'invalid_passkey' }),
      expect.objectContaining({ method: 'webauthn', reason: 'cloned_passkey' }),
    ]);
    // The copied key is gone and its owner told, in the language of the step's page.
    expect(await app.sql(`select 1 from webauthn_credential where user_id = ?`, [userId])).toEqual([]);
    expect(await signInRecords(scope.application.applicationId, 'user.passkey.cloned')).toEqual([{ after: null, target_id: userId }]);
    expect((await mails(scope.admin, 'stepbound@example.com', 'mfa_enrolled')).map((mail) => mail.subject)).toEqual([expect.stringMatching(/^A passkey was removed/)]);
  });

  it('under required, a user without a factor registers a key, gets recovery codes, and signs in with it next time; mfa-reset removes it', async () => {
    const scope = await passkeyScope();
    expect((await scope.admin.put('/policies/mfa', { enforcement: 'required', factors: ['webauthn'] })).status).toBe(200);
    const userId = await createPasswordUser(scope.admin, 'enrol@example.com');
    const { flow, step } = await passwordThenStep(scope, 'enrol@example.com');
    const { ceremony, options } = webauthnFormOf(step);
    expect(ceremony).toBe('create');
    expect(options).toMatchObject({ rp: { id: rpId }, attestation: 'none', authenticatorSelection: { residentKey: 'required', userVerification: 'required' } });
    const key = new SoftAuthenticator();
    const wrongOrigin = await answer(flow.jar, step, key.register(options as never, 'https://evil.example'), { name: 'Laptop' });
    expect(wrongOrigin.status).toBe(400);
    // A key under the id of one registered already (ids are not secret) adds nothing, so it passes nothing: asked again.
    const held = await giveKey(scope, await createPasswordUser(scope.admin, 'holder@example.com'));
    const impostor = new SoftAuthenticator();
    impostor.credentialId.set(held.credentialId);
    const taken = await answer(flow.jar, wrongOrigin, impostor.register(webauthnFormOf(wrongOrigin).options as never, issuer), { name: 'Laptop' });
    expect(taken.status, taken.location).toBe(409);
    expect(webauthnFormOf(taken).ceremony).toBe('create');
    expect(await app.sql(`select 1 from audit_log where target_id = ? and action = 'user.mfa.enrolled'`, [userId])).toEqual([]);
    expect(await mails(scope.admin, 'enrol@example.com', 'mfa_enrolled')).toEqual([]);
    // No sign-in recorded for it, a refusal instead (uncounted: the key was proven), and the other origin's failure kept.
    const outcomes = async () => ({
      failed: (await signInRecords(scope.application.applicationId, 'user.sign_in_failed')).map((record) => [record.target_id, record.after['method'], record.after['reason']]),
      signedIn: (await signInRecords(scope.application.applicationId, 'user.signed_in')).map((record) => [record.target_id, record.after['method']]),
      failures: await app.sql(`select address, failures from sign_in_failure where user_id = ?`, [userId]),
    });
    expect(await outcomes()).toEqual({
      failed: [
        [userId, 'webauthn', 'invalid_passkey'],
        [userId, 'webauthn', 'factor_not_added'],
      ],
      signedIn: [],
      failures: [{ address: 'mfa:127.0.0.1', failures: 1 }],
    });
    const registered = await answer(flow.jar, taken, key.register(webauthnFormOf(taken).options as never, issuer), { name: 'Laptop' });
    expect(registered.status, registered.body.slice(-1500)).toBe(200);
    expect(registered.body).toContain('Save your recovery codes');
    expect(await outcomes()).toMatchObject({ signedIn: [[userId, 'webauthn']], failures: [] });
    const done = await flow.jar.submit(registered, { action: 'continue' });
    expect(await idToken(scope, flow, done)).toMatchObject({ amr: ['pwd', 'hwk', 'mfa'] });
    expect(await app.sql('select name, rp_id from webauthn_credential where user_id = ?', [userId])).toEqual([{ name: 'Laptop', rp_id: rpId }]);
    const [enrolled] = await app.sql<{ after: Record<string, unknown> }>(`select after from audit_log where target_id = ? and action = 'user.mfa.enrolled'`, [userId]);
    expect(enrolled?.after).toEqual({ factor: 'webauthn' });
    // Next time: a passkey sign-in (the key is discoverable) needs no password.
    const next = await loginPage(scope);
    const signedIn = await answer(next.flow.jar, next.page, key.assert(webauthnFormOf(next.page).options, issuer));
    expect(await idToken(scope, next.flow, signedIn)).toMatchObject({ sub: userId, amr: ['hwk', 'user', 'mfa'] });
    expect((await scope.admin.post(`/users/${userId}/mfa-reset`, {})).status).toBe(200);
    expect(await app.sql('select 1 from webauthn_credential where user_id = ?', [userId])).toEqual([]);
    const [reset] = await app.sql<{ before: Record<string, unknown> }>(`select before from audit_log where target_id = ? and action = 'user.mfa.reset'`, [userId]);
    expect(reset?.before).toMatchObject({ factors: ['webauthn'] });
  });

  it('a key that adds nothing takes its attempt at the step as any answer does: as the fifth, it ends the step', async () => {
    const scope = await passkeyScope();
    expect((await scope.admin.put('/policies/mfa', { enforcement: 'required', factors: ['webauthn'] })).status).toBe(200);
    const lockoutOff = { enabled: false, maxAttempts: 10, lockoutMinutes: 15, resetAfterMinutes: 15, accountLockAddresses: 5 };
    expect((await scope.admin.put('/policies/lockout', lockoutOff)).status).toBe(200);
    const userId = await createPasswordUser(scope.admin, 'spent@example.com');
    const held = await giveKey(scope, await createPasswordUser(scope.admin, 'spent-holder@example.com'));
    const { flow, step: first } = await passwordThenStep(scope, 'spent@example.com');
    let step = first;
    for (let attempt = 0; attempt < 4; attempt += 1) {
      step = await answer(flow.jar, step, new SoftAuthenticator().register(webauthnFormOf(step).options as never, 'https://evil.example'), { name: 'Laptop' });
      expect(step.status).toBe(400);
    }
    const impostor = new SoftAuthenticator();
    impostor.credentialId.set(held.credentialId);
    const ended = await answer(flow.jar, step, impostor.register(webauthnFormOf(step).options as never, issuer), { name: 'Laptop' });
    expect(ended.status).toBe(400);
    expect(ended.body).toContain('Too many wrong codes were entered. Sign in again to continue.');
    expect(ended.body).toContain('name="password"');
    const failed = await signInRecords(scope.application.applicationId, 'user.sign_in_failed');
    expect(failed.map((record) => [record.target_id, record.after['reason']])).toEqual([...Array.from({ length: 4 }, () => [userId, 'invalid_passkey']), [userId, 'factor_not_added']]);
    expect(await signInRecords(scope.application.applicationId, 'user.signed_in')).toEqual([]);
  });
});

/** The account page's form that removes one of the user's keys (a select of them). */
function passkeyRemoval(page: Visit) {
  const form = [...page.body.matchAll(/<form\b[^>]*method="post"[\s\S]*?<\/form>/g)].map(([html]) => readForm(page.url, html)).find((candidate) => candidate.options['remove'] !== undefined);
  expect(form, page.body).toBeDefined();
  return form!;
}

describe('the account page', () => {
  it('lists, adds (audited) and removes the user’s passkeys; a registration of another origin adds nothing', async () => {
    const scope = await passkeyScope();
    const userId = await createPasswordUser(scope.admin, 'account@example.com');
    const { jar, page: visit } = await openAccount(scope, 'account@example.com');
    expect(visit.body).toContain('Passkeys and security keys');
    expect(visit.body).toContain('No passkey or security key yet.');
    const key = new SoftAuthenticator();
    // Adding one takes the current password: a browser left signed in may not give itself a key that signs in alone.
    const unproven = await answer(jar, visit, key.register(webauthnFormOf(visit).options as never, issuer), { passkey_name: 'Phone', passkey_add_password: 'Not-The-One-1' });
    expect(unproven.status).toBe(400);
    expect(unproven.body).toContain('The current password is incorrect.');
    expect(await app.sql('select 1 from webauthn_credential where user_id = ?', [userId])).toEqual([]);
    const refused = await answer(jar, unproven, key.register(webauthnFormOf(unproven).options as never, 'https://evil.example'), { passkey_name: 'Phone', passkey_add_password: PASSWORD });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('The passkey was not added: your browser did not finish registering it. Try again.');
    const added = await answer(jar, refused, key.register(webauthnFormOf(refused).options as never, issuer), { passkey_name: 'Phone', passkey_add_password: PASSWORD });
    expect(added.status).toBe(303);
    const page = await jar.visit(added.location!);
    expect(page.body).toContain('Your passkeys and security keys are saved.');
    const [audited] = await app.sql<{ after: Record<string, unknown> }>(`select after from audit_log where target_id = ? and action = 'user.passkey.added'`, [userId]);
    expect(audited?.after).toEqual({ name: 'Phone', rpId });
    const removeForm = passkeyRemoval(page);
    expect(removeForm.options['remove']).toHaveLength(1);
    // Removing it takes the current password: a wrong one, or none, removes nothing.
    for (const password of ['Not-The-One-1', undefined]) {
      const fields = Object.fromEntries(Object.entries(removeForm.fields).filter(([name]) => name !== 'passkey_password'));
      const refused = await jar.visit(removeForm.action, { form: { ...fields, ...(password === undefined ? {} : { passkey_password: password }), remove: removeForm.options['remove']![0]! } });
      expect(refused.status).toBe(400);
      expect(refused.body).toContain('The current password is incorrect.');
    }
    expect(await app.sql('select 1 from webauthn_credential where user_id = ?', [userId])).toHaveLength(1);
    const removal = { ...removeForm.fields, remove: removeForm.options['remove']![0]!, passkey_password: PASSWORD };
    const removed = await jar.visit(removeForm.action, { form: removal });
    expect(removed.status).toBe(303);
    expect(await app.sql('select 1 from webauthn_credential where user_id = ?', [userId])).toEqual([]);
    expect(await app.sql(`select 1 from audit_log where target_id = ? and action = 'user.passkey.removed'`, [userId])).toHaveLength(1);
    // Removed again (the form of a page opened before), it is said so, in the browser's language.
    const again = await jar.visit(removeForm.action, { form: removal, headers: { 'accept-language': 'de' } });
    expect(again.status).toBe(400);
    expect(again.body).toContain('Dieser Passkey wurde bereits entfernt.');
    expect(await app.sql(`select 1 from audit_log where target_id = ? and action = 'user.passkey.removed'`, [userId])).toHaveLength(1);
  });

  it('a shared user’s key added and removed on the application’s page is read in the audit log of each of their tenants; a tenant they are not in reads none', async () => {
    const { scope, applicationId, one, two, three, userId } = await sharedUserOfTwo('Keys', 'keys-both@example.com');
    // The application's page (no tenant asked): its sign-in asks which tenant.
    const { jar, page: visit } = await openAccount(scope, 'keys-both@example.com', issuer, new CookieJar(), { tenant: one });
    const added = await answer(jar, visit, new SoftAuthenticator().register(webauthnFormOf(visit).options as never, issuer), { passkey_name: 'Phone', passkey_add_password: PASSWORD });
    expect(added.status, added.body).toBe(303);
    const removeForm = passkeyRemoval(await jar.visit(added.location!));
    expect((await jar.visit(removeForm.action, { form: { ...removeForm.fields, remove: removeForm.options['remove']![0]!, passkey_password: PASSWORD } })).status).toBe(303);

    const records = await app.sql<{ id: string; action: string; tenant_id: string | null }>(
      `select id, action, tenant_id from audit_log where target_id = ? and action like 'user.passkey.%' order by id`,
      [userId],
    );
    expect(records.map(({ action, tenant_id }) => [action, tenant_id])).toEqual([
      ['user.passkey.added', null],
      ['user.passkey.removed', null],
    ]);
    const ids = records.map((record) => record.id);
    await expectReadByTenantsOnly(app, { applicationId, userId, ids, search: '&action=user.passkey.*', tenants: [one, two], outsider: three });
  });

  it('a user suspended once the key’s challenge is taken (the page read them active): the key is judged with their row, so nothing is stored', async () => {
    const scope = await passkeyScope();
    const userId = await createPasswordUser(scope.admin, 'suspended-key@example.com');
    const { jar, page } = await openAccount(scope, 'suspended-key@example.com');
    const registration = new SoftAuthenticator().register(webauthnFormOf(page).options as never, issuer);
    const refused = await suspendedAtWrite(app, userId, { table: 'webauthn_challenge', events: 'delete', when: `old.purpose = 'register'` }, () =>
      answer(jar, page, registration, { passkey_name: 'Phone', passkey_add_password: PASSWORD }),
    );
    expect(refused.status, refused.body.slice(-800)).toBe(403);
    expect(refused.body).toContain('is suspended: nothing was changed.');
    expect(await app.sql('select 1 from webauthn_credential where user_id = ?', [userId])).toEqual([]);
    expect(await app.sql(`select 1 from audit_log where target_id = ? and action = 'user.passkey.added'`, [userId])).toEqual([]);
    expect(await app.sql(`select 1 from email_delivery where to_address = ? and template_key = 'mfa_enrolled'`, ['suspended-key@example.com'])).toEqual([]);
  });

  it('a key never used says so in the branding’s words, escaped once, per language', async () => {
    const scope = await passkeyScope();
    const copy = { 'account.passkeyNeverUsed': 'not yet – it’s "new" & <unused>', 'de:account.passkeyNeverUsed': 'noch nie "benutzt"' };
    expect((await scope.admin.put('/branding', { copy })).status).toBe(200);
    const userId = await createPasswordUser(scope.admin, 'unused@example.com');
    await giveKey(scope, userId);
    const { jar, page } = await openAccount(scope, 'unused@example.com');
    expect(page.body).toMatch(/, last used not yet – it’s &#34;new&#34; &#38; &#60;unused&#62;<\/span>/);
    const german = await jar.visit(page.url, { headers: { 'accept-language': 'de' } });
    expect(german.body).toMatch(/, zuletzt verwendet noch nie &#34;benutzt&#34;<\/span>/);
  });

  it('adding a key mails its owner (mfa_enrolled, a reset link); as the first second step of a policy listing keys it shows recovery codes once', async () => {
    const scope = await passkeyScope();
    expect((await scope.admin.put('/policies/mfa', { enforcement: 'optional', factors: ['webauthn', 'totp'] })).status).toBe(200);
    const userId = await createPasswordUser(scope.admin, 'told@example.com');
    const { jar, page } = await openAccount(scope, 'told@example.com');
    const added = await answer(jar, page, new SoftAuthenticator().register(webauthnFormOf(page).options as never, issuer), { passkey_name: 'Phone', passkey_add_password: PASSWORD });
    expect(added.status, added.body.slice(-1500)).toBe(200);
    expect(added.body).toContain('Your passkeys and security keys are saved.');
    const codes = [...added.body.matchAll(/<li><code>([^<]+)<\/code><\/li>/g)].map(([, code]) => code);
    expect(codes).toHaveLength(10);
    expect(await app.sql('select 1 from mfa_recovery_code where user_id = ? and used_at is null', [userId])).toHaveLength(10);
    const [mail, ...more] = await mails(scope.admin, 'told@example.com', 'mfa_enrolled');
    expect(more).toEqual([]);
    expect(mail!.text).toMatch(/http\S+\/account\/reset-password\?token=\S+/);
    expect((await app.sql<{ action: string }>(`select action from audit_log where target_id = ? and action like 'user.%' order by id`, [userId])).map(({ action }) => action)).toContain('user.passkey.added');
    // A second key: mailed again; the codes left stay, and none are shown.
    const shown = await jar.visit(`${issuer}/account?${new URLSearchParams({ client_id: scope.clientId })}`);
    expect(shown.body).not.toContain('<li><code>');
    const second = await answer(jar, shown, new SoftAuthenticator().register(webauthnFormOf(shown).options as never, issuer), { passkey_name: 'Laptop', passkey_add_password: PASSWORD });
    expect(second.status).toBe(303);
    expect(await mails(scope.admin, 'told@example.com', 'mfa_enrolled')).toHaveLength(2);
    expect(await app.sql('select 1 from mfa_recovery_code where user_id = ? and used_at is null', [userId])).toHaveLength(10);
    // Where keys only sign in (the policy off), a key is mailed about too, and no codes are made: they would do nothing.
    const signInOnly = await passkeyScope();
    const other = await createPasswordUser(signInOnly.admin, 'told-too@example.com');
    const opened = await openAccount(signInOnly, 'told-too@example.com');
    const plain = await answer(opened.jar, opened.page, new SoftAuthenticator().register(webauthnFormOf(opened.page).options as never, issuer), { passkey_add_password: PASSWORD });
    expect(plain.status).toBe(303);
    expect(await mails(signInOnly.admin, 'told-too@example.com', 'mfa_enrolled')).toHaveLength(1);
    expect(await app.sql('select 1 from mfa_recovery_code where user_id = ?', [other])).toEqual([]);
  });

  it('a key’s mail links remove that key only: a later key’s leaves the first and its recovery codes; the first key’s, the last second step, takes the codes', async () => {
    const scope = await passkeyScope();
    expect((await scope.admin.put('/policies/mfa', { enforcement: 'optional', factors: ['webauthn', 'totp'] })).status).toBe(200);
    const userId = await createPasswordUser(scope.admin, 'keys-told@example.com');
    const { jar, page } = await openAccount(scope, 'keys-told@example.com');
    const added = await answer(jar, page, new SoftAuthenticator().register(webauthnFormOf(page).options as never, issuer), { passkey_name: 'Phone', passkey_add_password: PASSWORD });
    expect(added.status, added.body.slice(-1500)).toBe(200);
    const shown = await jar.visit(`${issuer}/account?${new URLSearchParams({ client_id: scope.clientId })}`);
    const second = await answer(jar, shown, new SoftAuthenticator().register(webauthnFormOf(shown).options as never, issuer), { passkey_name: 'Laptop', passkey_add_password: PASSWORD });
    expect(second.status).toBe(303);
    const [phoneLink, laptopLink] = (await mails(scope.admin, 'keys-told@example.com', 'mfa_enrolled')).map((mail) => /(http\S+\/account\/reset-password\?token=\S+)/.exec(mail.text)![1]!);
    const keys = async () => (await app.sql<{ name: string }>('select name from webauthn_credential where user_id = ? order by name', [userId])).map(({ name }) => name);
    const codesLeft = async () => (await app.sql('select 1 from mfa_recovery_code where user_id = ? and used_at is null', [userId])).length;
    const removals = () => app.sql<{ before: unknown; after: unknown }>(`select before, after from audit_log where target_id = ? and action = 'user.passkey.removed' order by id`, [userId]);

    const owner = new CookieJar();
    const laptop = await owner.visit(laptopLink!);
    expect(laptop.body).toContain('Setting a new password also removes the passkey “Laptop” added to your account on');
    expect(laptop.body).not.toContain('Your recovery codes stop working too.');
    expect((await owner.submit(laptop, { current: PASSWORD, password: 'Battery-Staple-42' })).status).toBe(200);
    expect(await keys()).toEqual(['Phone']);
    expect(await codesLeft()).toBe(10);
    expect(await removals()).toEqual([{ before: { name: 'Laptop' }, after: { reason: 'enrolment_disowned' } }]);

    const phone = await owner.visit(phoneLink!);
    expect(phone.body).toMatch(/Setting a new password also removes the passkey “Phone” added to your account on [^<]+\. Your recovery codes stop working too\./);
    // Its proof is the password the account had when its mail went, the one since replaced.
    expect((await owner.submit(phone, { current: PASSWORD, password: 'Correct-Horse-43' })).status).toBe(200);
    expect(await keys()).toEqual([]);
    expect(await codesLeft()).toBe(0);
    expect((await removals()).map((record) => record.before)).toEqual([{ name: 'Laptop' }, { name: 'Phone', recoveryCodes: 10 }]);
  });

  /** The account page, signed in with `key` (no password asked). */
  async function accountWithKey(scope: Scope, key: SoftAuthenticator): Promise<{ jar: CookieJar; visit: Visit }> {
    const jar = new CookieJar();
    const follow = async (from: Visit) => {
      let visit = from;
      for (let hops = 0; hops < 10 && visit.status === 303 && visit.location!.startsWith(`${issuer}/`); hops += 1) visit = await jar.visit(visit.location!);
      return visit;
    };
    const start = await follow(await jar.visit(`${issuer}/account?${new URLSearchParams({ client_id: scope.clientId })}`));
    const visit = await follow(await answer(jar, start, key.assert(webauthnFormOf(start).options, issuer)));
    expect(visit.status, visit.body.slice(-1500)).toBe(200);
    return { jar, visit };
  }

  it('an account without a password gets a plain reset link for a key it adds: the mailbox alone removes no key', async () => {
    const scope = await passkeyScope();
    const made = await scope.admin.post('/users', { email: 'keyonly-told@example.com' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const userId = (made.body as { id: string }).id;
    const { jar, visit } = await accountWithKey(scope, await giveKey(scope, userId));
    const added = await answer(jar, visit, new SoftAuthenticator().register(webauthnFormOf(visit).options as never, issuer), { passkey_name: 'Spare' });
    expect(added.status, added.body.slice(-1500)).toBeLessThan(400);
    const [mail] = await mails(scope.admin, 'keyonly-told@example.com', 'mfa_enrolled');
    const page = await new CookieJar().visit(/(http\S+\/account\/reset-password\?token=\S+)/.exec(mail!.text)![1]!);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('also removes');
    expect(page.body).not.toContain('name="current"');
    expect(await app.sql('select 1 from webauthn_credential where user_id = ?', [userId])).toHaveLength(2);
  });

  /** The scope's password provider disabled, nobody signing in there with a password; its id. */
  async function disablePasswordSignIn(scope: Awaited<ReturnType<typeof passkeyScope>>): Promise<string> {
    const providers = (await scope.admin.get('/auth-providers')).body.data as { id: string; type: string }[];
    const password = providers.find((provider) => provider.type === 'password')!;
    expect((await scope.admin.patch(`/auth-providers/${password.id}`, { enabled: false })).status).toBe(200);
    return password.id;
  }

  it('an account without a password keeps its last key where nothing else signs it in: refused, the key kept, until e-mail sign-in is offered', async () => {
    const scope = await passkeyScope();
    const made = await scope.admin.post('/users', { email: 'keyonly@example.com' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const userId = (made.body as { id: string }).id;
    const key = await giveKey(scope, userId);
    await disablePasswordSignIn(scope);
    const { jar, visit } = await accountWithKey(scope, key);
    const form = passkeyRemoval(visit);
    const removal = { ...form.fields, remove: form.options['remove']![0]! };
    const kept = await jar.visit(form.action, { form: removal });
    expect(kept.status).toBe(400);
    expect(kept.body).toContain('This passkey is the only way to sign in to your account: add another way before removing it.');
    expect(await app.sql('select 1 from webauthn_credential where user_id = ?', [userId])).toHaveLength(1);
    expect(await app.sql(`select 1 from audit_log where target_id = ? and action = 'user.passkey.removed'`, [userId])).toEqual([]);
    // With e-mail sign-in offered, the mailbox signs the account in: the key may go.
    expect((await scope.admin.post('/auth-providers', { type: 'magic_link' })).status).toBe(201);
    const removed = await jar.visit(form.action, { form: removal });
    expect(removed.status, removed.body.slice(-1500)).toBe(303);
    expect(await app.sql('select 1 from webauthn_credential where user_id = ?', [userId])).toEqual([]);
  });

  it('an account with a password keeps its last key where the surface no longer signs in with passwords: the password would not let it in', async () => {
    const scope = await passkeyScope();
    const userId = await createPasswordUser(scope.admin, 'keyandpassword@example.com');
    const key = await giveKey(scope, userId);
    const passwordProvider = await disablePasswordSignIn(scope);
    const { jar, visit } = await accountWithKey(scope, key);
    const form = passkeyRemoval(visit);
    const removal = { ...form.fields, remove: form.options['remove']![0]!, passkey_password: PASSWORD };
    const kept = await jar.visit(form.action, { form: removal });
    expect(kept.status).toBe(400);
    expect(kept.body).toContain('This passkey is the only way to sign in to your account: add another way before removing it.');
    expect(await app.sql('select 1 from webauthn_credential where user_id = ?', [userId])).toHaveLength(1);
    expect(await app.sql(`select 1 from audit_log where target_id = ? and action = 'user.passkey.removed'`, [userId])).toEqual([]);
    // Password sign-in offered again: the password signs the account in, and the key may go.
    expect((await scope.admin.patch(`/auth-providers/${passwordProvider}`, { enabled: true })).status).toBe(200);
    const removed = await jar.visit(form.action, { form: removal });
    expect(removed.status, removed.body.slice(-1500)).toBe(303);
    expect(await app.sql('select 1 from webauthn_credential where user_id = ?', [userId])).toEqual([]);
  });

  it('names a passkey as typed only under the users’ rule for names: a line break or a direction override gives the default name', async () => {
    const scope = await passkeyScope();
    const userId = await createPasswordUser(scope.admin, 'named-keys@example.com');
    const opened = await openAccount(scope, 'named-keys@example.com');
    const { jar } = opened;
    let page = opened.page;
    for (const name of ['Phone\r\nuser.passkey.removed', 'Phone\u202Eyek', ' Laptop ']) {
      const added = await answer(jar, page, new SoftAuthenticator().register(webauthnFormOf(page).options as never, issuer), { passkey_name: name, passkey_add_password: PASSWORD });
      expect(added.status, added.body).toBe(303);
      page = await jar.visit(added.location!);
    }
    const names = await app.sql<{ name: string }>('select name from webauthn_credential where user_id = ? order by created_at', [userId]);
    expect(names.map(({ name }) => name)).toEqual(['Passkey', 'Passkey', 'Laptop']);
  });

  it('under a required policy of keys the last one stays; with an app beside it, it goes, the recovery codes staying for the app', async () => {
    const scope = await passkeyScope();
    expect((await scope.admin.put('/policies/mfa', { enforcement: 'required', factors: ['webauthn', 'totp'] })).status).toBe(200);
    const userId = await createPasswordUser(scope.admin, 'keeper@example.com');
    await giveKey(scope, userId);
    await giveRecoveryCode(scope, userId, 'KEEP-1234');
    const secret = await giveTotp(scope, userId);
    const { jar, page } = await openAccount(scope, 'keeper@example.com', issuer, new CookieJar(), { method: 'totp', code: codeAt(secret) });
    const form = passkeyRemoval(page);
    const removal = { ...form.fields, remove: form.options['remove']![0]!, passkey_password: PASSWORD };
    // The key alone (the app gone meanwhile): the policy keeps it.
    await app.sql(`delete from mfa_factor where user_id = ?`, [userId]);
    const kept = await jar.visit(form.action, { form: removal });
    expect(kept.status).toBe(400);
    expect(kept.body).toContain('requires two-step verification: add another second step before removing this one.');
    expect(await app.sql('select 1 from webauthn_credential where user_id = ?', [userId])).toHaveLength(1);
    expect(await app.sql(`select 1 from audit_log where target_id = ? and action = 'user.passkey.removed'`, [userId])).toEqual([]);

    await giveTotp(scope, userId);
    expect((await jar.visit(form.action, { form: removal })).status).toBe(303);
    expect(await app.sql('select 1 from webauthn_credential where user_id = ?', [userId])).toEqual([]);
    expect(await app.sql('select 1 from mfa_recovery_code where user_id = ?', [userId])).toHaveLength(1);
  });
});

describe('a tenant’s custom domain', () => {
  const DOMAIN_HOST = 'login.keys.example';
  const domain = `http://${DOMAIN_HOST}`;

  it('a key registered on its account page (the domain’s host its RP ID) signs in there; keys of the domain and of the service’s host are unknown to each other', async () => {
    const { scope, tenant, own } = await isolatedTenantScope();
    const { application } = scope;
    const userId = await createPasswordUser(scope.admin, 'roamer@example.com', `${own}/users`);
    const onDomain = await atDomain(scope, DOMAIN_HOST, tenant);
    const via = fetchVia(app.baseUrl);

    const { jar, page } = await openAccount(onDomain, 'roamer@example.com', domain, new CookieJar(via));
    const creation = webauthnFormOf(page).options;
    expect(creation).toMatchObject({ rp: { id: DOMAIN_HOST } });
    const key = new SoftAuthenticator();
    const added = await answer(jar, page, key.register(creation as never, domain), { passkey_name: 'Phone', passkey_add_password: PASSWORD });
    expect(added.status, added.body.slice(-1500)).toBe(303);
    expect(await app.sql('select rp_id from webauthn_credential where user_id = ?', [userId])).toEqual([{ rp_id: DOMAIN_HOST }]);
    const [audited] = await app.sql<{ after: Record<string, unknown> }>(`select after from audit_log where target_id = ? and action = 'user.passkey.added'`, [userId]);
    expect(audited?.after).toEqual({ name: 'Phone', rpId: DOMAIN_HOST });
    expect(passkeyRemoval(await jar.visit(added.location!)).options['remove']).toHaveLength(1);
    // The account page of the service's host (the tenant's path) lists the keys of every relying party, so that a lost
    // one can be removed from anywhere (listCredentials), each with the host it works on, but registers for its own host.
    const atHome = (await openAccount(scope, 'roamer@example.com', `${issuer}/t/${tenant}`)).page;
    expect(atHome.body).toContain('<option value="');
    expect(passkeyRemoval(atHome).options['remove']).toHaveLength(1);
    expect(atHome.body).toContain(`For ${DOMAIN_HOST};`);
    expect(webauthnFormOf(atHome).options).toMatchObject({ rp: { id: rpId } });

    const { flow, page: login } = await loginPage(onDomain, new CookieJar(via));
    const request = webauthnFormOf(login).options;
    expect(request).toMatchObject({ rpId: DOMAIN_HOST });
    const done = await answer(flow.jar, login, key.assert(request, domain));
    expect(done.status, done.body.slice(-1500)).toBe(303);
    expect(await idToken(onDomain, flow, done)).toMatchObject({ sub: userId, amr: ['hwk', 'user', 'mfa'], iss: domain });

    // The domain's key on the service's host (the tenant's path): another relying party, so no such credential.
    const onService = await loginPage(scope);
    expect(webauthnFormOf(onService.page).options).toMatchObject({ rpId });
    const refusedOnService = await answer(onService.flow.jar, onService.page, key.assert(webauthnFormOf(onService.page).options, issuer));
    expect(refusedOnService.status).toBe(400);
    expect(refusedOnService.body).toContain('That passkey did not sign you in.');

    // A key of the service's host signs in there, and is unknown on the domain.
    const serviceKey = await giveKey(scope, userId);
    const home = await loginPage(scope);
    const signedIn = await answer(home.flow.jar, home.page, serviceKey.assert(webauthnFormOf(home.page).options, issuer));
    expect(await idToken(scope, home.flow, signedIn)).toMatchObject({ sub: userId, iss: `${issuer}/t/${tenant}` });
    const away = await loginPage(onDomain, new CookieJar(via));
    const refusedOnDomain = await answer(away.flow.jar, away.page, serviceKey.assert(webauthnFormOf(away.page).options, domain));
    expect(refusedOnDomain.status).toBe(400);
    expect(refusedOnDomain.body).toContain('That passkey did not sign you in.');
    const reasons = (await signInRecords(application.applicationId, 'user.sign_in_failed')).map((record) => record.after['reason']);
    expect(reasons).toEqual(['unknown_credential', 'unknown_credential']);
  });
});

describe('a key of another host as the second factor', () => {
  const DOMAIN_HOST = 'login.elsewhere.example';
  const domain = `http://${DOMAIN_HOST}`;
  const RECOVERY_CODE = 'abcde-fghjk';
  const domainJar = () => new CookieJar(fetchVia(app.baseUrl));
  const setPolicy = async (scope: Scope, enforcement: 'optional' | 'required') =>
    expect((await scope.admin.put('/policies/mfa', { enforcement, factors: ['webauthn', 'totp'] })).status).toBe(200);
  // The application's own custom domain, and its service's host (the RP ID `rpId`).
  let home: Scope;
  let away: Scope;

  beforeAll(async () => {
    home = await passkeyScope();
    away = await atDomain(home, DOMAIN_HOST);
  });

  it('optional: the holder of a key of the service’s host is challenged on the domain, where nothing lets them through; the key proves the step on its own host', async () => {
    await setPolicy(home, 'optional');
    const userId = await createPasswordUser(home.admin, 'keyholder@example.com');
    const key = await giveKey(home, userId);

    // No recovery code left: the page says where the key works, and offers no form at all (no enrolment either).
    const stranded = (await passwordThenStep(away, 'keyholder@example.com', 'webauthn', domainJar())).step;
    expect(stranded.status).toBe(200);
    expect(stranded.body).toContain(`Your passkey or security key works only on ${rpId}, where it was added: sign in there with it.`);
    expect(stranded.body).not.toContain('<form');
    expect(stranded.body).not.toContain('Set up two-step verification');

    const { flow, step } = await passwordThenStep(home, 'keyholder@example.com');
    expect(step.body).not.toContain('works only on');
    const { options } = webauthnFormOf(step);
    expect(options['allowCredentials']).toEqual([{ id: key.id, type: 'public-key', transports: [] }]);
    const done = await answer(flow.jar, step, key.assert(options, issuer));
    expect(await idToken(home, flow, done)).toMatchObject({ sub: userId, amr: ['pwd', 'hwk', 'mfa'] });
  });

  it('required: on the domain the holder of a key of the service’s host is challenged, never enrolled; forms not offered change nothing, a recovery code gets through', async () => {
    await setPolicy(home, 'required');
    const userId = await createPasswordUser(home.admin, 'keyholder2@example.com');
    await giveKey(home, userId);
    await giveRecoveryCode(home, userId, RECOVERY_CODE);
    const { flow, step } = await passwordThenStep(away, 'keyholder2@example.com', 'totp', domainJar());
    expect(step.status).toBe(200);
    expect(step.body).not.toContain('Set up two-step verification');
    expect(step.body).not.toContain('otpauth://');
    expect(step.body).not.toContain('data-webauthn');
    expect(step.body).toContain('Enter one of the recovery codes you saved.');
    expect(step.body).toContain(`Your passkey or security key works only on ${rpId}, where it was added: use it when you sign in there.`);

    // An authenticator app or a key of the visitor's own, an e-mail code: not offered, so back to the step.
    const stepUrl = new URL(step.url);
    const notOffered: Record<string, string>[] = [
      { method: 'totp', code: '123456', enrol: 'forged' },
      { method: 'webauthn', credential: 'cancelled', name: 'Mine' },
      { method: 'email_otp', action: 'send' },
    ];
    for (const values of notOffered) {
      const refused = await flow.jar.submit(step, values);
      expect(refused.status, values.method).toBe(303);
      expect(refused.location, values.method).toBe(`${stepUrl.origin}${stepUrl.pathname}`);
    }
    const wrong = await flow.jar.submit(step, { code: 'zzzzz-zzzzz' });
    expect(wrong.status).toBe(400);
    expect(await app.sql('select kind from mfa_factor where user_id = ?', [userId])).toEqual([]);
    expect(await app.sql('select 1 from mfa_email_code where user_id = ?', [userId])).toEqual([]);
    expect(await app.sql('select rp_id from webauthn_credential where user_id = ?', [userId])).toEqual([{ rp_id: rpId }]);
    expect(await app.sql(`select 1 from audit_log where target_id = ? and action = 'user.mfa.enrolled'`, [userId])).toEqual([]);

    const done = await flow.jar.submit(wrong, { code: RECOVERY_CODE });
    expect(await idToken(away, flow, done)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'], iss: domain });
  });

  it('an authenticator app and a key of the service’s host: on the domain the app and a recovery code are offered, not the key', async () => {
    await setPolicy(home, 'optional');
    const userId = await createPasswordUser(home.admin, 'both@example.com');
    await giveKey(home, userId);
    const secret = await giveTotp(home, userId);
    const { flow, step } = await passwordThenStep(away, 'both@example.com', 'webauthn', domainJar());
    expect(step.body).not.toContain('data-webauthn');
    expect(step.body).toContain('Enter the 6-digit code your authenticator app shows');
    expect(step.body).toContain('Use a recovery code');
    expect(step.body).not.toContain('Use a passkey or security key');
    const done = await flow.jar.submit(step, { code: codeAt(secret) });
    expect(await idToken(away, flow, done)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'] });
  });

  it('a key of the domain proves the step there; on the service’s host its holder is challenged and told where it works', async () => {
    await setPolicy(home, 'required');
    const userId = await createPasswordUser(home.admin, 'domainkey@example.com');
    const key = await giveKey(home, userId, new SoftAuthenticator(), DOMAIN_HOST);
    const { flow, step } = await passwordThenStep(away, 'domainkey@example.com', 'webauthn', domainJar());
    const { ceremony, options } = webauthnFormOf(step);
    expect({ ceremony, options }).toMatchObject({ ceremony: 'get', options: { rpId: DOMAIN_HOST } });
    const done = await answer(flow.jar, step, key.assert(options, domain));
    expect(await idToken(away, flow, done)).toMatchObject({ sub: userId, amr: ['pwd', 'hwk', 'mfa'], iss: domain });

    const atHome = (await passwordThenStep(home, 'domainkey@example.com')).step;
    expect(atHome.body).toContain(`Your passkey or security key works only on ${DOMAIN_HOST}, where it was added`);
    expect(atHome.body).not.toContain('Set up two-step verification');
    expect(atHome.body).not.toContain('data-webauthn');
  });

  it('the account page on the domain counts a key of the service’s host: listed, with the recovery codes; under required the app may go as the key stays', async () => {
    await setPolicy(home, 'required');
    const userId = await createPasswordUser(home.admin, 'pager@example.com');
    await giveKey(home, userId);
    const secret = await giveTotp(home, userId);
    await giveRecoveryCode(home, userId, RECOVERY_CODE);
    const { jar, page } = await openAccount(away, 'pager@example.com', domain, domainJar(), { code: codeAt(secret) });
    expect(page.body).toContain('<li>Passkey or security key</li>');
    expect(page.body).toContain('<li>Authenticator app</li>');
    expect(page.body).toContain('You have 1 unused recovery code.');

    const removeForm = [...page.body.matchAll(/<form\b[^>]*method="post"[\s\S]*?<\/form>/g)].map(([html]) => readForm(page.url, html)).find((form) => form.action.endsWith('/account/mfa-remove'));
    const [totp] = await app.sql<{ id: string }>(`select id from mfa_factor where user_id = ?`, [userId]);
    const removed = await jar.visit(removeForm!.action, { form: { ...removeForm!.fields, factor: totp!.id, remove_password: PASSWORD } });
    expect(removed.status, removed.body.slice(-1500)).toBe(303);
    expect(await app.sql('select 1 from mfa_factor where user_id = ?', [userId])).toEqual([]);
    const shown = await jar.visit(removed.location!);
    expect(shown.body).toContain('<li>Passkey or security key</li>');
    expect(shown.body).not.toContain('You have no second step yet.');
    expect(shown.body).toContain('You have 1 unused recovery code.');
  });
});
