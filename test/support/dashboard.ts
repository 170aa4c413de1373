import type { Page } from 'playwright-core';

/** Signs an operator in to the dashboard through the console's hosted sign-in (code + PKCE) and back. */
export async function signInToDashboard(page: Page, publicUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${publicUrl}/dashboard/`);
  await Promise.all([page.waitForURL(/\/interaction\//), page.getByRole('button', { name: 'Sign in' }).click()]);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await Promise.all([page.waitForURL(`${publicUrl}/dashboard/`), page.locator('form button[type="submit"]').first().click()]);
}
