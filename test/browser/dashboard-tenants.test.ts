import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dashboardSuite } from '../support/dashboard.ts';

/**
 * Creating, renaming and deleting tenants on the dashboard's Tenants tab in Chromium: a tenant made without a slug gets
 * one from its name; a taken slug is refused with the server's message; a rename shows in the table; a deletion, once
 * confirmed with what goes with the tenant, takes its key and leaves its member a user. Checked through the REST API.
 */
const MEMBER = 'member@example.com';
let acme: string;
let acmeKeyId: string;
let memberId: string;
/** The tenant the dashboard made, once made. */
let createdId: string;

interface TenantBody {
  id: string;
  name: string;
  slug: string;
}

const dashboard = dashboardSuite({
  tab: 'Tenants',
  setup: async (app) => {
    acme = await app.createTenant('Acme');
    memberId = await app.createUser(MEMBER, acme);
    const key = await app.http.post('/api-keys', { name: 'Acme sync', permissions: ['users:read'], tenantId: acme });
    expect(key.status).toBe(201);
    acmeKeyId = key.body.key.id;
  },
});

const tenantsPath = () => `/applications/${dashboard.app.root.applicationId}/tenants`;
const tenantsOnServer = async () => (await dashboard.app.http.get(tenantsPath())).body.data as TenantBody[];
const region = (name: string): Locator => dashboard.page.getByRole('region', { name, exact: true });
const tenantRow = (name: string): Locator => region('Tenants').getByRole('row', { name: new RegExp(`^${name} `) });

async function createInDashboard(name: string, slug = ''): Promise<void> {
  const form = region('Create tenant');
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Slug (optional)').fill(slug);
  await form.getByRole('button', { name: 'Create tenant' }).click();
}

describe('tenants created, renamed and deleted on the Tenants tab in Chromium', () => {
  it('creates a tenant without a slug: the server derives it from the name', async () => {
    await tenantRow('Acme').waitFor();
    await createInDashboard('Crème Brûlée');
    await region('Create tenant').getByRole('status').filter({ hasText: 'Tenant Crème Brûlée created, with the slug creme-brulee.' }).waitFor();
    await tenantRow('Crème Brûlée').waitFor();
    expect((await tenantRow('Crème Brûlée').getByRole('cell').allTextContents())[0]).toBe('creme-brulee');
    const created = (await tenantsOnServer()).find((tenant) => tenant.name === 'Crème Brûlée');
    expect(created).toMatchObject({ slug: 'creme-brulee' });
    createdId = created!.id;
  });

  it("shows the server's refusal of a taken slug, and creates nothing", async () => {
    await createInDashboard('Acme again', 'acme');
    await region('Create tenant').getByRole('alert').filter({ hasText: /already exists/ }).waitFor();
    expect((await tenantsOnServer()).map((tenant) => tenant.name).sort()).toEqual(['Acme', 'Crème Brûlée']);
  });

  it('renames the tenant and its slug: shown in the table and on the server', async () => {
    await dashboard.page.getByRole('button', { name: 'Rename Crème Brûlée' }).click();
    const form = region('Rename Crème Brûlée');
    await form.getByLabel('Name').fill('Brulee Inc');
    await form.getByLabel('Slug').fill('brulee');
    await form.getByRole('button', { name: 'Save tenant' }).click();
    const renamed = region('Rename Brulee Inc');
    await renamed.getByRole('status').filter({ hasText: 'Tenant Brulee Inc (brulee) saved.' }).waitFor();
    expect((await tenantRow('Brulee Inc').getByRole('cell').allTextContents())[0]).toBe('brulee');
    expect((await dashboard.app.http.get(`${tenantsPath()}/${createdId}`)).body).toMatchObject({ name: 'Brulee Inc', slug: 'brulee' });
    await renamed.getByRole('button', { name: 'Close' }).click();
  });

  it('deletes nothing when the confirmation is dismissed', async () => {
    const question = dashboard.answerNextDialog('dismiss');
    await dashboard.page.getByRole('button', { name: 'Delete Acme' }).click();
    expect(await question).toMatch(/^Delete the tenant Acme\?/);
    expect(await tenantRow('Acme').count()).toBe(1);
    expect((await dashboard.app.http.get(`${tenantsPath()}/${acme}`)).status).toBe(200);
  });

  it('deletes a tenant once confirmed, saying what goes with it: its key goes, its member stays a user', async () => {
    const question = dashboard.answerNextDialog();
    await dashboard.page.getByRole('button', { name: 'Delete Acme' }).click();
    await dashboard.page.getByRole('status').filter({ hasText: 'Tenant Acme is deleted.' }).waitFor();
    expect(await question).toBe(
      'Delete the tenant Acme? Its own branding, e-mail settings, auth providers, policies and domains go with it, as do its API keys, OAuth clients and M2M credentials; its members stay users of the application. This cannot be undone.',
    );
    expect(await tenantRow('Acme').count()).toBe(0);
    expect((await dashboard.app.http.get(`${tenantsPath()}/${acme}`)).status).toBe(404);
    expect((await dashboard.app.http.get(`/api-keys/${acmeKeyId}`)).status).toBe(404);
    expect((await dashboard.app.http.get(`/users/${memberId}`)).body).toMatchObject({ email: MEMBER, tenantIds: [] });
  });

  it('creates one tenant for two submits in one task (the second runs before React renders the first busy)', async () => {
    const form = region('Create tenant');
    await form.getByLabel('Name').fill('Twice');
    await form.getByLabel('Slug (optional)').fill('');
    await form.locator('form').evaluate((element: HTMLFormElement) => {
      element.requestSubmit();
      element.requestSubmit();
    });
    await form.getByRole('status').filter({ hasText: 'Tenant Twice created' }).waitFor();
    await tenantRow('Twice').waitFor();
    expect((await tenantsOnServer()).filter((tenant) => tenant.name === 'Twice')).toHaveLength(1);
  });
});
