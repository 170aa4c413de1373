import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { asTenantOperator, dashboardSuite, makeOperator, offeredScreens } from '../support/dashboard.ts';

/**
 * A tenant's Branding, E-mail and Authentication screens in Chromium, for operators whose roles in the application are
 * held in tenants only. A Tenant admin of Acme opens them from their landing: Acme's branding (per tenant) is Inherited,
 * they save one of Acme's own (Customized, Globex untouched) and remove it again; its e-mail templates (per tenant)
 * carry their badges and removals while the provider (application-wide) says the application's applies, not editable
 * there; its authentication, shared, says the same, and once isolated Acme's own password policy is removed, and a
 * provider of its own added and removed. An
 * operator of Acme holding the branding's permissions but not `tenant_overrides:write` (the role system's policy of
 * who edits a tenant's overrides) sees the badge and no Change nor Remove; one holding both without `permissions:read`
 * is offered Change, and shown the server's refusal once their role no longer holds them; an operator who may read Acme's users only
 * is offered no settings screen, and the server refuses the address; another tenant's address is none of theirs.
 * Every screen breaks no WCAG A or AA rule (axe-core). Screenshot: test-results/dashboard-tenant-settings.png.
 */
const TENANT_ADMIN = { email: 'acme-admin@ops.example', password: 'Operator-Curlew-42' };
const BRAND_READER = { email: 'acme-brand@ops.example', password: 'Operator-Godwit-42' };
const HELPDESK = { email: 'helpdesk@ops.example', password: 'Operator-Plover-42' };
const UNCHECKED = { email: 'acme-unchecked@ops.example', password: 'Operator-Avocet-42' };
const PRIMARY = '#0f766e';
let appId: string;
let acme: string;
let globex: string;
let uncheckedRoleId: string;

/** Reading a tenant's configuration takes the read permission of each of its sections. */
const CONFIGURATION_READS = ['tenants:read', 'branding:read', 'email:read', 'policies:read', 'auth_providers:read', 'domains:read'];

const dashboard = dashboardSuite({
  setup: async (app) => {
    appId = app.root.applicationId;
    acme = await app.createTenant('Acme');
    globex = await app.createTenant('Globex');
    expect((await app.http.patch(`/applications/${appId}`, { tenancyConfig: { brandingScope: 'tenant', emailTemplatesScope: 'tenant' } })).status).toBe(200);
    await makeOperator(app, TENANT_ADMIN, 'tenant_admin', acme);
    const brandReader = { key: 'brand_reader', name: 'Brand reader', permissions: [...CONFIGURATION_READS, 'branding:write', 'branding:delete', 'permissions:read'] };
    expect((await app.http.post('/roles', brandReader)).status).toBe(201);
    await makeOperator(app, BRAND_READER, 'brand_reader', acme);
    const helpdesk = { key: 'helpdesk', name: 'Helpdesk', permissions: ['users:read', 'users:write', 'permissions:read'] };
    expect((await app.http.post('/roles', helpdesk)).status).toBe(201);
    await makeOperator(app, HELPDESK, 'helpdesk', acme);
    // No permissions:read: what the screen offers is what managedApplications says they hold in Acme.
    const unchecked = { key: 'unchecked', name: 'Unchecked', permissions: [...CONFIGURATION_READS, 'branding:write', 'tenant_overrides:write'] };
    const uncheckedRole = await app.http.post('/roles', unchecked);
    expect(uncheckedRole.status).toBe(201);
    uncheckedRoleId = uncheckedRole.body.id as string;
    await makeOperator(app, UNCHECKED, 'unchecked', acme);
  },
});

const publicUrl = () => dashboard.app.gatehouse.services.config.publicUrl;
const get = async (path: string) => {
  const answer = await dashboard.app.http.get(`/applications/${appId}${path}`);
  expect(answer.status).toBe(200);
  return answer.body;
};
const setSwitches = async (tenancyConfig: Record<string, string>) =>
  expect((await dashboard.app.http.patch(`/applications/${appId}`, { tenancyConfig })).status).toBe(200);
const answerDialog = (page: Page) => new Promise<string>((resolve) => page.once('dialog', (dialog) => (resolve(dialog.message()), void dialog.accept())));
const region = (page: Page, name: string): Locator => page.getByRole('region', { name, exact: true });

