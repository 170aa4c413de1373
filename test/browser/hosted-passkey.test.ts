import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { customDomainsOf, idTokenAt, scopesOf, startSignIn, startSurfaces, SURFACES, userOf, type BrowserSurface, type SurfaceName } from '../support/browser-surfaces.ts';
import { expectAccessible, launchChromium, startClientCallback, withAuthenticator, type ClientCallback } from '../support/chromium.ts';
import { mailedCode } from '../support/email-sign-in.ts';

/**
 * Passkeys in Chromium with its virtual authenticator (CDP WebAuthn: ctap2, internal, resident keys, user
 * verification): a passkey registered on the account page, a sign-in with it and no password, and the same key as
 * the MFA step's second factor after a password; on the shared surface, a tenant's surface and its custom domain (the
 * RP ID the page's host: `localhost` for the first two, as an IP address is no RP ID, the domain for the third). Each
 * page passes axe's WCAG A/AA rules and breaks no CSP (the one inline script runs by its hash). Screenshots:
 * test-results/hosted-passkey-{surface}-*.png.
 */
const PASSWORD = 'Correct-Horse-9';

let clientSide: ClientCallback;
let app: TestApp;
let surfaces: Record<SurfaceName, BrowserSurface>;
let browser: Browser;

beforeAll(async () => {
  clientSide = await startClientCallback();
  app = await startTestApp({}, { reachablePublicUrl: true, publicHost: 'localhost' });
  surfaces = await startSurfaces(app, clientSide.redirectUri);
  for (const { admin, scopePath } of scopesOf(surfaces)) {
    // North's own set needs a password provider too; the application has its own already.
    if (scopePath !== '') expect((await admin.post(`${scopePath}/auth-providers`, { type: 'password' })).status).toBe(201);
    expect((await admin.post(`${scopePath}/auth-providers`, { type: 'passkey', config: { rpName: 'Gatehouse tests', allowSignup: true } })).status).toBe(201);
    expect((await admin.put(`${scopePath}/policies/mfa`, { enforcement: 'optional', factors: ['totp', 'webauthn'] })).status).toBe(200);
  }
  mkdirSync('test-results', { recursive: true });
  browser = await launchChromium({ customDomains: customDomainsOf(app) });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await clientSide?.close();
});

const atClient = (page: Page) => page.waitForURL((url) => url.href.startsWith(clientSide.redirectUri));

describe.each(SURFACES)('passkeys in Chromium on %s', (name) => {
  const surface = () => surfaces[name];
  const index = SURFACES.indexOf(name);

  const expectAccessiblePasskey = (page: Page, state: string) => expectAccessible(page, state, `hosted-passkey-${index}-${state}`);

  it('registers a passkey on the account page, signs in with it without a password, and uses it as the second factor', async () => {
    const email = `kim.${index}@example.com`;
    const userId = await userOf(surface(), email, PASSWORD);
    const issuer = surface().config.serverMetadata().issuer;
    const { context, page, cspViolations } = await withAuthenticator(browser);
    try {
      // Signed in with the password (no factor held yet: no MFA step), then the account page.
      const first = await startSignIn(surface(), page, clientSide.redirectUri);
      await page.getByLabel('Email address').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await Promise.all([atClient(page), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
      expect(await idTokenAt(surface(), page, first)).toMatchObject({ sub: userId, amr: ['pwd'], iss: issuer });
      await page.goto(`${issuer}/account?${new URLSearchParams({ client_id: surface().config.clientMetadata().client_id })}`);
      expect(await page.getByRole('heading', { name: 'Passkeys and security keys' }).count()).toBe(1);
      await expectAccessiblePasskey(page, 'account');
      await page.getByLabel('Name of the new passkey').fill('This laptop');
      await page.fill('#passkey_add_password', PASSWORD);
      // The first second step of a policy listing keys: its recovery codes are shown in the answer, once.
      await Promise.all([page.waitForURL(/\/account\/passkeys$/), page.getByRole('button', { name: 'Add a passkey' }).click()]);
      expect(await page.getByText('Your passkeys and security keys are saved.').count()).toBe(1);
      expect(await page.locator('li > code').count()).toBe(10);
      expect(await page.getByLabel('Passkey to remove').locator('option').allTextContents()).toEqual(['This laptop']);
      await expectAccessiblePasskey(page, 'account-added');
      // The RP ID is the page's host: the custom domain's own, else `localhost`.
      const keys = await app.gatehouse.services.orm.em.getConnection().execute('select rp_id from webauthn_credential where user_id = ?', [userId]);
      expect(keys).toEqual([{ rp_id: new URL(issuer).hostname }]);

      // Signed out: the passkey signs in alone, as two factors.
      await context.clearCookies();
      const second = await startSignIn(surface(), page, clientSide.redirectUri);
      await expectAccessiblePasskey(page, 'login');
      await Promise.all([atClient(page), page.getByRole('button', { name: 'Sign in with a passkey' }).click()]);
      expect(await idTokenAt(surface(), page, second)).toMatchObject({ sub: userId, amr: ['hwk', 'user', 'mfa'], iss: issuer });

      // Signed out again: the password, then the key as the second step.
      await context.clearCookies();
      const third = await startSignIn(surface(), page, clientSide.redirectUri);
      await page.getByLabel('Email address').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await Promise.all([page.waitForURL(/\/mfa$/), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
      await expectAccessiblePasskey(page, 'second-factor');
      await Promise.all([atClient(page), page.getByRole('button', { name: 'Use my passkey or security key' }).click()]);
      expect(await idTokenAt(surface(), page, third)).toMatchObject({ sub: userId, amr: ['pwd', 'hwk', 'mfa'], iss: issuer });
      expect(cspViolations).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('signs up with a passkey: the address proven by a mailed code, the passkey made, the account signed in with it', async () => {
    const email = `new.${index}@example.com`;
    const issuer = surface().config.serverMetadata().issuer;
    const { context, page, cspViolations } = await withAuthenticator(browser);
    try {
      const first = await startSignIn(surface(), page, clientSide.redirectUri);
      await page.getByRole('link', { name: 'Create an account with a passkey' }).click();
      await expectAccessiblePasskey(page, 'signup');
      await page.getByLabel('Email address').fill(email);
      await page.getByRole('button', { name: 'Send the code' }).click();
      await page.getByLabel('Code').fill(await mailedCode(surface().admin, email));
      await expectAccessiblePasskey(page, 'signup-code');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Create your passkey' }).waitFor();
      await expectAccessiblePasskey(page, 'signup-create');
      await Promise.all([atClient(page), page.getByRole('button', { name: 'Create my passkey' }).click()]);
      const claims = await idTokenAt(surface(), page, first);
      expect(claims).toMatchObject({ amr: ['hwk', 'user', 'mfa'], iss: issuer });
      const keys = await app.gatehouse.services.orm.em.getConnection().execute('select rp_id from webauthn_credential where user_id = ?', [claims['sub']]);
      expect(keys).toEqual([{ rp_id: new URL(issuer).hostname }]);

      // Signed out: the new passkey signs its account in.
      await context.clearCookies();
      const second = await startSignIn(surface(), page, clientSide.redirectUri);
      await Promise.all([atClient(page), page.getByRole('button', { name: 'Sign in with a passkey' }).click()]);
      expect(await idTokenAt(surface(), page, second)).toMatchObject({ sub: claims['sub'] });
      expect(cspViolations).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
