import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { launchChromium, startClientCallback, type ClientCallback } from '../support/chromium.ts';
import { decodedMail, startMailSink, type MailSink } from '../support/mail-receivers.ts';
import { authorizationRequest, createTestClient, discover } from '../support/oauth.ts';

/**
 * A real browser resets a forgotten password: the hosted "Forgot your password?" page, the mail as the service's
 * built-in sender delivers it to an SMTP server (SMTP_URL), its link, a new password, and a sign-in with it.
 */
const OLD_PASSWORD = 'Correct-Horse-9';
const NEW_PASSWORD = 'Battery-Staple-42';

let clientSide: ClientCallback;
let mailSink: MailSink;
let app: TestApp;
let config: oidc.Configuration;
let browser: Browser;

beforeAll(async () => {
  clientSide = await startClientCallback();
  mailSink = await startMailSink();
  app = await startTestApp({ email: mailSink.email }, { reachablePublicUrl: true });
  const client = await createTestClient(app, { type: 'web', redirectUris: [clientSide.redirectUri] });
  config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  expect((await app.http.post('/users', { email: 'rae@example.com', name: 'Rae', password: OLD_PASSWORD })).status).toBe(201);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await mailSink?.close();
  await clientSide?.close();
});

/** The reset link of the first mail to `to` the sink receives (polled: the outbox worker sends it after the commit). */
async function resetLinkSentTo(to: string): Promise<string> {
  await expect.poll(() => mailSink.to(to).length, { timeout: 30_000, interval: 100 }).toBeGreaterThan(0);
  const mail = mailSink.to(to)[0]!;
  expect(mail.header('subject')).toBe('Reset your My application password');
  const link = /(http\S+\/account\/reset-password\?token=[\w.-]+)/.exec(decodedMail(mail.raw))?.[1];
  expect(link, mail.raw).toBeDefined();
  return link!;
}

describe('password reset in Chromium', () => {
  it('forgot password → mail → link → new password → sign in with it', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const request = async () => (await authorizationRequest(config, { redirectUri: clientSide.redirectUri, resource: '' })).url.href;
      await page.goto(await request());
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('Reset your password');
      await page.getByLabel('Email address').fill('rae@example.com');
      await page.getByRole('button', { name: 'Send the link' }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('Check your email');

      await page.goto(await resetLinkSentTo('rae@example.com'));
      await expect.poll(() => page.locator('h1').textContent()).toBe('Choose a new password');
      await page.getByLabel('New password').fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('Password changed');
      await page.screenshot({ path: 'test-results/hosted-password-reset.png' });

      await page.goto(await request());
      await page.getByLabel('Email address').fill('rae@example.com');
      await page.getByLabel('Password').fill(NEW_PASSWORD);
      await Promise.all([page.waitForURL(`${clientSide.redirectUri}**`), page.getByRole('button', { name: 'Sign in' }).click()]);
      expect(new URL(page.url()).searchParams.get('code')).toBeTruthy();
    } finally {
      await context.close();
    }
  });
});
