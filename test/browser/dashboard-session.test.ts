import { generateKeyPairSync } from 'node:crypto';
import type { Dialog } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { dashboardSuite, openTab, OPERATOR, signInToDashboard } from '../support/dashboard.ts';
import { postForm } from '../support/oauth.ts';

/**
 * The dashboard's place and session in Chromium: the tab is in the address (a reload, Back and a sign-in return to
 * it), an access token that is about to end or refused is renewed with the refresh token without a page load, a
 * refresh token the server no longer honours ends the session, a duplicated tab signs in for a session of its own,
 * and signing out, once the operator agrees to drop unsaved edits (and only then), revokes it. A session ended unasked
 * keeps the forms' unsaved edits, secrets aside, and where the operator was (the tenant, the panel, the form chosen) for
 * the same operator's next sign-in in the tab, and for no one else; a second end keeps what the first kept.
 */
const SESSION_KEY = 'gatehouse.dashboard.session';
const KEPT_KEY = 'gatehouse.dashboard.kept-drafts';
/** A second operator of the console, app_admin of My application too. */
const OTHER = { email: 'ida@example.com', password: 'Operator-Heron-42' } as const;
const CLIENT_SECRET = 'typed-secret-never-stored';
const NEW_USER_PASSWORD = 'Typed-Password-Never-Stored-42';
const KEPT_USER = 'kept-user@example.com';
let appId: string;
let acme: string;
let readerId: string;
let publicUrl: string;

interface StoredSession {
  readonly accessToken: string;
  readonly expiresAt: number;
  readonly refreshToken: string | null;
}

const storedSession = async (): Promise<StoredSession | null> =>
  dashboard.page.evaluate((key) => {
    const stored = sessionStorage.getItem(key);
    return stored === null ? null : (JSON.parse(stored) as StoredSession);
  }, SESSION_KEY);

/** Rewrites the stored session and reloads, as a tab would be found after the change (the page reads it at load). */
async function reloadWith(change: Partial<StoredSession>): Promise<void> {
  await dashboard.page.evaluate(
    ([key, patch]) => sessionStorage.setItem(key, JSON.stringify({ ...JSON.parse(sessionStorage.getItem(key)!), ...patch })),
    [SESSION_KEY, change] as const,
  );
  await dashboard.page.reload();
}

const region = (name: string) => dashboard.page.getByRole('region', { name, exact: true });
const minLength = () => region('Change a policy').getByLabel('Minimum length', { exact: true });
const newProvider = (label: string) => region('Add a provider').getByLabel(label, { exact: true });
const keptLine = (section: string) => region(section).getByRole('status').filter({ hasText: 'were kept when your session ended' });
const keptDrafts = () => dashboard.page.evaluate((key) => sessionStorage.getItem(key), KEPT_KEY);
/** Everything the tab holds in sessionStorage, as text: where a secret typed must never be. */
const tabStorage = () => dashboard.page.evaluate(() => JSON.stringify(Object.entries(sessionStorage)));
const tenantPicker = () => dashboard.page.getByLabel('Tenant', { exact: true });
const policyKind = () => region('Change a policy').getByLabel('Policy to edit', { exact: true });
const idleTimeout = () => region('Change a policy').getByLabel('Idle timeout (minutes)', { exact: true });
const createUser = (label: string) => region('Create user').getByLabel(label, { exact: true });
const umaRoles = () => region('Roles of uma@example.com');
const passwordPolicy = async () => (await dashboard.app.http.get(`/applications/${appId}/policies/password`)).body as { minLength: number };

let clientId: string;
/** Revokes the tab's refresh token, and with it its grant: the access token is refused, and so is the renewal. */
const revokeTabSession = async () => {
  const { refreshToken } = (await storedSession())!;
  expect((await postForm(`${publicUrl}/oauth2/revoke`, { token: refreshToken!, token_type_hint: 'refresh_token', client_id: clientId })).status).toBe(200);
};

