import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dashboardSuite, openTab } from '../support/dashboard.ts';

/**
 * The dashboard's Roles tab and the users' roles panel in Chromium: the operator creates a custom role with
 * `users:read` (refused with a taken key or a permission deleted meanwhile, creating nothing), gives it to a user in a
 * tenant, is refused the same grant twice, removes it, edits the role's permissions and deletes it with the assignments
 * it had; the built-in roles offer no edit or delete. It creates a permission of a tenant's own (refused for a key of
 * the management API's resources) and deletes one, which the roles that gave it lose. Screenshots:
 * test-results/dashboard-roles-*.png.
 */
const USER = 'uma@example.com';
let acme: string;
let userId: string;
let invoicesApprove: string;
/** The custom role, once the dashboard made it. */
let supportId: string;

interface RoleBody {
  id: string;
  key: string;
  name: string;
  description: string;
  permissions: string[];
  tenantId: string | null;
  builtIn: boolean;
}

const roles = async () => (await dashboard.app.http.get('/roles')).body.data as RoleBody[];
const userAssignments = async () =>
  (await dashboard.app.http.get(`/role-assignments?subjectType=user&subjectId=${userId}`)).body.data as { roleId: string; tenantId: string | null }[];
const region = (name: string): Locator => dashboard.page.getByRole('region', { name, exact: true });
const roleRow = (name: string): Locator => region('Roles').getByRole('row', { name: new RegExp(`^${name} `) });
const checkbox = (form: Locator, resource: string, action: string): Locator =>
  form.getByRole('group', { name: resource, exact: true }).getByRole('checkbox', { name: action, exact: true });

const dashboard = dashboardSuite({
  tab: 'Roles',
  setup: async (app) => {
    acme = await app.createTenant('Acme');
    await app.createTenant('Globex');
    userId = await app.createUser(USER, acme);
    const permission = await app.http.post('/permissions', { key: 'invoices:approve', description: 'Approve invoices' });
    expect(permission.status).toBe(201);
    invoicesApprove = permission.body.id;
  },
});

