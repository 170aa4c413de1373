import { generateKeyPairSync } from 'node:crypto';
import type { Dialog, Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dashboardSuite, openTab } from '../support/dashboard.ts';

/**
 * The panels opened on a row of a list, in Chromium: they show the row as the list holds it now, so a row changed on
 * the server and read again (a refresh of the tenants after a tenancy switch, another action's answer, the same user
 * search again) keeps the panel's edits with the "changed elsewhere" notice, or replaces a panel without edits unasked;
 * a row deleted elsewhere keeps its panel only for its edits, and says so; the button of the panel already open, and
 * the same search again, ask nothing. A tenancy switch's choice is dropped once the server holds it. The roles and API
 * resources are read again after each edit or deletion on their tab, their panels with them. Another view of the API
 * keys closes a key's roles panel, asking first about its edits.
 */
const USER = 'vera@example.com';
let appId: string;
let acme: string;
let globex: string;
let initech: string;
let userId: string;
let storefrontId: string;
let signerId: string;
let auditorId: string;
let supportId: string;
let billingId: string;
let invoicesId: string;

/** A public Ed25519 key set, as the JWKS field and the API take it. */
const publicJwks = (kid: string) => ({ keys: [{ ...generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }), kid }] });

const dashboard = dashboardSuite({
  tab: 'Tenants',
  setup: async (app) => {
    appId = app.root.applicationId;
    acme = await app.createTenant('Acme');
    globex = await app.createTenant('Globex');
    initech = await app.createTenant('Initech');
    userId = await app.createUser(USER, acme);
    const role = async (key: string, name: string) => {
      const created = await app.http.post('/roles', { key, name, permissions: ['users:read'] });
      expect(created.status).toBe(201);
      return created.body.id as string;
    };
    auditorId = await role('auditor', 'Auditor');
    supportId = await role('support', 'Support');
    billingId = await role('billing', 'Billing');
    for (const n of [1, 2, 3, 4]) await role(`spare-${n}`, `Spare ${n}`);
    const resource = async (name: string, identifier: string) => {
      const created = await app.http.post('/api-resources', { name, identifier });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id as string;
    };
    invoicesId = await resource('Invoices', 'https://invoices.example.com');
    for (const n of [1, 2]) await resource(`Spare API ${n}`, `https://spare-${n}.example.com`);
    expect((await app.http.post('/api-keys', { name: 'Acme reporting', permissions: ['users:read'], tenantId: acme })).status).toBe(201);
    const storefront = await app.http.post('/oauth-clients', { name: 'Storefront', type: 'web', redirectUris: ['https://shop.example/cb'] });
    expect(storefront.status).toBe(201);
    storefrontId = storefront.body.id;
    const signer = await app.http.post('/m2m-credentials', { name: 'Signer', permissions: ['users:read'], authMethod: 'private_key_jwt', jwks: publicJwks('first') });
    expect(signer.status, JSON.stringify(signer.body)).toBe(201);
    signerId = signer.body.id;
  },
});

const region = (name: string | RegExp): Locator => dashboard.page.getByRole('region', { name, exact: typeof name === 'string' });
const changedElsewhere = (panel: Locator, what: string): Locator => panel.getByRole('status').filter({ hasText: `This ${what} was changed elsewhere` });

/** Runs `act` and returns the questions the page asked meanwhile (each declined). */
async function questionsDuring(act: () => Promise<void>): Promise<string[]> {
  const asked: string[] = [];
  const answer = (dialog: Dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  };
  dashboard.page.on('dialog', answer);
  try {
    await act();
  } finally {
    dashboard.page.off('dialog', answer);
  }
  return asked;
}

/** Deletes the row `name` of the tab shown, once confirmed: a change of the tab, which reads its list again. */
async function deleteHere(name: string): Promise<void> {
  const button = dashboard.page.getByRole('button', { name: `Delete ${name}`, exact: true });
  void dashboard.answerNextDialog();
  await button.click();
  await button.waitFor({ state: 'detached' });
}

