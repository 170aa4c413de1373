import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createRecoveryKey } from '../../src/domain/bootstrap.ts';
import { dashboardSuite, openTab, OPERATOR, signInToDashboard } from '../support/dashboard.ts';

/**
 * The dashboard's applications in Chromium: from the list (reached from the one application the operator manages)
 * it creates an application, refusing a blank name, shows its initial key once and leads into it; an address naming
 * another application opens its tab afresh, without the tenant picked in the one left; its Settings tab
 * renames it and sets its audit retention, shows a refused retention at its field with nothing saved, shows its
 * figures, and deletes it once its name is typed, back to the list; to an operator not made its admin, it says so, and
 * to an operator the console lets create none, no Create application; an initial key stays shown until dismissed.
 * Screenshot: test-results/dashboard-applications.png.
 */
interface ApplicationRow {
  readonly id: string;
  readonly name: string;
  readonly multi_tenant: boolean;
  readonly audit_retention_days: number;
}

const dashboard = dashboardSuite();
let created: string;
let createdKey: string;

const page = () => dashboard.page;
const subsection = (name: string): Locator => page().getByRole('region', { name, exact: true });
const applications = () => dashboard.app.sql<ApplicationRow>('select id, name, multi_tenant, audit_retention_days from application where not console order by name');
const stored = async () => (await applications()).find((row) => row.id === created);

