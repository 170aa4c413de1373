import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectAccessible, launchChromium, LOGO_HOST, startClientCallback, withBrandedPage, type ClientCallback } from '../support/chromium.ts';
import { HttpClient } from '../support/http.ts';
import { createTestClient } from '../support/oauth.ts';
import { totpCodeAt as codeAt } from '../support/totp.ts';

/**
 * The hosted account page in Chromium, in two tenants' branding: reached signed out (the sign-in and back), its
 * sections, a change said in its section, a refusal announced and tied to its fields; axe-core's WCAG A/AA rules on
 * each state, no CSP violation, nothing fetched outside the service (the tenants' logos are answered by the test).
 */
const PASSWORD = 'Correct-Horse-9';

/** Two tenants' looks: a dark one and a pale one with a faint primary colour. */
const TENANTS = [
  { name: 'Acme', slug: 'acme', colors: { primary: '#38bdf8', background: '#0f172a', text: '#475569' } },
  { name: 'Globex', slug: 'globex', colors: { primary: '#facc15', background: '#fefce8', text: '#ca8a04' } },
] as const;

let callback: ClientCallback;
let app: TestApp;
let issuer: string;
let browser: Browser;
let application: BootstrapResult;
let clientId: string;

beforeAll(async () => {
  callback = await startClientCallback();
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  application = await app.bootstrapAnother();
  const admin = new HttpClient(app.baseUrl, { apiKey: application.apiKey });
  const appPath = `/applications/${application.applicationId}`;
  expect((await admin.patch(appPath, { tenancyConfig: { brandingScope: 'tenant' } })).status).toBe(200);
  for (const tenant of TENANTS) {
    const tenantId = await app.createTenant(tenant.name, application);
    const branding = await admin.put(`${appPath}/tenants/${tenantId}/branding`, { logoUrl: `${LOGO_HOST}/${tenant.slug}.png`, colors: tenant.colors });
    expect(branding.status, JSON.stringify(branding.body)).toBe(200);
    const user = await admin.post('/users', { email: `${tenant.slug}-user@example.com`, password: PASSWORD, name: `${tenant.name} User`, tenantId });
    expect(user.status, JSON.stringify(user.body)).toBe(201);
  }
  clientId = (await createTestClient(app, { type: 'web', applicationId: application.applicationId, redirectUris: [callback.redirectUri] })).clientId;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await callback?.close();
});

const withPage = (run: (page: Page) => Promise<void>) => withBrandedPage(browser, [issuer], run);

async function expectAccessibleInEnglish(page: Page, state: string): Promise<void> {
  await expectAccessible(page, state);
  expect(await page.getAttribute('html', 'lang')).toBe('en');
}

