import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dashboardSuite, openTab } from '../support/dashboard.ts';
import { IDP_CERTIFICATE } from '../support/saml-idp.ts';

/**
 * The dashboard's Authentication tab editing in Chromium: the application's password policy (then enforced by the
 * API's user creation), a magic-link and a Google provider added, edited, disabled and deleted, the application's
 * password provider kept by a warning, then, with
 * authentication isolated, Acme's own password policy and provider. Each save is read back through the REST API and
 * each refusal shows the server's message and changes nothing. Screenshots: test-results/dashboard-auth-edit-*.png.
 */
const CLIENT_SECRET = 'google-secret-never-shown';
let appId: string;
let acme: string;
let globex: string;

const region = (name: string): Locator => dashboard.page.getByRole('region', { name, exact: true });
const field = (section: string, label: string): Locator => region(section).getByLabel(label, { exact: true });
const providerRow = (name: string): Locator => region('Providers').getByRole('row').filter({ has: dashboard.page.getByRole('cell', { name, exact: true }) });
const policyRow = (label: string): Locator => region('Policies').getByRole('row', { name: new RegExp(`^${label}\\b`) });
const get = async (path: string) => {
  const answer = await dashboard.app.http.get(`/applications/${appId}${path}`);
  expect(answer.status).toBe(200);
  return answer.body;
};
const applicationProviders = async (): Promise<{ id: string; type: string; enabled: boolean; config: Record<string, unknown>; secretsSet: string[]; metadataUrl: string | null }[]> =>
  (await get('/auth-providers')).data;
const createUser = (email: string, password: string, tenantId?: string) => dashboard.app.http.post('/users', { email, password, ...(tenantId === undefined ? {} : { tenantId }) });

async function savePolicy(): Promise<void> {
  await region('Change a policy').getByRole('button', { name: 'Save policy' }).click();
}

async function refusal(section: string): Promise<string | null> {
  const alert = region(section).getByRole('alert');
  await alert.waitFor();
  return alert.textContent();
}

const dashboard = dashboardSuite({
  tab: 'Authentication',
  setup: async (app) => {
    appId = app.root.applicationId;
    acme = await app.createTenant('Acme');
    globex = await app.createTenant('Globex');
  },
});

