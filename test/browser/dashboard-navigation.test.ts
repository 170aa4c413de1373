import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { asOperator, dashboardSuite, makeConsoleUser, makeOperator, offeredScreens, openTab } from '../support/dashboard.ts';

/**
 * What the dashboard offers an operator follows the permissions they hold, read from `managedApplications` (which takes
 * none, so an operator who may not read permissions is told too): an application's tabs, a tenant's screens, the
 * Organization link and the creation of applications. An operator whose roles open no screen, or who holds none, is
 * told so and whom to ask, on a page without the refused links.
 */
const READER = { email: 'reader@ops.example', password: 'Operator-Heron-42' };
const MEMBER = { email: 'member@ops.example', password: 'Operator-Finch-42' };
const TENANT_READER = { email: 'tenant-reader@ops.example', password: 'Operator-Crane-42' };
const NOBODY = { email: 'nobody@ops.example', password: 'Operator-Robin-42' };
const WRITER = { email: 'writer@ops.example', password: 'Operator-Egret-42' };
const MEMBER_OF_ACME = 'ada@acme.example';
const LISTS_READER = { email: 'lists-reader@ops.example', password: 'Operator-Stork-42' };

const suite = dashboardSuite({
  setup: async (app) => {
    const acme = await app.createTenant('Acme');
    const userReader = { key: 'user_reader', name: 'User reader', permissions: ['users:read', 'tenants:read', 'applications:read'] };
    expect((await app.http.post('/roles', userReader)).status).toBe(201);
    const tenantRole = await app.http.post(`/applications/${app.root.applicationId}/tenants/${acme}/roles`, { key: 'acme_reader', name: 'Acme reader', permissions: ['users:read'] });
    expect(tenantRole.status).toBe(201);
    await makeOperator(app, READER, 'user_reader');
    await makeOperator(app, MEMBER, 'member');
    await makeOperator(app, TENANT_READER, 'acme_reader', acme);
    await makeConsoleUser(app, NOBODY);
    const userWriter = { key: 'user_writer', name: 'User writer', permissions: [...userReader.permissions, 'users:write'] };
    expect((await app.http.post('/roles', userWriter)).status).toBe(201);
    await makeOperator(app, WRITER, 'user_writer');
    await app.createUser(MEMBER_OF_ACME, acme);
    // Reads of lists whose tabs name tenants, without tenants:read.
    const listsReader = ['roles:read', 'role_assignments:read', 'oauth_clients:read', 'audit_logs:read', 'api_keys:read', 'applications:read'];
    expect((await app.http.post('/roles', { key: 'lists_reader', name: 'Lists reader', permissions: listsReader })).status).toBe(201);
    await makeOperator(app, LISTS_READER, 'lists_reader');
  },
});

const userStatus = async (email: string) => (await suite.app.sql<{ status: string }>('select status from app_user where email = ?', [email]))[0]?.status;

/** The details panel of the member of Acme, opened from the users listed (the tab's or the tenant's screen). */
async function openMemberDetails(page: Page) {
  await page.getByRole('button', { name: `Details of ${MEMBER_OF_ACME}` }).click();
  const panel = page.getByRole('region', { name: `Details of ${MEMBER_OF_ACME}` });
  await panel.waitFor();
  await panel.locator('.loading').first().waitFor({ state: 'detached' });
  return panel;
}

/** No action on users nor invitations is offered: none that the server would refuse the operator. */
async function expectNoUserActions(page: Page, panel: Awaited<ReturnType<typeof openMemberDetails>>): Promise<void> {
  expect(await panel.getByRole('button').allTextContents()).toEqual(['Close']);
  expect(await page.getByRole('button', { name: /^Roles of / }).count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Create user' }).count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Invite' }).count()).toBe(0);
}

const as = (account: { email: string; password: string }, use: (page: Page) => Promise<void>) =>
  asOperator(suite.page, suite.app.gatehouse.services.config.publicUrl, account, use);