describe.each(TENANTS)('the account page of $name', (tenant) => {
  it('is reached through the sign-in, in the tenant’s look, and every state passes axe', async () => {
    await withPage(async (page) => {
      await page.goto(`${issuer}/account?client_id=${clientId}&tenant=${tenant.slug}`);
      // Signed out: the tenant's sign-in page, then back on the account page.
      await page.fill('#email', `${tenant.slug}-user@example.com`);
      await page.fill('#password', PASSWORD);
      await page.click('button[type=submit]');
      await page.waitForURL(/\/account\?/);
      expect(await page.title()).toBe(`Your account – ${tenant.name}`);
      expect(await page.getAttribute('img.logo', 'src')).toBe(`${LOGO_HOST}/${tenant.slug}.png`);
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(hexToRgb(tenant.colors.background));
      expect(await page.locator('h2').allTextContents()).toEqual(['Name', 'Email address', 'Password', 'Two-step verification', 'Where you are signed in']);
      expect(await page.locator('#name').getAttribute('autocomplete')).toBe('name');
      expect(await page.locator('#new_email').getAttribute('autocomplete')).toBe('email');
      expect(await page.locator('#current_password').getAttribute('autocomplete')).toBe('current-password');
      expect(await page.locator('#new_password').getAttribute('autocomplete')).toBe('new-password');
      await expectAccessibleInEnglish(page, `${tenant.name}: the page`);

      // A change: said in a status message.
      await page.fill('#name', `${tenant.name} Person`);
      await page.click('section:has(#name) button[type=submit]');
      await page.waitForURL(/done=name/);
      expect(await page.locator('[role=status]').textContent()).toBe('Your name is saved.');
      await expectAccessibleInEnglish(page, `${tenant.name}: a change saved`);

      // A refusal: announced, tied to its fields, the focus on the first.
      await page.fill('#current_password', 'Wrong-Horse-9');
      await page.fill('#new_password', 'Battery-Staple-42');
      await page.click('section:has(#new_password) button[type=submit]');
      await page.waitForSelector('[role=alert]');
      expect(await page.locator('[role=alert]').textContent()).toBe('The current password is incorrect.');
      expect(await page.locator('#current_password').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#current_password').getAttribute('aria-describedby')).toContain('password-error');
      await expectFocusOn(page, 'current_password');
      expect(await page.title()).toBe(`Error: Your account – ${tenant.name}`);
      await expectAccessibleInEnglish(page, `${tenant.name}: a refusal`);

      // A new address: refused, it is announced and marked, as typed; accepted, the page says where the link went.
      await page.fill('#new_email', 'not-an-address');
      await page.fill('#email_password', PASSWORD);
      await page.click('section:has(#new_email) button[type=submit]');
      await page.waitForSelector('#email-error');
      expect(await page.locator('#email-error').textContent()).toBe('Enter an email address like name@example.com.');
      expect(await page.locator('#new_email').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#new_email').inputValue()).toBe('not-an-address');
      await expectFocusOn(page, 'new_email');
      await expectAccessibleInEnglish(page, `${tenant.name}: an address refused`);
      await page.fill('#new_email', `${tenant.slug}-new@example.com`);
      await page.fill('#email_password', PASSWORD);
      await page.click('section:has(#new_email) button[type=submit]');
      await page.waitForURL(/done=email/);
      expect(await page.locator('[role=status]').textContent()).toBe('Open the link we sent to the new address to change yours. It works once, for an hour.');

      // Two-step verification: an authenticator app added with a code of the key shown, its recovery codes shown once.
      await page.click('summary:has-text("Add an authenticator app")');
      // The paragraph that starts with "Key:" (the setup URI's holds the secret too, and a random one may spell "key").
      const keyLine = page.locator('section:has(#totp_code) p').filter({ hasText: /^Key:/ });
      const secret = (await keyLine.locator('code').textContent())!.replaceAll(' ', '');
      await expectAccessibleInEnglish(page, `${tenant.name}: an authenticator app being added`);
      await page.fill('#totp_code', codeAt(secret));
      await page.fill('#totp_password', PASSWORD);
      await page.click('section:has(#totp_code) details button[type=submit]');
      await page.waitForSelector('text=Save these recovery codes');
      expect(await page.locator('section:has(#remove_password) li code').count()).toBe(10);
      await expectAccessibleInEnglish(page, `${tenant.name}: recovery codes shown`);
      // Removing it takes the current password: a wrong one is announced in its form.
      await page.fill('#remove_password', 'Wrong-Horse-9');
      await page.click('section:has(#remove_password) form:has(#remove_password) button[type=submit]');
      await page.waitForSelector('#mfa-remove-error');
      expect(await page.locator('#remove_password').getAttribute('aria-describedby')).toBe('mfa-remove-error');
      await expectFocusOn(page, 'remove_password');
      await expectAccessibleInEnglish(page, `${tenant.name}: a factor's removal refused`);
    });
  });
});

function hexToRgb(hex: string): string {
  const channel = (at: number) => parseInt(hex.slice(at, at + 2), 16);
  return `rgb(${channel(1)}, ${channel(3)}, ${channel(5)})`;
}

/** A refused form's first field, which Chromium focuses (autofocus) once the page has rendered, after its elements exist. */
async function expectFocusOn(page: Page, id: string): Promise<void> {
  await page.waitForFunction((wanted) => document.activeElement?.id === wanted, id).catch(() => undefined);
  expect(await page.evaluate(() => document.activeElement?.id)).toBe(id);
}