describe("the Authentication tab's editing in Chromium", () => {
  it("raises the application's minimum password length, which the API's user creation then enforces", async () => {
    const before = await get('/policies/password');
    expect(await field('Change a policy', 'Policy to edit').inputValue()).toBe('password');
    expect(await field('Change a policy', 'Minimum length').inputValue()).toBe(String(before.minLength));
    // Authentication is shared: no tenant picker, though the application has tenants (spec, tenancy rule 8).
    expect(await dashboard.page.getByLabel('Tenant', { exact: true }).count()).toBe(0);
    await field('Change a policy', 'Minimum length').fill('12');
    await savePolicy();
    await region('Change a policy').getByRole('status').filter({ hasText: 'Saved the Password policy.' }).waitFor();
    await policyRow('Password').getByText(/at least 12 characters/).waitFor();
    // The other rows' values in words, the MFA factors as the form names them.
    expect(await policyRow('MFA').textContent()).toContain('factors: authenticator app (TOTP), one-time code by e-mail; a browser is remembered 30 days');

    const stored = await get('/policies/password');
    // The whole policy is sent: the fields left alone keep their values.
    expect(stored).toMatchObject({ ...before, minLength: 12, updatedAt: expect.any(String) });
    const short = await createUser('eleven@example.com', 'Oak-lantern');
    expect(short.status).toBe(422);
    expect(short.body).toMatchObject({ field: 'password', message: 'password must be at least 12 characters long' });
    expect((await createUser('twelve@example.com', 'Oak-lanterns')).status).toBe(201);
    await dashboard.page.screenshot({ path: 'test-results/dashboard-auth-edit-policy.png', fullPage: true });
  });

  it('shows the refusal of a minimum length of 3 and of an idle timeout above the absolute one, and stores nothing', async () => {
    const password = await get('/policies/password');
    await field('Change a policy', 'Minimum length').fill('3');
    await savePolicy();
    expect(await refusal('Change a policy')).toBe('Minimum length must be an integer from 8 to 128');
    expect(await get('/policies/password')).toEqual(password);
    // The draft stays for correcting.
    expect(await field('Change a policy', 'Minimum length').inputValue()).toBe('3');

    const session = await get('/policies/session');
    // The refused length is unsaved: another policy drops it once the operator agrees.
    const asked = dashboard.answerNextDialog();
    await field('Change a policy', 'Policy to edit').selectOption({ label: 'Session' });
    expect(await asked).toBe('Discard the changes you have not saved?');
    await field('Change a policy', 'Idle timeout (minutes)').fill('600');
    await field('Change a policy', 'Absolute timeout (minutes)').fill('60');
    await savePolicy();
    expect(await refusal('Change a policy')).toBe('Idle timeout (minutes) may not exceed absoluteTimeoutMinutes');
    expect(await get('/policies/session')).toEqual(session);
    expect(await policyRow('Password').textContent()).toContain('at least 12 characters');
  });

  it('adds a magic-link provider, refuses a lifetime out of range, edits it, disables it and deletes it', async () => {
    await field('Add a provider', 'Type').selectOption({ label: 'Magic link' });
    await field('Add a provider', 'Link lifetime (minutes)').fill('10');
    await field('Add a provider', 'Mail to sign in with').selectOption({ label: 'A one-time code' });
    await region('Add a provider').getByRole('button', { name: 'Add provider' }).click();
    await region('Add a provider').getByRole('status').filter({ hasText: 'Added the Magic link provider.' }).waitFor();
    const row = providerRow('Magic link');
    await row.waitFor();
    const magicLink = () => applicationProviders().then((providers) => providers.find((provider) => provider.type === 'magic_link'));
    expect(await magicLink()).toMatchObject({ enabled: true, config: { allowSignup: true, linkLifetimeMinutes: 10, signInWith: 'code' } });

    await row.getByRole('button', { name: 'Edit' }).click();
    expect(await field('Edit Magic link', 'Link lifetime (minutes)').inputValue()).toBe('10');
    await field('Edit Magic link', 'Link lifetime (minutes)').fill('90');
    await region('Edit Magic link').getByRole('button', { name: 'Save changes' }).click();
    expect(await refusal('Edit Magic link')).toBe('Link lifetime (minutes) must be an integer from 1 to 60');
    expect((await magicLink())?.config['linkLifetimeMinutes']).toBe(10);
    await field('Edit Magic link', 'Link lifetime (minutes)').fill('30');
    await field('Edit Magic link', 'Name').fill('E-mail link');
    await region('Edit Magic link').getByRole('button', { name: 'Save changes' }).click();
    const renamed = providerRow('E-mail link');
    await renamed.waitFor();
    expect(await region('Edit Magic link').count()).toBe(0);
    expect(await magicLink()).toMatchObject({ enabled: true, config: { linkLifetimeMinutes: 30, signInWith: 'code' } });

    await renamed.getByRole('button', { name: 'Disable' }).click();
    await renamed.getByRole('button', { name: 'Enable' }).waitFor();
    expect(await renamed.textContent()).toContain('No');
    expect(await magicLink()).toMatchObject({ enabled: false, config: { linkLifetimeMinutes: 30 } });

    void dashboard.answerNextDialog();
    await renamed.getByRole('button', { name: 'Delete' }).click();
    await renamed.waitFor({ state: 'detached' });
    expect(await magicLink()).toBeUndefined();
  });

  it('lists the password provider the application starts with, and warns before its last way to sign in is disabled or deleted', async () => {
    const row = providerRow('Password');
    await row.waitFor();
    const password = () => applicationProviders().then((providers) => providers.find((provider) => provider.type === 'password'));
    expect(await password()).toMatchObject({ enabled: true });
    for (const button of ['Disable', 'Delete']) {
      const asked = dashboard.answerNextDialog('dismiss');
      await row.getByRole('button', { name: button }).click();
      expect(await asked).toBe(
        `${button} the Password provider? ${button === 'Delete' ? 'Its users can no longer sign in with it. ' : ''}It is the last enabled way to sign in here: nobody can sign in until another provider is enabled.`,
      );
    }
    expect(await password()).toMatchObject({ enabled: true });
    expect(await row.textContent()).toContain('Yes');
  });

  it('says of an M2M provider that it applies settings, not that it turns M2M on or off: its row, its button and its form', async () => {
    await field('Add a provider', 'Type').selectOption({ label: 'M2M' });
    await region('Add a provider').getByText('They work with or without this provider: it sets their token lifetime while its settings apply.', { exact: false }).waitFor();
    expect(await field('Add a provider', 'Apply these settings').isChecked()).toBe(true);
    expect(await region('Add a provider').getByLabel('Enabled', { exact: true }).count()).toBe(0);
    await field('Add a provider', 'Token lifetime (seconds)').fill('600');
    await region('Add a provider').getByRole('button', { name: 'Add provider' }).click();
    const row = providerRow('Machine-to-machine');
    await row.waitFor();
    const m2m = () => applicationProviders().then((providers) => providers.find((provider) => provider.type === 'm2m'));
    expect(await row.getByRole('cell', { name: 'Settings applied', exact: true }).count()).toBe(1);

    await row.getByRole('button', { name: 'Stop applying' }).click();
    await row.getByRole('button', { name: 'Apply settings' }).waitFor();
    expect(await row.getByRole('cell', { name: 'Settings not applied', exact: true }).count()).toBe(1);
    expect(await row.getByRole('button', { name: 'Disable' }).count()).toBe(0);
    expect(await m2m()).toMatchObject({ enabled: false, config: { tokenLifetimeSeconds: 600 } });
    await row.getByRole('button', { name: 'Edit' }).click();
    expect(await field('Edit Machine-to-machine', 'Apply these settings').isChecked()).toBe(false);
    await region('Edit Machine-to-machine').getByRole('button', { name: 'Cancel' }).click();

    void dashboard.answerNextDialog();
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await m2m()).toBeUndefined();
  });

  it("adds a Google provider whose client secret is write-only: the API keeps it, the page never shows it, an empty field keeps it", async () => {
    await field('Add a provider', 'Type').selectOption({ label: 'OAuth' });
    expect(await field('Add a provider', 'Identity provider').inputValue()).toBe('google');
    await field('Add a provider', 'Client ID').fill('google-client-1');
    await field('Add a provider', 'Client secret').fill(CLIENT_SECRET);
    await region('Add a provider').getByRole('button', { name: 'Add provider' }).click();
    const row = providerRow('Google');
    await row.waitFor();
    const google = () => applicationProviders().then((providers) => providers.find((provider) => provider.type === 'oauth'));
    expect(await google()).toMatchObject({ config: { provider: 'google', clientId: 'google-client-1', scopes: ['openid', 'email', 'profile'] }, secretsSet: ['clientSecret'] });
    expect(await field('Add a provider', 'Client secret').inputValue()).toBe('');

    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = region('Edit Google');
    await edit.getByText(/\/auth\/callback\//).waitFor();
    await edit.getByText('Write-only: one is stored. Leave this empty to keep it.').waitFor();
    expect(await field('Edit Google', 'Scopes').inputValue()).toBe('openid email profile');
    await field('Edit Google', 'Scopes').fill('openid email');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    expect(await google()).toMatchObject({ config: { clientId: 'google-client-1', scopes: ['openid', 'email'] }, secretsSet: ['clientSecret'] });
    expect(await dashboard.page.content()).not.toContain(CLIENT_SECRET);
    await dashboard.page.screenshot({ path: 'test-results/dashboard-auth-edit-providers.png', fullPage: true });
  });

  it('switching an OAuth provider’s preset clears the scopes it opened with, for the new preset’s defaults; scopes typed in the form stay', async () => {
    await field('Add a provider', 'Type').selectOption({ label: 'OAuth' });
    await field('Add a provider', 'Scopes').fill('openid');
    await field('Add a provider', 'Identity provider').selectOption({ label: 'GitHub' });
    expect(await field('Add a provider', 'Scopes').inputValue()).toBe('openid');
    await field('Add a provider', 'Scopes').fill('');
    await field('Add a provider', 'Client ID').fill('github-client-1');
    await field('Add a provider', 'Client secret').fill('github-secret');
    await region('Add a provider').getByRole('button', { name: 'Add provider' }).click();
    const row = providerRow('GitHub');
    await row.waitFor();
    const github = () => applicationProviders().then((providers) => providers.find((provider) => provider.config['clientId'] === 'github-client-1'));
    expect((await github())?.config).toMatchObject({ provider: 'github', scopes: ['read:user', 'user:email'] });

    await row.getByRole('button', { name: 'Edit' }).click();
    expect(await field('Edit GitHub', 'Scopes').inputValue()).toBe('read:user user:email');
    await field('Edit GitHub', 'Identity provider').selectOption({ label: 'Other (OAuth 2.0 or OpenID Connect)' });
    expect(await field('Edit GitHub', 'Scopes').inputValue()).toBe('');
    await field('Edit GitHub', 'Issuer').fill('https://idp.example.com');
    // Another token endpoint: the stored secret is not sent there, so the form asks for that endpoint's.
    expect(await region('Edit GitHub').getByText('Leave this empty to keep it.').count()).toBe(0);
    await field('Edit GitHub', 'Client secret').fill('idp-secret');
    await region('Edit GitHub').getByRole('button', { name: 'Save changes' }).click();
    await region('Edit GitHub').waitFor({ state: 'detached' });
    expect((await github())?.config).toMatchObject({ provider: 'generic', issuer: 'https://idp.example.com/', scopes: ['openid', 'email', 'profile'] });

    void dashboard.answerNextDialog();
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
  });

  it('names a refused field by its label on the form, not by its API path, and marks it', async () => {
    const before = await applicationProviders();
    await field('Add a provider', 'Type').selectOption({ label: 'OAuth' });
    await field('Add a provider', 'Identity provider').selectOption({ label: 'Microsoft' });
    await field('Add a provider', 'Client ID').fill('microsoft-client-1');
    await field('Add a provider', 'Client secret').fill('');
    await region('Add a provider').getByRole('button', { name: 'Add provider' }).click();
    expect(await refusal('Add a provider')).toBe('Client secret is required');
    expect(await field('Add a provider', 'Client secret').getAttribute('aria-invalid')).toBe('true');
    // Edited, the input is no longer marked; the message keeps the label.
    await field('Add a provider', 'Client secret').fill('s');
    expect(await field('Add a provider', 'Client secret').getAttribute('aria-invalid')).toBeNull();
    expect(await region('Add a provider').getByRole('alert').textContent()).toBe('Client secret is required');

    await field('Add a provider', 'Identity provider').selectOption({ label: 'Other (OAuth 2.0 or OpenID Connect)' });
    await field('Add a provider', 'Issuer').fill('http://idp.example.com');
    await region('Add a provider').getByRole('button', { name: 'Add provider' }).click();
    await region('Add a provider').getByRole('alert').filter({ hasText: /^Issuer must be an https URL/ }).waitFor();
    expect(await applicationProviders()).toEqual(before);
  });

  it('adds a SAML provider, refusing a certificate that is none, and shows the addresses to register at the IdP', async () => {
    // The refused OAuth draft of the test before is dropped only once the operator agrees.
    const asked = dashboard.answerNextDialog();
    await field('Add a provider', 'Type').selectOption({ label: 'SAML' });
    expect(await asked).toBe('Discard the changes you have not saved?');
    await field('Add a provider', 'IdP entity ID').fill('https://idp.example.com/metadata');
    await field('Add a provider', 'IdP sign-in URL').fill('https://idp.example.com/sso');
    await field('Add a provider', 'IdP certificate (PEM)').fill('not a certificate');
    await region('Add a provider').getByRole('button', { name: 'Add provider' }).click();
    expect(await refusal('Add a provider')).toBe('IdP certificate (PEM) must be a PEM-encoded X.509 certificate');
    expect((await applicationProviders()).some((provider) => provider.type === 'saml')).toBe(false);

    await field('Add a provider', 'IdP certificate (PEM)').fill(IDP_CERTIFICATE);
    await region('Add a provider').getByRole('button', { name: 'Add provider' }).click();
    const row = providerRow('SAML');
    await row.waitFor();
    const saml = (await applicationProviders()).find((provider) => provider.type === 'saml');
    expect(saml?.config).toMatchObject({ entityId: 'https://idp.example.com/metadata', ssoUrl: 'https://idp.example.com/sso', emailAttribute: 'email', certificate: IDP_CERTIFICATE.trim() });

    await row.getByRole('button', { name: 'Edit' }).click();
    await region('Edit SAML').getByText(/\/saml\/.+\/acs$/).waitFor();
    expect(await field('Edit SAML', 'IdP certificate (PEM)').inputValue()).toBe(IDP_CERTIFICATE.trim());
    await region('Edit SAML').getByRole('button', { name: 'Cancel' }).click();
    await region('Edit SAML').waitFor({ state: 'detached' });

    // Its SP key rotated: the new certificate shown is in the metadata, beside the previous one for the grace period.
    const metadataUrl = saml!.metadataUrl!;
    const certificatesInMetadata = async () => {
      const xml = await (await fetch(metadataUrl)).text();
      return new Set([...xml.matchAll(/<ds:X509Certificate>([^<]+)</g)].map((match) => match[1]!.replace(/\s/g, '')));
    };
    const before = await certificatesInMetadata();
    expect(before.size).toBe(1);
    void dashboard.answerNextDialog();
    await row.getByRole('button', { name: 'Rotate SP key' }).click();
    const rotated = region('New SP key of SAML');
    await rotated.getByText(/keeps decrypting assertions until/).waitFor();
    const shown = (await rotated.getByLabel('SP certificate (PEM)').inputValue()).replace(/-----[A-Z ]+-----|\s/g, '');
    const after = await certificatesInMetadata();
    expect([...after]).toEqual([shown, ...before]);
    await rotated.getByRole('button', { name: 'Done' }).click();
    await rotated.waitFor({ state: 'detached' });

    // Deleted meanwhile through the API, the provider's rotation is refused with the server's message.
    expect((await dashboard.app.http.delete(`/applications/${appId}/auth-providers/${saml!.id}`)).status).toBe(204);
    void dashboard.answerNextDialog();
    await row.getByRole('button', { name: 'Rotate SP key' }).click();
    expect(await row.getByRole('alert').textContent()).toMatch(/not found/);
  });

  it("under isolation gives Acme its own password policy and provider, which Globex does not get, and refuses a bad session policy", async () => {
    expect((await dashboard.app.http.patch(`/applications/${appId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    // The tab reads the switches when it opens; the session policy refused above is unsaved, dropped once agreed.
    const asked = dashboard.answerNextDialog();
    await openTab(dashboard.page, 'Users');
    expect(await asked).toBe('Discard the changes you have not saved?');
    await openTab(dashboard.page, 'Authentication');
    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Acme' });
    await policyRow('Password').getByText('Inherited', { exact: true }).waitFor();
    expect(await field('Change a policy', 'Minimum length').inputValue()).toBe('12');
    await field('Change a policy', 'Minimum length').fill('16');
    await savePolicy();
    await policyRow('Password').getByText('Customized', { exact: true }).waitFor();
    expect(await policyRow('Password').textContent()).toContain('at least 16 characters');
    expect(await region('Policies').getByText('Customized', { exact: true }).count()).toBe(1);
    expect(await get(`/tenants/${acme}/policies/password`)).toMatchObject({ source: 'customized', minLength: 16 });
    expect(await get(`/tenants/${globex}/policies/password`)).toMatchObject({ source: 'inherited', minLength: 12 });
    expect((await get('/policies/password')).minLength).toBe(12);
    const thirteen = 'Walnut-harbor';
    expect((await createUser('acme-user@example.com', thirteen, acme)).status).toBe(422);
    expect((await createUser('globex-user@example.com', thirteen, globex)).status).toBe(201);

    await region('Providers').getByText('Inherited', { exact: true }).waitFor();
    await region('Providers').getByText("Acme signs in with the application's providers.").waitFor();
    await region('Add a provider').getByText(/Adding a provider here gives Acme a set of its own, with only the providers added here/).waitFor();
    await field('Add a provider', 'Type').selectOption({ label: 'Magic link' });
    await region('Add a provider').getByRole('button', { name: 'Add provider' }).click();
    await region('Providers').getByText('Customized', { exact: true }).waitFor();
    expect(await region('Providers').getByText("Acme signs in with the application's providers.").count()).toBe(0);
    const acmeAuth = (await get(`/tenants/${acme}/configuration`)).auth;
    expect(acmeAuth.providersSource).toBe('customized');
    expect(acmeAuth.providers.map((provider: { type: string }) => provider.type)).toEqual(['magic_link']);
    expect((await get(`/tenants/${globex}/configuration`)).auth.providersSource).toBe('inherited');
    expect((await applicationProviders()).some((provider) => provider.type === 'magic_link')).toBe(false);
    await dashboard.page.screenshot({ path: 'test-results/dashboard-auth-edit-tenant.png', fullPage: true });

    await field('Change a policy', 'Policy to edit').selectOption({ label: 'Session' });
    await field('Change a policy', 'Idle timeout (minutes)').fill('50000');
    await savePolicy();
    expect(await refusal('Change a policy')).toBe('Idle timeout (minutes) may not exceed absoluteTimeoutMinutes');
    expect(await get(`/tenants/${acme}/policies/session`)).toMatchObject({ source: 'inherited' });
    await policyRow('Session').getByText('Inherited', { exact: true }).waitFor();

    // The refused session policy is unsaved: another tenant drops it once the operator agrees.
    const dropped = dashboard.answerNextDialog();
    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Globex' });
    expect(await dropped).toBe('Discard the changes you have not saved?');
    await policyRow('Password').getByText('Inherited', { exact: true }).waitFor();
    expect(await policyRow('Password').textContent()).toContain('at least 12 characters');
    expect(await dashboard.page.getByText('Customized', { exact: true }).count()).toBe(0);
    // A tenant may not change the providers it inherits: their rows offer nothing.
    expect(await region('Providers').getByRole('button', { name: 'Edit' }).count()).toBe(0);
  });
});
