import type { Request } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { AUDIT_ACTIONS } from '../../src/domain/audit/actions.ts';
import { asOperator, dashboardSuite, makeOperator, OPERATOR, openTab } from '../support/dashboard.ts';

/**
 * The dashboard's Audit log tab in Chromium: the records of changes made through the API, newest first and page by
 * page, searched by action (offered by name and family), a user or an operator found by address, tenant and a time
 * range given in the browser's time zone, a record's after-state and ids, the server's refusal of a bad filter marked at
 * its input (and no records shown for a refused search), and records arriving live while the operator follows.
 * Screenshot: test-results/dashboard-audit.png.
 */
interface AuditRecord {
  readonly id: string;
  readonly time: string;
  readonly action: string;
  readonly tenantId: string | null;
  readonly actor: { readonly type: string; readonly id: string };
  readonly target: { readonly type: string; readonly id: string | null };
  readonly changes: { readonly before: unknown; readonly after: unknown } | null;
}

/** More users than the API's largest page (100): the newest is past the first page of users, as its e-mail shows. */
const USER_COUNT = 101;
const emailOf = (index: number) => `member${index}@example.com`;
/** Each member's e-mail by their id. */
const emails = new Map<string, string>();
let acme: string;

/** The records the REST API finds for `query`, all pages. */
async function records(query: string): Promise<AuditRecord[]> {
  const found: AuditRecord[] = [];
  let cursor: string | null = null;
  do {
    const response = await dashboard.app.http.get(`/audit-logs?pageSize=100&${query}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    found.push(...(response.body.data as AuditRecord[]));
    cursor = response.body.next as string | null;
  } while (cursor !== null);
  return found;
}

const detailsButtons = () => dashboard.page.getByRole('button', { name: 'Details' });
/** The action and target of each row shown, top to bottom. */
const shownRows = async () =>
  dashboard.page.locator('tbody tr:not([hidden])').evaluateAll((rows) => rows.map((row) => [row.children[1]?.textContent, row.children[3]?.textContent]));

async function search(filters: { action?: string; target?: string; tenant?: string; from?: string; to?: string }): Promise<void> {
  await dashboard.page.getByLabel('Action', { exact: true }).fill(filters.action ?? '');
  await dashboard.page.getByLabel('Target kind', { exact: true }).selectOption({ label: 'Any, by ID' });
  await dashboard.page.getByLabel('Target ID', { exact: true }).fill(filters.target ?? '');
  await dashboard.page.getByLabel('Tenant', { exact: true }).selectOption({ label: filters.tenant ?? 'All tenants' });
  await dashboard.page.getByLabel('From', { exact: true }).fill(filters.from ?? '');
  await dashboard.page.getByLabel('To', { exact: true }).fill(filters.to ?? '');
  await dashboard.page.getByRole('button', { name: 'Search' }).click();
}

/** The input the last refusal names: invalid, described by the refusal, focused; and no "Try again" in a table. */
async function expectMarked(label: string): Promise<void> {
  const input = dashboard.page.getByLabel(label, { exact: true });
  await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
  const describedBy = (await input.getAttribute('aria-describedby'))!;
  expect(await dashboard.page.locator(`[id="${describedBy}"]`).getAttribute('role')).toBe('alert');
  expect(await input.evaluate((element) => element === document.activeElement)).toBe(true);
  expect(await dashboard.page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
}

/** Waits until the table shows `count` records and no page is loading. */
async function waitForRows(count: number): Promise<void> {
  await expect.poll(() => detailsButtons().count(), { timeout: 20_000, interval: 100 }).toBe(count);
  await dashboard.page.getByRole('status').filter({ hasText: 'Loading audit records…' }).waitFor({ state: 'detached' });
}

// The CSP check after each step covers the live stream's WebSocket too.
const dashboard = dashboardSuite({
  tab: 'Audit log',
  setup: async (app) => {
    acme = await app.createTenant('Acme');
    await app.createTenant('Globex');
    const createMember = async (index: number) => emails.set(await app.createUser(emailOf(index), acme), emailOf(index));
    // All but the last at once, which is quick; the last after them, so that it is the newest.
    await Promise.all(Array.from({ length: USER_COUNT - 1 }, (_, index) => createMember(index)));
    await createMember(USER_COUNT - 1);
  },
});

describe('the Audit log tab of the dashboard in Chromium', () => {
  it("shows the API's records newest first, with the actor's kind, the target's name (past the first 100 users) and the tenant's", async () => {
    const newest = (await records('')).slice(0, 25);
    await waitForRows(25);
    expect(await shownRows()).toEqual(newest.map((record) => [record.action, expect.stringContaining(record.target.type)]));
    const key = await dashboard.app.http.get(`/api-keys/${newest[0]!.actor.id}`);
    expect(key.status).toBe(200);
    const latest = dashboard.page.getByRole('row').nth(1);
    expect(await latest.getByRole('cell').allTextContents()).toEqual([
      'user.created',
      `api_key ${key.body.name as string}`,
      `user ${emailOf(USER_COUNT - 1)}`,
      'Acme',
      'Details',
    ]);
  });

  it('searches by action, page by page, and by tenant', async () => {
    const creations = await records('action=user.created');
    expect(creations).toHaveLength(USER_COUNT);
    await search({ action: 'user.created' });
    for (let shown = 25; shown < USER_COUNT; shown += 25) {
      await waitForRows(shown);
      await dashboard.page.getByRole('button', { name: 'More' }).click();
    }
    await waitForRows(USER_COUNT);
    expect(await dashboard.page.getByRole('button', { name: 'More' }).count()).toBe(0);
    expect(await shownRows()).toEqual(creations.map((record) => ['user.created', `user ${emails.get(record.target.id!)}`]));

    await search({ action: 'tenant.*' });
    await waitForRows(2);
    expect(await shownRows()).toEqual([
      ['tenant.created', 'tenant Globex'],
      ['tenant.created', 'tenant Acme'],
    ]);
    await search({ action: 'tenant.*', tenant: 'Acme' });
    await waitForRows(1);
    expect(await shownRows()).toEqual([['tenant.created', 'tenant Acme']]);
  });

  it('offers the actions the service writes and their families, and finds a user by address: only that user’s records of the family show', async () => {
    const offered = await dashboard.page.locator('datalist option').evaluateAll((options) =>
      options.map((option) => [(option as HTMLOptionElement).value, (option as HTMLOptionElement).label]),
    );
    const actions = Object.keys(AUDIT_ACTIONS);
    // Grouped by resource, each after its family.
    expect(offered.filter(([value]) => !value!.endsWith('.*')).map(([value]) => value).sort()).toEqual([...actions].sort());
    expect(offered.slice(0, 2)).toEqual([['organization.*', 'Every organization action'], ['organization.created', AUDIT_ACTIONS['organization.created'].meaning]]);
    expect(offered).toContainEqual(['user.*', 'Every user action']);
    expect(offered).toContainEqual(['user.created', AUDIT_ACTIONS['user.created'].meaning]);
    expect(offered.filter(([value]) => value!.endsWith('.*'))).toHaveLength(new Set(actions.map((action) => action.split('.')[0])).size);

    const member = emailOf(7);
    const memberId = [...emails].find(([, email]) => email === member)![0];
    expect((await dashboard.app.http.patch(`/users/${memberId}`, { name: 'Seven' })).status).toBe(200);
    await dashboard.page.getByLabel('Target kind', { exact: true }).selectOption({ label: 'User or operator, by e-mail' });
    // The addresses starting with what is typed are suggested, as the users list finds them.
    await dashboard.page.getByLabel('Target e-mail', { exact: true }).fill('member10');
    const suggested = dashboard.page.locator('fieldset datalist option');
    await expect.poll(() => suggested.evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value)), { timeout: 20_000, interval: 100 }).toEqual([emailOf(10), emailOf(100)]);

    await dashboard.page.getByLabel('Target e-mail', { exact: true }).fill(member);
    await dashboard.page.getByLabel('Action', { exact: true }).fill('user.*');
    // The update went through the application's path: a record of no tenant, which a search in Acme leaves out.
    await dashboard.page.getByLabel('Tenant', { exact: true }).selectOption({ label: 'All tenants' });
    await dashboard.page.getByRole('button', { name: 'Search' }).click();
    await waitForRows(2);
    await dashboard.page.getByRole('status').filter({ hasText: `Target: the user ${member}.` }).waitFor();
    expect(await shownRows()).toEqual([
      ['user.updated', `user ${member}`],
      ['user.created', `user ${member}`],
    ]);
    expect(await records(`action=user.*&target=${memberId}`)).toHaveLength(2);

    await dashboard.page.getByLabel('Action', { exact: true }).fill('tenant.*');
    await dashboard.page.getByRole('button', { name: 'Search' }).click();
    await dashboard.page.getByText('No audit record matches.').waitFor();

    // An address nobody has is said at its input, and searches nothing: the earlier search's table goes.
    await dashboard.page.getByLabel('Target e-mail', { exact: true }).fill('nobody@example.com');
    await dashboard.page.getByRole('button', { name: 'Search' }).click();
    await dashboard.page.getByRole('alert').filter({ hasText: 'No user and no operator has the address nobody@example.com.' }).waitFor();
    await expectMarked('Target e-mail');
    expect(await dashboard.page.getByText('No audit record matches.').count()).toBe(0);
    await dashboard.page.getByLabel('Action', { exact: true }).fill('');
  });

  it('names a role, an API resource, a permission (by its key), an auth provider and a domain the records target', async () => {
    const created = await dashboard.app.http.post('/roles', { key: 'auditor', name: 'Auditor', permissions: [] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await search({ action: 'role.created' });
    await waitForRows(1);
    expect(await shownRows()).toEqual([['role.created', 'role Auditor']]);

    const resource = await dashboard.app.http.post('/api-resources', { identifier: 'https://reports.example.com', name: 'Reports API', newPermissions: [{ key: 'reports:read' }] });
    expect(resource.status, JSON.stringify(resource.body)).toBe(201);
    await search({ action: 'api_resource.created' });
    await waitForRows(1);
    expect(await shownRows()).toEqual([['api_resource.created', 'api_resource Reports API']]);
    await search({ action: 'permission.created' });
    await waitForRows(1);
    expect(await shownRows()).toEqual([['permission.created', 'permission reports:read']]);

    // No list is read for these: their records' snapshots name them.
    const provider = await dashboard.app.http.post('/auth-providers', { type: 'magic_link', name: 'Mail link' });
    expect(provider.status, JSON.stringify(provider.body)).toBe(201);
    const domain = await dashboard.app.http.post(`/applications/${dashboard.app.root.applicationId}/domains`, { hostname: 'login.audit.example.com' });
    expect(domain.status, JSON.stringify(domain.body)).toBe(201);
    expect((await dashboard.app.http.delete(`/applications/${dashboard.app.root.applicationId}/domains/${domain.body.id}`)).status).toBe(204);
    await search({ target: provider.body.id });
    await waitForRows(1);
    expect(await shownRows()).toEqual([['auth_provider.created', 'auth_provider Mail link']]);
    await search({ target: domain.body.id });
    await waitForRows(2);
    expect(await shownRows()).toEqual([
      ['domain.deleted', 'domain login.audit.example.com'],
      ['domain.created', 'domain login.audit.example.com'],
    ]);
  });

  it('names the application and the organization as the page does, and a role assignment by its role and subject, after and before', async () => {
    const { applicationId, organizationId } = dashboard.app.root;
    const organization = await dashboard.app.http.get(`/organizations/${organizationId}`);
    expect(organization.status).toBe(200);
    await search({ action: 'organization.created' });
    await waitForRows(1);
    expect(await shownRows()).toEqual([['organization.created', `organization ${organization.body.name as string}`]]);

    const switched = await dashboard.app.http.patch(`/applications/${applicationId}`, { tenancyConfig: { brandingScope: 'tenant' } });
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    await search({ action: 'tenancy_config.updated' });
    await waitForRows(1);
    expect(await shownRows()).toEqual([['tenancy_config.updated', 'application My application']]);

    const role = await dashboard.app.http.post('/roles', { key: 'reviewer', name: 'Reviewer', permissions: [] });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const member = [...emails].find(([, email]) => email === emailOf(3))![0];
    const assigned = await dashboard.app.http.post('/role-assignments', { subject: { type: 'user', id: member }, roleId: role.body.id });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
    expect((await dashboard.app.http.delete(`/role-assignments/${assigned.body.id as string}`)).status).toBe(204);
    await search({ action: 'role_assignment.*' });
    await waitForRows(3);
    expect(await shownRows()).toEqual([
      ['role_assignment.deleted', `role_assignment role Reviewer → user ${emailOf(3)}`],
      ['role_assignment.created', `role_assignment role Reviewer → user ${emailOf(3)}`],
      // The console made the operator the application's administrator.
      ['role_assignment.created', `role_assignment role Application admin → operator ${OPERATOR.email}`],
    ]);
  });

  it('expands a record to its after-state as JSON', async () => {
    const [created] = await records(`action=tenant.created&target=${acme}`);
    await search({ target: acme });
    await waitForRows(1);
    const button = detailsButtons();
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    const after = dashboard.page.getByRole('figure', { name: 'After' });
    expect(JSON.parse(await after.locator('pre').textContent() ?? '')).toEqual(created!.changes!.after);
    expect(created!.changes!.after).toEqual({ name: 'Acme', slug: 'acme' });
    // A creation has no before-state.
    expect(await dashboard.page.getByRole('figure', { name: 'Before' }).count()).toBe(0);
    await dashboard.page.screenshot({ path: 'test-results/dashboard-audit.png', fullPage: true });
    await button.click();
    await after.waitFor({ state: 'detached' });
  });

  it("reads a time range in the browser's time zone (Tokyo, UTC+9)", async () => {
    const cdp = await dashboard.page.context().newCDPSession(dashboard.page);
    await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'Asia/Tokyo' });
    try {
      const initech = await dashboard.app.createTenant('Initech');
      const [created] = await records(`action=tenant.created&target=${initech}`);
      // The record's second, as a Tokyo clock shows it: `datetime-local` holds no offset.
      const second = Math.floor(Date.parse(created!.time) / 1000) * 1000;
      const tokyo = (ms: number) => new Date(ms + 9 * 3_600_000).toISOString().slice(0, 19);
      await search({ action: 'tenant.created', from: tokyo(second), to: tokyo(second + 1000) });
      await waitForRows(1);
      // Made after the tab opened: its name is read with the row.
      expect(await shownRows()).toEqual([['tenant.created', 'tenant Initech']]);

      // The same clock time read as UTC is nine hours later: nothing then.
      const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19);
      await search({ action: 'tenant.created', from: utc(second), to: utc(second + 1000) });
      await dashboard.page.getByText('No audit record matches.').waitFor();
      expect(await detailsButtons().count()).toBe(0);
    } finally {
      await cdp.send('Emulation.setTimezoneOverride', { timezoneId: '' });
      await cdp.detach();
    }
  });

  it("shows the server's refusal of a malformed action and of a range that ends before it starts", async () => {
    const refusal = await dashboard.app.http.get('/audit-logs?action=User%20Create');
    expect(refusal.status).toBe(422);
    await search({ action: 'User Create' });
    await dashboard.page.getByRole('alert').filter({ hasText: refusal.body.message as string }).waitFor();
    expect(refusal.body.message).toContain('action must be an action');
    await expectMarked('Action');
    expect(await detailsButtons().count()).toBe(0);

    await search({ from: '2026-01-02T00:00', to: '2026-01-01T00:00' });
    await dashboard.page.getByRole('alert').filter({ hasText: 'to must be later than from' }).waitFor();
    await expectMarked('To');
    expect(await detailsButtons().count()).toBe(0);
  });

  it('follows live: a user created through the API appears on top without a reload, a tenant outside the search does not', async () => {
    await search({ action: 'user.*' });
    await waitForRows(25);
    await dashboard.page.getByLabel('Follow live').check();
    await dashboard.page.getByRole('status').filter({ hasText: 'Following live' }).waitFor();

    await dashboard.app.createTenant('Hooli');
    const userId = await dashboard.app.createUser('live@example.com', acme);
    // Made after the search: its e-mail is read as its record arrives.
    await dashboard.page.getByRole('row', { name: /user\.created .*live@example\.com/ }).waitFor();
    expect(await shownRows().then((rows) => rows[0])).toEqual(['user.created', 'user live@example.com']);
    expect(await detailsButtons().count()).toBe(26);
    const [created] = await records(`action=user.created&target=${userId}`);
    expect(await dashboard.page.locator('tbody time').first().getAttribute('datetime')).toBe(created!.time);

    // Following again resumes after the newest record shown: one made meanwhile is not lost.
    await dashboard.page.getByLabel('Follow live').uncheck();
    await dashboard.page.getByRole('status').filter({ hasText: 'Following live' }).waitFor({ state: 'detached' });
    await dashboard.app.createUser('meanwhile@example.com', acme);
    await dashboard.page.getByLabel('Follow live').check();
    await dashboard.page.getByRole('row', { name: /user\.created .*meanwhile@example\.com/ }).waitFor();
    expect((await shownRows()).slice(0, 2)).toEqual([
      ['user.created', 'user meanwhile@example.com'],
      ['user.created', 'user live@example.com'],
    ]);
    await dashboard.page.getByLabel('Follow live').uncheck();
  });

  it("reads a page's names in one request; deleted users among them are named as their records name them", async () => {
    const onFirstPage = (await records('action=user.created')).slice(0, 25).map((record) => record.target.id!);
    const gone = onFirstPage.filter((id) => emails.has(id) && emails.get(id) !== emailOf(USER_COUNT - 1)).slice(0, 3);
    expect(gone).toHaveLength(3);
    for (const id of gone) expect((await dashboard.app.http.delete(`/users/${id}`)).status).toBe(204);
    const requests: string[] = [];
    const count = (request: Request) => void (request.method() === 'POST' && new URL(request.url()).pathname === '/graphql' && requests.push(request.url()));
    dashboard.page.on('request', count);
    try {
      await search({ action: 'user.created' });
      await waitForRows(25);
    } finally {
      dashboard.page.off('request', count);
    }
    // The page, then its names (25 users, the key, the tenant: the application's scope alone) in one request.
    expect(requests).toHaveLength(2);
    const rows = await shownRows();
    for (const id of gone) expect(rows).toContainEqual(['user.created', `user ${emails.get(id)}`]);
    expect(rows).toContainEqual(['user.created', 'user live@example.com']);
    expect(rows).toContainEqual(['user.created', `user ${emailOf(USER_COUNT - 1)}`]);
  });

  it("finds an operator by the address its rows show, shows the actor's and target's ids, and asks which one an address means when a user has it too", async () => {
    // The operator acts through the dashboard: its record's actor is the operator, named by address.
    await openTab(dashboard.page, 'Tenants');
    const form = dashboard.page.getByRole('region', { name: 'Create tenant', exact: true });
    await form.getByLabel('Name').fill('Operated');
    await form.getByRole('button', { name: 'Create tenant' }).click();
    await form.getByRole('status').filter({ hasText: 'Tenant Operated created' }).waitFor();
    const [created] = await records('action=tenant.created');
    expect(created!.actor.type).toBe('operator');

    await openTab(dashboard.page, 'Audit log');
    await search({});
    await waitForRows(25);
    await dashboard.page.getByLabel('Actor kind', { exact: true }).selectOption({ label: 'User or operator, by e-mail' });
    // Operators' addresses are suggested with the users'.
    await dashboard.page.getByLabel('Actor e-mail', { exact: true }).fill('ops@');
    const suggested = dashboard.page.locator('fieldset datalist option');
    await expect.poll(() => suggested.evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value)), { timeout: 20_000, interval: 100 }).toEqual([OPERATOR.email]);
    await dashboard.page.getByLabel('Actor e-mail', { exact: true }).fill(OPERATOR.email);
    await dashboard.page.getByRole('button', { name: 'Search' }).click();
    await dashboard.page.getByRole('status').filter({ hasText: `Actor: the operator ${OPERATOR.email}.` }).waitFor();
    await waitForRows(Math.min(25, (await records(`actor=${created!.actor.id}`)).length));
    expect((await shownRows())[0]).toEqual(['tenant.created', 'tenant Operated']);
    expect(await dashboard.page.getByRole('row').nth(1).getByRole('cell').nth(1).textContent()).toBe(`operator ${OPERATOR.email}`);

    await detailsButtons().first().click();
    expect(await dashboard.page.getByRole('textbox', { name: "Actor's ID" }).inputValue()).toBe(created!.actor.id);
    expect(await dashboard.page.getByRole('textbox', { name: "Target's ID" }).inputValue()).toBe(created!.target.id);

    // A user of the application with the operator's address: the search names both and searches nothing.
    const userId = await dashboard.app.createUser(OPERATOR.email);
    await dashboard.page.getByRole('button', { name: 'Search' }).click();
    await dashboard.page
      .getByRole('alert')
      .filter({ hasText: `${OPERATOR.email} is both a user of the application (ID ${userId}) and an operator (ID ${created!.actor.id})` })
      .waitFor();
    await expectMarked('Actor e-mail');
    expect(await detailsButtons().count()).toBe(0);
  });

  // Last: the server's clock stays an hour ahead of the browser's once it has run.
  it("goes on following past the operator's access token's end: renewed, the stream resumes after the last record, none lost or shown twice", async () => {
    await dashboard.page.getByLabel('Actor kind', { exact: true }).selectOption({ label: 'Any, by ID' });
    await dashboard.page.getByLabel('Actor ID', { exact: true }).fill('');
    await search({ action: 'user.*' });
    await waitForRows(25);
    await dashboard.page.getByLabel('Follow live').check();
    await dashboard.page.getByRole('status').filter({ hasText: 'Following live' }).waitFor();
    // A record brought live: the stream is open (and resumes after this one).
    await dashboard.app.createUser('before@example.com', acme);
    await dashboard.page.getByRole('row', { name: /user\.created .*before@example\.com/ }).waitFor();
    // Past the access token's hour on the server's clock: the stream's next read with records refuses it.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      vi.setSystemTime(Date.now() + 3_700_000);
      await dashboard.app.createUser('expired@example.com', acme);
      await dashboard.page.getByRole('row', { name: /user\.created .*expired@example\.com/ }).waitFor();
      // A record after it shows the stream still follows, and that the first was not sent again meanwhile.
      await dashboard.app.createUser('renewed@example.com', acme);
      await dashboard.page.getByRole('row', { name: /user\.created .*renewed@example\.com/ }).waitFor();

      // A token the browser still gives time but the server's clock ended is refused at connection: renewed the same way.
      await dashboard.page.getByLabel('Follow live').uncheck();
      vi.setSystemTime(Date.now() + 3_700_000);
      await dashboard.page.getByLabel('Follow live').check();
      await dashboard.app.createUser('reconnected@example.com', acme);
      await dashboard.page.getByRole('row', { name: /user\.created .*reconnected@example\.com/ }).waitFor();
    } finally {
      vi.useRealTimers();
    }
    expect((await shownRows()).slice(0, 4)).toEqual([
      ['user.created', 'user reconnected@example.com'],
      ['user.created', 'user renewed@example.com'],
      ['user.created', 'user expired@example.com'],
      ['user.created', 'user before@example.com'],
    ]);
    for (const email of ['expired', 'renewed', 'reconnected']) expect(await dashboard.page.getByRole('row', { name: new RegExp(`${email}@example\\.com`) }).count()).toBe(1);
    expect(await dashboard.page.getByRole('alert').count()).toBe(0);
    expect(await dashboard.page.getByRole('status').filter({ hasText: 'Following live' }).count()).toBe(1);
    await dashboard.page.getByLabel('Follow live').uncheck();
  });

  it('names the users and tenants of the records to an auditor who may read those but not the API keys acting in them', async () => {
    const auditor = { email: 'auditor@ops.example', password: 'Operator-Heron-42' };
    const permissions = ['audit_logs:read', 'applications:read', 'tenants:read', 'users:read'];
    expect((await dashboard.app.http.post('/roles', { key: 'log_reader', name: 'Log reader', permissions })).status).toBe(201);
    await makeOperator(dashboard.app, auditor, 'log_reader');
    const [latest] = await records(`action=user.created&target=${[...emails].find(([, email]) => email === emailOf(USER_COUNT - 1))![0]}`);
    await asOperator(dashboard.page, dashboard.app.gatehouse.services.config.publicUrl, auditor, async (page) => {
      await openTab(page, 'Audit log');
      await page.getByLabel('Action', { exact: true }).fill('user.created');
      await page.getByRole('button', { name: 'Search' }).click();
      const row = page.getByRole('row', { name: new RegExp(`user\\.created .*${emailOf(USER_COUNT - 1)}`) });
      await row.waitFor();
      // The key is named by its id: the auditor may not read keys, which takes none of the other names with it.
      expect(await row.getByRole('cell').allTextContents()).toEqual(['user.created', `api_key ${latest!.actor.id}`, `user ${emailOf(USER_COUNT - 1)}`, 'Acme', 'Details']);
      expect(await page.getByRole('alert').count()).toBe(0);
    });
  });
});