describe('the applications of the dashboard in Chromium', () => {
  it('lists them from the one application opened, with the creation form', async () => {
    await page().getByRole('button', { name: 'All applications' }).click();
    await page().getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
    expect(new URL(page().url()).hash).toBe('#/applications');
    await page().getByRole('list').getByRole('link', { name: 'My application' }).waitFor();
    await page().getByRole('heading', { level: 2, name: 'Create application' }).waitFor();
  });

  it('refuses a blank name at its field, and creates nothing', async () => {
    const before = await applications();
    await page().getByRole('button', { name: 'Create application' }).click();
    await page().getByRole('alert').filter({ hasText: 'Name' }).waitFor();
    expect(await page().getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await applications()).toEqual(before);
  });

  it('creates a multi-tenant application, shows its initial key once and leads into it', async () => {
    await page().getByLabel('Name', { exact: true }).fill('Billing portal');
    await page().getByLabel('Multi-tenant').check();
    await page().getByRole('button', { name: 'Create application' }).click();
    const notice = page().getByRole('region', { name: 'Billing portal is created' });
    await notice.waitFor();
    createdKey = await notice.getByLabel('Its initial API key').inputValue();
    expect(createdKey).toMatch(/^ghk_/);
    const row = (await applications()).find((application) => application.name === 'Billing portal');
    expect(row).toMatchObject({ multi_tenant: true, audit_retention_days: 90 });
    created = row!.id;
    // Listed, as the operator is made its Application admin.
    await page().getByRole('list').getByRole('link', { name: 'Billing portal' }).waitFor();
    expect(await page().getByLabel('Name', { exact: true }).inputValue()).toBe('');

    // The key is shown once: leaving before "I have copied it" would ask first.
    await notice.getByRole('button', { name: 'I have copied it' }).click();
    await notice.getByRole('link', { name: 'Open Billing portal' }).click();
    await page().getByRole('heading', { level: 1, name: 'Billing portal' }).waitFor();
    expect(new URL(page().url()).hash).toBe(`#/${created}`);
    await page().getByRole('heading', { level: 2, name: 'Tenants' }).waitFor();
  });

  it("opens another application's tab without the tenant picked in the one left", async () => {
    const acme = await dashboard.app.createTenant('Acme');
    const tenancyConfig = { brandingScope: 'tenant' };
    expect((await dashboard.app.http.patch(`/applications/${dashboard.app.root.applicationId}`, { tenancyConfig })).status).toBe(200);
    expect((await dashboard.app.as({ apiKey: createdKey }).patch(`/applications/${created}`, { tenancyConfig })).status).toBe(200);
    await page().evaluate((hash) => { location.hash = hash; }, `#/${dashboard.app.root.applicationId}/branding`);
    const section = subsection('Branding');
    await section.getByLabel('Tenant', { exact: true }).locator(`option[value="${acme}"]`).waitFor({ state: 'attached' });
    await section.getByLabel('Tenant', { exact: true }).selectOption({ label: 'Acme' });
    await section.getByRole('heading', { name: "Change Acme's branding" }).waitFor();

    await page().evaluate((hash) => { location.hash = hash; }, `#/${created}/branding`);
    await page().getByRole('heading', { level: 1, name: 'Billing portal' }).waitFor();
    await section.getByLabel('Logo URL', { exact: true }).waitFor();
    expect(await section.getByRole('heading', { name: "Change Acme's branding" }).count()).toBe(0);
    expect(await section.getByRole('alert').count()).toBe(0);
  });

  it('renames it and sets its audit retention on its Settings tab, with its figures', async () => {
    await openTab(page(), 'Settings');
    expect(await page().getByLabel('Application name').inputValue()).toBe('Billing portal');
    expect(await page().getByLabel('Audit retention (days)').inputValue()).toBe('90');
    await subsection('Figures').getByText('Tenants').waitFor();
    expect(await subsection('Figures').getByRole('definition').first().textContent()).toBe('0');

    await page().getByLabel('Application name').fill('Billing');
    await page().getByLabel('Audit retention (days)').fill('30');
    await page().getByRole('button', { name: 'Save settings' }).click();
    await subsection('General').getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    await page().getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
    expect(await stored()).toMatchObject({ name: 'Billing', audit_retention_days: 30 });
    await page().screenshot({ path: 'test-results/dashboard-applications.png', fullPage: true });
  });

  it('shows a refused retention at its field, and changes nothing', async () => {
    await page().getByLabel('Application name').fill('Billing renamed');
    await page().getByLabel('Audit retention (days)').fill('5000');
    await page().getByRole('button', { name: 'Save settings' }).click();
    await subsection('General').getByRole('alert').filter({ hasText: 'Audit retention (days) must be a whole number of days from 1 to 3650' }).waitFor();
    const retention = page().getByLabel('Audit retention (days)');
    expect(await retention.getAttribute('aria-invalid')).toBe('true');
    expect(await page().getByLabel('Application name').getAttribute('aria-invalid')).toBeNull();
    expect(await stored()).toMatchObject({ name: 'Billing', audit_retention_days: 30 });
    expect(await retention.inputValue()).toBe('5000');
    await page().getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
  });

  it('deletes it once its name is typed, back to the list without it', async () => {
    // The refused edits are put back first: leaving with them would ask.
    await page().getByLabel('Application name').fill('Billing');
    await page().getByLabel('Audit retention (days)').fill('30');
    const deletion = page().getByRole('button', { name: 'Delete application' });
    expect(await deletion.isDisabled()).toBe(true);
    await page().getByLabel('Type “Billing” to confirm').fill('Billing portal');
    expect(await deletion.isDisabled()).toBe(true);
    await page().getByLabel('Type “Billing” to confirm').fill('Billing');
    await deletion.click();
    await page().getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
    expect(new URL(page().url()).hash).toBe('#/applications');
    await page().getByRole('list').getByRole('link', { name: 'My application' }).waitFor();
    expect(await page().getByRole('list').getByRole('link', { name: 'Billing' }).count()).toBe(0);
    expect(await stored()).toBeUndefined();
  });

  it('to an operator who holds less than Application admin, says the new application is not theirs to manage, and offers no way in', async () => {
    const { services } = dashboard.app.gatehouse;
    const [{ id: consoleId }] = (await dashboard.app.sql<{ id: string }>('select id from application where console')) as [{ id: string }];
    const consoleAdmin = dashboard.app.as({ apiKey: (await createRecoveryKey(services.orm, { applicationId: consoleId, requestId: randomUUID() })).apiKey });
    const creator = { email: 'creator@example.com', password: 'Creator-Horse-42' };
    const user = await consoleAdmin.post('/users', creator);
    const role = await consoleAdmin.post('/roles', { key: 'app_creator', name: 'Application creator', permissions: ['applications:read', 'applications:write'] });
    expect((await consoleAdmin.post('/role-assignments', { subject: { type: 'user', id: user.body.id }, roleId: role.body.id })).status).toBe(201);

    const context = await page().context().browser()!.newContext();
    try {
      const theirs = await context.newPage();
      await signInToDashboard(theirs, services.config.publicUrl, { ...creator, at: '#/applications' });
      await theirs.getByLabel('Name', { exact: true }).fill('Side project');
      await theirs.getByRole('button', { name: 'Create application' }).click();
      const notice = theirs.getByRole('region', { name: 'Side project is created' });
      await notice.getByText('you were not made its operator').waitFor();
      expect(await notice.getByRole('link').count()).toBe(0);
      expect(await notice.getByLabel('Its initial API key').inputValue()).toMatch(/^ghk_/);
    } finally {
      await context.close();
    }
  });

  it('offers an Application admin who may create nothing in the console their application, and neither Create application nor the Organization page', async () => {
    const { app } = dashboard;
    const [{ id: consoleId }] = (await app.sql<{ id: string }>('select id from application where console')) as [{ id: string }];
    const [{ id: first }] = (await app.sql<{ id: string }>('select id from app_user where application_id = ? and email = ?', [consoleId, OPERATOR.email])) as [{ id: string }];
    const asFirst = app.as({ bearer: await app.mintAccessToken({ sub: first, app_id: consoleId }) });
    const appAdmin = { email: 'app-admin@example.com', password: 'App-Admin-Horse-42' };
    const made = await asFirst.post('/users', appAdmin);
    expect(made.status).toBe(201);
    const role = (await app.http.get('/roles')).body.data.find((each: { key: string }) => each.key === 'app_admin');
    expect((await app.http.post('/role-assignments', { subject: { type: 'operator', id: made.body.id }, roleId: role.id })).status).toBe(201);

    const context = await page().context().browser()!.newContext();
    try {
      const theirs = await context.newPage();
      await signInToDashboard(theirs, app.gatehouse.services.config.publicUrl, { ...appAdmin, at: '#/applications' });
      await theirs.getByRole('link', { name: 'My application' }).waitFor();
      // The console would refuse both: applications:write and organizations:read are the console's.
      expect(await theirs.getByRole('region', { name: 'Create application' }).count()).toBe(0);
      expect(await theirs.getByRole('banner').getByRole('link', { name: 'Organization' }).count()).toBe(0);
      expect(await theirs.getByRole('alert').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('keeps a new application\'s initial key shown through a refused creation and the next one, until its own dismissal', async () => {
    await page().evaluate(() => {
      location.hash = '#/applications';
    });
    await page().getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
    const create = async (name: string) => {
      await page().getByLabel('Name', { exact: true }).fill(name);
      await page().getByRole('button', { name: 'Create application' }).click();
    };
    const keyOf = (name: string) => page().getByRole('region', { name: `${name} is created` }).getByLabel('Its initial API key');
    await create('Keyed one');
    const secret = await keyOf('Keyed one').inputValue();
    expect(secret).toMatch(/^ghk_/);

    await create('');
    await subsection('Create application').getByRole('alert').waitFor();
    expect(await keyOf('Keyed one').inputValue()).toBe(secret);
    await create('Keyed two');
    await keyOf('Keyed two').waitFor();
    expect(await keyOf('Keyed one').inputValue()).toBe(secret);

    for (const name of ['Keyed one', 'Keyed two']) {
      await page().getByRole('region', { name: `${name} is created` }).getByRole('button', { name: 'I have copied it' }).click();
      await keyOf(name).waitFor({ state: 'detached' });
    }
    expect(await dashboard.unsaved()).toBe(false);
    expect(await page().content()).not.toContain(secret);
  });
});
