import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dashboardSuite } from '../support/dashboard.ts';
import { basicAuth, createTestClient, postForm, type TestClient } from '../support/oauth.ts';

/**
 * The dashboard's API resources tab in Chromium: the operator registers the Invoices API with a permission it defines,
 * an M2M credential whose role holds that permission then gets a JWT for it (`aud` = its identifier), the edit's new
 * name and permissions reach the next token, a malformed or taken identifier is refused with the server's message and
 * stores nothing, and once deleted a grant naming it is `invalid_target`. An identifier another application registered
 * first (before identifiers were unique) is said so in the row and the form; a rename keeps it held, and typing it
 * again claims it, refused while held.
 * Screenshot: test-results/dashboard-api-resources.png.
 */
const IDENTIFIER = 'https://invoices.example.com/v1';
let issuer: string;
let credential: TestClient;
let roleId: string;
let resourceId: string;

interface StoredResource {
  id: string;
  identifier: string;
  identifierHeldElsewhere: boolean;
  name: string;
  permissions: string[];
}

const resources = async () => (await dashboard.app.http.get('/api-resources?pageSize=100')).body.data as StoredResource[];
/** The application's own permissions, key → description. */
const definedPermissions = async () =>
  new Map(((await dashboard.app.http.get('/permissions?pageSize=100')).body.data as { key: string; description: string; builtIn: boolean }[])
    .filter((permission) => !permission.builtIn)
    .map((permission) => [permission.key, permission.description]));
const region = (name: string): Locator => dashboard.page.getByRole('region', { name });
const resourceRow = (name: string) => region('API resources').getByRole('row', { name: new RegExp(name) });

/** The M2M credential's client-credentials grant naming `resource`, at the token endpoint. */
const grant = (resource: string) =>
  postForm(`${issuer}/oauth2/token`, { grant_type: 'client_credentials', resource }, { authorization: basicAuth(credential.clientId, credential.clientSecret!) });

