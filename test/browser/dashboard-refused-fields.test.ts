import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/chromium.ts';
import { dashboardSuite, openTab } from '../support/dashboard.ts';

/**
 * WCAG 3.3.1 on the dashboard's forms in Chromium: the input a refusal names (GraphQL `extensions.field`) is marked
 * invalid, described by the server's message (its hint kept) and focused, as Chromium's accessibility tree shows it;
 * editing it, or submitting again, takes the mark away. A refusal naming no input shows its message alone.
 */
const EXISTING = 'taken@example.com';
const SLUG_HINT = 'Lower-case letters, digits and hyphens';

const dashboard = dashboardSuite({
  tab: 'Tenants',
  setup: async (app) => {
    await app.createTenant('Acme');
    await app.createUser(EXISTING);
    expect((await app.http.post('/permissions', { key: 'reports:read', description: 'Read the reports' })).status).toBe(201);
  },
});

const region = (name: string): Locator => dashboard.page.getByRole('region', { name, exact: true });

interface AccessibleNode {
  readonly name: string;
  readonly description: string;
  readonly invalid: boolean;
}

/** The focused element as Chromium's accessibility tree presents it to assistive technology. */
async function focusedNode(): Promise<AccessibleNode> {
  const { page } = dashboard;
  const cdp = await page.context().newCDPSession(page);
  try {
    const { result } = await cdp.send('Runtime.evaluate', { expression: 'document.activeElement' });
    const { node: focused } = await cdp.send('DOM.describeNode', { objectId: result.objectId! });
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const node = nodes.find((each) => each.backendDOMNodeId === focused.backendNodeId);
    const invalid = node?.properties?.find((property) => property.name === 'invalid')?.value.value as string | undefined;
    return { name: String(node?.name?.value ?? ''), description: String(node?.description?.value ?? ''), invalid: invalid !== undefined && invalid !== 'false' };
  } finally {
    await cdp.detach();
  }
}

/** The refusal `message` is shown, and `input` (labelled `label`) is the one marked, described by it and focused. */
async function expectMarked(form: Locator, input: Locator, label: string, message: string): Promise<void> {
  await form.getByRole('alert').filter({ hasText: message }).waitFor();
  await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
  expect(await form.locator('[aria-invalid="true"]').count()).toBe(1);
  const node = await focusedNode();
  expect(node).toMatchObject({ name: label, invalid: true });
  expect(node.description).toContain(message);
}

/** `input` is no longer marked: not invalid, and the message no longer describes it. */
async function expectUnmarked(input: Locator, message: string): Promise<void> {
  await expect.poll(() => input.getAttribute('aria-invalid')).toBeNull();
  await input.focus();
  const node = await focusedNode();
  expect(node.invalid).toBe(false);
  expect(node.description).not.toContain(message);
}

