import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dashboardSuite, openTab } from '../support/dashboard.ts';

/**
 * Unsaved edits on the dashboard in Chromium: a policy's draft and an auth provider's (a new one's typed fields, an
 * edited one's secret) stay when the operator declines to lose them to another tab, go when they agree, and once saved
 * no longer count; a move inside one part of the page (another policy to edit, Cancel) asks about that part's form
 * alone. A refused list of checkboxes (an API key's permissions, an invitation's roles) is marked as a refused input is.
 */
const QUESTION = 'Discard the changes you have not saved?';
let appId: string;

const dashboard = dashboardSuite({
  tab: 'Authentication',
  setup: async (app) => {
    appId = app.root.applicationId;
    await app.createTenant('Acme');
  },
});

const region = (name: string): Locator => dashboard.page.getByRole('region', { name, exact: true });
const field = (section: string, label: string): Locator => region(section).getByLabel(label, { exact: true });
const tabLink = (name: string): Locator => dashboard.page.getByRole('navigation', { name: 'Application sections' }).getByRole('link', { name, exact: true });
const heading = (name: string): Locator => dashboard.page.getByRole('heading', { level: 2, name });
const get = async (path: string) => (await dashboard.app.http.get(`/applications/${appId}${path}`)).body;

/** Clicks another tab, declines to lose the edits, and stays on `tab`. */
async function declineToLeave(tab: string): Promise<void> {
  const asked = dashboard.answerNextDialog('dismiss');
  await tabLink('Users').click();
  expect(await asked).toBe(QUESTION);
  expect(await heading(tab).isVisible()).toBe(true);
}

/** The fieldset `group` marks the refusal `message`: invalid, described by it and focused. */
async function expectListMarked(group: Locator, message: string): Promise<void> {
  await dashboard.page.getByRole('alert').filter({ hasText: message }).waitFor();
  await expect.poll(() => group.getAttribute('aria-invalid')).toBe('true');
  const describedBy = (await group.getAttribute('aria-describedby')) ?? '';
  expect(await dashboard.page.locator(`[id="${describedBy}"]`).textContent()).toContain(message);
  expect(await group.evaluate((element) => element === document.activeElement)).toBe(true);
}

