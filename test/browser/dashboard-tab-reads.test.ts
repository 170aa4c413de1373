import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/auth/permissions.ts';
import { asOperator, asTenantOperator, dashboardSuite, makeOperator } from '../support/dashboard.ts';

/**
 * Each tab of a multi-tenant application, every switch left to tenants, opened by an operator holding only the reads
 * it is offered with (docs/decisions.md, "READS"), and each screen of a tenant by an operator of that tenant holding
 * only its reads: it shows no refusal, a choice it cannot fill being hidden or explained instead.
 */
const TAB_READS: Readonly<Record<string, readonly string[]>> = {
  Tenants: ['tenants:read', 'branding:read', 'email:read', 'policies:read', 'auth_providers:read', 'domains:read', 'applications:read'],
  Branding: ['branding:read', 'applications:read'],
  'E-mail': ['email:read', 'applications:read'],
  Authentication: ['auth_providers:read', 'policies:read', 'applications:read'],
  Domains: ['domains:read', 'applications:read'],
  Users: ['users:read', 'applications:read'],
  Invitations: ['users:read'],
  Sessions: ['sessions:read', 'users:read'],
  Roles: ['roles:read', 'applications:read'],
  Operators: ['role_assignments:read', 'roles:read', 'applications:read'],
  'API keys': ['api_keys:read', 'applications:read'],
  'OAuth clients': ['oauth_clients:read', 'applications:read'],
  'API resources': ['api_resources:read'],
  'M2M credentials': ['m2m_credentials:read', 'applications:read'],
  'Audit log': ['audit_logs:read'],
  Analytics: ['analytics:read'],
  Settings: ['applications:read'],
};

const CONFIGURATION_READS = ['tenants:read', 'branding:read', 'email:read', 'policies:read', 'auth_providers:read', 'domains:read'];
/** A tenant's screens (`TENANT_SCREENS`), by their link's label, and what each reads in the tenant's scope. */
const TENANT_SCREEN_READS: Readonly<Record<string, readonly string[]>> = {
  Users: ['users:read'],
  Sessions: ['sessions:read', 'users:read'],
  Branding: CONFIGURATION_READS,
  'E-mail': CONFIGURATION_READS,
  Authentication: CONFIGURATION_READS,
  Domains: CONFIGURATION_READS,
  'Audit log': ['audit_logs:read'],
};

const slug = (tab: string) => tab.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const accountOf = (tab: string) => ({ email: `reader-${slug(tab)}@ops.example`, password: 'Operator-Tern-42' });
const writerAccountOf = (tab: string) => ({ email: `writer-${slug(tab)}@ops.example`, password: 'Operator-Tern-42' });
/** The tab's reads and the writes and deletions of its own resource (its first read's): what its forms and actions take. */
const writesOf = (tab: string): string[] => {
  const [own, ...others] = TAB_READS[tab]!;
  const resource = own!.split(':')[0]!;
  return [own!, ...others, ...ALL_PERMISSIONS.filter((permission) => permission === `${resource}:write` || permission === `${resource}:delete`)];
};
const tenantAccountOf = (screen: string) => ({ email: `acme-reader-${slug(screen)}@ops.example`, password: 'Operator-Tern-42' });

/** No refusal shown once the screen has read what it shows, a row's details included. */
async function expectNoRefusal(page: Page): Promise<void> {
  await page.locator('.loading').first().waitFor({ state: 'detached' });
  const details = page.getByRole('button', { name: /^Details of / });
  if ((await details.count()) > 0) {
    await details.first().click();
    await page.locator('.loading').first().waitFor({ state: 'detached' });
  }
  expect(await page.getByRole('alert').allTextContents()).toEqual([]);
}

