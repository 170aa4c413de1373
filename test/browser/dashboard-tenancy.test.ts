import { describe, expect, it } from 'vitest';
import { dashboardSuite, openTab } from '../support/dashboard.ts';

/**
 * The dashboard's tenancy screens in Chromium: the operator moves through a switch by keyboard without saving, turns
 * branding per tenant with Save and sees a hidden override come back, isolates authentication only once they confirm
 * it, sees what each tenant holds while sharing it again is refused and shares it again without being asked, and on
 * the Branding tab picks a tenant, sees its own branding and removes it. Screenshots: test-results/dashboard-tenancy-*.png.
 */
let appId: string;
let acme: string;
let globex: string;

// Authentication is the last of the feature columns.
const authBadge = (tenant: string) => dashboard.page.getByRole('row', { name: new RegExp(tenant) }).locator('.badge').last();

const tenancyConfig = async () => (await dashboard.app.http.get(`/applications/${appId}`)).body.tenancyConfig;

const dashboard = dashboardSuite({
  setup: async (app) => {
    appId = app.root.applicationId;
    acme = await app.createTenant('Acme');
    globex = await app.createTenant('Globex');
    // In no tenant: the application's own pool once authentication is isolated.
    expect((await app.http.post('/users', { email: 'twice@example.com' })).status).toBe(201);
    // Acme's override is written while branding is per tenant, then hidden by switching back to application-wide.
    expect((await app.http.patch(`/applications/${appId}`, { tenancyConfig: { brandingScope: 'tenant' } })).status).toBe(200);
    const override = { colors: { primary: '#c81e1e' }, copy: { 'login.title': 'Welcome to Acme' } };
    expect((await app.http.put(`/applications/${appId}/tenants/${acme}/branding`, override)).status).toBe(200);
    expect((await app.http.patch(`/applications/${appId}`, { tenancyConfig: { brandingScope: 'application' } })).status).toBe(200);
  },
});