/** The operator's Save after the session was revoked elsewhere: refused, the renewal too, the session ends unasked. */
async function saveAfterRevocation(): Promise<void> {
  await revokeTabSession();
  await region('Change a policy').getByRole('button', { name: 'Save policy' }).click();
  await dashboard.page.getByRole('button', { name: 'Sign in' }).waitFor();
  expect(await dashboard.page.getByRole('status').textContent()).toBe(
    'Your session ended: the issuer refused to renew it (signed out in another tab, revoked, or the operator suspended).',
  );
}

/** The tab's session revoked elsewhere, then a read as the operator comes back to the page: refused, the renewal too. */
async function endSessionUnasked(): Promise<void> {
  await revokeTabSession();
  await dashboard.comeBack();
  await dashboard.page.getByRole('button', { name: 'Sign in' }).waitFor();
}

/** Signs in again from the sign-in page (the issuer's session stands: nothing asked), back at `at`. */
async function signInAgain(at: string): Promise<void> {
  await Promise.all([dashboard.page.waitForURL(at), dashboard.page.getByRole('button', { name: 'Sign in' }).click()]);
  await dashboard.page.getByRole('button', { name: 'Sign out' }).waitFor();
}

const refresh = (refreshToken: string) => postForm(`${publicUrl}/oauth2/token`, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });

const dashboard = dashboardSuite({
  setup: async (app) => {
    appId = app.root.applicationId;
    publicUrl = app.gatehouse.services.config.publicUrl;
    await app.createUser('uma@example.com');
    acme = await app.createTenant('Acme');
    expect((await app.http.post('/permissions', { key: 'reports:read' })).status).toBe(201);
    const reader = await app.http.post('/roles', { key: 'kept-reader', name: 'Kept reader', permissions: ['reports:read'] });
    expect(reader.status).toBe(201);
    readerId = reader.body.id;
    const [{ id: consoleId }] = (await app.sql<{ id: string }>('select id from application where organization_id = ? and console', [app.root.organizationId])) as [{ id: string }];
    const [{ id: first }] = (await app.sql<{ id: string }>('select id from app_user where application_id = ? and email = ?', [consoleId, OPERATOR.email])) as [{ id: string }];
    const asFirst = app.as({ bearer: await app.mintAccessToken({ sub: first, app_id: consoleId }) });
    const other = await asFirst.post('/users', { email: OTHER.email, password: OTHER.password });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    const appAdmin = (await app.http.get('/roles')).body.data.find((role: { key: string }) => role.key === 'app_admin').id as string;
    expect((await app.http.post('/role-assignments', { subject: { type: 'operator', id: other.body.id }, roleId: appAdmin })).status).toBe(201);
  },
});
// Registered after the suite's hooks, so the page is open: the client it signs in with.
beforeAll(async () => {
  clientId = (await dashboard.page.locator('meta[name="gatehouse-client-id"]').getAttribute('content'))!;
});

