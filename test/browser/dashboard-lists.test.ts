import type { Locator, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dashboardSuite, openTab } from '../support/dashboard.ts';

/**
 * Lists read page by page keep the pages loaded through a creation, an edit and a deletion (the Tenants tab, 25 a
 * page, 30 tenants): a row made before the last page is read shows first, and once only when that page comes; one
 * made after shows last, its place in the list's order; an edit shows the server's answer and a deletion drops the
 * row, none of them reading the list again. Then the API keys tab's tenant picker finds a tenant of the second page
 * by the start of its name, and the keyboard picks it.
 */
const TENANTS = Array.from({ length: 30 }, (_, index) => `Tenant ${String(index + 1).padStart(2, '0')}`);

const dashboard = dashboardSuite({
  tab: 'Tenants',
  setup: async (app) => {
    for (const name of TENANTS) await app.createTenant(name);
  },
});

const region = (name: string): Locator => dashboard.page.getByRole('region', { name, exact: true });
const tenantsTable = (): Locator => region('Tenants');
const tenantNames = async (): Promise<string[]> => tenantsTable().locator('tbody tr th').allTextContents();
const rowOf = (name: string): Locator => tenantsTable().getByRole('row').filter({ has: dashboard.page.getByRole('rowheader', { name, exact: true }) });

async function createTenant(name: string): Promise<void> {
  const form = region('Create tenant');
  await form.getByLabel('Name').fill(name);
  await form.getByRole('button', { name: 'Create tenant' }).click();
  await form.getByRole('status').filter({ hasText: `Tenant ${name} created` }).waitFor();
}

describe('a paged list through creations, edits and deletions (Tenants tab)', () => {
  it('shows a tenant made before the last page is read first, and once only when that page comes', async () => {
    await rowOf('Tenant 25').waitFor();
    expect(await tenantNames()).toEqual(TENANTS.slice(0, 25));
    await createTenant('Alpha new');
    await rowOf('Alpha new').waitFor();
    expect(await tenantNames()).toEqual(['Alpha new', ...TENANTS.slice(0, 25)]);

    await tenantsTable().getByRole('button', { name: 'More' }).click();
    await rowOf('Tenant 30').waitFor();
    expect(await tenantNames()).toEqual(['Alpha new', ...TENANTS]);
    expect(await tenantsTable().getByRole('button', { name: 'More' }).count()).toBe(0);
    // The More button is gone: the keyboard goes on from the first row the page brought.
    await expect.poll(() => dashboard.page.evaluate(() => document.activeElement?.querySelector('th')?.textContent)).toBe('Tenant 26');
  });

  it('renames, deletes and creates with the second page still shown, reading no page again', async () => {
    const reads = dashboard.listReads('Tenants');
    const scrolled = await dashboard.page.evaluate(() => {
      document.querySelector('tbody tr:last-child')?.scrollIntoView();
      return window.scrollY;
    });

    await dashboard.page.getByRole('button', { name: 'Rename Tenant 28' }).click();
    const renaming = region('Rename Tenant 28');
    await renaming.getByLabel('Name').fill('Tenant 28 renamed');
    await renaming.getByLabel('Slug').fill('renamed-28');
    await renaming.getByRole('button', { name: 'Save tenant' }).click();
    await region('Rename Tenant 28 renamed').getByRole('status').filter({ hasText: 'Tenant Tenant 28 renamed (renamed-28) saved.' }).waitFor();
    expect(await rowOf('Tenant 28 renamed').getByRole('cell').first().textContent()).toBe('renamed-28');
    await region('Rename Tenant 28 renamed').getByRole('button', { name: 'Close' }).click();

    const question = dashboard.answerNextDialog();
    await dashboard.page.getByRole('button', { name: 'Delete Tenant 27' }).click();
    expect(await question).toMatch(/^Delete the tenant Tenant 27\?/);
    await rowOf('Tenant 27').waitFor({ state: 'detached' });

    await createTenant('Omega new');
    await rowOf('Omega new').waitFor();

    expect(await tenantNames()).toEqual(['Alpha new', ...TENANTS.slice(0, 26), 'Tenant 28 renamed', 'Tenant 29', 'Tenant 30', 'Omega new']);
    expect(reads).toEqual([]);
    // The page was not emptied and rebuilt under the operator: it has not jumped back to the top.
    expect(scrolled).toBeGreaterThan(0);
    expect(await dashboard.page.evaluate(() => window.scrollY)).toBeGreaterThan(0);

    const onServer = (await dashboard.app.http.get(`/applications/${dashboard.app.root.applicationId}/tenants?search=tenant%202&pageSize=100`)).body.data as { name: string; slug: string }[];
    expect(onServer.map(({ name }) => name)).toEqual([...TENANTS.slice(19, 26), 'Tenant 28 renamed', 'Tenant 29']);
    expect(onServer.find(({ name }) => name === 'Tenant 28 renamed')?.slug).toBe('renamed-28');
  });
});

