import { describe, expect, it } from 'vitest';
import { dashboardSuite, openTab } from '../support/dashboard.ts';
import { hostedPagesOf, type HostedTestApp } from '../support/hosted-app.ts';

/**
 * The dashboard's Branding tab in Chromium: the operator changes the application's primary colour and sign-in title,
 * in every language and in German (the hosted sign-in page shows them), sees refused values' messages with nothing
 * saved, then, with branding per tenant, gives Acme a title of its own while Globex keeps the application's, and
 * removes it again; an unsaved edit is kept unless the operator agrees to lose it.
 * Screenshot: test-results/dashboard-branding.png.
 */
const PRIMARY = '#0f766e';
const TITLE = 'Welcome to Gatehouse';
const GERMAN_TITLE = 'Willkommen bei Gatehouse';
let appId: string;
let acme: string;
let globex: string;
let hosted: HostedTestApp;

const applicationBranding = async () => (await dashboard.app.http.get('/branding')).body;
const tenantBranding = async (tenantId: string) => (await dashboard.app.http.get(`/applications/${appId}/tenants/${tenantId}/branding`)).body;
/** The hosted sign-in page of a new authorization request (`tenant`, `ui_locales` and the like when given). */
const signInPage = async (parameters: Record<string, string> = {}) => (await hosted.signInPage(parameters)).page.body;
const field = (label: string) => dashboard.page.getByLabel(label, { exact: true });
const save = async () => {
  await dashboard.page.getByRole('button', { name: 'Save', exact: true }).click();
};
const saved = () => dashboard.page.getByRole('status').filter({ hasText: 'Branding saved.' }).waitFor();
const refusal = (message: string) => dashboard.page.getByRole('alert').filter({ hasText: message }).waitFor();
const badge = (text: 'Inherited' | 'Customized') => dashboard.page.locator('.source').getByText(text, { exact: true }).waitFor();

const dashboard = dashboardSuite({
  tab: 'Branding',
  setup: async (app) => {
    appId = app.root.applicationId;
    acme = await app.createTenant('Acme');
    globex = await app.createTenant('Globex');
    hosted = await hostedPagesOf(app);
  },
});

