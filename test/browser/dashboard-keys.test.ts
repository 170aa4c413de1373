import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dashboardSuite } from '../support/dashboard.ts';

/**
 * The dashboard's API keys tab in Chromium: the operator creates a key restricted to `users:read`, whose secret, read
 * from the page once, reads users and may not write them; rotates it (the old secret stops working, the new one works)
 * and revokes it; is shown the server's refusal of a key without permissions or name, which makes nothing; makes a key
 * of the tenant Acme, shown under Acme; keeps each new secret until its own dismissal; and, left with a role that does not hold `users:write`, is refused a key with
 * it. Screenshot: test-results/dashboard-keys.png.
 */
interface ListedKey {
  id: string;
  name: string;
  tenantId: string | null;
  permissions: string[];
  expiresAt: string | null;
  revokedAt: string | null;
  lastRotatedAt: string | null;
}

let acme: string;
/** The `users:read` key made in the dashboard, and its working secret. */
let reader: ListedKey;
let readerSecret: string;

/** Every key of the application, as the API lists them to the bootstrap key. */
const keysOnServer = async (): Promise<ListedKey[]> => (await dashboard.app.http.get('/api-keys?pageSize=100')).body.data;
const keyRow = (name: string): Locator => dashboard.page.getByRole('row', { name: new RegExp(`^${name}`) });
const secretShown = (heading: string): Locator => dashboard.page.getByRole('region', { name: heading });
const readUsers = (secret: string) => dashboard.app.as({ apiKey: secret }).get('/users');

/** Reads the secret shown once under `heading`, which another tab may not drop unasked, then dismisses it; it is nowhere in the page afterwards. */
async function takeSecret(heading: string): Promise<string> {
  const shown = secretShown(heading);
  await shown.waitFor();
  expect(await shown.textContent()).toContain('will not be shown again');
  const field = shown.getByLabel('Secret');
  expect(await field.getAttribute('readonly')).not.toBeNull();
  const secret = await field.inputValue();
  expect(secret).not.toBe('');
  // Kept nowhere else: another tab, or closing the page, asks first; declined, the secret stays shown.
  expect(await dashboard.unsaved()).toBe(true);
  const asked = dashboard.answerNextDialog('dismiss');
  await dashboard.page.getByRole('navigation', { name: 'Application sections' }).getByRole('link', { name: 'Users', exact: true }).click();
  expect(await asked).toBe('Discard the changes you have not saved?');
  expect(await field.inputValue()).toBe(secret);
  await shown.getByRole('button', { name: 'I have copied it' }).click();
  await shown.waitFor({ state: 'detached' });
  expect(await dashboard.unsaved()).toBe(false);
  expect(await dashboard.page.content()).not.toContain(secret);
  return secret;
}

const dashboard = dashboardSuite({
  tab: 'API keys',
  setup: async (app) => {
    acme = await app.createTenant('Acme');
    const userId = await app.createUser('support@example.com');
    expect((await app.http.post('/api-keys', { name: 'Support bot', permissions: ['users:read'], userId })).status).toBe(201);
  },
});