describe('the tenant picker’s search (API keys tab)', () => {
  it('finds a tenant of the second page by the start of its name, and the keyboard picks it', async () => {
    await openTab(dashboard.page, 'API keys');
    const keys = region('API keys');
    const picker = keys.getByLabel('Show keys of');
    await picker.locator('option', { hasText: 'Tenant 25' }).waitFor({ state: 'attached' });
    expect(await picker.locator('option', { hasText: 'Tenant 30' }).count()).toBe(0);

    const search = keys.getByLabel('Name or slug starts with');
    await search.fill('tenant 3');
    await picker.locator('option', { hasText: 'Tenant 30' }).waitFor({ state: 'attached' });
    await expect.poll(async () => picker.locator('option').allTextContents()).toEqual(['All keys', 'Tenant 30']);

    await search.press('Tab');
    expect(await picker.evaluate((element) => element === document.activeElement)).toBe(true);
    await dashboard.page.keyboard.press('ArrowDown');
    await keys.getByText('Tenant 30 has no API keys yet.').waitFor();
    expect(await picker.inputValue()).not.toBe('');

    await search.fill('zzz');
    await keys.getByRole('status').filter({ hasText: "No tenant's name or slug starts with zzz." }).waitFor();
    // The tenant chosen stays shown while a search leaves it out.
    expect(await picker.locator('option').allTextContents()).toEqual(['All keys', 'Tenant 30']);
    expect(await picker.locator('option:checked').textContent()).toBe('Tenant 30');
  });
});

describe('a list read again that fails (Tenants tab)', () => {
  it('is read again whole by Try again, not followed by its next page', async () => {
    await openTab(dashboard.page, 'Tenants');
    await rowOf('Tenant 25').waitFor();
    const shown = await tenantNames();
    expect(shown).toHaveLength(25);
    const failing = async (route: Route) => ((route.request().postData() ?? '').includes('query Tenants(') ? route.abort() : route.fallback());
    await dashboard.page.route('**/graphql', failing);
    // The operator comes back to the page: the list is read again, and that read fails.
    await dashboard.comeBack();
    await tenantsTable().getByRole('button', { name: 'Try again' }).waitFor();
    await dashboard.page.unroute('**/graphql', failing);

    const cursors: unknown[] = [];
    dashboard.page.on('request', (request) => {
      const body = request.postData() ?? '';
      if (request.url().endsWith('/graphql') && body.includes('query Tenants(')) cursors.push((JSON.parse(body) as { variables: { cursor: unknown } }).variables.cursor);
    });
    await tenantsTable().getByRole('button', { name: 'Try again' }).click();
    await tenantsTable().getByRole('button', { name: 'More' }).waitFor();
    expect(cursors).toEqual([null]);
    expect(await tenantNames()).toEqual(shown);
  });
});