describe('the tenancy screens of the dashboard in Chromium', () => {
  it('lets a keyboard user move through a switch without saving, says what saving does, and saves branding per tenant on Save, the tenants table gaining its badges with the hidden override back', async () => {
    await dashboard.page.getByRole('row', { name: /Globex/ }).waitFor();
    expect(await dashboard.page.getByRole('columnheader', { name: 'Branding' }).count()).toBe(0);
    const branding = dashboard.page.getByRole('group', { name: 'Branding' });
    const save = branding.getByRole('button', { name: 'Save Branding' });
    expect(await save.isDisabled()).toBe(true);
    const updates = async () => (await dashboard.app.http.get('/audit-logs?action=tenancy_config.updated&pageSize=100')).body.data.length as number;
    const updatesBefore = await updates();

    // The arrow keys move the choice through the group: nothing is saved, nothing hidden or shown yet.
    await branding.getByRole('radio', { name: 'Application' }).focus();
    await dashboard.page.keyboard.press('ArrowDown');
    expect(await branding.getByRole('radio', { name: 'Per tenant' }).isChecked()).toBe(true);
    expect(await branding.getAttribute('aria-describedby').then((hint) => dashboard.page.locator(`[id="${hint}"]`).textContent())).toBe(
      'Not saved yet. Each tenant may then have its own branding.',
    );
    await dashboard.page.keyboard.press('ArrowUp');
    expect(await branding.getByRole('radio', { name: 'Application' }).isChecked()).toBe(true);
    expect(await save.isDisabled()).toBe(true);
    await dashboard.page.keyboard.press('ArrowDown');
    expect(await dashboard.page.getByRole('columnheader', { name: 'Branding' }).count()).toBe(0);
    expect((await tenancyConfig()).brandingScope).toBe('application');
    expect(await updates()).toBe(updatesBefore);

    await dashboard.page.keyboard.press('Tab');
    expect(await save.evaluate((button) => button === document.activeElement)).toBe(true);
    await dashboard.page.keyboard.press('Enter');
    await dashboard.page.getByRole('columnheader', { name: 'Branding' }).waitFor();
    await dashboard.page.getByRole('row', { name: /Acme/ }).getByText('Customized').waitFor();
    expect((await tenancyConfig()).brandingScope).toBe('tenant');
    expect(await updates()).toBe(updatesBefore + 1);
    expect(await save.isDisabled()).toBe(true);

    // Back at the application's, before Save: the effect on the tenants' overrides is said, and they still show.
    await branding.getByRole('radio', { name: 'Application' }).check();
    await branding.getByText("the tenants' own are kept, unused and hidden, until this is per tenant again").waitFor();
    expect(await dashboard.page.getByRole('columnheader', { name: 'Branding' }).count()).toBe(1);
    await branding.getByRole('radio', { name: 'Per tenant' }).check();
    expect(await save.isDisabled()).toBe(true);
  });

  it('isolates authentication only once the operator confirms, and shares it again without asking once the server allows it', async () => {
    const auth = dashboard.page.getByRole('group', { name: 'Authentication' });
    const saveAuth = auth.getByRole('button', { name: 'Save Authentication' });
    // Chosen, not saved: no question yet.
    await auth.getByRole('radio', { name: 'Isolated' }).click();
    const asked = dashboard.answerNextDialog('dismiss');
    await saveAuth.click();
    expect(await asked).toMatch(/own auth providers, password policy.*per-tenant pools/);
    expect(await auth.getByRole('radio', { name: 'Shared' }).isChecked()).toBe(true);
    expect((await tenancyConfig()).authIsolation).toBe('shared');

    await auth.getByRole('radio', { name: 'Isolated' }).click();
    void dashboard.answerNextDialog();
    await saveAuth.click();
    await dashboard.page.getByRole('columnheader', { name: 'Authentication' }).waitFor();
    expect((await tenancyConfig()).authIsolation).toBe('isolated');
    await dashboard.page.screenshot({ path: 'test-results/dashboard-tenancy-switches.png', fullPage: true });

    // While Acme holds a policy of its own and a user whose address the application's pool holds too, the server
    // refuses to share again: its message and what each tenant holds show, the switch stays.
    const acmePolicy = `/applications/${appId}/tenants/${acme}/policies/password`;
    expect((await dashboard.app.http.put(acmePolicy, { minLength: 14 })).status).toBe(200);
    // Globex's own API-key settings sign no one in, yet keep sharing refused too: both tenants read Customized.
    const globexKeys = `/applications/${appId}/tenants/${globex}/auth-providers`;
    const globexProvider = await dashboard.app.http.post(globexKeys, { type: 'api_keys', config: { maxLifetimeDays: 30 } });
    expect(globexProvider.status).toBe(201);
    await dashboard.comeBack();
    await expect.poll(() => authBadge('Acme').textContent()).toBe('Customized');
    await expect.poll(() => authBadge('Globex').textContent()).toBe('Customized');
    const twice = await dashboard.app.http.post(`/applications/${appId}/tenants/${acme}/users`, { email: 'twice@example.com' });
    expect(twice.status).toBe(201);
    await auth.getByRole('radio', { name: 'Shared' }).click();
    await saveAuth.click();
    await auth.getByRole('alert').filter({ hasText: 'Tenants still hold tenant-specific auth data' }).waitFor();
    expect(await auth.getByRole('list', { name: 'What the tenants still hold' }).getByRole('listitem').allTextContents()).toEqual([
      'acme: 1 policy of its own',
      'acme: 1 user whose e-mail address another tenant or the application also holds',
      'globex: 1 auth provider of its own',
    ]);
    expect(await auth.getByRole('radio', { name: 'Isolated' }).isChecked()).toBe(true);
    expect((await tenancyConfig()).authIsolation).toBe('isolated');

    // Without them, sharing again is saved at once; an unexpected dialog would be dismissed and fail the wait.
    expect((await dashboard.app.http.delete(acmePolicy)).status).toBe(204);
    expect((await dashboard.app.http.delete(`${globexKeys}/${globexProvider.body.id}`)).status).toBe(204);
    expect((await dashboard.app.http.delete(`/applications/${appId}/tenants/${acme}/users/${twice.body.id}`)).status).toBe(204);
    await auth.getByRole('radio', { name: 'Shared' }).click();
    await saveAuth.click();
    await dashboard.page.getByRole('columnheader', { name: 'Authentication' }).waitFor({ state: 'detached' });
    expect((await tenancyConfig()).authIsolation).toBe('shared');
  });

  it("shows a tenant's own branding on the Branding tab and removes it", async () => {
    await openTab(dashboard.page, 'Branding');
    await dashboard.page.getByText('#4f46e5').waitFor();

    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Acme' });
    await dashboard.page.getByText('Customized').waitFor();
    await dashboard.page.getByText('Welcome to Acme').waitFor();
    expect(await dashboard.page.getByText('#c81e1e').count()).toBe(1);
    await dashboard.page.screenshot({ path: 'test-results/dashboard-tenancy-branding.png', fullPage: true });

    void dashboard.answerNextDialog();
    await dashboard.page.getByRole('button', { name: 'Remove tenant override' }).click();
    await dashboard.page.getByText('Inherited').waitFor();
    expect(await dashboard.page.getByText('#4f46e5').count()).toBe(1);
    const configuration = await dashboard.app.http.get(`/applications/${appId}/tenants/${acme}/configuration`);
    expect(configuration.body.branding.source).toBe('inherited');
  });

});
