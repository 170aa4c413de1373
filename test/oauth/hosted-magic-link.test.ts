import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockedTransaction } from '../../src/db/advisory-lock.ts';
import { askedForLock, AskedForMail } from '../../src/domain/email/flow-mail.ts';
import { newId } from '../../src/ids.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar, type Visit } from '../support/cookie-jar.ts';
import { accountLinkOf, csrfOf, emailFormAction, headerNames, magicLinkOf, mailedCode, mails, normalized, shownCode } from '../support/email-sign-in.ts';
import type { FetchLike } from '../support/host-fetch.ts';
import { HttpClient } from '../support/http.ts';
import { clientWithKey } from '../support/keys.ts';
import { type AuthorizationFlow, createTestClient, decodeJwt, discover, redeemAfter, startAuthorization } from '../support/oauth.ts';
import { mailSignInTenants } from '../support/surface-sign-in.ts';
import { createPasswordUser, PASSWORD } from '../support/users.ts';
import { suspendedInTurn } from '../support/suspend-trigger.ts';
import { REDIRECT_URI, startHostedTestApp } from '../support/hosted-app.ts';

/**
 * Magic links on the hosted sign-in page (the `magic_link` provider): e-mail in, a single-use link that expires, sent
 * through the outbox; opened in the asking browser it completes the sign-in, opened in another it asks to confirm and
 * then shows a code to type in the asking browser. On the shared surface, a tenant's path and a custom domain; an
 * unknown address answered alike; the method refused where the scope's providers do not enable it.
 */
const NORTH_HOST = 'login.north.example';

let app: TestApp;
let issuer: string;
let config: oidc.Configuration;

