import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { hashPassword } from '../../src/auth/password-hash.ts';
import type { Config } from '../../src/config.ts';
import { ensureConsoles } from '../../src/domain/console/console.ts';
import { startTestApp, type TestApp } from './app.ts';
import { cspViolationsOf, launchChromium } from './chromium.ts';

/** The console's first operator in the dashboard suites. */
export const OPERATOR = { email: 'ops@example.com', password: 'Operator-Horse-42' } as const;

/** A test app whose PUBLIC_URL the browser reaches, with its console and OPERATOR as the first operator. */
export async function startDashboardApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const app = await startTestApp(overrides, { reachablePublicUrl: true });
  const { orm, config } = app.gatehouse.services;
  await ensureConsoles(orm, config.publicUrl, randomUUID(), { email: OPERATOR.email, passwordHash: await hashPassword(OPERATOR.password) });
  return app;
}

/**
 * Signs an operator in to the dashboard through the console's hosted sign-in (code + PKCE) and back, from the
 * dashboard's address followed by `at` (`?organization={id}`, a route `#/{appId}/users`), to which the dashboard returns.
 */
export async function signInToDashboard(
  page: Page,
  publicUrl: string,
  { email = OPERATOR.email, password = OPERATOR.password, at = '' }: { email?: string; password?: string; at?: string } = {},
): Promise<void> {
  await page.goto(`${publicUrl}/dashboard/${at}`);
  await Promise.all([page.waitForURL(/\/interaction\//), page.getByRole('button', { name: 'Sign in' }).click()]);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await Promise.all([page.waitForURL(`${publicUrl}/dashboard/${at}`), page.locator('form button[type="submit"]').first().click()]);
}

/** Opens one of the application's tabs (links in its "Application sections" navigation) and waits for its heading. */
export async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Application sections' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 2, name }).waitFor();
}

export interface DashboardPage {
  readonly page: Page;
  /** The page's Content Security Policy violations since it opened. */
  readonly violations: readonly string[];
  close(): Promise<void>;
}

/** Chromium signed in to the dashboard as OPERATOR, on the one application they manage (which it opens at once). */
export async function openDashboard(app: TestApp): Promise<DashboardPage> {
  mkdirSync('test-results', { recursive: true });
  const browser = await launchChromium();
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations = cspViolationsOf(page);
  await signInToDashboard(page, app.gatehouse.services.config.publicUrl);
  await page.getByRole('heading', { level: 1, name: 'My application' }).waitFor();
  return {
    page,
    violations,
    close: async () => {
      await context.close();
      await browser.close();
    },
  };
}
