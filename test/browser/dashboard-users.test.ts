import * as oidc from 'openid-client';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SHARED_POOL } from '../../src/db/entities/user.entity.ts';
import { newId } from '../../src/ids.ts';
import { readForm } from '../support/cookie-jar.ts';
import { dashboardSuite } from '../support/dashboard.ts';
import { createTestClient, discover, startAuthorization, type TestClient } from '../support/oauth.ts';
import { offlineSignIn, refreshFails } from '../support/seam-sessions.ts';

/**
 * The dashboard's Users tab in Chromium: the operator creates a user of Acme with a password, who then signs in with
 * it; suspends them once confirmed (refused at sign-in) and activates them; signs them out everywhere once confirmed
 * (an app's offline sign-in included); adds them to Globex; edits their name and
 * address; resets another user's second factors and unlinks their social account; unlocks a locked user; deletes the first for good; and sees the
 * server's refusals (an address taken, at creation and at an edit, a password too short, a user deleted meanwhile),
 * which change nothing. Each step is checked through the REST API. Screenshot: test-results/dashboard-users-details.png.
 */
const REDIRECT_URI = 'https://app.example/callback';
const NEW_USER = { email: 'nora@example.com', name: 'Nora Quist', password: 'Correct-Horse-9' } as const;
const RENAMED = { email: 'nora.q@example.com', name: 'Nora Q. Quist' } as const;
const EXISTING = 'uma@example.com';
const WITH_MFA = 'mfa@example.com';
let acme: string;
let globex: string;
let existingId: string;
let withMfaId: string;
let config: oidc.Configuration;
/** A public client whose sign-ins keep a refresh token (offline access). */
let spa: TestClient;
/** The new user's id, once the dashboard made them. */
let newUserId: string;

interface UserBody {
  id: string;
  email: string;
  name: string | null;
  status: string;
  tenantIds: string[];
}

/** One hosted password sign-in of the application's web client, as a browser posts it: 303 onwards, or refused. */
async function signIn(email: string, password: string): Promise<{ status: number; body: string }> {
  const flow = await startAuthorization(config, { redirectUri: REDIRECT_URI, resource: '' });
  const form = readForm(flow.page.url, flow.page.body);
  const answer = await flow.jar.visit(form.action, { form: { ...form.fields, email, password } });
  return { status: answer.status, body: answer.body };
}

const usersOf = async (email: string) => (await dashboard.app.http.get(`/users?email=${encodeURIComponent(email)}`)).body.data as UserBody[];
const userById = (userId: string) => dashboard.app.http.get(`/users/${userId}`);
const region = (name: string): Locator => dashboard.page.getByRole('region', { name, exact: true });
const userRow = (email: string): Locator => dashboard.page.getByRole('row', { name: new RegExp(`^${email.replace(/\./g, '\\.')} `) });
const details = (email: string): Locator => region(`Details of ${email}`);
const detail = (panel: Locator, term: string): Locator => panel.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');
const statusCell = (email: string): Locator => userRow(email).getByRole('cell').nth(1);

async function createInDashboard(fields: { email: string; name?: string; password?: string; tenant?: string }): Promise<void> {
  const form = region('Create user');
  await form.getByLabel('E-mail').fill(fields.email);
  await form.getByLabel('Name (optional)').fill(fields.name ?? '');
  await form.getByLabel('Password (optional)').fill(fields.password ?? '');
  await form.getByLabel('Tenant').selectOption({ label: fields.tenant ?? 'No tenant' });
  await form.getByRole('button', { name: 'Create user' }).click();
}

const dashboard = dashboardSuite({
  tab: 'Users',
  setup: async (app) => {
    acme = await app.createTenant('Acme');
    globex = await app.createTenant('Globex');
    existingId = await app.createUser(EXISTING, acme);
    withMfaId = await app.createUser(WITH_MFA, acme);
    // A factor as an enrolment stores it (the hosted step: test/oauth/hosted-mfa.test.ts).
    await app.sql(`insert into mfa_factor (application_id, id, user_id, kind) values (?, gen_random_uuid(), ?, 'email_otp')`, [app.root.applicationId, withMfaId]);
    // A social account, as their first sign-in through it links it (test/oauth/hosted-social.test.ts).
    const idp = await app.http.post('/auth-providers', { type: 'oauth', name: 'Acme IdP', config: { provider: 'generic', clientId: 'acme', issuer: 'https://idp.acme.example' }, secrets: { clientSecret: 's' } });
    await app.sql(`insert into user_identity (application_id, id, pool_id, provider_id, subject, user_id, created_at) values (?, ?, ?, ?, 'mfa-sub', ?, now())`, [
      app.root.applicationId,
      newId(),
      SHARED_POOL,
      idp.body.id,
      withMfaId,
    ]);
    // As the lockout policy's `lockoutMinutes: null` leaves a user (src/domain/sign-in/lockout.ts): locked until unlocked.
    await app.sql(`update app_user set status = 'locked', locked_until = null, failed_sign_ins = 50 where id = ?`, [existingId]);
    const web = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
    config = await discover(app, web.clientId, oidc.ClientSecretBasic(web.clientSecret));
    spa = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT_URI] });
  },
});

