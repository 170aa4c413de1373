import type { Locator, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { dashboardSuite, offered, OPERATOR, openTab } from '../support/dashboard.ts';
import { signInForManagement } from '../support/oauth.ts';

/**
 * Each list tab reads its list again when the operator comes back to the page (shown again, or its window focused),
 * once for a burst of such events, so rows made elsewhere meanwhile show; so do the lists in panels, paged (a user's
 * roles) or read whole (a user's tenants). An open panel's edits are kept through it: its row changed elsewhere is
 * announced, with the new version on demand. The audit log reads its records again unless it follows live, and follows
 * live again once its stream failed. The choices pickers offer (roles, tenants, an invitation's landing clients, a key's
 * grants, an API resource's permissions) and the tenancy switches are read again too, the edits of the forms on them kept;
 * an invitation's landing client or role chosen and gone since stays chosen, said so, for the server to judge.
 */
let storefrontId: string;
let acmeId: string;
/** A user whose roles panel is opened, and a role given to them elsewhere. */
let veraId: string;
let auditorId: string;
/** OPERATOR's console account, to whom a role is given elsewhere. */
let operatorId: string;

const created = async (answer: Promise<{ status: number; body: unknown }>) => {
  const { status, body } = await answer;
  expect(status, JSON.stringify(body)).toBe(201);
};

const dashboard = dashboardSuite({
  setup: async (app) => {
    const acme = await app.createTenant('Acme');
    veraId = await app.createUser('vera@example.com', acme);
    const auditor = await app.http.post('/roles', { key: 'auditor', name: 'Auditor', permissions: ['users:read'] });
    expect(auditor.status).toBe(201);
    auditorId = auditor.body.id;
    await created(app.http.post('/api-resources', { name: 'Invoices', identifier: 'https://invoices.example.com' }));
    await created(app.http.post('/api-keys', { name: 'Seed key', permissions: ['users:read'], tenantId: acme }));
    await created(app.http.post('/m2m-credentials', { name: 'Seed worker', permissions: ['users:read'] }));
    const storefront = await app.http.post('/oauth-clients', { name: 'Storefront', type: 'web', redirectUris: ['https://shop.example/cb'] });
    expect(storefront.status).toBe(201);
    storefrontId = storefront.body.id;
    await created(app.http.post(`/applications/${app.root.applicationId}/domains`, { hostname: 'login.seed.test' }));
    await created(app.http.post('/invitations', { email: 'ivy@example.com', tenantId: acme }));
    await created(app.http.post('/auth-providers', ssoProvider('Partner SSO')));
    await signInForManagement(app, veraId, acme);
    const [operator] = await app.gatehouse.services.orm.em.getConnection().execute<{ id: string }[]>('select id from app_user where email = ?', [OPERATOR.email]);
    operatorId = operator!.id;
    acmeId = acme;
  },
});

/** An OAuth provider named `name` (a generic one: no upstream is reached). */
function ssoProvider(name: string) {
  const host = `https://${name.toLowerCase().replace(/\W+/g, '-')}.example.com`;
  return {
    type: 'oauth',
    name,
    config: { provider: 'generic', clientId: 'gatehouse', authorizationUrl: `${host}/authorize`, tokenUrl: `${host}/token`, userInfoUrl: `${host}/userinfo` },
    secrets: { clientSecret: 's' },
  };
}

const region = (name: string | RegExp): Locator => dashboard.page.getByRole('region', { name, exact: typeof name === 'string' });
const rowOf = (tab: string, name: string): Locator => region(tab).getByRole('rowheader', { name, exact: true });
/** The row of `tab` with a cell `name` (where the row's header names something else: a provider's type, an operator's e-mail). */
const rowWithCell = (tab: string, name: string): Locator =>
  region(tab).getByRole('row').filter({ has: dashboard.page.getByRole('cell', { name, exact: true }) });
/**
 * Each tab, a row it lists from the start, and a row to make through the API while it is open; `rowIn` finds a row by
 * what it shows (by default, its header).
 */
const TABS: readonly { tab: string; listed: string; row: string; make: (app: TestApp) => Promise<unknown>; rowIn?: (tab: string, name: string) => Locator }[] = [
  { tab: 'Tenants', listed: 'Acme', row: 'Globex', make: (app) => app.createTenant('Globex') },
  { tab: 'Users', listed: 'vera@example.com', row: 'walt@example.com', make: (app) => app.createUser('walt@example.com') },
  { tab: 'Roles', listed: 'Auditor', row: 'Support', make: (app) => created(app.http.post('/roles', { key: 'support', name: 'Support', permissions: ['users:read'] })) },
  {
    tab: 'API resources',
    listed: 'Invoices',
    row: 'Reports',
    make: (app) => created(app.http.post('/api-resources', { name: 'Reports', identifier: 'https://reports.example.com' })),
  },
  {
    tab: 'Domains',
    listed: 'login.seed.test',
    row: 'login.later.test',
    make: (app) => created(app.http.post(`/applications/${app.root.applicationId}/domains`, { hostname: 'login.later.test' })),
  },
  { tab: 'Invitations', listed: 'ivy@example.com', row: 'ida@example.com', make: (app) => created(app.http.post('/invitations', { email: 'ida@example.com', tenantId: acmeId })) },
  { tab: 'M2M credentials', listed: 'Seed worker', row: 'Nightly worker', make: (app) => created(app.http.post('/m2m-credentials', { name: 'Nightly worker', permissions: ['users:read'] })) },
  { tab: 'Sessions', listed: 'vera@example.com', row: 'sam@example.com', make: async (app) => signInForManagement(app, await app.createUser('sam@example.com', acmeId), acmeId) },
  {
    tab: 'Operators',
    listed: 'Application admin',
    row: 'Auditor',
    make: (app) => created(app.http.post('/role-assignments', { subject: { type: 'operator', id: operatorId }, roleId: auditorId })),
    rowIn: rowWithCell,
  },
  { tab: 'Authentication', listed: 'Partner SSO', row: 'Corporate SSO', make: (app) => created(app.http.post('/auth-providers', ssoProvider('Corporate SSO'))), rowIn: rowWithCell },
];

describe('list tabs read their list again when the operator comes back to the page', () => {
  it('shows an API key made elsewhere once the page is shown again, reading the keys once for a burst of returns', async () => {
    await openTab(dashboard.page, 'API keys');
    await rowOf('API keys', 'Seed key').waitFor();
    await created(dashboard.app.http.post('/api-keys', { name: 'Returning key', permissions: ['users:read'] }));
    const reads = dashboard.listReads('ApiKeys');
    await dashboard.comeBack(3);
    await rowOf('API keys', 'Returning key').waitFor();
    expect(reads).toEqual(['ApiKeys']);
  });

  for (const { tab, listed, row, make, rowIn = rowOf } of TABS) {
    it(`shows a row made elsewhere once the page is shown again (${tab})`, async () => {
      await openTab(dashboard.page, tab);
      await rowIn(tab, listed).waitFor();
      await make(dashboard.app);
      await dashboard.comeBack();
      await rowIn(tab, row).waitFor();
    });
  }

  it("shows an OAuth client made elsewhere, and keeps an open panel's edits, announcing its client changed elsewhere", async () => {
    await openTab(dashboard.page, 'OAuth clients');
    await dashboard.page.getByRole('row', { name: /Storefront/ }).getByRole('button', { name: 'Edit' }).click();
    const panel = region(/^Edit Store/);
    const name = panel.getByLabel('Name', { exact: true });
    await name.fill('Store Draft');
    await created(dashboard.app.http.post('/oauth-clients', { name: 'Backoffice', type: 'web', redirectUris: ['https://back.example/cb'] }));
    expect((await dashboard.app.http.patch(`/oauth-clients/${storefrontId}`, { name: 'Store Server' })).status).toBe(200);

    await dashboard.comeBack();
    await rowOf('OAuth clients', 'Backoffice').waitFor();
    const notice = panel.getByRole('status').filter({ hasText: 'This client was changed elsewhere' });
    await notice.waitFor();
    expect(await name.inputValue()).toBe('Store Draft');
    expect(await dashboard.unsaved()).toBe(true);
    await notice.getByRole('button', { name: 'Load the new version' }).click();
    expect(await name.inputValue()).toBe('Store Server');
    expect(await dashboard.unsaved()).toBe(false);
    await panel.getByRole('button', { name: 'Cancel' }).click();
    await panel.waitFor({ state: 'detached' });
  });

  it("shows a role given elsewhere in an open panel's list (a user's roles) once the page is shown again", async () => {
    await openTab(dashboard.page, 'Users');
    await dashboard.page.getByRole('row', { name: /vera@example\.com/ }).getByRole('button', { name: 'Roles of vera@example.com' }).click();
    const panel = region('Roles of vera@example.com');
    await panel.getByText('vera@example.com holds no role.').waitFor();
    await created(dashboard.app.http.post('/role-assignments', { subject: { type: 'user', id: veraId }, roleId: auditorId }));
    await created(dashboard.app.http.post('/roles', { key: 'billing', name: 'Billing', permissions: ['users:read'] }));
    await dashboard.comeBack();
    await panel.getByRole('rowheader', { name: 'Auditor', exact: true }).waitFor();
    await offered(panel.getByLabel('Role', { exact: true }), 'Billing');
    await panel.getByRole('button', { name: 'Close' }).click();
  });

  it("offers a tenant made elsewhere in a user's panel (read whole, not paged), keeping the boxes ticked", async () => {
    await openTab(dashboard.page, 'Users');
    await dashboard.page.getByRole('row', { name: /vera@example\.com/ }).getByRole('button', { name: 'Details of vera@example.com' }).click();
    const tenants = region('Details of vera@example.com').getByRole('group', { name: 'Tenants' });
    const acme = tenants.getByLabel('Acme', { exact: true });
    expect(await acme.isChecked()).toBe(true);
    await acme.uncheck();
    await dashboard.app.createTenant('Soylent');
    await dashboard.comeBack();
    await tenants.getByLabel('Soylent', { exact: true }).waitFor();
    expect(await acme.isChecked()).toBe(false);
    await acme.check();
    await region('Details of vera@example.com').getByRole('button', { name: 'Close' }).click();
  });
});

/** Each tab, a picker (a select) it shows, found by the section that holds it and its label, and a choice to make through the API while it is open. */
const PICKERS: readonly { tab: string; section: string; picker: string; choice: string; make: (app: TestApp) => Promise<unknown> }[] = [
  { tab: 'Operators', section: 'Add an operator', picker: 'Role', choice: 'Reviewer', make: (app) => created(app.http.post('/roles', { key: 'reviewer', name: 'Reviewer', permissions: [] })) },
  { tab: 'Audit log', section: 'Audit log', picker: 'Tenant', choice: 'Wayne', make: (app) => app.createTenant('Wayne') },
  { tab: 'Operators', section: 'Add an operator', picker: 'Tenant', choice: 'Stark', make: (app) => app.createTenant('Stark') },
  // A tenant picker (components/tenant-picker.tsx), read page by page.
  { tab: 'API keys', section: 'API keys', picker: 'Show keys of', choice: 'Cyberdyne', make: (app) => app.createTenant('Cyberdyne') },
  { tab: 'OAuth clients', section: 'Create OAuth client', picker: 'Tenant', choice: 'Tyrell', make: (app) => app.createTenant('Tyrell') },
];

describe('pickers offer the choices made elsewhere once the page is shown again', () => {
  for (const { tab, section, picker, choice, make } of PICKERS) {
    it(`offers ${choice} in the ${tab} tab's ${picker} choice`, async () => {
      await openTab(dashboard.page, tab);
      const select = region(section).getByLabel(picker, { exact: true });
      await select.waitFor();
      await make(dashboard.app);
      await dashboard.comeBack();
      await offered(select, choice);
    });
  }

  it("reads the choices again once a read under way at the return ends (that read's answer may predate the change)", async () => {
    await openTab(dashboard.page, 'Roles');
    // The tenant picker's first read is answered by the server at once, and its answer held until after the return.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let answered!: () => void;
    const readAnswered = new Promise<void>((resolve) => (answered = resolve));
    const held: Promise<void>[] = [];
    let holdingReads = true;
    const holding = (route: Route) => {
      if (!holdingReads || !(route.request().postData() ?? '').includes('query TenantSummaries(')) return route.fallback();
      const fulfilled = (async () => {
        const response = await route.fetch();
        answered();
        await released;
        await route.fulfill({ response });
      })();
      held.push(fulfilled);
      return fulfilled;
    };
    await dashboard.page.route('**/graphql', holding);
    await openTab(dashboard.page, 'API keys');
    await readAnswered;
    holdingReads = false;
    await dashboard.app.createTenant('Oscorp');
    await dashboard.comeBack();
    release();
    await Promise.all(held);
    await dashboard.page.unroute('**/graphql', holding);
    await offered(region('API keys').getByLabel('Show keys of', { exact: true }), 'Oscorp');
  });

  it("offers a tenant's role made elsewhere among the roles an invitation to it may give", async () => {
    await openTab(dashboard.page, 'Invitations');
    const tenant = region('Invite').getByLabel('Tenant', { exact: true });
    await offered(tenant, 'Acme');
    await tenant.selectOption({ label: 'Acme' });
    const roles = region('Invite').getByRole('group', { name: 'Roles (optional)' });
    await roles.getByLabel('Auditor', { exact: true }).waitFor();
    await created(dashboard.app.http.post(`/applications/${dashboard.app.root.applicationId}/tenants/${acmeId}/roles`, { key: 'escalations', name: 'Escalations', permissions: [] }));
    await dashboard.comeBack();
    await roles.getByLabel('Escalations', { exact: true }).waitFor();
    await tenant.selectOption({ label: 'Choose a tenant' });
    expect(await dashboard.unsaved()).toBe(false);
  });
});

/** Tabs whose rows name their tenant, and a row to make through the API in a tenant made meanwhile. */
const TENANT_NAMED: readonly { tab: string; row: string; make: (app: TestApp, tenantId: string) => Promise<unknown> }[] = [
  { tab: 'M2M credentials', row: 'Edge worker', make: (app, tenantId) => created(app.http.post('/m2m-credentials', { name: 'Edge worker', permissions: ['users:read'], tenantId })) },
  {
    tab: 'OAuth clients',
    row: 'Kiosk',
    make: (app, tenantId) => created(app.http.post('/oauth-clients', { name: 'Kiosk', type: 'web', redirectUris: ['https://kiosk.example/cb'], tenantId })),
  },
];

describe("rows name a tenant made elsewhere once the page is shown again (the tenants' names are read again)", () => {
  for (const { tab, row, make } of TENANT_NAMED) {
    it(`names the tenant of a row made elsewhere (${tab})`, async () => {
      await openTab(dashboard.page, tab);
      await region(tab).getByRole('rowheader').first().waitFor();
      const tenant = `${row} tenant`;
      await make(dashboard.app, await dashboard.app.createTenant(tenant));
      await dashboard.comeBack();
      await region(tab).getByRole('row', { name: new RegExp(row) }).getByRole('cell', { name: tenant, exact: true }).waitFor();
    });
  }
});

describe('the audit log on return', () => {
  const auditRow = (pattern: RegExp): Locator => region('Audit log').getByRole('row', { name: pattern });
  const search = async (field: string, value: string) => {
    await dashboard.page.getByLabel(field, { exact: true }).fill(value);
    await dashboard.page.getByRole('button', { name: 'Search' }).click();
  };

  it("does not follow again on return a stream the server completed: a range's end reached", async () => {
    await openTab(dashboard.page, 'Audit log');
    await search('To', '2001-01-01T00:00');
    await dashboard.page.getByLabel('Follow live').check();
    const ended = region('Audit log').getByRole('alert').filter({ hasText: 'The live stream ended.' });
    await ended.waitFor();
    const streams: string[] = [];
    dashboard.page.on('websocket', (socket) => streams.push(socket.url()));
    // The Tenant filter's choices are read on the same return: once read, a restart would have shown.
    const choicesRead = dashboard.page.waitForResponse((response) => (response.request().postData() ?? '').includes('query TenantSummaries('));
    await dashboard.comeBack();
    await choicesRead;
    expect(await ended.count()).toBe(1);
    expect(streams).toEqual([]);
    await dashboard.page.getByLabel('Follow live').uncheck();
    await search('To', '');
  });

  it("shows a record made elsewhere once the page is shown again, while not following live: a search's records as they are now", async () => {
    await openTab(dashboard.page, 'Audit log');
    await region('Audit log').getByRole('rowheader').first().waitFor();
    await dashboard.app.createTenant('Initech');
    await dashboard.comeBack();
    await auditRow(/tenant\.created .*Initech/).waitFor();

    // The search reads its first page as it is submitted: a return reads it again rather than showing that answer.
    await dashboard.page.getByLabel('Action', { exact: true }).fill('tenant.created');
    await dashboard.page.getByRole('button', { name: 'Search' }).click();
    await auditRow(/tenant\.created .*Initech/).waitFor();
    await dashboard.app.createTenant('Umbrella');
    await dashboard.comeBack();
    await auditRow(/tenant\.created .*Umbrella/).waitFor();
    await dashboard.page.getByLabel('Action', { exact: true }).fill('');
    await dashboard.page.getByRole('button', { name: 'Search' }).click();
  });

  it('reads nothing again on return while following live: the stream already brings the new records', async () => {
    await openTab(dashboard.page, 'Audit log');
    await region('Audit log').getByRole('rowheader').first().waitFor();
    await dashboard.page.getByLabel('Follow live').check();
    await dashboard.page.getByRole('status').filter({ hasText: 'Following live' }).waitFor();
    const reads = dashboard.listReads('AuditLogs');
    await dashboard.comeBack();
    await dashboard.app.createTenant('Hooli');
    await auditRow(/tenant\.created .*Hooli/).waitFor();
    expect(reads).toEqual([]);
    await dashboard.page.getByLabel('Follow live').uncheck();
  });

  it('follows live again on return once the stream failed, from the newest record shown; not while it is healthy', async () => {
    await openTab(dashboard.page, 'Audit log');
    await region('Audit log').getByRole('rowheader').first().waitFor();
    // The status shows before the stream's socket opens: the streams counted are those opened after it.
    const firstStream = dashboard.page.waitForEvent('websocket');
    await dashboard.page.getByLabel('Follow live').check();
    const following = region('Audit log').getByRole('status').filter({ hasText: 'Following live' });
    await following.waitFor();
    await firstStream;
    const streams: string[] = [];
    dashboard.page.on('websocket', (socket) => streams.push(socket.url()));
    await dashboard.comeBack();

    // The stream's reads of the log fail while its table is away.
    const sql = dashboard.app.gatehouse.services.orm.em.getConnection();
    await sql.execute('alter table audit_log rename to audit_log_away');
    try {
      await region('Audit log').getByRole('alert').waitFor();
    } finally {
      await sql.execute('alter table audit_log_away rename to audit_log');
    }
    await dashboard.app.createTenant('Vandelay');
    await dashboard.comeBack();
    await following.waitFor();
    await auditRow(/tenant\.created .*Vandelay/).waitFor();
    await dashboard.app.createTenant('Kramerica');
    await auditRow(/tenant\.created .*Kramerica/).waitFor();
    expect(await auditRow(/tenant\.created .*Vandelay/).count()).toBe(1);
    expect(streams).toHaveLength(1);
    await dashboard.page.getByLabel('Follow live').uncheck();
  });
});

describe('settings and choices read again on return, the edits in their forms kept', () => {
  const patchTenancy = (tenancyConfig: Record<string, string>) => dashboard.app.http.patch(`/applications/${dashboard.app.root.applicationId}`, { tenancyConfig });
  const switchGroup = (label: string): Locator => region('Tenancy').getByRole('group', { name: label });

  it("shows a tenancy switch changed elsewhere on the Tenants tab, keeping another switch's choice not saved yet", async () => {
    await openTab(dashboard.page, 'Tenants');
    const templates = switchGroup('E-mail templates');
    await templates.getByRole('radio', { name: 'Per tenant' }).check();
    expect((await patchTenancy({ brandingScope: 'tenant' })).status).toBe(200);
    await dashboard.comeBack();
    await region('Tenants').getByRole('columnheader', { name: 'Branding' }).waitFor();
    expect(await switchGroup('Branding').getByRole('radio', { name: 'Per tenant' }).isChecked()).toBe(true);
    expect(await templates.getByRole('radio', { name: 'Per tenant' }).isChecked()).toBe(true);
    expect(await dashboard.unsaved()).toBe(true);
    await templates.getByRole('radio', { name: 'Application' }).check();
    expect(await dashboard.unsaved()).toBe(false);
  });

  it('offers the tenant picker once the switches leave branding to tenants', async () => {
    expect((await patchTenancy({ brandingScope: 'application' })).status).toBe(200);
    await openTab(dashboard.page, 'Branding');
    const section = region('Branding');
    await section.getByLabel('Logo URL', { exact: true }).waitFor();
    expect(await section.getByLabel('Tenant', { exact: true }).count()).toBe(0);
    expect((await patchTenancy({ brandingScope: 'tenant' })).status).toBe(200);
    await dashboard.comeBack();
    await offered(section.getByLabel('Tenant', { exact: true }), 'Acme');
  });

  /** Acme's branding edited in a Branding tab opened anew (its first return not within 5 s of the last), then branding made the application's elsewhere. */
  async function acmeBrandingEditedAsSwitchesChange() {
    await openTab(dashboard.page, 'Tenants');
    await openTab(dashboard.page, 'Branding');
    const section = region('Branding');
    await offered(section.getByLabel('Tenant', { exact: true }), 'Acme');
    await section.getByLabel('Tenant', { exact: true }).selectOption({ label: 'Acme' });
    await section.getByRole('heading', { name: "Change Acme's branding" }).waitFor();
    const logo = section.getByLabel('Logo URL', { exact: true });
    await logo.fill('https://acme.example/logo.png');
    expect((await patchTenancy({ brandingScope: 'application' })).status).toBe(200);
    await dashboard.comeBack();
    const notice = section.getByRole('status').filter({ hasText: 'The tenancy switches were changed elsewhere' });
    await notice.waitFor();
    return { section, logo, notice };
  }

  it("keeps a tenant's branding edits once the switches no longer leave branding to tenants, until the operator loads them", async () => {
    const { section, logo, notice } = await acmeBrandingEditedAsSwitchesChange();
    expect(await logo.inputValue()).toBe('https://acme.example/logo.png');
    expect(await dashboard.unsaved()).toBe(true);
    const asked = dashboard.answerNextDialog();
    await notice.getByRole('button', { name: 'Load the new switches' }).click();
    expect(await asked).toBe('Discard the changes you have not saved?');
    await section.getByLabel('Tenant', { exact: true }).waitFor({ state: 'detached' });
    await section.getByRole('heading', { name: 'Change the branding' }).waitFor();
    expect(await dashboard.unsaved()).toBe(false);
  });

  it("loads the switches held for a tenant's edits without asking once the edits are dropped", async () => {
    expect((await patchTenancy({ brandingScope: 'tenant' })).status).toBe(200);
    const { section, logo, notice } = await acmeBrandingEditedAsSwitchesChange();
    await logo.fill('');
    expect(await dashboard.unsaved()).toBe(false);
    // A question would be dismissed, leaving the tenant's view.
    await notice.getByRole('button', { name: 'Load the new switches' }).click();
    await section.getByLabel('Tenant', { exact: true }).waitFor({ state: 'detached' });
    await section.getByRole('heading', { name: 'Change the branding' }).waitFor();
  });

  it('reads the grant choices of a new API key again (the built-in permissions: no API call changes them, a new version may)', async () => {
    await openTab(dashboard.page, 'API keys');
    const grants = region('Create API key').getByRole('group', { name: 'Permissions' });
    await grants.getByLabel('users:read', { exact: true }).check();
    const reads = dashboard.listReads('GrantChoices');
    const read = dashboard.page.waitForResponse((response) => (response.request().postData() ?? '').includes('query GrantChoices('));
    await dashboard.comeBack();
    await read;
    expect(reads).toEqual(['GrantChoices']);
    expect(await grants.getByLabel('users:read', { exact: true }).isChecked()).toBe(true);
    await grants.getByLabel('users:read', { exact: true }).uncheck();
    expect(await dashboard.unsaved()).toBe(false);
  });

  it("shows an application's permission defined elsewhere in an API resource's form (its description, read-only), keeping the rows typed", async () => {
    await openTab(dashboard.page, 'API resources');
    const form = region('Create API resource');
    await form.getByLabel('Name', { exact: true }).fill('Exports');
    await form.getByLabel('Permission 1', { exact: true }).fill('exports:run');
    const description = form.getByLabel('Description 1', { exact: true });
    await description.fill('Typed here');
    await created(dashboard.app.http.post('/permissions', { key: 'exports:run', description: 'Run the exports' }));
    await dashboard.comeBack();
    await dashboard.page.waitForFunction(
      (field) => field instanceof HTMLInputElement && field.value === 'Run the exports' && field.readOnly,
      await description.elementHandle(),
    );
    expect(await form.getByLabel('Name', { exact: true }).inputValue()).toBe('Exports');
    expect(await form.getByLabel('Permission 1', { exact: true }).inputValue()).toBe('exports:run');
    await form.getByLabel('Name', { exact: true }).fill('');
    await form.getByRole('button', { name: 'Remove permission 1' }).click();
    await form.getByRole('button', { name: 'Add permission' }).click();
    expect(await dashboard.unsaved()).toBe(false);
  });

  it("offers an OAuth client made elsewhere as an invitation's landing, keeping one chosen that is gone since", async () => {
    const frontDesk = await dashboard.app.http.post('/oauth-clients', { name: 'Front desk', type: 'web', redirectUris: ['https://desk.example/cb'] });
    expect(frontDesk.status).toBe(201);
    await openTab(dashboard.page, 'Invitations');
    const invite = region('Invite');
    await invite.getByLabel('E-mail', { exact: true }).fill('jo@example.com');
    const tenant = invite.getByLabel('Tenant', { exact: true });
    await offered(tenant, 'Acme');
    await tenant.selectOption({ label: 'Acme' });
    const landing = invite.getByLabel('Once accepted, continue to (optional)', { exact: true });
    await offered(landing, 'Front desk');
    await landing.selectOption({ label: 'Front desk' });

    await created(dashboard.app.http.post('/oauth-clients', { name: 'Help centre', type: 'web', redirectUris: ['https://help.example/cb'], tenantId: acmeId }));
    expect((await dashboard.app.http.delete(`/oauth-clients/${frontDesk.body.id}`)).status).toBe(204);
    await dashboard.comeBack();
    await offered(landing, 'Help centre');
    await offered(landing, 'Front desk (no longer offered)');
    expect(await landing.inputValue()).toBe(frontDesk.body.clientId);
    expect(await invite.getByLabel('E-mail', { exact: true }).inputValue()).toBe('jo@example.com');
    await landing.selectOption({ label: 'Help centre' });
    expect(await landing.getByRole('option', { name: 'Front desk (no longer offered)' }).count()).toBe(0);
    await invite.getByLabel('E-mail', { exact: true }).fill('');
    await tenant.selectOption({ label: 'Choose a tenant' });
    expect(await dashboard.unsaved()).toBe(false);
  });

  it('keeps a role ticked for an invitation and deleted since ticked, said so, and sends it for the server to judge', async () => {
    const courier = await dashboard.app.http.post('/roles', { key: 'courier', name: 'Courier', permissions: [] });
    expect(courier.status).toBe(201);
    await openTab(dashboard.page, 'Invitations');
    const invite = region('Invite');
    await invite.getByLabel('E-mail', { exact: true }).fill('kim@example.com');
    const tenant = invite.getByLabel('Tenant', { exact: true });
    await offered(tenant, 'Acme');
    await tenant.selectOption({ label: 'Acme' });
    const roles = invite.getByRole('group', { name: 'Roles (optional)' });
    await roles.getByLabel('Courier', { exact: true }).check();

    expect((await dashboard.app.http.delete(`/roles/${courier.body.id}`)).status).toBe(204);
    await dashboard.comeBack();
    const gone = roles.getByLabel('Courier (no longer offered)', { exact: true });
    await gone.waitFor();
    expect(await gone.isChecked()).toBe(true);
    expect(await invite.getByLabel('E-mail', { exact: true }).inputValue()).toBe('kim@example.com');
    await invite.getByRole('button', { name: 'Invite' }).click();
    await invite.getByRole('alert').waitFor();
    expect(await roles.getAttribute('aria-invalid')).toBe('true');
    expect((await dashboard.app.http.get('/invitations?pageSize=100')).body.data).not.toContainEqual(expect.objectContaining({ email: 'kim@example.com' }));

    // Unticked, it is no longer chosen, and no longer shown.
    await gone.click();
    expect(await roles.getByLabel('Courier (no longer offered)', { exact: true }).count()).toBe(0);
    await invite.getByLabel('E-mail', { exact: true }).fill('');
    await tenant.selectOption({ label: 'Choose a tenant' });
    expect(await dashboard.unsaved()).toBe(false);
  });
});

describe('with authentication isolated, on return', () => {
  it("names the tenant of a user made elsewhere in a tenant made meanwhile (the Users tab's tenants are read again)", async () => {
    const { app } = dashboard;
    expect((await app.http.patch(`/applications/${app.root.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    await openTab(dashboard.page, 'Users');
    await rowOf('Users', 'vera@example.com').waitFor();
    await app.createUser('nina@example.com', await app.createTenant('Nakatomi'));
    await dashboard.comeBack();
    await region('Users').getByRole('row', { name: /nina@example\.com/ }).getByRole('cell', { name: 'Nakatomi', exact: true }).waitFor();
  });
});
