import { mkdirSync } from 'node:fs';
import * as oidc from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { axeViolations, printed } from '../support/axe.ts';
import { launchChromium, startClientCallback, type ClientCallback } from '../support/chromium.ts';
import { authorizationRequest, createTestClient, decodeJwt, discover } from '../support/oauth.ts';
import { totpCodeAt as codeAt } from '../support/totp.ts';

/**
 * TOTP in Chromium: under a `required` MFA policy a user enrols an authenticator (the code computed here from the
 * key the page shows), saves their recovery codes and is signed in; a later sign-in is challenged. Each page of the
 * step passes axe's WCAG A/AA rules and breaks no CSP. Screenshots: test-results/hosted-mfa-*.png.
 */
let clientSide: ClientCallback;
const PASSWORD = 'Correct-Horse-9';

let app: TestApp;
let config: oidc.Configuration;
let browser: Browser;
let userId: string;

beforeAll(async () => {
  clientSide = await startClientCallback();
  app = await startTestApp({}, { reachablePublicUrl: true });
  const client = await createTestClient(app, { type: 'web', redirectUris: [clientSide.redirectUri] });
  config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  expect((await app.http.put('/policies/mfa', { enforcement: 'required', factors: ['totp', 'email_otp'] })).status).toBe(200);
  userId = (await app.http.post('/users', { email: 'tess@example.com', password: PASSWORD })).body.id;
  mkdirSync('test-results', { recursive: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await clientSide?.close();
});


async function expectAccessible(page: Page, state: string) {
  const violations = await axeViolations(page);
  expect(violations, printed(state, violations)).toEqual([]);
  await page.screenshot({ path: `test-results/hosted-mfa-${state}.png`, fullPage: true });
}

/** A sign-in in a fresh browser context up to the MFA step; the page, and what the client needs to redeem the code. */
async function toStep() {
  const { url, verifier, state } = await authorizationRequest(config, { redirectUri: clientSide.redirectUri, resource: '' });
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(url.href);
  await page.getByLabel('Email address').fill('tess@example.com');
  await page.getByLabel('Password').fill(PASSWORD);
  await Promise.all([page.waitForURL(/\/mfa$/), page.getByRole('button', { name: 'Sign in' }).click()]);
  return { context, page, verifier, state, violations };
}

async function redeem(page: Page, verifier: string, state: string) {
  const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: state });
  return decodeJwt(tokens.id_token!).payload;
}

describe('TOTP in Chromium', () => {
  it('enrols under `required`, shows the recovery codes once, signs in; the next sign-in is challenged', async () => {
    const enrol = await toStep();
    let secret: string;
    try {
      const { page } = enrol;
      expect(await page.locator('h1').textContent()).toBe('Set up two-step verification');
      expect(await page.getByRole('img', { name: 'QR code to scan with an authenticator app' }).count()).toBe(1);
      await expectAccessible(page, 'enrol');
      const uri = (await page.locator('code', { hasText: 'otpauth://totp/' }).textContent())!;
      secret = new URL(uri).searchParams.get('secret')!;
      await page.getByLabel('Code', { exact: true }).fill(codeAt(secret, Date.now()));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForSelector('text=Save your recovery codes');
      expect(await page.locator('li code').count()).toBe(10);
      await expectAccessible(page, 'recovery-codes');
      await Promise.all([page.waitForURL(`${clientSide.redirectUri}**`), page.getByRole('button', { name: 'Continue' }).click()]);
      expect(await redeem(page, enrol.verifier, enrol.state)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'] });
      expect(enrol.violations).toEqual([]);
    } finally {
      await enrol.context.close();
    }

    const challenge = await toStep();
    try {
      const { page } = challenge;
      expect(await page.locator('h1').textContent()).toBe('Two-step verification');
      await expectAccessible(page, 'challenge');
      // The enrolment's step is used: the next step's code (within the window) signs in.
      await page.getByLabel('Code', { exact: true }).fill(codeAt(secret, Date.now() + 30_000));
      await Promise.all([page.waitForURL(`${clientSide.redirectUri}**`), page.getByRole('button', { name: 'Verify' }).click()]);
      expect(await redeem(page, challenge.verifier, challenge.state)).toMatchObject({ sub: userId, amr: ['pwd', 'otp', 'mfa'] });
      expect(challenge.violations).toEqual([]);
    } finally {
      await challenge.context.close();
    }
  });
});
