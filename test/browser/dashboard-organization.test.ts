import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dashboardSuite, signInToDashboard } from '../support/dashboard.ts';

/**
 * The dashboard's Organization page in Chromium: opened from the header, it renames the organization, saves its billing
 * whole and shows a refused value, deactivates it once its name is typed (the bootstrap key is refused then), still
 * offers the reactivation after a reload and a new sign-in, and reactivates it. Screenshot:
 * test-results/dashboard-organization.png.
 */
const BILLING = {
  plan: 'pro',
  billingEmail: 'invoices@acme.example',
  address: { line1: 'Hauptstraße 1', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' },
  taxId: 'DE 123456789',
};
let orgPath: string;

const organization = async () => (await dashboard.app.http.get(orgPath)).body;
const section = (name: string): Locator => dashboard.page.getByRole('region', { name, exact: true });
const reactivateButton = () => dashboard.page.getByRole('button', { name: 'Reactivate organization' });

const dashboard = dashboardSuite({
  setup: async (app) => {
    orgPath = `/organizations/${app.root.organizationId}`;
  },
});

describe('the Organization page of the dashboard in Chromium', () => {
  it('opens from the header, at its own address, with the organization’s name and billing', async () => {
    await dashboard.page.getByRole('banner').getByRole('link', { name: 'Organization' }).click();
    await dashboard.page.getByRole('heading', { level: 1, name: 'Organization' }).waitFor();
    expect(new URL(dashboard.page.url()).hash).toBe('#/organization');
    expect(await dashboard.page.getByLabel('Organization name').inputValue()).toBe('My organization');
    expect(await dashboard.page.getByLabel('Plan').inputValue()).toBe('free');
    expect(await dashboard.page.getByRole('button', { name: 'Deactivate organization' }).isDisabled()).toBe(true);
    // Which organization the header and the deactivation name: all of them may be called "My organization".
    await dashboard.page.getByRole('banner').getByText('My organization').waitFor();
    expect(await dashboard.page.title()).toBe('Organization · My organization · Gatehouse dashboard');
    await section('Deactivation').getByText(`Deactivating My organization (organization ${dashboard.app.root.organizationId})`).waitFor();
  });

  it('renames the organization', async () => {
    await dashboard.page.getByLabel('Organization name').fill('Acme Corp');
    await dashboard.page.getByRole('button', { name: 'Save name' }).click();
    await section('Name').getByRole('status').filter({ hasText: 'Name saved.' }).waitFor();
    expect((await organization()).name).toBe('Acme Corp');
    await dashboard.page.getByRole('banner').getByText('Acme Corp').waitFor();
    expect(await dashboard.page.title()).toBe('Organization · Acme Corp · Gatehouse dashboard');
  });

  it('saves the billing whole, as the server keeps it', async () => {
    await dashboard.page.getByLabel('Plan').selectOption({ label: 'Pro' });
    await dashboard.page.getByLabel('Billing e-mail').fill(BILLING.billingEmail);
    await dashboard.page.getByLabel('Address line 1').fill(BILLING.address.line1);
    await dashboard.page.getByLabel('City').fill(BILLING.address.city);
    await dashboard.page.getByLabel('Postal code').fill(BILLING.address.postalCode);
    await dashboard.page.getByLabel('Country').fill('de');
    await dashboard.page.getByLabel('Tax id').fill('de 123456789');
    await dashboard.page.getByRole('button', { name: 'Save billing' }).click();
    await section('Billing').getByRole('status').filter({ hasText: 'Billing saved.' }).waitFor();
    expect((await organization()).billing).toEqual(BILLING);
    expect(await dashboard.page.getByLabel('Country').inputValue()).toBe('DE');
    expect(await dashboard.page.getByLabel('Tax id').inputValue()).toBe('DE 123456789');
    await dashboard.page.screenshot({ path: 'test-results/dashboard-organization.png', fullPage: true });
  });

  it('shows the refusal of a country that is no ISO code, and changes nothing', async () => {
    await dashboard.page.getByLabel('Country').fill('Germany');
    await dashboard.page.getByLabel('Plan').selectOption({ label: 'Enterprise' });
    await dashboard.page.getByRole('button', { name: 'Save billing' }).click();
    await section('Billing').getByRole('alert').filter({ hasText: 'Country must be an ISO 3166-1 alpha-2 code' }).waitFor();
    expect((await organization()).billing).toEqual(BILLING);
    expect(await dashboard.page.getByLabel('Country').inputValue()).toBe('Germany');
  });

  it('deactivates once the organization’s name is typed: the bootstrap key is refused from then on', async () => {
    const deactivate = dashboard.page.getByRole('button', { name: 'Deactivate organization' });
    await dashboard.page.getByLabel('Type “Acme Corp” to confirm').fill('Acme');
    expect(await deactivate.isDisabled()).toBe(true);
    await dashboard.page.getByLabel('Type “Acme Corp” to confirm').fill('Acme Corp');
    await deactivate.click();
    await section('Deactivation').getByRole('status').filter({ hasText: 'Acme Corp is deactivated.' }).waitFor();
    await reactivateButton().waitFor();
    expect(await dashboard.page.getByLabel('Organization name').count()).toBe(0);

    for (const refused of [await dashboard.app.http.get(orgPath), await dashboard.app.http.get('/users')]) {
      expect([refused.status, refused.body.code]).toEqual([403, 'organization_deactivated']);
    }
  });

  it('still offers the reactivation after a reload, and after signing out and in again', async () => {
    await dashboard.page.reload();
    await reactivateButton().waitFor();
    await section('Deactivation').getByText('The organization is deactivated').waitFor();

    await Promise.all([dashboard.page.waitForURL(/\/oauth2\/logout/), dashboard.page.getByRole('button', { name: 'Sign out' }).click()]);
    await Promise.all([dashboard.page.waitForURL(/\/dashboard\/$/), dashboard.page.getByRole('button', { name: 'Sign out' }).click()]);
    await signInToDashboard(dashboard.page, dashboard.app.gatehouse.services.config.publicUrl, { at: '#/organization' });
    await reactivateButton().waitFor();
    expect((await organization()).code).toBe('organization_deactivated');
  });

  it('reactivates: the page and the bootstrap key work again', async () => {
    await reactivateButton().click();
    await section('Deactivation').getByRole('status').filter({ hasText: 'Acme Corp is active again.' }).waitFor();
    expect(await dashboard.page.getByLabel('Organization name').inputValue()).toBe('Acme Corp');
    expect(await organization()).toMatchObject({ name: 'Acme Corp', status: 'active', billing: BILLING });
    expect((await dashboard.app.http.get('/users')).status).toBe(200);

    await dashboard.page.getByRole('button', { name: 'All applications' }).click();
    await dashboard.page.getByRole('heading', { level: 1, name: 'My application' }).waitFor();
  });
});