const suite = dashboardSuite({
  setup: async (app) => {
    const acme = await app.createTenant('Acme');
    const switches = { brandingScope: 'tenant', emailTemplatesScope: 'tenant', emailProviderScope: 'tenant', authIsolation: 'isolated' };
    expect((await app.http.patch(`/applications/${app.root.applicationId}`, { tenancyConfig: switches })).status).toBe(200);
    // A row in each list, so that what a row reads is read too.
    const userId = await app.createUser('ada@acme.example', acme);
    expect((await app.http.post('/invitations', { email: 'ivy@example.com', tenantId: acme })).status).toBe(201);
    expect((await app.http.post('/api-keys', { name: 'Support bot', permissions: ['users:read'], userId })).status).toBe(201);
    expect((await app.http.post('/api-keys', { name: 'Acme bot', permissions: ['users:read'], tenantId: acme })).status).toBe(201);
    expect((await app.http.post('/oauth-clients', { name: 'Storefront', type: 'web', redirectUris: ['https://shop.example/cb'], tenantId: acme })).status).toBe(201);
    expect((await app.http.post('/m2m-credentials', { name: 'Worker', permissions: ['users:read'], authMethod: 'client_secret_basic', tenantId: acme })).status).toBe(201);
    expect((await app.http.post('/api-resources', { identifier: 'https://api.example.com', name: 'Orders API' })).status).toBe(201);
    for (const [tab, permissions] of Object.entries(TAB_READS)) {
      const key = `reads_${slug(tab).replaceAll('-', '_')}`;
      expect((await app.http.post('/roles', { key, name: `Reads ${tab}`, permissions })).status).toBe(201);
      await makeOperator(app, accountOf(tab), key);
      expect((await app.http.post('/roles', { key: `writes_${key}`, name: `Writes ${tab}`, permissions: writesOf(tab) })).status).toBe(201);
      await makeOperator(app, writerAccountOf(tab), `writes_${key}`);
    }
    for (const [screen, permissions] of Object.entries(TENANT_SCREEN_READS)) {
      const key = `acme_reads_${slug(screen).replaceAll('-', '_')}`;
      const role = await app.http.post(`/applications/${app.root.applicationId}/tenants/${acme}/roles`, { key, name: `Reads ${screen} of Acme`, permissions });
      expect(role.status).toBe(201);
      await makeOperator(app, tenantAccountOf(screen), key, acme);
    }
  },
});

describe("each tab to an operator holding only the reads it is offered with, in Chromium", () => {
  it.each(Object.keys(TAB_READS))('opens %s unrefused', async (tab) => {
    await asOperator(suite.page, suite.app.gatehouse.services.config.publicUrl, accountOf(tab), async (page) => {
      const sections = page.getByRole('navigation', { name: 'Application sections' });
      await sections.getByRole('link', { name: tab, exact: true }).click();
      await page.getByRole('heading', { level: 2, name: tab }).waitFor();
      await expectNoRefusal(page);
    });
  });

  it.each(Object.keys(TAB_READS))('opens %s unrefused to an operator who may also change what it lists', async (tab) => {
    await asOperator(suite.page, suite.app.gatehouse.services.config.publicUrl, writerAccountOf(tab), async (page) => {
      const sections = page.getByRole('navigation', { name: 'Application sections' });
      await sections.getByRole('link', { name: tab, exact: true }).click();
      await page.getByRole('heading', { level: 2, name: tab }).waitFor();
      await expectNoRefusal(page);
    });
  });

  it.each(Object.keys(TENANT_SCREEN_READS))("opens Acme's %s unrefused to an operator of Acme", async (screen) => {
    await asTenantOperator(suite.page, suite.app.gatehouse.services.config.publicUrl, tenantAccountOf(screen), async (page) => {
      await page.getByRole('link', { name: `${screen} of Acme`, exact: true }).click();
      await page.getByRole('navigation', { name: 'Sections of Acme' }).waitFor();
      await page.getByRole('heading', { level: 2 }).filter({ hasText: 'Acme' }).first().waitFor();
      await expectNoRefusal(page);
    });
  });
});
