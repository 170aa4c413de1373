import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/auth/permissions.ts';
import { asOperator, dashboardSuite, giveConsoleRole, makeOperator, offered, openTab } from '../support/dashboard.ts';

/**
 * The actions of the application's tabs follow the permissions the operator holds there (OPERATION_PERMISSIONS): a
 * reader of everything is offered none of them, on any tab, and sees the values the write-only forms would change;
 * an Application admin is offered each, and one taken works. An application-wide credential's roles panel picks its
 * tenant with the searching tenant picker.
 */
const READER = { email: 'reader@ops.example', password: 'Operator-Heron-42' };
const ADMIN = { email: 'admin@ops.example', password: 'Operator-Egret-42' };
const KEY_READER = { email: 'keys@ops.example', password: 'Operator-Plover-42' };
const GRANT_WRITER = { email: 'grants@ops.example', password: 'Operator-Avocet-42' };
const KEY = 'Build key';
const CREDENTIAL = 'Invoice worker';
const CLIENT = 'Portal';
const ROLE = 'Auditor';
const RESOURCE = 'Billing API';
let acme: string;
let keyId: string;
let auditorId: string;

const suite = dashboardSuite({
  setup: async (app) => {
    acme = await app.createTenant('Acme');
    await app.createTenant('Globex');
    const reads = ALL_PERMISSIONS.filter((permission) => permission.endsWith(':read'));
    expect((await app.http.post('/roles', { key: 'reader', name: 'Reader', permissions: reads })).status).toBe(201);
    const auditor = await app.http.post('/roles', { key: 'auditor', name: ROLE, permissions: ['audit_logs:read'] });
    expect(auditor.status).toBe(201);
    auditorId = auditor.body.id;
    await makeOperator(app, READER, 'reader');
    // Adding an operator also takes the console's users:* (their accounts are kept there).
    await giveConsoleRole(app, await makeOperator(app, ADMIN, 'app_admin'), 'app_admin');
    const keyReads = ['api_keys:read', 'm2m_credentials:read', 'applications:read', 'tenants:read'];
    expect((await app.http.post('/roles', { key: 'key_reader', name: 'Key reader', permissions: keyReads })).status).toBe(201);
    await makeOperator(app, KEY_READER, 'key_reader');
    // Writes whose forms choose among the permissions, without permissions:read.
    const grantWrites = ['api_keys', 'm2m_credentials', 'roles', 'api_resources'].flatMap((resource) => [`${resource}:read`, `${resource}:write`]);
    const grantWriter = { key: 'grant_writer', name: 'Grant writer', permissions: [...grantWrites, 'applications:read', 'tenants:read'] };
    expect((await app.http.post('/roles', grantWriter)).status).toBe(201);
    await makeOperator(app, GRANT_WRITER, 'grant_writer');
    const key = await app.http.post('/api-keys', { name: KEY, permissions: ['users:read'] });
    expect(key.status).toBe(201);
    keyId = key.body.key.id;
    expect((await app.http.post('/m2m-credentials', { name: CREDENTIAL, permissions: ['users:read'], authMethod: 'client_secret_basic' })).status).toBe(201);
    expect((await app.http.post('/api-resources', { identifier: 'https://billing.example.com', name: RESOURCE })).status).toBe(201);
    expect((await app.http.post('/oauth-clients', { name: CLIENT, type: 'web', redirectUris: ['https://portal.example/cb'] })).status).toBe(201);
  },
});

const as = (account: { email: string; password: string }, use: (page: Page) => Promise<void>) =>
  asOperator(suite.page, suite.app.gatehouse.services.config.publicUrl, account, use);

const BACK = 'All applications';

/**
 * The tabs walked, each with every button a reader of everything is shown there (disabled ones too: an action is
 * hidden, not disabled; each left reads), and some of the actions an Application admin is offered there.
 */
const TABS: readonly (readonly [tab: string, reads: readonly string[], writes: readonly string[]])[] = [
  ['Tenants', [BACK], ['Save Branding', 'Rename Acme', 'Delete Acme', 'Create tenant']],
  ['Branding', [BACK], ['Save']],
  ['E-mail', [BACK, 'Refresh'], ['Save template', 'Save provider']],
  ['Authentication', [BACK], ['Edit', 'Add provider', 'Save policy']],
  ['Roles', [BACK], ['Edit Auditor', 'Delete Auditor', 'Create role']],
  ['Operators', [BACK], ['Remove', 'Add operator']],
  ['API keys', [BACK, 'Roles of Bootstrap app_admin key', `Roles of ${KEY}`], ['Rotate', 'Revoke', 'Create API key']],
  ['OAuth clients', [BACK], ['Edit', 'Rotate secret', 'Delete', 'Create OAuth client']],
  ['API resources', [BACK], [`Edit ${RESOURCE}`, `Delete ${RESOURCE}`, 'Create API resource']],
  ['M2M credentials', [BACK, `Roles of ${CREDENTIAL}`], ['Rotate', 'Revoke', 'Create credential']],
  ['Settings', [BACK], ['Save settings', 'Delete application']],
];

/** Opens `tab` and waits for its reads: its buttons, in page order. */
async function buttonsOn(page: Page, tab: string): Promise<{ main: Locator; buttons: string[] }> {
  await openTab(page, tab);
  const main = page.getByRole('main');
  await main.locator('.loading').first().waitFor({ state: 'detached' });
  expect(await page.getByRole('alert').allTextContents(), tab).toEqual([]);
  return { main, buttons: (await main.getByRole('button').allTextContents()).map((text) => text.trim()) };
}

