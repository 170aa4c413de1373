import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { askedForLock } from '../../src/domain/email/flow-mail.ts';
import { recoveryCodeHash } from '../../src/domain/mfa/codes.ts';
import { RefusalTiming } from '../../src/domain/sign-in/refusal-timing.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type TestApp } from '../support/app.ts';
import { CookieJar, readForm, type Visit } from '../support/cookie-jar.ts';
import { accountFormOf, accountPageUrl, askEmailChange, openAccountPage, postAccountForm, settleWithin } from '../support/account-page.ts';
import { addDomain } from '../support/domains.ts';
import { accountLinkOf, csrfOf, emailFormAction, issuedLink, magicLinkOf, mails } from '../support/email-sign-in.ts';
import { fetchVia } from '../support/host-fetch.ts';
import { HttpClient } from '../support/http.ts';
import { codeAuthorizationUrl, createTestClient, discover, OFFLINE_CONSENT, startAuthorization, type TestClient } from '../support/oauth.ts';
import { totpCodeAt as codeAt, giveTotp, withTimeLeftInStep } from '../support/totp.ts';
import { usingEmbeddedDatabase } from '../support/database.ts';
import { queuedBehind } from '../support/row-lock.ts';
import { changedAtWrite, changedInTurn, suspendedAtWrite, suspendedInTurn } from '../support/suspend-trigger.ts';
import { newId } from '../../src/ids.ts';
import { sweepExpiredFlowRows } from '../../src/domain/sign-in/expired-rows.ts';
import { issueTestKey } from '../support/keys.ts';
import { USE_TTL_KEY } from '../../src/db/oidc-model.ts';
import { createPasswordUser, PASSWORD } from '../support/users.ts';
import { giveKey } from '../support/webauthn.ts';
import { REDIRECT_URI, startHostedTestApp } from '../support/hosted-app.ts';

/**
 * The hosted account page (`/account?client_id=…`): reached signed out, it signs in through the client's own
 * authorization request and comes back; there the user changes their name and password (current password, policy,
 * history) and signs out elsewhere. The password policy's maxAge forces a change at sign-in, an isolated tenant's
 * policy for its own users only; historyCount applies on every path that sets a password.
 */
const NEW_PASSWORD = 'Battery-Staple-42';

let app: TestApp;
let issuer: string;
let clientId: string;

beforeAll(async () => {
  let client: TestClient;
  ({ app, issuer, client } = await startHostedTestApp());
  clientId = client.clientId;
  // The root application keeps a user's last 2 passwords.
  expect((await app.http.put('/policies/password', { historyCount: 2 })).status).toBe(200);
});
afterAll(async () => app?.close());


const createUser = (email: string, http = app.http, path = '/users') => createPasswordUser(http, email, path, { name: 'Kim' });

const settle = (jar: CookieJar, visit: Visit, base = issuer): Promise<Visit> => settleWithin(jar, visit, base);

const CODE_AT_CLIENT = /^https:\/\/app\.example\/callback\?code=/;

const accountUrl = (base = issuer, id = clientId, query: Record<string, string> = {}) => accountPageUrl(base, id, query);

/** The account page opened signed out: the sign-in it starts, signed in with `password`, back on the page. */
const openAccount = (email: string, password = PASSWORD, jar = new CookieJar(), url = accountUrl()) => openAccountPage(url, email, password, jar);

/** Moves when the user's browser sessions say they signed in (epoch seconds). */
const signedInAt = (userId: string, loginTs: number) =>
  app.sql(`update oidc_model set payload = jsonb_set(payload, '{loginTs}', to_jsonb(?::bigint)) where model = 'Session' and payload->>'accountId' = ?`, [loginTs, userId]);
/** Moves when they were last used (epoch seconds): the lifetime that use gave them then reaches their stored end. */
const lastUsedAt = (userId: string, usedAt: number) =>
  app.sql(`update oidc_model set payload = jsonb_set(payload, '{${USE_TTL_KEY}}', to_jsonb((payload->>'exp')::bigint - ?::bigint)) where model = 'Session' and payload->>'accountId' = ?`, [usedAt, userId]);
const daysAgo = (days: number) => Math.floor(Date.now() / 1000) - days * 24 * 3600;

/** The form of the page that posts to `path` (a section's). */
const formOf = accountFormOf;
const post = postAccountForm;

/** A sign-in of `email` through the client's ordinary authorization request: where the browser ends (the client's redirect, or a page). */
async function signIn(email: string, password: string, jar = new CookieJar(), base = issuer, id = clientId, parameters: Record<string, string> = {}) {
  const page = await settle(jar, await jar.visit(codeAuthorizationUrl(base, id, REDIRECT_URI, parameters)));
  expect(page.status, page.body).toBe(200);
  return { jar, answer: await settle(jar, await jar.submit(page, { email, password })) };
}

/** The TOTP secret the account page offers (its key, shown as text). */
const offeredSecret = (page: Visit) => /Key: <code>([A-Z2-7 ]+)<\/code>/.exec(page.body)![1]!.replaceAll(' ', '');
const shownCodes = (page: Visit) => [...page.body.matchAll(/<li><code>([a-z2-9-]+)<\/code><\/li>/g)].map((match) => match[1]!);

const recoveryCodesOf = (userId: string) => app.sql(`select code_hash from mfa_recovery_code where user_id = ? order by code_hash`, [userId]);
/** `posts` wait behind the user's row, locked by a transaction that runs `change` and commits. A race of two connections:
 *  its tests skip the embedded database, which has one, where this order cannot happen. */
const behindUserRow = (userId: string, change: string, posts: (() => Promise<Visit>)[]) =>
  queuedBehind(app.gatehouse.services.orm, { table: 'app_user', applicationId: app.root.applicationId, id: userId }, {
    lock: 'update',
    beforeCommit: (em: EntityManager) => em.execute(`update app_user set ${change} where id = ?`, [userId]),
  }, posts);

const factorsOf = (userId: string) => app.sql<{ id: string; kind: string }>(`select id, kind from mfa_factor where user_id = ? order by kind`, [userId]);

const auditActions = async (userId: string) =>
  (await app.sql<{ action: string }>(`select action from audit_log where target_id = ? and action like 'user.%' order by id`, [userId])).map((row) => row.action);

/** The user's sessions as the management API lists them, by id. */
const apiSessions = async (userId: string) =>
  ((await app.http.get(`/users/${userId}/sessions`)).body.data as { id: string; tenantId: string | null }[]).sort((a, b) => a.id.localeCompare(b.id));

/** Each ended session's `session.revoked`, by session id: what the user's own page ended is theirs to have done. */
const revocationsOf = (userId: string) =>
  app.sql<{ target_id: string; actor_type: string; actor_id: string; tenant_id: string | null; before: unknown; after: unknown }>(
    `select target_id, actor_type, actor_id, tenant_id, before, after from audit_log where action = 'session.revoked' and before->>'userId' = ? order by target_id`,
    [userId],
  );
const revokedAs = (userId: string, sessions: readonly { id: string; tenantId: string | null }[], reason: string) =>
  sessions.map((session) => ({ target_id: session.id, actor_type: 'user', actor_id: userId, tenant_id: session.tenantId, before: session, after: { reason, grantsRevoked: 1 } }));

describe('reaching the page', () => {
  it('signed out, it signs in through the client and comes back; the code never reaches the client', async () => {
    await createUser('ada@example.com');
    const jar = new CookieJar();
    const { page } = await openAccount('ada@example.com', PASSWORD, jar);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>Your account</h1>');
    expect(page.body).toContain('ada@example.com');
    for (const section of ['name', 'password', 'sessions']) expect(page.body).toContain(`<h2 id="${section}-title">`);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    // Opened again, it is shown at once.
    const again = await jar.visit(accountUrl());
    expect(again.status).toBe(200);
  });

  it.each([
    // Past the policy's absolute end (30 days), though its idle end was saved days ahead.
    { ended: 'signed in 31 days ago', email: 'lapsed@example.com', move: (userId: string) => signedInAt(userId, daysAgo(31)) },
    // Past the idle time (3 days), its sign-in well within the absolute end: as a policy made stricter since its last use.
    { ended: 'unused for 4 days', email: 'idle@example.com', move: (userId: string) => lastUsedAt(userId, daysAgo(4)) },
  ])('a browser session the session policy has ended ($ended) opens no page: it is signed in again, as the OP asks, and its forms change nothing', async ({ email, move }) => {
    const userId = await createUser(email);
    const jar = new CookieJar();
    const { page } = await openAccount(email, PASSWORD, jar);
    await move(userId);
    const silent = await jar.visit(codeAuthorizationUrl(issuer, clientId, REDIRECT_URI, { prompt: 'none' }));
    expect(new URL(silent.location!).searchParams.get('error')).toBe('login_required');
    const again = await jar.visit(accountUrl());
    expect(again.status, again.body).toBe(303);
    expect(again.location).toContain('response_mode=gatehouse_account');
    expect((await post(jar, page, 'name', { name: 'Taken Over' })).status).toBe(403);
    const [row] = await app.sql<{ name: string | null }>('select name from app_user where id = ?', [userId]);
    expect(row!.name).toBe('Kim');
  });

  it('a sign-in refused on the way is said, not started again; an unknown client has no page', async () => {
    const refused = await new CookieJar().visit(accountUrl(issuer, clientId, { error: 'access_denied' }));
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('The sign-in to your account page was not completed.');
    for (const id of ['00000000-0000-7000-8000-000000000000', 'not-a-client']) {
      const unknown = await new CookieJar().visit(accountUrl(issuer, id));
      expect(unknown.status).toBe(404);
      expect(unknown.body).toContain('There is no account page for this application here.');
    }
  });

  it('the response mode gatehouse_account is the account page’s own request only: any other is unsupported_response_mode at the redirect URI', async () => {
    const SECOND_URI = 'https://app.example/second';
    const client = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI, SECOND_URI] });
    const jar = new CookieJar();
    const own = await jar.visit(accountUrl(issuer, client.clientId));
    expect(own.location).toContain('response_mode=gatehouse_account');
    const started = await jar.visit(own.location!);
    expect(started.status).toBe(303);
    expect(new URL(started.location!, issuer).pathname).toMatch(/^\/interaction\//);
    const accountMode = { response_mode: 'gatehouse_account', prompt: 'login' };
    for (const [uri, parameters] of [
      [SECOND_URI, accountMode],
      [REDIRECT_URI, { response_mode: 'gatehouse_account' }],
      [REDIRECT_URI, { ...accountMode, prompt: 'consent' }],
    ] as const) {
      const refused = await new CookieJar().visit(codeAuthorizationUrl(issuer, client.clientId, uri, { ...parameters, state: 's' }));
      expect(refused.status, JSON.stringify(parameters)).toBe(303);
      const answer = new URL(refused.location!);
      expect(`${answer.origin}${answer.pathname}`).toBe(uri);
      expect(answer.searchParams.get('error')).toBe('unsupported_response_mode');
      expect(answer.searchParams.get('state')).toBe('s');
    }
  });

  it('a client without a redirect URI (a device, M2M) has no page, also for a browser signed in through another client', async () => {
    const device = await createTestClient(app, { type: 'device', authMethod: 'none' });
    const page = await new CookieJar().visit(accountUrl(issuer, device.clientId));
    expect(page.status).toBe(404);
    await createUser('no-redirect@example.com');
    const { jar, page: own } = await openAccount('no-redirect@example.com');
    const m2m = await createTestClient(app, { type: 'm2m' });
    for (const id of [device.clientId, m2m.clientId]) {
      const shown = await jar.visit(accountUrl(issuer, id));
      expect(shown.status).toBe(404);
      expect(shown.body).toContain('There is no account page for this application here.');
      // Its form, the page's own with the client named: refused, nothing changed.
      const form = formOf(own, 'name');
      const posted = await jar.visit(form.action, { form: { ...form.fields, client_id: id, name: 'Renamed' } });
      expect(posted.status).toBe(404);
    }
    const [row] = await app.sql<{ name: string | null }>(`select name from app_user where email = 'no-redirect@example.com'`);
    expect(row!.name).toBe('Kim');
  });
});

describe('name', () => {
  it('is changed and audited; a name the rules refuse changes nothing', async () => {
    const userId = await createUser('bo@example.com');
    const { jar, page } = await openAccount('bo@example.com');
    const saved = await post(jar, page, 'name', { name: 'Bo Peep' });
    expect(saved.status).toBe(303);
    const shown = await jar.visit(saved.location!);
    expect(shown.body).toContain('Your name is saved.');
    expect(shown.body).toContain('value="Bo Peep"');
    expect((await app.http.get(`/users/${userId}`)).body.name).toBe('Bo Peep');

    const refused = await post(jar, shown, 'name', { name: 'Bo\u0000' });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('Name must not contain control characters.');
    // In the browser's language, each of the rules' reasons.
    const german = await post(jar, shown, 'name', { name: '\u202Eevil' }, { 'accept-language': 'de' });
    expect(german.status).toBe(400);
    expect(german.body).toContain('<p id="name-error" class="error" role="alert">Der Name darf keine Steuerzeichen für die Schreibrichtung enthalten.</p>');
    const spanish = await post(jar, shown, 'name', { name: 'x'.repeat(201) }, { 'accept-language': 'es' });
    expect(spanish.body).toContain('El nombre debe tener entre 1 y 200 caracteres.');
    expect((await app.http.get(`/users/${userId}`)).body.name).toBe('Bo Peep');
    const [record] = await app.sql<{ actor_type: string; actor_id: string; before: unknown; after: unknown }>(
      `select actor_type, actor_id, before, after from audit_log where target_id = ? and action = 'user.name.changed'`,
      [userId],
    );
    expect(record).toMatchObject({ actor_type: 'user', actor_id: userId, before: { name: 'Kim' }, after: { name: 'Bo Peep' } });
  });
});

