import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dashboardSuite, openTab } from '../support/dashboard.ts';

/**
 * Unsaved input on the dashboard in Chromium, beyond the edit forms: every form that only creates asks before another
 * tab, Close or another row drops what was typed in it (declined it stays), asks nothing when nothing was typed or once
 * its thing is made; another search of the users asks before it drops a user's open panel and its draft;
 * a user changed on the server while their panel holds edits keeps the edits and says so, with the new version a
 * click away; and the providers' table names an OAuth provider's preset.
 */
const QUESTION = 'Discard the changes you have not saved?';
const USER = 'ulla@example.com';
let userId: string;

const dashboard = dashboardSuite({
  tab: 'Users',
  setup: async (app) => {
    const acme = await app.createTenant('Acme');
    userId = await app.createUser(USER, acme);
    expect((await app.http.post('/roles', { key: 'auditor', name: 'Auditor', permissions: ['users:read'] })).status).toBe(201);
    for (const [name, provider] of [['Work account', 'google'], ['Code account', 'github']]) {
      const created = await app.http.post('/auth-providers', { type: 'oauth', name, config: { provider, clientId: `${provider}-client` }, secrets: { clientSecret: 'shh' } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
  },
});

const region = (name: string): Locator => dashboard.page.getByRole('region', { name, exact: true });
const tabLink = (name: string): Locator => dashboard.page.getByRole('navigation', { name: 'Application sections' }).getByRole('link', { name, exact: true });
const heading = (name: string): Locator => dashboard.page.getByRole('heading', { level: 2, name, exact: true });

/** Clicks `button`, declines to lose the edits, and expects the question asked. */
async function decline(button: Locator): Promise<void> {
  const asked = dashboard.answerNextDialog('dismiss');
  await button.click();
  expect(await asked).toBe(QUESTION);
}

/** Opens `tab` with no question: one would be dismissed (Playwright's default) and keep the tab shown. */
async function leaveFreely(tab: string): Promise<void> {
  await tabLink(tab).click();
  await heading(tab).waitFor();
}

/** The create forms, each by its tab, its region and a text input of it. */
const CREATE_FORMS = [
  { tab: 'Users', form: 'Create user', input: 'E-mail', typed: 'typed@example.com' },
  { tab: 'Invitations', form: 'Invite', input: 'E-mail', typed: 'invitee@example.com' },
  { tab: 'Operators', form: 'Add an operator', input: 'E-mail', typed: 'operator@example.com' },
  { tab: 'Domains', form: 'Add domain', input: 'Hostname', typed: 'login.example.com' },
  { tab: 'API keys', form: 'Create API key', input: 'Name', typed: 'CI reader' },
  { tab: 'OAuth clients', form: 'Create OAuth client', input: 'Name', typed: 'Shop' },
  { tab: 'M2M credentials', form: 'Create credential', input: 'Name', typed: 'Billing job' },
] as const;

describe('unsaved input of create forms, reloaded lists and changed stored things on the dashboard in Chromium', () => {
  it.each(CREATE_FORMS)('$form asks nothing untouched, asks once typed in: declined the input stays, agreed it goes', async ({ tab, form, input, typed }) => {
    const other = tab === 'Users' ? 'Roles' : 'Users';
    await openTab(dashboard.page, tab);
    const field = region(form).getByLabel(input, { exact: true });
    expect(await dashboard.unsaved()).toBe(false);
    await leaveFreely(other);
    await openTab(dashboard.page, tab);

    await field.fill(typed);
    expect(await dashboard.unsaved()).toBe(true);
    await decline(tabLink(other));
    expect(await heading(tab).isVisible()).toBe(true);
    expect(await field.inputValue()).toBe(typed);

    void dashboard.answerNextDialog();
    await tabLink(other).click();
    await heading(other).waitFor();
    expect(await dashboard.unsaved()).toBe(false);
    await openTab(dashboard.page, tab);
    expect(await field.inputValue()).toBe('');
  });

  it('asks nothing once a create succeeded', async () => {
    await openTab(dashboard.page, 'Domains');
    const form = region('Add domain');
    await form.getByLabel('Hostname', { exact: true }).fill('sso.example.com');
    await form.getByRole('button', { name: 'Add domain' }).click();
    await form.getByRole('status').filter({ hasText: 'sso.example.com is added' }).waitFor();
    expect(await form.getByLabel('Hostname', { exact: true }).inputValue()).toBe('');
    expect(await dashboard.unsaved()).toBe(false);
    await leaveFreely('Users');

    const create = region('Create user');
    await create.getByLabel('E-mail', { exact: true }).fill('made@example.com');
    await create.getByRole('button', { name: 'Create user' }).click();
    await create.getByRole('status').filter({ hasText: 'made@example.com was created' }).waitFor();
    expect(await dashboard.unsaved()).toBe(false);
    await leaveFreely('Roles');
    await openTab(dashboard.page, 'Users');
  });

  it("asks before Close or another user's panel drops a role chosen in a user's Roles panel", async () => {
    await dashboard.page.getByRole('button', { name: `Roles of ${USER}` }).click();
    const panel = region(`Roles of ${USER}`);
    const role = panel.getByLabel('Role', { exact: true });
    await role.waitFor();
    expect(await dashboard.unsaved()).toBe(false);
    await role.selectOption({ label: 'Auditor' });
    expect(await dashboard.unsaved()).toBe(true);

    await decline(panel.getByRole('button', { name: 'Close' }));
    await decline(dashboard.page.getByRole('button', { name: `Details of ${USER}` }));
    expect(await role.inputValue()).not.toBe('');
    expect(await panel.getByRole('option', { name: 'Auditor', selected: true }).count()).toBe(1);

    // Assigned: nothing is left to lose.
    await panel.getByRole('button', { name: 'Assign role' }).click();
    await panel.getByRole('status').filter({ hasText: 'now holds Auditor' }).waitFor();
    expect(await dashboard.unsaved()).toBe(false);
    await panel.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'detached' });
  });

  it("asks before another search drops a user's panel and its draft: declined they stay", async () => {
    await dashboard.page.getByRole('button', { name: `Details of ${USER}` }).click();
    const name = region(`Details of ${USER}`).getByLabel('Name', { exact: true });
    await name.fill('Ulla Draft');

    await dashboard.page.getByLabel('E-mail starts with').fill('made');
    await decline(dashboard.page.getByRole('button', { name: 'Search', exact: true }));
    expect(await name.inputValue()).toBe('Ulla Draft');
    expect(await dashboard.unsaved()).toBe(true);

    void dashboard.answerNextDialog();
    await dashboard.page.getByRole('button', { name: 'Search', exact: true }).click();
    await region(`Details of ${USER}`).waitFor({ state: 'detached' });
    expect(await dashboard.unsaved()).toBe(false);
    await dashboard.page.getByLabel('E-mail starts with').fill('');
    await dashboard.page.getByRole('button', { name: 'Search', exact: true }).click();
    await dashboard.page.getByRole('button', { name: `Details of ${USER}` }).waitFor();
  });

  it('keeps the edits of a user changed on the server meanwhile and says so; the new version replaces them on demand, or unasked without edits', async () => {
    await dashboard.page.getByRole('button', { name: `Details of ${USER}` }).click();
    const panel = region(`Details of ${USER}`);
    const name = panel.getByLabel('Name', { exact: true });
    const notice = panel.getByRole('status').filter({ hasText: "This user's profile was changed elsewhere" });
    await name.fill('Ulla Draft');
    expect((await dashboard.app.http.patch(`/users/${userId}`, { name: 'Ulla Server' })).status).toBe(200);
    // Suspending answers the user as stored now, the new name with it.
    void dashboard.answerNextDialog();
    await panel.getByRole('button', { name: 'Suspend' }).click();
    await panel.getByRole('button', { name: 'Activate' }).waitFor();
    await notice.waitFor();
    expect(await name.inputValue()).toBe('Ulla Draft');
    expect(await dashboard.unsaved()).toBe(true);

    await notice.getByRole('button', { name: 'Load the new version' }).click();
    expect(await name.inputValue()).toBe('Ulla Server');
    expect(await notice.count()).toBe(0);
    expect(await dashboard.unsaved()).toBe(false);

    // Without edits, a newer user replaces the draft without a word.
    expect((await dashboard.app.http.patch(`/users/${userId}`, { name: 'Ulla Third' })).status).toBe(200);
    await panel.getByRole('button', { name: 'Activate' }).click();
    await panel.getByRole('button', { name: 'Suspend' }).waitFor();
    await expect.poll(() => name.inputValue()).toBe('Ulla Third');
    expect(await notice.count()).toBe(0);

    // A save's answer, trimmed by the form, is no change made elsewhere.
    await name.fill('  Ulla Saved  ');
    await panel.getByRole('button', { name: 'Save profile' }).click();
    await panel.getByRole('status').filter({ hasText: `The profile of ${USER} is saved.` }).waitFor();
    expect(await name.inputValue()).toBe('Ulla Saved');
    expect(await notice.count()).toBe(0);
    expect(await dashboard.unsaved()).toBe(false);
    await panel.getByRole('button', { name: 'Close' }).click();
  });

  it("names an OAuth provider's preset in the providers' table", async () => {
    await openTab(dashboard.page, 'Authentication');
    const providers = region('Providers');
    const typeOf = (name: string) => providers.getByRole('row').filter({ has: dashboard.page.getByRole('cell', { name, exact: true }) }).getByRole('rowheader');
    expect(await typeOf('Work account').textContent()).toBe('OAuth: Google');
    expect(await typeOf('Code account').textContent()).toBe('OAuth: GitHub');
  });
});