describe('the actions the dashboard offers on each tab, in Chromium', () => {
  it('offers an operator who may read everything no action on any tab, and shows the settings as values', async () => {
    await as(READER, async (page) => {
      await page.getByRole('navigation', { name: 'Application sections' }).waitFor();
      for (const [tab, reads] of TABS) expect((await buttonsOn(page, tab)).buttons, tab).toEqual(reads);
      const { main } = await buttonsOn(page, 'Settings');
      expect(await main.getByRole('textbox').count()).toBe(0);
      expect(await main.getByRole('definition').allTextContents()).toContain('My application');
      // The tenancy switches, as values.
      await buttonsOn(page, 'Tenants');
      expect(await main.getByRole('radio').count()).toBe(0);
      expect(await main.getByRole('definition').allTextContents()).toEqual(['Application', 'Application', 'Application', 'Shared']);
      // Reading a credential's roles is offered; giving or removing one is not.
      await openTab(page, 'API keys');
      await page.getByRole('button', { name: `Roles of ${KEY}` }).click();
      const panel = page.getByRole('region', { name: `Roles of ${KEY}` });
      await panel.getByText(`${KEY} holds no role.`).waitFor();
      expect(await panel.getByRole('button').allTextContents()).toEqual(['Close']);
    });
  });

  it('shows a reader of keys and credentials, who may not read the permissions catalogue, their lists without a refusal', async () => {
    await as(KEY_READER, async (page) => {
      await page.getByRole('navigation', { name: 'Application sections' }).waitFor();
      expect((await buttonsOn(page, 'API keys')).buttons).toEqual([BACK]);
      await page.getByRole('row', { name: new RegExp(`^${KEY}`) }).waitFor();
      expect((await buttonsOn(page, 'M2M credentials')).buttons).toEqual([BACK]);
      await page.getByRole('row', { name: new RegExp(`^${CREDENTIAL}`) }).waitFor();
    });
  });

  it('shows a writer of keys, credentials, roles and API resources who may not read the permissions their lists, what else they may do, and why no form offers permissions', async () => {
    await as(GRANT_WRITER, async (page) => {
      await page.getByRole('navigation', { name: 'Application sections' }).waitFor();
      const withoutCatalogue: readonly (readonly [tab: string, row: string, offered: readonly string[], withheld: string])[] = [
        ['API keys', KEY, [BACK, 'Rotate'], 'Create API key'],
        ['M2M credentials', CREDENTIAL, [BACK, 'Rotate'], 'Create credential'],
        ['Roles', ROLE, [BACK], 'Create role'],
        ['API resources', RESOURCE, [BACK], 'Create API resource'],
      ];
      for (const [tab, row, offered, withheld] of withoutCatalogue) {
        const { main, buttons } = await buttonsOn(page, tab);
        await main.getByRole('row', { name: new RegExp(`^${row}`) }).first().waitFor();
        for (const action of offered) expect(buttons, tab).toContain(action);
        expect(buttons, tab).not.toContain(withheld);
        expect(await main.getByText('also takes permissions:read').count(), tab).toBe(1);
      }
    });
  });

  it('offers an Application admin every action of each tab, and deletes a role once confirmed', async () => {
    await as(ADMIN, async (page) => {
      await page.getByRole('navigation', { name: 'Application sections' }).waitFor();
      for (const [tab, , writes] of TABS) {
        const { buttons } = await buttonsOn(page, tab);
        for (const action of writes) expect(buttons, tab).toContain(action);
      }
      await openTab(page, 'Roles');
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: `Delete ${ROLE}` }).click();
      await page.getByRole('row', { name: new RegExp(`^${ROLE}`) }).waitFor({ state: 'detached' });
      expect((await suite.app.http.get(`/roles/${auditorId}`)).status).toBe(404);
    });
  });

  it("gives an application-wide key a role in one tenant found with the tenant picker's search", async () => {
    const { page } = suite;
    await openTab(page, 'API keys');
    await page.getByRole('button', { name: `Roles of ${KEY}` }).click();
    const panel = page.getByRole('region', { name: `Roles of ${KEY}` });
    await panel.getByText(`${KEY} holds no role.`).waitFor();
    const tenant = panel.getByLabel('Tenant', { exact: true });
    await offered(tenant, 'Globex');
    await panel.getByLabel('Name or slug starts with').fill('Ac');
    await panel.getByRole('status').filter({ hasText: 'No tenant' }).waitFor({ state: 'detached' });
    // The search's answer replaces the options: Globex gone, then Acme shown (between the two, neither is).
    await tenant.locator('option', { hasText: 'Globex' }).waitFor({ state: 'detached' });
    await tenant.locator('option', { hasText: 'Acme' }).waitFor({ state: 'attached' });
    expect(await tenant.locator('option').allTextContents()).toEqual(['All tenants', 'Acme']);
    await tenant.selectOption({ label: 'Acme' });
    await panel.getByLabel('Role').selectOption({ label: 'Member' });
    await panel.getByRole('button', { name: 'Assign role' }).click();
    await panel.getByRole('status').filter({ hasText: `${KEY} now holds Member (Acme).` }).waitFor();
    const held = (await suite.app.http.get(`/role-assignments?subjectType=api_key&subjectId=${keyId}`)).body.data as { tenantId: string | null }[];
    expect(held).toMatchObject([{ tenantId: acme }]);
  });
});