const tenantsPath = () => `/applications/${appId}/tenants`;
const renameOnServer = async (tenantId: string, name: string) => expect((await dashboard.app.http.patch(`${tenantsPath()}/${tenantId}`, { name })).status).toBe(200);

/** Saves the Branding switch the other way: the tenants' rows follow the switches, so the Tenants tab reads them again. */
async function flipBrandingSwitch(): Promise<void> {
  const branding = dashboard.page.getByRole('group', { name: 'Branding' });
  const other = (await branding.getByRole('radio', { name: 'Application' }).isChecked()) ? 'Per tenant' : 'Application';
  await branding.getByRole('radio', { name: other }).check();
  const save = branding.getByRole('button', { name: 'Save Branding' });
  await save.click();
  // Saved once the switches are enabled again with nothing to save.
  await expect.poll(async () => (await branding.getByRole('radio', { name: other }).isEnabled()) && (await save.isDisabled())).toBe(true);
}

describe('panels on the rows of a list, and a row changed or deleted elsewhere, in Chromium', () => {
  it("keeps a tenant's rename edits when the tenant is renamed elsewhere and says so; the new version on demand, or unasked without edits", async () => {
    await dashboard.page.getByRole('button', { name: 'Rename Acme' }).click();
    const panel = region(/^Rename Acme/);
    const name = panel.getByLabel('Name', { exact: true });
    const notice = changedElsewhere(panel, 'tenant');
    await name.fill('Acme Draft');
    await renameOnServer(acme, 'Acme Server');
    await flipBrandingSwitch();
    await notice.waitFor();
    expect(await name.inputValue()).toBe('Acme Draft');
    expect(await dashboard.unsaved()).toBe(true);

    await notice.getByRole('button', { name: 'Load the new version' }).click();
    expect(await name.inputValue()).toBe('Acme Server');
    expect(await dashboard.unsaved()).toBe(false);

    await renameOnServer(acme, 'Acme Third');
    await flipBrandingSwitch();
    await expect.poll(() => name.inputValue()).toBe('Acme Third');
    expect(await notice.count()).toBe(0);
  });

  it('asks nothing at the Rename of the tenant whose panel is open, and keeps its edits', async () => {
    const panel = region(/^Rename Acme/);
    await panel.getByLabel('Name', { exact: true }).fill('Acme Again');
    expect(await questionsDuring(() => dashboard.page.getByRole('button', { name: 'Rename Acme Third' }).click())).toEqual([]);
    expect(await panel.getByLabel('Name', { exact: true }).inputValue()).toBe('Acme Again');
    void dashboard.answerNextDialog();
    await panel.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'detached' });
  });

  it('keeps the panel of a tenant deleted elsewhere for its edits, saying so; closes it without edits, saying so', async () => {
    await dashboard.page.getByRole('button', { name: 'Rename Globex' }).click();
    const panel = region(/^Rename Globex/);
    await panel.getByLabel('Name', { exact: true }).fill('Globex Draft');
    expect((await dashboard.app.http.delete(`${tenantsPath()}/${globex}`)).status).toBe(204);
    await flipBrandingSwitch();
    const kept = dashboard.page.getByRole('status').filter({ hasText: 'The tenant Globex was deleted elsewhere. Your edits are kept below until you close them.' });
    await kept.waitFor();
    expect(await panel.getByLabel('Name', { exact: true }).inputValue()).toBe('Globex Draft');
    void dashboard.answerNextDialog();
    await panel.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'detached' });
    expect(await kept.count()).toBe(0);

    await dashboard.page.getByRole('button', { name: 'Rename Initech' }).click();
    await region(/^Rename Initech/).getByLabel('Name', { exact: true }).waitFor();
    expect((await dashboard.app.http.delete(`${tenantsPath()}/${initech}`)).status).toBe(204);
    await flipBrandingSwitch();
    const closed = dashboard.page.getByRole('status').filter({ hasText: 'The tenant Initech was deleted elsewhere.' });
    await closed.waitFor();
    expect(await region(/^Rename Initech/).count()).toBe(0);
    expect(await dashboard.unsaved()).toBe(false);
    await closed.getByRole('button', { name: 'Dismiss' }).click();
    expect(await closed.count()).toBe(0);
  });

  it("drops a tenancy switch's choice once the server holds it, and does not bring it back when the server changes again", async () => {
    const email = dashboard.page.getByRole('group', { name: 'E-mail provider' });
    const notSaved = email.getByText('Not saved yet.');
    await email.getByRole('radio', { name: 'Per tenant' }).check();
    await notSaved.waitFor();
    expect(await dashboard.unsaved()).toBe(true);

    const patchEmailScope = async (emailProviderScope: string) =>
      expect((await dashboard.app.http.patch(`/applications/${appId}`, { tenancyConfig: { emailProviderScope } })).status).toBe(200);
    await patchEmailScope('tenant');
    await flipBrandingSwitch();
    expect(await email.getByRole('radio', { name: 'Per tenant' }).isChecked()).toBe(true);
    expect(await notSaved.count()).toBe(0);
    expect(await dashboard.unsaved()).toBe(false);

    await patchEmailScope('application');
    await flipBrandingSwitch();
    await expect.poll(() => email.getByRole('radio', { name: 'Application' }).isChecked()).toBe(true);
    expect(await notSaved.count()).toBe(0);
    expect(await dashboard.unsaved()).toBe(false);
  });

  it("keeps an OAuth client's edits when it is changed elsewhere and says so; the new version on demand, or unasked without edits", async () => {
    await openTab(dashboard.page, 'OAuth clients');
    await dashboard.page.getByRole('row', { name: /Storefront/ }).getByRole('button', { name: 'Edit' }).click();
    const panel = region(/^Edit Store/);
    const name = panel.getByLabel('Name', { exact: true });
    const notice = changedElsewhere(panel, 'client');
    await name.fill('Store Draft');
    const renameClient = async (next: string) => expect((await dashboard.app.http.patch(`/oauth-clients/${storefrontId}`, { name: next })).status).toBe(200);
    /** Rotating answers the client as stored now, its new name with it. */
    const rotate = async () => {
      void dashboard.answerNextDialog();
      await dashboard.page.getByRole('button', { name: 'Rotate secret' }).click();
      await dashboard.page.getByRole('button', { name: 'I have copied it' }).click();
    };
    await renameClient('Store Server');
    await rotate();
    await notice.waitFor();
    expect(await name.inputValue()).toBe('Store Draft');
    await notice.getByRole('button', { name: 'Load the new version' }).click();
    expect(await name.inputValue()).toBe('Store Server');
    expect(await dashboard.unsaved()).toBe(false);

    await renameClient('Store Third');
    await rotate();
    await expect.poll(() => name.inputValue()).toBe('Store Third');
    expect(await notice.count()).toBe(0);
    await panel.getByRole('button', { name: 'Cancel' }).click();
    await panel.waitFor({ state: 'detached' });
  });

  it("keeps an M2M credential's key set edits when its keys are replaced elsewhere and says so", async () => {
    await openTab(dashboard.page, 'M2M credentials');
    await dashboard.page.getByRole('row', { name: /Signer/ }).getByRole('button', { name: 'Replace keys' }).click();
    const panel = region('Keys of Signer');
    const jwks = panel.getByLabel('JWKS');
    const notice = changedElsewhere(panel, "credential's key set");
    await jwks.fill('{"keys": []}');
    const replaced = publicJwks('second');
    expect((await dashboard.app.http.put(`/m2m-credentials/${signerId}/jwks`, replaced)).status).toBe(200);
    // Revoking answers the credential as stored now, its new keys with it.
    void dashboard.answerNextDialog();
    await dashboard.page.getByRole('row', { name: /Signer/ }).getByRole('button', { name: 'Revoke' }).click();
    await notice.waitFor();
    expect(await jwks.inputValue()).toBe('{"keys": []}');
    await notice.getByRole('button', { name: 'Load the new version' }).click();
    expect(JSON.parse(await jwks.inputValue())).toEqual(replaced);
    expect(await dashboard.unsaved()).toBe(false);
    await panel.getByRole('button', { name: 'Cancel' }).click();
  });

  it('asks nothing at the Edit of the role whose panel is open, and keeps its edits', async () => {
    await openTab(dashboard.page, 'Roles');
    await dashboard.page.getByRole('button', { name: 'Edit Auditor' }).click();
    const panel = region('Edit Auditor');
    await panel.getByLabel('Description', { exact: true }).fill('Reads users');
    expect(await questionsDuring(() => dashboard.page.getByRole('button', { name: 'Edit Auditor' }).click())).toEqual([]);
    expect(await panel.getByLabel('Description', { exact: true }).inputValue()).toBe('Reads users');
    void dashboard.answerNextDialog();
    await panel.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'detached' });
  });

  it("keeps a role's edits when it is changed elsewhere and says so once the tab reads the roles again; the new version on demand, or unasked without edits", async () => {
    await dashboard.page.getByRole('button', { name: 'Edit Auditor' }).click();
    const panel = region('Edit Auditor');
    const description = panel.getByLabel('Description', { exact: true });
    const notice = changedElsewhere(panel, 'role');
    await description.fill('Draft');
    const describeOnServer = async (text: string) => expect((await dashboard.app.http.patch(`/roles/${auditorId}`, { description: text })).status).toBe(200);
    await describeOnServer('Server');
    await deleteHere('Spare 1');
    await notice.waitFor();
    expect(await description.inputValue()).toBe('Draft');
    expect(await dashboard.unsaved()).toBe(true);
    await notice.getByRole('button', { name: 'Load the new version' }).click();
    expect(await description.inputValue()).toBe('Server');
    expect(await dashboard.unsaved()).toBe(false);

    await describeOnServer('Third');
    await deleteHere('Spare 2');
    await expect.poll(() => description.inputValue()).toBe('Third');
    expect(await notice.count()).toBe(0);
    await panel.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'detached' });
  });

  it('keeps the panel of a role deleted elsewhere for its edits, saying so; closes it without edits, saying so', async () => {
    await dashboard.page.getByRole('button', { name: 'Edit Support' }).click();
    const panel = region('Edit Support');
    await panel.getByLabel('Description', { exact: true }).fill('Draft');
    expect((await dashboard.app.http.delete(`/roles/${supportId}`)).status).toBe(204);
    await deleteHere('Spare 3');
    const kept = dashboard.page.getByRole('status').filter({ hasText: 'The role Support was deleted elsewhere. Your edits are kept below until you close them.' });
    await kept.waitFor();
    expect(await panel.getByLabel('Description', { exact: true }).inputValue()).toBe('Draft');
    void dashboard.answerNextDialog();
    await panel.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'detached' });

    await dashboard.page.getByRole('button', { name: 'Edit Billing' }).click();
    await region('Edit Billing').getByLabel('Description', { exact: true }).waitFor();
    expect((await dashboard.app.http.delete(`/roles/${billingId}`)).status).toBe(204);
    await deleteHere('Spare 4');
    const closed = dashboard.page.getByRole('status').filter({ hasText: 'The role Billing was deleted elsewhere.' });
    await closed.waitFor();
    expect(await region('Edit Billing').count()).toBe(0);
    expect(await dashboard.unsaved()).toBe(false);
    await closed.getByRole('button', { name: 'Dismiss' }).click();
  });

  it("keeps an API resource's edits when it is changed, then deleted, elsewhere, and says so once the tab reads the resources again", async () => {
    await openTab(dashboard.page, 'API resources');
    await dashboard.page.getByRole('button', { name: 'Edit Invoices' }).click();
    const panel = region(/^Edit Invoices/);
    const name = panel.getByLabel('Name', { exact: true });
    const notice = changedElsewhere(panel, 'API resource');
    await name.fill('Invoices Draft');
    expect((await dashboard.app.http.patch(`/api-resources/${invoicesId}`, { name: 'Invoices Server' })).status).toBe(200);
    await deleteHere('Spare API 1');
    await notice.waitFor();
    expect(await name.inputValue()).toBe('Invoices Draft');
    await notice.getByRole('button', { name: 'Load the new version' }).click();
    expect(await name.inputValue()).toBe('Invoices Server');
    expect(await dashboard.unsaved()).toBe(false);

    await name.fill('Invoices Again');
    expect((await dashboard.app.http.delete(`/api-resources/${invoicesId}`)).status).toBe(204);
    await deleteHere('Spare API 2');
    const kept = dashboard.page.getByRole('status').filter({ hasText: 'The API resource Invoices Server was deleted elsewhere. Your edits are kept below until you close them.' });
    await kept.waitFor();
    expect(await name.inputValue()).toBe('Invoices Again');
    void dashboard.answerNextDialog();
    await panel.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'detached' });
  });

  it("asks about a key's roles panel before another view of the keys closes it: declined, the view and the panel's choice stay", async () => {
    await openTab(dashboard.page, 'API keys');
    const view = dashboard.page.getByLabel('Show keys of');
    const showKeysOf = async (label: string) => {
      await view.selectOption({ label });
    };
    await dashboard.page.getByRole('button', { name: 'Roles of Acme reporting' }).click();
    const panel = region('Roles of Acme reporting');
    const role = panel.getByLabel('Role', { exact: true });
    await role.selectOption({ label: 'Auditor' });
    expect(await dashboard.unsaved()).toBe(true);
    expect(await questionsDuring(() => showKeysOf('Acme Third'))).toEqual(['Discard the changes you have not saved?']);
    expect(await view.inputValue()).toBe('');
    expect(await role.inputValue()).toBe(auditorId);

    void dashboard.answerNextDialog();
    await showKeysOf('Acme Third');
    await panel.waitFor({ state: 'detached' });
    expect(await dashboard.unsaved()).toBe(false);

    // Without edits, another view closes the panel unasked.
    await dashboard.page.getByRole('button', { name: 'Roles of Acme reporting' }).click();
    await panel.getByLabel('Role', { exact: true }).waitFor();
    expect(await questionsDuring(() => showKeysOf('All keys'))).toEqual([]);
    await panel.waitFor({ state: 'detached' });
  });

  it("asks nothing at the same search or the open panel's button; the same search reads the user again into the panel", async () => {
    await openTab(dashboard.page, 'Users');
    await dashboard.page.getByRole('button', { name: `Details of ${USER}` }).click();
    const panel = region(`Details of ${USER}`);
    const name = panel.getByLabel('Name', { exact: true });
    const notice = changedElsewhere(panel, "user's profile");
    await name.fill('Vera Draft');
    const search = dashboard.page.getByRole('button', { name: 'Search', exact: true });
    expect(await questionsDuring(() => dashboard.page.getByRole('button', { name: `Details of ${USER}` }).click())).toEqual([]);
    expect(await questionsDuring(() => search.click())).toEqual([]);
    expect(await name.inputValue()).toBe('Vera Draft');

    expect((await dashboard.app.http.patch(`/users/${userId}`, { name: 'Vera Server' })).status).toBe(200);
    expect(await questionsDuring(() => search.click())).toEqual([]);
    await notice.waitFor();
    expect(await name.inputValue()).toBe('Vera Draft');
    await notice.getByRole('button', { name: 'Load the new version' }).click();
    expect(await name.inputValue()).toBe('Vera Server');

    expect((await dashboard.app.http.patch(`/users/${userId}`, { name: 'Vera Third' })).status).toBe(200);
    await search.click();
    await expect.poll(() => name.inputValue()).toBe('Vera Third');
    expect(await notice.count()).toBe(0);
    expect(await dashboard.unsaved()).toBe(false);
  });
});
