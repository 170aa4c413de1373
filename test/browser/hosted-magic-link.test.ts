import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import type { Page } from 'playwright-core';
import { axeViolations, printed } from '../support/axe.ts';
import { launchChromium, startClientCallback, type ClientCallback } from '../support/chromium.ts';
import { makeCertificate, startSmtpServer, type TestCertificate, type TestSmtpServer } from '../support/mail-receivers.ts';
import { authorizationRequest, createTestClient, discover } from '../support/oauth.ts';

/**
 * A real browser signs in by magic link: the hosted page's e-mail form, the mail as the built-in sender delivers it to
 * an SMTP server (SMTP_URL), and its link, opened in the same browser (signed in) and in another one (a confirmation,
 * then a code typed in the first).
 */
let clientSide: ClientCallback;
let certificate: TestCertificate;
let sink: TestSmtpServer;
let app: TestApp;
let config: oidc.Configuration;
let browser: Browser;

beforeAll(async () => {
  clientSide = await startClientCallback();
  certificate = makeCertificate();
  sink = await startSmtpServer({ certificate });
  const email = { ...loadConfig({}).email, smtpUrl: `smtp://127.0.0.1:${sink.port}`, smtpCaFile: certificate.caFile, pollMs: 200 };
  app = await startTestApp({ email }, { reachablePublicUrl: true });
  for (const body of [{ type: 'password' }, { type: 'magic_link' }]) expect((await app.http.post('/auth-providers', body)).status).toBe(201);
  const client = await createTestClient(app, { type: 'web', redirectUris: [clientSide.redirectUri] });
  config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  expect((await app.http.post('/users', { email: 'rae@example.com', name: 'Rae', password: 'Correct-Horse-9' })).status).toBe(201);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await sink?.close();
  certificate?.remove();
  await clientSide?.close();
});

/** A mail's body as sent: quoted-printable undone, so that its link reads as written. */
const decoded = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** The sign-in link of the `nth` mail (from 1) the sink receives (polled: the outbox worker sends it after the commit). */
async function magicLinkSent(nth: number): Promise<string> {
  await expect.poll(() => sink.received.length, { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(nth);
  const mail = sink.received[nth - 1]!;
  expect(mail.header('subject')).toBe('Your sign-in link for My application');
  const link = /(http\S+\/interaction\/[\w-]+\/email-link\?token=[\w.-]+)/.exec(decoded(mail.raw))?.[1];
  expect(link, mail.raw).toBeDefined();
  return link!;
}

/** axe's WCAG A/AA rules on the page as it stands. */
async function expectAccessible(page: Page, state: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, printed(state, violations)).toEqual([]);
}

const request = async () => (await authorizationRequest(config, { redirectUri: clientSide.redirectUri, resource: '' })).url.href;

describe('magic link in Chromium', () => {
  it('e-mail → mail → the link in the same browser: signed in', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const before = sink.received.length;
      await page.goto(await request());
      await expectAccessible(page, 'sign-in with the e-mail form');
      await page.locator('#signin-email').fill('rae@example.com');
      await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('Check your email');
      await expectAccessible(page, 'check your email');
      await Promise.all([page.waitForURL(`${clientSide.redirectUri}**`), page.goto(await magicLinkSent(before + 1))]);
      expect(new URL(page.url()).searchParams.get('code')).toBeTruthy();
    } finally {
      await context.close();
    }
  });

  it('the link in another browser: confirmed there, its code typed in the asking one', async () => {
    const [asking, other] = [await browser.newContext(), await browser.newContext()];
    try {
      const page = await asking.newPage();
      const before = sink.received.length;
      await page.goto(await request());
      await page.locator('#signin-email').fill('rae@example.com');
      await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('Check your email');

      const elsewhere = await other.newPage();
      await elsewhere.goto(await magicLinkSent(before + 1));
      await expect.poll(() => elsewhere.locator('h1').textContent()).toBe('Sign in on another device?');
      await expectAccessible(elsewhere, 'the link in another browser');
      await elsewhere.getByRole('button', { name: 'Show the code' }).click();
      await expect.poll(() => elsewhere.locator('h1').textContent()).toBe('Your sign-in code');
      await expectAccessible(elsewhere, 'the code shown');
      const code = (await elsewhere.locator('.code').textContent())!.trim();
      expect(code).toMatch(/^\d{6}$/);

      // A wrong code first: the page again, its error announced and tied to the field.
      await page.getByLabel('Code').fill(code === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('Check your email');
      expect(await page.locator('#form-error').textContent()).toContain('The code is incorrect');
      await expectAccessible(page, 'a wrong code');
      await page.getByLabel('Code').fill(code);
      await Promise.all([page.waitForURL(`${clientSide.redirectUri}**`), page.getByRole('button', { name: 'Continue' }).click()]);
      expect(new URL(page.url()).searchParams.get('code')).toBeTruthy();
    } finally {
      await asking.close();
      await other.close();
    }
  });
});
