import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dashboardSuite, offered, openTab } from '../support/dashboard.ts';

/**
 * The settings forms read their stored values again when the operator comes back to the page: the application's and a
 * tenant's branding and e-mail templates, and the organization's name. A form holding edits keeps them and says its
 * thing changed elsewhere, with the new version on demand, so that saving does not silently overwrite that change.
 */
let appId: string;
let acme: string;

const dashboard = dashboardSuite({
  setup: async (app) => {
    appId = app.root.applicationId;
    acme = await app.createTenant('Acme');
    const perTenant = { brandingScope: 'tenant', emailTemplatesScope: 'tenant' };
    expect((await app.http.patch(`/applications/${appId}`, { tenancyConfig: perTenant })).status).toBe(200);
  },
});

const region = (name: string): Locator => dashboard.page.getByRole('region', { name, exact: true });
const ok = async (answer: Promise<{ status: number; body: unknown }>) => {
  const { status, body } = await answer;
  expect(status, JSON.stringify(body)).toBe(200);
};

/** With `field` edited to `draft` and its thing changed elsewhere, a come-back keeps the edit and offers what `changed` made. */
async function expectOutdated(section: Locator, what: string, field: Locator, draft: string, changed: () => Promise<void>, stored: string): Promise<void> {
  await field.fill(draft);
  await changed();
  await dashboard.comeBack();
  const notice = section.getByRole('status').filter({ hasText: `This ${what} was changed elsewhere` });
  await notice.waitFor();
  expect(await field.inputValue()).toBe(draft);
  expect(await dashboard.unsaved()).toBe(true);
  await notice.getByRole('button', { name: 'Load the new version' }).click();
  expect(await field.inputValue()).toBe(stored);
  expect(await dashboard.unsaved()).toBe(false);
}

const branding = (logoUrl: string) => ({ logoUrl, colors: { primary: '#123456' } });
const template = (subject: string) => ({ subject, html: `<p>${subject}</p>`, text: subject });

describe('settings forms read again when the operator comes back to the page', () => {
  // First: the console reads the organization, and at most once in 5 s of returns, however many pages were shown since.
  it("keeps the organization's name edit over a rename made elsewhere", async () => {
    await dashboard.page.getByRole('banner').getByRole('link', { name: 'Organization' }).click();
    const section = region('Name');
    await expectOutdated(section, 'name', section.getByLabel('Organization name', { exact: true }), 'Draft Corp', () =>
      ok(dashboard.app.http.patch(`/organizations/${dashboard.app.root.organizationId}`, { name: 'Renamed elsewhere' })),
    'Renamed elsewhere');
    await dashboard.page.goBack();
  });

  it("keeps the application's branding edits over a logo set elsewhere, and loads it on demand", async () => {
    await openTab(dashboard.page, 'Branding');
    const section = region('Branding');
    await section.getByRole('heading', { name: 'Change the branding' }).waitFor();
    const logo = 'https://elsewhere.example/logo.png';
    await expectOutdated(section, 'branding', section.getByLabel('Favicon URL', { exact: true }), 'https://draft.example/favicon.ico', () =>
      ok(dashboard.app.http.put(`/applications/${appId}/branding`, branding(logo))),
    '');
    expect(await section.getByLabel('Logo URL', { exact: true }).inputValue()).toBe(logo);
  });

  it("keeps a tenant's branding edits over a change made elsewhere", async () => {
    const section = region('Branding');
    await offered(section.getByLabel('Tenant', { exact: true }), 'Acme');
    await section.getByLabel('Tenant', { exact: true }).selectOption({ label: 'Acme' });
    await section.getByRole('heading', { name: "Change Acme's branding" }).waitFor();
    const logo = 'https://acme.example/logo.png';
    await expectOutdated(section, 'branding', section.getByLabel('Favicon URL', { exact: true }), 'https://draft.example/acme.ico', () =>
      ok(dashboard.app.http.put(`/applications/${appId}/tenants/${acme}/branding`, branding(logo))),
    '');
    expect(await section.getByLabel('Logo URL', { exact: true }).inputValue()).toBe(logo);
  });

  it("keeps the application's template edits over a change made elsewhere", async () => {
    await openTab(dashboard.page, 'E-mail');
    const section = region('Edit a template');
    await expectOutdated(section, 'template', section.getByLabel('Subject', { exact: true }), 'Draft subject', () =>
      ok(dashboard.app.http.put(`/applications/${appId}/email/templates/verify_email`, template('Verify, from elsewhere'))),
    'Verify, from elsewhere');
  });

  it("keeps a tenant's template edits over a change made elsewhere", async () => {
    await offered(region('E-mail').getByLabel('Tenant', { exact: true }), 'Acme');
    await region('E-mail').getByLabel('Tenant', { exact: true }).selectOption({ label: 'Acme' });
    await region('E-mail').getByText('Saving gives this tenant its own copy of this template').waitFor();
    const section = region('Edit a template');
    await expectOutdated(section, 'template', section.getByLabel('Subject', { exact: true }), 'Acme draft', () =>
      ok(dashboard.app.http.put(`/applications/${appId}/tenants/${acme}/email/templates/verify_email`, template('Verify with Acme'))),
    'Verify with Acme');
  });

});