describe("the dashboard's address and session in Chromium", () => {
  it('returns to the tab in the address after the first sign-in', async () => {
    const fresh = await dashboard.page.context().browser()!.newContext();
    try {
      const other = await fresh.newPage();
      await signInToDashboard(other, publicUrl, { at: `#/${appId}/users` });
      await other.getByRole('rowheader', { name: 'uma@example.com' }).waitFor();
    } finally {
      await fresh.close();
    }
  });

  it('keeps the tab in the address: a reload stays on it and Back returns to the tab before', async () => {
    await openTab(dashboard.page, 'Users');
    expect(new URL(dashboard.page.url()).hash).toBe(`#/${appId}/users`);
    await dashboard.page.reload();
    await dashboard.page.getByRole('rowheader', { name: 'uma@example.com' }).waitFor();
    expect(await dashboard.page.getByRole('link', { name: 'Users', exact: true }).getAttribute('aria-current')).toBe('page');

    expect(await dashboard.page.title()).toBe('Users · My application · Gatehouse dashboard');

    await openTab(dashboard.page, 'Operators');
    expect(await dashboard.page.title()).toBe('Operators · My application · Gatehouse dashboard');
    await dashboard.page.goBack();
    await dashboard.page.getByRole('heading', { level: 2, name: 'Users' }).waitFor();
    expect(await dashboard.page.title()).toBe('Users · My application · Gatehouse dashboard');
  });

  it('says so when the address names an application the operator does not manage, and lists theirs', async () => {
    await dashboard.page.goto(`${publicUrl}/dashboard/#/0190a1b2-0000-7000-8000-000000000000/users`);
    await dashboard.page.getByRole('alert').filter({ hasText: 'an application you do not manage' }).waitFor();
    await dashboard.page.getByRole('link', { name: 'My application' }).click();
    await dashboard.page.getByRole('heading', { level: 1, name: 'My application' }).waitFor();
    // A link whose address does not decode (a cut-off escape) names no application either: it breaks nothing.
    await dashboard.page.goto(`${publicUrl}/dashboard/#/%E0%A4%A/users`);
    await dashboard.page.getByRole('alert').filter({ hasText: 'an application you do not manage' }).waitFor();
    await dashboard.page.getByRole('link', { name: 'My application' }).click();
    await dashboard.page.getByRole('heading', { level: 1, name: 'My application' }).waitFor();
  });

  it('renews an access token about to end, and one the server refuses, without leaving the page', async () => {
    await dashboard.page.goto(`${publicUrl}/dashboard/#/${appId}/users`);
    await dashboard.page.getByRole('rowheader', { name: 'uma@example.com' }).waitFor();
    const before = (await storedSession())!;
    expect(before.refreshToken).toEqual(expect.any(String));
    expect(before.expiresAt).toBeGreaterThan(Date.now());

    const loads: string[] = [];
    dashboard.page.on('load', () => loads.push(dashboard.page.url()));
    await reloadWith({ expiresAt: 0 });
    await dashboard.page.getByRole('rowheader', { name: 'uma@example.com' }).waitFor();
    const renewed = (await storedSession())!;
    expect(renewed.accessToken).not.toBe(before.accessToken);
    expect(renewed.refreshToken).not.toBe(before.refreshToken);
    expect(renewed.expiresAt).toBeGreaterThan(Date.now());
    // The refresh token was rotated: the old one is spent.
    expect((await refresh(before.refreshToken!)).body.error).toBe('invalid_grant');
    expect(loads).toHaveLength(1); // the reload itself: the renewal took no trip to the issuer's pages

    // Reusing the old refresh token revoked that grant: sign in again for the rest.
    await reloadWith({ accessToken: 'not-a-token' });
    await dashboard.page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await storedSession()).toBeNull();
    // The page says the session ended, and why, above the Sign in button.
    expect(await dashboard.page.getByRole('status').textContent()).toBe(
      'Your session ended: the issuer refused to renew it (signed out in another tab, revoked, or the operator suspended).',
    );
  });

  it('returns to the tab the operator was on after signing in again, and a 401 with a live refresh token is mended', async () => {
    // The issuer's browser session still stands: signing in again asks nothing and comes back to the same tab.
    const operators = `${publicUrl}/dashboard/#/${appId}/operators`;
    await dashboard.page.goto(operators);
    await Promise.all([dashboard.page.waitForURL(operators), dashboard.page.getByRole('button', { name: 'Sign in' }).click()]);
    await dashboard.page.getByRole('heading', { level: 2, name: 'Operators' }).waitFor();

    const before = (await storedSession())!;
    await reloadWith({ accessToken: 'not-a-token' });
    await dashboard.page.getByRole('heading', { level: 2, name: 'Operators' }).waitFor();
    await dashboard.page.getByRole('row', { name: /ops@example.com/ }).waitFor();
    expect((await storedSession())!.refreshToken).not.toBe(before.refreshToken);
  });

  it("lists every application the operator manages, and shows a single-tenant one without tenants' tabs or pickers", async () => {
    const shop = await dashboard.app.http.post('/applications', { name: 'Shop' });
    expect(shop.status).toBe(201);
    const asShop = dashboard.app.as({ apiKey: shop.body.initialApiKey.secret as string });
    const appAdmin = (await asShop.get('/roles')).body.data.find((role: { key: string }) => role.key === 'app_admin').id as string;
    const [operator] = await dashboard.app.gatehouse.services.orm.em
      .getConnection()
      .execute<{ id: string }[]>('select u.id from app_user as u join application as a on a.id = u.application_id where a.console and a.organization_id = ? and u.email = ?', [
        dashboard.app.root.organizationId,
        OPERATOR.email,
      ]);
    expect((await asShop.post('/role-assignments', { subject: { type: 'operator', id: operator!.id }, roleId: appAdmin })).status).toBe(201);

    await dashboard.page.goto(`${publicUrl}/dashboard/`);
    await dashboard.page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
    await dashboard.page.getByRole('link', { name: 'Shop' }).click();
    await dashboard.page.getByRole('heading', { level: 1, name: 'Shop' }).waitFor();
    await dashboard.page.getByRole('heading', { level: 2, name: 'Users' }).waitFor();
    const tabs = await dashboard.page.getByRole('navigation', { name: 'Application sections' }).getByRole('link').allTextContents();
    expect(tabs).not.toContain('Tenants');
    expect(tabs).not.toContain('Invitations');
    await openTab(dashboard.page, 'Branding');
    await dashboard.page.getByText('Primary colour').first().waitFor();
    expect(await dashboard.page.getByLabel('Tenant').count()).toBe(0);

    await dashboard.page.getByRole('button', { name: 'All applications' }).click();
    await dashboard.page.getByRole('link', { name: 'My application' }).waitFor();
    expect(new URL(dashboard.page.url()).hash).toBe('#/applications');
  });

  it('gives a duplicated tab a session of its own, so that renewing in either leaves both signed in', async () => {
    const users = `${publicUrl}/dashboard/#/${appId}/users`;
    await dashboard.page.goto(users);
    await dashboard.page.getByRole('rowheader', { name: 'uma@example.com' }).waitFor();
    const original = (await storedSession())!;
    // A duplicated tab starts with a copy of the tab's sessionStorage, the refresh token included.
    const copied = await dashboard.page.evaluate(() => JSON.stringify(Object.entries(sessionStorage)));
    const duplicate = await dashboard.page.context().newPage();
    try {
      await duplicate.addInitScript((entries) => {
        if (sessionStorage.getItem('test.duplicated') !== null) return;
        for (const [key, value] of JSON.parse(entries) as [string, string][]) sessionStorage.setItem(key, value);
        sessionStorage.setItem('test.duplicated', 'yes');
      }, copied);
      await duplicate.goto(users);
      await duplicate.getByRole('rowheader', { name: 'uma@example.com' }).waitFor();
      const ownSession = () => duplicate.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? 'null') as StoredSession | null, SESSION_KEY);
      const own = (await ownSession())!;
      expect(own.refreshToken).toEqual(expect.any(String));
      expect(own.refreshToken).not.toBe(original.refreshToken);

      // Each renews with its own refresh token: neither ends the other's session.
      await reloadWith({ expiresAt: 0 });
      await dashboard.page.getByRole('rowheader', { name: 'uma@example.com' }).waitFor();
      await duplicate.evaluate(([key]) => sessionStorage.setItem(key, JSON.stringify({ ...JSON.parse(sessionStorage.getItem(key)!), expiresAt: 0 })), [SESSION_KEY] as const);
      await duplicate.reload();
      await duplicate.getByRole('rowheader', { name: 'uma@example.com' }).waitFor();
      expect((await ownSession())!.refreshToken).not.toBe(own.refreshToken);
      expect((await storedSession())!.refreshToken).not.toBe(original.refreshToken);
      // The original tab, renewed again, is still signed in.
      await reloadWith({ expiresAt: 0 });
      await dashboard.page.getByRole('rowheader', { name: 'uma@example.com' }).waitFor();
      expect(await storedSession()).not.toBeNull();
    } finally {
      await duplicate.close();
    }
  });

  it('keeps unsaved edits when the session ends unasked, secrets aside, and restores them after signing in again, to be saved', async () => {
    const authentication = `${publicUrl}/dashboard/#/${appId}/authentication`;
    await dashboard.page.goto(authentication);
    const before = await passwordPolicy();
    const edited = String(before.minLength + 1);
    await minLength().fill(edited);
    await region('Add a provider').getByLabel('Type', { exact: true }).selectOption({ label: 'OAuth' });
    await newProvider('Client ID').fill('kept-client-id');
    await newProvider('Client secret').fill(CLIENT_SECRET);

    await saveAfterRevocation();
    const kept = (await keptDrafts())!;
    const drafts = Object.values((JSON.parse(kept) as { drafts: Record<string, { draft: unknown }> }).drafts).map(({ draft }) => draft);
    expect(drafts).toContainEqual(expect.objectContaining({ minLength: edited }));
    expect(drafts).toContainEqual(expect.objectContaining({ settings: expect.objectContaining({ clientId: 'kept-client-id' }), secrets: { clientSecret: '' } }));
    // A secret typed is never written to storage.
    expect(kept).not.toContain(CLIENT_SECRET);
    expect((await passwordPolicy()).minLength).toBe(before.minLength);

    // The issuer's session stands: signing in again asks nothing and comes back to the tab, the edits in their forms.
    await Promise.all([dashboard.page.waitForURL(authentication), dashboard.page.getByRole('button', { name: 'Sign in' }).click()]);
    await keptLine('Change a policy').waitFor();
    expect(await minLength().inputValue()).toBe(edited);
    expect(await dashboard.unsaved()).toBe(true);
    // The provider's type chosen is kept too: its form is back at once, without the secret.
    await keptLine('Add a provider').filter({ hasText: 'Secrets are never kept: type them again.' }).waitFor();
    expect(await region('Add a provider').getByLabel('Type', { exact: true }).inputValue()).toBe('oauth');
    expect(await newProvider('Client ID').inputValue()).toBe('kept-client-id');
    expect(await newProvider('Client secret').inputValue()).toBe('');
    // Restored into their forms, the drafts are theirs: a reload would not restore them again.
    expect(await keptDrafts()).toBeNull();

    await region('Change a policy').getByRole('button', { name: 'Save policy' }).click();
    await region('Change a policy').getByRole('status').filter({ hasText: 'Saved the Password policy.' }).waitFor();
    expect((await passwordPolicy()).minLength).toBe(before.minLength + 1);
    expect(await keptLine('Change a policy').count()).toBe(0);
    // Discarded, the kept provider's draft is gone as well: nothing is left unsaved.
    await keptLine('Add a provider').getByRole('button', { name: 'Discard the kept edits' }).click();
    expect(await newProvider('Client ID').inputValue()).toBe('');
    expect(await keptLine('Add a provider').count()).toBe(0);
    expect(await dashboard.unsaved()).toBe(false);
  });

  it("keeps a new user's fields but never the password typed, and a role chosen in a user's Roles panel, which opens again", async () => {
    const users = `${publicUrl}/dashboard/#/${appId}/users`;
    await dashboard.page.goto(users);
    await dashboard.page.getByRole('button', { name: 'Roles of uma@example.com' }).click();
    await umaRoles().getByLabel('Role', { exact: true }).selectOption({ label: 'Kept reader' });
    await createUser('E-mail').fill(KEPT_USER);
    await createUser('Name (optional)').fill('Kept User');
    await createUser('Password (optional)').fill(NEW_USER_PASSWORD);

    await endSessionUnasked();
    const kept = (await keptDrafts())!;
    expect(kept).toContain(KEPT_USER);
    expect(kept).toContain(readerId);
    // The password typed is nowhere in the tab's storage.
    expect(await tabStorage()).not.toContain(NEW_USER_PASSWORD);

    await signInAgain(users);
    // The panel open is open again, its grant as chosen; the new user's fields are back, all but the password.
    await keptLine('Roles of uma@example.com').waitFor();
    expect(await umaRoles().getByLabel('Role', { exact: true }).inputValue()).toBe(readerId);
    await keptLine('Create user').filter({ hasText: 'Secrets are never kept: type them again.' }).waitFor();
    expect(await createUser('E-mail').inputValue()).toBe(KEPT_USER);
    expect(await createUser('Name (optional)').inputValue()).toBe('Kept User');
    expect(await createUser('Password (optional)').inputValue()).toBe('');
    expect(await keptDrafts()).toBeNull();

    await createUser('Password (optional)').fill(NEW_USER_PASSWORD);
    await region('Create user').getByRole('button', { name: 'Create user' }).click();
    await region('Create user').getByRole('status').filter({ hasText: `${KEPT_USER} was created.` }).waitFor();
    expect(await keptLine('Create user').count()).toBe(0);
    await umaRoles().getByRole('button', { name: 'Assign role' }).click();
    await umaRoles().getByRole('status').filter({ hasText: 'uma@example.com now holds Kept reader' }).waitFor();
    expect(await keptLine('Roles of uma@example.com').count()).toBe(0);
    expect(await dashboard.unsaved()).toBe(false);
    await umaRoles().getByRole('button', { name: 'Close' }).click();
  });

  it("keeps a new M2M credential's fields but never a private key pasted as its JWKS", async () => {
    const credentials = `${publicUrl}/dashboard/#/${appId}/m2m-credentials`;
    const newCredential = (label: string) => region('Create credential').getByLabel(label, { exact: true });
    const privateJwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
    await dashboard.page.goto(credentials);
    await newCredential('Name').fill('Kept signer');
    await newCredential('Authentication').selectOption({ label: 'Private key JWT' });
    // Pasted by mistake, which the server would refuse: a private key all the same.
    await newCredential('JWKS').fill(JSON.stringify({ keys: [{ ...privateJwk, kid: 'kept-signer' }] }));

    await endSessionUnasked();
    expect(await keptDrafts()).toContain('Kept signer');
    expect(await tabStorage()).not.toContain(privateJwk.d!);

    await signInAgain(credentials);
    await keptLine('Create credential').filter({ hasText: 'Secrets are never kept: type them again.' }).waitFor();
    expect(await newCredential('Name').inputValue()).toBe('Kept signer');
    expect(await newCredential('JWKS').inputValue()).toBe('');
    await keptLine('Create credential').getByRole('button', { name: 'Discard the kept edits' }).click();
    expect(await newCredential('Name').inputValue()).toBe('');
    expect(await dashboard.unsaved()).toBe(false);
  });

  it('keeps a new operator being added, started again from the role of the one added before, to be discarded after signing in again', async () => {
    const operators = `${publicUrl}/dashboard/#/${appId}/operators`;
    const addOperator = (label: string) => region('Add an operator').getByLabel(label, { exact: true });
    await dashboard.page.goto(operators);
    // Added, the form starts again with the role chosen: its start is no stored thing a restored draft could fall behind.
    await addOperator('E-mail').fill('added-operator@example.com');
    await addOperator('Role').selectOption({ label: 'Kept reader' });
    await region('Add an operator').getByRole('button', { name: 'Add operator' }).click();
    await region('Add an operator').getByRole('status').filter({ hasText: 'added-operator@example.com is now Kept reader' }).waitFor();
    await addOperator('E-mail').fill('kept-operator@example.com');
    await endSessionUnasked();
    expect(await keptDrafts()).toContain('kept-operator@example.com');

    await signInAgain(operators);
    await keptLine('Add an operator').waitFor();
    expect(await region('Add an operator').getByRole('status').filter({ hasText: 'was changed elsewhere' }).count()).toBe(0);
    expect(await addOperator('E-mail').inputValue()).toBe('kept-operator@example.com');
    expect(await addOperator('Role').inputValue()).toBe(readerId);
    await keptLine('Add an operator').getByRole('button', { name: 'Discard the kept edits' }).click();
    expect(await addOperator('E-mail').inputValue()).toBe('');
    expect(await dashboard.unsaved()).toBe(false);
  });

  it("returns to the tenant the operator was on and the policy they chose, its kept edits shown", async () => {
    const authentication = `${publicUrl}/dashboard/#/${appId}/authentication`;
    expect((await dashboard.app.http.patch(`/applications/${appId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    try {
      await dashboard.page.goto(authentication);
      await tenantPicker().selectOption({ label: 'Acme' });
      await region('Providers').getByText("Acme signs in with the application's providers.").waitFor();
      await policyKind().selectOption({ label: 'Session' });
      const saved = await idleTimeout().inputValue();
      const edited = String(Number(saved) - 1);
      await idleTimeout().fill(edited);
      await endSessionUnasked();
      expect(await keptDrafts()).toContain(acme);

      await signInAgain(authentication);
      await keptLine('Change a policy').waitFor();
      expect(await tenantPicker().inputValue()).toBe(acme);
      await region('Providers').getByText("Acme signs in with the application's providers.").waitFor();
      expect(await policyKind().inputValue()).toBe('session');
      expect(await idleTimeout().inputValue()).toBe(edited);
      await keptLine('Change a policy').getByRole('button', { name: 'Discard the kept edits' }).click();
      expect(await idleTimeout().inputValue()).toBe(saved);
      await tenantPicker().selectOption({ label: 'Application' });
      expect(await dashboard.unsaved()).toBe(false);
    } finally {
      expect((await dashboard.app.http.patch(`/applications/${appId}`, { tenancyConfig: { authIsolation: 'shared' } })).status).toBe(200);
    }
  });

  it('returns to the e-mail template the operator chose, its kept edits shown', async () => {
    const email = `${publicUrl}/dashboard/#/${appId}/e-mail`;
    await dashboard.page.goto(email);
    const template = () => region('Edit a template').getByLabel('Template to edit', { exact: true });
    const subject = () => region('Edit a template').getByLabel('Subject', { exact: true });
    await template().selectOption('password_reset');
    await subject().fill('Kept subject of the reset');
    await endSessionUnasked();

    await signInAgain(email);
    await keptLine('Edit a template').waitFor();
    expect(await template().inputValue()).toBe('password_reset');
    expect(await subject().inputValue()).toBe('Kept subject of the reset');
    await keptLine('Edit a template').getByRole('button', { name: 'Discard the kept edits' }).click();
    expect(await dashboard.unsaved()).toBe(false);
  });

  it('shows another operator signing in in the tab nothing of what was kept, neither the edits nor where the operator was, and drops it', async () => {
    const authentication = `${publicUrl}/dashboard/#/${appId}/authentication`;
    expect((await dashboard.app.http.patch(`/applications/${appId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    try {
      await dashboard.page.goto(authentication);
      await tenantPicker().selectOption({ label: 'Acme' });
      await region('Providers').getByText("Acme signs in with the application's providers.").waitFor();
      const { minLength: saved } = (await dashboard.app.http.get(`/applications/${appId}/tenants/${acme}/policies/password`)).body as { minLength: number };
      await minLength().fill(String(saved + 5));
      await endSessionUnasked();
      const kept = (await keptDrafts())!;
      expect(kept).toContain(`"minLength":"${saved + 5}"`);
      expect(kept).toContain(acme);

      // The issuer's session gone too, the next to sign in is another operator.
      await dashboard.page.context().clearCookies();
      await Promise.all([dashboard.page.waitForURL(/\/interaction\//), dashboard.page.getByRole('button', { name: 'Sign in' }).click()]);
      await dashboard.page.getByLabel('Email address').fill(OTHER.email);
      await dashboard.page.getByLabel('Password').fill(OTHER.password);
      await Promise.all([dashboard.page.waitForURL(authentication), dashboard.page.locator('form button[type="submit"]').first().click()]);
      await dashboard.page.getByRole('button', { name: 'Sign out' }).waitFor();
      await region('Policies').waitFor();
      expect(await tenantPicker().inputValue()).toBe('');
      expect(await minLength().inputValue()).toBe(String((await passwordPolicy()).minLength));
      expect(await keptLine('Change a policy').count()).toBe(0);
      expect(await dashboard.unsaved()).toBe(false);
      expect(await keptDrafts()).toBeNull();
    } finally {
      expect((await dashboard.app.http.patch(`/applications/${appId}`, { tenancyConfig: { authIsolation: 'shared' } })).status).toBe(200);
    }
  });

  it('keeps through a second unasked end the drafts not restored yet, and the newer edits of one restored, its secret still not kept', async () => {
    const users = `${publicUrl}/dashboard/#/${appId}/users`;
    const authentication = `${publicUrl}/dashboard/#/${appId}/authentication`;
    await dashboard.page.goto(users);
    await createUser('E-mail').fill('waiting@example.com');
    await createUser('Password (optional)').fill(NEW_USER_PASSWORD);
    await endSessionUnasked();

    // Signed in again on another tab: the new user's draft is not shown, and waits.
    await dashboard.page.goto(authentication);
    await signInAgain(authentication);
    const { minLength: saved } = await passwordPolicy();
    await minLength().fill(String(saved + 2));
    await region('Add a provider').getByLabel('Type', { exact: true }).selectOption({ label: 'OAuth' });
    await newProvider('Client ID').fill('first-client-id');
    await newProvider('Client secret').fill(CLIENT_SECRET);
    await endSessionUnasked();
    let kept = (await keptDrafts())!;
    expect(kept).toContain('waiting@example.com');
    expect(kept).toContain(`"minLength":"${saved + 2}"`);
    expect(kept).toContain('first-client-id');

    // Restored, edited again and the session ends once more: the newer edits are kept, the secret typed neither time.
    await signInAgain(authentication);
    await keptLine('Change a policy').waitFor();
    await minLength().fill(String(saved + 3));
    await keptLine('Add a provider').waitFor();
    await newProvider('Client ID').fill('newer-client-id');
    await endSessionUnasked();
    kept = (await keptDrafts())!;
    expect(kept).toContain(`"minLength":"${saved + 3}"`);
    expect(kept).not.toContain(`"minLength":"${saved + 2}"`);
    expect(kept).toContain('newer-client-id');
    expect(kept).not.toContain('first-client-id');
    expect(kept).toContain('waiting@example.com');
    expect(await tabStorage()).not.toContain(CLIENT_SECRET);
    expect(await tabStorage()).not.toContain(NEW_USER_PASSWORD);

    await signInAgain(authentication);
    await keptLine('Change a policy').waitFor();
    expect(await minLength().inputValue()).toBe(String(saved + 3));
    await keptLine('Add a provider').filter({ hasText: 'Secrets are never kept: type them again.' }).waitFor();
    expect(await newProvider('Client ID').inputValue()).toBe('newer-client-id');
    expect(await newProvider('Client secret').inputValue()).toBe('');
    await keptLine('Change a policy').getByRole('button', { name: 'Discard the kept edits' }).click();
    await keptLine('Add a provider').getByRole('button', { name: 'Discard the kept edits' }).click();
    expect(await dashboard.unsaved()).toBe(false);
    // The new user's draft still waits for the Users tab; the sign-out's test drops it.
    expect(await keptDrafts()).toContain('waiting@example.com');
  });

  it('asks before signing out drops unsaved edits: declined, the operator stays signed in with them', async () => {
    await openTab(dashboard.page, 'Authentication');
    await minLength().fill('14');
    const { refreshToken } = (await storedSession())!;
    const asked = dashboard.answerNextDialog('dismiss');
    await dashboard.page.getByRole('button', { name: 'Sign out' }).click();
    expect(await asked).toBe('Discard the changes you have not saved?');
    expect(await minLength().inputValue()).toBe('14');
    expect((await storedSession())?.refreshToken).toBe(refreshToken);
  });

  it('revokes the refresh token when the operator signs out, agreeing to drop the edits: the browser does not ask again', async () => {
    expect(await minLength().inputValue()).toBe('14');
    const { refreshToken } = (await storedSession())!;
    const dialogs: string[] = [];
    const answer = (dialog: Dialog) => {
      dialogs.push(dialog.type());
      void dialog.accept();
    };
    dashboard.page.on('dialog', answer);
    try {
      await Promise.all([dashboard.page.waitForURL(/\/oauth2\/logout/), dashboard.page.getByRole('button', { name: 'Sign out' }).click()]);
    } finally {
      dashboard.page.off('dialog', answer);
    }
    // The dashboard's question only: no beforeunload prompt after it.
    expect(dialogs).toEqual(['confirm']);
    await Promise.all([dashboard.page.waitForURL(`${publicUrl}/dashboard/`), dashboard.page.getByRole('button', { name: 'Sign out' }).click()]);
    await dashboard.page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect((await refresh(refreshToken!)).body.error).toBe('invalid_grant');
    // Signed out by the operator: nothing to explain.
    expect(await dashboard.page.getByText('Your session ended').count()).toBe(0);
    // Nor anything kept: the operator agreed to drop their edits, those kept from an earlier session too.
    expect(await keptDrafts()).toBeNull();
  });
});
