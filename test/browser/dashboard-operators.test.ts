import { describe, expect, it } from 'vitest';
import { dashboardSuite, makeOperator, signInToDashboard } from '../support/dashboard.ts';

/**
 * The dashboard's Operators tab in Chromium: the first operator sees themself as Application admin, makes a new operator
 * Tenant admin of Acme (who then manages Acme and no other tenant), is refused the same grant twice, and removes it.
 * Removing their own role, the last Application admin, is asked as theirs and refused. An Application admin who
 * administers no console sees their co-operators' addresses and is told that adding an operator takes one, with no form.
 * The Role choice offers every role, past the API's largest page; the Tenant choice is searched by name.
 * A Tenant admin of one tenant is shown the tenants they administer, each leading to its users
 * (dashboard-tenant-users.test.ts) and its settings (dashboard-tenant-settings.test.ts), and why the dashboard, which
 * manages applications as a whole, offers them no application tab.
 * Screenshots: test-results/dashboard-operators.png, test-results/dashboard-tenant-operator.png.
 */
const NEW_OPERATOR = 'second@ops.example';
/** With the built-in roles, more than the API's largest page (100). */
const MADE_ROLES = Array.from({ length: 100 }, (_, index) => ({ key: `role_${index}`, name: `Role ${index}`, permissions: [] }));
const MANY_TENANTS = Array.from({ length: 30 }, (_, index) => `Branch ${String(index).padStart(2, '0')}`);
let appId: string;
let acme: string;
let globex: string;
/** The new operator's console user, once the dashboard made it. */
let operator: { id: string; application_id: string };
let operatorToken: string;

const operatorAssignments = async () =>
  (await dashboard.app.http.get(`/role-assignments?subjectType=operator&subjectId=${operator.id}`)).body.data as { tenantId: string | null; roleId: string }[];
/** A tenant's users, read with the new operator's token on the managed application. */
const usersOf = (tenantId: string) =>
  dashboard.app.as({ bearer: operatorToken }).get(`/applications/${appId}/tenants/${tenantId}/users`, { headers: { 'x-gatehouse-application': appId } });
const newOperatorRows = () => dashboard.page.getByRole('row', { name: new RegExp(NEW_OPERATOR) });

const dashboard = dashboardSuite({
  tab: 'Operators',
  setup: async (app) => {
    appId = app.root.applicationId;
    acme = await app.createTenant('Acme');
    globex = await app.createTenant('Globex');
    await Promise.all(MADE_ROLES.map((role) => app.http.post('/roles', role)));
    // More tenants than a page of the picker: found by searching, not by scrolling a list of all.
    for (const name of MANY_TENANTS) await app.createTenant(name);
  },
});

