import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { dashboardSuite } from '../support/dashboard.ts';
import { authorizationRequest, authorize, basicAuth, discover, postForm } from '../support/oauth.ts';

/**
 * The dashboard's OAuth clients tab in Chromium: the operator creates a web client, whose client_id and secret (read
 * from the page) sign a user in; edits its redirect URIs, rotates its secret and deletes it, each seen at the OP; and
 * is shown the server's refusal of a bad redirect URI, which changes nothing; a new client's secret stays shown until
 * dismissed, through a refused creation and the next one, as a rotated one through another rotation. Screenshot:
 * test-results/dashboard-clients.png.
 */
const REDIRECT = 'https://storefront.example/callback';
const EDITED_REDIRECT = 'https://storefront.example/signed-in';
let publicUrl: string;
let appId: string;
let acme: string;
let ada: string;
/** The web client the dashboard makes, as the page showed it. */
const storefront = { clientId: '', secret: '', rotatedSecret: '' };

const listedClients = async () => (await dashboard.app.http.get('/oauth-clients')).body.data as { clientId: string; name: string; redirectUris: string[]; allowedOrigins: string[] }[];
const storefrontRow = () => dashboard.page.getByRole('row', { name: /Storefront/ });
const createForm = () => dashboard.page.getByRole('region', { name: 'Create OAuth client' });

/** Ada signs in through the client (code + PKCE, the secret at the token endpoint): the ID token's subject and audience. */
async function signInThrough(clientId: string, secret: string, redirectUri: string) {
  const config = await discover(dashboard.app, clientId, oidc.ClientSecretBasic(secret), { redirect_uris: [redirectUri] });
  const request = await authorizationRequest(config, { redirectUri, resource: '' });
  const outcome = await authorize(dashboard.app, request.url, { userId: ada, tenantId: null });
  if (outcome.kind !== 'redirect') throw new Error(`expected a redirect, got ${outcome.status}: ${outcome.body.slice(0, 300)}`);
  const tokens = await oidc.authorizationCodeGrant(config, outcome.url, { pkceCodeVerifier: request.verifier, expectedState: request.state });
  return { sub: tokens.claims()?.sub, aud: tokens.claims()?.aud };
}

/** The token endpoint's answer to a made-up code: invalid_grant once the client is authenticated, invalid_client otherwise. */
async function tokenEndpointError(clientId: string, secret: string): Promise<string> {
  const fields = { grant_type: 'authorization_code', code: 'not-a-code', redirect_uri: EDITED_REDIRECT };
  return (await postForm(`${publicUrl}/oauth2/token`, fields, { authorization: basicAuth(clientId, secret) })).body.error as string;
}

const dashboard = dashboardSuite({
  tab: 'OAuth clients',
  setup: async (app) => {
    publicUrl = app.gatehouse.services.config.publicUrl;
    appId = app.root.applicationId;
    acme = await app.createTenant('Acme');
    const created = await app.http.post('/users', { email: 'ada@example.com', name: 'Ada Lovelace' });
    expect(created.status).toBe(201);
    ada = created.body.id;
    const portal = { name: 'Acme portal', type: 'spa', redirectUris: ['https://acme.example/cb'], tenantId: acme };
    expect((await app.http.post('/oauth-clients', portal)).status).toBe(201);
  },
});

