import { mkdirSync } from 'node:fs';
import * as oidc from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { idTokenAt, startSignIn, type BrowserSurface } from '../support/browser-surfaces.ts';
import { cspViolationsOf, expectAccessible, launchChromium, startClientCallback, withAuthenticator, type ClientCallback } from '../support/chromium.ts';
import type { HttpClient } from '../support/http.ts';
import { authorizationRequest, createTestClient, decodeJwt, discover, discoverSurface } from '../support/oauth.ts';
import { passwordProviderId } from '../support/auth-providers.ts';
import { mailedCode } from '../support/email-sign-in.ts';

/**
 * An invitation accepted in a real browser: the mail is read from the outbox (`GET /email/deliveries/{id}`, its
 * rendered text), its link opens the hosted page in the tenant's branding, the invitee creates an account there, and
 * then signs in to the tenant with it through the hosted sign-in; where the surface signs in with passkeys only, the
 * acceptance makes one with Chromium's virtual authenticator. Screenshot: test-results/invitation-*.png.
 */
const PASSWORD = 'Correct-Horse-9';
const PRIMARY = '#7c3aed';

let app: TestApp;
let browser: Browser;
let clientSide: ClientCallback;
let tenantId: string;

beforeAll(async () => {
  clientSide = await startClientCallback();
  // `localhost`: a passkey's RP ID is the page's host, and an IP address is none.
  app = await startTestApp({}, { reachablePublicUrl: true, publicHost: 'localhost' });
  const appId = app.root.applicationId;
  expect((await app.http.patch(`/applications/${appId}`, { tenancyConfig: { brandingScope: 'tenant' } })).status).toBe(200);
  tenantId = await app.createTenant('Initech');
  const branding = await app.http.put(`/applications/${appId}/tenants/${tenantId}/branding`, {
    colors: { primary: PRIMARY, background: '#faf5ff', text: '#111111' },
    copy: { 'invitation.title': 'You are invited to Initech' },
  });
  expect(branding.status).toBe(200);
  mkdirSync('test-results', { recursive: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await clientSide?.close();
});

/** The link of the latest invitation mail to `to`, as the outbox keeps it. */
async function linkMailedTo(client: HttpClient, to: string): Promise<string> {
  const listed = await client.get(`/email/deliveries?templateKey=invitation&to=${encodeURIComponent(to)}`);
  const mail = (await client.get(`/email/deliveries/${listed.body.data.at(-1).id}`)).body;
  const link = /https?:\/\/\S+\/invitation\?token=[\w-]+/.exec(mail.text as string)?.[0];
  expect(link, mail.text).toBeDefined();
  return link!;
}

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)).join(', ')})`;

describe('an invitation in Chromium', () => {
  it('is accepted through the hosted page opened from the mailed link, and the new member signs in to the tenant', async () => {
    const inTenant = `/applications/${app.root.applicationId}/tenants/${tenantId}`;
    const role = await app.http.post(`${inTenant}/roles`, { key: 'initech_staff', name: 'Staff', permissions: ['users:read'] });
    const sent = await app.http.post(`${inTenant}/invitations`, { email: 'peter@initech.example', roleIds: [role.body.id] });
    expect(sent.status).toBe(201);

    // The mail, as the outbox keeps it.
    const listed = await app.http.get(`${inTenant}/email/deliveries?templateKey=invitation&to=peter%40initech.example`);
    expect(listed.body.data).toHaveLength(1);
    const mail = (await app.http.get(`${inTenant}/email/deliveries/${listed.body.data[0].id}`)).body;
    expect(mail.subject).toContain('Initech');
    const link = /https?:\/\/\S+\/invitation\?token=[\w-]+/.exec(mail.text as string)?.[0];
    expect(link, mail.text).toBeDefined();
    expect(link!.startsWith(app.gatehouse.services.config.publicUrl)).toBe(true);

    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const violations = cspViolationsOf(page);
      await page.goto(link!);
      expect(await page.locator('h1').textContent()).toBe('You are invited to Initech');
      const button = page.getByRole('button', { name: 'Accept invitation' });
      expect(await button.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(rgb(PRIMARY));
      expect(await page.getByLabel('Email address').inputValue()).toBe('peter@initech.example');
      const accessible = (state: string) => expectAccessible(page, state);
      await accessible('invitation form');
      // A password the policy refuses: the form again, the rules and the refusal tied to the field.
      await page.getByLabel('Password').fill('short');
      await Promise.all([page.waitForLoadState('load'), button.click()]);
      await page.waitForSelector('#password-error');
      expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
      await accessible('invitation form, password refused');
      await page.getByLabel('Name').fill('Peter Gibbons');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.screenshot({ path: 'test-results/invitation-form.png', fullPage: true });
      await Promise.all([page.waitForLoadState('load'), button.click()]);
      await page.waitForSelector('h1:has-text("Welcome to Initech")');
      expect(await page.textContent('body')).toContain('You are now a member of Initech');
      await page.screenshot({ path: 'test-results/invitation-done.png', fullPage: true });
      await accessible('invitation accepted');

      // A second use of the link says why it does not work.
      await page.goto(link!);
      expect(await page.textContent('body')).toContain('already been accepted');
      await accessible('invitation spent');
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }

    const invitation = (await app.http.get(`${inTenant}/invitations/${sent.body.id}`)).body;
    expect(invitation.status).toBe('accepted');
    const userId = invitation.acceptedUserId as string;
    expect((await app.http.post(`${inTenant}/roles/check`, { subject: { type: 'user', id: userId }, role: 'initech_staff' })).body).toEqual({ allowed: true });

    // The new member signs in to the tenant with the account the invitation made.
    const client = await createTestClient(app, { type: 'web', redirectUris: [clientSide.redirectUri] });
    const config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
    const managementApi = `${app.gatehouse.services.config.publicUrl}/api/v1`;
    const { url, verifier, state } = await authorizationRequest(config, { redirectUri: clientSide.redirectUri, resource: managementApi }, { tenant: tenantId });
    const signIn = await browser.newContext();
    try {
      const page = await signIn.newPage();
      await page.goto(url.href);
      await page.getByLabel('Email address').fill('peter@initech.example');
      await page.getByLabel('Password').fill(PASSWORD);
      await Promise.all([page.waitForURL(`${clientSide.redirectUri}**`), page.getByRole('button', { name: 'Sign in' }).click()]);
      const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: state }, { resource: managementApi });
      expect(decodeJwt(tokens.access_token).payload).toMatchObject({ sub: userId, tenant_id: tenantId });
    } finally {
      await signIn.close();
    }
  });

  it('is accepted with a name alone where the surface has no password sign-in: the link proves the mailbox', async () => {
    const other = await app.bootstrapAnother();
    const client = app.as({ apiKey: other.apiKey });
    const base = `/applications/${other.applicationId}`;
    expect((await client.post(`${base}/auth-providers`, { type: 'magic_link', config: { signInWith: 'link' } })).status).toBe(201);
    expect((await client.delete(`${base}/auth-providers/${await passwordProviderId(client, `${base}/auth-providers`)}`)).status).toBe(204);
    const tenant = await app.createTenant('Vandelay', other);
    const sent = await client.post(`${base}/tenants/${tenant}/invitations`, { email: 'art@vandelay.example' });
    expect(sent.status).toBe(201);
    const listed = await client.get(`/email/deliveries?templateKey=invitation&to=art%40vandelay.example`);
    const mail = (await client.get(`/email/deliveries/${listed.body.data[0].id}`)).body;
    const link = /https?:\/\/\S+\/invitation\?token=[\w-]+/.exec(mail.text as string)?.[0];
    expect(link, mail.text).toBeDefined();

    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(link!);
      expect(await page.locator('h1').textContent()).toBe('Join Vandelay');
      expect(await page.locator('input[type="password"]').count()).toBe(0);
      const accessible = (state: string) => expectAccessible(page, state);
      await accessible('passwordless invitation form');
      await page.getByLabel('Name').fill('Art Vandelay');
      await page.screenshot({ path: 'test-results/invitation-passwordless-form.png', fullPage: true });
      await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Accept invitation' }).click()]);
      await page.waitForSelector('h1:has-text("Welcome to Vandelay")');
      expect(await page.textContent('body')).toContain('You can sign in with a sign-in link sent by email.');
      await page.screenshot({ path: 'test-results/invitation-passwordless-done.png', fullPage: true });
      await accessible('passwordless invitation accepted');
      // Nothing signed this browser in: it holds no cookie at all.
      expect(await context.cookies()).toEqual([]);
    } finally {
      await context.close();
    }
    const invitation = (await client.get(`${base}/tenants/${tenant}/invitations/${sent.body.id}`)).body;
    expect(invitation.status).toBe('accepted');
    const user = (await client.get(`${base}/tenants/${tenant}/users/${invitation.acceptedUserId}`)).body;
    expect(user).toMatchObject({ email: 'art@vandelay.example', name: 'Art Vandelay', tenantIds: [tenant] });
  });

  it('where the surface signs in with passkeys only, a new account and an account without a passkey each make one as they accept, and sign in with it', async () => {
    const other = await app.bootstrapAnother();
    const client = app.as({ apiKey: other.apiKey });
    const base = `/applications/${other.applicationId}`;
    expect((await client.post(`${base}/auth-providers`, { type: 'passkey', config: { rpName: 'Pendant' } })).status).toBe(201);
    expect((await client.delete(`${base}/auth-providers/${await passwordProviderId(client, `${base}/auth-providers`)}`)).status).toBe(204);
    const pendant = await app.createTenant('Pendant', other);
    const bygone = await app.createTenant('Bygone', other);
    const oauthClient = await createTestClient(app, { type: 'web', applicationId: other.applicationId, redirectUris: [clientSide.redirectUri] });
    const surface: BrowserSurface = { config: await discoverSurface(app.gatehouse.services.config.publicUrl, oauthClient), admin: client, scopePath: base };
    const invite = async (email: string) => {
      const sent = await client.post(`${base}/tenants/${pendant}/invitations`, { email });
      expect(sent.status).toBe(201);
      return sent.body.id as string;
    };
    const keysOf = (userId: string) => app.gatehouse.services.orm.em.getConnection().execute('select rp_id from webauthn_credential where user_id = ?', [userId]);
    /** Signed out, the passkey alone signs the account in to Pendant. */
    const signsInWithPasskey = async (page: Page, userId: string) => {
      await page.context().clearCookies();
      const request = await startSignIn(surface, page, clientSide.redirectUri, { tenant: pendant });
      await Promise.all([page.waitForURL((url) => url.href.startsWith(clientSide.redirectUri)), page.getByRole('button', { name: 'Sign in with a passkey' }).click()]);
      expect(await idTokenAt(surface, page, request)).toMatchObject({ sub: userId, amr: ['hwk', 'user', 'mfa'] });
    };

    // A new account: a name, then the browser makes its passkey; the account and its key are stored together.
    const invitationId = await invite('pia@pendant.example');
    const fresh = await withAuthenticator(browser);
    try {
      const { page } = fresh;
      await page.goto(await linkMailedTo(client, 'pia@pendant.example'));
      expect(await page.textContent('body')).toContain('Pendant signs in with passkeys: your browser will make one for this account.');
      await expectAccessible(page, 'passkey invitation form');
      await page.getByLabel('Name').fill('Pia');
      await page.screenshot({ path: 'test-results/invitation-passkey-form.png', fullPage: true });
      await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Accept and create a passkey' }).click()]);
      await page.waitForSelector('h1:has-text("Welcome to Pendant")');
      expect(await page.textContent('body')).toContain('You can sign in with your passkey.');
      await expectAccessible(page, 'passkey invitation accepted');
      const userId = (await client.get(`${base}/tenants/${pendant}/invitations/${invitationId}`)).body.acceptedUserId as string;
      expect((await client.get(`${base}/users/${userId}`)).body).toMatchObject({ email: 'pia@pendant.example', name: 'Pia', tenantIds: [pendant], emailVerified: true });
      expect(await keysOf(userId)).toEqual([{ rp_id: 'localhost' }]);
      await signsInWithPasskey(page, userId);
      expect(fresh.cspViolations).toEqual([]);
    } finally {
      await fresh.context.close();
    }

    // An account of the pool without a passkey (made in another tenant, by the API): it makes one as it joins, with the
    // code the page mails to it on a click.
    const made = await client.post(`${base}/tenants/${bygone}/users`, { email: 'ray@pendant.example', name: 'Ray' });
    expect(made.status).toBe(201);
    await invite('ray@pendant.example');
    const existing = await withAuthenticator(browser);
    try {
      const { page } = existing;
      await page.goto(await linkMailedTo(client, 'ray@pendant.example'));
      expect(await page.textContent('body')).toContain('Accept the invitation to join Pendant with your account. Pendant signs in with passkeys');
      expect(await page.getByLabel('Name').count()).toBe(0);
      await expectAccessible(page, 'passkey invitation form, existing account');
      await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Send me a code' }).click()]);
      expect(await page.textContent('body')).toContain('We sent a code to ray@pendant.example. It works once, for 10 minutes.');
      await expectAccessible(page, 'passkey invitation form, code sent');
      await page.getByLabel('Code from the e-mail').fill(await mailedCode(client, 'ray@pendant.example'));
      await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Accept and create a passkey' }).click()]);
      await page.waitForSelector('h1:has-text("Welcome to Pendant")');
      expect(await page.textContent('body')).toContain('You can sign in with your passkey.');
      expect(await keysOf(made.body.id)).toEqual([{ rp_id: 'localhost' }]);
      expect(new Set((await client.get(`${base}/users/${made.body.id}`)).body.tenantIds)).toEqual(new Set([bygone, pendant]));
      await signsInWithPasskey(page, made.body.id);
      expect(existing.cspViolations).toEqual([]);
    } finally {
      await existing.context.close();
    }
  });
});
