import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { axeViolations } from '../support/axe.ts';
import { asTenantOperator, dashboardSuite, makeOperator, offeredScreens } from '../support/dashboard.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';

/**
 * A tenant's Domains screen in Chromium, for operators whose roles in the application are held in tenants only. While
 * authentication is shared the landing offers no Domains screen and its address says the application's domains serve
 * the tenant. Once isolated, a Tenant admin of Acme opens Acme's domains from the landing (not Globex's), adds one,
 * sees Verify find nothing, then "verified" once the test's DNS server publishes its record, Check again once the
 * re-checks miss it, and deletes it. An operator of Acme who may read its domains but not write nor delete them is
 * offered neither Add, Verify nor Delete; one whose permissions cannot be read (no `permissions:read`) is offered Add,
 * and shown the server's refusal, nothing added. The screen breaks no WCAG A or AA rule (axe-core).
 * Screenshot: test-results/dashboard-tenant-domains.png.
 */
const TENANT_ADMIN = { email: 'acme-admin@ops.example', password: 'Operator-Curlew-42' };
const DOMAIN_READER = { email: 'acme-domains@ops.example', password: 'Operator-Godwit-42' };
const UNCHECKED = { email: 'acme-unchecked@ops.example', password: 'Operator-Avocet-42' };
const HOST = 'login.acme.test';
const GLOBEX_HOST = 'login.globex.test';
/** Reading a tenant's configuration, which the screen reads its switches from, takes each section's read permission. */
const CONFIGURATION_READS = ['tenants:read', 'branding:read', 'email:read', 'policies:read', 'auth_providers:read', 'domains:read'];

interface ServerDomain {
  id: string;
  hostname: string;
  verified: boolean;
  failingSince: string | null;
  verificationRecord: { type: string; name: string; value: string };
}

let dnsServer: TestDnsServer;
let appId: string;
let acme: string;
let globex: string;
let uncheckedRoleId: string;

beforeAll(async () => {
  dnsServer = await startDnsServer();
});
afterAll(async () => dnsServer?.close());

const dashboard = dashboardSuite({
  config: () => ({ email: { ...loadConfig({}).email, dnsServers: [dnsServer.address] } }),
  setup: async (app) => {
    appId = app.root.applicationId;
    acme = await app.createTenant('Acme');
    globex = await app.createTenant('Globex');
    await makeOperator(app, TENANT_ADMIN, 'tenant_admin', acme);
    const reader = { key: 'domain_reader', name: 'Domain reader', permissions: [...CONFIGURATION_READS, 'permissions:read', 'tenant_overrides:write'] };
    expect((await app.http.post('/roles', reader)).status).toBe(201);
    await makeOperator(app, DOMAIN_READER, 'domain_reader', acme);
    // No permissions:read: what the screen offers is what managedApplications says they hold in Acme.
    const unchecked = { key: 'unchecked', name: 'Unchecked', permissions: [...CONFIGURATION_READS, 'domains:write', 'tenant_overrides:write'] };
    const uncheckedRole = await app.http.post('/roles', unchecked);
    expect(uncheckedRole.status).toBe(201);
    uncheckedRoleId = uncheckedRole.body.id as string;
    await makeOperator(app, UNCHECKED, 'unchecked', acme);
  },
});

const publicUrl = () => dashboard.app.gatehouse.services.config.publicUrl;
const acmeDomains = async (): Promise<ServerDomain[]> => {
  const answer = await dashboard.app.http.get(`/applications/${appId}/tenants/${acme}/domains`);
  expect(answer.status).toBe(200);
  return answer.body.data;
};
const setIsolation = async (authIsolation: 'shared' | 'isolated') =>
  expect((await dashboard.app.http.patch(`/applications/${appId}`, { tenancyConfig: { authIsolation } })).status).toBe(200);
const answerDialog = (page: Page) => new Promise<string>((resolve) => page.once('dialog', (dialog) => (resolve(dialog.message()), void dialog.accept())));
const row = (page: Page, hostname: string): Locator => page.getByRole('row', { name: new RegExp(`^${hostname.replaceAll('.', '\\.')}`) });

const asOperator = (account: { email: string; password: string }, use: (page: Page) => Promise<void>) => asTenantOperator(dashboard.page, publicUrl(), account, use);
const acmeScreens = (page: Page) => offeredScreens(page, 'Acme');

async function openDomains(page: Page): Promise<void> {
  await page.getByRole('list', { name: 'Screens of Acme' }).getByRole('link', { name: 'Domains of Acme' }).click();
  await page.waitForURL(new RegExp(`#/${appId}/domains/${acme}$`));
  await page.getByRole('heading', { level: 2, name: 'Domains of Acme' }).waitFor();
}

