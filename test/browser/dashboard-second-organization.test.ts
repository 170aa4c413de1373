import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { ensureConsoles } from '../../src/domain/console/console.ts';
import type { TestApp } from '../support/app.ts';
import { cspViolationsOf, launchChromium } from '../support/chromium.ts';
import { signInToDashboard, startDashboardApp } from '../support/dashboard.ts';
import type { HttpClient } from '../support/http.ts';

/**
 * The dashboard of an organization other than the oldest (`/dashboard/?organization={id}`): its operator signs in
 * through that organization's console and lands back on its own dashboard, although the redirect URI's page is served
 * with the oldest organization's client; reloads keep the organization, the Organization page is theirs, and signing
 * out brings them back to their own dashboard. Signed in to the oldest organization, its address shows nothing of
 * the organization signed in to, and offers the sign-in to its own (or the way back).
 */
const OTHER_OPERATOR = { email: 'ops@other.example', password: 'Other-Operator-42' } as const;
let app: TestApp;
let other: BootstrapResult;
let otherName: string;
let otherClientId: string;

beforeAll(async () => {
  app = await startDashboardApp();
  other = await app.bootstrapAnother();
  const { orm, config } = app.gatehouse.services;
  await ensureConsoles(orm, config.publicUrl, randomUUID());
  const sql = <T>(text: string, params: unknown[]) => orm.em.getConnection().execute<T[]>(text, params);
  const [console] = await sql<{ id: string }>('select id from application where organization_id = ? and console', [other.organizationId]);
  // Both organizations would be "My organization": the header and the notices must tell them apart.
  otherName = 'Other Corp';
  await sql('update organization set name = ? where id = ?', [otherName, other.organizationId]);
  [{ id: otherClientId }] = (await sql<{ id: string }>("select id from oauth_client where application_id = ? and type = 'spa'", [console!.id])) as [{ id: string }];

  // The other organization's first operator: a console user, app_admin of the console and, as operator, of its application.
  const appAdminOf = async (client: HttpClient) =>
    (await client.get('/roles')).body.data.find((role: { key: string }) => role.key === 'app_admin') as { id: string; permissions: string[] };
  const reader = app.as({ bearer: await app.mintAccessToken({ app_id: console!.id, permissions: ['roles:read'] }) });
  const consoleAdmin = await appAdminOf(reader);
  const inConsole = app.as({ bearer: await app.mintAccessToken({ app_id: console!.id, permissions: consoleAdmin.permissions }) });
  const user = await inConsole.post('/users', { email: OTHER_OPERATOR.email, password: OTHER_OPERATOR.password });
  expect(user.status, JSON.stringify(user.body)).toBe(201);
  await sql('update app_user set email_verified = true where id = ?', [user.body.id]);
  const operator = { type: 'operator', id: user.body.id as string };
  expect((await inConsole.post('/role-assignments', { subject: { type: 'user', id: operator.id }, roleId: consoleAdmin.id })).status).toBe(201);
  const inOther = app.as({ apiKey: other.apiKey });
  expect((await inOther.post('/role-assignments', { subject: operator, roleId: (await appAdminOf(inOther)).id })).status).toBe(201);
});
afterAll(async () => app?.close());

describe("another organization's dashboard in Chromium", () => {
  it('signs its operator in through its own console and keeps them on its own dashboard', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const violations = cspViolationsOf(page);
      const publicUrl = app.gatehouse.services.config.publicUrl;
      const own = `?organization=${other.organizationId}`;
      await signInToDashboard(page, publicUrl, { ...OTHER_OPERATOR, at: own });
      // Its one application opens at once: the other organization's, not the oldest's.
      await page.getByRole('heading', { level: 1, name: 'My application' }).waitFor();
      const session = (await page.evaluate(() => JSON.parse(sessionStorage.getItem('gatehouse.dashboard.session')!))) as { clientId: string; organizationId: string };
      expect(session).toMatchObject({ clientId: otherClientId, organizationId: other.organizationId });
      expect(new URL(page.url()).search).toBe(own);
      await page.getByRole('link', { name: 'Users' }).click();
      expect(new URL(page.url()).hash).toBe(`#/${other.applicationId}/users`);

      await page.reload();
      await page.getByRole('heading', { level: 2, name: 'Users' }).waitFor();
      await page.getByRole('link', { name: 'Organization' }).click();
      await page.getByRole('textbox', { name: 'Organization name' }).waitFor();
      expect(await page.getByRole('textbox', { name: 'Organization name' }).inputValue()).toBe(otherName);

      // Signed out at the issuer, the operator is back at their own organization's dashboard, signed out.
      await Promise.all([page.waitForURL(/\/oauth2\/logout/), page.getByRole('button', { name: 'Sign out' }).click()]);
      await Promise.all([page.waitForURL(`${publicUrl}/dashboard/${own}`), page.getByRole('button', { name: 'Sign out' }).click()]);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      expect(await page.locator('meta[name="gatehouse-client-id"]').getAttribute('content')).toBe(otherClientId);
      expect(violations).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it("signed in to the oldest organization, shows nothing of it at the other's address, and signs in to the other there", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const publicUrl = app.gatehouse.services.config.publicUrl;
      await signInToDashboard(page, publicUrl);
      await page.getByRole('heading', { level: 1, name: 'My application' }).waitFor();
      await page.getByRole('banner').getByText('My organization').waitFor();

      const address = `${publicUrl}/dashboard/?organization=${other.organizationId}#/organization`;
      await page.goto(address);
      const notice = page.getByRole('region', { name: 'Another organization’s dashboard' });
      await notice.getByText(`This address is the dashboard of organization ${other.organizationId}, but you are signed in to My organization`).waitFor();
      expect(await page.getByRole('textbox', { name: 'Organization name' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Deactivate organization' }).count()).toBe(0);
      expect(await notice.getByRole('link', { name: 'Back to My organization’s dashboard' }).getAttribute('href')).toBe(
        `/dashboard/?organization=${app.root.organizationId}#/organization`,
      );

      await Promise.all([page.waitForURL(/\/interaction\//), notice.getByRole('button', { name: 'Sign in to this organization' }).click()]);
      await page.getByLabel('Email address').fill(OTHER_OPERATOR.email);
      await page.getByLabel('Password').fill(OTHER_OPERATOR.password);
      await Promise.all([page.waitForURL(address), page.locator('form button[type="submit"]').first().click()]);
      await page.getByRole('textbox', { name: 'Organization name' }).waitFor();
      expect(await page.getByRole('textbox', { name: 'Organization name' }).inputValue()).toBe(otherName);
      await page.getByRole('banner').getByText(otherName).waitFor();
      await page.getByRole('region', { name: 'Deactivation' }).getByText(`Deactivating ${otherName} (organization ${other.organizationId})`).waitFor();
    } finally {
      await browser.close();
    }
  });
});