describe('the Roles tab and the users’ roles in Chromium', () => {
  it('shows the built-in roles read-only', async () => {
    for (const name of ['Application admin', 'Tenant admin', 'Member']) {
      const row = roleRow(name);
      await row.waitFor();
      expect(await row.getByRole('cell', { name: 'Built-in', exact: true }).count()).toBe(1);
      expect(await row.getByRole('button', { name: /^(Edit|Delete)/ }).count()).toBe(0);
    }
    expect(await roleRow('Application admin').getByRole('cell', { name: '*', exact: true }).count()).toBe(1);
  });

  it('creates a custom role with users:read', async () => {
    const form = region('Create role');
    await form.getByLabel('Key').fill('support');
    await form.getByLabel('Name').fill('Support');
    await form.getByLabel('Description').fill('Answers users');
    await checkbox(form, 'users', 'read').check();
    await dashboard.page.screenshot({ path: 'test-results/dashboard-roles-create.png', fullPage: true });
    await form.getByRole('button', { name: 'Create role', exact: true }).click();
    await form.getByRole('status').filter({ hasText: 'Role Support created.' }).waitFor();
    await roleRow('Support').waitFor();
    expect((await roleRow('Support').getByRole('cell').allTextContents()).slice(0, -1)).toEqual(['support', 'Answers users', 'users:read', 'Custom', 'Application-wide']);
    expect(await roleRow('Support').getByRole('button').allTextContents()).toEqual(['Edit Support', 'Delete Support']);
    // The form is ready for the next role.
    expect(await form.getByLabel('Key').inputValue()).toBe('');
    expect(await checkbox(form, 'users', 'read').isChecked()).toBe(false);

    const support = (await roles()).find((role) => role.key === 'support');
    expect(support).toMatchObject({ name: 'Support', description: 'Answers users', permissions: ['users:read'], tenantId: null, builtIn: false });
    supportId = support!.id;
  });

  it("shows the server's refusal of a taken key and creates nothing", async () => {
    const form = region('Create role');
    await form.getByLabel('Key').fill('support');
    await form.getByLabel('Name').fill('Support again');
    await checkbox(form, 'users', 'read').check();
    await form.getByRole('button', { name: 'Create role', exact: true }).click();
    await form.getByRole('alert').filter({ hasText: 'Role "support" already exists in this application or tenant' }).waitFor();
    expect((await roles()).filter((role) => role.key === 'support')).toHaveLength(1);
    expect(await roleRow('Support again').count()).toBe(0);
  });

  it("shows the server's Markdown code spans (`_`) as code, not as backticks, and creates nothing", async () => {
    const form = region('Create role');
    await form.getByLabel('Key').fill('Bad Key');
    await form.getByLabel('Name').fill('Bad key');
    await form.getByRole('button', { name: 'Create role', exact: true }).click();
    const refusal = form.getByRole('alert').filter({ hasText: /^Key must be 1 to 64 lower-case letters, digits, _ or -$/ });
    await refusal.waitFor();
    expect(await refusal.locator('code').allTextContents()).toEqual(['_', '-']);
    // Described by the message, the input reads it as shown.
    expect(await form.getByLabel('Key').getAttribute('aria-invalid')).toBe('true');
    expect((await roles()).map((role) => role.name)).not.toContain('Bad key');
    await form.getByLabel('Key').fill('');
  });

  it("shows the server's refusal of a permission deleted since the tab opened and creates nothing", async () => {
    const form = region('Create role');
    await form.getByLabel('Key').fill('billing');
    await form.getByLabel('Name').fill('Billing');
    await checkbox(form, 'users', 'read').uncheck();
    await checkbox(form, 'invoices', 'approve').check();
    expect((await dashboard.app.http.delete(`/permissions/${invoicesApprove}`)).status).toBe(204);
    await form.getByRole('button', { name: 'Create role', exact: true }).click();
    await form.getByRole('alert').filter({ hasText: 'Unknown permission "invoices:approve"' }).waitFor();
    // The refusal names the list (`permissions`), which is marked as a refused field is.
    expect(await form.getByRole('group', { name: 'Permissions', exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect((await roles()).map((role) => role.key)).not.toContain('billing');
    expect(await roleRow('Billing').count()).toBe(0);
  });

  it("gives the role to a user in one of the user's tenants, and refuses the same grant twice", async () => {
    // The refused role above is unsaved: another tab drops it once the operator agrees.
    const asked = dashboard.answerNextDialog();
    await openTab(dashboard.page, 'Users');
    expect(await asked).toBe('Discard the changes you have not saved?');
    await dashboard.page.getByRole('row', { name: new RegExp(USER) }).getByRole('button', { name: `Roles of ${USER}` }).click();
    const panel = region(`Roles of ${USER}`);
    await panel.getByText(`${USER} holds no role.`).waitFor();
    // Only the user's own tenant is offered.
    expect(await panel.getByLabel('Tenant').locator('option').allTextContents()).toEqual(['All tenants', 'Acme']);
    await panel.getByLabel('Role').selectOption({ label: 'Support' });
    await panel.getByLabel('Tenant').selectOption({ label: 'Acme' });
    await panel.getByRole('button', { name: 'Assign role' }).click();
    await panel.getByRole('status').filter({ hasText: `${USER} now holds Support (Acme).` }).waitFor();
    const row = panel.getByRole('row', { name: /^Support/ });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(['Acme', 'Remove']);
    await dashboard.page.screenshot({ path: 'test-results/dashboard-roles-user.png', fullPage: true });
    expect(await userAssignments()).toMatchObject([{ roleId: supportId, tenantId: acme }]);

    await panel.getByRole('button', { name: 'Assign role' }).click();
    await panel.getByRole('alert').filter({ hasText: 'already exists' }).waitFor();
    expect(await panel.getByRole('row', { name: /^Support/ }).count()).toBe(1);
    expect(await userAssignments()).toHaveLength(1);
  });

  it('removes the assignment once the operator confirms', async () => {
    const panel = region(`Roles of ${USER}`);
    const question = dashboard.answerNextDialog();
    await panel.getByRole('row', { name: /^Support/ }).getByRole('button', { name: 'Remove' }).click();
    await panel.getByText(`${USER} holds no role.`).waitFor();
    expect(await question).toBe(`Remove ${USER}'s role Support (Acme)? The permissions it gives there are lost.`);
    expect(await userAssignments()).toEqual([]);
  });

  it("edits the custom role's description and permissions", async () => {
    await openTab(dashboard.page, 'Roles');
    await roleRow('Support').getByRole('button', { name: 'Edit Support' }).click();
    const form = region('Edit Support');
    expect(await checkbox(form, 'users', 'read').isChecked()).toBe(true);
    await form.getByLabel('Description').fill('Answers and edits users');
    await checkbox(form, 'users', 'write').check();
    await form.getByRole('button', { name: 'Save role' }).click();
    await form.getByRole('status').filter({ hasText: 'Role Support saved.' }).waitFor();
    await roleRow('Support').getByText('users:write').waitFor();
    expect(await roleRow('Support').getByRole('cell').nth(1).textContent()).toBe('Answers and edits users');

    const support = (await dashboard.app.http.get(`/roles/${supportId}`)).body as RoleBody;
    expect(support.description).toBe('Answers and edits users');
    expect([...support.permissions].sort()).toEqual(['users:read', 'users:write']);
    await form.getByRole('button', { name: 'Close' }).click();
    expect(await form.count()).toBe(0);
  });

  it('deletes the custom role and its assignments once the operator confirms', async () => {
    const assignment = await dashboard.app.http.post('/role-assignments', { subject: { type: 'user', id: userId }, roleId: supportId, tenantId: acme });
    expect(assignment.status).toBe(201);
    const question = dashboard.answerNextDialog();
    await roleRow('Support').getByRole('button', { name: 'Delete Support' }).click();
    await roleRow('Support').waitFor({ state: 'detached' });
    expect(await question).toMatch(/^Delete the role Support\? Its assignments are deleted with it/);
    await roleRow('Member').waitFor();
    expect((await dashboard.app.http.get(`/roles/${supportId}`)).status).toBe(404);
    expect(await userAssignments()).toEqual([]);
  });
});

describe('the application’s own permissions on the Roles tab, in Chromium', () => {
  const permissions = async () => (await dashboard.app.http.get('/permissions?pageSize=100')).body.data as { id: string; key: string; builtIn: boolean; tenantId: string | null }[];
  const customKeys = async () => (await permissions()).filter((permission) => !permission.builtIn).map((permission) => permission.key);
  const permissionRow = (key: string): Locator => region('Custom permissions').getByRole('row', { name: new RegExp(`^${key} `) });

  it("shows the server's refusal of a key of the management API's resources, and creates nothing", async () => {
    const form = region('Create permission');
    await form.getByLabel('Key').fill('users:approve');
    await form.getByRole('button', { name: 'Create permission' }).click();
    await form.getByRole('alert').waitFor();
    expect(await form.getByLabel('Key').getAttribute('aria-invalid')).toBe('true');
    expect(await customKeys()).not.toContain('users:approve');
  });

  it("creates a permission of Acme's own, listed at once and offered to Acme's roles", async () => {
    const form = region('Create permission');
    await form.getByLabel('Key').fill('reports:export');
    await form.getByLabel('Description (optional)').fill('Export reports');
    await form.getByLabel('Tenant').selectOption({ label: "Acme's own" });
    await form.getByRole('button', { name: 'Create permission' }).click();
    await form.getByRole('status').filter({ hasText: 'Permission reports:export created: roles may give it now.' }).waitFor();
    await permissionRow('reports:export').waitFor();
    expect(await permissionRow('reports:export').getByRole('cell').allTextContents()).toEqual(['Export reports', 'Acme', 'Delete reports:export']);
    expect((await permissions()).find((permission) => permission.key === 'reports:export')).toMatchObject({ tenantId: acme, builtIn: false });
    const roleForm = region('Create role');
    await roleForm.getByLabel('Tenant').selectOption({ label: "Acme's own" });
    await checkbox(roleForm, 'reports', 'export').waitFor();
    await roleForm.getByLabel('Tenant').selectOption({ label: 'Application-wide' });
    expect(await roleForm.getByRole('group', { name: 'reports', exact: true }).count()).toBe(0);
  });

  it('deletes a permission once confirmed, which the roles that gave it lose; a dismissed confirmation deletes nothing', async () => {
    const created = await dashboard.app.http.post('/permissions', { key: 'invoices:void', description: 'Void invoices' });
    expect(created.status).toBe(201);
    const role = await dashboard.app.http.post('/roles', { key: 'voider', name: 'Voider', permissions: ['invoices:void', 'users:read'] });
    expect(role.status).toBe(201);
    // Read again as the operator comes back to the page.
    await dashboard.comeBack();
    await roleRow('Voider').getByText('invoices:void').waitFor();
    const dismissed = dashboard.answerNextDialog('dismiss');
    await permissionRow('invoices:void').getByRole('button', { name: 'Delete invoices:void' }).click();
    expect(await dismissed).toBe('Delete the permission invoices:void? Every role that gives it loses it, and API resources no longer list it: tokens stop carrying it.');
    expect(await customKeys()).toContain('invoices:void');

    const confirmed = dashboard.answerNextDialog();
    await permissionRow('invoices:void').getByRole('button', { name: 'Delete invoices:void' }).click();
    await confirmed;
    await permissionRow('invoices:void').waitFor({ state: 'detached' });
    await roleRow('Voider').getByText('invoices:void').waitFor({ state: 'detached' });
    expect(await customKeys()).not.toContain('invoices:void');
    expect((await dashboard.app.http.get(`/roles/${role.body.id as string}`)).body.permissions).toEqual(['users:read']);
    expect(await dashboard.page.getByRole('alert').count()).toBe(0);
  });
});
