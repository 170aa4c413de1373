import { describe, expect, it } from 'vitest';
import { asOperator, dashboardSuite, makeOperator } from '../support/dashboard.ts';

/**
 * Each tab of a multi-tenant application, every switch left to tenants, opened by an operator holding only the reads
 * it is offered with (docs/decisions.md, "READS"): it shows no refusal, a choice it cannot fill being hidden or
 * explained instead.
 */
const TAB_READS: Readonly<Record<string, readonly string[]>> = {
  Tenants: ['tenants:read', 'branding:read', 'email:read', 'policies:read', 'auth_providers:read', 'domains:read', 'applications:read'],
  Branding: ['branding:read', 'applications:read'],
  'E-mail': ['email:read', 'applications:read'],
  Authentication: ['auth_providers:read', 'policies:read', 'applications:read'],
  Domains: ['domains:read', 'applications:read'],
  Users: ['users:read', 'applications:read', 'tenants:read'],
  Invitations: ['users:read'],
  Sessions: ['sessions:read', 'users:read'],
  Roles: ['roles:read', 'applications:read', 'tenants:read'],
  Operators: ['role_assignments:read', 'roles:read', 'applications:read', 'tenants:read'],
  'API keys': ['api_keys:read', 'applications:read', 'tenants:read'],
  'OAuth clients': ['oauth_clients:read', 'applications:read', 'tenants:read'],
  'API resources': ['api_resources:read'],
  'M2M credentials': ['m2m_credentials:read', 'applications:read', 'tenants:read'],
  'Audit log': ['audit_logs:read'],
  Analytics: ['analytics:read'],
  Settings: ['applications:read'],
};

const slug = (tab: string) => tab.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const accountOf = (tab: string) => ({ email: `reader-${slug(tab)}@ops.example`, password: 'Operator-Tern-42' });

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
    }
  },
});

describe("each tab to an operator holding only the reads it is offered with, in Chromium", () => {
  it.each(Object.keys(TAB_READS))('opens %s unrefused', async (tab) => {
    await asOperator(suite.page, suite.app.gatehouse.services.config.publicUrl, accountOf(tab), async (page) => {
      const sections = page.getByRole('navigation', { name: 'Application sections' });
      await sections.getByRole('link', { name: tab, exact: true }).click();
      await page.getByRole('heading', { level: 2, name: tab }).waitFor();
      await page.locator('.loading').first().waitFor({ state: 'detached' });
      // A row's details read what the row names.
      const details = page.getByRole('button', { name: /^Details of / });
      if ((await details.count()) > 0) {
        await details.first().click();
        await page.locator('.loading').first().waitFor({ state: 'detached' });
      }
      expect(await page.getByRole('alert').allTextContents()).toEqual([]);
    });
  });
});