describe('password', () => {
  it('needs the current password, meets the policy and the history; changing it ends the other sessions, keeps this one and mails password_changed', async () => {
    const userId = await createUser('cy@example.com');
    const elsewhere = await signIn('cy@example.com', PASSWORD);
    expect(elsewhere.answer.location).toMatch(CODE_AT_CLIENT);
    const others = await apiSessions(userId);
    expect(others).toHaveLength(1);
    const { jar, page } = await openAccount('cy@example.com');
    const hash = async () => (await app.sql<{ password_hash: string }>('select password_hash from app_user where id = ?', [userId]))[0]!.password_hash;
    const before = await hash();

    const wrong = await post(jar, page, 'password', { current_password: 'Not-The-One-1', new_password: NEW_PASSWORD });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('The current password is incorrect.');
    const weak = await post(jar, page, 'password', { current_password: PASSWORD, new_password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body).toContain('Password must be at least');
    const same = await post(jar, page, 'password', { current_password: PASSWORD, new_password: PASSWORD });
    expect(same.status).toBe(400);
    expect(same.body).toContain('Password must not be one of the last 2 passwords.');
    expect(await hash()).toBe(before);

    const changed = await post(jar, page, 'password', { current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(changed.status).toBe(303);
    const shown = await jar.visit(changed.location!);
    expect(shown.status).toBe(200);
    expect(shown.body).toContain('Your password is changed');
    // The other browser is signed out: its page starts a sign-in; this one's stays.
    expect((await elsewhere.jar.visit(accountUrl())).status).toBe(303);
    expect((await jar.visit(accountUrl())).status).toBe(200);
    const [mail] = await app.sql<{ template_key: string }>(`select template_key from email_delivery where to_address = ? and template_key = 'password_changed'`, ['cy@example.com']);
    expect(mail).toBeDefined();
    expect(await auditActions(userId)).toContain('user.password.changed');
    expect(await auditActions(userId)).not.toContain('user.sessions.ended');
    expect(await revocationsOf(userId)).toEqual(revokedAs(userId, others, 'password_changed'));

    // The previous password is in the history (2): not again, here nor through the management API.
    const back = await post(jar, shown, 'password', { current_password: NEW_PASSWORD, new_password: PASSWORD });
    expect(back.status).toBe(400);
    expect(back.body).toContain('Password must not be one of the last 2 passwords.');
    const viaApi = await app.http.patch(`/users/${userId}`, { password: PASSWORD });
    expect(viaApi.status).toBe(422);
    expect(viaApi.body.details).toEqual([{ code: 'history', message: 'must not be one of the last 2 passwords' }]);
    // Refused by the policy already, a password is not verified against the history (an Argon2 check per password).
    expect((await app.http.put('/policies/password', { historyCount: 2, minLength: PASSWORD.length + 1 })).status).toBe(200);
    const short = await app.http.patch(`/users/${userId}`, { password: PASSWORD });
    expect((await app.http.put('/policies/password', { historyCount: 2 })).status).toBe(200);
    expect(short.body.details).toEqual([{ code: 'min_length', message: `must be at least ${PASSWORD.length + 1} characters long` }]);
    // The new password signs in.
    expect((await signIn('cy@example.com', NEW_PASSWORD)).answer.location).toMatch(CODE_AT_CLIENT);
  });

  it('a form without the current password field is refused like a wrong one, and changes nothing', async () => {
    const userId = await createUser('ce@example.com');
    const elsewhere = await signIn('ce@example.com', PASSWORD);
    const { jar, page } = await openAccount('ce@example.com');
    const hash = async () => (await app.sql<{ password_hash: string }>('select password_hash from app_user where id = ?', [userId]))[0]!.password_hash;
    const before = await hash();
    const form = formOf(page, 'password');
    const { current_password: omitted, ...fields } = form.fields;
    expect(omitted).toBe('');
    const refused = await jar.visit(form.action, { form: { ...fields, new_password: NEW_PASSWORD } });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('The current password is incorrect.');
    expect(await hash()).toBe(before);
    // Nothing ended: the other browser is still signed in, and the password is the old one.
    expect((await elsewhere.jar.visit(accountUrl())).status).toBe(200);
    expect((await signIn('ce@example.com', PASSWORD)).answer.location).toMatch(CODE_AT_CLIENT);
    expect(await auditActions(userId)).not.toContain('user.password.changed');
  });

  it('a reset link refuses a password of the history too', async () => {
    const userId = await createUser('di@example.com');
    const resetLink = await issuedLink(app, userId, clientId, issuer);
    const jar = new CookieJar();
    const form = await jar.visit(resetLink);
    expect(form.status).toBe(200);
    const refused = await jar.submit(form, { password: PASSWORD });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('Password must not be one of the last 2 passwords.');
    const accepted = await jar.submit(form, { password: NEW_PASSWORD });
    expect(accepted.status).toBe(200);
    // The page of the change leads to the account page, which signs in with the new password.
    const link = /<a href="([^"]+)">Manage your account<\/a>/.exec(accepted.body)?.[1]?.replaceAll('&amp;', '&');
    expect(link).toBe(`/account?client_id=${clientId}`);
    const { page } = await openAccount('di@example.com', NEW_PASSWORD, new CookieJar(), new URL(link!, issuer).href);
    expect(page.status).toBe(200);
  });
});

describe('e-mail address', () => {
  const emailOf = async (userId: string) =>
    (await app.sql<{ email: string; email_verified: boolean }>('select email, email_verified from app_user where id = ?', [userId]))[0]!;
  const askChange = askEmailChange;

  it('needs the current password and a new address; the link mailed to it changes the address, verified, once it is confirmed, and works once', async () => {
    const userId = await createUser('em@example.com');
    const { jar, page } = await openAccount('em@example.com');
    // Unproven since (as after a tenant administrator's change of address, which it vouched for): the link proves the new one.
    const voucher = await app.createTenant('Em Voucher');
    await app.sql(`update app_user set email_verified = false, vouched_by_tenant_id = ? where id = ?`, [voucher, userId]);
    expect(page.body).toContain('<h2 id="email-title">Email address</h2>');

    const wrong = await askChange(jar, page, 'em.new@example.com', 'Not-The-One-1');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('The current password is incorrect.');
    // The field at fault is marked; the address stays as typed.
    expect(wrong.body).toMatch(/<input id="new_email"[^>]*value="em\.new@example\.com"(?![^>]*aria-invalid)[^>]*>/);
    expect(wrong.body).toMatch(/<input id="email_password"[^>]*aria-invalid="true"[^>]*>/);
    const { email_password: omitted, ...fields } = formOf(page, 'email').fields;
    expect(omitted).toBe('');
    const withoutPassword = await jar.visit(formOf(page, 'email').action, { form: { ...fields, new_email: 'em.new@example.com' } });
    expect(withoutPassword.body).toContain('The current password is incorrect.');
    const notAnAddress = await askChange(jar, page, 'em.new-at-example.com');
    expect(notAnAddress.status).toBe(400);
    expect(notAnAddress.body).toContain('Enter an email address like name@example.com.');
    expect(notAnAddress.body).toMatch(/<input id="new_email"[^>]*aria-invalid="true" autofocus>/);
    expect(notAnAddress.body).toMatch(/<input id="email_password"(?![^>]*aria-invalid)[^>]*>/);
    const same = await askChange(jar, page, ' EM@Example.com ');
    expect(same.status).toBe(400);
    expect(same.body).toContain('This is your email address already.');
    expect(await mails(app.http, 'em.new@example.com', 'email_change')).toEqual([]);

    const asked = await askChange(jar, page, ' em.new@example.com ');
    expect(asked.status).toBe(303);
    expect((await jar.visit(asked.location!)).body).toContain('Open the link we sent to the new address to change yours.');
    // Nothing changes until the new address's owner opens the link.
    expect(await emailOf(userId)).toEqual({ email: 'em@example.com', email_verified: false });
    const link = await accountLinkOf(app.http, 'em.new@example.com', 'email_change');
    expect(link.startsWith(`${issuer}/account/confirm-email?token=`)).toBe(true);
    const [mail] = await mails(app.http, 'em.new@example.com', 'email_change');
    expect(mail!.text).toContain('Confirm that em.new@example.com should replace em@example.com as your sign-in address. The link expires in 1 hour.');

    // Another surface's pages refuse it; opened, it asks first (a mail scanner changes nothing).
    const tenant = await app.createTenant('Em Tenant');
    expect((await new CookieJar().visit(link.replace('/account/', `/t/${tenant}/account/`))).status).toBe(400);
    const opener = new CookieJar();
    const confirm = await opener.visit(link);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain('from em@example.com to em.new@example.com');
    expect(await emailOf(userId)).toEqual({ email: 'em@example.com', email_verified: false });
    const changed = await opener.submit(confirm, {});
    expect(changed.status).toBe(200);
    expect(changed.body).toContain('Your email address is changed');
    expect(await emailOf(userId)).toEqual({ email: 'em.new@example.com', email_verified: true });
    // Its owner's proof: no tenant's word for the address is left to weigh.
    expect((await app.sql<{ vouched_by_tenant_id: string | null }>('select vouched_by_tenant_id from app_user where id = ?', [userId]))[0]!.vouched_by_tenant_id).toBeNull();
    const [record] = await app.sql<{ actor_type: string; actor_id: string; before: unknown; after: unknown }>(
      `select actor_type, actor_id, before, after from audit_log where target_id = ? and action = 'user.email.changed'`,
      [userId],
    );
    expect(record).toEqual({ actor_type: 'user', actor_id: userId, before: { email: 'em@example.com' }, after: { email: 'em.new@example.com', emailVerified: true } });
    expect((await opener.submit(confirm, {})).status).toBe(400);

    // The new address signs in, the old one no longer; the page that stayed open shows the new one.
    expect((await signIn('em.new@example.com', PASSWORD)).answer.location).toMatch(CODE_AT_CLIENT);
    expect((await signIn('em@example.com', PASSWORD)).answer.location).toBeUndefined();
    expect((await jar.visit(accountUrl())).body).toContain('em.new@example.com');
  });

  it('past the new address’s mail limit, a change asked writes nothing: the link mailed before still changes the address', async () => {
    const capped = await startHostedTestApp({ mailsPerAddressPerHour: 1 });
    try {
      const userId = await createUser('cap@example.com', capped.app.http);
      const { jar, page } = await openAccount('cap@example.com', PASSWORD, new CookieJar(), accountUrl(capped.issuer, capped.client.clientId));
      expect((await askChange(jar, page, 'cap.new@example.com')).status).toBe(303);
      const link = await accountLinkOf(capped.app.http, 'cap.new@example.com', 'email_change');
      // Asked again (anyone knowing the password could): answered alike, nothing mailed, the first link not ended.
      expect((await askChange(jar, page, 'cap.new@example.com')).status).toBe(303);
      expect(await mails(capped.app.http, 'cap.new@example.com', 'email_change')).toHaveLength(1);
      const [live] = await capped.app.sql<{ n: number }>(`select count(*)::int as n from email_link_token where used_at is null and expires_at > now()`);
      expect(live!.n).toBe(1);
      const opener = new CookieJar();
      expect((await opener.submit(await opener.visit(link), {})).body).toContain('Your email address is changed');
      const [user] = await capped.app.sql<{ email: string }>('select email from app_user where id = ?', [userId]);
      expect(user!.email).toBe('cap.new@example.com');
    } finally {
      await capped.close();
    }
  });

  it('a new password ends an address change still pending, whoever sets it: the account page, a reset link, an administrator', async () => {
    const setters: Record<string, (email: string, userId: string) => Promise<void>> = {
      page: async (email) => {
        const { jar, page } = await openAccount(email);
        expect((await post(jar, page, 'password', { current_password: PASSWORD, new_password: NEW_PASSWORD })).status).toBe(303);
        // The reset link of the password_changed mail, the owner's way back, is the one link left working.
        expect((await new CookieJar().visit(await accountLinkOf(app.http, email, 'password_changed'))).status).toBe(200);
      },
      reset: async (_email, userId) => {
        const jar = new CookieJar();
        expect((await jar.submit(await jar.visit(await issuedLink(app, userId, clientId, issuer)), { password: NEW_PASSWORD })).status).toBe(200);
      },
      admin: async (_email, userId) => expect((await app.http.patch(`/users/${userId}`, { password: NEW_PASSWORD })).status).toBe(200),
    };
    for (const [how, setPassword] of Object.entries(setters)) {
      const email = `pending-${how}@example.com`;
      const userId = await createUser(email);
      const { jar, page } = await openAccount(email);
      expect((await askChange(jar, page, `taker-${how}@example.com`)).status).toBe(303);
      const link = await accountLinkOf(app.http, `taker-${how}@example.com`, 'email_change');
      await setPassword(email, userId);
      expect((await new CookieJar().visit(link)).status, how).toBe(400);
      expect(await emailOf(userId), how).toMatchObject({ email });
    }
  });

  it('an address another account holds is answered alike and mailed nothing; taken before the link is used, the link changes nothing', async () => {
    const userId = await createUser('fa@example.com');
    await createUser('fb@example.com');
    const { jar, page } = await openAccount('fa@example.com');
    const held = await askChange(jar, page, 'FB@example.com');
    expect(held.status).toBe(303);
    expect(held.location).toContain('done=email');
    expect(await mails(app.http, 'FB@example.com', 'email_change')).toEqual([]);
    expect(await mails(app.http, 'fb@example.com', 'email_change')).toEqual([]);

    expect((await askChange(jar, page, 'fc@example.com')).status).toBe(303);
    const link = await accountLinkOf(app.http, 'fc@example.com', 'email_change');
    await createUser('FC@example.com');
    const opener = new CookieJar();
    const refused = await opener.submit(await opener.visit(link), {});
    expect(refused.status).toBe(409);
    expect(refused.body).toContain('This address belongs to another account now: your email address is unchanged.');
    expect(await emailOf(userId)).toEqual({ email: 'fa@example.com', email_verified: true });
    expect(await auditActions(userId)).not.toContain('user.email.changed');
  });

  it('an address another account holds is answered after as long as mailing a link takes, so time does not tell it either', async () => {
    await createUser('ta@example.com');
    await createUser('tb@example.com');
    const { jar, page } = await openAccount('ta@example.com');
    // A held address writes and mails nothing: only the pad makes it take as long as a free one.
    const pad = vi.spyOn(RefusalTiming.prototype, 'pad');
    const measure = vi.spyOn(RefusalTiming.prototype, 'measure');
    try {
      expect((await askChange(jar, page, 'tc@example.com')).status).toBe(303);
      expect([measure.mock.calls.length, pad.mock.calls.length]).toEqual([1, 0]);
      expect((await askChange(jar, page, 'TB@example.com')).status).toBe(303);
      expect([measure.mock.calls.length, pad.mock.calls.length]).toEqual([1, 1]);
    } finally {
      pad.mockRestore();
      measure.mockRestore();
    }
  });

  it('the last address asked for is the one a link changes to; once changed, the links mailed to the old address stop working', async () => {
    const userId = await createUser('ga@example.com');
    const resetLink = await issuedLink(app, userId, clientId, issuer);
    const { jar, page } = await openAccount('ga@example.com');
    expect((await askChange(jar, page, 'gb@example.com')).status).toBe(303);
    const first = await accountLinkOf(app.http, 'gb@example.com', 'email_change');
    expect((await askChange(jar, page, 'gc@example.com')).status).toBe(303);
    const second = await accountLinkOf(app.http, 'gc@example.com', 'email_change');
    expect((await new CookieJar().visit(first)).status).toBe(400);
    expect((await new CookieJar().visit(resetLink)).status).toBe(200);

    const opener = new CookieJar();
    expect((await opener.submit(await opener.visit(second), {})).status).toBe(200);
    expect((await emailOf(userId)).email).toBe('gc@example.com');
    expect((await new CookieJar().visit(resetLink)).status).toBe(400);
  });

  it('asked on a shared-pool tenant’s page by its member alone, the link goes out in the tenant and opens in its look; a member of two tenants gets the application’s', async () => {
    const acme = await app.createTenant('Em Acme');
    const other = await app.createTenant('Em Other');
    expect((await app.http.patch(`/applications/${app.root.applicationId}`, { tenancyConfig: { brandingScope: 'tenant' } })).status).toBe(200);
    expect((await app.http.put(`/applications/${app.root.applicationId}/tenants/${acme}/branding`, { copy: { 'emailChange.title': 'ACME new address' } })).status).toBe(200);
    const deliveryOf = async (to: string) => {
      const [delivery, ...more] = (await app.http.get(`/email/deliveries?to=${to}&templateKey=email_change`)).body.data as { tenantId: string | null }[];
      expect(more).toEqual([]);
      return delivery!;
    };

    await createUser('ha@example.com', app.http, `/applications/${app.root.applicationId}/tenants/${acme}/users`);
    const alone = await openAccount('ha@example.com', PASSWORD, new CookieJar(), accountUrl(issuer, clientId, { tenant: acme }));
    expect((await askChange(alone.jar, alone.page, 'hb@example.com')).status).toBe(303);
    expect((await deliveryOf('hb@example.com')).tenantId).toBe(acme);
    const confirm = await new CookieJar().visit(await accountLinkOf(app.http, 'hb@example.com', 'email_change'));
    expect(confirm.body).toContain('<h1>ACME new address</h1>');

    const both = await createUser('hc@example.com', app.http, `/applications/${app.root.applicationId}/tenants/${acme}/users`);
    expect((await app.http.patch(`/users/${both}`, { tenantIds: [acme, other] })).status).toBe(200);
    const two = await openAccount('hc@example.com', PASSWORD, new CookieJar(), accountUrl(issuer, clientId, { tenant: acme }));
    expect((await askChange(two.jar, two.page, 'hd@example.com')).status).toBe(303);
    // The link changes the account's address in every tenant: neither tenant's outbox holds it.
    expect((await deliveryOf('hd@example.com')).tenantId).toBeNull();
    const plain = await new CookieJar().visit(await accountLinkOf(app.http, 'hd@example.com', 'email_change'));
    expect(plain.body).toContain('<h1>Change your email address</h1>');
  });
});

describe('an address change its owner did not make', () => {
  const emailOf = async (userId: string) =>
    (await app.sql<{ email: string; email_verified: boolean }>('select email, email_verified from app_user where id = ?', [userId]))[0]!;
  const askChange = askEmailChange;
  const RESET_LINK = /(http\S+\/account\/reset-password\?token=\S+)/;
  const INTRUDER_PASSWORD = 'Intruder-Horse-77';

  /** The change asked on the page `jar` holds, confirmed by the link mailed to `to` (whoever reads it). */
  async function moveTo(jar: CookieJar, page: Visit, to: string, password = PASSWORD): Promise<void> {
    expect((await askChange(jar, page, to, password)).status).toBe(303);
    const link = /(http\S+\/account\/confirm-email\?token=\S+)/.exec((await mails(app.http, to, 'email_change')).at(-1)!.text)![1]!;
    const opener = new CookieJar();
    expect((await opener.submit(await opener.visit(link), {})).status).toBe(200);
  }

  /** The one notice of a change mailed to `address` (the address the account left), and its restore link if it has one. */
  async function noticeTo(address: string): Promise<{ text: string; html: string; restore: string | undefined }> {
    const notices = (await mails(app.http, address, 'email_change')).filter((mail) => mail.text.includes('was changed from'));
    expect(notices).toHaveLength(1);
    const [notice] = notices;
    return { ...notice!, restore: RESET_LINK.exec(notice!.text)?.[1] };
  }

  it('the old address is told, with a link that gives the account back to whoever has that mailbox and the password it had: all an intruder added goes', async () => {
    const [email, taker] = ['prey@example.com', 'taker@example.com'];
    const userId = await createUser(email);
    // Whoever knows the password adds an authenticator app, then moves the account to their own mailbox.
    const { jar, page } = await openAccount(email);
    const added = await post(jar, page, 'mfa-totp', { totp_code: codeAt(offeredSecret(page)), totp_password: PASSWORD });
    expect(added.status).toBe(200);
    const [factorLink] = (await mails(app.http, email, 'mfa_enrolled')).map((mail) => RESET_LINK.exec(mail.text)![1]!);
    await moveTo(jar, added, taker);
    // The factor's link went to the old address and ended with it; the notice there carries the way back.
    expect((await new CookieJar().visit(factorLink!)).status).toBe(400);
    const notice = await noticeTo(email);
    expect(notice.text).toContain(`The sign-in address of your account was changed from ${email} to ${taker}`);
    expect(notice.text).toContain('open the link below within 72 hours');
    expect(notice.restore).toBeDefined();
    expect(notice.html).toContain(`href="${notice.restore!}"`);
    expect(await mails(app.http, taker, 'password_changed')).toEqual([]);

    // What the intruder does next takes none of it away: a second step (announced to their own mailbox), a new password
    // (whose notice brings a newer reset link), a forgot password.
    const shown = await jar.visit(accountUrl());
    const open = await jar.visit((await post(jar, shown, 'mfa-email-send', {})).location!);
    const code = /\b(\d{6})\b/.exec((await mails(app.http, taker, 'email_otp'))[0]!.text)![1]!;
    expect((await post(jar, open, 'mfa-email', { email_code: code, email_factor_password: PASSWORD })).status).toBe(303);
    const again = await jar.visit(accountUrl());
    expect((await post(jar, again, 'password', { current_password: PASSWORD, new_password: INTRUDER_PASSWORD })).status).toBe(303);
    expect((await factorsOf(userId)).map((factor) => factor.kind)).toEqual(['email_otp', 'totp']);

    // The owner: the page says what the link does, and asks the password the account had.
    const owner = new CookieJar();
    const form = await owner.visit(notice.restore!);
    expect(form.status).toBe(200);
    expect(form.body).toContain(`makes ${email} your sign-in address again in place of ${taker}`);
    expect(form.body).toContain('name="current"');
    expect(form.body).toContain(`name="username" autocomplete="username" value="${email}"`);
    const refused = await owner.submit(form, { current: INTRUDER_PASSWORD, password: NEW_PASSWORD });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('That is not the password your account had when this email was sent.');
    expect(await emailOf(userId)).toMatchObject({ email: taker });
    expect(await factorsOf(userId)).toHaveLength(2);

    const done = await owner.submit(form, { current: PASSWORD, password: NEW_PASSWORD });
    expect(done.status, done.body.slice(-800)).toBe(200);
    expect(done.body).toContain('Your account is back');
    expect(await emailOf(userId)).toEqual({ email, email_verified: true });
    expect(await factorsOf(userId)).toEqual([]);
    expect(await app.sql(`select 1 from mfa_recovery_code where user_id = ?`, [userId])).toEqual([]);
    // The intruder is signed out, and neither their address nor their password signs in; the owner's do, with no step
    // of the intruder's to pass.
    expect((await jar.visit(accountUrl())).status).toBe(303);
    expect((await signIn(taker, INTRUDER_PASSWORD)).answer.location).toBeUndefined();
    expect((await signIn(taker, NEW_PASSWORD)).answer.location).toBeUndefined();
    expect((await signIn(email, NEW_PASSWORD)).answer.location).toMatch(CODE_AT_CLIENT);
    // The intruder's mailbox is told, with no way back: the password that would prove it is the one just replaced.
    const told = await noticeTo(taker);
    expect(told.text).toContain(`was changed from ${taker} to ${email}`);
    expect(told.restore).toBeUndefined();
    expect(told.text).not.toContain('/account/');
    // Used, the link works no more; so does no reset link the intruder's mailbox got.
    expect((await new CookieJar().visit(notice.restore!)).status).toBe(400);
    for (const mail of await mails(app.http, taker, 'password_changed')) expect((await new CookieJar().visit(RESET_LINK.exec(mail.text)![1]!)).status).toBe(400);
    const records = await app.sql<{ action: string; actor_id: string; after: Record<string, unknown> }>(
      `select action, actor_id, after from audit_log where target_id = ? and action in ('user.email.changed', 'user.mfa.reset', 'user.password.reset') order by id`,
      [userId],
    );
    expect(records.map((record) => [record.action, record.actor_id, record.after['reason'] ?? null])).toEqual([
      ['user.email.changed', userId, null],
      ['user.email.changed', userId, 'address_restored'],
      ['user.mfa.reset', userId, 'address_restored'],
      ['user.password.reset', userId, null],
    ]);
  });

  it('an intruder who gives back their own earlier address takes none of the owner’s way back: the owner’s link, issued first, still works', async () => {
    const [email, first, second] = ['chain@example.com', 'chain-b@example.com', 'chain-c@example.com'];
    const userId = await createUser(email);
    const { jar, page } = await openAccount(email);
    await moveTo(jar, page, first);
    await moveTo(jar, await jar.visit(accountUrl()), second);
    const [owners, intruders] = [(await noticeTo(email)).restore!, (await noticeTo(first)).restore!];
    // The intruder knows the password the account had: their own link gives their first address back, and ends only
    // what was issued since.
    const intruder = new CookieJar();
    expect((await intruder.submit(await intruder.visit(intruders), { current: PASSWORD, password: INTRUDER_PASSWORD })).status).toBe(200);
    expect((await emailOf(userId)).email).toBe(first);
    const owner = new CookieJar();
    const form = await owner.visit(owners);
    expect(form.status).toBe(200);
    expect((await owner.submit(form, { current: PASSWORD, password: NEW_PASSWORD })).status).toBe(200);
    expect(await emailOf(userId)).toEqual({ email, email_verified: true });
    expect((await new CookieJar().visit(intruders)).status).toBe(400);
    expect((await signIn(email, NEW_PASSWORD)).answer.location).toMatch(CODE_AT_CLIENT);
  });

  it('the mailbox alone takes nothing back: five wrong passwords end the link, and nothing changes', async () => {
    const [email, taker] = ['kept-box@example.com', 'kept-box-taker@example.com'];
    const userId = await createUser(email);
    const { jar, page } = await openAccount(email);
    await moveTo(jar, page, taker);
    const holder = new CookieJar();
    const form = await holder.visit((await noticeTo(email)).restore!);
    for (const guess of ['', 'guess-2', 'guess-3', 'guess-4']) {
      const refused = await holder.submit(form, { current: guess, password: NEW_PASSWORD });
      expect(refused.status, guess).toBe(400);
      expect(refused.body).toContain('That is not the password your account had when this email was sent.');
    }
    expect((await holder.submit(form, { current: 'guess-5', password: NEW_PASSWORD })).body).not.toContain('name="current"');
    expect((await holder.submit(form, { current: PASSWORD, password: NEW_PASSWORD })).status).toBe(400);
    expect(await emailOf(userId)).toEqual({ email: taker, email_verified: true });
    expect((await signIn(taker, PASSWORD)).answer.location).toMatch(CODE_AT_CLIENT);
  });

  /** An intruder who knows the password changes it on the account page, then moves the account to `taker`. */
  async function intrude(email: string, taker: string): Promise<void> {
    const { jar, page } = await openAccount(email);
    expect((await post(jar, page, 'password', { current_password: PASSWORD, new_password: INTRUDER_PASSWORD })).status).toBe(303);
    await moveTo(jar, await jar.visit(accountUrl()), taker, INTRUDER_PASSWORD);
  }

  it('an intruder who changes the password before the address: the owner’s, replaced shortly before, still opens the link, and so does the one at the change; the mailbox alone, nothing', async () => {
    const [email, taker] = ['first-pw@example.com', 'first-pw-taker@example.com'];
    const userId = await createUser(email);
    await intrude(email, taker);
    const owner = new CookieJar();
    const form = await owner.visit((await noticeTo(email)).restore!);
    expect(form.status).toBe(200);
    const refused = await owner.submit(form, { current: 'Not-The-One-1', password: NEW_PASSWORD });
    expect(refused.status).toBe(400);
    expect(await emailOf(userId)).toEqual({ email: taker, email_verified: true });
    expect((await owner.submit(form, { current: PASSWORD, password: NEW_PASSWORD })).status).toBe(200);
    expect(await emailOf(userId)).toEqual({ email, email_verified: true });
    expect((await signIn(email, NEW_PASSWORD)).answer.location).toMatch(CODE_AT_CLIENT);
    expect((await signIn(taker, INTRUDER_PASSWORD)).answer.location).toBeUndefined();

    // The password the account had at the change opens it too: the mailbox it needs is not the intruder's.
    const [other, otherTaker] = ['first-pw-2@example.com', 'first-pw-2-taker@example.com'];
    const otherId = await createUser(other);
    await intrude(other, otherTaker);
    const holder = new CookieJar();
    expect((await holder.submit(await holder.visit((await noticeTo(other)).restore!), { current: INTRUDER_PASSWORD, password: NEW_PASSWORD })).status).toBe(200);
    expect(await emailOf(otherId)).toEqual({ email: other, email_verified: true });
    // The replaced hashes are nowhere but their own table and the link: the management API shows none.
    const shown = JSON.stringify((await app.http.get(`/users/${otherId}`)).body);
    expect(shown).not.toContain('argon2');
  });

  it('a password replaced longer before the change than the link’s 72 hours opens nothing, and the sweep deletes it', async () => {
    const [email, taker] = ['old-pw@example.com', 'old-pw-taker@example.com'];
    const userId = await createUser(email);
    const { jar, page } = await openAccount(email);
    expect((await post(jar, page, 'password', { current_password: PASSWORD, new_password: INTRUDER_PASSWORD })).status).toBe(303);
    // Replaced 73 hours ago.
    await app.sql(`update replaced_password set replaced_at = now() - interval '73 hours', expires_at = now() - interval '1 hour' where user_id = ?`, [userId]);
    await moveTo(jar, await jar.visit(accountUrl()), taker, INTRUDER_PASSWORD);
    const holder = new CookieJar();
    const form = await holder.visit((await noticeTo(email)).restore!);
    const refused = await holder.submit(form, { current: PASSWORD, password: NEW_PASSWORD });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('That is not the password your account had when this email was sent.');
    expect(await emailOf(userId)).toEqual({ email: taker, email_verified: true });
    expect(await sweepExpiredFlowRows(app.gatehouse.services.orm.em.fork())).toBeGreaterThanOrEqual(1);
    expect(await app.sql(`select 1 from replaced_password where user_id = ?`, [userId])).toEqual([]);
  });

  it('while the link lives its address is held for the account: sign-up answers as for an account, an administrator gets 409, another user’s change is answered alike, its own account takes it back; once the link ends it is free', async () => {
    const signUp = async (address: string) => {
      const jar = new CookieJar();
      const page = await settle(jar, await jar.visit(codeAuthorizationUrl(issuer, clientId, REDIRECT_URI)));
      const form = await jar.visit(new URL(/<a href="([^"]+\/signup)">/.exec(page.body)![1]!, page.url).href);
      return jar.submit(form, { email: address, password: NEW_PASSWORD });
    };
    const usersAt = async (address: string) => app.sql(`select id from app_user where email_normalized = ?`, [address.toLowerCase()]);
    for (const end of ['expired', 'five wrong passwords'] as const) {
      const [email, taker] = [`held-${end.length}@example.com`, `held-${end.length}-taker@example.com`];
      const userId = await createUser(email);
      const { jar, page } = await openAccount(email);
      await moveTo(jar, page, taker);
      const restore = (await noticeTo(email)).restore!;

      const signedUp = await signUp(email.toUpperCase());
      const existing = await signUp(taker);
      expect(signedUp.status).toBe(200);
      expect(signedUp.body.replaceAll(email.toUpperCase(), '@').replace(/nonce="[^"]*"/g, '')).toBe(existing.body.replaceAll(taker, '@').replace(/nonce="[^"]*"/g, ''));
      expect(await usersAt(email)).toEqual([]);
      expect((await mails(app.http, email.toUpperCase(), 'verify_email'))).toEqual([]);
      const created = await app.http.post('/users', { email });
      expect(created.status).toBe(409);
      expect(created.body.field).toBe('email');
      expect(created.body.message).toBe('This e-mail is held for the owner of the account that left it, who may take it back for a while');
      const otherId = await createUser(`held-other-${end.length}@example.com`);
      expect((await app.http.patch(`/users/${otherId}`, { email: email.toUpperCase() })).status).toBe(409);
      const tenant = await app.createTenant(`Held ${end}`);
      const invited = await app.http.post(`/applications/${app.root.applicationId}/tenants/${tenant}/invitations`, { email });
      expect(invited.status).toBe(409);
      // Nor does an invitation's 409 tell when the account left it.
      expect(invited.body).toMatchObject({ field: 'email', message: created.body.message });
      const other = await openAccount(`held-other-${end.length}@example.com`);
      expect((await askChange(other.jar, other.page, email)).status).toBe(303);
      expect(await mails(app.http, email, 'email_change')).toHaveLength(1);
      // Answered alike, but the other account keeps its address.
      expect(await emailOf(otherId)).toEqual({ email: `held-other-${end.length}@example.com`, email_verified: true });

      if (end === 'expired') await app.sql(`update email_link_token set expires_at = now() - interval '1 second' where user_id = ? and restores_email is not null`, [userId]);
      else {
        const holder = new CookieJar();
        const form = await holder.visit(restore);
        for (const guess of ['guess-1', 'guess-2', 'guess-3', 'guess-4', 'guess-5']) await holder.submit(form, { current: guess, password: NEW_PASSWORD });
      }
      const free = await app.http.post('/users', { email });
      expect(free.status, end).toBe(201);
    }

    // Its own account may take it back on the management API, while the link lives; another account may not.
    const [email, taker, other] = ['held-back@example.com', 'held-back-taker@example.com', 'held-back-other@example.com'];
    const userId = await createUser(email);
    const { jar, page } = await openAccount(email);
    await moveTo(jar, page, taker);
    const otherId = await createUser(other);
    const refused = await app.http.patch(`/users/${otherId}`, { email });
    expect(refused.status).toBe(409);
    expect(refused.body.field).toBe('email');
    expect(await emailOf(otherId)).toEqual({ email: other, email_verified: true });
    const takenBack = await app.http.patch(`/users/${userId}`, { email });
    expect(takenBack.status, JSON.stringify(takenBack.body)).toBe(200);
    expect(takenBack.body.email).toBe(email);
    expect((await emailOf(userId)).email).toBe(email);
  });

  it('the old address taken by another account meanwhile: the link refuses (409), changing nothing, and works once it is free; a second step the owner had before stays', async () => {
    const [email, taker] = ['squat@example.com', 'squat-taker@example.com'];
    const userId = await createUser(email);
    const { jar, page } = await openAccount(email);
    // The owner's app, added long before: its mail's link ran out.
    await giveTotp(app, app.root.applicationId, userId);
    await moveTo(jar, page, taker);
    // Past the hold (an account made at the moment of the change): moved to the address behind the service's back.
    const squatter = await createUser('squatter@example.com');
    await app.sql(`update app_user set email = ?, email_normalized = ? where id = ?`, [email, email, squatter]);
    const owner = new CookieJar();
    const form = await owner.visit((await noticeTo(email)).restore!);
    const refused = await owner.submit(form, { current: PASSWORD, password: NEW_PASSWORD });
    expect(refused.status).toBe(409);
    expect(refused.body).toContain('This address belongs to another account now: your email address is unchanged.');
    expect(await emailOf(userId)).toEqual({ email: taker, email_verified: true });
    expect(await auditActions(userId)).not.toContain('user.password.reset');

    expect((await app.http.delete(`/users/${squatter}`)).status).toBe(204);
    expect((await owner.submit(form, { current: PASSWORD, password: NEW_PASSWORD })).status).toBe(200);
    expect(await emailOf(userId)).toEqual({ email, email_verified: true });
    expect((await factorsOf(userId)).map((factor) => factor.kind)).toEqual(['totp']);
  });
});

describe('forms', () => {
  it('a form without its token, or with another session’s, is refused and changes nothing', async () => {
    const userId = await createUser('ed@example.com');
    const other = await createUser('fay@example.com');
    const { jar, page } = await openAccount('ed@example.com');
    const form = formOf(page, 'name');
    for (const csrf of ['', 'forged', formOf((await openAccount('fay@example.com')).page, 'name').fields['csrf']!]) {
      const refused = await jar.visit(form.action, { form: { ...form.fields, csrf, name: 'Mallory' } });
      expect(refused.status).toBe(403);
      expect(refused.body).toContain('This form has expired or was not sent from this page.');
    }
    // Without the session (another browser), the page's own token is refused too.
    const stranger = await new CookieJar().visit(form.action, { form: { ...form.fields, name: 'Mallory' } });
    expect(stranger.status).toBe(403);
    for (const id of [userId, other]) expect((await app.http.get(`/users/${id}`)).body.name).toBe('Kim');
  });
});

describe('sessions', () => {
  it('lists the user’s own sessions only, and signing out elsewhere ends the others', async () => {
    const userId = await createUser('gus@example.com');
    await createUser('hal@example.com');
    const first = await signIn('gus@example.com', PASSWORD);
    const hal = await signIn('hal@example.com', PASSWORD);
    expect(hal.answer.location).toMatch(CODE_AT_CLIENT);
    expect(first.answer.location).toMatch(CODE_AT_CLIENT);
    const { jar, page } = await openAccount('gus@example.com', PASSWORD, new CookieJar());
    const listed = (visit: Visit) => [...visit.body.matchAll(/<li>/g)].length;
    // Gus's two sessions: the first sign-in's and this one; none of Hal's.
    expect(listed(page)).toBe(2);
    expect(page.body).toContain('(this browser)');
    // Its times in UTC, as the page's language writes them.
    const day = (at: Date) => `${String(at.getUTCDate()).padStart(2, '0')}.${String(at.getUTCMonth() + 1).padStart(2, '0')}.${at.getUTCFullYear()}`;
    const german = await jar.visit(page.url, { headers: { 'accept-language': 'de' } });
    const [createdAt] = /Angemeldet am ([^ ]+, \d\d:\d\d UTC)/.exec(german.body)?.slice(1) ?? [];
    expect(createdAt, german.body).toMatch(new RegExp(`^(${day(new Date(Date.now() - 86_400_000))}|${day(new Date())}), `));
    const { count: halSessions } = (await app.sql<{ count: number }>(`select count(*)::int as count from user_session s join app_user u on u.id = s.user_id where u.email = 'hal@example.com'`))[0]!;
    expect(halSessions).toBe(1);

    const ended = await post(jar, page, 'sign-out-others', {});
    expect(ended.status).toBe(303);
    const shown = await jar.visit(ended.location!);
    expect(shown.body).toContain('You were signed out everywhere else.');
    expect(listed(shown)).toBe(1);
    expect(shown.body).not.toContain('/account/sign-out-others');
    // The first browser signs in again; Hal's session stands.
    expect((await first.jar.visit(accountUrl())).status).toBe(303);
    expect((await hal.jar.visit(accountUrl())).status).toBe(200);
    expect(await auditActions(userId)).toContain('user.sessions.ended');
  });
});

describe('sessions the session policy has ended', () => {
  it.each([
    { ended: 'signed in 31 days ago', email: 'ida@example.com', move: (userId: string) => signedInAt(userId, daysAgo(31)) },
    { ended: 'unused for 4 days', email: 'iona@example.com', move: (userId: string) => lastUsedAt(userId, daysAgo(4)) },
  ])('($ended) are neither listed nor counted among those to sign out of, as the API lists none of them', async ({ email, move }) => {
    const userId = await createUser(email);
    await signIn(email, PASSWORD);
    // That browser's session: past the policy's end, though its stored end is days ahead.
    await move(userId);
    const { page } = await openAccount(email, PASSWORD, new CookieJar());
    expect(await apiSessions(userId)).toHaveLength(1);
    expect([...page.body.matchAll(/<li>/g)]).toHaveLength(1);
    expect(page.body).not.toContain('/account/sign-out-others');
  });
});

describe('sign-ins listed and ended', () => {
  const tenantPath = (tenantId: string) => `/applications/${app.root.applicationId}/tenants/${tenantId}`;
  const listed = (visit: Visit) => [...visit.body.matchAll(/<li>([\s\S]*?)<\/li>/g)].map(([, item]) => item!);

  /**
   * A user of both tenants, signed in in a browser of their own: to the first through the account page, then to the
   * second with no form, by another client (a client's sign-in to another tenant would replace its first).
   */
  async function memberOfBoth(email: string, first: string, second: string) {
    const other = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
    const userId = await createUser(email, app.http, `${tenantPath(first)}/users`);
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [first, second] })).status).toBe(200);
    const { jar, page } = await openAccount(email, PASSWORD, new CookieJar(), accountUrl(issuer, clientId, { tenant: first }));
    expect((await settle(jar, await jar.visit(codeAuthorizationUrl(issuer, other.clientId, REDIRECT_URI, { tenant: second })))).location).toMatch(CODE_AT_CLIENT);
    return { userId, jar, page };
  }

  it.each([
    ['its session revoked on its path', (userId: string, sessionId: string, tenantId: string) => app.http.delete(`${tenantPath(tenantId)}/sessions/${sessionId}`)],
    ['the user signed out everywhere on its path', (userId: string, _: string, tenantId: string) => app.http.delete(`${tenantPath(tenantId)}/users/${userId}/sessions`)],
  ])('a tenant’s sign-in ended in this browser (%s): its page asks for a credential, its forms change nothing; the other tenant’s page goes on', async (way, revoke) => {
    const acme = await app.createTenant(`Rv Acme ${way}`);
    const globex = await app.createTenant(`Rv Globex ${way}`);
    const email = `rv-${way.length}@example.com`;
    const { userId, jar } = await memberOfBoth(email, acme, globex);
    const onGlobex = await jar.visit(accountUrl(issuer, clientId, { tenant: globex }));
    expect(onGlobex.status).toBe(200);
    const onAcme = await jar.visit(accountUrl(issuer, clientId, { tenant: acme }));
    expect(onAcme.status).toBe(200);
    const [session] = (await app.http.get(`${tenantPath(acme)}/users/${userId}/sessions`)).body.data as { id: string }[];
    expect((await revoke(userId, session!.id, acme)).status).toBe(204);

    const asked = await jar.visit(accountUrl(issuer, clientId, { tenant: acme }));
    expect(asked.status).toBe(303);
    expect(asked.location).toContain('response_mode=gatehouse_account');
    expect(asked.location).toContain('prompt=login');
    for (const [path, values] of [['name', { name: 'Mallory' }], ['password', { current_password: PASSWORD, new_password: NEW_PASSWORD }]] as const) {
      const refused = await post(jar, onAcme, path, values);
      expect(refused.status).toBe(403);
      expect(refused.body).toContain('This form has expired or was not sent from this page.');
    }
    expect((await app.http.get(`/users/${userId}`)).body.name).toBe('Kim');
    // Globex's sign-in stands: its page and forms go on in the same browser.
    expect((await jar.visit(accountUrl(issuer, clientId, { tenant: globex }))).status).toBe(200);
    expect((await post(jar, onGlobex, 'name', { name: 'Kim Globex' })).status).toBe(303);
    expect((await app.http.get(`/users/${userId}`)).body.name).toBe('Kim Globex');
    // The password proven again for Acme: its page is shown again.
    const again = await openAccount(email, PASSWORD, jar, accountUrl(issuer, clientId, { tenant: acme }));
    expect(again.page.status).toBe(200);
    expect(again.page.body).toContain('ame="name"');
  });

  it('a browser is listed as its browser and system, never as the text its User-Agent wrote', async () => {
    await createUser('uma@example.com');
    const forged = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0 (your usual laptop: this was you)';
    const jar = new CookieJar((input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'user-agent': forged } } as RequestInit));
    const { page } = await openAccount('uma@example.com', PASSWORD, jar);
    const [item] = listed(page);
    expect(item).toMatch(/^Firefox on Linux <strong>\(this browser\)<\/strong>/);
    expect(page.body).not.toContain('usual laptop');
  });

  it('a user signed in nowhere else sees no button; an offline app whose browser signed out and a device are listed, counted and ended', async () => {
    const userId = await createUser('ole@example.com');
    const here = await openAccount('ole@example.com');
    expect(listed(here.page)).toHaveLength(1);
    expect(here.page.body).toContain('(this browser)');
    expect(here.page.body).not.toContain('/account/sign-out-others');

    /** The browser `jar` signs out (RP-initiated logout, confirmed): what it signed in with offline access stays. */
    const signOut = async (jar: CookieJar, client: string) => {
      const logout = await jar.visit(`${issuer}/oauth2/logout?client_id=${client}`);
      expect((await jar.submit(logout, { logout: 'yes' })).location).toBe(`${issuer}/oauth2/logout/success`);
    };
    // An app signed in with offline_access in a laptop's browser, which then signs out.
    const spa = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT_URI] });
    const config = await discover(app, spa.clientId, oidc.None(), { redirect_uris: [REDIRECT_URI] });
    const flow = await startAuthorization(config, { redirectUri: REDIRECT_URI, resource: '' }, OFFLINE_CONSENT);
    const callback = await flow.jar.followOut(await flow.jar.submit(flow.page, { email: 'ole@example.com', password: PASSWORD }), issuer);
    const offline = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
    await signOut(flow.jar, spa.clientId);
    // A TV signed in by its code, approved in a phone's browser.
    const tv = await createTestClient(app, { type: 'device', authMethod: 'none' });
    const tvConfig = await discover(app, tv.clientId, oidc.None());
    const started = await oidc.initiateDeviceAuthorization(tvConfig, { scope: 'openid offline_access' });
    const phone = new CookieJar();
    const login = await settle(phone, await phone.submit(await phone.submit(await phone.visit(started.verification_uri_complete!), {}), {}));
    expect((await settle(phone, await phone.submit(login, { email: 'ole@example.com', password: PASSWORD }))).status).toBe(200);
    const device = await oidc.pollDeviceAuthorizationGrant(tvConfig, { ...started, interval: 1 });
    // The phone's browser session expires; the TV's grant, with its own refresh token, lives on.
    await app.sql(`update oidc_model set expires_at = now() - interval '1 second' where model = 'Session' and payload->'authorizations'->? is not null`, [tv.clientId]);

    const page = await here.jar.visit(accountUrl());
    // The others: the two grant sign-ins, which no browser session holds (no address).
    const others = (await apiSessions(userId)).filter((session) => (session as { ip?: string | null }).ip === null);
    const items = listed(page);
    expect(items, page.body).toHaveLength(3);
    expect(items[0]).toContain('(this browser)');
    expect(items.filter((item) => /^test (spa|device) client<br>/.test(item)), items.join('\n')).toHaveLength(2);
    expect(items.find((item) => item.startsWith('test spa client'))).toMatch(/stays signed in: since [^<]+ UTC, last active [^<]+ UTC/);
    expect(page.body).toMatch(/<button type="submit" class="secondary">Sign out everywhere else \(2\)[^<]*<\/button>/);

    const ended = await post(here.jar, page, 'sign-out-others', {});
    expect(ended.status).toBe(303);
    const shown = await here.jar.visit(ended.location!);
    expect(listed(shown)).toHaveLength(1);
    expect(shown.body).not.toContain('/account/sign-out-others');
    for (const [tokens, of] of [[offline, config], [device, tvConfig]] as const) {
      await expect(oidc.refreshTokenGrant(of, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    }
    expect(await auditActions(userId)).toContain('user.sessions.ended');
    expect(others).toHaveLength(2);
    expect(await revocationsOf(userId)).toEqual(revokedAs(userId, others, 'signed_out_elsewhere'));
  });

  it('with more than a page of sign-ins, this browser comes first, then the newest, and the rest are counted', async () => {
    const userId = await createUser('many@example.com');
    // The browser of the user's latest sign-in (ids are UUIDv7), named by its User-Agent.
    const label = (name: string) => app.sql(`update user_session set user_agent = ? where id = (select id from user_session where user_id = ? order by id desc limit 1)`, [name, userId]);
    await signIn('many@example.com', PASSWORD);
    await label('Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0');
    // 100 more sign-ins of that browser session's kind: copies of its row under OP sessions of their own.
    await app.sql(
      `with copies as (select c.id, 'copy-' || c.n as uid from unnest(string_to_array(?, ',')::uuid[]) with ordinality as c(id, n))
       , ops as (insert into oidc_model (model, id, application_id, payload, uid, expires_at)
           select 'Session', 'copy-id-' || c.uid, o.application_id, o.payload, c.uid, o.expires_at from copies as c, oidc_model as o
            where o.model = 'Session' and o.payload->>'accountId' = ? returning uid)
       insert into user_session (application_id, id, op_session_uid, user_id, tenant_id, client_id, ip, user_agent, methods, created_at, last_active_at, expires_at)
       select s.application_id, c.id, c.uid, s.user_id, s.tenant_id, s.client_id, s.ip, 'Mozilla/5.0 (Macintosh) Firefox/120.0', s.methods, s.created_at, s.last_active_at, s.expires_at
         from copies as c, user_session as s where s.user_id = ?`,
      [Array.from({ length: 100 }, () => newId()).join(','), userId, userId],
    );
    await signIn('many@example.com', PASSWORD);
    await label('Mozilla/5.0 (Windows NT 10.0) Edg/120.0');
    const { page } = await openAccount('many@example.com');
    const items = listed(page);
    expect(items).toHaveLength(100);
    expect(items[0]).toContain('(this browser)');
    expect(items[1]).toMatch(/^Edge on Windows<br>/);
    expect(items.filter((item) => item.startsWith('Firefox on macOS<br>'))).toHaveLength(98);
    expect(items.some((item) => item.startsWith('Chrome on Linux'))).toBe(false);
    expect(page.body).toContain('Not listed here: 3 more.');
    expect(page.body).toMatch(/Sign out everywhere else \(102\)/);
  });

  it('a tenant’s page labels each sign-in with its tenant, and its button says it ends them in every organization', async () => {
    const acme = await app.createTenant('Lb Acme');
    const globex = await app.createTenant('Lb Globex');
    const userId = await createUser('lb@example.com', app.http, `${tenantPath(acme)}/users`);
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [acme, globex] })).status).toBe(200);
    const elsewhere = await openAccount('lb@example.com', PASSWORD, new CookieJar(), accountUrl(issuer, clientId, { tenant: globex }));
    const { jar, page } = await openAccount('lb@example.com', PASSWORD, new CookieJar(), accountUrl(issuer, clientId, { tenant: acme }));
    expect(page.body).toContain('for Lb Acme and for the other organizations you belong to.');
    const items = listed(page);
    expect(items).toHaveLength(2);
    expect(items.find((item) => item.includes('(this browser)'))).toContain('Organization: Lb Acme');
    expect(items.find((item) => !item.includes('(this browser)'))).toContain('Organization: Lb Globex');
    expect(page.body).toMatch(/<button type="submit" class="secondary">Sign out everywhere else \(1\), in every organization<\/button>/);
    // In each language of the pages.
    const german = await jar.visit(page.url, { headers: { 'accept-language': 'de' } });
    expect(german.body).toContain('Organisation: Lb Globex');

    expect((await post(jar, page, 'sign-out-others', {})).status).toBe(303);
    expect((await elsewhere.jar.visit(accountUrl(issuer, clientId, { tenant: globex }))).status).toBe(303);
    expect((await jar.visit(page.url)).status).toBe(200);
  });
});