describe("a tenant's Domains screen for an operator of some tenants only, in Chromium", () => {
  it("is not offered while authentication is shared; its address says the application's domains serve the tenant", async () => {
    await asOperator(TENANT_ADMIN, async (page) => {
      expect(await acmeScreens(page)).toEqual(['Users of Acme', 'Sessions of Acme', 'Branding of Acme', 'E-mail of Acme', 'Authentication of Acme', 'Audit log of Acme']);
      await page.goto(`${publicUrl()}/dashboard/#/${appId}/domains/${acme}`);
      await page.getByText("Authentication is shared: the application's custom domains serve every tenant, Acme included, and none is its own.").waitFor();
      expect(await page.getByRole('button', { name: 'Add domain' }).count()).toBe(0);
      expect(await page.getByRole('table').count()).toBe(0);
    });
  });

  it("once isolated, lets a Tenant admin add a domain of Acme's, verify it, check it again and delete it", async () => {
    await setIsolation('isolated');
    expect((await dashboard.app.http.post(`/applications/${appId}/tenants/${globex}/domains`, { hostname: GLOBEX_HOST })).status).toBe(201);
    await asOperator(TENANT_ADMIN, async (page) => {
      expect(await acmeScreens(page)).toContain('Domains of Acme');
      await openDomains(page);
      await page.getByText('Acme has no custom domains yet.').waitFor();
      expect(await page.getByText(GLOBEX_HOST).count()).toBe(0);

      const add = page.getByRole('region', { name: 'Add a domain of Acme' });
      await add.getByLabel('Hostname').fill(HOST);
      await add.getByRole('button', { name: 'Add domain' }).click();
      await add.getByRole('status').filter({ hasText: `${HOST} is added: publish its TXT record, then Verify.` }).waitFor();
      await row(page, HOST).waitFor();
      expect(await row(page, HOST).getByRole('cell').first().textContent()).toBe('Acme');
      const [domain] = await acmeDomains();
      expect(domain).toMatchObject({ hostname: HOST, verified: false });
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: 'test-results/dashboard-tenant-domains.png', fullPage: true });

      await row(page, HOST).getByRole('button', { name: 'Verify' }).click();
      await row(page, HOST).getByRole('alert').filter({ hasText: `${HOST} is not verified:` }).waitFor();
      expect((await acmeDomains())[0]!.verified).toBe(false);

      dnsServer.zone.set(domain!.verificationRecord.name, { txt: [domain!.verificationRecord.value] });
      await row(page, HOST).getByRole('button', { name: 'Verify' }).click();
      await row(page, HOST).getByRole('status').filter({ hasText: `${HOST} is verified.` }).waitFor();
      expect((await acmeDomains())[0]!.verified).toBe(true);

      // As the daily re-check leaves it (src/domain/domains/recheck.ts, its own tests): the record missed an hour ago.
      await dashboard.app.sql(`update domain set failing_since = now() - interval '1 hour' where id = ?`, [domain!.id]);
      await page.getByRole('link', { name: 'Users of Acme' }).click();
      await page.getByRole('link', { name: 'Domains of Acme' }).click();
      await row(page, HOST).getByRole('button', { name: 'Check again' }).click();
      await row(page, HOST).getByRole('status').filter({ hasText: `${HOST} is verified.` }).waitFor();
      expect((await acmeDomains())[0]).toMatchObject({ verified: true, failingSince: null });

      const asked = answerDialog(page);
      await row(page, HOST).getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('status').filter({ hasText: `The domain ${HOST} is deleted.` }).waitFor();
      expect(await asked).toMatch(/^Delete the domain login\.acme\.test\?/);
      expect(await acmeDomains()).toEqual([]);
      expect(await page.getByRole('alert').count()).toBe(0);
    });
  });

  it('offers an operator who may read the domains but not write nor delete them neither Add, Verify nor Delete', async () => {
    expect((await dashboard.app.http.post(`/applications/${appId}/tenants/${acme}/domains`, { hostname: HOST })).status).toBe(201);
    await asOperator(DOMAIN_READER, async (page) => {
      expect(await acmeScreens(page)).toEqual(['Branding of Acme', 'E-mail of Acme', 'Authentication of Acme', 'Domains of Acme']);
      await openDomains(page);
      await row(page, HOST).waitFor();
      expect(await page.getByRole('button', { name: /^(Add domain|Verify|Check again|Delete)$/ }).count()).toBe(0);
      expect(await page.getByRole('region', { name: 'Add a domain of Acme' }).count()).toBe(0);
    });
    expect((await acmeDomains()).map((domain) => domain.hostname)).toEqual([HOST]);
  });

  it("offers Add by the permissions held without permissions:read; once their role loses domains:write, shows the server's refusal and adds nothing", async () => {
    await asOperator(UNCHECKED, async (page) => {
      await openDomains(page);
      const add = page.getByRole('region', { name: 'Add a domain of Acme' });
      await add.waitFor();
      const narrowed = [...CONFIGURATION_READS, 'tenant_overrides:write'];
      expect((await dashboard.app.http.patch(`/roles/${uncheckedRoleId}`, { permissions: narrowed })).status).toBe(200);
      await add.getByLabel('Hostname').fill('other.acme.test');
      await add.getByRole('button', { name: 'Add domain' }).click();
      const refusal = add.getByRole('alert');
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain('Missing permission domains:write');
    });
    expect((await acmeDomains()).map((domain) => domain.hostname)).toEqual([HOST]);
  });

  it("names another tenant's address as none of the operator's, showing nothing of its domains", async () => {
    await asOperator(TENANT_ADMIN, async (page) => {
      await page.goto(`${publicUrl()}/dashboard/#/${appId}/domains/${globex}`);
      await page.getByText('The address names a tenant in which you hold no role, or one that no longer exists.').waitFor();
      expect(await page.getByRole('heading', { level: 2, name: /Domains of/ }).count()).toBe(0);
      expect(await page.getByText(GLOBEX_HOST).count()).toBe(0);
    });
  });
});
