import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { asOperator, asTenantOperator, dashboardSuite, giveConsoleRole, makeOperator, offeredScreens, openTab } from '../support/dashboard.ts';

/**
 * A multi-tenant application's screens to operators who may not list its tenants (`tenants:read`), its users or the
 * console's operators: no tenant picker nor choice by address that the server would refuse, the application's values
 * instead (a record's tenant named by id; roles made and operators added application-wide), and the Audit log to an
 * auditor holding `audit_logs:read` alone: the application's records to one holding it application-wide, a tenant's
 * own to one holding it there.
 */
const BRANDING_READER = { email: 'branding-reader@ops.example', password: 'Operator-Plover-42' };
const ANALYST = { email: 'analyst@ops.example', password: 'Operator-Curlew-42' };
const INVITER = { email: 'inviter@ops.example', password: 'Operator-Dunlin-42' };
const AUDITOR = { email: 'auditor@ops.example', password: 'Operator-Avocet-42' };
const TENANT_AUDITOR = { email: 'tenant-auditor@ops.example', password: 'Operator-Godwit-42' };
const USERS_AUDITOR = { email: 'users-auditor@ops.example', password: 'Operator-Knot-42' };
const USER_ADMIN = { email: 'user-admin@ops.example', password: 'Operator-Stint-42' };
const KEY_ADMIN = { email: 'key-admin@ops.example', password: 'Operator-Sanderling-42' };
const CLIENT_ADMIN = { email: 'client-admin@ops.example', password: 'Operator-Turnstone-42' };
const CREDENTIAL_ADMIN = { email: 'credential-admin@ops.example', password: 'Operator-Whimbrel-42' };
const ROLE_ADMIN = { email: 'role-admin@ops.example', password: 'Operator-Redshank-42' };
const OPERATOR_ADMIN = { email: 'operator-admin@ops.example', password: 'Operator-Greenshank-42' };

let acme: string;
let globex: string;

const suite = dashboardSuite({
  setup: async (app) => {
    acme = await app.createTenant('Acme');
    globex = await app.createTenant('Globex');
    await app.createUser('ada@acme.example', acme);
    await app.createUser('bob@globex.example', globex);
    // The Branding tab offers a tenant's branding while its scope is per tenant.
    expect((await app.http.patch(`/applications/${app.root.applicationId}`, { tenancyConfig: { brandingScope: 'tenant' } })).status).toBe(200);
    const roles = {
      branding_reader: ['branding:read', 'applications:read'],
      analyst: ['analytics:read', 'applications:read'],
      inviter: ['users:read', 'users:write'],
      auditor: ['audit_logs:read'],
      users_auditor: ['audit_logs:read', 'users:read'],
      user_admin: ['users:read', 'users:write', 'applications:read'],
      key_admin: ['api_keys:read', 'api_keys:write', 'permissions:read', 'applications:read', 'role_assignments:read', 'role_assignments:write', 'roles:read'],
      client_admin: ['oauth_clients:read', 'oauth_clients:write', 'applications:read'],
      credential_admin: ['m2m_credentials:read', 'm2m_credentials:write', 'permissions:read', 'applications:read'],
      role_admin: ['roles:read', 'roles:write', 'permissions:read', 'permissions:write', 'applications:read'],
      operator_admin: ['role_assignments:read', 'role_assignments:write', 'roles:read', 'applications:read'],
    };
    for (const [key, permissions] of Object.entries(roles)) expect((await app.http.post('/roles', { key, name: key, permissions })).status).toBe(201);
    const tenantRole = await app.http.post(`/applications/${app.root.applicationId}/tenants/${acme}/roles`, { key: 'acme_auditor', name: 'Acme auditor', permissions: ['audit_logs:read'] });
    expect(tenantRole.status).toBe(201);
    await makeOperator(app, BRANDING_READER, 'branding_reader');
    await makeOperator(app, ANALYST, 'analyst');
    await makeOperator(app, INVITER, 'inviter');
    await makeOperator(app, AUDITOR, 'auditor');
    await makeOperator(app, TENANT_AUDITOR, 'acme_auditor', acme);
    await makeOperator(app, USERS_AUDITOR, 'users_auditor');
    await makeOperator(app, USER_ADMIN, 'user_admin');
    await makeOperator(app, KEY_ADMIN, 'key_admin');
    await makeOperator(app, CLIENT_ADMIN, 'client_admin');
    await makeOperator(app, CREDENTIAL_ADMIN, 'credential_admin');
    await makeOperator(app, ROLE_ADMIN, 'role_admin');
    // Adding an operator also takes the console's users:* (their accounts are kept there).
    await giveConsoleRole(app, await makeOperator(app, OPERATOR_ADMIN, 'operator_admin'), 'app_admin');
    const worker = { name: 'Worker', permissions: ['users:read'], authMethod: 'client_secret_basic', tenantId: acme };
    expect((await app.http.post('/m2m-credentials', worker)).status).toBe(201);
    const storefront = { name: 'Storefront', type: 'web', redirectUris: ['https://shop.example/cb'], tenantId: acme };
    expect((await app.http.post('/oauth-clients', storefront)).status).toBe(201);
    expect((await app.http.post('/api-keys', { name: 'Acme bot', permissions: ['users:read'], tenantId: acme })).status).toBe(201);
  },
});