describe('unsaved edits and refused checkbox lists on the dashboard in Chromium', () => {
  it('asks before another tab or another policy drops an edited policy: declined it stays, agreed it goes', async () => {
    const stored = (await get('/policies/password')).minLength;
    expect(await dashboard.unsaved()).toBe(false);
    await field('Change a policy', 'Minimum length').fill('14');
    expect(await dashboard.unsaved()).toBe(true);

    await declineToLeave('Authentication');
    const asked = dashboard.answerNextDialog('dismiss');
    await field('Change a policy', 'Policy to edit').selectOption({ label: 'Session' });
    expect(await asked).toBe(QUESTION);
    expect(await field('Change a policy', 'Policy to edit').inputValue()).toBe('password');
    expect(await field('Change a policy', 'Minimum length').inputValue()).toBe('14');

    void dashboard.answerNextDialog();
    await tabLink('Users').click();
    await heading('Users').waitFor();
    expect(await dashboard.unsaved()).toBe(false);
    await openTab(dashboard.page, 'Authentication');
    expect(await field('Change a policy', 'Minimum length').inputValue()).toBe(String(stored));
    expect((await get('/policies/password')).minLength).toBe(stored);
  });

  it('a saved policy no longer asks', async () => {
    await field('Change a policy', 'Minimum length').fill('13');
    await region('Change a policy').getByRole('button', { name: 'Save policy' }).click();
    await region('Change a policy').getByRole('status').filter({ hasText: 'Saved the Password policy.' }).waitFor();
    expect(await dashboard.unsaved()).toBe(false);
    // No question: one would be dismissed (Playwright's default) and keep the policy shown.
    await field('Change a policy', 'Policy to edit').selectOption({ label: 'Session' });
    expect(await field('Change a policy', 'Policy to edit').inputValue()).toBe('session');
    await field('Change a policy', 'Policy to edit').selectOption({ label: 'Password' });
    await openTab(dashboard.page, 'Users');
    await openTab(dashboard.page, 'Authentication');
    expect(await field('Change a policy', 'Minimum length').inputValue()).toBe('13');
  });

  it('asks before another tab drops a new provider, but not before another policy; once added it no longer asks', async () => {
    await field('Add a provider', 'Type').selectOption({ label: 'OAuth' });
    expect(await dashboard.unsaved()).toBe(false);
    await field('Add a provider', 'Client ID').fill('google-client-1');
    expect(await dashboard.unsaved()).toBe(true);
    await declineToLeave('Authentication');
    expect(await field('Add a provider', 'Client ID').inputValue()).toBe('google-client-1');

    // The policy editor drops only its own form: no question (a dismissed one would keep Password).
    await field('Change a policy', 'Policy to edit').selectOption({ label: 'Session' });
    expect(await field('Change a policy', 'Policy to edit').inputValue()).toBe('session');
    // Its type changed, the new provider's form starts afresh: that asks.
    const asked = dashboard.answerNextDialog('dismiss');
    await field('Add a provider', 'Type').selectOption({ label: 'Magic link' });
    expect(await asked).toBe(QUESTION);
    expect(await field('Add a provider', 'Type').inputValue()).toBe('oauth');

    await field('Add a provider', 'Client secret').fill('google-secret-1');
    await region('Add a provider').getByRole('button', { name: 'Add provider' }).click();
    await region('Add a provider').getByRole('status').filter({ hasText: 'Added the Google provider.' }).waitFor();
    expect(await field('Add a provider', 'Client ID').inputValue()).toBe('');
    expect(await dashboard.unsaved()).toBe(false);
    await openTab(dashboard.page, 'Users');
    await openTab(dashboard.page, 'Authentication');
  });

  it("asks before another tab or Cancel drops a provider's edit, a typed secret alone included; once saved it no longer asks", async () => {
    const row = region('Providers').getByRole('row').filter({ has: dashboard.page.getByRole('cell', { name: 'Google', exact: true }) });
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = region('Edit Google');
    await edit.waitFor();
    expect(await dashboard.unsaved()).toBe(false);
    await field('Edit Google', 'Client secret').fill('google-secret-2');
    expect(await dashboard.unsaved()).toBe(true);

    await declineToLeave('Authentication');
    const asked = dashboard.answerNextDialog('dismiss');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    expect(await asked).toBe(QUESTION);
    expect(await field('Edit Google', 'Client secret').inputValue()).toBe('google-secret-2');

    await field('Edit Google', 'Scopes').fill('openid email');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    const google = async () => ((await get('/auth-providers')).data as { type: string; config: { scopes: string[] } }[]).find((provider) => provider.type === 'oauth');
    expect(await google()).toMatchObject({ config: { clientId: 'google-client-1', scopes: ['openid', 'email'] }, secretsSet: ['clientSecret'] });
    expect(await dashboard.unsaved()).toBe(false);
    await openTab(dashboard.page, 'Users');

    // Edited again and agreed to lose: the provider stays as saved.
    await openTab(dashboard.page, 'Authentication');
    await row.getByRole('button', { name: 'Edit' }).click();
    await field('Edit Google', 'Scopes').fill('openid');
    void dashboard.answerNextDialog();
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await edit.waitFor({ state: 'detached' });
    expect(await dashboard.unsaved()).toBe(false);
    expect((await google())?.config.scopes).toEqual(['openid', 'email']);
  });

  it('marks the permissions of an API key refused for holding none, until a box is checked', async () => {
    await openTab(dashboard.page, 'API keys');
    const form = region('Create API key');
    const permissions = form.getByRole('group', { name: 'Permissions', exact: true });
    await form.getByLabel('Name', { exact: true }).fill('CI writer');
    await form.getByRole('button', { name: 'Create API key' }).click();
    await expectListMarked(permissions, 'Permissions must name at least one permission');
    expect(await form.locator('[aria-invalid="true"]').count()).toBe(1);

    await form.getByRole('checkbox', { name: 'users:write', exact: true }).check();
    await expect.poll(() => permissions.getAttribute('aria-invalid')).toBeNull();
    expect(await permissions.getAttribute('aria-describedby')).toBeNull();

    // The key typed in was never made: leaving its form asks, and is agreed to.
    const asked = dashboard.answerNextDialog();
    await tabLink('Users').click();
    expect(await asked).toBe(QUESTION);
    await heading('Users').waitFor();
  });

  it("marks the roles of an invitation refused for a role deleted meanwhile", async () => {
    const created = await dashboard.app.http.post('/roles', { key: 'auditor', name: 'Auditor', permissions: ['users:read'] });
    expect(created.status).toBe(201);
    await openTab(dashboard.page, 'Invitations');
    await dashboard.page.getByLabel('E-mail').fill('invitee@example.com');
    await dashboard.page.getByLabel('Tenant', { exact: true }).selectOption({ label: 'Acme' });
    await dashboard.page.getByRole('checkbox', { name: 'Auditor' }).check();
    expect((await dashboard.app.http.delete(`/roles/${created.body.id}`)).status).toBe(204);
    await dashboard.page.getByRole('button', { name: 'Invite', exact: true }).click();
    const roles = dashboard.page.getByRole('group', { name: 'Roles (optional)' });
    await expectListMarked(roles, 'Role not found');

    await dashboard.page.getByRole('checkbox', { name: 'Auditor' }).uncheck();
    await expect.poll(() => roles.getAttribute('aria-invalid')).toBeNull();
  });
});
