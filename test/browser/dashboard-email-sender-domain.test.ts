import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { axeViolations } from '../support/axe.ts';
import { dashboardSuite } from '../support/dashboard.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';

/**
 * The E-mail tab's sender domain in Chromium: the application's SMTP provider's From domain with the SPF, DKIM and
 * return-path records the API gives, "Check DNS records" through a real DNS server run by the test (the service's
 * DNS_SERVERS) saying why each record is missing while DNS lacks it, then the domain verified once DNS publishes them,
 * each answer read back through the REST API; a tenant inheriting the application's provider is shown its domain and
 * offered no check (the API refuses it there). Screenshot: test-results/dashboard-email-sender-domain.png.
 */
interface SenderRecord {
  readonly purpose: string;
  readonly type: string;
  readonly name: string;
  readonly value: string;
}
let dns: TestDnsServer;

beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(async () => dns?.close());

const dashboard = dashboardSuite({
  config: () => ({ email: { ...loadConfig({}).email, dnsServers: [dns.address] } }),
  tab: 'E-mail',
  setup: async (app) => {
    expect((await app.http.patch(`/applications/${app.root.applicationId}`, { tenancyConfig: { emailProviderScope: 'tenant' } })).status).toBe(200);
    await app.createTenant('Acme');
    const provider = { type: 'smtp', fromAddress: 'hello@mail.acme.test', smtp: { host: 'smtp.acme.test', port: 587, security: 'starttls' } };
    const put = await app.http.put('/email/provider', provider);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
  },
});

const section = (): Locator => dashboard.page.getByRole('region', { name: 'Sender domain', exact: true });
const senderDomain = async () => {
  const answer = await dashboard.app.http.get('/email/sender-domain');
  expect(answer.status).toBe(200);
  return answer.body as { status: string; records: SenderRecord[] };
};
/** The records each row of the section shows, with what its last check found. */
const shownRecords = () =>
  section()
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('input')].map((input) => input.value).concat(row.lastElementChild?.textContent ?? '')));

describe("the E-mail tab's sender domain, in Chromium", () => {
  it('shows the records to publish for the SMTP provider’s From domain, as the API gives them, none checked yet', async () => {
    await section().getByText('mail.acme.test is not verified: publish these records in its DNS, then check them.').waitFor();
    const { records } = await senderDomain();
    expect(records.map((record) => record.purpose)).toEqual(['spf', 'dkim', 'return_path']);
    expect(await shownRecords()).toEqual(records.map((record) => [record.name, record.type, record.value, 'Not checked yet']));
  });

  it('says why each record is missing while DNS lacks it, and the domain stays unverified', async () => {
    await section().getByRole('button', { name: 'Check DNS records' }).click();
    await section().getByRole('status').filter({ hasText: 'Not every record was found: each says why below.' }).waitFor();
    const rows = await shownRecords();
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row[3]).toMatch(/^Missing: /);
    expect((await senderDomain()).status).toBe('unverified');
  });

  it('verifies the domain once DNS publishes every record', async () => {
    const { records } = await senderDomain();
    for (const record of records) {
      const existing = dns.zone.get(record.name) ?? {};
      dns.zone.set(record.name, record.type === 'CNAME' ? { ...existing, cname: record.value } : { ...existing, txt: [...(existing.txt ?? []), record.value] });
    }
    await section().getByRole('button', { name: 'Check DNS records' }).click();
    await section().getByRole('status').filter({ hasText: 'mail.acme.test is verified: every record was found.' }).waitFor();
    expect((await shownRecords()).map((row) => row[3])).toEqual(['Found', 'Found', 'Found']);
    await section().getByText(/^mail\.acme\.test is verified since /).waitFor();
    expect((await senderDomain()).status).toBe('verified');
    expect(await dashboard.page.getByRole('alert').count()).toBe(0);
    expect(await axeViolations(dashboard.page)).toEqual([]);
    await section().screenshot({ path: 'test-results/dashboard-email-sender-domain.png' });
  });

  it("shows a tenant inheriting the application's provider its domain, with no check to run there", async () => {
    await dashboard.page.getByLabel('Tenant', { exact: true }).selectOption({ label: 'Acme' });
    await section().getByText("The application's provider sends this tenant's mail, from mail.acme.test: the application's E-mail settings show its records.").waitFor();
    expect(await section().getByRole('button').count()).toBe(0);
  });
});