describe('the OAuth clients tab of the dashboard in Chromium', () => {
  it("lists the application's clients with their tenant, never the dashboard's own client of the console", async () => {
    const row = dashboard.page.getByRole('row', { name: /Acme portal/ });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(['Single-page application', '', 'https://acme.example/cb', 'Acme', 'EditDelete']);
    const [portal] = await listedClients();
    expect(await row.getByRole('textbox', { name: 'client_id of Acme portal' }).inputValue()).toBe(portal!.clientId);

    const dashboardClient = await dashboard.page.locator('meta[name="gatehouse-client-id"]').getAttribute('content');
    const shown = await Promise.all((await dashboard.page.getByRole('textbox', { name: /^client_id of / }).all()).map((field) => field.inputValue()));
    expect(shown).toEqual([portal!.clientId]);
    expect(shown).not.toContain(dashboardClient);
  });

  it("opens no tab of the console, whose clients (the dashboard's own among them) are the service's and the console's", async () => {
    const [{ id: consoleId }] = (await dashboard.app.sql<{ id: string }>('select id from application where console')) as [{ id: string }];
    await dashboard.page.goto(`${publicUrl}/dashboard/#/${consoleId}/oauth-clients`);
    await dashboard.page.getByText('The address names an application you do not manage, or one that no longer exists.').waitFor();
    expect(await dashboard.page.getByRole('textbox', { name: /^client_id of / }).count()).toBe(0);
    expect(await dashboard.page.getByRole('button', { name: /^(Edit|Delete)$/ }).count()).toBe(0);
    await dashboard.page.goto(`${publicUrl}/dashboard/#/${appId}/oauth-clients`);
    await dashboard.page.getByRole('row', { name: /Acme portal/ }).waitFor();
  });

  it('creates a web client, shows its secret once with the issuer, and its client_id and secret sign a user in', async () => {
    await createForm().getByLabel('Web application').check();
    await createForm().getByLabel('Name').fill('Storefront');
    await createForm().getByLabel('Redirect URIs', { exact: true }).fill(REDIRECT);
    await createForm().getByRole('button', { name: 'Create OAuth client' }).click();

    const created = dashboard.page.getByRole('region', { name: 'Storefront is created' });
    await created.waitFor();
    storefront.clientId = await created.getByLabel('client_id', { exact: true }).inputValue();
    storefront.secret = await created.getByLabel('Client secret').inputValue();
    expect(await created.getByText('will not be shown again').count()).toBe(1);
    expect(await created.getByRole('definition').allTextContents()).toEqual(['', publicUrl, `${publicUrl}/.well-known/openid-configuration`]);
    await storefrontRow().waitFor();
    expect(await storefrontRow().getByRole('textbox').inputValue()).toBe(storefront.clientId);
    await dashboard.page.screenshot({ path: 'test-results/dashboard-clients.png', fullPage: true });

    const stored = await dashboard.app.http.get(`/oauth-clients/${storefront.clientId}`);
    expect(stored.body).toMatchObject({ name: 'Storefront', type: 'web', tenantId: null, redirectUris: [REDIRECT], hasSecret: true, managementApi: false });
    expect(await signInThrough(storefront.clientId, storefront.secret, REDIRECT)).toEqual({ sub: ada, aud: storefront.clientId });
    expect(await tokenEndpointError(storefront.clientId, 'not-the-secret')).toBe('invalid_client');

    await created.getByRole('button', { name: 'I have copied it' }).click();
    await created.getByLabel('Client secret').waitFor({ state: 'detached' });
    expect(await created.getByLabel('client_id', { exact: true }).inputValue()).toBe(storefront.clientId);
  });

  it("shows the server's refusal of a redirect URI with a fragment and creates nothing", async () => {
    await createForm().getByLabel('Name').fill('Broken');
    await createForm().getByLabel('Redirect URIs', { exact: true }).fill('https://broken.example/cb#done');
    await createForm().getByRole('button', { name: 'Create OAuth client' }).click();
    await createForm().getByRole('alert').filter({ hasText: '"https://broken.example/cb#done" must not contain a fragment' }).waitFor();
    expect((await listedClients()).map((client) => client.name).sort()).toEqual(['Acme portal', 'Storefront']);
    expect(await dashboard.page.getByRole('row', { name: /Broken/ }).count()).toBe(0);
  });

  it('edits the redirect URIs: the new one signs a user in, the old one no longer', async () => {
    await storefrontRow().getByRole('button', { name: 'Edit' }).click();
    const edit = dashboard.page.getByRole('region', { name: 'Edit Storefront' });
    expect(await edit.getByLabel('Redirect URIs', { exact: true }).inputValue()).toBe(REDIRECT);
    await edit.getByLabel('Redirect URIs', { exact: true }).fill(EDITED_REDIRECT);
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    await storefrontRow().getByText(EDITED_REDIRECT).waitFor();

    expect((await dashboard.app.http.get(`/oauth-clients/${storefront.clientId}`)).body.redirectUris).toEqual([EDITED_REDIRECT]);
    expect(await signInThrough(storefront.clientId, storefront.secret, EDITED_REDIRECT)).toEqual({ sub: ada, aud: storefront.clientId });
    await expect(signInThrough(storefront.clientId, storefront.secret, REDIRECT)).rejects.toThrow(/expected a redirect, got 400/);
  });

  it("shows the server's refusal of a redirect URI that is not absolute and changes nothing", async () => {
    await storefrontRow().getByRole('button', { name: 'Edit' }).click();
    const edit = dashboard.page.getByRole('region', { name: 'Edit Storefront' });
    await edit.getByLabel('Redirect URIs', { exact: true }).fill('storefront.example/callback');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.getByRole('alert').filter({ hasText: '"storefront.example/callback" must be an absolute URI' }).waitFor();
    expect((await dashboard.app.http.get(`/oauth-clients/${storefront.clientId}`)).body.redirectUris).toEqual([EDITED_REDIRECT]);

    // The refused edit is unsaved: Cancel drops it once the operator agrees.
    const asked = dashboard.answerNextDialog();
    await edit.getByRole('button', { name: 'Cancel' }).click();
    expect(await asked).toBe('Discard the changes you have not saved?');
    await edit.waitFor({ state: 'detached' });
    expect(await storefrontRow().getByText(EDITED_REDIRECT).count()).toBe(1);
  });

  it("sets the login URI, after showing the server's refusal of an http one on a public host, which changes nothing", async () => {
    await storefrontRow().getByRole('button', { name: 'Edit' }).click();
    const edit = dashboard.page.getByRole('region', { name: 'Edit Storefront' });
    const loginUri = edit.getByLabel('Login URI', { exact: true });
    expect(await loginUri.inputValue()).toBe('');
    await loginUri.fill('http://storefront.example/login');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.getByRole('alert').filter({ hasText: '"http://storefront.example/login" must use https' }).waitFor();
    expect(await loginUri.getAttribute('aria-invalid')).toBe('true');
    expect((await dashboard.app.http.get(`/oauth-clients/${storefront.clientId}`)).body.initiateLoginUri).toBeNull();

    await loginUri.fill('https://storefront.example/login');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    expect((await dashboard.app.http.get(`/oauth-clients/${storefront.clientId}`)).body).toMatchObject({
      initiateLoginUri: 'https://storefront.example/login',
      redirectUris: [EDITED_REDIRECT],
    });
    await storefrontRow().getByRole('button', { name: 'Edit' }).click();
    expect(await loginUri.inputValue()).toBe('https://storefront.example/login');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await edit.waitFor({ state: 'detached' });
  });

  it("sets a public client's allowed origins, after showing the server's refusal of one with a path; a web client has none", async () => {
    await storefrontRow().getByRole('button', { name: 'Edit' }).click();
    const storefrontEdit = dashboard.page.getByRole('region', { name: 'Edit Storefront' });
    expect(await storefrontEdit.getByLabel('Allowed origins (CORS)').count()).toBe(0);
    await storefrontEdit.getByRole('button', { name: 'Cancel' }).click();
    await storefrontEdit.waitFor({ state: 'detached' });

    await dashboard.page.getByRole('row', { name: /Acme portal/ }).getByRole('button', { name: 'Edit' }).click();
    const edit = dashboard.page.getByRole('region', { name: 'Edit Acme portal' });
    const origins = edit.getByLabel('Allowed origins (CORS)');
    expect(await origins.inputValue()).toBe('');
    await origins.fill('capacitor://localhost/');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.getByRole('alert').filter({ hasText: '"capacitor://localhost/" must not contain a path' }).waitFor();
    expect(await origins.getAttribute('aria-invalid')).toBe('true');
    const portal = async () => (await listedClients()).find((client) => client.name === 'Acme portal');
    expect((await portal())?.allowedOrigins).toEqual([]);

    await origins.fill('capacitor://localhost\nHTTP://localhost:80');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    expect((await portal())?.allowedOrigins).toEqual(['capacitor://localhost', 'http://localhost']);
  });

  it('rotates the secret once confirmed: the new one works, the old one for the grace period stated', async () => {
    const question = dashboard.answerNextDialog();
    await storefrontRow().getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = dashboard.page.getByRole('region', { name: 'New secret of Storefront' });
    await rotated.waitFor();
    expect(await question).toContain('the current one keeps working for 24 hours');
    storefront.rotatedSecret = await rotated.getByLabel('New client secret').inputValue();
    expect(storefront.rotatedSecret).not.toBe(storefront.secret);
    expect(await rotated.getByText('The previous secret keeps working until').count()).toBe(1);

    const stored = (await dashboard.app.http.get(`/oauth-clients/${storefront.clientId}`)).body;
    const grace = new Date(stored.previousSecretExpiresAt).getTime() - Date.now();
    expect(grace).toBeGreaterThan(23 * 3600_000);
    expect(grace).toBeLessThanOrEqual(24 * 3600_000);
    expect(await signInThrough(storefront.clientId, storefront.rotatedSecret, EDITED_REDIRECT)).toEqual({ sub: ada, aud: storefront.clientId });
    expect(await tokenEndpointError(storefront.clientId, storefront.secret)).toBe('invalid_grant');

    await rotated.getByRole('button', { name: 'I have copied it' }).click();
    await rotated.waitFor({ state: 'detached' });
  });

  it('deletes the client once confirmed: its client_id is refused (invalid_client)', async () => {
    const question = dashboard.answerNextDialog();
    await storefrontRow().getByRole('button', { name: 'Delete' }).click();
    await storefrontRow().waitFor({ state: 'detached' });
    expect(await question).toContain('Delete Storefront? Its client_id stops working at once');
    expect((await dashboard.app.http.get(`/oauth-clients/${storefront.clientId}`)).status).toBe(404);
    expect(await tokenEndpointError(storefront.clientId, storefront.rotatedSecret)).toBe('invalid_client');
    await dashboard.page.getByRole('row', { name: /Acme portal/ }).waitFor();
  });

  it("gives a tenant's new client its tenant's issuer once authentication is isolated, an issuer the OP serves", async () => {
    expect((await dashboard.app.http.patch(`/applications/${appId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    await dashboard.page.reload();
    await dashboard.page.getByRole('heading', { level: 2, name: 'OAuth clients' }).waitFor();
    await createForm().getByLabel('Single-page application').check();
    await createForm().getByLabel('Tenant').selectOption({ label: 'Acme' });
    await createForm().getByLabel('Name').fill('Acme app');
    await createForm().getByLabel('Redirect URIs', { exact: true }).fill('https://app.acme.example/cb');
    await createForm().getByRole('button', { name: 'Create OAuth client' }).click();

    const created = dashboard.page.getByRole('region', { name: 'Acme app is created' });
    await created.waitFor();
    const issuer = `${publicUrl}/t/${acme}`;
    expect(await created.getByRole('definition').allTextContents()).toEqual(['', issuer, `${issuer}/.well-known/openid-configuration`]);
    expect(await created.getByLabel('Client secret').count()).toBe(0);
    const clientId = await created.getByLabel('client_id', { exact: true }).inputValue();
    expect((await dashboard.app.http.get(`/oauth-clients/${clientId}`)).body).toMatchObject({ type: 'spa', tenantId: acme, hasSecret: false });
    const discovery = await fetch(`${issuer}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(((await discovery.json()) as { issuer: string }).issuer).toBe(issuer);
    await dashboard.page.getByRole('row', { name: /Acme app/ }).getByRole('cell', { name: 'Acme', exact: true }).waitFor();
  });

  it("keeps a new client's secret shown through a refused creation and the next one, until its own dismissal", async () => {
    const createWeb = async (name: string, redirect: string) => {
      await createForm().getByLabel('Web application').check();
      await createForm().getByLabel('Tenant').selectOption({ label: 'All tenants' });
      await createForm().getByLabel('Name').fill(name);
      await createForm().getByLabel('Redirect URIs', { exact: true }).fill(redirect);
      await createForm().getByRole('button', { name: 'Create OAuth client' }).click();
    };
    const checkout = dashboard.page.getByRole('region', { name: 'Checkout is created' });
    await createWeb('Checkout', 'https://checkout.example/cb');
    const secret = await checkout.getByLabel('Client secret').inputValue();
    expect(secret).not.toBe('');

    await createWeb('Broken again', 'https://broken.example/cb#done');
    await createForm().getByRole('alert').filter({ hasText: 'must not contain a fragment' }).waitFor();
    expect(await checkout.getByLabel('Client secret').inputValue()).toBe(secret);

    await createWeb('Billing', 'https://billing.example/cb');
    const billing = dashboard.page.getByRole('region', { name: 'Billing is created' });
    await billing.getByLabel('Client secret').waitFor();
    expect(await checkout.getByLabel('Client secret').inputValue()).toBe(secret);
    await checkout.getByRole('button', { name: 'I have copied it' }).click();
    await checkout.getByLabel('Client secret').waitFor({ state: 'detached' });
    expect(await dashboard.unsaved()).toBe(true);
    await billing.getByRole('button', { name: 'I have copied it' }).click();
    await billing.getByLabel('Client secret').waitFor({ state: 'detached' });
    expect(await dashboard.unsaved()).toBe(false);
    expect(await dashboard.page.content()).not.toContain(secret);
  });

  it("keeps a rotated client's new secret shown when another client is rotated meanwhile, until its own dismissal", async () => {
    const rotate = async (name: string) => {
      const question = dashboard.answerNextDialog();
      await dashboard.page.getByRole('row', { name: new RegExp(name) }).getByRole('button', { name: 'Rotate secret' }).click();
      await question;
      const rotated = dashboard.page.getByRole('region', { name: `New secret of ${name}` });
      await rotated.getByLabel('New client secret').waitFor();
      return rotated;
    };
    const checkout = await rotate('Checkout');
    const secret = await checkout.getByLabel('New client secret').inputValue();
    const billing = await rotate('Billing');
    expect(await checkout.getByLabel('New client secret').inputValue()).toBe(secret);

    await checkout.getByRole('button', { name: 'I have copied it' }).click();
    await checkout.waitFor({ state: 'detached' });
    expect(await dashboard.unsaved()).toBe(true);
    await billing.getByRole('button', { name: 'I have copied it' }).click();
    await billing.waitFor({ state: 'detached' });
    expect(await dashboard.unsaved()).toBe(false);
    expect(await dashboard.page.content()).not.toContain(secret);
  });
});
