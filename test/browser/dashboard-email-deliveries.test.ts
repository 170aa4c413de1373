import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dashboardSuite } from '../support/dashboard.ts';

/**
 * The E-mail tab's Deliveries in Chromium: a test mail sent from the dashboard, listed at once, and an invitation to
 * Acme, listed newest first with what the API says of them, one opened to its rendered mail; a tenant picked shows its own mails alone,
 * and another application's mail shows nowhere. The built-in sender has no SMTP_URL: the outbox keeps the bodies.
 * Screenshot: test-results/dashboard-email-deliveries.png.
 */
const INVITEE = 'bob@acme.example';
const TESTER = 'ops-test@example.com';
let appId: string;
let acme: string;
let globex: string;

const deliveries = (): Locator => dashboard.page.getByRole('region', { name: 'Deliveries', exact: true });
/** The cells of each row shown, top to bottom, without the time and the button. */
const shownRows = async () =>
  deliveries().locator('tbody tr:not([hidden])').evaluateAll((rows) => rows.map((row) => [...row.children].slice(1, -1).map((cell) => cell.textContent)));

const dashboard = dashboardSuite({
  tab: 'E-mail',
  setup: async (app) => {
    appId = app.root.applicationId;
    acme = await app.createTenant('Acme');
    globex = await app.createTenant('Globex');
    expect((await app.http.patch(`/applications/${appId}`, { tenancyConfig: { emailProviderScope: 'tenant' } })).status).toBe(200);
    const other = await app.bootstrapAnother();
    expect((await app.as({ apiKey: other.apiKey }).post('/email/test', { to: 'elsewhere@example.com' })).status).toBe(201);
  },
});

describe("the E-mail tab's Deliveries in Chromium", () => {
  it('lists a test mail and an invitation newest first, and opens the invitation to its rendered mail', async () => {
    await deliveries().getByText('No mail was queued here yet.').waitFor();
    const testMail = dashboard.page.getByRole('region', { name: 'Send a test mail', exact: true });
    await testMail.getByLabel('Test recipient', { exact: true }).fill(TESTER);
    await testMail.getByRole('button', { name: 'Send test mail' }).click();
    await testMail.getByRole('alert').waitFor({ timeout: 30_000 });
    // The mail queued from this screen is listed at once, with no Refresh.
    await deliveries().getByRole('row', { name: new RegExp(TESTER.replace('.', '\\.')) }).waitFor({ timeout: 5_000 });
    expect(await deliveries().getByText('No mail was queued here yet.').count()).toBe(0);
    const invited = await dashboard.app.http.post(`/applications/${appId}/tenants/${acme}/invitations`, { email: INVITEE });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);

    const listed = await dashboard.app.http.get(`/email/deliveries?order=newest`);
    expect(listed.body.data.map((delivery: { to: string }) => delivery.to)).toEqual([INVITEE, TESTER]);
    await deliveries().getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => deliveries().getByRole('button', { name: 'Details' }).count(), { timeout: 20_000, interval: 100 }).toBe(2);
    const rows = await shownRows();
    expect(rows.map((cells) => cells.slice(0, 2))).toEqual([
      [INVITEE, 'invitation'],
      [TESTER, 'test'],
    ]);
    // The worker may have sent either since: queued, or sent (kept in the outbox) after one attempt, with no error.
    for (const [, , status, attempts, lastError] of rows) {
      expect([['queued', '0'], ['queued', '1'], ['sent', '1']]).toContainEqual([status, attempts]);
      expect(lastError).toBe('');
    }
    expect(await deliveries().locator('tbody time').first().getAttribute('datetime')).toBe(listed.body.data[0].createdAt);

    const invitation = deliveries().getByRole('row', { name: new RegExp(INVITEE.replace('.', '\\.')) }).getByRole('button', { name: 'Details' });
    await invitation.click();
    expect(await invitation.getAttribute('aria-expanded')).toBe('true');
    const mail = deliveries().getByRole('region', { name: `The mail to ${INVITEE}` });
    await mail.waitFor();
    const stored = (await dashboard.app.http.get(`/email/deliveries/${listed.body.data[0].id as string}`)).body;
    expect(stored.subject).toBe('You are invited to Acme');
    expect(await mail.getByRole('definition').allTextContents()).toEqual([stored.subject, stored.text, stored.html]);
    await dashboard.page.screenshot({ path: 'test-results/dashboard-email-deliveries.png', fullPage: true });
  });

  it("shows a tenant picked its own mails only, and the application's list again without one", async () => {
    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Globex' });
    await deliveries().getByText('No mail was queued here yet.').waitFor();
    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Acme' });
    await expect.poll(() => deliveries().getByRole('button', { name: 'Details' }).count(), { timeout: 20_000, interval: 100 }).toBe(1);
    expect((await shownRows()).map((cells) => cells[0])).toEqual([INVITEE]);
    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Application' });
    await expect.poll(() => deliveries().getByRole('button', { name: 'Details' }).count(), { timeout: 20_000, interval: 100 }).toBe(2);
    expect((await shownRows()).map((cells) => cells[0])).toEqual([INVITEE, TESTER]);
  });

  it('pages with More, newest first across pages, as the API lists them', async () => {
    const count = 26;
    for (let index = 0; index < count; index += 1) {
      const sent = await dashboard.app.http.post(`/applications/${appId}/tenants/${globex}/email/test`, { to: `page${index}@example.com` });
      expect(sent.status).toBe(201);
    }
    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Globex' });
    await expect.poll(() => deliveries().getByRole('button', { name: 'Details' }).count(), { timeout: 20_000, interval: 100 }).toBe(25);
    await deliveries().getByRole('button', { name: 'More' }).click();
    await expect.poll(() => deliveries().getByRole('button', { name: 'Details' }).count(), { timeout: 20_000, interval: 100 }).toBe(count);
    expect(await deliveries().getByRole('button', { name: 'More' }).count()).toBe(0);
    const newestFirst = Array.from({ length: count }, (_, index) => `page${count - 1 - index}@example.com`);
    expect((await shownRows()).map((cells) => cells[0])).toEqual(newestFirst);
  });
});
