import * as oidc from 'openid-client';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { readForm } from '../support/cookie-jar.ts';
import { dashboardSuite } from '../support/dashboard.ts';
import { createTestClient, discover, startAuthorization } from '../support/oauth.ts';

/**
 * The dashboard's Analytics tab in Chromium: an end user's real sign-ins (one refused) show as today's active user
 * and sign-ins by method, for the application and for the user's tenant, none for another tenant; the range's
 * grouping changes the periods; a range without activity shows each chart's zero line and says so; a range the server refuses shows its message, in the form's words, on the input it names
 * (marked, focused), and no figures until a range is accepted.
 */
const REDIRECT_URI = 'https://app.example/callback';
const PASSWORD = 'Correct-Horse-9';
const today = new Date().toISOString().slice(0, 10);

/** One hosted password sign-in of the application's web client, as a browser posts it. */
async function signIn(config: oidc.Configuration, email: string, password: string): Promise<number> {
  const flow = await startAuthorization(config, { redirectUri: REDIRECT_URI, resource: '' });
  const form = readForm(flow.page.url, flow.page.body);
  return (await flow.jar.visit(form.action, { form: { ...form.fields, email, password } })).status;
}

const table = (name: string): Locator => dashboard.page.getByRole('table', { name });
const rowOf = (name: string, period: string): Locator => table(name).getByRole('row', { name: new RegExp(`^${period}`) });

const dashboard = dashboardSuite({
  tab: 'Analytics',
  setup: async (app) => {
    const acme = await app.createTenant('Acme');
    await app.createTenant('Globex');
    expect((await app.http.post('/users', { email: 'ada@example.com', password: PASSWORD, tenantId: acme })).status).toBe(201);
    const web = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
    const config = await discover(app, web.clientId, oidc.ClientSecretBasic(web.clientSecret));
    expect(await signIn(config, 'ada@example.com', PASSWORD)).toBe(303);
    expect(await signIn(config, 'ada@example.com', 'Wrong-Horse-9')).toBe(400);
  },
});

describe('the Analytics tab of the dashboard in Chromium', () => {
  it("shows today's active user, sign-ins by outcome and method, and second-factor adoption over the last 30 days", async () => {
    await rowOf('Active users', today).waitFor();
    expect(await table('Active users').getByRole('row').count()).toBe(31); // the header and 30 days
    expect(await rowOf('Active users', today).getByRole('cell').allTextContents()).toEqual(['1']);
    expect(await rowOf('Sign-ins', today).getByRole('cell').allTextContents()).toEqual(['1', '1', 'password 2']);
    const adoption = dashboard.page.locator('dl');
    expect(await adoption.textContent()).toContain('Users1');
    expect(await adoption.textContent()).toContain('With a second factor0 (0%)');
  });

  it("narrows to a tenant's users through the picker: Acme has the sign-ins, Globex none", async () => {
    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Acme' });
    await rowOf('Sign-ins', today).getByRole('cell', { name: 'password 2' }).waitFor();
    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Globex' });
    await rowOf('Sign-ins', today).getByRole('cell', { name: '—' }).waitFor();
    expect(await rowOf('Active users', today).getByRole('cell').allTextContents()).toEqual(['0']);
    // Every value 0: each chart keeps its zero line and says so, rather than an empty box.
    const charts = dashboard.page.locator('figure.chart');
    expect(await charts.count()).toBe(2);
    for (const chart of await charts.all()) {
      expect(await chart.locator('svg line.baseline').count()).toBe(1);
      expect(await chart.locator('svg rect').count()).toBe(0);
      expect(await chart.textContent()).toBe('No activity in this range');
    }
    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Application' });
    await rowOf('Active users', today).getByRole('cell', { name: '1' }).waitFor();
    // With activity, the bars and the zero line, and no such sentence.
    await charts.first().locator('svg rect').first().waitFor();
    expect(await charts.first().locator('svg line.baseline').count()).toBe(1);
    expect(await dashboard.page.getByText('No activity in this range').count()).toBe(0);
  });

  it('groups the range by month, and shows the refusal of a range that ends before it starts', async () => {
    // The schema's days are UTC days, which the form says of both dates.
    for (const label of ['From', 'To']) {
      const hint = await dashboard.page.getByLabel(label).getAttribute('aria-describedby');
      expect(await dashboard.page.locator(`[id="${hint}"]`).textContent()).toBe('UTC days, both included; a week or month the range cuts is counted whole.');
    }
    await dashboard.page.getByLabel('By').selectOption({ label: 'Month' });
    await dashboard.page.getByLabel('From').fill(today);
    await dashboard.page.getByRole('button', { name: 'Show' }).click();
    // The days' table shows the month's first day too: only the row count tells the months' table has replaced it.
    await expect.poll(() => table('Active users').getByRole('row').count(), { timeout: 20_000 }).toBe(2);
    expect(await rowOf('Active users', `${today.slice(0, 8)}01`).count()).toBe(1);

    await dashboard.page.getByLabel('From').fill('2026-12-31');
    await dashboard.page.getByLabel('To').fill('2026-12-01');
    await dashboard.page.getByRole('button', { name: 'Show' }).click();
    // Refused next to its input, in the form's words: To is marked, focused and described by the message.
    const refusal = dashboard.page.getByRole('alert').filter({ hasText: /^To must not be before from$/ });
    await refusal.waitFor();
    const to = dashboard.page.getByLabel('To');
    expect(await to.getAttribute('aria-invalid')).toBe('true');
    expect((await to.getAttribute('aria-describedby'))?.split(' ')).toContain(await refusal.getAttribute('id'));
    expect(await to.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await table('Active users').count()).toBe(0);

    // A range too long marks From; editing it unmarks it.
    await dashboard.page.getByLabel('From').fill('2000-01-01');
    await dashboard.page.getByLabel('To').fill('2026-12-01');
    await dashboard.page.getByRole('button', { name: 'Show' }).click();
    await dashboard.page.getByRole('alert').filter({ hasText: /^A range spans at most \d+ days$/ }).waitFor();
    const from = dashboard.page.getByLabel('From');
    expect(await from.getAttribute('aria-invalid')).toBe('true');
    expect(await to.getAttribute('aria-invalid')).toBeNull();
    await from.fill('2026-11-01');
    expect(await from.getAttribute('aria-invalid')).toBeNull();
    await dashboard.page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => table('Active users').getByRole('row').count(), { timeout: 20_000 }).toBe(3);
    expect(await dashboard.page.getByRole('alert').count()).toBe(0);
  });
});
