import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { dashboardSuite, makeOperator, signInToDashboard } from '../support/dashboard.ts';
import { signInForManagement } from '../support/oauth.ts';

/**
 * A tenant's Users screen in Chromium, for an operator whose roles in the application are held in tenants only: a
 * helpdesk operator of Acme (users:read and users:write there, no users:delete nor role assignments) opens Acme's
 * users from their landing, sees its members and no other tenant's, searches them, creates one and suspends one; they
 * are offered no Remove nor Roles, and the server's refusal to suspend a member Globex shares is shown. A Tenant admin
 * of Acme is offered Roles, where a role is given in Acme alone, and Remove from Acme, which removes a member from Acme
 * alone. No application-wide tab or panel shows, so nothing is refused for a setting of the application. Both pages
 * break no WCAG A or AA rule (axe-core). The Tenant admin invites an address to Acme with a role of Acme's, leading to
 * a client of Acme's (the application's own are not theirs to read), and revokes it; an operator of Acme who may only
 * read its users sees its invitations (the role, which they may not read, said to be unnamed, and the Tenant admin who
 * sent it "Another operator", not an id), and is offered neither Invite nor Resend nor Revoke; the helpdesk operator
 * is offered Invite without roles or clients, which they may not give or read. The Tenant admin opens Acme's sessions,
 * its members' sign-ins alone (not Globex's), and revokes one; the operator who may read them but not revoke them sees
 * no Tenant column (every row is Acme's) and is offered no Revoke; the helpdesk operator, who may not read sessions, is
 * offered no Sessions screen.
 * Screenshot: test-results/dashboard-tenant-users.png.
 */
const HELPDESK = { email: 'helpdesk@ops.example', password: 'Operator-Plover-42' };
const TENANT_ADMIN = { email: 'acme-admin@ops.example', password: 'Operator-Curlew-42' };
const VIEWER = { email: 'acme-viewer@ops.example', password: 'Operator-Dunlin-42' };
const INVITEE = 'invitee@acme.example';
const ADA = 'ada@acme.example';
const BOB = 'bob@globex.example';
const SHARED = 'shared@both.example';
const CAROL = 'carol@acme.example';
const NEW_USER = 'new@acme.example';
let appId: string;
let acme: string;
let globex: string;

const dashboard = dashboardSuite({
  setup: async (app) => {
    appId = app.root.applicationId;
    acme = await app.createTenant('Acme');
    globex = await app.createTenant('Globex');
    await app.createUser(ADA, acme);
    await app.createUser(CAROL, acme);
    await app.createUser(BOB, globex);
    const shared = await app.createUser(SHARED, acme);
    expect((await app.http.patch(`/users/${shared}`, { tenantIds: [acme, globex] })).status).toBe(200);
    const helpdesk = { key: 'helpdesk', name: 'Helpdesk', permissions: ['users:read', 'users:write', 'permissions:read'] };
    expect((await app.http.post('/roles', helpdesk)).status).toBe(201);
    await makeOperator(app, HELPDESK, 'helpdesk', acme);
    await makeOperator(app, TENANT_ADMIN, 'tenant_admin', acme);
    const viewer = { key: 'viewer', name: 'Viewer', permissions: ['users:read', 'sessions:read', 'permissions:read'] };
    expect((await app.http.post('/roles', viewer)).status).toBe(201);
    await makeOperator(app, VIEWER, 'viewer', acme);
    expect((await app.http.post(`/applications/${appId}/tenants/${acme}/roles`, { key: 'acme_support', name: 'Acme support', permissions: ['users:read'] })).status).toBe(201);
    expect((await app.http.post('/oauth-clients', { name: 'Acme portal', type: 'spa', redirectUris: ['https://acme.example/cb'], tenantId: acme })).status).toBe(201);
    expect((await app.http.post('/oauth-clients', { name: 'Storefront', type: 'spa', redirectUris: ['https://shop.example/cb'] })).status).toBe(201);
  },
});

/** A page of a browser context of its own, signed in as `account`, on the tenants' landing. */
async function signedInAs(account: { email: string; password: string }): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await dashboard.page.context().browser()!.newContext();
  const page = await context.newPage();
  await signInToDashboard(page, dashboard.app.gatehouse.services.config.publicUrl, account);
  await page.getByRole('heading', { level: 1, name: 'My application' }).waitFor();
  return { page, close: () => context.close() };
}