describe('two-step verification', () => {
  const lastMail = async (to: string, template: string) =>
    (await app.sql<{ text_body: string }>(`select text_body from email_delivery where to_address = ? and template_key = ? order by created_at desc limit 1`, [to, template]))[0]?.text_body;

  /** A user with the account page open and an authenticator app added through it: the page after, and the app's secret. */
  async function withTotp(email: string) {
    const userId = await createUser(email);
    const { jar, page } = await openAccount(email);
    const secret = offeredSecret(page);
    const added = await post(jar, page, 'mfa-totp', { totp_code: codeAt(secret), totp_password: PASSWORD });
    expect(added.status, added.body).toBe(200);
    return { userId, jar, page: added, secret };
  }

  /** The page again once a policy made required since its sign-in (the password alone) is met: signed in with the step. */
  async function pageAfterStep(jar: CookieJar, email: string, secret: string): Promise<Visit> {
    const signInPage = await settle(jar, await jar.visit(accountUrl()));
    const step = await settle(jar, await jar.submit(signInPage, { email, password: PASSWORD }));
    await withTimeLeftInStep();
    // The enrolment used this step's code.
    const page = await settle(jar, await jar.submit(step, { code: codeAt(secret, Date.now() + 30_000) }));
    expect(page.status, page.body).toBe(200);
    return page;
  }

  it('adds an authenticator app proven by a code of the secret shown: audited, mfa_enrolled mailed, recovery codes shown once', async () => {
    const userId = await createUser('ivy@example.com');
    const { jar, page } = await openAccount('ivy@example.com');
    expect(page.body).toContain('<h2 id="mfa-title">Two-step verification</h2>');
    expect(page.body).toContain('You have no second step yet.');
    expect(page.body).toMatch(/<svg role="img" aria-label="QR code/);
    const secret = offeredSecret(page);
    expect(page.body).toContain(`otpauth://totp/`);

    // A code of another step (outside the window) is refused, the same secret shown again, nothing stored.
    const wrong = await post(jar, page, 'mfa-totp', { totp_code: codeAt(secret, Date.now() - 10 * 30_000), totp_password: PASSWORD });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('The code is incorrect, has expired or was already used.');
    expect(offeredSecret(wrong)).toBe(secret);
    expect(await factorsOf(userId)).toEqual([]);
    // A secret not sealed by the page is not taken.
    const forged = await post(jar, page, 'mfa-totp', { enrol: 'forged', totp_code: codeAt(secret), totp_password: PASSWORD });
    expect(forged.status).toBe(403);
    // The right code without the current password (a browser left signed in): refused, nothing stored.
    for (const password of [undefined, 'Not-The-Password-1']) {
      const unproven = await post(jar, page, 'mfa-totp', { totp_code: codeAt(secret), ...(password === undefined ? {} : { totp_password: password }) });
      expect(unproven.status).toBe(400);
      expect(unproven.body).toContain('The current password is incorrect.');
    }
    expect(await factorsOf(userId)).toEqual([]);

    const added = await post(jar, wrong, 'mfa-totp', { totp_code: codeAt(secret), totp_password: PASSWORD });
    expect(added.status).toBe(200);
    expect(added.body).toContain('The second step is added.');
    const codes = shownCodes(added);
    expect(codes).toHaveLength(10);
    expect((await factorsOf(userId)).map((factor) => factor.kind)).toEqual(['totp']);
    expect(await auditActions(userId)).toContain('user.mfa.enrolled');
    expect(await lastMail('ivy@example.com', 'mfa_enrolled')).toContain('Authenticator app');

    // Shown again, the page lists the app, offers no second one, and does not show the codes.
    const shown = await jar.visit(accountUrl());
    expect(shown.body).toContain('<li>Authenticator app</li>');
    expect(shown.body).not.toContain('Add an authenticator app');
    expect(shown.body).toContain('You have 10 unused recovery codes.');
    expect(shownCodes(shown)).toEqual([]);
  });

  it('adds e-mail codes with a code mailed to the account; a wrong code is refused', async () => {
    const userId = await createUser('jo@example.com');
    const { jar, page } = await openAccount('jo@example.com');
    const sent = await post(jar, page, 'mfa-email-send', {});
    expect(sent.status).toBe(303);
    const open = await jar.visit(sent.location!);
    expect(open.body).toContain('We sent a code to your email address.');
    const code = /\b(\d{6})\b/.exec((await lastMail('jo@example.com', 'email_otp'))!)![1]!;
    const wrong = await post(jar, open, 'mfa-email', { email_code: code === '000000' ? '111111' : '000000', email_factor_password: PASSWORD });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('The code is incorrect');
    const unproven = await post(jar, open, 'mfa-email', { email_code: code });
    expect(unproven.status).toBe(400);
    expect(unproven.body).toContain('The current password is incorrect.');
    expect(await factorsOf(userId)).toEqual([]);
    const added = await post(jar, wrong, 'mfa-email', { email_code: code, email_factor_password: PASSWORD });
    expect(added.status).toBe(200);
    expect(shownCodes(added)).toHaveLength(10);
    expect((await factorsOf(userId)).map((factor) => factor.kind)).toEqual(['email_otp']);
    expect(await lastMail('jo@example.com', 'mfa_enrolled')).toContain('Email code');
  });

  it('mails no code for e-mail codes the policy does not offer: none while it is off, nor once it stops offering them', async () => {
    await createUser('jon@example.com');
    const { jar, page } = await openAccount('jon@example.com');
    const mailed = async () => (await app.sql(`select 1 from email_delivery where to_address = ? and template_key = 'email_otp'`, ['jon@example.com'])).length;
    for (const policy of [{ enforcement: 'optional', factors: ['totp'] }, { enforcement: 'off', factors: ['totp', 'email_otp'] }]) {
      expect((await app.http.put('/policies/mfa', { ...policy, rememberDeviceDays: 30 })).status).toBe(200);
      try {
        const sent = await post(jar, page, 'mfa-email-send', {});
        expect(sent.status).toBe(400);
        expect(sent.body).not.toContain('Add codes by email');
      } finally {
        expect((await app.http.put('/policies/mfa', { enforcement: 'optional', factors: ['totp', 'email_otp'], rememberDeviceDays: 30 })).status).toBe(200);
      }
    }
    expect(await mailed()).toBe(0);
  });

  it('removes a factor with the current password, the user’s own only; the last one takes the recovery codes with it', async () => {
    const { userId, jar, page } = await withTotp('kai@example.com');
    const other = await withTotp('lea@example.com');
    const [theirs] = await factorsOf(other.userId);
    const wrong = await post(jar, page, 'mfa-remove', { remove_password: 'not-it', factor: (await factorsOf(userId))[0]!.id });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('The current password is incorrect.');
    const foreign = await post(jar, page, 'mfa-remove', { remove_password: PASSWORD, factor: theirs!.id });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toContain('There is no such second step on your account.');
    // In the browser's language: the wrong password, someone else's factor.
    const french = { 'accept-language': 'fr' };
    expect((await post(jar, page, 'mfa-remove', { remove_password: 'not-it', factor: theirs!.id }, french)).body).toContain('Le mot de passe actuel est incorrect.');
    expect((await post(jar, page, 'mfa-remove', { remove_password: PASSWORD, factor: theirs!.id }, french)).body).toContain('Cette deuxième étape n’existe pas sur votre compte.');
    expect(await factorsOf(other.userId)).toHaveLength(1);
    expect(await factorsOf(userId)).toHaveLength(1);

    const [mine] = await factorsOf(userId);
    expect(page.body).toContain(`<option value="${mine!.id}">Authenticator app</option>`);
    const removed = await post(jar, page, 'mfa-remove', { remove_password: PASSWORD, factor: mine!.id });
    expect(removed.status).toBe(303);
    expect((await jar.visit(removed.location!)).body).toContain('The second step is removed.');
    expect(await factorsOf(userId)).toEqual([]);
    expect(await app.sql(`select 1 from mfa_recovery_code where user_id = ?`, [userId])).toEqual([]);
    expect(await auditActions(userId)).toContain('user.mfa.removed');
  });

  it('renews the recovery codes with the current password: the old ones stop working', async () => {
    const { userId, jar, page } = await withTotp('max@example.com');
    const old = shownCodes(page);
    const wrong = await post(jar, page, 'mfa-recovery-codes', { codes_password: 'not-it' });
    expect(wrong.status).toBe(400);
    expect(shownCodes(wrong)).toEqual([]);
    const renewed = await post(jar, page, 'mfa-recovery-codes', { codes_password: PASSWORD });
    expect(renewed.status).toBe(200);
    expect(renewed.body).toContain('any earlier ones no longer work');
    const codes = shownCodes(renewed);
    expect(codes).toHaveLength(10);
    const stored = (await app.sql<{ code_hash: string }>(`select code_hash from mfa_recovery_code where user_id = ?`, [userId])).map((row) => row.code_hash).sort();
    expect(stored).toEqual(codes.map(recoveryCodeHash).sort());
    expect(old.some((code) => stored.includes(recoveryCodeHash(code)))).toBe(false);
    expect(await auditActions(userId)).toContain('user.mfa.recovery_codes.renewed');
  });

  it('the reset link of a factor’s mail removes that factor and the recovery codes shown with it; a second step added afterwards stays, and a password change does not take the link away', async () => {
    const email = 'added-after@example.com';
    const { userId, jar, page } = await withTotp(email);
    const seen = shownCodes(page);
    expect(seen).toHaveLength(10);
    // A second step added afterwards (the owner's, say): its own mail, and no new codes.
    const open = await jar.visit((await post(jar, page, 'mfa-email-send', {})).location!);
    const code = /\b(\d{6})\b/.exec((await lastMail(email, 'email_otp'))!)![1]!;
    const added = await post(jar, open, 'mfa-email', { email_code: code, email_factor_password: PASSWORD });
    // Codes were left: none are shown, the page is shown again.
    expect(added.status).toBe(303);
    const shown = await jar.visit(added.location!);
    expect(shownCodes(shown)).toEqual([]);
    // Whoever enrolled the app knows the password: changing it ends the links mailed before, not a factor's.
    const changed = await post(jar, shown, 'password', { current_password: PASSWORD, new_password: 'Other-Horse-77' });
    expect(changed.status, changed.body.slice(-800)).toBe(303);
    const links = (await mails(app.http, email, 'mfa_enrolled')).map((mail) => /(http\S+\/account\/reset-password\?token=\S+)/.exec(mail.text)![1]!);
    expect(links).toHaveLength(2);
    const owner = new CookieJar();
    const [appLink, emailLink] = [await owner.visit(links[0]!), await owner.visit(links[1]!)];
    expect(emailLink.status).toBe(200);
    expect(emailLink.body).toContain('Setting a new password also removes the email codes added to your account on');
    expect(emailLink.body).not.toContain('Your recovery codes stop working too.');
    expect(appLink.status).toBe(200);
    expect(appLink.body).toMatch(/Setting a new password also removes the authenticator app added to your account on [^<]+\. Your recovery codes stop working too\./);

    // The password the account had when the mail went, not the enroller's since.
    expect(appLink.body).toContain('name="current"');
    expect((await owner.submit(appLink, { current: 'Other-Horse-77', password: NEW_PASSWORD })).status).toBe(400);
    expect((await owner.submit(appLink, { current: PASSWORD, password: NEW_PASSWORD })).status).toBe(200);
    expect((await factorsOf(userId)).map((factor) => factor.kind)).toEqual(['email_otp']);
    expect(await app.sql(`select 1 from mfa_recovery_code where user_id = ? and used_at is null`, [userId])).toEqual([]);
    const [removal, ...more] = await app.sql<{ before: unknown; after: unknown }>(`select before, after from audit_log where target_id = ? and action = 'user.mfa.removed'`, [userId]);
    expect(more).toEqual([]);
    expect(removal).toEqual({ before: { factor: 'totp', recoveryCodes: 10 }, after: { reason: 'enrolment_disowned' } });
    // The new password signs in to the e-mail code's challenge, where a code the enroller saw does not work.
    const { jar: next, answer } = await signIn(email, NEW_PASSWORD);
    expect(answer.status, answer.body.slice(-800)).toBe(200);
    const recovery = await next.visit(`${answer.url}?method=recovery_code`);
    expect(recovery.body).toContain('Recovery code');
    expect((await next.submit(recovery, { code: seen[0]! })).status).toBe(400);
    // The other mail's link still works, for the second step it announced.
    expect((await owner.visit(links[1]!)).status).toBe(200);
  });

  it('under a required policy the last factor stays; signed out, the forms are refused', async () => {
    const { userId, jar, page, secret } = await withTotp('ned@example.com');
    expect((await app.http.put('/policies/mfa', { enforcement: 'required', factors: ['totp', 'email_otp'], rememberDeviceDays: 30 })).status).toBe(200);
    try {
      // Signed in with the password alone before the policy: the page's forms wait for the step.
      expect((await post(jar, page, 'mfa-remove', { remove_password: PASSWORD, factor: (await factorsOf(userId))[0]!.id })).status).toBe(403);
      const stepped = await pageAfterStep(jar, 'ned@example.com', secret);
      const kept = await post(jar, stepped, 'mfa-remove', { remove_password: PASSWORD, factor: (await factorsOf(userId))[0]!.id });
      expect(kept.status).toBe(400);
      expect(kept.body).toContain('requires two-step verification: add another second step before removing this one.');
      const spanish = await post(jar, stepped, 'mfa-remove', { remove_password: PASSWORD, factor: (await factorsOf(userId))[0]!.id }, { 'accept-language': 'es' });
      expect(spanish.body).toContain('exige la verificación en dos pasos: añada otro segundo paso antes de quitar este.');
      expect(await factorsOf(userId)).toHaveLength(1);
    } finally {
      expect((await app.http.put('/policies/mfa', { enforcement: 'optional', factors: ['totp', 'email_otp'], rememberDeviceDays: 30 })).status).toBe(200);
    }
    const form = formOf(page, 'mfa-remove');
    const stranger = await new CookieJar().visit(form.action, { form: { ...form.fields, remove_password: PASSWORD, factor: (await factorsOf(userId))[0]!.id } });
    expect(stranger.status).toBe(403);
    expect(await factorsOf(userId)).toHaveLength(1);
  });

  it('an account without a password keeps, under required, a second step it can use after an e-mail sign-in: its e-mail code does not count', async () => {
    const other = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: other.apiKey });
    expect((await admin.post('/auth-providers', { type: 'magic_link' })).status).toBe(201);
    expect((await admin.put('/policies/mfa', { enforcement: 'required', factors: ['totp', 'email_otp'] })).status).toBe(200);
    const client = await createTestClient(app, { type: 'web', applicationId: other.applicationId, redirectUris: [REDIRECT_URI] });
    const email = 'mailbox-first@example.com';
    const made = await admin.post('/users', { email });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const userId = (made.body as { id: string }).id;
    const secret = await giveTotp(app, other.applicationId, userId);
    await app.sql(`insert into mfa_factor (application_id, id, user_id, kind) values (?, ?, ?, 'email_otp')`, [other.applicationId, newId(), userId]);
    const jar = new CookieJar();
    const signInPage = await settle(jar, await jar.visit(accountUrl(issuer, client.clientId)));
    expect((await jar.visit(emailFormAction(signInPage, 'email-link'), { form: { csrf: csrfOf(signInPage), email } })).status).toBe(200);
    // The mailbox signed in: the step is the authenticator app, never the e-mail code.
    const step = await settle(jar, await jar.visit(await magicLinkOf(admin, email, 1)));
    expect(step.body).toContain('name="code"');
    const page = await settle(jar, await jar.submit(step, { code: codeAt(secret) }));
    expect(page.status, page.body.slice(-1500)).toBe(200);
    const factorId = async (kind: string) => (await factorsOf(userId)).find((factor) => factor.kind === kind)!.id;

    const kept = await post(jar, page, 'mfa-remove', { factor: await factorId('totp') });
    expect(kept.status).toBe(400);
    expect(kept.body).toContain('requires two-step verification: add another second step before removing this one.');
    expect(await factorsOf(userId)).toHaveLength(2);
    // The e-mail code, which serves no sign-in of theirs, may go; the app stays.
    expect((await post(jar, page, 'mfa-remove', { factor: await factorId('email_otp') })).status).toBe(303);
    expect((await factorsOf(userId)).map((factor) => factor.kind)).toEqual(['totp']);
  });

  it('an account without a password proves a change (factors, recovery codes, address, a first password) by a sign-in of the last ten minutes: past them it is sent to sign in again', async () => {
    const other = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: other.apiKey });
    expect((await admin.post('/auth-providers', { type: 'magic_link', config: { linkLifetimeMinutes: 10 } })).status).toBe(201);
    const client = await createTestClient(app, { type: 'web', applicationId: other.applicationId, redirectUris: [REDIRECT_URI] });
    const made = await admin.post('/users', { email: 'linked@example.com' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const userId = (made.body as { id: string }).id;
    const jar = new CookieJar();
    /** The sign-in page `url` leads to, signed in there by a mailed link (the `count`th): the page it comes back to. */
    const signInByLink = async (url: string, count: number) => {
      const signInPage = await settle(jar, await jar.visit(url));
      expect(signInPage.status, signInPage.body).toBe(200);
      expect((await jar.visit(emailFormAction(signInPage, 'email-link'), { form: { csrf: csrfOf(signInPage), email: 'linked@example.com' } })).status).toBe(200);
      return settle(jar, await jar.visit(await magicLinkOf(admin, 'linked@example.com', count)));
    };
    const page = await signInByLink(accountUrl(issuer, client.clientId), 1);
    expect(page.status, page.body).toBe(200);

    // Signed in eleven minutes ago: the right code alone adds nothing, and the page links a sign-in again.
    const elevenMinutesAgo = Math.floor(Date.now() / 1000) - 11 * 60;
    await signedInAt(userId, elevenMinutesAgo);
    const stale = await post(jar, page, 'mfa-totp', { totp_code: codeAt(offeredSecret(page)) });
    expect(stale.status).toBe(400);
    expect(stale.body).toContain('For your security, sign in again to make this change.');
    const again = /<a href="([^"]+)">Sign in again<\/a>/.exec(stale.body)?.[1]?.replaceAll('&#38;', '&');
    expect(again).toContain('prompt=login');
    expect(await factorsOf(userId)).toEqual([]);

    // Signed in again through that link: back on the page, the same change is made.
    const fresh = await signInByLink(again!, 2);
    expect(fresh.status, fresh.body).toBe(200);
    const added = await post(jar, fresh, 'mfa-totp', { totp_code: codeAt(offeredSecret(fresh)) });
    expect(added.status, added.body).toBe(200);
    expect((await factorsOf(userId)).map((factor) => factor.kind)).toEqual(['totp']);
    // Removing and renewing are proven alike: no password field, and the recent sign-in does.
    expect(added.body).not.toMatch(/name="(remove|codes)_password"/);
    const renewed = await post(jar, added, 'mfa-recovery-codes', {});
    expect(renewed.status, renewed.body).toBe(200);
    expect(shownCodes(renewed)).toHaveLength(10);
    // So is an address change: the link goes to the new address.
    expect(renewed.body).not.toContain('name="email_password"');
    expect((await post(jar, renewed, 'email', { new_email: 'relinked@example.com' })).status).toBe(303);
    expect(await mails(admin, 'relinked@example.com', 'email_change')).toHaveLength(1);
    // Confirmed, the old address is told with no link to take the account back: it has no password to prove that by,
    // and the old mailbox alone may be someone else's now.
    const opener = new CookieJar();
    expect((await opener.submit(await opener.visit(await accountLinkOf(admin, 'relinked@example.com', 'email_change')), {})).status).toBe(200);
    const [notice, ...more] = await mails(admin, 'linked@example.com', 'email_change');
    expect(more).toEqual([]);
    expect(notice!.text).toContain('was changed from linked@example.com to relinked@example.com');
    expect(notice!.text).toContain('If you did not expect this change, contact support.');
    expect(notice!.text).not.toContain('/account/');

    await signedInAt(userId, elevenMinutesAgo);
    const [factor] = await factorsOf(userId);
    const staleRemoval = await post(jar, renewed, 'mfa-remove', { factor: factor!.id });
    expect(staleRemoval.status).toBe(400);
    expect(staleRemoval.body).toContain('For your security, sign in again to make this change.');
    expect(await factorsOf(userId)).toHaveLength(1);
    const staleChange = await post(jar, renewed, 'email', { new_email: 'elsewhere@example.com' });
    expect(staleChange.status).toBe(400);
    expect(staleChange.body).toContain('For your security, sign in again to make this change.');
    expect(staleChange.body).not.toContain('aria-invalid="true"');
    expect(await mails(admin, 'elsewhere@example.com', 'email_change')).toEqual([]);

    // A first password, set with no current one to type: refused stale, set once signed in recently.
    expect(renewed.body).not.toContain('name="current_password"');
    expect(renewed.body).toContain('Set a password');
    const passwordOf = async () => (await app.sql<{ password_hash: string | null }>('select password_hash from app_user where id = ?', [userId]))[0]!.password_hash;
    expect((await post(jar, renewed, 'password', { new_password: NEW_PASSWORD })).status).toBe(400);
    expect(await passwordOf()).toBeNull();
    await signedInAt(userId, Math.floor(Date.now() / 1000));
    expect((await post(jar, renewed, 'password', { new_password: NEW_PASSWORD })).status).toBe(303);
    expect(await passwordOf()).not.toBeNull();
    expect((await jar.visit(accountUrl(issuer, client.clientId))).body).toContain('name="current_password"');
  });

  it('an account without a password signed in through an upstream, which may have answered from its own session, proves a change by a code mailed to its address; a sign-in that proved a factor here still does', async () => {
    const other = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: other.apiKey });
    expect((await admin.post('/auth-providers', { type: 'magic_link' })).status).toBe(201);
    const client = await createTestClient(app, { type: 'web', applicationId: other.applicationId, redirectUris: [REDIRECT_URI] });
    const email = 'upstream-only@example.com';
    const made = await admin.post('/users', { email });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const userId = (made.body as { id: string }).id;
    const url = accountUrl(issuer, client.clientId);
    const jar = new CookieJar();
    const signInPage = await settle(jar, await jar.visit(url));
    expect((await jar.visit(emailFormAction(signInPage, 'email-link'), { form: { csrf: csrfOf(signInPage), email } })).status).toBe(200);
    expect((await settle(jar, await jar.visit(await magicLinkOf(admin, email, 1)))).status).toBe(200);
    // The session as the OP records a sign-in at an upstream (or a SAML IdP), a minute ago: no factor proven here.
    const signedInWith = (methods: readonly string[]) =>
      app.sql(`update oidc_model set payload = jsonb_set(payload, '{methods}', ?::jsonb) where model = 'Session' and payload->>'accountId' = ?`, [JSON.stringify(methods), userId]);
    await signedInWith(['oauth']);
    await signedInAt(userId, Math.floor(Date.now() / 1000) - 60);
    const page = await jar.visit(url);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`confirm it is you with a code we email to ${email}`);

    const confirmFirst = 'For your security, confirm it is you with a code first.';
    const unproven = await post(jar, page, 'mfa-totp', { totp_code: codeAt(offeredSecret(page)) });
    expect(unproven.status).toBe(400);
    expect(unproven.body).toContain(confirmFirst);
    expect(unproven.body).not.toContain('Sign in again</a>');
    const unprovenAddress = await post(jar, page, 'email', { new_email: 'taken-over@example.com' });
    expect(unprovenAddress.status).toBe(400);
    expect(unprovenAddress.body).toContain(confirmFirst);
    expect((await post(jar, page, 'password', { new_password: NEW_PASSWORD })).status).toBe(400);
    expect(await factorsOf(userId)).toEqual([]);
    expect(await mails(admin, 'taken-over@example.com', 'email_change')).toEqual([]);
    expect((await app.sql<{ password_hash: string | null }>('select password_hash from app_user where id = ?', [userId]))[0]!.password_hash).toBeNull();

    // The code mailed to the account's address: a wrong one proves nothing.
    const sent = await post(jar, page, 'confirm-send', {});
    expect(sent.status).toBe(303);
    const open = await jar.visit(sent.location!);
    expect(open.body).toContain('We sent a code to your email address.');
    const code = /\b(\d{6})\b/.exec((await mails(admin, email, 'email_otp'))[0]!.text)![1]!;
    const wrong = await post(jar, open, 'confirm', { confirm_code: code === '000000' ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('The code is incorrect');
    expect((await post(jar, wrong, 'mfa-totp', { totp_code: codeAt(offeredSecret(wrong)) })).status).toBe(400);
    expect(await factorsOf(userId)).toEqual([]);
    // The right one: the changes go through, for ten minutes, in this browser session only.
    const confirmed = await post(jar, wrong, 'confirm', { confirm_code: code });
    expect(confirmed.status).toBe(303);
    const proven = await jar.visit(confirmed.location!);
    expect(proven.body).not.toContain('name="confirm_code"');
    const secret = offeredSecret(proven);
    const added = await post(jar, proven, 'mfa-totp', { totp_code: codeAt(secret) });
    expect(added.status, added.body).toBe(200);
    expect((await factorsOf(userId)).map((factor) => factor.kind)).toEqual(['totp']);
    expect((await post(jar, added, 'email', { new_email: 'moved@example.com' })).status).toBe(303);
    expect(await mails(admin, 'moved@example.com', 'email_change')).toHaveLength(1);
    // Used once: the same code proves nothing again.
    expect((await post(jar, wrong, 'confirm', { confirm_code: code })).status).toBe(400);

    // A sign-in whose second step was taken here then proves itself, as a password, passkey or e-mail link does; with an
    // upstream's first factor too.
    const fresh = new CookieJar();
    const again = await settle(fresh, await fresh.visit(url));
    expect((await fresh.visit(emailFormAction(again, 'email-link'), { form: { csrf: csrfOf(again), email } })).status).toBe(200);
    const step = await settle(fresh, await fresh.visit(await magicLinkOf(admin, email, 2)));
    await withTimeLeftInStep();
    // The enrolment used this step's code.
    const freshPage = await settle(fresh, await fresh.submit(step, { code: codeAt(secret, Date.now() + 30_000) }));
    expect(freshPage.status, freshPage.body).toBe(200);
    expect(freshPage.body).not.toContain('name="confirm_code"');
    await signedInWith(['oauth', 'totp']);
    const stepped = await fresh.visit(url);
    expect(stepped.body).not.toContain('name="confirm_code"');
    const renewed = await post(fresh, stepped, 'mfa-recovery-codes', {});
    expect(renewed.status, renewed.body).toBe(200);
    expect(shownCodes(renewed)).toHaveLength(10);
    await signedInWith(['oauth']);
    const upstreamAlone = await post(fresh, renewed, 'mfa-recovery-codes', {});
    expect(upstreamAlone.status).toBe(400);
    expect(upstreamAlone.body).toContain(confirmFirst);
  });

  it('a passkey counts as a second step: with one, the last code factor goes under required, and the recovery codes stay', async () => {
    const { userId, jar, secret } = await withTotp('kip@example.com');
    // A key of another host is a second step too: it is not the page's to judge where the user signs in.
    await giveKey(app, app.root.applicationId, userId, 'keys.example');
    const codesBefore = await app.sql<{ n: number }>(`select count(*)::int as n from mfa_recovery_code where user_id = ? and used_at is null`, [userId]);
    expect((await app.http.put('/policies/mfa', { enforcement: 'required', factors: ['totp', 'webauthn'], rememberDeviceDays: 30 })).status).toBe(200);
    try {
      const page = await pageAfterStep(jar, 'kip@example.com', secret);
      const removed = await post(jar, page, 'mfa-remove', { remove_password: PASSWORD, factor: (await factorsOf(userId))[0]!.id });
      expect(removed.status, removed.body.slice(-800)).toBe(303);
      expect(await factorsOf(userId)).toHaveLength(0);
      expect(await app.sql(`select count(*)::int as n from mfa_recovery_code where user_id = ? and used_at is null`, [userId])).toEqual(codesBefore);
    } finally {
      expect((await app.http.put('/policies/mfa', { enforcement: 'optional', factors: ['totp', 'email_otp'], rememberDeviceDays: 30 })).status).toBe(200);
    }
  });

  /** Refused as a suspended user's form is, with no factor, recovery code, record or mail of an enrolment. */
  async function refusedAsSuspended(refused: Visit, userId: string, email: string) {
    expect(refused.status, refused.body.slice(-800)).toBe(403);
    expect(refused.body).toContain('is suspended: nothing was changed.');
    expect(await factorsOf(userId)).toEqual([]);
    expect(await app.sql(`select 1 from mfa_recovery_code where user_id = ?`, [userId])).toEqual([]);
    expect(await auditActions(userId)).not.toContain('user.mfa.enrolled');
    expect(await lastMail(email, 'mfa_enrolled')).toBeUndefined();
  }

  it('a user suspended between the page shown and its authenticator app posted: refused as suspended, nothing stored', async () => {
    const userId = await createUser('mia@example.com');
    const { jar, page } = await openAccount('mia@example.com');
    expect((await app.http.post(`/users/${userId}/suspend`, {})).status).toBe(200);
    await refusedAsSuspended(await post(jar, page, 'mfa-totp', { totp_code: codeAt(offeredSecret(page)), totp_password: PASSWORD }), userId, 'mia@example.com');
  });

  it('a user suspended once the mailed code is taken (the page read them active): the factor is judged with their row, so nothing is stored', async () => {
    const userId = await createUser('moe@example.com');
    const { jar, page } = await openAccount('moe@example.com');
    const open = await jar.visit((await post(jar, page, 'mfa-email-send', {})).location!);
    const code = /\b(\d{6})\b/.exec((await lastMail('moe@example.com', 'email_otp'))!)![1]!;
    // The code's attempt is taken after the page has read the user, and before the factor is added.
    const refused = await suspendedAtWrite(app, userId, { table: 'mfa_email_code', when: 'true' }, () =>
      post(jar, open, 'mfa-email', { email_code: code, email_factor_password: PASSWORD }),
    );
    await refusedAsSuspended(refused, userId, 'moe@example.com');
  });

  it('a user suspended once the page asked for an e-mail code (the page read them active): no code is stored or mailed, the page says the account is suspended', async () => {
    const userId = await createUser('mo@example.com');
    const { jar, page } = await openAccount('mo@example.com');
    const refused = await suspendedInTurn(app, userId, askedForLock(app.root.applicationId, 'mo@example.com'), () => post(jar, page, 'mfa-email-send', {}));
    expect(refused.status, refused.body.slice(-800)).toBe(403);
    expect(refused.body).toContain('is suspended: nothing was changed.');
    expect(await app.sql(`select 1 from mfa_email_code where user_id = ?`, [userId])).toEqual([]);
    expect(await lastMail('mo@example.com', 'email_otp')).toBeUndefined();
  });

  it('the password replaced once the mailed code is taken (the page read the old one): nothing is stored, the page asks to sign in again', async () => {
    const userId = await createUser('rex@example.com');
    const { jar, page } = await openAccount('rex@example.com');
    const open = await jar.visit((await post(jar, page, 'mfa-email-send', {})).location!);
    const code = /\b(\d{6})\b/.exec((await lastMail('rex@example.com', 'email_otp'))!)![1]!;
    const replace = `update app_user set password_hash = 'replaced-by-the-owner' where id = '${userId}'`;
    const refused = await changedAtWrite(app, replace, { table: 'mfa_email_code', when: 'true' }, () =>
      post(jar, open, 'mfa-email', { email_code: code, email_factor_password: PASSWORD }),
    );
    expect(refused.status, refused.body.slice(-800)).toBe(400);
    expect(refused.body).toContain('For your security, sign in again to make this change.');
    expect(await factorsOf(userId)).toEqual([]);
    expect(await app.sql(`select 1 from mfa_recovery_code where user_id = ?`, [userId])).toEqual([]);
    expect(await auditActions(userId)).not.toContain('user.mfa.enrolled');
    expect(await lastMail('rex@example.com', 'mfa_enrolled')).toBeUndefined();
  });

  it.skipIf(usingEmbeddedDatabase())('a user suspended while an added factor, a removal and new recovery codes wait for their row: each is refused, nothing changes', async () => {
    const { userId, jar, page } = await withTotp('mel@example.com');
    const [factor] = await factorsOf(userId);
    const open = await jar.visit((await post(jar, page, 'mfa-email-send', {})).location!);
    const code = /\b(\d{6})\b/.exec((await lastMail('mel@example.com', 'email_otp'))!)![1]!;
    const codesBefore = await recoveryCodesOf(userId);
    const answers = await behindUserRow(userId, `status = 'suspended'`, [
      () => post(jar, open, 'mfa-email', { email_code: code, email_factor_password: PASSWORD }),
      () => post(jar, page, 'mfa-remove', { remove_password: PASSWORD, factor: factor!.id }),
      () => post(jar, page, 'mfa-recovery-codes', { codes_password: PASSWORD }),
    ]);
    for (const answer of answers) {
      expect(answer.status, answer.body.slice(-800)).toBe(403);
      expect(answer.body).toContain('is suspended: nothing was changed.');
    }
    expect(await factorsOf(userId)).toEqual([factor]);
    expect(await recoveryCodesOf(userId)).toEqual(codesBefore);
    const actions = await auditActions(userId);
    expect(actions.filter((action) => action === 'user.mfa.enrolled')).toHaveLength(1);
    expect(actions).not.toContain('user.mfa.removed');
    expect(actions).not.toContain('user.mfa.recovery_codes.renewed');
  });
  it.skipIf(usingEmbeddedDatabase())('the password replaced while a removal and new recovery codes wait for their row (the page read the old one): each asks to sign in again, nothing changes', async () => {
    const { userId, jar, page } = await withTotp('pat@example.com');
    const [factor] = await factorsOf(userId);
    const codesBefore = await recoveryCodesOf(userId);
    const answers = await behindUserRow(userId, `password_hash = 'replaced-by-the-owner'`, [
      () => post(jar, page, 'mfa-remove', { remove_password: PASSWORD, factor: factor!.id }),
      () => post(jar, page, 'mfa-recovery-codes', { codes_password: PASSWORD }),
    ]);
    for (const answer of answers) {
      expect(answer.status, answer.body.slice(-800)).toBe(400);
      expect(answer.body).toContain('For your security, sign in again to make this change.');
    }
    expect(await factorsOf(userId)).toEqual([factor]);
    expect(await recoveryCodesOf(userId)).toEqual(codesBefore);
    const actions = await auditActions(userId);
    expect(actions).not.toContain('user.mfa.removed');
    expect(actions).not.toContain('user.mfa.recovery_codes.renewed');
  });
});