/** The page told to an operator whose roles open no screen: the sentence, and no link or form that would be refused. */
async function expectNoRolePage(page: Page): Promise<void> {
  const notice = page.getByRole('region', { name: 'No role to manage with' });
  await notice.waitFor();
  expect(await notice.textContent()).toContain('You hold no role that opens a screen of this dashboard');
  expect(await notice.textContent()).toContain('Ask an Application admin');
  expect(await page.getByRole('banner').getByRole('link', { name: 'Organization' }).count()).toBe(0);
  expect(await page.getByRole('navigation', { name: 'Application sections' }).count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Create application' }).count()).toBe(0);
  expect(await page.getByRole('alert').count()).toBe(0);
  expect(await axeViolations(page)).toEqual([]);
}

describe('the screens the dashboard offers an operator, in Chromium', () => {
  it('offers an operator who may read users and tenants, application-wide, the tabs those open, each opening unrefused', async () => {
    await as(READER, async (page) => {
      const sections = page.getByRole('navigation', { name: 'Application sections' });
      await sections.waitFor();
      const offered = await sections.getByRole('link').allTextContents();
      // Not Tenants: each tenant's badges read its branding, e-mail, policies, providers and domains.
      expect(offered).toEqual(['Users', 'Invitations', 'Settings']);
      expect(await page.getByRole('banner').getByRole('link', { name: 'Organization' }).count()).toBe(0);
      for (const tab of offered) {
        await openTab(page, tab);
        await page.locator('.loading').first().waitFor({ state: 'detached' });
        expect(await page.getByRole('alert').allTextContents(), tab).toEqual([]);
      }
      expect(await axeViolations(page)).toEqual([]);
    });
  });

  it('offers an operator who may read lists but not the tenants those tabs name only the tabs that open unrefused, the Audit log among them', async () => {
    await as(LISTS_READER, async (page) => {
      const sections = page.getByRole('navigation', { name: 'Application sections' });
      await sections.waitFor();
      const offered = await sections.getByRole('link').allTextContents();
      // Each names a record's tenant by id and offers no choice of tenant without tenants:read.
      expect(offered).toEqual(['Roles', 'Operators', 'API keys', 'OAuth clients', 'Audit log', 'Settings']);
      for (const tab of offered) {
        await openTab(page, tab);
        await page.locator('.loading').first().waitFor({ state: 'detached' });
        expect(await page.getByRole('alert').allTextContents(), tab).toEqual([]);
      }
    });
  });

  it('offers the Users tab of a single-tenant application without tenants:read, which reads no tenants there', async () => {
    const { app } = suite;
    const shop = await app.http.post('/applications', { name: 'Shop' });
    expect(shop.status).toBe(201);
    expect(shop.body.multiTenant).toBe(false);
    const asShop = app.as({ apiKey: shop.body.initialApiKey.secret as string });
    const role = await asShop.post('/roles', { key: 'shop_user_reader', name: 'Shop user reader', permissions: ['users:read', 'applications:read'] });
    expect(role.status).toBe(201);
    const [reader] = await app.sql<{ id: string }>('select u.id from app_user as u join application as a on a.id = u.application_id where a.console and a.organization_id = ? and u.email = ?', [
      app.root.organizationId,
      READER.email,
    ]);
    expect((await asShop.post('/role-assignments', { subject: { type: 'operator', id: reader!.id }, roleId: role.body.id })).status).toBe(201);
    await as(READER, async (page) => {
      await page.getByRole('link', { name: 'Shop' }).click();
      await page.getByRole('heading', { level: 1, name: 'Shop' }).waitFor();
      expect(await page.getByRole('navigation', { name: 'Application sections' }).getByRole('link').allTextContents()).toEqual(['Users', 'Settings']);
      await page.getByRole('heading', { level: 2, name: 'Users' }).waitFor();
      await page.locator('.loading').first().waitFor({ state: 'detached' });
      expect(await page.getByRole('alert').allTextContents()).toEqual([]);
    });
  });

  it('offers an application-wide reader of users no action on the Users and Invitations tabs, which they may not take', async () => {
    await as(READER, async (page) => {
      // Its address: they may also read Shop's users (a test above), when the applications are listed first.
      await page.evaluate((hash) => void (location.hash = hash), `#/${suite.app.root.applicationId}/users`);
      await page.getByRole('heading', { level: 2, name: 'Users' }).waitFor();
      await expectNoUserActions(page, await openMemberDetails(page));
      await openTab(page, 'Invitations');
      await page.getByRole('heading', { level: 2, name: 'Invitations' }).waitFor();
      await page.locator('.loading').first().waitFor({ state: 'detached' });
      expect(await page.getByRole('button', { name: 'Invite' }).count()).toBe(0);
      expect(await page.getByRole('region', { name: 'Invitations' }).getByRole('button').count()).toBe(0);
    });
  });

  it('offers an operator who may also write users Create user, Invite and Suspend, and suspends once confirmed', async () => {
    await as(WRITER, async (page) => {
      await openTab(page, 'Invitations');
      await page.getByRole('button', { name: 'Invite' }).waitFor();
      await openTab(page, 'Users');
      await page.getByRole('button', { name: 'Create user' }).waitFor();
      const panel = await openMemberDetails(page);
      // Not Delete: that takes users:delete.
      expect(await panel.getByRole('button', { name: 'Delete' }).count()).toBe(0);
      page.once('dialog', (dialog) => void dialog.accept());
      await panel.getByRole('button', { name: 'Suspend' }).click();
      await panel.getByRole('status').filter({ hasText: `${MEMBER_OF_ACME} is now suspended.` }).waitFor();
      expect(await userStatus(MEMBER_OF_ACME)).toBe('suspended');
    });
  });

  it("offers an operator of a tenant role holding users:read alone, without permissions:read, no action on the users of that tenant", async () => {
    await as(TENANT_READER, async (page) => {
      await page.getByRole('link', { name: 'Users of Acme' }).click();
      await page.getByRole('region', { name: 'Users of Acme' }).waitFor();
      await expectNoUserActions(page, await openMemberDetails(page));
      await page.getByRole('heading', { level: 2, name: 'Invitations to Acme' }).waitFor();
      expect(await page.getByRole('alert').allTextContents()).toEqual([]);
    });
  });

  it('tells an operator whose application-wide role grants nothing that they hold no role, and whom to ask', async () => {
    await as(MEMBER, expectNoRolePage);
  });

  it('offers an operator of a tenant role without permissions:read the screens of that tenant it allows, no more', async () => {
    await as(TENANT_READER, async (page) => {
      await page.getByRole('heading', { level: 2, name: 'Your tenants' }).waitFor();
      expect(await offeredScreens(page, 'Acme')).toEqual(['Users of Acme']);
    });
  });

  it('tells a console user who holds no role anywhere that they hold none, and whom to ask', async () => {
    await as(NOBODY, expectNoRolePage);
  });

  it('still offers the first operator, Application admin of both, every tab, the Organization page and the creation of applications', async () => {
    const tabs = await suite.page.getByRole('navigation', { name: 'Application sections' }).getByRole('link').allTextContents();
    expect(tabs).toEqual(expect.arrayContaining(['Tenants', 'Users', 'Operators', 'Settings']));
    expect(tabs).toHaveLength(17);
    expect(await suite.page.getByRole('banner').getByRole('link', { name: 'Organization' }).count()).toBe(1);
  });
});