const as = (account: { email: string; password: string }, use: (page: Page) => Promise<void>) =>
  asOperator(suite.page, suite.app.gatehouse.services.config.publicUrl, account, use);

const settled = (page: Page) => page.locator('.loading').first().waitFor({ state: 'detached' });

/** The application's tabs offered to the operator. */
async function offeredTabs(page: Page): Promise<string[]> {
  const sections = page.getByRole('navigation', { name: 'Application sections' });
  await sections.waitFor();
  return sections.getByRole('link').allTextContents();
}

/** Once the screen has loaded: no tenant to choose, the lines saying what a choice of tenant takes. */
async function offersNoTenantChoice(page: Page, ...lines: string[]): Promise<void> {
  await settled(page);
  expect(await page.getByLabel('Tenant', { exact: true }).count()).toBe(0);
  for (const line of lines) await page.getByText(line).waitFor();
}

/** Nothing on the page was refused. */
const noRefusal = async (page: Page) => expect(await page.getByRole('alert').allTextContents()).toEqual([]);

/** Searches the audit log shown for `action` and answers the target cell of each row, once the search is read. */
async function targetsOf(page: Page, action: string): Promise<string[]> {
  await page.getByLabel('Action', { exact: true }).fill(action);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('status').filter({ hasText: 'Loading audit records…' }).waitFor({ state: 'detached' });
  await settled(page);
  return page.locator('tbody tr:not([hidden])').evaluateAll((rows) => rows.map((row) => row.children[3]?.textContent ?? ''));
}