const asOperator = (account: { email: string; password: string }, use: (page: Page) => Promise<void>) => asTenantOperator(dashboard.page, publicUrl(), account, use);
const acmeScreens = (page: Page) => offeredScreens(page, 'Acme');

/** Opens one of Acme's screens from the landing and waits for its heading. */
async function openFromLanding(page: Page, screen: string): Promise<void> {
  await page.getByRole('list', { name: 'Screens of Acme' }).getByRole('link', { name: `${screen} of Acme` }).click();
  await page.getByRole('heading', { level: 2, name: `${screen} of Acme` }).waitFor();
}

describe("a tenant's Branding screen for an operator of some tenants only, in Chromium", () => {
  it("lets a Tenant admin give Acme a branding of its own (Customized), which Globex does not get, and remove it", async () => {
    await asOperator(TENANT_ADMIN, async (page) => {
      expect(await acmeScreens(page)).toEqual(['Users of Acme', 'Sessions of Acme', 'Branding of Acme', 'E-mail of Acme', 'Authentication of Acme', 'Audit log of Acme']);
      await openFromLanding(page, 'Branding');
      await page.waitForURL(new RegExp(`#/${appId}/branding/${acme}$`));
      await page.locator('.source').getByText('Inherited', { exact: true }).waitFor();
      expect(await page.getByRole('button', { name: /^Remove tenant override/ }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      const change = region(page, "Change Acme's branding");
      await change.getByLabel('Pick the primary colour', { exact: true }).fill(PRIMARY);
      await change.getByRole('button', { name: 'Save', exact: true }).click();
      await change.getByRole('status').filter({ hasText: 'Branding saved.' }).waitFor();
      await page.locator('.source').getByText('Customized', { exact: true }).waitFor();
      expect(await get(`/tenants/${acme}/branding`)).toMatchObject({ source: 'customized', colors: { primary: PRIMARY } });
      expect(await get(`/tenants/${globex}/branding`)).toMatchObject({ source: 'inherited', colors: { primary: '#4f46e5' } });
      await page.screenshot({ path: 'test-results/dashboard-tenant-settings.png', fullPage: true });

      const asked = answerDialog(page);
      await page.getByRole('button', { name: "Remove tenant override of Acme's branding" }).click();
      expect(await asked).toContain("Remove Acme's own branding?");
      await page.locator('.source').getByText('Inherited', { exact: true }).waitFor();
      expect(await get(`/tenants/${acme}/branding`)).toMatchObject({ source: 'inherited', colors: { primary: '#4f46e5' } });
      expect(await page.getByRole('alert').count()).toBe(0);
    });
  });

  it('shows an operator without tenant_overrides:write the badge, and offers neither Change nor Remove', async () => {
    expect((await dashboard.app.http.put(`/applications/${appId}/tenants/${acme}/branding`, { colors: { primary: PRIMARY } })).status).toBe(200);
    await asOperator(BRAND_READER, async (page) => {
      expect(await acmeScreens(page)).toEqual(['Branding of Acme', 'E-mail of Acme', 'Authentication of Acme']);
      await openFromLanding(page, 'Branding');
      await page.locator('.source').getByText('Customized', { exact: true }).waitFor();
      await page.getByText(PRIMARY).first().waitFor();
      expect(await page.getByRole('button', { name: /^Remove tenant override/ }).count()).toBe(0);
      expect(await region(page, "Change Acme's branding").count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    });
    expect((await get(`/tenants/${acme}/branding`)).source).toBe('customized');
    expect((await dashboard.app.http.delete(`/applications/${appId}/tenants/${acme}/branding`)).status).toBe(204);
  });

  it("offers Change by the permissions held without permissions:read; once no longer held, shows the server's refusal and saves nothing", async () => {
    await asOperator(UNCHECKED, async (page) => {
      await openFromLanding(page, 'Branding');
      const change = region(page, "Change Acme's branding");
      await change.waitFor();
      expect((await dashboard.app.http.patch(`/roles/${uncheckedRoleId}`, { permissions: [...CONFIGURATION_READS, 'branding:write'] })).status).toBe(200);
      await change.getByLabel('Pick the primary colour', { exact: true }).fill(PRIMARY);
      await change.getByRole('button', { name: 'Save', exact: true }).click();
      const refusal = change.getByRole('alert');
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain('Missing permission tenant_overrides:write');
    });
    expect(await get(`/tenants/${acme}/branding`)).toMatchObject({ source: 'inherited', colors: { primary: '#4f46e5' } });
  });

  it("says the application's branding applies, not editable there, while branding is application-wide", async () => {
    await setSwitches({ brandingScope: 'application' });
    try {
      await asOperator(TENANT_ADMIN, async (page) => {
        await openFromLanding(page, 'Branding');
        await page.getByText("Branding is set for the whole application: the application's branding applies to Acme, and is not editable here.").waitFor();
        expect(await page.locator('.source').count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
        expect(await axeViolations(page)).toEqual([]);
      });
    } finally {
      await setSwitches({ brandingScope: 'tenant' });
    }
  });

  it('offers an operator who may read only the users no settings screen; the server refuses its address', async () => {
    await asOperator(HELPDESK, async (page) => {
      expect(await acmeScreens(page)).toEqual(['Users of Acme']);
      await page.goto(`${publicUrl()}/dashboard/#/${appId}/branding/${acme}`);
      await page.getByRole('heading', { level: 2, name: 'Branding of Acme' }).waitFor();
      const refusal = page.getByRole('alert');
      await refusal.waitFor();
      expect(await refusal.textContent()).toMatch(/permission/i);
      expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    });
  });

  it("names another tenant's address as none of the operator's, showing nothing of it", async () => {
    expect((await dashboard.app.http.put(`/applications/${appId}/tenants/${globex}/branding`, { colors: { primary: '#123456' } })).status).toBe(200);
    await asOperator(TENANT_ADMIN, async (page) => {
      await page.goto(`${publicUrl()}/dashboard/#/${appId}/branding/${globex}`);
      await page.getByText('The address names a tenant in which you hold no role, or one that no longer exists.').waitFor();
      expect(await page.getByRole('heading', { level: 2, name: /Branding of/ }).count()).toBe(0);
      expect(await page.getByText('#123456').count()).toBe(0);
    });
  });
});

describe("a tenant's E-mail screen for an operator of some tenants only, in Chromium", () => {
  const templateRow = (page: Page, key: string): Locator => region(page, 'Templates').getByRole('row', { name: new RegExp(`^${key}\\b`) });

  it("lets a Tenant admin give Acme its own welcome template and remove it; the provider, application-wide, is not editable there", async () => {
    await asOperator(TENANT_ADMIN, async (page) => {
      await openFromLanding(page, 'E-mail');
      await templateRow(page, 'welcome').getByText('Inherited', { exact: true }).waitFor();
      await page.getByText("The application's e-mail provider applies to every tenant, Acme included, and is not editable here.").waitFor();
      expect(await region(page, 'Change the provider').count()).toBe(0);
      expect(await region(page, 'Provider').locator('.source').count()).toBe(0);

      const editor = region(page, 'Edit a template');
      await editor.getByLabel('Template to edit', { exact: true }).selectOption('welcome');
      await editor.getByLabel('Subject', { exact: true }).fill('Welcome to Acme');
      await editor.getByRole('button', { name: 'Save template' }).click();
      await templateRow(page, 'welcome').getByText('Customized', { exact: true }).waitFor();
      expect(await get(`/tenants/${acme}/email/templates/welcome`)).toMatchObject({ source: 'customized', subject: 'Welcome to Acme' });
      expect(await get(`/tenants/${globex}/email/templates/welcome`)).toMatchObject({ source: 'inherited' });
      expect(await axeViolations(page)).toEqual([]);

      const asked = answerDialog(page);
      await templateRow(page, 'welcome').getByRole('button', { name: /^Remove tenant override/ }).click();
      expect(await asked).toContain("Remove Acme's own welcome template?");
      await templateRow(page, 'welcome').getByText('Inherited', { exact: true }).waitFor();
      expect(await get(`/tenants/${acme}/email/templates/welcome`)).toMatchObject({ source: 'inherited' });
      expect(await page.getByRole('alert').count()).toBe(0);
    });
  });

  it('offers Acme its own provider once the provider is per tenant', async () => {
    await setSwitches({ emailProviderScope: 'tenant' });
    try {
      await asOperator(TENANT_ADMIN, async (page) => {
        await openFromLanding(page, 'E-mail');
        await region(page, 'Provider').getByText('Inherited', { exact: true }).waitFor();
        await region(page, 'Change the provider').getByRole('button', { name: 'Save provider' }).waitFor();
        expect(await page.getByText("The application's e-mail provider applies to every tenant, Acme included, and is not editable here.").count()).toBe(0);
      });
    } finally {
      await setSwitches({ emailProviderScope: 'application' });
    }
  });

  it('shows an operator without the e-mail permissions the badges, and offers no edit nor removal', async () => {
    expect((await dashboard.app.http.put(`/applications/${appId}/tenants/${acme}/email/templates/welcome`, { subject: 'Hello Acme', html: '<p>Hi</p>', text: 'Hi' })).status).toBe(200);
    try {
      await asOperator(BRAND_READER, async (page) => {
        await openFromLanding(page, 'E-mail');
        await templateRow(page, 'welcome').getByText('Customized', { exact: true }).waitFor();
        expect(await page.getByRole('button', { name: /^Remove tenant override/ }).count()).toBe(0);
        expect(await region(page, 'Edit a template').count()).toBe(0);
      });
    } finally {
      expect((await dashboard.app.http.delete(`/applications/${appId}/tenants/${acme}/email/templates/welcome`)).status).toBe(204);
    }
  });
});

describe("a tenant's Authentication screen for an operator of some tenants only, in Chromium", () => {
  const policyRow = (page: Page, label: string): Locator => region(page, 'Policies').getByRole('row', { name: new RegExp(`^${label}\\b`) });

  it("says the application's providers and policies apply, not editable there, while authentication is shared", async () => {
    await asOperator(TENANT_ADMIN, async (page) => {
      await openFromLanding(page, 'Authentication');
      await page.getByText("Authentication is shared: the application's providers and policies apply to every tenant, Acme included, and are not editable here.").waitFor();
      await policyRow(page, 'Password').waitFor();
      expect(await page.locator('.source').count()).toBe(0);
      expect(await region(page, 'Change a policy').count()).toBe(0);
      expect(await region(page, 'Add a provider').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
    });
  });

  it("once isolated, lets a Tenant admin remove Acme's own password policy, add a provider of its own and remove it; an operator without the permissions is offered none of it", async () => {
    await setSwitches({ authIsolation: 'isolated' });
    try {
      expect((await dashboard.app.http.put(`/applications/${appId}/tenants/${acme}/policies/password`, { minLength: 16 })).status).toBe(200);
      await asOperator(BRAND_READER, async (page) => {
        await openFromLanding(page, 'Authentication');
        await policyRow(page, 'Password').getByText('Customized', { exact: true }).waitFor();
        expect(await page.getByRole('button', { name: /^Remove tenant override/ }).count()).toBe(0);
        expect(await region(page, 'Change a policy').count()).toBe(0);
        expect(await region(page, 'Add a provider').count()).toBe(0);
      });
      await asOperator(TENANT_ADMIN, async (page) => {
        await openFromLanding(page, 'Authentication');
        await policyRow(page, 'Password').getByText('Customized', { exact: true }).waitFor();
        await region(page, 'Change a policy').waitFor();
        await region(page, 'Add a provider').waitFor();
        expect(await axeViolations(page)).toEqual([]);
        const asked = answerDialog(page);
        await policyRow(page, 'Password').getByRole('button', { name: /^Remove tenant override/ }).click();
        expect(await asked).toContain("Remove Acme's own password policy?");
        await policyRow(page, 'Password').getByText('Inherited', { exact: true }).waitFor();
        expect(await get(`/tenants/${acme}/policies/password`)).toMatchObject({ source: 'inherited' });

        await region(page, 'Add a provider').getByLabel('Type', { exact: true }).selectOption({ label: 'Magic link' });
        await region(page, 'Add a provider').getByRole('button', { name: 'Add provider' }).click();
        await region(page, 'Providers').getByText('Customized', { exact: true }).waitFor();
        expect((await get(`/tenants/${acme}/configuration`)).auth.providers.map((provider: { type: string }) => provider.type)).toEqual(['magic_link']);
        const removal = answerDialog(page);
        await page.getByRole('button', { name: "Remove tenant override of Acme's auth providers" }).click();
        expect(await removal).toContain("Remove Acme's own auth providers?");
        await region(page, 'Providers').getByText('Inherited', { exact: true }).waitFor();
        expect((await get(`/tenants/${acme}/configuration`)).auth.providersSource).toBe('inherited');
        expect(await page.getByRole('alert').count()).toBe(0);
      });
    } finally {
      await setSwitches({ authIsolation: 'shared' });
    }
  });
});
