import { describe, expect, it } from 'vitest';
import { dashboardSuite } from '../support/dashboard.ts';

/**
 * The Users tab while each tenant has its own users, in Chromium: two users with one address, in Acme's and Globex's
 * pools, are told apart by a Tenant column and by their buttons' names; a user made while the users were shared, in no tenant, reads "No tenant".
 */
const SHARED_ADDRESS = 'same@example.com';
const LONER = 'loner@example.com';

const dashboard = dashboardSuite({
  tab: 'Users',
  setup: async (app) => {
    const acme = await app.createTenant('Acme');
    const globex = await app.createTenant('Globex');
    await app.createUser(LONER);
    const appId = app.root.applicationId;
    expect((await app.http.patch(`/applications/${appId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    await app.createUser(SHARED_ADDRESS, acme);
    await app.createUser(SHARED_ADDRESS, globex);
  },
});

const cellsOf = (email: string) =>
  dashboard.page.getByRole('row', { name: new RegExp(`^${email.replace(/\./g, '\\.')} `) }).evaluateAll((rows) =>
    rows.map((row) => [...row.querySelectorAll('td')].slice(0, 2).map((cell) => cell.textContent)),
  );

describe('the Users tab with isolated authentication in Chromium', () => {
  it('shows the tenant of each user, and "No tenant" for a user of the application\'s own pool', async () => {
    await dashboard.page.getByRole('columnheader', { name: 'Tenant' }).waitFor();
    // The header may come before the page's rows.
    await expect.poll(async () => (await cellsOf(SHARED_ADDRESS)).map(([, tenant]) => tenant).sort(), { timeout: 10_000 }).toEqual(['Acme', 'Globex']);
    expect(await cellsOf(LONER)).toEqual([['', 'No tenant']]);
  });

  it('names each of the two users of one address by their tenant, on their buttons and panels', async () => {
    for (const tenant of ['Acme', 'Globex']) {
      const whose = `${SHARED_ADDRESS} (${tenant})`;
      expect(await dashboard.page.getByRole('button', { name: `Details of ${whose}`, exact: true }).count()).toBe(1);
      await dashboard.page.getByRole('button', { name: `Roles of ${whose}`, exact: true }).click();
      await dashboard.page.getByRole('heading', { name: `Roles of ${whose}`, exact: true }).waitFor();
    }
  });

  it("says No tenant in the details of a user in no tenant, not a blank", async () => {
    await dashboard.page.getByRole('button', { name: `Details of ${LONER}` }).click();
    const panel = dashboard.page.getByRole('region', { name: `Details of ${LONER}` });
    await panel.getByText("No tenant: one of the application's own users").waitFor();
    expect(await panel.getByText(/^Tenant: $/).count()).toBe(0);
  });
});