describe('a multi-tenant application to operators who may not list its tenants, users or operators, in Chromium', () => {
  it("shows a reader of branding the application's branding, with no tenant picker the server would refuse", async () => {
    await as(BRANDING_READER, async (page) => {
      await page.getByRole('heading', { level: 2, name: 'Branding' }).waitFor();
      await offersNoTenantChoice(page);
      await noRefusal(page);
      await page.getByRole('term').filter({ hasText: 'Sign-in title' }).waitFor();
    });
  });

  it("shows an analyst the application's figures, with no tenant picker", async () => {
    await as(ANALYST, async (page) => {
      await page.getByRole('heading', { level: 2, name: 'Analytics' }).waitFor();
      await offersNoTenantChoice(page);
      await noRefusal(page);
    });
  });

  it('tells a writer of users who may not list tenants that inviting, which picks one, takes tenants:read', async () => {
    await as(INVITER, async (page) => {
      await page.getByRole('heading', { level: 2, name: 'Invitations' }).waitFor();
      await settled(page);
      expect(await page.getByRole('button', { name: 'Invite' }).count()).toBe(0);
      await page.getByText('Inviting to a tenant also takes tenants:read').waitFor();
      await noRefusal(page);
    });
  });

  it("offers a writer of users the Users tab: every tenant's users, each user's tenants by id, no choice of tenant", async () => {
    await as(USER_ADMIN, async (page) => {
      expect(await offeredTabs(page)).toContain('Users');
      await openTab(page, 'Users');
      await page.getByRole('heading', { level: 2, name: 'Users' }).waitFor();
      await page.getByRole('rowheader', { name: 'ada@acme.example' }).waitFor();
      await page.getByRole('rowheader', { name: 'bob@globex.example' }).waitFor();
      await offersNoTenantChoice(page, "Choosing the new user's tenant also takes tenants:read");
      await page.getByRole('button', { name: 'Details of ada@acme.example' }).click();
      await page.getByText(`Tenants: ${acme}`).waitFor();
      await page.getByText("Changing a user's tenants also takes tenants:read").waitFor();
      expect(await page.getByRole('checkbox').count()).toBe(0);
      await noRefusal(page);
    });
  });

  it("offers a writer of API keys the API keys tab: every key, its tenant by id, no choice of tenant", async () => {
    await as(KEY_ADMIN, async (page) => {
      expect(await offeredTabs(page)).toContain('API keys');
      await openTab(page, 'API keys');
      await page.getByRole('heading', { level: 2, name: 'API keys' }).waitFor();
      const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Acme bot' }) });
      await row.getByRole('cell', { name: acme, exact: true }).waitFor();
      await settled(page);
      expect(await page.getByLabel('Show keys of', { exact: true }).count()).toBe(0);
      expect(await page.getByLabel('Tenant', { exact: true }).count()).toBe(0);
      await page.getByText("Showing one tenant's keys also takes tenants:read").waitFor();
      await page.getByText("Choosing the key's tenant also takes tenants:read").waitFor();
      // A tenant's key is given roles in its tenant too, offered by id as with tenants:read it is by name.
      await row.getByRole('button', { name: 'Roles of Acme bot' }).click();
      const panel = page.getByRole('region', { name: 'Roles of Acme bot' });
      await settled(page);
      expect(await panel.getByLabel('Tenant', { exact: true }).getByRole('option').allTextContents()).toEqual(['All tenants', acme]);
      await noRefusal(page);
    });
  });

  it("offers a writer of OAuth clients the OAuth clients tab: every client, its tenant by id, no choice of tenant", async () => {
    await as(CLIENT_ADMIN, async (page) => {
      const offered = await offeredTabs(page);
      expect(offered).toContain('OAuth clients');
      // Neither roles:read nor role_assignments:read: no Roles nor Operators tab.
      expect(offered).not.toContain('Roles');
      expect(offered).not.toContain('Operators');
      await openTab(page, 'OAuth clients');
      await page.getByRole('heading', { level: 2, name: 'OAuth clients' }).waitFor();
      const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Storefront' }) });
      await row.getByRole('cell', { name: acme, exact: true }).waitFor();
      await offersNoTenantChoice(page, "Choosing the client's tenant also takes tenants:read");
      await noRefusal(page);
    });
  });

  it('offers a writer of M2M credentials the M2M credentials tab: every credential, its tenant by id, no choice of tenant', async () => {
    await as(CREDENTIAL_ADMIN, async (page) => {
      expect(await offeredTabs(page)).toContain('M2M credentials');
      await openTab(page, 'M2M credentials');
      const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Worker' }) });
      await row.getByRole('cell', { name: acme, exact: true }).waitFor();
      await offersNoTenantChoice(page, "Choosing the credential's tenant also takes tenants:read");
      await noRefusal(page);
    });
  });

  it("offers a writer of roles the Roles tab: each role's tenant by id, roles made application-wide, no choice of tenant", async () => {
    await as(ROLE_ADMIN, async (page) => {
      const offered = await offeredTabs(page);
      expect(offered).toContain('Roles');
      // Without role_assignments:read, whose list it opens with: no Operators tab.
      expect(offered).not.toContain('Operators');
      await openTab(page, 'Roles');
      const roles = page.getByRole('region', { name: 'Roles', exact: true });
      await roles.getByRole('row', { name: /^Acme auditor / }).getByRole('cell', { name: acme, exact: true }).waitFor();
      await offersNoTenantChoice(page, "Making a tenant's own role also takes tenants:read", "Making a tenant's own permission also takes tenants:read");
      const form = page.getByRole('region', { name: 'Create role', exact: true });
      await form.getByLabel('Key').fill('role_reader');
      await form.getByLabel('Name').fill('Role reader');
      await form.getByRole('group', { name: 'roles', exact: true }).getByRole('checkbox', { name: 'read', exact: true }).check();
      await form.getByRole('button', { name: 'Create role', exact: true }).click();
      await form.getByRole('status').filter({ hasText: 'Role Role reader created.' }).waitFor();
      await roles.getByRole('row', { name: /^Role reader / }).getByRole('cell', { name: 'Application-wide', exact: true }).waitFor();
      await noRefusal(page);
    });
  });

  it("offers a writer of role assignments the Operators tab: each operator's tenant by id, operators added application-wide", async () => {
    await as(OPERATOR_ADMIN, async (page) => {
      expect(await offeredTabs(page)).toEqual(expect.arrayContaining(['Roles', 'Operators']));
      await openTab(page, 'Operators');
      const operators = page.getByRole('region', { name: 'Operators', exact: true });
      await operators.getByRole('row', { name: new RegExp(`^${TENANT_AUDITOR.email} `) }).getByRole('cell', { name: acme, exact: true }).waitFor();
      await offersNoTenantChoice(page, 'Giving a role in one tenant also takes tenants:read');
      const form = page.getByRole('region', { name: 'Add an operator', exact: true });
      await form.getByLabel('E-mail').fill('added@ops.example');
      await form.getByLabel('Role').selectOption({ label: 'operator_admin' });
      await form.getByRole('button', { name: 'Add operator', exact: true }).click();
      await form.getByRole('status').filter({ hasText: 'added@ops.example is now operator_admin (Application-wide).' }).waitFor();
      await operators.getByRole('row', { name: /^added@ops\.example / }).getByRole('cell', { name: 'Application-wide', exact: true }).waitFor();
      await noRefusal(page);
    });
  });

  it("offers an auditor holding audit_logs:read alone, application-wide, the Audit log: every tenant's records, searched by id", async () => {
    await as(AUDITOR, async (page) => {
      expect(await offeredTabs(page)).toEqual(['Audit log']);
      await page.getByRole('heading', { level: 2, name: 'Audit log' }).waitFor();
      await settled(page);
      // Neither tenants nor users may be listed: no Tenant filter, no search by address (a user is named as its record names it).
      expect(await page.getByLabel('Tenant', { exact: true }).count()).toBe(0);
      expect(await page.getByLabel('Actor kind').getByRole('option').allTextContents()).toEqual(['Any, by ID']);
      const targets = await targetsOf(page, 'user.created');
      expect(targets.toSorted()).toEqual(['user ada@acme.example', 'user bob@globex.example']);
      await noRefusal(page);
    });
  });

  it("finds a user by address for an auditor who may read the application's users but not the console's operators", async () => {
    await as(USERS_AUDITOR, async (page) => {
      await openTab(page, 'Audit log');
      await settled(page);
      await page.getByLabel('Target e-mail').fill('ada@acme.example');
      expect(await targetsOf(page, 'user.created')).toEqual(['user ada@acme.example']);
      await noRefusal(page);
    });
  });

  it("offers an auditor of one tenant that tenant's Audit log: its records only", async () => {
    await asTenantOperator(suite.page, suite.app.gatehouse.services.config.publicUrl, TENANT_AUDITOR, async (page) => {
      expect(await offeredScreens(page, 'Acme')).toEqual(['Audit log of Acme']);
      await page.getByRole('link', { name: 'Audit log of Acme' }).click();
      await page.getByRole('heading', { level: 2, name: 'Audit log of Acme' }).waitFor();
      await offersNoTenantChoice(page);
      expect(await targetsOf(page, 'user.created')).toEqual(['user ada@acme.example']);
      await noRefusal(page);
    });
  });
});