beforeAll(async () => {
  ({ app, issuer, config } = await startHostedTestApp());
  const created = await app.http.post('/auth-providers', { type: 'magic_link', config: { linkLifetimeMinutes: 10 } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
});
afterAll(async () => app?.close());


const authorize = (configuration = config, parameters: Record<string, string> = {}, jar = new CookieJar()): Promise<AuthorizationFlow> =>
  startAuthorization(configuration, { redirectUri: REDIRECT_URI, resource: `${issuer}/api/v1` }, { scope: 'openid email', ...parameters }, jar);

/** Asks for a link on the flow's sign-in page: the "check your email" answer. */
const askLink = (flow: AuthorizationFlow, email: string, headers: Record<string, string> = {}): Promise<Visit> =>
  flow.jar.visit(emailFormAction(flow.page, 'email-link'), { form: { csrf: csrfOf(flow.page), email }, headers });

const tokensAfter = (configuration: oidc.Configuration, flow: AuthorizationFlow, answer: Visit) => redeemAfter(configuration, flow, answer, `${issuer}/api/v1`);

describe('magic link on the shared surface', () => {
  it('the sign-in page offers it beside the password; the link signs in the asking browser, once', async () => {
    const userId = await createPasswordUser(app.http, 'ada@example.com');
    const flow = await authorize();
    expect(flow.page.body).toContain('name="password"');
    expect(flow.page.body).toContain('Email me a sign-in link');
    expect(flow.page.body).not.toContain('Email me a sign-in code');
    const sent = await askLink(flow, 'ada@example.com');
    expect(sent.status).toBe(200);
    expect(sent.body).toContain('<h1>Check your email</h1>');
    expect(sent.body).toContain('name="code"');
    const link = await magicLinkOf(app.http, 'ada@example.com');
    expect(link.startsWith(`${issuer}/interaction/`)).toBe(true);
    const [mail] = await mails(app.http, 'ada@example.com', 'magic_link');
    expect(mail!.text).toContain('expires in 10 minutes');

    const opened = await flow.jar.visit(link);
    expect(opened.status, opened.body).toBe(303);
    const tokens = await tokensAfter(config, flow, opened);
    expect(decodeJwt(tokens.access_token).payload['sub']).toBe(userId);
    const sessions = await app.http.get(`/users/${userId}/sessions`);
    expect(sessions.body.data[0].methods).toEqual(['magic_link']);
    const [audit] = await app.sql<{ after: { method: string } }>(
      `select after from audit_log where action = 'user.signed_in' and target_id = ? order by id desc limit 1`,
      [userId],
    );
    expect(audit!.after.method).toBe('magic_link');

    // Used: the same link refuses, in this browser and in any other.
    expect((await flow.jar.visit(link)).status).toBe(400);
    expect((await new CookieJar().visit(link)).status).toBe(400);
  });

  it('an expired link and a forged one are refused; only the newest link of an interaction works', async () => {
    const userId = await createPasswordUser(app.http, 'bo@example.com');
    const flow = await authorize();
    await askLink(flow, 'bo@example.com');
    const first = await magicLinkOf(app.http, 'bo@example.com');
    await askLink(flow, 'bo@example.com');
    const second = await magicLinkOf(app.http, 'bo@example.com', 2);
    expect((await flow.jar.visit(first)).status).toBe(400);
    expect((await flow.jar.visit(second.replace(/token=[^&]+/, `token=${app.root.applicationId}.forged`))).status).toBe(400);
    await app.sql(`update email_sign_in set expires_at = now() - interval '1 second' where user_id = ?`, [userId]);
    const expired = await flow.jar.visit(second);
    expect(expired.status).toBe(400);
    expect(expired.body).toContain('This link has expired, was already used');
  });

  it('an unknown address gets the same page, status and headers; with sign-up open its link makes the account, verified', async () => {
    await createPasswordUser(app.http, 'dee@example.com');
    const known = await askLink(await authorize(), 'dee@example.com');
    const unknownFlow = await authorize();
    const unknown = await askLink(unknownFlow, 'eve@example.com');
    expect(unknown.status).toBe(known.status);
    expect(normalized(unknown, 'eve@example.com')).toBe(normalized(known, 'dee@example.com'));
    expect(headerNames(unknown)).toEqual(headerNames(known));

    // The root application's provider allows sign-up (the default): the mail goes out, and its use creates the account.
    const link = await magicLinkOf(app.http, 'eve@example.com');
    const answer = await unknownFlow.jar.visit(link);
    expect(answer.status, answer.body).toBe(303);
    const users = await app.http.get('/users?pageSize=100');
    const eve = (users.body.data as { id: string; email: string; emailVerified?: boolean }[]).find((user) => user.email === 'eve@example.com');
    expect(eve).toBeDefined();
    const [row] = await app.sql<{ email_verified: boolean; password_hash: string | null }>(`select email_verified, password_hash from app_user where id = ?`, [eve!.id]);
    expect(row).toEqual({ email_verified: true, password_hash: null });
    expect(decodeJwt((await tokensAfter(config, unknownFlow, answer)).access_token).payload['sub']).toBe(eve!.id);
  });

  it('an address a restore link holds for the account that left it makes no account by link, the page says so; once the link ends it does', async () => {
    const owner = await createPasswordUser(app.http, 'held-link-owner@example.com');
    const [client] = await app.sql<{ id: string }>(`select id from oauth_client where application_id = ? limit 1`, [app.root.applicationId]);
    // The owner's restore link (issueRestoreLink) for the address they left.
    await app.sql(
      `insert into email_link_token (application_id, id, user_id, client_id, purpose, token_hash, expires_at, restores_email, restores_email_normalized,
                                     restores_added_since, proof_password_hash)
       values (?, ?, ?, ?, 'password_reset', 'held-link', now() + interval '1 hour', 'held-link@example.com', 'held-link@example.com', now(), 'proof')`,
      [app.root.applicationId, newId(), owner, client!.id],
    );
    const flow = await authorize();
    expect((await askLink(flow, 'held-link@example.com')).status).toBe(200);
    const refused = await flow.jar.visit(await magicLinkOf(app.http, 'held-link@example.com'));
    expect(refused.status).toBe(409);
    expect(refused.body).toContain('This address is held for the account that used it, whose owner may take it back');
    expect(await app.sql(`select id from app_user where email_normalized = 'held-link@example.com'`)).toEqual([]);

    await app.sql(`update email_link_token set used_at = now() where token_hash = 'held-link'`);
    const again = await authorize();
    expect((await askLink(again, 'held-link@example.com')).status).toBe(200);
    expect((await again.jar.visit(await magicLinkOf(app.http, 'held-link@example.com', 2))).status).toBe(303);
    expect(await app.sql(`select id from app_user where email_normalized = 'held-link@example.com'`)).toHaveLength(1);
  });

  it('sign-up closed after a link or code was mailed to an unknown address: neither makes the account any more', async () => {
    const other = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: other.apiKey });
    const provider = await admin.post('/auth-providers', { type: 'magic_link', config: { signInWith: 'link_and_code' } });
    expect(provider.status, JSON.stringify(provider.body)).toBe(201);
    const client = await createTestClient(app, { type: 'web', applicationId: other.applicationId, redirectUris: [REDIRECT_URI] });
    const configuration = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
    const byLink = await authorize(configuration);
    expect((await askLink(byLink, 'late@example.com')).status).toBe(200);
    const link = await magicLinkOf(admin, 'late@example.com');
    const byCode = await authorize(configuration);
    const check = await byCode.jar.visit(emailFormAction(byCode.page, 'email-code'), { form: { csrf: csrfOf(byCode.page), email: 'late@example.com' } });
    expect(check.status).toBe(200);
    const code = await mailedCode(admin, 'late@example.com');

    expect((await admin.patch(`/auth-providers/${provider.body.id}`, { config: { allowSignup: false } })).status).toBe(200);
    expect((await byLink.jar.visit(link)).status).toBe(400);
    expect((await byCode.jar.submit(check, { code })).status).toBe(400);
    expect(await app.sql(`select id from app_user where application_id = ? and email = 'late@example.com'`, [other.applicationId])).toEqual([]);
  });

  it('into an account someone signed up for with a password, never confirmed: refused, the page says to reset the password first', async () => {
    // Whoever typed the address signed up with a password of theirs; the address's owner then asks for a link.
    const squatter = await authorize();
    const signupPath = /<a href="([^"]+\/signup)">/.exec(squatter.page.body)![1]!;
    const form = await squatter.jar.visit(new URL(signupPath, squatter.page.url).href);
    expect((await squatter.jar.submit(form, { name: 'Squatter', email: 'owned@example.com', password: 'Squatter-Horse-9' })).status).toBe(200);
    const [account] = await app.sql<{ id: string }>(`select id from app_user where email = 'owned@example.com'`);

    const owner = await authorize();
    await askLink(owner, 'owned@example.com');
    const answer = await owner.jar.visit(await magicLinkOf(app.http, 'owned@example.com'));
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('first set a new password with “Forgot your password?”');
    expect(answer.body).toContain('Forgot your password?');
    const [row] = await app.sql<{ email_verified: boolean }>(`select email_verified from app_user where id = ?`, [account!.id]);
    expect(row).toEqual({ email_verified: false });
    const records = await app.http.get(`/audit-logs?target=${account!.id}&action=user.sign_in_failed`);
    expect(records.body.data[0].changes.after).toMatchObject({ method: 'magic_link', reason: 'email_unverified' });
    expect((await app.http.get(`/audit-logs?target=${account!.id}&action=user.signed_in`)).body.data).toEqual([]);
  });

  it('into an account whose address a tenant’s administrator set and nobody proved: its maker keeps no way in, and the address is proven', async () => {
    // The maker signs up by e-mail (no password), joins a tenant, and that tenant's key gives the account someone's address.
    const tenantId = (await app.http.post(`/applications/${app.root.applicationId}/tenants`, { name: 'Makers', slug: 'makers' })).body.id as string;
    const maker = await authorize();
    await askLink(maker, 'maker@example.com');
    const made = await maker.jar.visit(await magicLinkOf(app.http, 'maker@example.com'));
    expect(made.status, made.body).toBe(303);
    await tokensAfter(config, maker, made);
    const [account] = await app.sql<{ id: string }>(`select id from app_user where email = 'maker@example.com'`);
    expect((await app.http.patch(`/users/${account!.id}`, { tenantIds: [tenantId] })).status).toBe(200);
    const tenantKey = await clientWithKey(app, ['users:read', 'users:write'], tenantId);
    const renamed = await tenantKey.patch(`/users/${account!.id}`, { email: 'owner@example.com' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(await app.sql(`select email_verified from app_user where id = ?`, [account!.id])).toEqual([{ email_verified: false }]);
    expect((await app.http.get(`/users/${account!.id}/sessions`)).body.data).toHaveLength(1);

    // The address's owner signs in by its link: the maker's sign-in ends, and the account's address is proven now.
    const owner = await authorize();
    await askLink(owner, 'owner@example.com');
    const answer = await owner.jar.visit(await magicLinkOf(app.http, 'owner@example.com'));
    expect(answer.status, answer.body).toBe(303);
    const tokens = await tokensAfter(config, owner, answer);
    expect(decodeJwt(tokens.id_token!).payload).toMatchObject({ sub: account!.id, email: 'owner@example.com', email_verified: true });
    expect(await app.sql(`select email_verified, tenant_ids from app_user where id = ?`, [account!.id])).toEqual([{ email_verified: true, tenant_ids: [tenantId] }]);
    const sessions = (await app.http.get(`/users/${account!.id}/sessions`)).body.data as { methods: string[] }[];
    expect(sessions).toHaveLength(1);
    expect((await app.http.get(`/audit-logs?target=${account!.id}&action=user.email.verified`)).body.data).toHaveLength(1);
  });

  it('a sign-up by link whose address a tenant’s administrator gives an account before the link is opened: that account is taken over, as one there when it was asked', async () => {
    const tenantId = (await app.http.post(`/applications/${app.root.applicationId}/tenants`, { name: 'Racers', slug: 'racers' })).body.id as string;
    const tenantKey = await clientWithKey(app, ['users:read', 'users:write'], tenantId);
    const owner = await authorize();
    await askLink(owner, 'raced@example.com');
    const link = await magicLinkOf(app.http, 'raced@example.com');
    // Asked as a sign-up (no account had the address); the tenant's account, made meanwhile, has it unproven.
    const made = await tenantKey.post('/users', { email: 'raced@example.com', name: 'Made by Racers' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const accountId = made.body.id as string;
    expect(await app.sql(`select email_verified, password_hash from app_user where id = ?`, [accountId])).toEqual([{ email_verified: false, password_hash: null }]);

    const answer = await owner.jar.visit(link);
    expect(answer.status, answer.body).toBe(303);
    const tokens = await tokensAfter(config, owner, answer);
    expect(decodeJwt(tokens.id_token!).payload).toMatchObject({ sub: accountId, email: 'raced@example.com', email_verified: true });
    expect(await app.sql(`select email_verified, tenant_ids from app_user where email = 'raced@example.com'`)).toEqual([{ email_verified: true, tenant_ids: [tenantId] }]);
    expect((await app.http.get(`/audit-logs?target=${accountId}&action=user.sign_up.disowned`)).body.data).toHaveLength(1);
    expect((await app.http.get(`/audit-logs?target=${accountId}&action=user.email.verified`)).body.data).toHaveLength(1);
  });

  it('a suspended user is mailed nothing and an interaction of another browser’s link is refused', async () => {
    const userId = await createPasswordUser(app.http, 'fay@example.com');
    expect((await app.http.post(`/users/${userId}/suspend`, {})).status).toBe(200);
    expect((await askLink(await authorize(), 'fay@example.com')).status).toBe(200);
    expect(await mails(app.http, 'fay@example.com', 'magic_link')).toEqual([]);

    await createPasswordUser(app.http, 'gus@example.com');
    const asking = await authorize();
    await askLink(asking, 'gus@example.com');
    const link = await magicLinkOf(app.http, 'gus@example.com');
    // The link names its interaction: brought to another one, in a browser with its own interaction, it does nothing.
    const elsewhere = await authorize();
    const uid = /\/interaction\/([\w-]+)$/.exec(elsewhere.page.url)![1]!;
    expect((await elsewhere.jar.visit(link.replace(/\/interaction\/[\w-]+\//, `/interaction/${uid}/`))).status).toBe(400);
    expect((await asking.jar.visit(link)).status).toBe(303);
  });

  it('a user suspended once the page read them active (the request waits for its turn at the address): nothing is stored or mailed', async () => {
    const userId = await createPasswordUser(app.http, 'hal@example.com');
    const flow = await authorize();
    const answer = await suspendedInTurn(app, userId, askedForLock(app.root.applicationId, 'hal@example.com'), () => askLink(flow, 'hal@example.com'));
    // Answered as for any address, so the page tells nothing.
    expect(answer.status).toBe(200);
    expect(await mails(app.http, 'hal@example.com', 'magic_link')).toEqual([]);
    expect(await app.sql('select 1 from email_sign_in where user_id = ?', [userId])).toEqual([]);
  });
});

describe('a link opened on another device: "was this you?"', () => {
  const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
  const IPHONE_SAFARI =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

  /** A sign-in asked for on a Windows PC, its link opened in a fresh browser on an iPhone; `tenant`: the page's, `member`:
   *  the only tenant the user is made in. */
  async function askedElsewhere(email: string, acceptLanguage = 'en', { tenant, member }: { tenant?: string; member?: string } = {}) {
    const userId = await createPasswordUser(app.http, email, '/users', member === undefined ? {} : { tenantId: member });
    const flow = await authorize(config, tenant === undefined ? {} : { tenant });
    const check = await askLink(flow, email, { 'user-agent': WINDOWS_CHROME });
    expect(check.status).toBe(200);
    const link = await magicLinkOf(app.http, email);
    const other = new CookieJar();
    const phone = { 'user-agent': IPHONE_SAFARI, 'accept-language': acceptLanguage };
    const question = await other.visit(link, { headers: phone });
    expect(question.status, question.body).toBe(200);
    const token = new URL(link).searchParams.get('token')!;
    /** Presses one of the page's buttons, as the phone. */
    const answer = (button: 'yes' | 'no', page = question) => {
      const pattern = button === 'no' ? /<form method="post" action="([^"]+)">/ : /formaction="([^"]+)"/;
      const action = new URL(pattern.exec(page.body)![1]!.replaceAll('&#38;', '&'), link).href;
      return other.visit(action, { form: { token }, headers: phone });
    };
    return { userId, flow, check, link, other, question, answer, token };
  }

  it('names the asking device, when it asked and the client, before any code; "Yes" shows the code, which signs in the asking browser only', async () => {
    const { userId, flow, check, link, other, question, answer } = await askedElsewhere('cy@example.com');
    expect(question.body).toContain('<h1>Was this you, on another device?</h1>');
    expect(question.body).toContain('<dt>Device</dt><dd>Chrome on Windows</dd>');
    expect(question.body).toMatch(/<dt>Asked<\/dt><dd>(now|\d+ minutes? ago)<\/dd>/);
    expect(question.body).toContain('<dt>Signing in to</dt><dd>test web client (');
    expect(question.body).toContain('nobody from');
    expect(question.body).not.toContain('class="code"');
    // "No" is the form's default; "Yes" its second button.
    expect(question.body).toMatch(/<button type="submit">No, it was not me<\/button>\n<button type="submit" class="secondary" formaction="[^"]+\/email-link\/confirm">Yes, show the code<\/button>/);
    // Opening it again (a mail scanner does) spends nothing.
    expect((await other.visit(link)).status).toBe(200);

    const shown = await answer('yes');
    expect(shown.status, shown.body).toBe(200);
    expect(shown.body).toContain('Never read it out or give it to anyone');
    const code = shownCode(shown);
    // The link is spent: neither browser can open it, nor answer it again.
    expect((await other.visit(link)).status).toBe(400);
    expect((await flow.jar.visit(link)).status).toBe(400);
    expect((await answer('no')).status).toBe(400);
    expect((await answer('yes')).status).toBe(400);

    const signedIn = await flow.jar.submit(check, { code });
    expect(signedIn.status, signedIn.body).toBe(303);
    const tokens = await tokensAfter(config, flow, signedIn);
    expect(decodeJwt(tokens.access_token).payload['sub']).toBe(userId);
    // The other browser holds no session: a sign-in there shows the form.
    const there = await authorize(config, {}, other);
    expect(there.page.status).toBe(200);
    expect(there.page.body).toContain('name="password"');
  });

  it('while the organization is deactivated, the other device is refused (403) and nothing is spent; on reactivation the code shows', async () => {
    const { link, other, answer } = await askedElsewhere('idle@example.com');
    const orgPath = `/organizations/${(await app.http.get(`/applications/${app.root.applicationId}`)).body.organizationId as string}`;
    expect((await app.http.post(`${orgPath}/deactivate`)).status).toBe(200);
    try {
      for (const refused of [await other.visit(link), await answer('yes'), await answer('no')]) {
        expect(refused.status, refused.body).toBe(403);
        expect(refused.body).toContain('My application is not available at the moment');
        expect(refused.body).not.toContain('class="code"');
      }
    } finally {
      expect((await app.http.post(`${orgPath}/reactivate`)).status).toBe(200);
    }
    const shown = await answer('yes');
    expect(shown.status, shown.body).toBe(200);
    expect(shown.body).toContain('class="code"');
  });

  it('in the reader’s language; a request without a User-Agent is an unknown device', async () => {
    const { question } = await askedElsewhere('de-reader@example.com', 'de');
    expect(question.body).toContain('<h1>Waren Sie das, auf einem anderen Gerät?</h1>');
    expect(question.body).toContain('<dt>Gerät</dt><dd>Chrome unter Windows</dd>');
    expect(question.body).toMatch(/<dt>Angefordert<\/dt><dd>(jetzt|vor \d+ Minuten?)<\/dd>/);
    expect(question.body).toContain('Nein, das war ich nicht');

    await createPasswordUser(app.http, 'no-agent@example.com');
    const flow = await authorize();
    // undici sends its own User-Agent unless one is given: an empty one stands for none.
    await askLink(flow, 'no-agent@example.com', { 'user-agent': '' });
    const unknown = await new CookieJar().visit(await magicLinkOf(app.http, 'no-agent@example.com'));
    expect(unknown.body).toContain('<dt>Device</dt><dd>An unknown device</dd>');
  });

  it('"No" ends the asking browser’s sign-in, recorded as declined: nothing shown, the link spent, no code of that interaction works', async () => {
    const { userId, flow, check, link, other, question, answer } = await askedElsewhere('dot@example.com');
    // A second tab of the same mail, open before the answer.
    const secondTab = await other.visit(link);
    const refused = await answer('no');
    expect(refused.status, refused.body).toBe(200);
    expect(refused.body).toContain('<h1>Sign-in refused</h1>');
    expect(refused.body).not.toContain('class="code"');
    const [row] = await app.sql<{ used: boolean; token_hash: string | null }>(
      `select used_at is not null as used, token_hash from email_sign_in where email = 'dot@example.com'`,
    );
    expect(row).toEqual({ used: true, token_hash: null });
    const [declined] = (await app.http.get(`/audit-logs?action=user.sign_in_failed&target=${userId}&pageSize=1`)).body.data;
    expect(declined).toMatchObject({ target: { id: userId }, changes: { after: { method: 'magic_link', reason: 'declined_by_user', email: 'dot@example.com' } } });

    // "Yes" afterwards, from the other tab: refused, no code.
    const late = await answer('yes', secondTab);
    expect(late.status).toBe(400);
    expect(late.body).not.toContain('class="code"');
    expect((await other.visit(link)).status).toBe(400);
    expect((await flow.jar.visit(link)).status).toBe(400);
    // The asking browser: whatever code it types is refused.
    for (const code of ['000000', '123456']) {
      const typed = await flow.jar.submit(check, { code });
      expect(typed.status).toBe(400);
      expect(typed.body).toContain('The code is incorrect or has expired');
    }
    expect(question.body).toContain('Chrome on Windows');
  });

  it('"No" on a tenant’s page for a user of another tenant only: that tenant’s log names no user, an unknown address declined', async () => {
    const [tenantA, tenantB] = [await app.createTenant('Decline A'), await app.createTenant('Decline B')];
    const { userId, answer } = await askedElsewhere('outsider@example.com', 'en', { tenant: tenantB, member: tenantA });
    expect((await answer('no')).status).toBe(200);
    const key = await app.http.post(`/applications/${app.root.applicationId}/tenants/${tenantB}/api-keys`, { name: 'B reader', permissions: ['audit_logs:read'] });
    const asB = new HttpClient(app.baseUrl, { apiKey: key.body.secret as string });
    const records = (await asB.get('/audit-logs?action=user.sign_in_failed')).body.data as { target: unknown; changes: { after: Record<string, unknown> } }[];
    expect(records.map((record) => [record.target, record.changes.after['reason'], record.changes.after['email']])).toEqual([[{ type: 'user', id: null }, 'unknown_user', 'outsider@example.com']]);
    expect(JSON.stringify(records)).not.toContain(userId);
  });

  it('refusals: a forged, expired or foreign token, another interaction’s path, a forged CSRF field on the code form', async () => {
    const { userId, flow, check, link, token } = await askedElsewhere('eli@example.com');
    const other = new CookieJar();
    const uid = /\/interaction\/([\w-]+)\//.exec(link)![1]!;
    const post = (path: 'confirm' | 'refuse', form: Record<string, string>, at = uid) => other.visit(`${issuer}/interaction/${at}/email-link/${path}`, { form });
    const elsewhere = /\/interaction\/([\w-]+)$/.exec((await authorize()).page.url)![1]!;
    for (const path of ['confirm', 'refuse'] as const) {
      for (const form of [{}, { token: `${app.root.applicationId}.forged` }, { token: token.replace(/^[^.]+/, crypto.randomUUID()) }] as Record<string, string>[]) {
        expect((await post(path, form)).status, `${path} ${JSON.stringify(form)}`).toBe(400);
      }
      expect((await post(path, { token }, elsewhere)).status).toBe(400);
    }
    // The code form of the asking browser still wants its CSRF field.
    const forged = await flow.jar.visit(new URL(/action="([^"]+\/code)"/.exec(check.body)![1]!, link).href, {
      form: { csrf: 'x'.repeat(43), email: 'eli@example.com', sent: 'link', code: '123456' },
    });
    expect(forged.status).toBe(403);
    // None of it touched the link; once expired, both answers are refused.
    expect((await other.visit(link)).status).toBe(200);
    await app.sql(`update email_sign_in set expires_at = now() - interval '1 second' where user_id = ?`, [userId]);
    expect((await other.visit(link)).status).toBe(400);
    for (const path of ['confirm', 'refuse'] as const) expect((await post(path, { token })).status).toBe(400);
  });
});

describe('in isolated tenants: a tenant’s path, its custom domain, and a tenant without the method', () => {
  let admin: HttpClient;
  let north: string;
  let via: FetchLike;
  let discoverAt: (at: string, fetchWith?: FetchLike) => Promise<oidc.Configuration>;

  beforeAll(async () => {
    // North's own providers: the password and magic links; South's: the password only.
    const providers = { north: [{ type: 'password' }, { type: 'magic_link', config: { allowSignup: false } }], south: [{ type: 'password' }] };
    ({ admin, north, via, discoverAt } = await mailSignInTenants(app, providers, NORTH_HOST));
  });

  async function signInByLink(configuration: oidc.Configuration, jar: CookieJar, linkOrigin: string) {
    const flow = await authorize(configuration, {}, jar);
    expect(flow.page.body).toContain('Email me a sign-in link');
    const before = (await mails(admin, 'hal@example.com', 'magic_link')).length;
    expect((await askLink(flow, 'hal@example.com')).status).toBe(200);
    const link = await magicLinkOf(admin, 'hal@example.com', before + 1);
    expect(link.startsWith(`${linkOrigin}/interaction/`), link).toBe(true);
    const answer = await flow.jar.visit(link);
    expect(answer.status, answer.body).toBe(303);
    return decodeJwt((await tokensAfter(configuration, flow, answer)).access_token).payload;
  }

  it('on the tenant’s path surface', async () => {
    const claims = await signInByLink(await discoverAt(`${issuer}/t/north`), new CookieJar(), issuer);
    expect(claims).toMatchObject({ iss: `${issuer}/t/north`, tenant_id: north });
  });

  it('on the tenant’s custom domain: the link leads to the domain', async () => {
    const claims = await signInByLink(await discoverAt(`http://${NORTH_HOST}`, via), new CookieJar(via), `http://${NORTH_HOST}`);
    expect(claims).toMatchObject({ iss: `http://${NORTH_HOST}`, tenant_id: north });
  });

  it('without sign-up, an unknown address is mailed nothing', async () => {
    const flow = await authorize(await discoverAt(`${issuer}/t/north`));
    expect((await askLink(flow, 'ivy@example.com')).status).toBe(200);
    expect(await mails(admin, 'ivy@example.com', 'magic_link')).toEqual([]);
  });

  it('a tenant whose providers do not enable it: not offered, its POST refused', async () => {
    const flow = await authorize(await discoverAt(`${issuer}/t/south`));
    expect(flow.page.status).toBe(200);
    expect(flow.page.body).toContain('name="password"');
    expect(flow.page.body).not.toContain('email-link');
    const uid = /\/interaction\/([\w-]+)$/.exec(flow.page.url)![1]!;
    const refused = await flow.jar.visit(`${issuer}/interaction/${uid}/email-link`, { form: { csrf: csrfOf(flow.page), email: 'hal@example.com' } });
    expect(refused.status).toBe(404);
    expect(refused.body).toContain('Signing in by email is not available for South');
    expect(await mails(admin, 'hal@example.com', 'magic_link')).toHaveLength(2);
  });
});

describe('mails one address is sent on request', () => {
  it('stop at MAILS_PER_ADDRESS_PER_HOUR an hour, whatever asks (links, resets): the pages answer alike, nothing more is queued', async () => {
    const capped = await startTestApp({ mailsPerAddressPerHour: 2 }, { reachablePublicUrl: true });
    try {
      expect((await capped.http.post('/auth-providers', { type: 'magic_link' })).status).toBe(201);
      expect((await capped.http.post('/users', { email: 'inbox@example.com', password: PASSWORD })).status).toBe(201);
      const client = await createTestClient(capped, { type: 'web', redirectUris: [REDIRECT_URI] });
      const cappedConfig = await discover(capped, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
      const ask = async (email: string) => {
        const flow = await startAuthorization(cappedConfig, { redirectUri: REDIRECT_URI, resource: '' }, { scope: 'openid email' }, new CookieJar());
        return askLink(flow, email);
      };
      const first = await ask('INBOX@example.com');
      expect((await ask('inbox@example.com')).status).toBe(200);
      // The third, in any case of the address: the same page, and no mail.
      const third = await ask('Inbox@Example.com');
      expect(third.status).toBe(first.status);
      expect(normalized(third, 'Inbox@Example.com')).toBe(normalized(first, 'INBOX@example.com'));
      expect(await mails(capped.http, 'inbox@example.com', 'magic_link')).toHaveLength(2);
      // Another kind of asked-for mail counts against the same address; another address is not held back.
      await lockedTransaction(capped.gatehouse.services.orm.em.fork(), askedForLock(capped.root.applicationId, 'inbox@example.com'), async (em) => {
        const sender = { applicationId: capped.root.applicationId, tenantId: null, requestId: crypto.randomUUID(), principal: { actor: { type: 'system', id: 'test' } }, services: capped.gatehouse.services };
        expect(await AskedForMail.admit({ em, sender, tenantId: null }, 'inbox@example.com')).toBeNull();
      });
      expect((await ask('other@example.com')).status).toBe(200);
      expect(await mails(capped.http, 'other@example.com', 'magic_link')).toHaveLength(1);
    } finally {
      await capped.close();
    }
  });

  it('count an address of no account under every spelling of its mailbox: its domain in Punycode, decomposed or upper case', async () => {
    const capped = await startTestApp({ mailsPerAddressPerHour: 2 }, { reachablePublicUrl: true });
    try {
      expect((await capped.http.post('/auth-providers', { type: 'magic_link' })).status).toBe(201);
      const client = await createTestClient(capped, { type: 'web', redirectUris: [REDIRECT_URI] });
      const cappedConfig = await discover(capped, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
      const ask = async (email: string) => {
        const flow = await startAuthorization(cappedConfig, { redirectUri: REDIRECT_URI, resource: '' }, { scope: 'openid email' }, new CookieJar());
        const answer = await askLink(flow, email);
        expect(answer.status).toBe(200);
      };
      // One mailbox, as the DNS and every provider read it (nodemailer and the providers send the domain in Punycode).
      for (const spelling of ['nobody@bücher.example', 'nobody@xn--bcher-kva.example', 'nobody@bu\u0308cher.example', 'NOBODY@BÜCHER.EXAMPLE']) await ask(spelling);
      const queued = await capped.sql<{ to_address: string }>(`select to_address from email_delivery where template_key = 'magic_link' order by id`);
      expect(queued.map((row) => row.to_address)).toEqual(['nobody@bücher.example', 'nobody@xn--bcher-kva.example']);
    } finally {
      await capped.close();
    }
  });

  it('past the limit, a request writes nothing: the link or code already mailed goes on working (a stranger asking cancels nothing)', async () => {
    const capped = await startTestApp({ mailsPerAddressPerHour: 1 }, { reachablePublicUrl: true });
    try {
      expect((await capped.http.post('/auth-providers', { type: 'magic_link' })).status).toBe(201);
      for (const email of ['inbox@example.com', 'owner@example.com']) expect((await capped.http.post('/users', { email, password: PASSWORD })).status).toBe(201);
      const client = await createTestClient(capped, { type: 'web', redirectUris: [REDIRECT_URI] });
      const cappedConfig = await discover(capped, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
      const start = () => startAuthorization(cappedConfig, { redirectUri: REDIRECT_URI, resource: '' }, { scope: 'openid email' }, new CookieJar());
      const liveRows = async (table: 'email_sign_in' | 'email_link_token') =>
        (await capped.sql<{ n: number }>(`select count(*)::int as n from ${table} where used_at is null and expires_at > now()`))[0]!.n;

      // A magic link, then "send again" in the same flow past the limit: no mail, no new row, the first link signs in.
      const flow = await start();
      expect((await askLink(flow, 'inbox@example.com')).status).toBe(200);
      const link = await magicLinkOf(capped.http, 'inbox@example.com');
      expect((await askLink(flow, 'inbox@example.com')).status).toBe(200);
      expect(await mails(capped.http, 'inbox@example.com', 'magic_link')).toHaveLength(1);
      expect(await liveRows('email_sign_in')).toBe(1);
      const opened = await flow.jar.visit(link);
      expect(opened.status, opened.body).not.toBe(400);

      // A reset the owner asked, then one a stranger's browser asks for the same address past the limit.
      const askReset = async (email: string) => {
        const resetFlow = await start();
        const href = /<a href="([^"]+)">Forgot your password\?<\/a>/.exec(resetFlow.page.body)![1]!.replaceAll('&amp;', '&');
        const form = await resetFlow.jar.visit(new URL(href, resetFlow.page.url).href);
        return resetFlow.jar.submit(form, { email });
      };
      expect((await askReset('owner@example.com')).status).toBe(200);
      const ownerLink = await accountLinkOf(capped.http, 'owner@example.com', 'password_reset');
      const stranger = await askReset('owner@example.com');
      expect(stranger.status).toBe(200);
      expect(await mails(capped.http, 'owner@example.com', 'password_reset')).toHaveLength(1);
      expect(await liveRows('email_link_token')).toBe(1);
      const reset = await new CookieJar().visit(ownerLink);
      expect(reset.status).toBe(200);
      expect(reset.body).toContain('name="password"');
    } finally {
      await capped.close();
    }
  });
});