describe('the Branding tab of the dashboard in Chromium', () => {
  it("changes the application's primary colour and sign-in title, which the hosted sign-in page shows", async () => {
    expect(await field('Primary colour').inputValue()).toBe('#4f46e5');
    // Branding is application-wide: no tenant picker, though the application has tenants (spec, tenancy rule 8).
    expect(await dashboard.page.getByLabel('Tenant', { exact: true }).count()).toBe(0);
    await field('Pick the primary colour').fill(PRIMARY);
    expect(await field('Primary colour').inputValue()).toBe(PRIMARY);
    await dashboard.page.getByText('The hosted pages show their built-in wording.').waitFor();
    await dashboard.page.getByRole('button', { name: 'Add a text' }).click();
    await field('Key 1').selectOption('login.title');
    expect(await field('Text of key 1').getAttribute('placeholder')).toBe('Sign in');
    await field('Text of key 1').fill(TITLE);
    await dashboard.page.getByRole('button', { name: 'Add a text' }).click();
    await field('Key 2').selectOption('login.title');
    await field('Language of key 2').selectOption({ label: 'German' });
    await field('Text of key 2').fill(GERMAN_TITLE);
    await save();
    await saved();
    // The details above the form show the server's answer.
    await dashboard.page.locator('.details').getByText(PRIMARY).waitFor();
    await dashboard.page.locator('.details').getByText(TITLE).waitFor();
    await dashboard.page.screenshot({ path: 'test-results/dashboard-branding.png', fullPage: true });

    expect(await applicationBranding()).toMatchObject({
      logoUrl: null,
      faviconUrl: null,
      colors: { primary: PRIMARY, background: '#ffffff', text: '#111827' },
      copy: { 'login.title': TITLE, 'de:login.title': GERMAN_TITLE },
    });
    const body = await signInPage();
    expect(body).toContain(`--gh-primary:${PRIMARY};`);
    expect(body).toContain(`<h1>${TITLE}</h1>`);
    expect(await signInPage({ ui_locales: 'de' })).toContain(`<h1>${GERMAN_TITLE}</h1>`);
  });

  it("shows the server's refusal of a bad colour or a plain-http logo, and saves nothing", async () => {
    const before = await applicationBranding();
    await field('Primary colour').fill('#12345');
    await save();
    await refusal('Primary colour must be a #rrggbb hex color');

    await field('Primary colour').fill(PRIMARY);
    await field('Logo URL').fill('http://cdn.example.com/logo.png');
    await save();
    await refusal('Logo URL must be an https URL');
    expect(await applicationBranding()).toEqual(before);
    expect(await dashboard.page.locator('.details').getByText('None').count()).toBe(2);

    // Two texts for one key are refused before anything is sent.
    await dashboard.page.getByRole('button', { name: 'Add a text' }).click();
    await field('Key 3').selectOption('login.title');
    await field('Text of key 3').fill('Hello');
    await save();
    await refusal('Two texts are set for login.title: keep one.');
    expect(await applicationBranding()).toEqual(before);
    await dashboard.page.getByRole('button', { name: 'Remove key 3' }).click();
    expect(await field('Key 3').count()).toBe(0);
    await field('Logo URL').fill('');

    // A placeholder its key does not fill in would show as typed: the server refuses it, on that text's field.
    await dashboard.page.getByRole('button', { name: 'Add a text' }).click();
    await field('Key 3').selectOption('login.subtitle');
    await field('Text of key 3').fill('Hello {user}');
    await save();
    await refusal('copy.login.subtitle may hold the placeholders {name} only: {user} would show as typed');
    expect(await field('Text of key 3').getAttribute('aria-invalid')).toBe('true');
    expect(await applicationBranding()).toEqual(before);
    await dashboard.page.getByRole('button', { name: 'Remove key 3' }).click();
  });

  it("with branding per tenant, saves Acme's own title while Globex keeps the application's", async () => {
    await openTab(dashboard.page, 'Tenants');
    await dashboard.page.getByRole('group', { name: 'Branding' }).getByRole('radio', { name: 'Per tenant' }).click();
    await dashboard.page.getByRole('button', { name: 'Save Branding' }).click();
    await dashboard.page.getByRole('columnheader', { name: 'Branding' }).waitFor();
    await openTab(dashboard.page, 'Branding');

    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Acme' });
    await badge('Inherited');
    // The form starts from the application's branding, which Acme has while it has none of its own.
    expect(await field('Primary colour').inputValue()).toBe(PRIMARY);
    expect(await field('Text of key 1').inputValue()).toBe(TITLE);
    expect(await field('Language of key 2').inputValue()).toBe('de');
    await field('Text of key 1').fill('Welcome to Acme');
    await save();
    await saved();
    await badge('Customized');
    await dashboard.page.getByRole('button', { name: 'Remove tenant override' }).waitFor();

    // The override holds every value of the form: the application's colour too.
    expect(await tenantBranding(acme)).toMatchObject({
      source: 'customized',
      colors: { primary: PRIMARY },
      copy: { 'login.title': 'Welcome to Acme', 'de:login.title': GERMAN_TITLE },
    });
    expect((await tenantBranding(globex)).source).toBe('inherited');
    expect(await signInPage({ tenant: acme })).toContain('<h1>Welcome to Acme</h1>');
    expect(await signInPage({ tenant: globex })).toContain(`<h1>${TITLE}</h1>`);
    expect((await applicationBranding()).copy).toEqual({ 'login.title': TITLE, 'de:login.title': GERMAN_TITLE });

    await openTab(dashboard.page, 'Tenants');
    await dashboard.page.getByRole('row', { name: /Acme/ }).getByText('Customized').waitFor();
    expect(await dashboard.page.getByRole('row', { name: /Globex/ }).getByText('Inherited').count()).toBe(1);
  });

  it("shows the refusal of a tenant's bad logo and gives the tenant no override", async () => {
    await openTab(dashboard.page, 'Branding');
    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Globex' });
    await badge('Inherited');
    await field('Logo URL').fill('http://cdn.globex.example/logo.png');
    await save();
    await refusal('Logo URL must be an https URL');
    expect((await tenantBranding(globex)).source).toBe('inherited');
    expect(await dashboard.page.locator('.source').getByText('Customized').count()).toBe(0);
    await field('Logo URL').fill('');
  });

  it("removes Acme's override: the form shows the application's values again", async () => {
    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Acme' });
    await badge('Customized');
    expect(await field('Text of key 1').inputValue()).toBe('Welcome to Acme');
    void dashboard.answerNextDialog();
    await dashboard.page.getByRole('button', { name: 'Remove tenant override' }).click();
    await badge('Inherited');
    expect(await field('Text of key 1').inputValue()).toBe(TITLE);
    expect((await tenantBranding(acme)).source).toBe('inherited');
    expect(await signInPage({ tenant: acme })).toContain(`<h1>${TITLE}</h1>`);
  });

  it('asks before an unsaved edit is lost to another tab, Back, the tenant picker or closing the page, and keeps it when declined', async () => {
    const heading = dashboard.page.getByRole('heading', { level: 2, name: 'Branding' });
    const users = dashboard.page.getByRole('navigation', { name: 'Application sections' }).getByRole('link', { name: 'Users', exact: true });
    expect(await dashboard.unsaved()).toBe(false);
    await field('Primary colour').fill('#123456');
    expect(await dashboard.unsaved()).toBe(true);
    const brandingHash = await dashboard.page.evaluate(() => location.hash);

    let asked = dashboard.answerNextDialog('dismiss');
    await users.click();
    expect(await asked).toBe('Discard the changes you have not saved?');
    asked = dashboard.answerNextDialog('dismiss');
    await dashboard.page.goBack();
    await asked;
    asked = dashboard.answerNextDialog('dismiss');
    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Globex' });
    await asked;
    expect(await dashboard.page.evaluate(() => location.hash)).toBe(brandingHash);
    expect(await heading.isVisible()).toBe(true);
    expect(await dashboard.page.getByLabel('Tenant').locator('option:checked').textContent()).toBe('Acme');
    expect(await field('Primary colour').inputValue()).toBe('#123456');

    void dashboard.answerNextDialog();
    await users.click();
    await dashboard.page.getByRole('heading', { level: 2, name: 'Users' }).waitFor();
    expect(await dashboard.unsaved()).toBe(false);
    await openTab(dashboard.page, 'Branding');
    expect(await field('Primary colour').inputValue()).toBe(PRIMARY);
    expect((await applicationBranding()).colors.primary).toBe(PRIMARY);
  });

  it("a tenant's form leaves out the tenant picker's texts, which stay the application's: its override saves without them", async () => {
    const application = await applicationBranding();
    const copy = { ...application.copy, 'tenant.title': 'Pick your team' };
    expect((await dashboard.app.http.put('/branding', { colors: application.colors, copy })).status).toBe(200);
    await dashboard.page.reload();
    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Globex' });
    await badge('Inherited');
    // The application's two titles, not its picker's text; the keys offered leave the picker's out.
    expect(await field('Text of key 2').inputValue()).toBe(GERMAN_TITLE);
    expect(await field('Key 3').count()).toBe(0);
    expect(await field('Key 1').locator('option', { hasText: /^tenant\./ }).count()).toBe(0);
    await field('Text of key 1').fill('Welcome to Globex');
    await save();
    await saved();
    await badge('Customized');
    expect((await tenantBranding(globex)).copy).toEqual({ 'login.title': 'Welcome to Globex', 'de:login.title': GERMAN_TITLE });
    expect((await applicationBranding()).copy).toEqual(copy);
  });
});