describe('the Users tab of the dashboard in Chromium', () => {
  it('creates a user of Acme with a password, who signs in with it', async () => {
    await userRow(EXISTING).waitFor();
    await createInDashboard({ ...NEW_USER, tenant: 'Acme' });
    await region('Create user').getByRole('status').filter({ hasText: `${NEW_USER.email} was created.` }).waitFor();
    await userRow(NEW_USER.email).waitFor();
    expect((await userRow(NEW_USER.email).getByRole('cell').allTextContents()).slice(0, 2)).toEqual([NEW_USER.name, 'Active']);
    expect(await region('Create user').getByLabel('E-mail').inputValue()).toBe('');

    const [created] = await usersOf(NEW_USER.email);
    expect(created).toMatchObject({ email: NEW_USER.email, name: NEW_USER.name, status: 'active', tenantIds: [acme] });
    newUserId = created!.id;
    expect((await signIn(NEW_USER.email, NEW_USER.password)).status).toBe(303);
  });

  it('suspends no one when the confirmation is dismissed', async () => {
    await userRow(NEW_USER.email).getByRole('button', { name: `Details of ${NEW_USER.email}` }).click();
    const panel = details(NEW_USER.email);
    const question = dashboard.answerNextDialog('dismiss');
    await panel.getByRole('button', { name: 'Suspend' }).click();
    expect(await question).toContain(`Suspend ${NEW_USER.email}?`);
    // No outcome said (the tenants' list may still be loading, a status of its own).
    expect(await panel.getByRole('status').filter({ hasText: 'is now' }).count()).toBe(0);
    expect(await statusCell(NEW_USER.email).textContent()).toBe('Active');
    expect((await userById(newUserId)).body.status).toBe('active');
  });

  it('suspends them once confirmed, saying what a suspension ends: Suspended from the server, and their sign-in is refused', async () => {
    const panel = details(NEW_USER.email);
    expect(await detail(panel, 'Status').textContent()).toBe('Active');
    const question = dashboard.answerNextDialog();
    await panel.getByRole('button', { name: 'Suspend' }).click();
    await panel.getByRole('status').filter({ hasText: `${NEW_USER.email} is now suspended.` }).waitFor();
    expect(await question).toBe(
      `Suspend ${NEW_USER.email}? They are signed out everywhere: their sessions and tokens end, and the links and codes mailed to them stop working, for good (Activate restores none of them). Their API keys are refused until they are activated.`,
    );
    expect(await statusCell(NEW_USER.email).textContent()).toBe('Suspended');
    expect(await detail(panel, 'Status').textContent()).toBe('Suspended');
    await detail(panel, 'Live sessions').filter({ hasText: /^0$/ }).waitFor();
    await dashboard.page.screenshot({ path: 'test-results/dashboard-users-details.png', fullPage: true });

    expect((await userById(newUserId)).body.status).toBe('suspended');
    // Refused as a wrong password is: the page tells no one that the account exists.
    const refused = await signIn(NEW_USER.email, NEW_USER.password);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('The email address or password is incorrect.');
  });

  it('activates them again, and they sign in', async () => {
    const panel = details(NEW_USER.email);
    await panel.getByRole('button', { name: 'Activate' }).click();
    await panel.getByRole('status').filter({ hasText: `${NEW_USER.email} is now active.` }).waitFor();
    expect(await statusCell(NEW_USER.email).textContent()).toBe('Active');
    expect((await userById(newUserId)).body.status).toBe('active');
    expect((await signIn(NEW_USER.email, NEW_USER.password)).status).toBe(303);
  });

  it('signs them out everywhere once confirmed: every session ends, an app kept signed in (offline access) included', async () => {
    const signedIn = await offlineSignIn(dashboard.app, { clientId: spa.clientId, redirectUri: REDIRECT_URI, userId: newUserId, tenantId: acme, idTokenExpected: true });
    const sessions = async () => (await dashboard.app.http.get(`/users/${newUserId}/sessions`)).body.data as unknown[];
    expect((await sessions()).length).toBeGreaterThan(0);
    const panel = details(NEW_USER.email);
    // Read again as the operator comes back to the page.
    await dashboard.comeBack();
    await detail(panel, 'Live sessions').filter({ hasText: /^[1-9]/ }).waitFor();
    const dismissed = dashboard.answerNextDialog('dismiss');
    await panel.getByRole('button', { name: 'Sign out everywhere' }).click();
    expect(await dismissed).toBe(
      `Sign ${NEW_USER.email} out everywhere? Each of their sessions ends, with the sign-ins apps keep (offline access): every app asks them to sign in again.`,
    );
    expect((await sessions()).length).toBeGreaterThan(0);

    const confirmed = dashboard.answerNextDialog();
    await panel.getByRole('button', { name: 'Sign out everywhere' }).click();
    await confirmed;
    await panel.getByRole('status').filter({ hasText: `${NEW_USER.email} is signed out everywhere.` }).waitFor();
    await detail(panel, 'Live sessions').filter({ hasText: /^0$/ }).waitFor();
    expect(await sessions()).toEqual([]);
    expect(await refreshFails(signedIn.config, signedIn.tokens.refresh_token!)).toBe(true);
    expect((await userById(newUserId)).body.status).toBe('active');
  });

  it('adds them to Globex, as the whole list of their tenants', async () => {
    const panel = details(NEW_USER.email);
    const tenants = panel.getByRole('group', { name: 'Tenants' });
    expect(await tenants.getByRole('checkbox', { name: 'Acme' }).isChecked()).toBe(true);
    await tenants.getByRole('checkbox', { name: 'Globex' }).check();
    await panel.getByRole('button', { name: 'Save tenants' }).click();
    await panel.getByRole('status').filter({ hasText: `${NEW_USER.email} is a member of Acme, Globex.` }).waitFor();
    expect((await userById(newUserId)).body.tenantIds).toEqual([acme, globex]);
  });

  it("shows the 409 of an address taken when editing a user's profile, and changes nothing", async () => {
    const profile = details(NEW_USER.email).getByRole('form', { name: 'Profile' });
    await profile.getByLabel('E-mail').fill(EXISTING);
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await profile.getByRole('alert').filter({ hasText: 'A user with this e-mail already exists' }).waitFor();
    expect((await userById(newUserId)).body.email).toBe(NEW_USER.email);
    expect(await userRow(NEW_USER.email).count()).toBe(1);
  });

  it("edits the user's name and address: saved on the server and shown in the table", async () => {
    // The panel's heading follows the address: the one Profile form on the page.
    const profile = dashboard.page.getByRole('form', { name: 'Profile' });
    await profile.getByLabel('E-mail').fill(RENAMED.email);
    await profile.getByLabel('Name').fill(RENAMED.name);
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await profile.getByRole('status').filter({ hasText: `The profile of ${RENAMED.email} is saved.` }).waitFor();
    expect(await userRow(RENAMED.email).getByRole('cell').first().textContent()).toBe(RENAMED.name);
    expect(await details(RENAMED.email).count()).toBe(1);
    expect((await userById(newUserId)).body).toMatchObject({ email: RENAMED.email, name: RENAMED.name });

    // Back to the address the later steps use.
    await profile.getByLabel('E-mail').fill(NEW_USER.email);
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await profile.getByRole('status').filter({ hasText: `The profile of ${NEW_USER.email} is saved.` }).waitFor();
    expect((await userById(newUserId)).body.email).toBe(NEW_USER.email);
  });

  it("resets another user's second factors once confirmed", async () => {
    await userRow(WITH_MFA).getByRole('button', { name: `Details of ${WITH_MFA}` }).click();
    // One panel at a time.
    await details(NEW_USER.email).waitFor({ state: 'detached' });
    const panel = details(WITH_MFA);
    const question = dashboard.answerNextDialog();
    await panel.getByRole('button', { name: 'Reset MFA' }).click();
    await panel.getByRole('status').filter({ hasText: `${WITH_MFA} has no second factor any more.` }).waitFor();
    expect(await question).toContain(`Remove every second factor and recovery code of ${WITH_MFA}?`);
    const records = (await dashboard.app.http.get(`/audit-logs?action=user.mfa.reset&target=${withMfaId}`)).body.data as { before: { factors: unknown[] } }[];
    expect(records).toHaveLength(1);
  });

  it("unlinks the user's social account once confirmed", async () => {
    const panel = details(WITH_MFA);
    const accounts = detail(panel, 'Social accounts');
    await accounts.getByText('Acme IdP: mfa-sub, linked').waitFor();
    const question = dashboard.answerNextDialog();
    await accounts.getByRole('button', { name: 'Unlink Acme IdP account mfa-sub' }).click();
    await accounts.filter({ hasText: /^None$/ }).waitFor();
    expect(await question).toContain(`Unlink ${WITH_MFA}'s Acme IdP account (mfa-sub)?`);
    expect((await dashboard.app.http.get(`/users/${withMfaId}/upstream-links`)).body.data).toEqual([]);
  });

  it('unlocks a locked user, whose Unlock is offered only while locked', async () => {
    await userRow(EXISTING).getByRole('button', { name: `Details of ${EXISTING}` }).click();
    const panel = details(EXISTING);
    expect(await statusCell(EXISTING).textContent()).toBe('Locked');
    await panel.getByRole('button', { name: 'Unlock' }).click();
    await panel.getByRole('status').filter({ hasText: `${EXISTING} is now active.` }).waitFor();
    expect(await statusCell(EXISTING).textContent()).toBe('Active');
    expect(await panel.getByRole('button', { name: 'Unlock' }).count()).toBe(0);
    expect((await userById(existingId)).body.status).toBe('active');
  });

  it('shows the refusal of an action on a user deleted meanwhile, and changes nothing', async () => {
    expect((await dashboard.app.http.delete(`/users/${withMfaId}`)).status).toBe(204);
    await userRow(WITH_MFA).getByRole('button', { name: `Details of ${WITH_MFA}` }).click();
    const panel = details(WITH_MFA);
    const notFound = panel.getByRole('alert').filter({ hasText: /not found/i });
    // The panel's own read of the user's sessions is refused first; Suspend's refusal is the second alert.
    await notFound.first().waitFor();
    void dashboard.answerNextDialog();
    await panel.getByRole('button', { name: 'Suspend' }).click();
    await notFound.nth(1).waitFor();
    expect(await statusCell(WITH_MFA).textContent()).toBe('Active');
    expect((await userById(withMfaId)).status).toBe(404);
  });

  it('deletes the new user once confirmed, saying it cannot be undone', async () => {
    await userRow(NEW_USER.email).getByRole('button', { name: `Details of ${NEW_USER.email}` }).click();
    const question = dashboard.answerNextDialog();
    await details(NEW_USER.email).getByRole('button', { name: 'Delete' }).click();
    await dashboard.page.getByRole('status').filter({ hasText: `${NEW_USER.email} is deleted.` }).waitFor();
    expect(await question).toContain('This cannot be undone.');
    expect(await userRow(NEW_USER.email).count()).toBe(0);
    expect((await userById(newUserId)).status).toBe(404);
  });

  it('shows the 409 of an address taken, and creates nothing', async () => {
    await createInDashboard({ email: EXISTING, password: NEW_USER.password, tenant: 'Acme' });
    await region('Create user').getByRole('alert').filter({ hasText: 'A user with this e-mail already exists' }).waitFor();
    expect((await usersOf(EXISTING)).map((user) => user.id)).toEqual([existingId]);
    expect(await userRow(EXISTING).count()).toBe(1);
  });

  it("shows the password policy's refusal of a password too short, and creates nothing", async () => {
    await createInDashboard({ email: 'short@example.com', password: 'Ab-1' });
    await region('Create user').getByRole('alert').filter({ hasText: 'must be at least 8 characters long' }).waitFor();
    expect(await usersOf('short@example.com')).toEqual([]);
  });

  it('finds users by the start of their address', async () => {
    const search = dashboard.page.getByRole('search');
    await search.getByLabel('E-mail starts with').fill('UM');
    await search.getByRole('button', { name: 'Search' }).click();
    // The table is read again: the rows go, and the search's come.
    await expect.poll(() => dashboard.page.getByRole('rowheader').allTextContents()).toEqual([EXISTING]);
    await search.getByLabel('E-mail starts with').fill('zed');
    await search.getByRole('button', { name: 'Search' }).click();
    await dashboard.page.getByText("No user's address starts with zed.").waitFor();
  });
});
