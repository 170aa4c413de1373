import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { cspViolationsOf, launchChromium, requestsOutside } from '../support/chromium.ts';
import { openTab, signInToDashboard, startDashboardApp } from '../support/dashboard.ts';

/**
 * The dashboard in Chromium, end to end: the first operator signs in through the console's hosted sign-in (code +
 * PKCE), sees the application they manage, its tenants' Inherited and Customized badges, removes a tenant's branding
 * override, reads its users, and signs out. Screenshots: test-results/dashboard-*.png.
 */
let app: TestApp;
let publicUrl: string;
let browser: Browser;
let acme: string;

beforeAll(async () => {
  app = await startDashboardApp();
  publicUrl = app.gatehouse.services.config.publicUrl;
  const appId = app.root.applicationId;
  expect((await app.http.patch(`/applications/${appId}`, { tenancyConfig: { brandingScope: 'tenant' } })).status).toBe(200);
  acme = await app.createTenant('Acme');
  await app.createTenant('Globex');
  expect((await app.http.put(`/applications/${appId}/tenants/${acme}/branding`, { colors: { primary: '#c81e1e' } })).status).toBe(200);
  await app.createUser('uma@example.com', acme);
  mkdirSync('test-results', { recursive: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the dashboard in Chromium', () => {
  it('signs the operator in, shows and changes what they manage, and signs them out', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const violations = cspViolationsOf(page);
      const outside = requestsOutside(page, [publicUrl]);
      page.on('dialog', (dialog) => void dialog.accept());

      await signInToDashboard(page, publicUrl);

      // One managed application: it opens at once, on its tenants.
      await page.getByRole('heading', { level: 1, name: 'My application' }).waitFor();
      await page.getByRole('row', { name: /Globex/ }).waitFor();
      const acmeRow = page.getByRole('row', { name: /Acme/ });
      expect(await acmeRow.textContent()).toContain('Customized');
      expect(await page.getByRole('row', { name: /Globex/ }).textContent()).toContain('Inherited');
      await page.screenshot({ path: 'test-results/dashboard-tenants.png', fullPage: true });

      // Each names its tenant and feature, as Rename and Delete name their tenant.
      await acmeRow.getByRole('button', { name: "Remove tenant override of Acme's branding", exact: true }).click();
      await acmeRow.getByText('Inherited').first().waitFor();
      const configuration = await app.http.get(`/applications/${app.root.applicationId}/tenants/${acme}/configuration`);
      expect(configuration.body.branding.source).toBe('inherited');

      await openTab(page, 'Users');
      await page.getByRole('rowheader', { name: 'uma@example.com' }).waitFor();
      await page.screenshot({ path: 'test-results/dashboard-users.png', fullPage: true });

      // The OP asks to confirm the end of the browser's session, then returns to the dashboard, signed out.
      await Promise.all([page.waitForURL(/\/oauth2\/logout/), page.getByRole('button', { name: 'Sign out' }).click()]);
      await Promise.all([page.waitForURL(`${publicUrl}/dashboard/`), page.getByRole('button', { name: 'Sign out' }).click()]);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      expect(violations).toEqual([]);
      expect(outside).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