const userStatus = async (email: string) => ((await dashboard.app.sql<{ status: string }>('select status from app_user where email = ?', [email])) as { status: string }[])[0]?.status;
const listedEmails = (page: Page) => page.getByRole('region', { name: 'Users of Acme' }).locator('tbody th').allTextContents();
const answerDialog = (page: Page) => new Promise<string>((resolve) => page.once('dialog', (dialog) => (resolve(dialog.message()), void dialog.accept())));

describe("a tenant's Users screen for an operator of some tenants only, in Chromium", () => {
  let helpdesk: { page: Page; close: () => Promise<void> };
  beforeAll(async () => {
    helpdesk = await signedInAs(HELPDESK);
  });
  afterAll(async () => helpdesk?.close());

  it("opens Acme's users from the landing: its members, no other tenant's, and no application-wide tab", async () => {
    const { page } = helpdesk;
    await page.getByRole('list', { name: 'Tenants in which you hold a role' }).getByRole('link', { name: 'Users of Acme' }).click();
    await page.waitForURL(new RegExp(`#/${appId}/users/${acme}$`));
    await page.getByRole('heading', { level: 2, name: 'Users of Acme' }).waitFor();
    await page.getByRole('row', { name: new RegExp(ADA) }).waitFor();
    expect((await listedEmails(page)).sort()).toEqual([ADA, CAROL, SHARED]);
    expect(await page.getByRole('navigation', { name: 'Application sections' }).count()).toBe(0);
    expect(await page.getByRole('columnheader', { name: 'Tenant' }).count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('searches the tenant\'s members by address', async () => {
    const { page } = helpdesk;
    await page.getByLabel('E-mail starts with').fill('ada');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('row', { name: new RegExp(CAROL) }).waitFor({ state: 'detached' });
    // The search's list is read anew: its rows come after the earlier list's are gone.
    await page.getByRole('row', { name: new RegExp(ADA) }).waitFor();
    expect(await listedEmails(page)).toEqual([ADA]);
    await page.getByLabel('E-mail starts with').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('row', { name: new RegExp(CAROL) }).waitFor();
  });

  it('creates a member of Acme, listed at once', async () => {
    const { page } = helpdesk;
    const create = page.getByRole('region', { name: 'Create a user in Acme' });
    await create.getByLabel('E-mail').fill(NEW_USER);
    await create.getByRole('button', { name: 'Create user' }).click();
    await create.getByRole('status').filter({ hasText: `${NEW_USER} was created without a password.` }).waitFor();
    await page.getByRole('row', { name: new RegExp(NEW_USER) }).waitFor();
    const [made] = (await dashboard.app.sql<{ tenant_ids: string[] }>('select tenant_ids from app_user where email = ?', [NEW_USER])) as { tenant_ids: string[] }[];
    expect(made?.tenant_ids).toEqual([acme]);
  });

  it('suspends a member of Acme alone, once confirmed, and offers no Remove nor Roles without the permissions', async () => {
    const { page } = helpdesk;
    await page.getByRole('button', { name: `Details of ${ADA}` }).click();
    const panel = page.getByRole('region', { name: `Details of ${ADA}` });
    await panel.waitFor();
    const asked = answerDialog(page);
    await panel.getByRole('button', { name: 'Suspend' }).click();
    expect(await asked).toContain(`Suspend ${ADA}?`);
    await panel.getByRole('status').filter({ hasText: `${ADA} is now suspended.` }).waitFor();
    expect(await userStatus(ADA)).toBe('suspended');
    expect(await page.getByRole('row', { name: new RegExp(ADA) }).getByRole('cell').nth(1).textContent()).toBe('Suspended');
    expect(await panel.getByRole('button', { name: /Remove|Delete/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Roles of / }).count()).toBe(0);
    await page.screenshot({ path: 'test-results/dashboard-tenant-users.png', fullPage: true });
  });

  it("shows the server's refusal to suspend a member Globex shares, who stays active", async () => {
    const { page } = helpdesk;
    await page.getByRole('button', { name: `Details of ${SHARED}` }).click();
    const panel = page.getByRole('region', { name: `Details of ${SHARED}` });
    const asked = answerDialog(page);
    await panel.getByRole('button', { name: 'Suspend' }).click();
    await asked;
    const refusal = panel.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('The user belongs to other tenants too: their identity is changed with application-wide credentials');
    expect(await userStatus(SHARED)).toBe('active');
  });

  it('offers Invite to Acme without roles, which they may not give, nor clients, which they may not read', async () => {
    const invite = helpdesk.page.getByRole('region', { name: 'Invite to Acme' });
    await invite.getByLabel('E-mail').waitFor();
    expect(await invite.getByRole('group', { name: 'Roles (optional)' }).count()).toBe(0);
    expect(await invite.getByLabel('Once accepted, continue to (optional)').count()).toBe(0);
  });

  it('breaks no WCAG A or AA rule on the landing nor on the users, a panel open', async () => {
    const { page } = helpdesk;
    await page.getByRole('link', { name: 'Your tenants' }).click();
    await page.getByRole('heading', { level: 2, name: 'Your tenants' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Users of Acme' }).click();
    await page.getByRole('button', { name: `Details of ${CAROL}` }).click();
    await page.getByRole('region', { name: `Details of ${CAROL}` }).getByText('Social accounts').waitFor();
    await page.locator('.loading').first().waitFor({ state: 'detached' });
    expect(await axeViolations(page)).toEqual([]);
  });

  it('names a tenant the operator holds no role in as not theirs, showing none of its users', async () => {
    const { page } = helpdesk;
    await page.goto(`${dashboard.app.gatehouse.services.config.publicUrl}/dashboard/#/${appId}/users/${globex}`);
    await page.getByText('The address names a tenant in which you hold no role, or one that no longer exists.').waitFor();
    expect(await page.getByText(BOB).count()).toBe(0);
  });
});

describe("a tenant's Users screen for a Tenant admin, in Chromium", () => {
  it('gives a member a role in Acme alone, "All tenants" not offered', async () => {
    const admin = await signedInAs(TENANT_ADMIN);
    try {
      const { page } = admin;
      await page.getByRole('link', { name: 'Users of Acme' }).click();
      await page.getByRole('button', { name: `Roles of ${CAROL}` }).click();
      const panel = page.getByRole('region', { name: `Roles of ${CAROL}` });
      await panel.getByText(`${CAROL} holds no role.`).waitFor();
      expect(await panel.getByLabel('Tenant').locator('option').allTextContents()).toEqual(['Acme']);
      await panel.getByLabel('Role').selectOption({ label: 'Member' });
      await panel.getByRole('button', { name: 'Assign role' }).click();
      await panel.getByRole('status').filter({ hasText: `${CAROL} now holds Member (Acme).` }).waitFor();
      expect(await panel.getByRole('row', { name: /Member/ }).getByRole('cell').allTextContents()).toEqual(['Acme', 'Remove']);
      const [carol] = (await dashboard.app.sql<{ id: string }>('select id from app_user where email = ?', [CAROL])) as { id: string }[];
      const held = await dashboard.app.sql<{ tenant_id: string | null }>('select tenant_id from role_assignment where subject_id = ?', [carol!.id]);
      expect(held).toEqual([{ tenant_id: acme }]);
      expect(await page.getByRole('alert').count()).toBe(0);
    } finally {
      await admin.close();
    }
  });

  it('offers Roles and Remove from Acme, which removes the member from Acme alone', async () => {
    const admin = await signedInAs(TENANT_ADMIN);
    try {
      const { page } = admin;
      await page.getByRole('link', { name: 'Users of Acme' }).click();
      await page.getByRole('button', { name: `Roles of ${SHARED}` }).waitFor();
      await page.getByRole('button', { name: `Details of ${SHARED}` }).click();
      const panel = page.getByRole('region', { name: `Details of ${SHARED}` });
      const asked = answerDialog(page);
      await panel.getByRole('button', { name: 'Remove from Acme' }).click();
      expect(await asked).toContain(`Remove ${SHARED} from Acme?`);
      await page.getByRole('status').filter({ hasText: `${SHARED} is no longer a member of Acme.` }).waitFor();
      await page.getByRole('row', { name: new RegExp(SHARED) }).waitFor({ state: 'detached' });
      const [left] = (await dashboard.app.sql<{ tenant_ids: string[] }>('select tenant_ids from app_user where email = ?', [SHARED])) as { tenant_ids: string[] }[];
      expect(left?.tenant_ids).toEqual([globex]);
      expect(await page.getByRole('alert').count()).toBe(0);
    } finally {
      await admin.close();
    }
  });
});

describe("a tenant's invitations on its Users screen, in Chromium", () => {
  const invitationsOf = (page: Page) => page.getByRole('region', { name: 'Invitations to Acme' });
  const inviteeRow = (page: Page) => invitationsOf(page).getByRole('row', { name: new RegExp(INVITEE) });
  const invitations = () => dashboard.app.sql<{ tenant_id: string; revoked: boolean }>('select tenant_id, revoked_at is not null as revoked from invitation where email = ?', [INVITEE]);

  it('lets a Tenant admin invite an address to Acme with a role of Acme, no tenant to choose, only their clients offered', async () => {
    const admin = await signedInAs(TENANT_ADMIN);
    try {
      const { page } = admin;
      await page.getByRole('link', { name: 'Users of Acme' }).click();
      const invite = page.getByRole('region', { name: 'Invite to Acme' });
      await invite.getByRole('checkbox', { name: 'Acme support' }).waitFor();
      expect(await invite.getByLabel('Tenant', { exact: true }).count()).toBe(0);
      const client = invite.getByLabel('Once accepted, continue to (optional)');
      expect(await client.locator('option').allTextContents()).toEqual(['No application', 'Acme portal']);
      await invite.getByLabel('E-mail').fill(INVITEE);
      await invite.getByRole('checkbox', { name: 'Acme support' }).check();
      await client.selectOption({ label: 'Acme portal' });
      await invite.getByRole('button', { name: 'Invite' }).click();
      await invite.getByRole('status').filter({ hasText: `An invitation to Acme was created for ${INVITEE}` }).waitFor();
      await inviteeRow(page).waitFor();
      expect(await inviteeRow(page).getByRole('cell').allTextContents()).toEqual(['Acme support', 'Pending', expect.any(String), TENANT_ADMIN.email, 'ResendRevoke']);
      expect(await invitations()).toEqual([{ tenant_id: acme, revoked: false }]);
      const listed = (await dashboard.app.http.get('/invitations')).body.data as { email: string; tenantId: string }[];
      expect(listed.filter((invitation) => invitation.email === INVITEE).map((invitation) => invitation.tenantId)).toEqual([acme]);
      expect(await page.getByRole('alert').count()).toBe(0);
    } finally {
      await admin.close();
    }
  });

  it("shows an operator who may only read Acme's users its invitations, offering no Invite, Resend nor Revoke", async () => {
    const viewer = await signedInAs(VIEWER);
    try {
      const { page } = viewer;
      await page.getByRole('link', { name: 'Users of Acme' }).click();
      await inviteeRow(page).waitFor();
      // Without roles:read the API names no role (nor does the invitation): the role is said to be unnamed, not its id.
      expect(await inviteeRow(page).getByRole('cell').first().textContent()).toBe('Unnamed role');
      // The Tenant admin sent it: a tenant's scope reads no console user, so they are named plainly, not by their id.
      expect(await inviteeRow(page).getByRole('cell').nth(3).textContent()).toBe('Another operator');
      expect(await page.getByText(/operator:/).count()).toBe(0);
      expect(await inviteeRow(page).getByRole('button').count()).toBe(0);
      expect(await page.getByRole('region', { name: 'Invite to Acme' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Invite' }).count()).toBe(0);
    } finally {
      await viewer.close();
    }
  });

  it('lets the Tenant admin revoke the invitation, once confirmed', async () => {
    const admin = await signedInAs(TENANT_ADMIN);
    try {
      const { page } = admin;
      await page.getByRole('link', { name: 'Users of Acme' }).click();
      const asked = answerDialog(page);
      await inviteeRow(page).getByRole('button', { name: 'Revoke' }).click();
      expect(await asked).toContain(`Revoke the invitation of ${INVITEE} to Acme?`);
      await inviteeRow(page).getByRole('status').filter({ hasText: `The invitation of ${INVITEE} is revoked.` }).waitFor();
      expect(await invitations()).toEqual([{ tenant_id: acme, revoked: true }]);
    } finally {
      await admin.close();
    }
  });
});

describe("a tenant's Sessions screen, in Chromium", () => {
  const userId = async (email: string) => ((await dashboard.app.sql<{ id: string }>('select id from app_user where email = ?', [email])) as { id: string }[])[0]!.id;
  const liveSessions = async () => (await dashboard.app.http.get('/sessions')).body.data as { id: string; userId: string; tenantId: string }[];
  let carol: string;

  beforeAll(async () => {
    carol = await userId(CAROL);
    await signInForManagement(dashboard.app, carol, acme);
    await signInForManagement(dashboard.app, await userId(BOB), globex);
  });

  it("lists Acme's sign-ins alone to an operator who may read them, offering no Revoke without sessions:delete", async () => {
    const viewer = await signedInAs(VIEWER);
    try {
      const { page } = viewer;
      await page.getByRole('list', { name: 'Screens of Acme' }).getByRole('link', { name: 'Sessions of Acme' }).click();
      await page.waitForURL(new RegExp(`#/${appId}/sessions/${acme}$`));
      const row = page.getByRole('row', { name: new RegExp(CAROL) });
      await row.waitFor();
      // The application's client is none a tenant's scope reads: it is said to be unnamed, not its id. Every row is
      // Acme's, so no Tenant column names it.
      expect((await row.getByRole('cell').allTextContents()).slice(0, 1)).toEqual(['Unnamed client']);
      expect(await page.getByRole('columnheader').allTextContents()).toEqual(['User', 'Client', 'Methods', 'Address', 'User agent', 'Signed in', 'Last active', 'Expires']);
      expect(await page.getByText(BOB).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
      expect(await page.getByRole('columnheader', { name: 'Actions' }).count()).toBe(0);
    } finally {
      await viewer.close();
    }
  });

  it('offers the helpdesk operator, who may not read sessions, no Sessions screen; the server refuses its address, shown as a refusal', async () => {
    const helpdesk = await signedInAs(HELPDESK);
    try {
      const { page } = helpdesk;
      const offered = page.getByRole('list', { name: 'Screens of Acme' }).getByRole('link');
      await offered.first().waitFor();
      expect(await offered.allTextContents()).toEqual(['Users of Acme']);
      await page.goto(`${dashboard.app.gatehouse.services.config.publicUrl}/dashboard/#/${appId}/sessions/${acme}`);
      const refusal = page.getByRole('alert');
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain('Missing permission sessions:read');
      expect(await page.getByText(CAROL).count()).toBe(0);
      // A refusal, not a failure: no empty table reads as "no sessions", and no "Try again" would be answered otherwise.
      expect(await page.getByRole('table').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    } finally {
      await helpdesk.close();
    }
  });

  it("lets the Tenant admin revoke a member's sign-in to Acme, once confirmed; Globex's stays", async () => {
    const admin = await signedInAs(TENANT_ADMIN);
    try {
      const { page } = admin;
      await page.getByRole('link', { name: 'Sessions of Acme' }).click();
      const row = page.getByRole('row', { name: new RegExp(CAROL) });
      await row.getByRole('button', { name: 'Revoke' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      const asked = answerDialog(page);
      await row.getByRole('button', { name: 'Revoke' }).click();
      expect(await asked).toContain(`Revoke ${CAROL}'s sign-in to Acme (Unnamed client)?`);
      await page.getByRole('status').filter({ hasText: `${CAROL}'s sign-in to Acme is revoked.` }).waitFor();
      await row.waitFor({ state: 'detached' });
      expect((await liveSessions()).map((session) => session.tenantId)).toEqual([globex]);
      expect(await page.getByRole('alert').count()).toBe(0);
    } finally {
      await admin.close();
    }
  });

  it("lets the Tenant admin sign a member Globex shares out of Acme, once confirmed; their sign-in to Globex stays", async () => {
    const both = 'both@both.example';
    const bothId = await dashboard.app.createUser(both, acme);
    expect((await dashboard.app.http.patch(`/users/${bothId}`, { tenantIds: [acme, globex] })).status).toBe(200);
    await signInForManagement(dashboard.app, bothId, acme);
    await signInForManagement(dashboard.app, bothId, globex);
    const tenantsSignedIn = async () => (await liveSessions()).filter((session) => session.userId === bothId).map((session) => session.tenantId).sort();
    expect(await tenantsSignedIn()).toEqual([acme, globex].sort());
    const admin = await signedInAs(TENANT_ADMIN);
    try {
      const { page } = admin;
      await page.getByRole('link', { name: 'Users of Acme' }).click();
      await page.getByRole('button', { name: `Details of ${both}` }).click();
      const panel = page.getByRole('region', { name: `Details of ${both}` });
      const asked = answerDialog(page);
      await panel.getByRole('button', { name: 'Sign out of Acme' }).click();
      expect(await asked).toBe(`Sign ${both} out of Acme? Each of their sign-ins to Acme ends, with those apps keep (offline access): its apps ask them to sign in again.`);
      await panel.getByRole('status').filter({ hasText: `${both} is signed out of Acme.` }).waitFor();
      expect(await tenantsSignedIn()).toEqual([globex]);
      expect(await panel.getByRole('alert').count()).toBe(0);
    } finally {
      await admin.close();
    }
  });
});
