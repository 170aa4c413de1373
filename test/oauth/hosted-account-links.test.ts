import { randomBytes, randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoveryCodeHash } from '../../src/domain/mfa/codes.ts';
import { linkSecretHash } from '../../src/domain/users/link-tokens.ts';
import { newId } from '../../src/ids.ts';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import type { TestApp } from '../support/app.ts';
import { configurePassword } from '../support/auth-providers.ts';
import { CookieJar, readForm, type Visit } from '../support/cookie-jar.ts';
import { addDomain } from '../support/domains.ts';
import { fetchVia, type FetchLike } from '../support/host-fetch.ts';
import { HttpClient } from '../support/http.ts';
import { accountLinkOf, issuedLink, mails } from '../support/email-sign-in.ts';
import { expectReadByTenantsOnly } from '../support/audit-readers.ts';
import { issueTestKey } from '../support/keys.ts';
import { createTestClient, discover, redeemAfter, startAuthorization, type AuthorizationFlow } from '../support/oauth.ts';
import { TestRoles } from '../support/roles.ts';
import { giveTotp } from '../support/totp.ts';
import { giveKey, webauthnFormOf } from '../support/webauthn.ts';
import { createPasswordUser, PASSWORD } from '../support/users.ts';
import { REDIRECT_URI, startHostedTestApp } from '../support/hosted-app.ts';

/**
 * The mails of the hosted flows and the links they carry: forgot password → `password_reset` → a new password →
 * `password_changed`; sign-up → `verify_email` → verified → `welcome`, the sign-in refused until then; a sign-up with
 * a registered address answered as a new one, its owner told. Each link works once, expires, and only on its surface.
 */
const NEW_PASSWORD = 'Battery-Staple-42';

let app: TestApp;
let issuer: string;
let config: oidc.Configuration;

beforeAll(async () => {
  ({ app, issuer, config } = await startHostedTestApp());
});
afterAll(async () => app?.close());


async function authorize(configuration = config, parameters: Record<string, string> = {}, jar = new CookieJar()): Promise<AuthorizationFlow> {
  const flow = await startAuthorization(configuration, { redirectUri: REDIRECT_URI, resource: `${issuer}/api/v1` }, { scope: 'openid email', ...parameters }, jar);
  expect(flow.start.location).toMatch(new RegExp(`^${issuer}/interaction/`));
  return flow;
}

/** The page a link of the page leads to, by the link's text. */
async function follow(jar: CookieJar, page: Visit, text: string): Promise<Visit> {
  const href = new RegExp(`<a href="([^"]+)">${text}</a>`).exec(page.body)?.[1];
  expect(href, page.body).toBeDefined();
  return jar.visit(new URL(href!.replaceAll('&amp;', '&'), page.url).href);
}

/** Forgot password on a sign-in page of `flow`: the answer. */
async function askReset(flow: AuthorizationFlow, email: string): Promise<Visit> {
  const form = await follow(flow.jar, flow.page, 'Forgot your password\\?');
  expect(form.status).toBe(200);
  return flow.jar.submit(form, { email });
}

const signIn = async (email: string, password: string, configuration = config, parameters: Record<string, string> = {}) => {
  const flow = await authorize(configuration, parameters);
  return flow.jar.submit(flow.page, { email, password });
};

