import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dashboardSuite, openTab } from '../support/dashboard.ts';

/**
 * The dashboard's E-mail and Authentication tabs in Chromium: the operator picks a tenant, sees which of its templates,
 * providers and policies are its own, removes them one by one until it inherits the application's again, and sees a
 * tenant without overrides inherit everything. Screenshots: test-results/dashboard-email-auth-*.png.
 */
const ACME_SUBJECT = 'Reset your Acme password';
let appId: string;
let acme: string;

const acmeConfiguration = async () => (await dashboard.app.http.get(`/applications/${appId}/tenants/${acme}/configuration`)).body;
const region = (name: string): Locator => dashboard.page.getByRole('region', { name });
const removeButtons = () => dashboard.page.getByRole('button', { name: 'Remove tenant override' });

async function openTenantView(name: string, tenant: string): Promise<void> {
  await openTab(dashboard.page, name);
  await dashboard.page.getByLabel('Tenant').selectOption({ label: tenant });
}

const dashboard = dashboardSuite({
  setup: async (app) => {
    appId = app.root.applicationId;
    acme = await app.createTenant('Acme');
    await app.createTenant('Globex');
    const tenancyConfig = { emailTemplatesScope: 'tenant', authIsolation: 'isolated' };
    expect((await app.http.patch(`/applications/${appId}`, { tenancyConfig })).status).toBe(200);
    const inAcme = `/applications/${appId}/tenants/${acme}`;
    const template = { subject: ACME_SUBJECT, html: '<p>Reset it</p>', text: 'Reset it' };
    expect((await app.http.put(`${inAcme}/email/templates/password_reset`, template)).status).toBe(200);
    expect((await app.http.put(`${inAcme}/policies/password`, { minLength: 14 })).status).toBe(200);
    expect((await app.http.post(`${inAcme}/auth-providers`, { type: 'password' })).status).toBe(201);
  },
});

describe('the E-mail and Authentication tabs of the dashboard in Chromium', () => {
  it("shows a tenant's own e-mail template and removes it, the provider left without a badge while it is application-wide", async () => {
    await openTab(dashboard.page, 'E-mail');
    // The application's templates come first, without sources.
    await region('Templates').getByRole('row', { name: /password_reset/ }).waitFor();
    expect(await region('Templates').getByRole('columnheader', { name: 'Source' }).count()).toBe(0);

    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Acme' });
    const row = region('Templates').getByRole('row', { name: /password_reset/ });
    await row.getByText('Customized', { exact: true }).waitFor();
    expect(await row.textContent()).toContain(ACME_SUBJECT);
    expect(await region('Templates').getByText('Customized', { exact: true }).count()).toBe(1);
    expect(await region('Provider').getByText(/Inherited|Customized/).count()).toBe(0);
    await dashboard.page.screenshot({ path: 'test-results/dashboard-email-auth-email.png', fullPage: true });

    const question = dashboard.answerNextDialog();
    await row.getByRole('button', { name: 'Remove tenant override' }).click();
    await row.getByText('Inherited', { exact: true }).waitFor();
    expect(await question).toBe("Remove Acme's own password_reset template? The tenant will use the application's password_reset template again.");
    expect(await row.textContent()).not.toContain(ACME_SUBJECT);
    expect(await removeButtons().count()).toBe(0);
    const template = (await acmeConfiguration()).emailTemplates.find((each: { key: string }) => each.key === 'password_reset');
    expect(template.source).toBe('inherited');
  });

  it("shows an isolated tenant's own providers and password policy and removes each", async () => {
    await openTenantView('Authentication', 'Acme');
    const password = region('Policies').getByRole('row', { name: /^Password/ });
    await password.getByText('Customized', { exact: true }).waitFor();
    expect(await password.textContent()).toContain('at least 14 characters');
    const providers = region('Providers');
    expect(await providers.getByText('Customized', { exact: true }).count()).toBe(1);
    await dashboard.page.screenshot({ path: 'test-results/dashboard-email-auth-authentication.png', fullPage: true });

    const question = dashboard.answerNextDialog();
    await password.getByRole('button', { name: 'Remove tenant override' }).click();
    await password.getByText('Inherited', { exact: true }).waitFor();
    expect(await question).toMatch(/^Remove Acme's own password policy\?/);
    expect(await password.textContent()).toContain('at least 8 characters');
    expect((await acmeConfiguration()).auth.policies.password.source).toBe('inherited');

    const providersQuestion = dashboard.answerNextDialog();
    await providers.getByRole('button', { name: 'Remove tenant override' }).click();
    await providers.getByText('Inherited', { exact: true }).waitFor();
    expect(await providersQuestion).toBe("Remove Acme's own auth providers? The tenant will use the application's auth providers again.");
    expect((await acmeConfiguration()).auth.providersSource).toBe('inherited');
    expect(await removeButtons().count()).toBe(0);
  });

  it('shows a tenant without overrides inheriting everything, with nothing to remove', async () => {
    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Globex' });
    await region('Policies').getByRole('row', { name: /^Lockout/ }).getByText('Inherited', { exact: true }).waitFor();
    expect(await dashboard.page.getByText('Inherited', { exact: true }).count()).toBe(5);
    expect(await dashboard.page.getByText('Customized', { exact: true }).count()).toBe(0);
    expect(await removeButtons().count()).toBe(0);

    await openTenantView('E-mail', 'Globex');
    await region('Templates').getByRole('row', { name: /account_deleted/ }).getByText('Inherited', { exact: true }).waitFor();
    expect(await region('Templates').getByText('Inherited', { exact: true }).count()).toBe(12);
    expect(await dashboard.page.getByText('Customized', { exact: true }).count()).toBe(0);
    expect(await removeButtons().count()).toBe(0);
  });
});