describe('the API keys tab of the dashboard in Chromium', () => {
  it('lists the application-wide bootstrap key with all permissions, and the user-bound key with its user', async () => {
    const bootstrap = keyRow('Bootstrap app_admin key');
    await bootstrap.waitFor();
    const cells = await bootstrap.getByRole('cell').allTextContents();
    expect([cells[0], cells[1], cells[3], cells[4], cells[5], cells[6]]).toEqual(['Application', 'All permissions', 'Never', 'Never', 'Active', 'Roles of Bootstrap app_admin keyRotateRevoke']);
    expect(await keyRow('Support bot').getByRole('rowheader').textContent()).toBe('Support botActs as support@example.com');
    expect(await keyRow('Support bot').getByRole('cell').nth(1).textContent()).toBe('users:read');
  });

  it('creates a key restricted to users:read whose secret, shown once, reads users and may not write them', async () => {
    await dashboard.page.getByLabel('Name', { exact: true }).fill('CI reader');
    await dashboard.page.getByRole('checkbox', { name: 'users:read', exact: true }).check();
    await dashboard.page.getByRole('button', { name: 'Create API key' }).click();
    await secretShown('New API key “CI reader”').waitFor();
    await dashboard.page.screenshot({ path: 'test-results/dashboard-keys.png', fullPage: true });
    readerSecret = await takeSecret('New API key “CI reader”');

    await keyRow('CI reader').waitFor();
    const cells = await keyRow('CI reader').getByRole('cell').allTextContents();
    expect([cells[0], cells[1], cells[3], cells[4], cells[5], cells[6]]).toEqual(['Application', 'users:read', 'Never', 'Never', 'Active', 'Roles of CI readerRotateRevoke']);
    const created = (await keysOnServer()).filter((key) => key.name === 'CI reader');
    expect(created).toMatchObject([{ tenantId: null, permissions: ['users:read'], expiresAt: null, revokedAt: null }]);
    reader = created[0]!;

    expect((await readUsers(readerSecret)).status).toBe(200);
    const write = await dashboard.app.as({ apiKey: readerSecret }).post('/users', { email: 'written@example.com' });
    expect(write.status).toBe(403);
    expect((await dashboard.app.http.get('/users?email=written@example.com')).body.data).toEqual([]);
  });

  it('rotates the key once confirmed: the old secret is refused, the new one, shown once, works', async () => {
    const question = dashboard.answerNextDialog();
    await keyRow('CI reader').getByRole('button', { name: 'Rotate' }).click();
    expect(await question).toBe('Rotate the API key “CI reader”? Its current secret stops working at once.');
    const newSecret = await takeSecret('New secret of “CI reader”');
    expect(newSecret).not.toBe(readerSecret);

    expect((await readUsers(readerSecret)).status).toBe(401);
    expect((await readUsers(newSecret)).status).toBe(200);
    const [rotated] = (await keysOnServer()).filter((key) => key.id === reader.id);
    expect(rotated?.lastRotatedAt).not.toBeNull();
    expect(await keyRow('CI reader').getByRole('cell').nth(4).textContent()).not.toBe('Never');
    readerSecret = newSecret;
  });

  it('revokes the key once confirmed: the row shows Revoked without actions and the secret is refused', async () => {
    const question = dashboard.answerNextDialog();
    await keyRow('CI reader').getByRole('button', { name: 'Revoke' }).click();
    expect(await question).toBe('Revoke the API key “CI reader”? It stops working at once, for good.');
    await keyRow('CI reader').getByRole('cell', { name: 'Revoked', exact: true }).waitFor();
    expect(await keyRow('CI reader').getByRole('button').count()).toBe(0);

    expect((await readUsers(readerSecret)).status).toBe(401);
    const [revoked] = (await keysOnServer()).filter((key) => key.id === reader.id);
    expect(revoked?.revokedAt).not.toBeNull();
  });

  it("shows the server's refusal of a key without permissions, or without a visible name, and makes nothing", async () => {
    const before = await keysOnServer();
    await dashboard.page.getByLabel('Name', { exact: true }).fill('CI writer');
    await dashboard.page.getByRole('button', { name: 'Create API key' }).click();
    await dashboard.page.getByRole('alert').filter({ hasText: 'permissions must name at least one permission' }).waitFor();

    await dashboard.page.getByLabel('Name', { exact: true }).fill('   ');
    await dashboard.page.getByRole('checkbox', { name: 'users:write', exact: true }).check();
    await dashboard.page.getByRole('button', { name: 'Create API key' }).click();
    await dashboard.page.getByRole('alert').filter({ hasText: 'name must be 1 to 200 characters' }).waitFor();

    expect(await keyRow('CI writer').count()).toBe(0);
    expect(await dashboard.page.getByRole('region', { name: /New API key/ }).count()).toBe(0);
    expect(await keysOnServer()).toEqual(before);
  });

  it("creates a key of the tenant Acme with an expiry, shown under Acme and alone in Acme's keys", async () => {
    await dashboard.page.getByLabel('Name', { exact: true }).fill('Acme sync');
    await dashboard.page.getByLabel('Tenant', { exact: true }).selectOption({ label: 'Acme' });
    await dashboard.page.getByLabel('Expires (optional)').fill('2035-06-01T12:00');
    await dashboard.page.getByRole('checkbox', { name: 'All permissions' }).check();
    expect(await dashboard.page.getByRole('checkbox', { name: 'users:read', exact: true }).isDisabled()).toBe(true);
    await dashboard.page.getByRole('button', { name: 'Create API key' }).click();
    const secret = await takeSecret('New API key “Acme sync”');

    const row = keyRow('Acme sync');
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect([cells[0], cells[1], cells[5]]).toEqual(['Acme', 'All permissions', 'Active']);
    expect(cells[3]).not.toBe('Never');
    const created = (await keysOnServer()).filter((key) => key.name === 'Acme sync');
    expect(created).toMatchObject([{ tenantId: acme, permissions: ['*'], expiresAt: new Date('2035-06-01T12:00').toISOString() }]);
    // A key of Acme's acts in Acme only.
    const globex = await dashboard.app.createTenant('Globex');
    expect((await dashboard.app.as({ apiKey: secret }).get(`/applications/${dashboard.app.root.applicationId}/tenants/${acme}/users`)).status).toBe(200);
    expect((await dashboard.app.as({ apiKey: secret }).get(`/applications/${dashboard.app.root.applicationId}/tenants/${globex}/users`)).status).toBe(403);

    await dashboard.page.getByLabel('Show keys of').selectOption({ label: 'Acme' });
    await keyRow('Bootstrap app_admin key').waitFor({ state: 'detached' });
    await row.waitFor();
    expect(await dashboard.page.getByRole('row').count()).toBe(2);
    await dashboard.page.getByLabel('Show keys of').selectOption({ label: 'All keys' });
    await keyRow('Bootstrap app_admin key').waitFor();
    expect(await keyRow('Acme sync').count()).toBe(1);
  });

  it('keeps each new secret shown until its own dismissal: a second key made meanwhile shows beside the first', async () => {
    const create = async (name: string) => {
      await dashboard.page.getByLabel('Name', { exact: true }).fill(name);
      await dashboard.page.getByRole('checkbox', { name: 'users:read', exact: true }).check();
      await dashboard.page.getByRole('button', { name: 'Create API key' }).click();
      await secretShown(`New API key “${name}”`).waitFor();
    };
    await create('Batch one');
    await create('Batch two');
    const first = secretShown('New API key “Batch one”');
    expect(await first.count()).toBe(1);
    const firstSecret = await first.getByLabel('Secret').inputValue();
    const secondSecret = await secretShown('New API key “Batch two”').getByLabel('Secret').inputValue();
    expect(firstSecret).not.toBe(secondSecret);
    expect((await readUsers(firstSecret)).status).toBe(200);
    expect((await readUsers(secondSecret)).status).toBe(200);

    await first.getByRole('button', { name: 'I have copied it' }).click();
    await first.waitFor({ state: 'detached' });
    // The second is still owed its own dismissal.
    expect(await secretShown('New API key “Batch two”').getByLabel('Secret').inputValue()).toBe(secondSecret);
    expect(await dashboard.unsaved()).toBe(true);
    await secretShown('New API key “Batch two”').getByRole('button', { name: 'I have copied it' }).click();
    await secretShown('New API key “Batch two”').waitFor({ state: 'detached' });
    expect(await dashboard.unsaved()).toBe(false);
    expect(await dashboard.page.content()).not.toContain(firstSecret);
  });

  it("shows the server's refusal of a permission the operator does not hold, and makes nothing", async () => {
    // The operator keeps only a role that manages keys and reads what the tab reads: `users:write` is beyond it.
    const permissions = ['api_keys:*', 'applications:read', 'permissions:read', 'tenants:read', 'users:read'];
    const role = await dashboard.app.http.post('/roles', { key: 'key_manager', name: 'Key manager', permissions });
    expect(role.status).toBe(201);
    const [adminGrant] = (await dashboard.app.http.get('/role-assignments?subjectType=operator')).body.data as { id: string; roleId: string; subject: { type: string; id: string } }[];
    const subject = adminGrant!.subject;
    expect((await dashboard.app.http.post('/role-assignments', { subject, roleId: role.body.id })).status).toBe(201);
    // The application keeps an operator who is Application admin (else 422): another operator of the console is, meanwhile.
    const [consoleApp] = await dashboard.app.gatehouse.services.orm.em.getConnection().execute<{ id: string }[]>('select id from application where console');
    const asOperator = dashboard.app.as({ bearer: await dashboard.app.mintAccessToken({ sub: subject.id, app_id: consoleApp!.id }) });
    const successor = await asOperator.post('/users', { email: 'successor@example.com' });
    expect(successor.status, JSON.stringify(successor.body)).toBe(201);
    expect((await dashboard.app.http.post('/role-assignments', { subject: { type: 'operator', id: successor.body.id }, roleId: adminGrant!.roleId })).status).toBe(201);
    expect((await dashboard.app.http.delete(`/role-assignments/${adminGrant!.id}`)).status).toBe(204);
    const before = await keysOnServer();

    await dashboard.page.getByLabel('Name', { exact: true }).fill('Too strong');
    await dashboard.page.getByRole('checkbox', { name: 'users:write', exact: true }).check();
    await dashboard.page.getByRole('button', { name: 'Create API key' }).click();
    await dashboard.page.getByRole('alert').filter({ hasText: 'The credentials may not grant permissions they do not hold' }).waitFor();
    expect(await keyRow('Too strong').count()).toBe(0);
    expect(await keysOnServer()).toEqual(before);
  });
});