/** The page with what differs between two answers blanked out: interaction, token, nonce, e-mail. */
const normalized = (visit: Visit, email: string) =>
  visit.body
    .replaceAll(/\/interaction\/[\w-]+\//g, '/interaction/…/')
    .replaceAll(/nonce="[^"]+"/g, 'nonce="…"')
    .replaceAll(email, '…');

const headerNames = (visit: Visit) => [...visit.headers.keys()].filter((name) => !['date', 'x-request-id'].includes(name)).sort();

/** A member of `home` alone asks a reset on its page: the link lands in its outbox, read with the tenant's key, and opens. */
async function resetLinkReadByTenant(home: string, email: string) {
  const created = await app.http.post('/users', { email, password: PASSWORD, tenantId: home });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const homeKey = await issueTestKey(app, { tenantId: home, permissions: ['email:read'] });
  expect((await askReset(await authorize(config, { tenant: home }), email)).status).toBe(200);
  const link = await accountLinkOf(homeKey, email, 'password_reset');
  const jar = new CookieJar();
  expect((await jar.visit(link)).status).toBe(200);
  return { userId: created.body.id as string, homeKey, link, jar };
}

describe('forgot password', () => {
  it('asked on a tenant’s page for a user of another tenant only, the link goes out as the application’s: the tenant’s key never reads it', async () => {
    const asking = await app.createTenant('Asking tenant');
    const home = await app.createTenant('Home tenant');
    const created = await app.http.post('/users', { email: 'homebody@example.com', password: PASSWORD, tenantId: home });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const askingKey = await issueTestKey(app, { tenantId: asking, permissions: ['email:read'] });
    const homeKey = await issueTestKey(app, { tenantId: home, permissions: ['email:read'] });

    const answer = await askReset(await authorize(config, { tenant: asking }), 'homebody@example.com');
    expect(answer.status).toBe(200);
    expect(await mails(askingKey, 'homebody@example.com', 'password_reset')).toEqual([]);
    expect(await mails(homeKey, 'homebody@example.com', 'password_reset')).toEqual([]);
    // The application's: its administrators see it, and its owner resets their password with it.
    const [delivery] = (await app.http.get('/email/deliveries?to=homebody@example.com&templateKey=password_reset')).body.data as { tenantId: string | null }[];
    expect(delivery?.tenantId).toBeNull();
    const jar = new CookieJar();
    const form = await jar.visit(await accountLinkOf(app.http, 'homebody@example.com', 'password_reset'));
    expect((await jar.submit(form, { password: NEW_PASSWORD })).status).toBe(200);

    // A member asking on their tenant's page gets it there, as before.
    await askReset(await authorize(config, { tenant: home }), 'homebody@example.com');
    expect(await mails(homeKey, 'homebody@example.com', 'password_reset')).toHaveLength(1);
    expect(await mails(askingKey, 'homebody@example.com', 'password_reset')).toEqual([]);
  });

  it('a link in a tenant’s outbox ends when its user joins another tenant: that tenant’s key, which read it, resets no account of others', async () => {
    const [home, joined] = [await app.createTenant('Outbox home'), await app.createTenant('Joined later')];
    const { userId, homeKey, link, jar } = await resetLinkReadByTenant(home, 'joiner@example.com');

    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [home, joined] })).status).toBe(200);
    expect((await jar.visit(link)).status).toBe(400);
    // The account's password is as it was; a reset asked now goes out as the application's, which the tenant's key never reads.
    expect((await signIn('joiner@example.com', PASSWORD)).status).toBe(303);
    expect((await askReset(await authorize(config, { tenant: home }), 'joiner@example.com')).status).toBe(200);
    expect(await mails(homeKey, 'joiner@example.com', 'password_reset')).toHaveLength(1);
    expect(await mails(app.http, 'joiner@example.com', 'password_reset')).toHaveLength(2);
  });

  it('a link in a tenant’s outbox ends when the tenant takes its user out, as a PATCH of tenantIds without it ends it: that tenant’s key resets no account it let go', async () => {
    const home = await app.createTenant('Outbox leaver');
    const { userId, link, jar } = await resetLinkReadByTenant(home, 'leaver@example.com');
    const homeAdmin = await issueTestKey(app, { tenantId: home, permissions: ['users:delete'] });

    expect((await homeAdmin.delete(`/users/${userId}`)).status).toBe(204);
    expect((await app.http.get(`/users/${userId}`)).body.tenantIds).toEqual([]);
    expect((await jar.visit(link)).status).toBe(400);
    // The account's password is as it was.
    expect((await signIn('leaver@example.com', PASSWORD)).status).toBe(303);
  });

  it('a link in a tenant’s outbox ends with the tenant: its administrators read it, and the account is no tenant’s now', async () => {
    const home = await app.createTenant('Deleted with its outbox');
    const { userId, link, jar } = await resetLinkReadByTenant(home, 'orphaned@example.com');
    expect((await app.http.delete(`/applications/${app.root.applicationId}/tenants/${home}`)).status).toBe(204);
    expect((await app.http.get(`/users/${userId}`)).body.tenantIds).toEqual([]);
    expect((await jar.visit(link)).status).toBe(400);
    expect((await signIn('orphaned@example.com', PASSWORD)).status).toBe(303);
  });

  it('a tenant’s only member holding an application-wide role is mailed as the application: the tenant’s key reads none of their links, and those it read end at the assignment', async () => {
    const home = await app.createTenant('Admin’s home');
    // The tenant's alone while they hold nothing application-wide: its outbox holds the link.
    const { userId, homeKey, link, jar } = await resetLinkReadByTenant(home, 'wide-admin@example.com');

    const roleId = await new TestRoles(app).id('app_admin');
    expect((await app.http.post('/role-assignments', { subject: { type: 'user', id: userId }, roleId })).status).toBe(201);
    // The link the tenant's administrators could read would reset an application administrator: it ended.
    expect((await jar.visit(link)).status).toBe(400);
    expect((await askReset(await authorize(config, { tenant: home }), 'wide-admin@example.com')).status).toBe(200);
    expect(await mails(homeKey, 'wide-admin@example.com', 'password_reset')).toHaveLength(1);
    const deliveries = (await app.http.get('/email/deliveries?to=wide-admin@example.com&templateKey=password_reset')).body.data as { id: string; tenantId: string | null }[];
    expect(deliveries.map((delivery) => delivery.tenantId).sort()).toEqual([home, null]);
    // Its owner resets their password with the application's.
    const application = deliveries.find((delivery) => delivery.tenantId === null)!;
    const { text } = (await app.http.get(`/email/deliveries/${application.id}`)).body as { text: string };
    const form = await new CookieJar().visit(/(http\S+\/account\/[a-z-]+\?token=\S+)/.exec(text)![1]!);
    expect(form.status).toBe(200);
  });

  it('asked on a tenant’s page for a user of that tenant and another, the link goes out as the application’s: neither tenant’s key reads it', async () => {
    const first = await app.createTenant('First of two');
    const second = await app.createTenant('Second of two');
    const created = await app.http.post('/users', { email: 'both@example.com', password: PASSWORD, tenantId: first });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await app.http.patch(`/users/${created.body.id}`, { tenantIds: [first, second] })).status).toBe(200);
    const firstKey = await issueTestKey(app, { tenantId: first, permissions: ['email:read'] });
    const secondKey = await issueTestKey(app, { tenantId: second, permissions: ['email:read'] });

    // A reset changes the password of every tenant: the first tenant's administrators must not hold its link.
    expect((await askReset(await authorize(config, { tenant: first }), 'both@example.com')).status).toBe(200);
    expect(await mails(firstKey, 'both@example.com', 'password_reset')).toEqual([]);
    expect(await mails(secondKey, 'both@example.com', 'password_reset')).toEqual([]);
    const [delivery] = (await app.http.get('/email/deliveries?to=both@example.com&templateKey=password_reset')).body.data as { tenantId: string | null }[];
    expect(delivery?.tenantId).toBeNull();
  });

  it('a shared user’s reset on the application’s page is read in the audit log of each of their tenants; a tenant they are not in reads none', async () => {
    const [first, second, third] = [await app.createTenant('Reset One'), await app.createTenant('Reset Two'), await app.createTenant('Reset Three')];
    const created = await app.http.post('/users', { email: 'reset-both@example.com', password: PASSWORD, tenantId: first });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const userId = created.body.id as string;
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [first, second] })).status).toBe(200);

    expect((await askReset(await authorize(), 'reset-both@example.com')).status).toBe(200);
    const jar = new CookieJar();
    const form = await jar.visit(await accountLinkOf(app.http, 'reset-both@example.com', 'password_reset'));
    expect((await jar.submit(form, { password: NEW_PASSWORD })).status).toBe(200);

    const [record] = (await app.http.get(`/audit-logs?target=${userId}&action=user.password.reset`)).body.data as { id: string; actor: unknown; tenantId: string | null }[];
    expect(record).toMatchObject({ tenantId: null });
    await expectReadByTenantsOnly(app, { userId, ids: [record!.id], search: '&action=user.password.reset', tenants: [first, second], outsider: third });
  });

  it('a shared user’s reset counts the sessions it ended in every tenant: a reader of one of their tenants is not shown those counts', async () => {
    const [first, second] = [await app.createTenant('Counted One'), await app.createTenant('Counted Two')];
    const created = await app.http.post('/users', { email: 'reset-counted@example.com', password: PASSWORD, tenantId: first });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const userId = created.body.id as string;
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [first, second] })).status).toBe(200);
    // Signed in to the second tenant only: the first's administrators have no session of theirs to count.
    const signIn = await authorize(config, { tenant: second });
    await signIn.jar.followOut(await signIn.jar.submit(signIn.page, { email: 'reset-counted@example.com', password: PASSWORD }), issuer);
    expect((await app.http.get(`/users/${userId}/sessions`)).body.data).toMatchObject([{ tenantId: second }]);

    expect((await askReset(await authorize(), 'reset-counted@example.com')).status).toBe(200);
    const jar = new CookieJar();
    expect((await jar.submit(await jar.visit(await accountLinkOf(app.http, 'reset-counted@example.com', 'password_reset')), { password: NEW_PASSWORD })).status).toBe(200);
    const [record] = (await app.http.get(`/audit-logs?target=${userId}&action=user.password.reset`)).body.data as { id: string; changes: { after: object } }[];
    expect(record!.changes.after).toMatchObject({ sessionsEnded: 1 });
    for (const tenantId of [first, second]) {
      const reader = await issueTestKey(app, { tenantId, permissions: ['users:read', 'audit_logs:read'] });
      const seen = await reader.get(`/audit-logs/${record!.id}`);
      expect(seen.status).toBe(200);
      expect(seen.body.changes.after, tenantId).not.toHaveProperty('sessionsEnded');
      expect(seen.body.changes.after, tenantId).not.toHaveProperty('grantsRevoked');
    }
  });

  it('answers alike for a known and an unknown address; only the known one gets password_reset', async () => {
    await createPasswordUser(app.http, 'kim@example.com');
    const known = await askReset(await authorize(), 'kim@example.com');
    const unknown = await askReset(await authorize(), 'nobody@example.com');
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toContain('<h1>Check your email</h1>');
    expect(normalized(known, 'kim@example.com')).toBe(normalized(unknown, 'nobody@example.com'));
    expect(headerNames(known)).toEqual(headerNames(unknown));
    expect(await mails(app.http, 'nobody@example.com', 'password_reset')).toEqual([]);
    const [mail] = await mails(app.http, 'kim@example.com', 'password_reset');
    expect(mail!.subject).toBe('Reset your My application password');
    expect(mail!.text).toContain('expires in 30 minutes');
  });

  it('the link sets a password the policy accepts, ends every sign-in, mails password_changed, and works once', async () => {
    const userId = await createPasswordUser(app.http, 'lee@example.com');
    // A sign-in whose grant the reset ends.
    expect((await signIn('lee@example.com', PASSWORD)).status).toBe(303);
    const grants = () => app.sql<{ n: number }>(`select count(*)::int as n from oidc_model where model = 'Grant' and payload->>'accountId' = ?`, [userId]);
    expect((await grants())[0]!.n).toBeGreaterThan(0);

    await askReset(await authorize(), 'lee@example.com');
    const link = await accountLinkOf(app.http, 'lee@example.com', 'password_reset');
    expect(link.startsWith(`${issuer}/account/reset-password?token=`)).toBe(true);
    const jar = new CookieJar();
    const form = await jar.visit(link);
    expect(form.status).toBe(200);
    expect(form.body).toContain('for lee@example.com');
    expect(form.body).toContain('<p id="password-rules" class="hint">Use at least 8 characters');
    // Opening the link twice uses nothing; a password against the policy is refused and keeps the link.
    expect((await jar.visit(link)).status).toBe(200);
    const weak = await jar.submit(form, { password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body).toContain('Password must be at least 8 characters');
    const changed = await jar.submit(form, { password: NEW_PASSWORD });
    expect(changed.status, changed.body).toBe(200);
    expect(changed.body).toContain('<h1>Password changed</h1>');
    // On to the application the reset was asked from: its client's page (here its redirect URI's origin).
    expect(changed.body).toContain('<a href="https://app.example/">Continue to test web client</a>');

    expect((await grants())[0]!.n).toBe(0);
    const [notice] = await mails(app.http, 'lee@example.com', 'password_changed');
    expect(notice!.text).toMatch(/was changed on \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/);
    expect((await signIn('lee@example.com', PASSWORD)).status).toBe(400);
    expect((await signIn('lee@example.com', NEW_PASSWORD)).status).toBe(303);
    // Used: the page and the form refuse it.
    expect((await jar.visit(link)).status).toBe(400);
    const again = await jar.submit(form, { password: 'Yet-Another-Horse-5' });
    expect(again.status).toBe(400);
    expect(again.body).toContain('This link has expired, was already used');
    expect((await signIn('lee@example.com', NEW_PASSWORD)).status).toBe(303);
  });

  it('asked twice, only the newer mail’s link works', async () => {
    await createPasswordUser(app.http, 'twice@example.com');
    await askReset(await authorize(), 'twice@example.com');
    await askReset(await authorize(), 'twice@example.com');
    const [older, newer] = await mails(app.http, 'twice@example.com', 'password_reset');
    const linkOf = (mail: typeof newer) => /(http\S+\/account\/reset-password\?token=\S+)/.exec(mail!.text)![1]!;
    const jar = new CookieJar();
    expect((await jar.visit(linkOf(older))).status).toBe(400);
    const form = await jar.visit(linkOf(newer));
    expect(form.status).toBe(200);
    expect((await jar.submit(form, { password: NEW_PASSWORD })).status).toBe(200);
    expect((await signIn('twice@example.com', NEW_PASSWORD)).status).toBe(303);
  });

  it('an expired link, a forged token and a suspended user’s link are refused', async () => {
    const userId = await createPasswordUser(app.http, 'max@example.com');
    await askReset(await authorize(), 'max@example.com');
    const link = await accountLinkOf(app.http, 'max@example.com', 'password_reset');
    await app.sql(`update email_link_token set expires_at = now() - interval '1 second' where user_id = ?`, [userId]);
    const jar = new CookieJar();
    expect((await jar.visit(link)).status).toBe(400);
    expect((await jar.visit(link.replace(/token=[^&]+/, `token=${app.root.applicationId}.forged`))).status).toBe(400);
    expect((await jar.visit(`${issuer}/account/reset-password?token=nonsense`)).status).toBe(400);
    expect((await jar.visit(link, { form: { token: new URL(link).searchParams.get('token')!, password: NEW_PASSWORD } })).status).toBe(400);
    expect((await signIn('max@example.com', PASSWORD)).status).toBe(303);

    // A suspended user is sent nothing.
    expect((await app.http.post(`/users/${userId}/suspend`, {})).status).toBe(200);
    await askReset(await authorize(), 'max@example.com');
    expect(await mails(app.http, 'max@example.com', 'password_reset')).toHaveLength(1);
  });

  describe('in isolated tenants', () => {
    let another: BootstrapResult;
    let admin: HttpClient;
    let isolated: oidc.Configuration;
    let north: string;

    beforeAll(async () => {
      another = await app.bootstrapAnother();
      admin = new HttpClient(app.baseUrl, { apiKey: another.apiKey });
      north = await app.createTenant('North', another);
      await app.createTenant('South', another);
      expect((await admin.patch(`/applications/${another.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
      const client = await createTestClient(app, { type: 'web', applicationId: another.applicationId, redirectUris: [REDIRECT_URI] });
      isolated = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
    });

    it('a tenant pool’s link opens on its tenant’s surface only; another tenant’s pool has no such account', async () => {
      await createPasswordUser(admin, 'nia@example.com', `/applications/${another.applicationId}/tenants/${north}/users`);
      // South's pool has no nia: nothing is sent.
      await askReset(await authorize(isolated, { tenant: 'south' }), 'nia@example.com');
      expect(await mails(admin, 'nia@example.com', 'password_reset')).toEqual([]);
      await askReset(await authorize(isolated, { tenant: 'north' }), 'nia@example.com');
      const link = await accountLinkOf(admin, 'nia@example.com', 'password_reset');
      expect(link.startsWith(`${issuer}/t/${north}/account/reset-password?token=`)).toBe(true);
      const jar = new CookieJar();
      expect((await jar.visit(link.replace(`/t/${north}/`, '/t/south/'))).status).toBe(400);
      expect((await jar.visit(link.replace(`/t/${north}/`, '/'))).status).toBe(400);
      const form = await jar.visit(link.replace(`/t/${north}/`, '/t/north/'));
      expect(form.status).toBe(200);
      expect(form.body).toContain('– North</title>');
      expect((await jar.submit(form, { password: NEW_PASSWORD })).status).toBe(200);
      expect((await signIn('nia@example.com', NEW_PASSWORD, isolated, { tenant: 'north' })).status).toBe(303);
    });

    it('a reset proves the address a tenant’s credentials set: the pools merged later keep it confirmed', async () => {
      const tenantKey = new HttpClient(app.baseUrl, {
        apiKey: (await admin.post(`/applications/${another.applicationId}/tenants/${north}/api-keys`, { name: 'north admin', permissions: ['users:read', 'users:write'] })).body.secret,
      });
      const userId = await createPasswordUser(tenantKey, 'ines@example.com');
      const vouching = async () => (await app.sql<{ vouched_by_tenant_id: string | null }>('select vouched_by_tenant_id from app_user where id = ?', [userId]))[0]!.vouched_by_tenant_id;
      expect(await vouching()).toBe(north);
      await askReset(await authorize(isolated, { tenant: 'north' }), 'ines@example.com');
      const jar = new CookieJar();
      const form = await jar.visit(await accountLinkOf(admin, 'ines@example.com', 'password_reset'));
      expect((await jar.submit(form, { password: NEW_PASSWORD })).status).toBe(200);
      expect(await vouching()).toBeNull();
    });

    it('a reset asked on the sign-in page takes over an account never confirmed too: its tenant, its pool’s, stays, its roles there go', async () => {
      const userId = await createPasswordUser(admin, 'oda@example.com', `/applications/${another.applicationId}/tenants/${north}/users`);
      await app.sql('update app_user set email_verified = false where id = ?', [userId]);
      await new TestRoles(app, another.applicationId).assign({ type: 'user', id: userId }, 'member', north);
      await askReset(await authorize(isolated, { tenant: 'north' }), 'oda@example.com');
      const jar = new CookieJar();
      const form = await jar.visit(await accountLinkOf(admin, 'oda@example.com', 'password_reset'));
      expect((await jar.submit(form, { password: NEW_PASSWORD })).status).toBe(200);
      expect((await admin.get(`/applications/${another.applicationId}/tenants/${north}/users/${userId}`)).body).toMatchObject({ tenantIds: [north], emailVerified: true });
      expect(await app.sql(`select 1 from role_assignment where subject_id = ?`, [userId])).toEqual([]);
      const removed = await app.sql<{ action: string; tenant_id: string | null; after: { reason?: string } | null }>(
        `select action, tenant_id, after from audit_log where application_id = ? and action in ('role_assignment.deleted', 'user.membership.removed') order by created_at`,
        [another.applicationId],
      );
      expect(removed).toEqual([{ action: 'role_assignment.deleted', tenant_id: north, after: { reason: 'takeover' } }]);
      expect((await signIn('oda@example.com', NEW_PASSWORD, isolated, { tenant: 'north' })).status).toBe(303);
    });
  });
});

describe('in a tenant of the shared pool (brandingScope and emailTemplatesScope: tenant)', () => {
  let another: BootstrapResult;
  let admin: HttpClient;
  let shared: oidc.Configuration;
  let acme: string;
  let other: string;
  const appPath = () => `/applications/${another.applicationId}`;
  /** A mail to `to` of `templateKey`: its tenant and subject. */
  const delivered = async (to: string, templateKey: string) => {
    const [mail, ...more] = (await admin.get(`${appPath()}/email/deliveries?to=${encodeURIComponent(to)}&templateKey=${templateKey}`)).body.data as { id: string }[];
    expect(more).toEqual([]);
    return (await admin.get(`${appPath()}/email/deliveries/${mail!.id}`)).body as { tenantId: string | null; subject: string; text: string };
  };
  const linkIn = (mail: { text: string }) => /(http\S+\/account\/[a-z-]+\?token=\S+)/.exec(mail.text)![1]!;

  beforeAll(async () => {
    another = await app.bootstrapAnother();
    admin = new HttpClient(app.baseUrl, { apiKey: another.apiKey });
    acme = await app.createTenant('Acme', another);
    other = await app.createTenant('Other', another);
    expect((await admin.patch(appPath(), { tenancyConfig: { brandingScope: 'tenant', emailTemplatesScope: 'tenant' } })).status).toBe(200);
    const branding = { colors: { primary: '#c81e1e', background: '#fff5f5' }, copy: { 'reset.title': 'ACME new password', 'verify.title': 'ACME confirm' } };
    expect((await admin.put(`${appPath()}/tenants/${acme}/branding`, branding)).status).toBe(200);
    const template = { subject: 'ACME: password changed', html: '<p>ACME {{ link }}</p>', text: 'ACME {{ link }}' };
    expect((await admin.put(`${appPath()}/tenants/${acme}/email/templates/password_changed`, template)).status).toBe(200);
    const client = await createTestClient(app, { type: 'web', applicationId: another.applicationId, redirectUris: [REDIRECT_URI] });
    shared = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  });

  it('a reset link mailed in a tenant opens in its look, and password_changed goes out in it (its template)', async () => {
    await createPasswordUser(admin, 'ace@example.com', `${appPath()}/tenants/${acme}/users`);
    await askReset(await authorize(shared, { tenant: acme }), 'ace@example.com');
    const reset = await delivered('ace@example.com', 'password_reset');
    expect(reset.tenantId).toBe(acme);
    const jar = new CookieJar();
    const form = await jar.visit(linkIn(reset));
    expect(form.status).toBe(200);
    expect(form.body).toContain('<h1>ACME new password</h1>');
    expect(form.body).toContain('#fff5f5');
    // Refused by the policy, the form comes back in the same look.
    expect((await jar.submit(form, { password: 'short' })).body).toContain('<h1>ACME new password</h1>');
    expect((await jar.submit(form, { password: NEW_PASSWORD })).body).toContain('#fff5f5');
    const changed = await delivered('ace@example.com', 'password_changed');
    expect(changed).toMatchObject({ tenantId: acme, subject: 'ACME: password changed' });
    // Its way back is the tenant's too.
    expect((await jar.visit(linkIn(changed))).body).toContain('<h1>ACME new password</h1>');
  });

  it('a user of two tenants gets the application’s link, page and mail; one who joined another tenant since, no link of the tenant’s outbox', async () => {
    const both = await createPasswordUser(admin, 'duo@example.com', `${appPath()}/tenants/${acme}/users`);
    expect((await admin.patch(`${appPath()}/users/${both}`, { tenantIds: [acme, other] })).status).toBe(200);
    await askReset(await authorize(shared, { tenant: acme }), 'duo@example.com');
    const reset = await delivered('duo@example.com', 'password_reset');
    expect(reset.tenantId).toBeNull();
    const jar = new CookieJar();
    const form = await jar.visit(linkIn(reset));
    expect(form.status).toBe(200);
    expect(form.body).toContain('<h1>Choose a new password</h1>');
    expect(form.body).not.toContain('#fff5f5');
    expect((await jar.submit(form, { password: NEW_PASSWORD })).status).toBe(200);
    expect(await delivered('duo@example.com', 'password_changed')).toMatchObject({ tenantId: null, subject: 'Your My application password was changed' });

    // Mailed in the tenant while the account was its alone, in its look: the tenant's administrators read it, so it ends
    // once the account is another tenant's too (its reset would act there).
    const joined = await createPasswordUser(admin, 'join@example.com', `${appPath()}/tenants/${acme}/users`);
    await askReset(await authorize(shared, { tenant: acme }), 'join@example.com');
    const earlier = await delivered('join@example.com', 'password_reset');
    expect(earlier.tenantId).toBe(acme);
    expect((await jar.visit(linkIn(earlier))).body).toContain('<h1>ACME new password</h1>');
    expect((await admin.patch(`${appPath()}/users/${joined}`, { tenantIds: [acme, other] })).status).toBe(200);
    expect((await jar.visit(linkIn(earlier))).status).toBe(400);
  });

  it('a link issued with no tenant (before links remembered one) opens in the application’s look', async () => {
    await createPasswordUser(admin, 'old@example.com', `${appPath()}/tenants/${acme}/users`);
    await askReset(await authorize(shared, { tenant: acme }), 'old@example.com');
    const reset = await delivered('old@example.com', 'password_reset');
    await app.sql(`update email_link_token set tenant_id = null where application_id = ?`, [another.applicationId]);
    const page = await new CookieJar().visit(linkIn(reset));
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>Choose a new password</h1>');
  });

  it('a verification link asked on a tenant’s page opens in its look, and welcome goes out in it', async () => {
    const userId = await createPasswordUser(admin, 'newbie@example.com', `${appPath()}/tenants/${acme}/users`);
    await app.sql(`update app_user set email_verified = false where id = ?`, [userId]);
    const flow = await authorize(shared, { tenant: acme });
    const refused = await flow.jar.submit(flow.page, { email: 'newbie@example.com', password: PASSWORD });
    expect(refused.status).toBe(403);
    expect((await flow.jar.submit(await follow(flow.jar, refused, 'Send the link again'), { email: 'newbie@example.com' })).status).toBe(200);
    const verify = await delivered('newbie@example.com', 'verify_email');
    expect(verify.tenantId).toBe(acme);
    const jar = new CookieJar();
    const page = await jar.visit(linkIn(verify));
    expect(page.body).toContain('<h1>ACME confirm</h1>');
    expect((await jar.submit(page, {})).body).toContain('#fff5f5');
    expect((await delivered('newbie@example.com', 'welcome')).tenantId).toBe(acme);
  });
});

describe('a reset of an account whose address was never confirmed takes it over', () => {
  /**
   * An application signing in with passwords (before the address is confirmed) and passkeys, with tenants `invited` and
   * `other`, and an account of `email` holding what its maker could gather: a membership of `other` with a role there
   * and one application-wide, a session with a refresh token, a passkey, TOTP and a recovery code, an upstream link, a
   * key bound to it and a pending change of its address. `confirmed`: its address was proven; `unconfirmed`, never;
   * `made by other`: made by `other`'s administrator, which vouches for the address without proving it.
   */
  async function heldAccount(state: 'confirmed' | 'unconfirmed' | 'made by other') {
    const application = await app.bootstrapAnother();
    const { applicationId } = application;
    const admin = new HttpClient(app.baseUrl, { apiKey: application.apiKey });
    await configurePassword(admin, { requireEmailVerification: false });
    expect((await admin.post('/auth-providers', { type: 'passkey' })).status).toBe(201);
    const upstream = await admin.post('/auth-providers', { type: 'oauth', config: { provider: 'google', clientId: 'gatehouse' }, secrets: { clientSecret: 'upstream-secret' } });
    expect(upstream.status, JSON.stringify(upstream.body)).toBe(201);
    const base = `/applications/${applicationId}`;
    const tenant = async (name: string) => (await admin.post(`${base}/tenants`, { name, slug: `${name.toLowerCase()}-${randomUUID().slice(0, 8)}` })).body.id as string;
    const invited = await tenant('Invited');
    const other = await tenant('Other');
    const client = await createTestClient(app, { type: 'web', applicationId, redirectUris: [REDIRECT_URI] });
    const configuration = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));

    const email = `held-${randomUUID()}@example.com`;
    const maker = state === 'made by other' ? await issueTestKey(app, { applicationId, tenantId: other, permissions: ['users:write'] }) : admin;
    const userId = await createPasswordUser(maker, email, `${base}/tenants/${other}/users`);
    if (state === 'unconfirmed') await app.sql('update app_user set email_verified = false where id = ?', [userId]);
    const roles = new TestRoles(app, applicationId);
    await roles.assign({ type: 'user', id: userId }, 'member', other);
    await roles.assign({ type: 'user', id: userId }, 'member');
    const flow = await startAuthorization(configuration, { redirectUri: REDIRECT_URI, resource: '' }, { scope: 'openid offline_access', prompt: 'consent' });
    const { refresh_token: refreshToken } = await redeemAfter(configuration, flow, await flow.jar.submit(flow.page, { email, password: PASSWORD }));
    expect(refreshToken).toEqual(expect.any(String));
    const key = await giveKey(app, applicationId, userId, new URL(issuer).hostname);
    await giveTotp(app, applicationId, userId);
    await app.sql('insert into mfa_recovery_code (application_id, user_id, code_hash) values (?, ?, ?)', [applicationId, userId, recoveryCodeHash('ABCD-EFGH')]);
    await app.sql('insert into user_identity (application_id, id, pool_id, provider_id, subject, user_id, created_at) select application_id, ?, pool_id, ?, ?, id, now() from app_user where id = ?', [
      newId(),
      upstream.body.id,
      'held-upstream-account',
      userId,
    ]);
    const boundKey = await admin.post('/api-keys', { name: 'bound', permissions: ['users:read'], userId });
    expect(boundKey.status, JSON.stringify(boundKey.body)).toBe(201);
    const secret = randomBytes(32).toString('base64url');
    await app.sql(
      `insert into email_link_token (application_id, id, user_id, client_id, purpose, token_hash, expires_at, new_email)
       values (?, ?, ?, ?, 'email_change', ?, now() + interval '1 hour', ?)`,
      [applicationId, newId(), userId, client.clientId, linkSecretHash(secret), `elsewhere-${randomUUID()}@example.com`],
    );
    const emailChange = `${issuer}/account/confirm-email?token=${applicationId}.${secret}`;
    expect((await new CookieJar().visit(emailChange)).status).toBe(200);
    const member = ((await admin.get(`${base}/tenants/${invited}/roles`)).body.data as { id: string; key: string }[]).find((role) => role.key === 'member')!.id;
    const invitation = await admin.post(`${base}/tenants/${invited}/invitations`, { email, roleIds: [member] });
    expect(invitation.status, JSON.stringify(invitation.body)).toBe(201);

    /** A passkey sign-in with the account's key: its answer. */
    const signInWithKey = async () => {
      const { jar, page } = await startAuthorization(configuration, { redirectUri: REDIRECT_URI, resource: '' });
      const { form, options } = webauthnFormOf(page);
      return jar.visit(form.action, { form: { ...form.fields, credential: key.assert(options, issuer) } });
    };
    expect((await signInWithKey()).status).toBe(303);
    const count = async (table: string) => (await app.sql<{ n: number }>(`select count(*)::int as n from ${table} where application_id = ? and user_id = ?`, [applicationId, userId]))[0]!.n;
    return {
      admin,
      applicationId,
      base,
      userId,
      email,
      invited,
      other,
      member,
      configuration,
      refreshToken: refreshToken!,
      boundKey: { id: boundKey.body.key.id as string, secret: boundKey.body.secret as string },
      emailChange,
      signInWithKey,
      held: async () => ({
        passkeys: await count('webauthn_credential'),
        factors: await count('mfa_factor'),
        recoveryCodes: await count('mfa_recovery_code'),
        upstreamLinks: await count('user_identity'),
        roles: (await app.sql<{ n: number }>(`select count(*)::int as n from role_assignment where application_id = ? and subject_type = 'user' and subject_id = ?`, [applicationId, userId]))[0]!.n,
        tenantIds: (await admin.get(`/users/${userId}`)).body.tenantIds as string[],
        sessions: ((await admin.get(`/users/${userId}/sessions`)).body.data as unknown[]).length > 0,
      }),
      /** The invitation page's "Forgot your password?", then the mailed link with `password`: the reset's done page. */
      async resetFromInvitation(password: string) {
        const [mail] = await mails(admin, email, 'invitation');
        const jar = new CookieJar();
        const page = await jar.visit(/(http\S+\/invitation\?token=[\w-]+)/.exec(mail!.text)![1]!);
        expect(page.status, page.body).toBe(200);
        expect((await jar.submit(page, { forgot: '1' })).status).toBe(200);
        const reset = await jar.visit(await accountLinkOf(admin, email, 'password_reset'));
        const done = await jar.submit(reset, { password });
        expect(done.status, done.body).toBe(200);
        return { jar, page, done };
      },
      /** The application's records of `action`, oldest first: the application is this account's alone. */
      audit: (action: string) =>
        app.sql<{ actor_type: string; actor_id: string; tenant_id: string | null; before: any; after: any }>(
          'select actor_type, actor_id, tenant_id, before, after from audit_log where application_id = ? and action = ? order by created_at, id',
          [applicationId, action],
        ),
    };
  }

  it('leaves the new password the only way in: the maker’s passkey, factors, upstream link, sessions, key and address change end, each audited; memberships and roles go, the invitation’s then stand', async () => {
    const held = await heldAccount('unconfirmed');
    expect(await held.held()).toEqual({ passkeys: 1, factors: 1, recoveryCodes: 1, upstreamLinks: 1, roles: 2, tenantIds: [held.other], sessions: true });
    const { jar, page } = await held.resetFromInvitation(NEW_PASSWORD);
    expect(page.body).toContain('was never confirmed');
    expect(page.body).toContain('removes its other ways in, memberships and roles');

    expect(await held.held()).toEqual({ passkeys: 0, factors: 0, recoveryCodes: 0, upstreamLinks: 0, roles: 0, tenantIds: [], sessions: false });
    expect((await held.signInWithKey()).status).toBe(400);
    await expect(oidc.refreshTokenGrant(held.configuration, held.refreshToken)).rejects.toThrow();
    expect((await app.as({ apiKey: held.boundKey.secret }).get('/users')).status).toBe(401);
    expect((await held.admin.get(`/api-keys/${held.boundKey.id}`)).body.revokedAt).not.toBeNull();
    expect((await new CookieJar().visit(held.emailChange)).status).toBe(400);

    // Each removal recorded, the owner acting through the link, with the reason.
    const byOwner = { actor_type: 'user', actor_id: held.userId };
    const [reset] = await held.audit('user.password.reset');
    expect(reset).toMatchObject({ ...byOwner, before: { emailVerified: false }, after: { emailVerified: true } });
    expect(await held.audit('user.mfa.reset')).toMatchObject([{ ...byOwner, before: { factors: ['totp', 'webauthn'], recoveryCodes: 1 }, after: { factors: [], recoveryCodes: 0, reason: 'takeover' } }]);
    expect(await held.audit('user.upstream_link.removed')).toMatchObject([{ ...byOwner, before: { subject: 'held-upstream-account' }, after: { reason: 'takeover' } }]);
    expect(await held.audit('user.membership.removed')).toMatchObject([{ ...byOwner, tenant_id: held.other, after: { tenantIds: [], reason: 'takeover' } }]);
    const roleRecords = await held.audit('role_assignment.deleted');
    expect(roleRecords.map((record) => record.tenant_id).sort()).toEqual([held.other, null].sort());
    expect(roleRecords.every((record) => record.after?.reason === 'takeover')).toBe(true);
    expect(await held.audit('api_key.revoked')).toMatchObject([{ ...byOwner, after: { reason: 'takeover' } }]);

    // The new password accepts the invitation: its tenant and role are the account's, nothing else.
    const accepted = await jar.submit(await jar.visit(page.url), { password: NEW_PASSWORD });
    expect(accepted.status, accepted.body).toBe(200);
    expect((await held.held()).tenantIds).toEqual([held.invited]);
    const check = (tenantId: string) => held.admin.post(`${held.base}/tenants/${tenantId}/roles/check`, { subject: { type: 'user', id: held.userId }, role: held.member });
    expect((await check(held.invited)).body).toEqual({ allowed: true });
    expect((await check(held.other)).body).toEqual({ allowed: false });
  });

  it('a member its tenant made keeps that tenant and its roles there through the takeover; the rest goes as from any maker', async () => {
    const held = await heldAccount('made by other');
    expect(await held.held()).toEqual({ passkeys: 1, factors: 1, recoveryCodes: 1, upstreamLinks: 1, roles: 2, tenantIds: [held.other], sessions: true });
    const { page } = await held.resetFromInvitation(NEW_PASSWORD);
    expect(page.body).toContain('was never confirmed');

    expect(await held.held()).toEqual({ passkeys: 0, factors: 0, recoveryCodes: 0, upstreamLinks: 0, roles: 1, tenantIds: [held.other], sessions: false });
    expect((await held.signInWithKey()).status).toBe(400);
    expect(await held.audit('user.membership.removed')).toEqual([]);
    expect(await held.audit('role_assignment.deleted')).toMatchObject([{ tenant_id: null, after: { reason: 'takeover' } }]);
    const check = (tenantId: string) => held.admin.post(`${held.base}/tenants/${tenantId}/roles/check`, { subject: { type: 'user', id: held.userId }, role: held.member });
    expect((await check(held.other)).body).toEqual({ allowed: true });
  });

  it('a member its tenant made whose owner says “I did not sign up” keeps nothing, that tenant included', async () => {
    const held = await heldAccount('made by other');
    const link = await issuedLink(app, held.userId, held.configuration.clientMetadata().client_id, issuer, { purpose: 'verify_email', applicationId: held.applicationId });
    const jar = new CookieJar();
    const refused = await jar.submit(await jar.visit(link), { disown: '1' });
    expect(refused.body).toContain('Nothing was confirmed');
    expect(await held.held()).toEqual({ passkeys: 0, factors: 0, recoveryCodes: 0, upstreamLinks: 0, roles: 0, tenantIds: [], sessions: false });
    expect(await held.audit('user.membership.removed')).toMatchObject([{ tenant_id: held.other, after: { reason: 'takeover' } }]);
  });

  it('a reset of a confirmed account takes nothing but its password, sessions and mailed links: no takeover', async () => {
    const held = await heldAccount('confirmed');
    const sessions = (await held.admin.get(`/users/${held.userId}/sessions`)).body.data as { tenantId: string | null }[];
    expect(sessions).toHaveLength(1);
    const { page } = await held.resetFromInvitation(NEW_PASSWORD);
    expect(page.body).not.toContain('was never confirmed');
    // Each session ended recorded as its revocation records it, the owner acting through the link.
    expect(await held.audit('session.revoked')).toEqual(
      sessions.map((session) => ({ actor_type: 'user', actor_id: held.userId, tenant_id: session.tenantId, before: session, after: { reason: 'password_reset', grantsRevoked: 1 } })),
    );
    expect((await held.audit('user.password.reset'))[0]?.after).toMatchObject({ sessionsEnded: 1 });
    expect(await held.held()).toEqual({ passkeys: 1, factors: 1, recoveryCodes: 1, upstreamLinks: 1, roles: 2, tenantIds: [held.other], sessions: false });
    expect((await held.signInWithKey()).status).toBe(303);
    expect((await held.admin.get(`/api-keys/${held.boundKey.id}`)).body.revokedAt).toBeNull();
    // A new password ends every link in flight (an address change asked with the old one would outlive it).
    expect((await new CookieJar().visit(held.emailChange)).status).toBe(400);
    for (const action of ['user.mfa.reset', 'user.upstream_link.removed', 'user.membership.removed', 'role_assignment.deleted', 'api_key.revoked']) {
      expect(await held.audit(action), action).toEqual([]);
    }
  });
});

describe('sign-up and verification', () => {
  /** The sign-up form of a new sign-in, submitted with `fields`. */
  async function signUp(fields: Record<string, string>): Promise<Visit> {
    const flow = await authorize();
    const form = await follow(flow.jar, flow.page, 'Create an account');
    return flow.jar.submit(form, fields);
  }

  it('a new address gets verify_email; the sign-in waits for the link, which verifies once and sends welcome', async () => {
    const answer = await signUp({ name: 'Ola', email: 'ola@example.com', password: PASSWORD });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('We sent a link to ola@example.com.');
    const [created] = (await app.http.get('/users?email=ola@example.com')).body.data as { id: string }[];
    expect(created).toBeDefined();

    // The right password for an unverified account: told to open the link, with a way to get another.
    const flow = await authorize();
    const refused = await flow.jar.submit(flow.page, { email: 'ola@example.com', password: PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('Confirm your email address first');
    const resend = await follow(flow.jar, refused, 'Send the link again');
    expect((await flow.jar.submit(resend, { email: 'ola@example.com' })).status).toBe(200);
    const [first, second] = await mails(app.http, 'ola@example.com', 'verify_email');
    expect(second).toBeDefined();
    const link = /(http\S+\/account\/verify-email\?token=\S+)/.exec(second!.text)![1]!;

    const jar = new CookieJar();
    const page = await jar.visit(link);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Confirm ola@example.com');
    const confirmed = await jar.submit(page, {});
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toContain('<a href="https://app.example/">Continue to test web client</a>');
    // Used, and the first link ended with it.
    expect((await jar.submit(page, {})).status).toBe(400);
    expect((await jar.visit(/(http\S+\?token=\S+)/.exec(first!.text)![1]!)).status).toBe(400);
    const [welcome, ...more] = await mails(app.http, 'ola@example.com', 'welcome');
    expect(more).toEqual([]);
    expect(welcome!.subject).toBe('Welcome to My application');
    expect(welcome!.text).toContain('https://app.example');
    expect((await signIn('ola@example.com', PASSWORD)).status).toBe(303);
  });

  it('the verification page names the account and when it was made; its owner saying "I did not sign up" confirms nothing and leaves the maker no way in', async () => {
    await configurePassword(app.http, { requireEmailVerification: false });
    try {
      // A stranger signs up with Vic's address and, verification not required, signs in.
      expect((await signUp({ name: 'Mallory', email: 'vic@example.com', password: PASSWORD })).status).toBe(200);
      const [maker] = (await app.http.get('/users?email=vic@example.com')).body.data as { id: string; createdAt: string }[];
      const flow = await authorize();
      await redeemAfter(config, flow, await flow.jar.submit(flow.page, { email: 'vic@example.com', password: PASSWORD }));
      const sessions = () => app.sql<{ n: number }>('select count(*)::int as n from user_session where user_id = ?', [maker!.id]);
      expect((await sessions())[0]!.n).toBe(1);

      // Vic opens the mailed link: the page says which account it would confirm, and offers to refuse it.
      const link = await accountLinkOf(app.http, 'vic@example.com', 'verify_email');
      const jar = new CookieJar();
      const page = await jar.visit(link);
      expect(page.status).toBe(200);
      expect(page.body).toContain('Mallory');
      const made = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' }).format(new Date(maker!.createdAt));
      expect(page.body).toContain(made);
      expect(page.body).toContain('I did not sign up');
      const refused = await jar.submit(page, { disown: '1' });
      expect(refused.status, refused.body).toBe(200);
      expect(refused.body).toContain('Nothing was confirmed');

      const [row] = await app.sql<{ email_verified: boolean; password_hash: string | null }>('select email_verified, password_hash from app_user where id = ?', [maker!.id]);
      expect(row).toEqual({ email_verified: false, password_hash: null });
      expect((await sessions())[0]!.n).toBe(0);
      expect((await signIn('vic@example.com', PASSWORD)).status).not.toBe(303);
      const audit = await app.http.get(`/audit-logs?target=${maker!.id}&action=user.sign_up.disowned`);
      expect(audit.body.data).toHaveLength(1);
      expect(audit.body.data[0]).toMatchObject({ actor: { type: 'user', id: maker!.id }, changes: { before: { emailVerified: false }, after: { sessionsEnded: 1 } } });
      const revoked = (await app.http.get(`/audit-logs?actor=${maker!.id}&action=session.revoked`)).body.data as { changes: { after: object } }[];
      expect(revoked.map((record) => record.changes.after)).toEqual([expect.objectContaining({ reason: 'sign_up_disowned' })]);
      expect((await app.http.get(`/audit-logs?target=${maker!.id}&action=user.email.verified`)).body.data).toEqual([]);
      expect(await mails(app.http, 'vic@example.com', 'welcome')).toEqual([]);
      // The link is spent: neither answer works again.
      expect((await jar.submit(page, { disown: '1' })).status).toBe(400);
      expect((await jar.submit(page, {})).status).toBe(400);
    } finally {
      await configurePassword(app.http, { requireEmailVerification: null });
    }
  });

  it('"I did not sign up" changes nothing once the address was confirmed another way, and a forged link does nothing', async () => {
    expect((await signUp({ name: 'Wes', email: 'wes@example.com', password: PASSWORD })).status).toBe(200);
    const [made] = (await app.http.get('/users?email=wes@example.com')).body.data as { id: string }[];
    const link = await accountLinkOf(app.http, 'wes@example.com', 'verify_email');
    const jar = new CookieJar();
    const page = await jar.visit(link);
    expect(page.status).toBe(200);
    expect((await jar.visit(link, { form: { token: 'forged', disown: '1' } })).status).toBe(400);
    await app.sql('update app_user set email_verified = true where id = ?', [made!.id]);
    expect((await jar.submit(page, { disown: '1' })).status).toBe(400);
    const [row] = await app.sql<{ email_verified: boolean; password_hash: string | null }>('select email_verified, password_hash from app_user where id = ?', [made!.id]);
    expect(row!.email_verified).toBe(true);
    expect(row!.password_hash).not.toBeNull();
    expect((await signIn('wes@example.com', PASSWORD)).status).toBe(303);
    expect((await app.http.get(`/audit-logs?target=${made!.id}&action=user.sign_up.disowned`)).body.data).toEqual([]);
  });

  it('welcome leads to the login URI of the client signed up through, when it registered one, telling it the issuer', async () => {
    const clientId = config.clientMetadata().client_id;
    expect((await app.http.patch(`/oauth-clients/${clientId}`, { initiateLoginUri: 'https://app.example/login' })).status).toBe(200);
    try {
      expect((await signUp({ name: 'Lou', email: 'lou@example.com', password: PASSWORD })).status).toBe(200);
      const [verify] = await mails(app.http, 'lou@example.com', 'verify_email');
      const jar = new CookieJar();
      const page = await jar.visit(/(http\S+\/account\/verify-email\?token=\S+)/.exec(verify!.text)![1]!);
      expect((await jar.submit(page, {})).status).toBe(200);
      const [welcome] = await mails(app.http, 'lou@example.com', 'welcome');
      expect(welcome!.text).toContain(`https://app.example/login?iss=${encodeURIComponent(issuer)}`);
    } finally {
      expect((await app.http.patch(`/oauth-clients/${clientId}`, { initiateLoginUri: null })).status).toBe(200);
    }
  });

  it('a registered address gets the same page, and its owner a notice instead of a second account', async () => {
    await createPasswordUser(app.http, 'pat@example.com');
    const taken = await signUp({ email: 'PAT@example.com', password: 'Other-Horse-77' });
    const fresh = await signUp({ email: 'quinn@example.com', password: 'Other-Horse-77' });
    expect(taken.status).toBe(200);
    expect(fresh.status).toBe(200);
    expect(normalized(taken, 'PAT@example.com')).toBe(normalized(fresh, 'quinn@example.com'));
    expect(headerNames(taken)).toEqual(headerNames(fresh));
    const users = (await app.http.get('/users?emailPrefix=pat@')).body.data as unknown[];
    expect(users).toHaveLength(1);
    const [notice] = await mails(app.http, 'pat@example.com', 'welcome');
    expect(notice!.subject).toBe('You already have a My application account');
    expect(notice!.text).toContain('Someone tried to create an account with pat@example.com');
    expect(await mails(app.http, 'pat@example.com', 'verify_email')).toEqual([]);
    // The account's password is unchanged.
    expect((await signIn('pat@example.com', PASSWORD)).status).toBe(303);
  });

  it('a suspended account’s address gets the same page and its owner no mail, verified or not; a locked one’s owner is told', async () => {
    const verified = await createPasswordUser(app.http, 'sus-verified@example.com');
    const unverified = await createPasswordUser(app.http, 'sus-unverified@example.com');
    const locked = await createPasswordUser(app.http, 'locked-owner@example.com');
    await app.sql('update app_user set email_verified = false where id = ?', [unverified]);
    for (const id of [verified, unverified]) expect((await app.http.post(`/users/${id}/suspend`, {})).status).toBe(200);
    await app.sql(`update app_user set status = 'locked', locked_until = now() + interval '1 hour' where id = ?`, [locked]);
    const fresh = await signUp({ email: 'fresh-beside-suspended@example.com', password: 'Other-Horse-77' });
    for (const email of ['sus-verified@example.com', 'sus-unverified@example.com', 'locked-owner@example.com']) {
      const answer = await signUp({ email, password: 'Other-Horse-77' });
      expect(answer.status).toBe(200);
      expect(normalized(answer, email)).toBe(normalized(fresh, 'fresh-beside-suspended@example.com'));
      expect(headerNames(answer)).toEqual(headerNames(fresh));
    }
    // Neither mail works while suspended (a link's page refuses it, as the sign-in does): as forgot-password sends none.
    for (const email of ['sus-verified@example.com', 'sus-unverified@example.com']) {
      expect([...(await mails(app.http, email, 'welcome')), ...(await mails(app.http, email, 'verify_email'))]).toEqual([]);
    }
    // Locked for a while only: the notice and its sign-in link serve once the lock ends, as a reset link does meanwhile.
    const [notice, ...more] = await mails(app.http, 'locked-owner@example.com', 'welcome');
    expect(more).toEqual([]);
    expect(notice!.subject).toBe('You already have a My application account');
    expect((await app.http.get('/users?emailPrefix=sus-')).body.data).toHaveLength(2);
  });

  it('with requireEmailVerification false the account signs in before verifying', async () => {
    await configurePassword(app.http, { requireEmailVerification: false });
    try {
      expect((await signUp({ email: 'rio@example.com', password: PASSWORD })).status).toBe(200);
      expect(await mails(app.http, 'rio@example.com', 'verify_email')).toHaveLength(1);
      expect((await signIn('rio@example.com', PASSWORD)).status).toBe(303);
    } finally {
      await configurePassword(app.http, { requireEmailVerification: null });
    }
  });
});

describe('new_sign_in', () => {
  it('with the session policy’s notifyNewBrowser, a sign-in from another browser than before mails the user', async () => {
    await createPasswordUser(app.http, 'sue@example.com');
    const signInWith = async (jar: CookieJar, parameters: Record<string, string> = {}) => {
      const flow = await authorize(config, { prompt: 'login', ...parameters }, jar);
      return flow.jar.submit(flow.page, { email: 'sue@example.com', password: PASSWORD });
    };
    // Off by default: no browser is remembered.
    const before = await signInWith(new CookieJar());
    expect(before.status).toBe(303);
    expect(before.headers.get('set-cookie') ?? '').not.toContain('gh_browser');

    const policy = await app.http.put('/policies/session', { notifyNewBrowser: true });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    try {
      const laptop = new CookieJar();
      const first = await signInWith(laptop);
      expect(first.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^gh_browser=[\w-]{43}; Path=\/; Max-Age=34560000; HttpOnly; SameSite=Lax$/));
      // The first browser is not news, nor the same browser again.
      expect((await signInWith(laptop)).status).toBe(303);
      expect(await mails(app.http, 'sue@example.com', 'new_sign_in')).toEqual([]);
      expect((await signInWith(new CookieJar())).status).toBe(303);
      const [mail, ...more] = await mails(app.http, 'sue@example.com', 'new_sign_in');
      expect(more).toEqual([]);
      expect(mail!.text).toMatch(/We noticed a new sign-in to sue@example\.com on \d{4}-\d\d-\d\dT[\d:]+Z from .+ in an unknown location \(IP 127\.0\.0\.1\)/);
      expect(mail!.text).toMatch(/\/account\/reset-password\?token=/);
      // Signed in on a German page, in German, the words it fills in too.
      expect((await signInWith(new CookieJar(), { ui_locales: 'de' })).status).toBe(303);
      const german = (await mails(app.http, 'sue@example.com', 'new_sign_in')).find((sent) => sent.text.includes('Wir haben'));
      expect(german?.text).toMatch(/von .+ in einer unbekannten Gegend \(IP 127\.0\.0\.1\)/);
    } finally {
      expect((await app.http.put('/policies/session', {})).status).toBe(200);
    }
  });
});

describe('the hosted forms', () => {
  it('check CSRF', async () => {
    const flow = await authorize();
    const form = await follow(flow.jar, flow.page, 'Forgot your password\\?');
    const forged = await flow.jar.visit(readForm(form.url, form.body).action, { form: { email: 'kim@example.com' } });
    expect(forged.status).toBe(403);
  });
});

describe('on a tenant’s custom domain', () => {
  const NORTH_HOST = 'login.north.example';
  let admin: HttpClient;
  let domainConfig: oidc.Configuration;
  let via: FetchLike;
  let north: string;
  let another: BootstrapResult;

  beforeAll(async () => {
    another = await app.bootstrapAnother();
    admin = new HttpClient(app.baseUrl, { apiKey: another.apiKey });
    north = await app.createTenant('North', another);
    expect((await admin.patch(`/applications/${another.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    await addDomain(app, { apiKey: another.apiKey, applicationId: another.applicationId, tenantId: north }, NORTH_HOST);
    const client = await createTestClient(app, { type: 'web', applicationId: another.applicationId, redirectUris: [REDIRECT_URI] });
    via = fetchVia(app.baseUrl);
    domainConfig = await oidc.discovery(new URL(`http://${NORTH_HOST}`), client.clientId, {}, oidc.ClientSecretBasic(client.clientSecret ?? ''), {
      [oidc.customFetch]: via,
      execute: [oidc.allowInsecureRequests],
    });
  });

  it('the pool’s links lead to its domain, whose page takes them; no other surface does', async () => {
    await createPasswordUser(admin, 'ona@example.com', `/applications/${another.applicationId}/tenants/${north}/users`);
    const flow = await startAuthorization(domainConfig, { redirectUri: REDIRECT_URI, resource: `${issuer}/api/v1` }, {}, new CookieJar(via));
    expect(flow.page.status).toBe(200);
    expect((await askReset(flow, 'ona@example.com')).status).toBe(200);
    const link = await accountLinkOf(admin, 'ona@example.com', 'password_reset');
    expect(link.startsWith(`http://${NORTH_HOST}/account/reset-password?token=`), link).toBe(true);
    const token = new URL(link).search;
    const jar = new CookieJar(via);
    expect((await jar.visit(`${issuer}/account/reset-password${token}`)).status).toBe(400);
    expect((await jar.visit(`${issuer}/t/north/account/reset-password${token}`)).status).toBe(200);
    expect((await jar.visit(`http://${NORTH_HOST}/t/north/account/reset-password${token}`)).status).toBe(400);
    const form = await jar.visit(link);
    expect(form.status).toBe(200);
    expect(form.body).toContain('– North</title>');
    const changed = await jar.submit(form, { password: NEW_PASSWORD });
    expect(changed.status, changed.body).toBe(200);
    expect(changed.body).toContain('<h1>Password changed</h1>');
  });
});

describe('while the organization is deactivated', () => {
  it('its links are refused with the deactivation page, changing and spending nothing, and work again on reactivation; another organization’s work', async () => {
    const clientId = config.clientMetadata().client_id;
    const userId = await createPasswordUser(app.http, 'dee@example.com');
    await app.sql('update app_user set email_verified = false where id = ?', [userId]);
    const reset = await issuedLink(app, userId, clientId, issuer);
    const verify = await issuedLink(app, userId, clientId, issuer, { purpose: 'verify_email' });
    const other = await app.bootstrapAnother();
    const otherUser = await createPasswordUser(new HttpClient(app.baseUrl, { apiKey: other.apiKey }), 'dee@example.com');
    const otherReset = await issuedLink(app, otherUser, newId(), issuer, { applicationId: other.applicationId });
    const account = async () =>
      (await app.sql<{ password_hash: string; email_verified: boolean }>('select password_hash, email_verified from app_user where id = ?', [userId]))[0];
    const unspent = async () => (await app.sql<{ n: number }>('select count(*)::int as n from email_link_token where user_id = ? and used_at is null', [userId]))[0]!.n;
    const before = await account();
    expect(before!.email_verified).toBe(false);
    const orgPath = `/organizations/${(await app.http.get(`/applications/${app.root.applicationId}`)).body.organizationId as string}`;
    const jar = new CookieJar();

    expect((await app.http.post(`${orgPath}/deactivate`)).status).toBe(200);
    try {
      const token = (link: string) => new URL(link).searchParams.get('token')!;
      const refusals = [
        await jar.visit(reset),
        await jar.visit(reset, { form: { token: token(reset), password: NEW_PASSWORD } }),
        await jar.visit(verify),
        await jar.visit(verify, { form: { token: token(verify) } }),
        await jar.visit(verify, { form: { token: token(verify), disown: '1' } }),
      ];
      for (const refused of refusals) {
        expect(refused.status, refused.body).toBe(403);
        expect(refused.body).toContain('My application is not available at the moment');
      }
      expect(await account()).toEqual(before);
      expect(await unspent()).toBe(2);
      // Another organization's application is served as ever.
      expect((await jar.visit(otherReset)).status).toBe(200);
    } finally {
      expect((await app.http.post(`${orgPath}/reactivate`)).status).toBe(200);
    }

    // The verification first: the reset proves the address too, after which the verification link no longer opens.
    const page = await jar.visit(verify);
    expect(page.status).toBe(200);
    expect((await jar.submit(page, {})).status).toBe(200);
    const form = await jar.visit(reset);
    expect(form.status).toBe(200);
    expect((await jar.submit(form, { password: NEW_PASSWORD })).status).toBe(200);
    const after = await account();
    expect(after!.password_hash).not.toBe(before!.password_hash);
    expect(after!.email_verified).toBe(true);
  });
});
