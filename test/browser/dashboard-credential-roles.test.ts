import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dashboardSuite, offered, openTab } from '../support/dashboard.ts';

/**
 * Roles for M2M credentials and API keys in Chromium, through the users' roles panel: the operator gives an
 * application-wide credential (any tenant offered, through the searching tenant picker) a custom role in every tenant and removes it once confirmed, gives a key of Acme the
 * role in Acme (the one tenant offered) and is refused the same grant twice with the server's message. Each step is
 * checked through the REST API.
 */
const CREDENTIAL = 'Invoice worker';
const KEY = 'Acme reporting';
let acme: string;
let credentialId: string;
let keyId: string;
let readerId: string;

const dashboard = dashboardSuite({
  tab: 'M2M credentials',
  setup: async (app) => {
    acme = await app.createTenant('Acme');
    await app.createTenant('Globex');
    expect((await app.http.post('/permissions', { key: 'invoices:read' })).status).toBe(201);
    const reader = await app.http.post('/roles', { key: 'invoice-reader', name: 'Invoice reader', permissions: ['invoices:read'] });
    expect(reader.status).toBe(201);
    readerId = reader.body.id;
    const credential = await app.http.post('/m2m-credentials', { name: CREDENTIAL, permissions: ['users:read'], authMethod: 'client_secret_basic' });
    expect(credential.status).toBe(201);
    credentialId = credential.body.id;
    const key = await app.http.post('/api-keys', { name: KEY, permissions: ['users:read'], tenantId: acme });
    expect(key.status).toBe(201);
    keyId = key.body.key.id;
  },
});

const region = (name: string): Locator => dashboard.page.getByRole('region', { name, exact: true });
const assignmentsOf = async (subjectType: string, subjectId: string) =>
  (await dashboard.app.http.get(`/role-assignments?subjectType=${subjectType}&subjectId=${subjectId}`)).body.data as { roleId: string; tenantId: string | null }[];

describe('roles of M2M credentials and API keys in the dashboard in Chromium', () => {
  it('gives an application-wide M2M credential a custom role in every tenant', async () => {
    await dashboard.page.getByRole('button', { name: `Roles of ${CREDENTIAL}` }).click();
    const panel = region(`Roles of ${CREDENTIAL}`);
    await panel.getByText(`${CREDENTIAL} holds no role.`).waitFor();
    // Any tenant: the searching picker's, read page by page.
    await offered(panel.getByLabel('Tenant', { exact: true }), 'Globex');
    expect(await panel.getByLabel('Tenant', { exact: true }).locator('option').allTextContents()).toEqual(['All tenants', 'Acme', 'Globex']);
    expect(await panel.getByRole('searchbox', { name: 'Name or slug starts with' }).count()).toBe(1);
    await panel.getByLabel('Role').selectOption({ label: 'Invoice reader' });
    await panel.getByRole('button', { name: 'Assign role' }).click();
    await panel.getByRole('status').filter({ hasText: `${CREDENTIAL} now holds Invoice reader (Application-wide).` }).waitFor();
    const row = panel.getByRole('row', { name: /^Invoice reader/ });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(['Application-wide', 'Remove']);
    await dashboard.page.screenshot({ path: 'test-results/dashboard-credential-roles.png', fullPage: true });
    expect(await assignmentsOf('m2m_credential', credentialId)).toMatchObject([{ roleId: readerId, tenantId: null }]);
  });

  it('removes it once confirmed', async () => {
    const panel = region(`Roles of ${CREDENTIAL}`);
    const question = dashboard.answerNextDialog();
    await panel.getByRole('row', { name: /^Invoice reader/ }).getByRole('button', { name: 'Remove' }).click();
    await panel.getByText(`${CREDENTIAL} holds no role.`).waitFor();
    expect(await question).toBe(`Remove ${CREDENTIAL}'s role Invoice reader (Application-wide)? The permissions it gives there are lost.`);
    expect(await assignmentsOf('m2m_credential', credentialId)).toEqual([]);
  });

  it("gives a tenant's API key the role in its tenant, the one offered, and shows the refusal of the same grant twice", async () => {
    await openTab(dashboard.page, 'API keys');
    await dashboard.page.getByRole('button', { name: `Roles of ${KEY}` }).click();
    const panel = region(`Roles of ${KEY}`);
    await panel.getByText(`${KEY} holds no role.`).waitFor();
    expect(await panel.getByLabel('Tenant').locator('option').allTextContents()).toEqual(['All tenants', 'Acme']);
    await panel.getByLabel('Role').selectOption({ label: 'Invoice reader' });
    await panel.getByLabel('Tenant').selectOption({ label: 'Acme' });
    await panel.getByRole('button', { name: 'Assign role' }).click();
    await panel.getByRole('status').filter({ hasText: `${KEY} now holds Invoice reader (Acme).` }).waitFor();
    await panel.getByRole('row', { name: /^Invoice reader/ }).waitFor();
    expect(await assignmentsOf('api_key', keyId)).toMatchObject([{ roleId: readerId, tenantId: acme }]);

    await panel.getByRole('button', { name: 'Assign role' }).click();
    await panel.getByRole('alert').filter({ hasText: 'already exists' }).waitFor();
    expect(await assignmentsOf('api_key', keyId)).toHaveLength(1);
  });
});