describe('a refused field is identified on the dashboard in Chromium', () => {
  it('a taken slug marks the Slug field, its hint kept, until it is edited; a new submission starts unmarked', async () => {
    const form = region('Create tenant');
    const slug = form.getByLabel('Slug (optional)');
    await form.getByLabel('Name').fill('Acme again');
    await slug.fill('acme');
    await form.getByRole('button', { name: 'Create tenant' }).click();
    const message = 'A tenant with this slug already exists';
    await expectMarked(form, slug, 'Slug (optional)', message);
    expect((await focusedNode()).description).toContain(SLUG_HINT);
    expect(await form.getByLabel('Name').getAttribute('aria-invalid')).toBeNull();

    await expectAccessible(dashboard.page, 'a refused slug');

    await slug.fill('acme-');
    await expectUnmarked(slug, message);
    expect((await focusedNode()).description).toContain(SLUG_HINT);
    // The message stays until the next submission: only the mark goes.
    await form.getByRole('alert').filter({ hasText: message }).waitFor();

    await slug.fill('acme');
    await form.getByLabel('Name').focus();
    await form.getByRole('button', { name: 'Create tenant' }).click();
    await expectMarked(form, slug, 'Slug (optional)', message);

    await slug.fill('acme-again');
    await form.getByRole('button', { name: 'Create tenant' }).click();
    await form.getByRole('status').filter({ hasText: 'Tenant Acme again created, with the slug acme-again.' }).waitFor();
    expect(await form.locator('[aria-invalid]').count()).toBe(0);
    expect(await form.getByRole('alert').count()).toBe(0);
  });

  it("an identifier that is not https marks the Identifier field; a refused new permission marks its own row's input", async () => {
    await openTab(dashboard.page, 'API resources');
    const form = region('Create API resource');
    const identifier = form.getByLabel('Identifier', { exact: true });
    await form.getByLabel('Name', { exact: true }).fill('Reports API');
    await identifier.fill('http://reports.example.com');
    await form.getByRole('button', { name: 'Create API resource' }).click();
    const message = 'Identifier must be an https URI';
    await expectMarked(form, identifier, 'Identifier', message);
    expect((await focusedNode()).description).toContain('The audience of the API’s tokens');

    await identifier.fill('https://reports.example.com');
    await expectUnmarked(identifier, message);

    // The API counts only the keys the application does not define yet: row 4 is `newPermissions[1]`, row 3 `[0]`.
    for (let rows = 1; rows < 4; rows += 1) await form.getByRole('button', { name: 'Add permission' }).click();
    await form.getByLabel('Permission 1', { exact: true }).fill('reports:read');
    await form.getByLabel('Permission 3', { exact: true }).fill('reports:write');
    const fourth = form.getByLabel('Permission 4', { exact: true });
    await fourth.fill('Not a key');
    await form.getByRole('button', { name: 'Create API resource' }).click();
    // The API names the row's key (`newPermissions[1].key`): the message names the row's input as the form does.
    const malformed = 'Permission 4 must be resource:action';
    await expectMarked(form, fourth, 'Permission 4', malformed);
    expect((await focusedNode()).description).toContain('Keys as resource:action');
    await fourth.fill('reports:export');
    await expectUnmarked(fourth, malformed);

    const third = form.getByLabel('Description 3', { exact: true });
    await third.fill('x'.repeat(501));
    await form.getByRole('button', { name: 'Create API resource' }).click();
    await expectMarked(form, third, 'Description 3', 'Description 3 must be at most 500 characters');
  });

  it('an address already registered marks the E-mail field of "Create user", a short password its Password field', async () => {
    // The refused API resource above is unsaved: another tab drops it once the operator agrees.
    void dashboard.answerNextDialog();
    await openTab(dashboard.page, 'Users');
    const form = region('Create user');
    const email = form.getByLabel('E-mail');
    await email.fill(EXISTING);
    await form.getByRole('button', { name: 'Create user' }).click();
    const message = 'A user with this e-mail already exists';
    await expectMarked(form, email, 'E-mail', message);

    await email.pressSequentially('x');
    await expectUnmarked(email, message);

    // An optional input's label names it without its "(optional)".
    const password = form.getByLabel('Password (optional)');
    await password.fill('short');
    await form.getByRole('button', { name: 'Create user' }).click();
    await expectMarked(form, password, 'Password (optional)', 'Password must be at least 8 characters long');
    expect(await form.getByRole('alert').textContent()).toBe('Password must be at least 8 characters long');
  });

  it('a refused second redirect URI (redirectUris[1]) marks the Redirect URIs field, its hint kept', async () => {
    // The refused user above is unsaved: another tab drops it once the operator agrees.
    void dashboard.answerNextDialog();
    await openTab(dashboard.page, 'OAuth clients');
    const form = region('Create OAuth client');
    const redirects = form.getByLabel('Redirect URIs', { exact: true });
    await form.getByLabel('Name').fill('Broken');
    await redirects.fill('https://ok.example/cb\nhttps://broken.example/cb#done');
    await form.getByRole('button', { name: 'Create OAuth client' }).click();
    const message = '"https://broken.example/cb#done" must not contain a fragment';
    await expectMarked(form, redirects, 'Redirect URIs', message);
    expect((await focusedNode()).description).toContain('One URI per line');
    expect(await form.getByLabel('Post-logout redirect URIs').getAttribute('aria-invalid')).toBeNull();

    await redirects.fill('https://ok.example/cb');
    await expectUnmarked(redirects, message);
  });
});