describe('the Operators tab of the dashboard in Chromium', () => {
  it('lists the first operator, Application admin application-wide', async () => {
    const row = dashboard.page.getByRole('row', { name: /ops@example\.com/ });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(['Application admin', 'Application-wide', 'Remove']);
  });

  it('offers every role, the built-in ones and the 100 made, in its Role choice', async () => {
    const offered = await dashboard.page.getByLabel('Role').locator('option').allTextContents();
    expect(offered).toEqual(expect.arrayContaining(MADE_ROLES.map((role) => role.name)));
    expect(offered).toHaveLength(MADE_ROLES.length + 3);
  });

  it('adds a new operator as Tenant admin of Acme, made in the console without a password', async () => {
    await dashboard.page.getByLabel('E-mail').fill(NEW_OPERATOR);
    await dashboard.page.getByLabel('Role').selectOption({ label: 'Tenant admin' });
    await dashboard.page.getByLabel('Tenant', { exact: true }).selectOption({ label: 'Acme' });
    await dashboard.page.getByRole('button', { name: 'Add operator' }).click();
    await dashboard.page.getByRole('status').filter({ hasText: `${NEW_OPERATOR} is now Tenant admin (Acme).` }).waitFor();
    await newOperatorRows().waitFor();
    expect(await newOperatorRows().getByRole('cell').allTextContents()).toEqual(['Tenant admin', 'Acme', 'Remove']);
    expect(await dashboard.page.getByText('Forgot your password?').count()).toBe(1);
    await dashboard.page.screenshot({ path: 'test-results/dashboard-operators.png', fullPage: true });

    const users = await dashboard.app.gatehouse.services.orm.em.getConnection().execute<{ id: string; application_id: string; password_hash: string | null }[]>(
      'select id, application_id, password_hash from app_user where email = ?',
      [NEW_OPERATOR],
    );
    expect(users).toMatchObject([{ password_hash: null }]);
    operator = users[0]!;
    const tenantAdmin = (await dashboard.app.http.get('/roles')).body.data.find((role: { key: string }) => role.key === 'tenant_admin');
    expect(await operatorAssignments()).toMatchObject([{ tenantId: acme, roleId: tenantAdmin.id }]);
    operatorToken = await dashboard.app.mintAccessToken({ sub: operator.id, app_id: operator.application_id });
  });

  it('shows the refusal of the same grant again and leaves the list as it was', async () => {
    await dashboard.page.getByLabel('E-mail').fill(NEW_OPERATOR);
    await dashboard.page.getByRole('button', { name: 'Add operator' }).click();
    await dashboard.page.getByRole('alert').filter({ hasText: 'already exists' }).waitFor();
    expect(await newOperatorRows().count()).toBe(1);
    expect(await operatorAssignments()).toHaveLength(1);
  });

  it("finds the tenant of a grant by searching the tenants' names, as the other tenant pickers do", async () => {
    const form = dashboard.page.getByRole('region', { name: 'Add an operator' });
    await form.getByLabel('Name or slug starts with').fill('Branch 2');
    const tenant = form.getByLabel('Tenant', { exact: true });
    await expect.poll(async () => (await tenant.locator('option').allTextContents()).filter((name) => name.startsWith('Branch'))).toEqual(MANY_TENANTS.filter((name) => name.startsWith('Branch 2')));
    await form.getByLabel('E-mail').fill('branch@ops.example');
    await form.getByLabel('Role').selectOption({ label: 'Tenant admin' });
    await tenant.selectOption({ label: 'Branch 23' });
    await form.getByRole('button', { name: 'Add operator' }).click();
    await form.getByRole('status').filter({ hasText: 'branch@ops.example is now Tenant admin (Branch 23).' }).waitFor();
    const row = dashboard.page.getByRole('row', { name: /branch@ops\.example/ });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(['Tenant admin', 'Branch 23', 'Remove']);
    await form.getByLabel('Name or slug starts with').fill('');
    // "All tenants" stays the first choice.
    expect(await tenant.locator('option').first().textContent()).toBe('All tenants');
  });

  it("lets the new operator manage Acme's users and no other tenant's", async () => {
    expect((await usersOf(acme)).status).toBe(200);
    expect((await usersOf(globex)).status).toBe(403);
  });

  it('removes the grant once the operator confirms', async () => {
    const asked = dashboard.answerNextDialog();
    await newOperatorRows().getByRole('button', { name: 'Remove' }).click();
    await newOperatorRows().waitFor({ state: 'detached' });
    expect(await asked).toContain(`Remove ${NEW_OPERATOR}'s role Tenant admin (Acme)?`);
    await dashboard.page.getByRole('row', { name: /ops@example\.com/ }).waitFor();
    expect(await operatorAssignments()).toEqual([]);
    expect((await usersOf(acme)).status).toBe(403);
  });

  it('says removing your own role is you, and keeps the last Application admin', async () => {
    const own = dashboard.page.getByRole('row', { name: /ops@example\.com/ });
    const asked = dashboard.answerNextDialog();
    await own.getByRole('button', { name: 'Remove' }).click();
    expect(await asked).toContain('This is you: you will no longer manage this application through it.');
    await own.getByRole('alert').filter({ hasText: 'last Application admin' }).waitFor();
    expect(await own.getByRole('cell').first().textContent()).toBe('Application admin');
  });

  it('shows an Application admin who administers no console their co-operators’ addresses, and tells them adding an operator takes one instead of offering it', async () => {
    const { app } = dashboard;
    const appAdmin = { email: 'app-admin@ops.example', password: 'Operator-Heron-42' };
    await makeOperator(app, appAdmin, 'app_admin');
    const assignmentsBefore = (await app.http.get('/role-assignments?subjectType=operator')).body.data;

    const context = await dashboard.page.context().browser()!.newContext();
    try {
      const theirs = await context.newPage();
      await signInToDashboard(theirs, app.gatehouse.services.config.publicUrl, { ...appAdmin, at: `#/${appId}/operators` });
      // Their co-operators are named by address, read from the application, though the console's users are not theirs.
      await theirs.getByRole('row', { name: /ops@example\.com/ }).waitFor();
      await theirs.getByRole('row', { name: /app-admin@ops\.example/ }).waitFor();
      await theirs.getByText('Adding an operator takes an administrator of the organization’s console, where the operators’ accounts are kept.').waitFor();
      expect(await theirs.getByRole('button', { name: 'Add operator' }).count()).toBe(0);
      expect(await theirs.getByRole('region', { name: 'Add an operator' }).count()).toBe(0);
      // Their own role they may still remove: the table's actions are the application's.
      expect(await theirs.getByRole('button', { name: /^Remove/ }).count()).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
    expect((await app.http.get('/role-assignments?subjectType=operator')).body.data).toEqual(assignmentsBefore);
  });

  it('shows a Tenant admin of Acme the tenants they administer, with their users, and why the application-wide tabs are not theirs, none failing', async () => {
    const { app } = dashboard;
    const tenantAdmin = { email: 'tenant-admin@ops.example', password: 'Operator-Egret-42' };
    await makeOperator(app, tenantAdmin, 'tenant_admin', acme);

    const context = await dashboard.page.context().browser()!.newContext();
    try {
      const theirs = await context.newPage();
      await signInToDashboard(theirs, app.gatehouse.services.config.publicUrl, tenantAdmin);
      await theirs.getByRole('heading', { level: 1, name: 'My application' }).waitFor();
      const held = theirs.getByRole('list', { name: 'Tenants in which you hold a role' });
      await held.waitFor();
      await held.getByRole('link', { name: 'Authentication of Acme' }).waitFor();
      expect(await held.getByText(acme).count()).toBe(1);
      expect(await held.getByRole('link').allTextContents()).toEqual(['Users of Acme', 'Sessions of Acme', 'Branding of Acme', 'E-mail of Acme', 'Authentication of Acme', 'Audit log of Acme']);
      expect(await theirs.getByRole('region', { name: 'Your tenants' }).getByRole('paragraph').textContent()).toBe(
        "The dashboard manages an application as a whole, which takes a role held application-wide; in your tenants it manages their users, invitations and sessions, their branding, e-mail and authentication where the application lets each tenant have its own, their custom domains while authentication is isolated, and their audit log, as your permissions there allow. " +
          `The rest of your tenants is managed through the API's tenant paths, /applications/${appId}/tenants/{tenantId}/….`,
      );
      expect(await theirs.getByRole('navigation', { name: 'Application sections' }).count()).toBe(0);
      await theirs.screenshot({ path: 'test-results/dashboard-tenant-operator.png', fullPage: true });
      expect(await theirs.getByText('Missing permission').count()).toBe(0);
      expect(await theirs.getByRole('alert').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