/** The access token of a granted request, verified as the customer's API would: the issuer's keys, issuer and audience. */
async function verifiedToken(resource: string) {
  const answer = await grant(resource);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const { payload, protectedHeader } = await jwtVerify(answer.body.access_token, createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`)), {
    issuer,
    audience: resource,
  });
  return { payload, protectedHeader };
}

const dashboard = dashboardSuite({
  tab: 'API resources',
  setup: async (app) => {
    issuer = app.gatehouse.services.config.publicUrl;
    credential = await createTestClient(app);
  },
});

describe('the API resources tab of the dashboard in Chromium', () => {
  it('registers an API resource with a permission it defines', async () => {
    await dashboard.page.getByText('This application has no API resources yet').waitFor();
    const form = region('Create API resource');
    await form.getByLabel('Name', { exact: true }).fill('Invoices API');
    await form.getByLabel('Identifier', { exact: true }).fill(IDENTIFIER);
    await form.getByLabel('Permission 1').fill('invoices:approve');
    await form.getByLabel('Description 1').fill('Approve invoices');
    await form.getByRole('button', { name: 'Create API resource' }).click();
    await form.getByRole('status').filter({ hasText: `Invoices API created: grants naming ${IDENTIFIER}` }).waitFor();

    await resourceRow('Invoices API').waitFor();
    expect(await resourceRow('Invoices API').getByRole('textbox', { name: 'Identifier of Invoices API' }).inputValue()).toBe(IDENTIFIER);
    expect(await resourceRow('Invoices API').getByRole('cell').nth(1).textContent()).toBe('invoices:approve');
    expect(await form.getByLabel('Name', { exact: true }).inputValue()).toBe('');
    await dashboard.page.screenshot({ path: 'test-results/dashboard-api-resources.png', fullPage: true });

    const stored = await resources();
    expect(stored).toMatchObject([{ identifier: IDENTIFIER, name: 'Invoices API', permissions: ['invoices:approve'] }]);
    resourceId = stored[0]!.id;
    expect((await definedPermissions()).get('invoices:approve')).toBe('Approve invoices');
  });

  it('an M2M credential whose role holds the permission gets a JWT for the identifier carrying it', async () => {
    const role = await dashboard.app.http.post('/roles', { key: 'approver', name: 'Approver', permissions: ['invoices:approve'] });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    roleId = role.body.id;
    const assigned = await dashboard.app.http.post('/role-assignments', { subject: { type: 'm2m_credential', id: credential.clientId }, roleId, tenantId: null });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);

    const { payload, protectedHeader } = await verifiedToken(IDENTIFIER);
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    expect(payload).toMatchObject({ aud: IDENTIFIER, sub: credential.clientId, roles: ['approver'], permissions: ['invoices:approve'] });
  });

  it('edits the name and permissions; the next token follows, the removed permission staying the application’s', async () => {
    await resourceRow('Invoices API').getByRole('button', { name: 'Edit Invoices API' }).click();
    const form = region('Edit Invoices API');
    // A permission the application defines shows its own description, which the resource does not change.
    expect(await form.getByLabel('Description 1').inputValue()).toBe('Approve invoices');
    expect(await form.getByLabel('Description 1').isEditable()).toBe(false);
    await form.getByLabel('Name', { exact: true }).fill('Billing API');
    await form.getByRole('button', { name: 'Remove permission 1' }).click();
    await form.getByRole('button', { name: 'Add permission' }).click();
    await form.getByLabel('Permission 1').fill('invoices:read');
    await form.getByLabel('Description 1').fill('Read invoices');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.waitFor({ state: 'detached' });
    await resourceRow('Billing API').waitFor();
    expect(await resourceRow('Billing API').getByRole('cell').nth(1).textContent()).toBe('invoices:read');

    expect(await resources()).toMatchObject([{ id: resourceId, identifier: IDENTIFIER, name: 'Billing API', permissions: ['invoices:read'] }]);
    const defined = await definedPermissions();
    expect(defined.get('invoices:read')).toBe('Read invoices');
    expect(defined.get('invoices:approve')).toBe('Approve invoices');

    // The role holds both; the token carries only what the resource now defines.
    expect((await dashboard.app.http.patch(`/roles/${roleId}`, { permissions: ['invoices:approve', 'invoices:read'] })).status).toBe(200);
    expect((await verifiedToken(IDENTIFIER)).payload).toMatchObject({ aud: IDENTIFIER, permissions: ['invoices:read'] });
  });

  it('shows the refusal of a malformed identifier, then of a taken one, and stores nothing, not even the new permission', async () => {
    const form = region('Create API resource');
    await form.getByLabel('Name', { exact: true }).fill('Reports API');
    await form.getByLabel('Identifier', { exact: true }).fill('http://reports.example.com');
    await form.getByLabel('Permission 1').fill('reports:read');
    await form.getByLabel('Description 1').fill('Read reports');
    await form.getByRole('button', { name: 'Create API resource' }).click();
    await form.getByRole('alert').filter({ hasText: 'identifier must be an https URI (e.g. https://api.example.com)' }).waitFor();
    expect(await resources()).toHaveLength(1);
    expect((await definedPermissions()).has('reports:read')).toBe(false);

    await form.getByLabel('Identifier', { exact: true }).fill(IDENTIFIER);
    await form.getByRole('button', { name: 'Create API resource' }).click();
    await form.getByRole('alert').filter({ hasText: 'An API resource with this identifier already exists' }).waitFor();
    expect(await resources()).toMatchObject([{ id: resourceId, name: 'Billing API' }]);
    expect((await definedPermissions()).has('reports:read')).toBe(false);
    expect(await region('API resources').getByRole('row').count()).toBe(2);
  });

  it('deletes the resource once confirmed: a grant naming it is then invalid_target', async () => {
    const question = dashboard.answerNextDialog();
    await resourceRow('Billing API').getByRole('button', { name: 'Delete Billing API' }).click();
    await dashboard.page.getByText('This application has no API resources yet').waitFor();
    expect(await question).toContain(`A grant naming ${IDENTIFIER} as its resource is refused from now on (invalid_target)`);

    expect((await dashboard.app.http.get(`/api-resources/${resourceId}`)).status).toBe(404);
    const refused = await grant(IDENTIFIER);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_target');
    expect((await definedPermissions()).has('invoices:read')).toBe(true);
  });

  it('says so of an identifier another application registered first, whose grants are refused, renames it held, and claims it typed again once free', async () => {
    const SHARED_API = 'https://shared.example.com/api';
    const NOTICE = 'Another application registered this identifier first: tokens for it are refused (invalid_target). Type the identifier again and save once it is free, or choose another.';
    const theirs = dashboard.app.as({ apiKey: (await dashboard.app.bootstrapAnother()).apiKey });
    const original = await theirs.post('/api-resources', { identifier: SHARED_API, name: 'Theirs' });
    expect(original.status, JSON.stringify(original.body)).toBe(201);
    // As a deployment from before the rule left it (migration 0060): the same identifier registered later here, held elsewhere.
    const late = await dashboard.app.http.post('/api-resources', { identifier: 'https://placeholder.example.com', name: 'Shared API' });
    expect(late.status, JSON.stringify(late.body)).toBe(201);
    await dashboard.app.gatehouse.services.orm.em.getConnection().execute(
      'update api_resource set identifier = ?, identifier_held_elsewhere = true where application_id = ? and id = ?',
      [SHARED_API, dashboard.app.root.applicationId, late.body.id],
    );
    expect((await grant(SHARED_API)).body.error).toBe('invalid_target');

    await dashboard.page.reload();
    await resourceRow('Shared API').getByText(NOTICE).waitFor();
    await resourceRow('Shared API').getByRole('button', { name: 'Edit Shared API' }).click();
    const renaming = region('Edit Shared API');
    await renaming.getByText(NOTICE).waitFor();
    await renaming.getByLabel('Name', { exact: true }).fill('Shared Reports API');
    await renaming.getByRole('button', { name: 'Save changes' }).click();
    await renaming.waitFor({ state: 'detached' });
    await resourceRow('Shared Reports API').getByText(NOTICE).waitFor();
    expect(await resources()).toMatchObject([{ identifier: SHARED_API, identifierHeldElsewhere: true, name: 'Shared Reports API' }]);
    expect((await grant(SHARED_API)).body.error).toBe('invalid_target');

    await resourceRow('Shared Reports API').getByRole('button', { name: 'Edit Shared Reports API' }).click();
    const form = region('Edit Shared Reports API');
    await form.getByLabel('Identifier', { exact: true }).fill('');
    await form.getByLabel('Identifier', { exact: true }).fill(SHARED_API);
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByRole('alert').filter({ hasText: 'Another application has an API resource with this identifier' }).waitFor();
    expect(await resources()).toMatchObject([{ identifier: SHARED_API, identifierHeldElsewhere: true }]);

    expect((await theirs.delete(`/api-resources/${original.body.id}`)).status).toBe(204);
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.waitFor({ state: 'detached' });
    await resourceRow('Shared Reports API').waitFor();
    expect(await resourceRow('Shared Reports API').getByText(NOTICE).count()).toBe(0);
    expect(await resources()).toMatchObject([{ identifier: SHARED_API, identifierHeldElsewhere: false }]);
    expect((await grant(SHARED_API)).status).toBe(200);
  });
});
