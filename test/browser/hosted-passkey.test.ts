import { mkdirSync } from 'node:fs';
import * as oidc from 'openid-client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { axeViolations, printed } from '../support/axe.ts';
import { launchChromium, startClientCallback, type ClientCallback } from '../support/chromium.ts';
import { authorizationRequest, createTestClient, decodeJwt, discover } from '../support/oauth.ts';

/**
 * Passkeys in Chromium with its virtual authenticator (CDP WebAuthn: ctap2, internal, resident keys, user
 * verification): a passkey registered on the account page, a sign-in with it and no password, and the same key as
 * the MFA step's second factor after a password. The service is at `localhost` (an IP address is no RP ID). Each page
 * passes axe's WCAG A/AA rules and breaks no CSP (the one inline script runs by its hash). Screenshots:
 * test-results/hosted-passkey-*.png.
 */
const PASSWORD = 'Correct-Horse-9';

let clientSide: ClientCallback;
let app: TestApp;
let issuer: string;
let clientId: string;
let config: oidc.Configuration;
let browser: Browser;
let userId: string;

beforeAll(async () => {
  clientSide = await startClientCallback();
  app = await startTestApp({}, { reachablePublicUrl: true, publicHost: 'localhost' });
  issuer = app.gatehouse.services.config.publicUrl;
  const client = await createTestClient(app, { type: 'web', redirectUris: [clientSide.redirectUri] });
  clientId = client.clientId;
  config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  expect((await app.http.post('/auth-providers', { type: 'password' })).status).toBe(201);
  expect((await app.http.post('/auth-providers', { type: 'passkey', config: { rpName: 'Gatehouse tests' } })).status).toBe(201);
  expect((await app.http.put('/policies/mfa', { enforcement: 'optional', factors: ['totp', 'webauthn'] })).status).toBe(200);
  userId = (await app.http.post('/users', { email: 'kim@example.com', password: PASSWORD })).body.id;
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
  await page.screenshot({ path: `test-results/hosted-passkey-${state}.png`, fullPage: true });
}

/** A browser context with a platform authenticator that holds passkeys and verifies its user. */
async function withAuthenticator(): Promise<{ context: BrowserContext; page: Page; cspViolations: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { context, page, cspViolations };
}

async function startSignIn(page: Page) {
  const request = await authorizationRequest(config, { redirectUri: clientSide.redirectUri, resource: '' });
  await page.goto(request.url.href);
  return request;
}

async function idTokenAt(page: Page, request: { verifier: string; state: string }) {
  const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: request.verifier, expectedState: request.state });
  return decodeJwt(tokens.id_token!).payload;
}

const atClient = (page: Page) => page.waitForURL((url) => url.href.startsWith(clientSide.redirectUri));

describe('passkeys in Chromium', () => {
  it('registers a passkey on the account page, signs in with it without a password, and uses it as the second factor', async () => {
    const { context, page, cspViolations } = await withAuthenticator();
    try {
      // Signed in with the password (no factor held yet: no MFA step), then the account page.
      const first = await startSignIn(page);
      await page.getByLabel('Email address').fill('kim@example.com');
      await page.getByLabel('Password').fill(PASSWORD);
      await Promise.all([atClient(page), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
      expect(await idTokenAt(page, first)).toMatchObject({ sub: userId, amr: ['pwd'] });
      await page.goto(`${issuer}/account?${new URLSearchParams({ client_id: clientId })}`);
      expect(await page.getByRole('heading', { name: 'Passkeys and security keys' }).count()).toBe(1);
      await expectAccessible(page, 'account');
      await page.getByLabel('Name of the new passkey').fill('This laptop');
      await Promise.all([page.waitForURL(/done=passkeys/), page.getByRole('button', { name: 'Add a passkey' }).click()]);
      expect(await page.getByText('Your passkeys and security keys are saved.').count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Remove This laptop' }).count()).toBe(1);
      await expectAccessible(page, 'account-added');

      // Signed out: the passkey signs in alone, as two factors.
      await context.clearCookies();
      const second = await startSignIn(page);
      await expectAccessible(page, 'login');
      await Promise.all([atClient(page), page.getByRole('button', { name: 'Sign in with a passkey' }).click()]);
      expect(await idTokenAt(page, second)).toMatchObject({ sub: userId, amr: ['hwk', 'user', 'mfa'] });

      // Signed out again: the password, then the key as the second step.
      await context.clearCookies();
      const third = await startSignIn(page);
      await page.getByLabel('Email address').fill('kim@example.com');
      await page.getByLabel('Password').fill(PASSWORD);
      await Promise.all([page.waitForURL(/\/mfa$/), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
      await expectAccessible(page, 'second-factor');
      await Promise.all([atClient(page), page.getByRole('button', { name: 'Use my passkey or security key' }).click()]);
      expect(await idTokenAt(page, third)).toMatchObject({ sub: userId, amr: ['pwd', 'hwk', 'mfa'] });
      expect(cspViolations).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