describe('suspension', () => {
  it('a user suspended once the page asked for a new address (the page read them active): no link is issued or mailed, the page says the account is suspended', async () => {
    const userId = await createUser('sue@example.com');
    const { jar, page } = await openAccount('sue@example.com');
    const refused = await suspendedInTurn(app, userId, askedForLock(app.root.applicationId, 'sue.new@example.com'), () => askEmailChange(jar, page, 'sue.new@example.com'));
    expect(refused.status, refused.body.slice(-800)).toBe(403);
    expect(refused.body).toContain('is suspended: nothing was changed.');
    expect(await app.sql(`select 1 from email_link_token where user_id = ? and used_at is null`, [userId])).toEqual([]);
    expect(await mails(app.http, 'sue.new@example.com', 'email_change')).toEqual([]);
  });

  it('the password replaced once the page asked for a new address (the page read the old one): no link is issued or mailed, the page asks to sign in again', async () => {
    const userId = await createUser('sal@example.com');
    const { jar, page } = await openAccount('sal@example.com');
    const replace = `update app_user set password_hash = 'replaced-by-the-owner' where id = '${userId}'`;
    const refused = await changedInTurn(app, replace, askedForLock(app.root.applicationId, 'sal.new@example.com'), () => askEmailChange(jar, page, 'sal.new@example.com'));
    expect(refused.status, refused.body.slice(-800)).toBe(400);
    expect(refused.body).toContain('For your security, sign in again to make this change.');
    expect(await app.sql(`select 1 from email_link_token where user_id = ? and used_at is null`, [userId])).toEqual([]);
    expect(await mails(app.http, 'sal.new@example.com', 'email_change')).toEqual([]);
  });

  it('a user suspended while on the page is told so, and nothing changes', async () => {
    const userId = await createUser('ola@example.com');
    const { jar, page } = await openAccount('ola@example.com');
    expect((await app.http.post(`/users/${userId}/suspend`, {})).status).toBe(200);
    const refused = await post(jar, page, 'password', { current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(refused.status, refused.body).toBe(403);
    expect(refused.body).toContain('is suspended: nothing was changed.');
    expect(refused.body).not.toContain('The current password is incorrect.');
    expect(await auditActions(userId)).not.toContain('user.password.changed');
  });

  it.skipIf(usingEmbeddedDatabase())('a user suspended while a new name waits for their row: refused as suspended, the name unchanged', async () => {
    const userId = await createUser('renamed.late@example.com');
    const { jar, page } = await openAccount('renamed.late@example.com');
    const [refused] = await behindUserRow(userId, `status = 'suspended'`, [
      () => post(jar, page, 'name', { name: 'Ned Kelly' }),
    ]);
    expect(refused!.status, refused!.body.slice(-800)).toBe(403);
    expect(refused!.body).toContain('is suspended: nothing was changed.');
    expect((await app.http.get(`/users/${userId}`)).body.name).toBe('Kim');
    expect(await auditActions(userId)).not.toContain('user.name.changed');
  });
});

describe('a lock on the account', () => {
  it('while it runs, the page is not shown; once it has run out, the browser session opens it and its forms work, as the OP serves it', async () => {
    const userId = await createUser('lena@example.com');
    const { jar, page } = await openAccount('lena@example.com');
    const lock = async (until: string) => {
      await app.sql(`update app_user set status = 'locked', locked_until = now() + ?::interval where id = ?`, [until, userId]);
      await app.gatehouse.services.invalidations.publish({ kind: 'user', id: userId });
    };
    await lock('10 minutes');
    expect((await jar.visit(accountUrl())).status).toBe(303);
    expect((await post(jar, page, 'name', { name: 'Locked Out' })).status).toBeGreaterThanOrEqual(400);

    // Run out, unlifted: the row reads `locked` until a sign-in lifts it, but the user may act again (the API says active).
    await lock('-1 minute');
    expect((await app.http.get(`/users/${userId}`)).body.status).toBe('active');
    const silent = await jar.visit(codeAuthorizationUrl(issuer, clientId, REDIRECT_URI, { prompt: 'none' }));
    expect(new URL(silent.location!).searchParams.get('code')).not.toBeNull();
    const shown = await jar.visit(accountUrl());
    expect(shown.status, shown.location ?? '').toBe(200);
    expect((await post(jar, shown, 'name', { name: 'Lena Back' })).status).toBe(303);
    const changed = await post(jar, shown, 'password', { current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(changed.status, changed.body).toBe(303);
    expect(await auditActions(userId)).toContain('user.password.changed');
  });
});

describe('password maxAge', () => {
  let another: BootstrapResult;
  let admin: HttpClient;
  let northClient: string;
  let ivyNorth: string;
  let southId: string;

  const backdate = (userId: string) => app.sql(`update app_user set password_changed_at = now() - interval '3 days' where id = ?`, [userId]);

  beforeAll(async () => {
    another = await app.bootstrapAnother();
    admin = new HttpClient(app.baseUrl, { apiKey: another.apiKey });
    const north = await app.createTenant('North', another);
    const south = await app.createTenant('South', another);
    southId = south;
    expect((await admin.patch(`/applications/${another.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    // North's own policy: passwords live 1 day; South keeps the application's (no maxAge).
    const policy = await admin.put(`/applications/${another.applicationId}/tenants/${north}/policies/password`, { maxAge: 1 });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    for (const tenant of [north, south]) {
      const user = await createUser('ivy@example.com', admin, `/applications/${another.applicationId}/tenants/${tenant}/users`);
      await backdate(user);
      if (tenant === north) ivyNorth = user;
    }
    northClient = (await createTestClient(app, { type: 'web', applicationId: another.applicationId, redirectUris: [REDIRECT_URI] })).clientId;
  });

  it('an expired password is changed before the sign-in completes, in its tenant only', async () => {
    const south = await signIn('ivy@example.com', PASSWORD, new CookieJar(), issuer, northClient, { tenant: 'south' });
    expect(south.answer.location).toMatch(CODE_AT_CLIENT);

    const { jar, answer: form } = await signIn('ivy@example.com', PASSWORD, new CookieJar(), issuer, northClient, { tenant: 'north' });
    expect(form.url).toMatch(new RegExp(`^${issuer}/interaction/[\\w-]+/password$`));
    expect(form.status).toBe(200);
    expect(form.body).toContain('The password of ivy@example.com has expired.');
    // The same password again, or one the policy refuses: the form again, nothing changed.
    expect((await jar.submit(form, { password: PASSWORD })).status).toBe(400);
    expect((await jar.submit(form, { password: 'short' })).status).toBe(400);
    // Without the proof of the password (another browser), the step is refused.
    const stranger = new CookieJar();
    expect((await stranger.visit(form.url, { form: { ...readForm(form.url, form.body).fields, password: NEW_PASSWORD } })).status).toBe(400);

    const done = await settle(jar, await jar.submit(form, { password: NEW_PASSWORD }));
    expect(done.location).toMatch(CODE_AT_CLIENT);
    const [row] = await app.sql<{ fresh: boolean }>(`select password_changed_at > now() - interval '1 minute' as fresh from app_user where id = ?`, [ivyNorth]);
    expect(row!.fresh).toBe(true);
    expect(await auditActions(ivyNorth)).toContain('user.password.changed');
    // Signed in with the new one, nothing more is asked.
    const again = await signIn('ivy@example.com', NEW_PASSWORD, new CookieJar(), issuer, northClient, { tenant: 'north' });
    expect(again.answer.location).toMatch(CODE_AT_CLIENT);
  });

  it('the account page of a tenant path, or of a tenant’s custom domain, is that tenant’s, for its users', async () => {
    const { page } = await openAccount('ivy@example.com', PASSWORD, new CookieJar(), accountUrl(`${issuer}/t/south`, northClient));
    expect(page.status).toBe(200);
    expect(page.body).toContain('– South</title>');
    expect(formOf(page, 'name').action).toBe(`${issuer}/t/south/account/name`);

    await addDomain(app, { apiKey: another.apiKey, applicationId: another.applicationId, tenantId: southId }, 'login.south.example');
    const onDomain = await openAccount('ivy@example.com', PASSWORD, new CookieJar(fetchVia(app.baseUrl)), accountUrl('http://login.south.example', northClient));
    expect(onDomain.page.status).toBe(200);
    expect(onDomain.page.body).toContain('– South</title>');
    expect(formOf(onDomain.page, 'name').action).toBe('http://login.south.example/account/name');
  });
});

describe('the audit log of a shared user’s tenants', () => {
  const tenantPath = (tenantId: string) => `/applications/${app.root.applicationId}/tenants/${tenantId}`;
  const offeredSecret = (page: Visit) => /Key: <code>([A-Z2-7 ]+)<\/code>/.exec(page.body)![1]!.replaceAll(' ', '');
  const readerOf = (tenantId: string) => issueTestKey(app, { tenantId, permissions: ['users:read', 'audit_logs:read'] });
  type Read = { id: string; action: string; tenantId: string | null };
  const readBy = async (reader: HttpClient, userId: string) => ((await reader.get(`/audit-logs?actor=${userId}`)).body.data as Read[]).map(({ id, action, tenantId }) => ({ id, action, tenantId }));

  it('reads the changes a member made on the application’s shared surface (password, factor, codes, address); a tenant they are not in reads none; one made on a tenant’s page is that tenant’s alone', async () => {
    const [one, two, three] = [await app.createTenant('Own One'), await app.createTenant('Own Two'), await app.createTenant('Own Three')];
    const userId = await createUser('own-shared@example.com', app.http, `${tenantPath(one)}/users`);
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [one, two] })).status).toBe(200);

    // On the first tenant's page: filed under that tenant, which alone reads it.
    const onOne = await openAccount('own-shared@example.com', PASSWORD, new CookieJar(), accountUrl(issuer, clientId, { tenant: one }));
    expect((await post(onOne.jar, onOne.page, 'name', { name: 'Kim Own' })).status).toBe(303);
    const [named] = await app.sql<{ id: string; tenant_id: string | null }>(`select id, tenant_id from audit_log where target_id = ? and action = 'user.name.changed'`, [userId]);
    expect(named).toEqual({ id: expect.any(String), tenant_id: one });
    expect((await (await readerOf(one)).get(`/audit-logs/${named!.id}`)).status).toBe(200);
    for (const tenantId of [two, three]) expect((await (await readerOf(tenantId)).get(`/audit-logs/${named!.id}`)).status).toBe(404);

    // On the application's own page (no tenant asked), signed in through the tenant choice its sign-in asks for.
    const jar = new CookieJar();
    const signInPage = await settle(jar, await jar.visit(accountUrl()));
    const chooser = await settle(jar, await jar.submit(signInPage, { email: 'own-shared@example.com', password: PASSWORD }));
    expect(chooser.url, chooser.body).toMatch(/\/tenant$/);
    const page = await settle(jar, await jar.submit(chooser, { tenant: one }));
    expect(page.url.startsWith(`${issuer}/account?`), page.url).toBe(true);
    const changed = await post(jar, page, 'password', { current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(changed.status, changed.body).toBe(303);
    const shown = await jar.visit(changed.location!);
    const added = await post(jar, shown, 'mfa-totp', { totp_code: codeAt(offeredSecret(shown)), totp_password: NEW_PASSWORD });
    expect(added.status, added.body).toBe(200);
    expect((await post(jar, added, 'mfa-recovery-codes', { codes_password: NEW_PASSWORD })).status).toBe(200);
    const [factor] = await app.sql<{ id: string }>(`select id from mfa_factor where user_id = ?`, [userId]);
    expect((await post(jar, added, 'mfa-remove', { remove_password: NEW_PASSWORD, factor: factor!.id })).status).toBe(303);
    // The new address's link, opened on the application's pages too.
    expect((await post(jar, added, 'email', { email_password: NEW_PASSWORD, new_email: 'own-shared.new@example.com' })).status).toBe(303);
    const link = await accountLinkOf(app.http, 'own-shared.new@example.com', 'email_change');
    const opener = new CookieJar();
    expect((await opener.submit(await opener.visit(link), {})).status).toBe(200);

    const records = await app.sql<{ id: string; action: string; tenant_id: string | null }>(
      `select id, action, tenant_id from audit_log where target_id = ? and actor_id = target_id and tenant_id is null order by id`,
      [userId],
    );
    expect(records.map(({ action, tenant_id }) => ({ action, tenant_id }))).toEqual(
      ['user.password.changed', 'user.mfa.enrolled', 'user.mfa.recovery_codes.renewed', 'user.mfa.removed', 'user.email.changed'].map((action) => ({ action, tenant_id: null })),
    );
    const own = records.map(({ id, action }) => ({ id, action, tenantId: null }));
    for (const tenantId of [one, two]) {
      const reader = await readerOf(tenantId);
      const read = await readBy(reader, userId);
      expect(read.filter((record) => record.tenantId === null)).toEqual([...own].reverse());
      // The sign-ins stay the tenant they chose: the second tenant reads none of them.
      if (tenantId === two) expect(read.filter((record) => record.tenantId !== null)).toEqual([]);
      for (const { id } of own) expect((await reader.get(`/audit-logs/${id}`)).status).toBe(200);
    }
    const outsider = await readerOf(three);
    expect(await readBy(outsider, userId)).toEqual([]);
    for (const { id } of own) expect((await outsider.get(`/audit-logs/${id}`)).status).toBe(404);
  });
});
