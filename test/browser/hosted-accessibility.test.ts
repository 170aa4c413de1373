import { mkdirSync } from 'node:fs';
import * as oidc from 'openid-client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { CATALOGS, type CopyKey } from '../../src/domain/branding/copy/index.ts';
import { contrastRatio } from '../../src/domain/branding/readable-colors.ts';
import {
  deviceCodePage,
  deviceConfirmPage,
  donePage,
  emailFormPage,
  linkConfirmPage,
  loginPage,
  newPasswordPage,
  PLAIN_LOOK,
  signupPage,
  type PageLook,
  type RenderedPage,
} from '../../src/pages/pages.ts';
import { POLICY_DEFAULTS } from '../../src/domain/policies/definitions.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { axeViolations, printed } from '../support/axe.ts';
import { launchChromium, LOGO_HOST, openBrandedPage, startClientCallback, withBrandedPage, type ClientCallback } from '../support/chromium.ts';
import { HttpClient } from '../support/http.ts';
import { authorizationRequest, createTestClient, discover } from '../support/oauth.ts';

/**
 * Every state the hosted surface can show, in Chromium, in the default look and in a tenant's own colours and logo:
 * axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules, and by hand what axe does not judge: each field labelled with the
 * right autocomplete, an error announced (role="alert") and tied to its fields (aria-invalid, aria-describedby) with
 * the focus on the first of them, a title naming the page, `<html lang>`, the whole flow done with the keyboard alone
 * (Tab reaches the submit, Enter submits), and no horizontal scrolling at 320 CSS px. Screenshots at 320 px:
 * test-results/a11y-*.png.
 */
const PASSWORD = 'Correct-Horse-9';
const WRONG = 'Wrong-Horse-9';

/** The brand colours a designer might pick without checking them: light buttons, pale or dark pages, faint text. */
const APPLICATION_COLORS = { primary: '#facc15', background: '#fefce8', text: '#ca8a04' };
const TENANT_COLORS = { primary: '#38bdf8', background: '#0f172a', text: '#475569' };

let callback: ClientCallback;
let REDIRECT_URI: string;
let app: TestApp;
let issuer: string;
let browser: Browser;
/** The branded look's application (another bootstrapped one). */
let branded: BootstrapResult;

/** One of the two looks every state is checked in. */
interface Look {
  readonly label: 'default' | 'branded';
  readonly web: oidc.Configuration;
  readonly device: oidc.Configuration;
  /** The `tenant` parameter of sign-ins, device authorizations and surfaces in this look (none: the application's). */
  readonly tenant: Record<string, string>;
  /** The name the pages show: the tenant's when one is named, else the application's. */
  readonly name: string;
  /** The application's name (pages that name no tenant: sign-up, the tenant chooser). */
  readonly applicationName: string;
}

const looks: Look[] = [];

async function lookOf(label: Look['label'], application: BootstrapResult, tenantRef: string | undefined): Promise<Look> {
  const web = await createTestClient(app, { type: 'web', applicationId: application.applicationId, redirectUris: [REDIRECT_URI] });
  const device = await createTestClient(app, { type: 'device', authMethod: 'none', applicationId: application.applicationId });
  const admin = new HttpClient(app.baseUrl, { apiKey: application.apiKey });
  const applicationName = (await admin.get(`/applications/${application.applicationId}`)).body.name as string;
  return {
    label,
    web: await discover(app, web.clientId, oidc.ClientSecretBasic(web.clientSecret ?? '')),
    device: await discover(app, device.clientId, oidc.None()),
    tenant: tenantRef === undefined ? {} : { tenant: tenantRef },
    name: tenantRef === undefined ? applicationName : 'Acme',
    applicationName,
  };
}

/**
 * An application's people: `lee` (whom the lockout test locks this browser's address out of), `multi` (member of two
 * tenants: the chooser), `ola` (the device and logout flows), all of `tenantId` when given.
 */
async function seedUsers(application: BootstrapResult, tenants: readonly string[], tenantId: string | undefined) {
  const admin = new HttpClient(app.baseUrl, { apiKey: application.apiKey });
  for (const email of ['lee@example.com', 'ola@example.com', 'multi@example.com']) {
    const created = await admin.post('/users', { email, password: PASSWORD, ...(tenantId === undefined ? {} : { tenantId }) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    if (email.startsWith('multi')) expect((await admin.patch(`/users/${created.body.id}`, { tenantIds: tenants })).status).toBe(200);
  }
  const lockout = await admin.put('/policies/lockout', { enabled: true, maxAttempts: 3, lockoutMinutes: 5, resetAfterMinutes: 15 });
  expect(lockout.status, JSON.stringify(lockout.body)).toBe(200);
}

beforeAll(async () => {
  callback = await startClientCallback();
  REDIRECT_URI = callback.redirectUri;
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;

  // The default look: the root application, built-in branding, tenants in the shared pool.
  const plainTenants = [await app.createTenant('Initech'), await app.createTenant('Umbrella')];
  await seedUsers(app.root, plainTenants, undefined);
  looks.push(await lookOf('default', app.root, undefined));

  // The branded look: another application with colours and a logo of its own, and a tenant with others again.
  branded = await app.bootstrapAnother();
  const admin = new HttpClient(app.baseUrl, { apiKey: branded.apiKey });
  const appPath = `/applications/${branded.applicationId}`;
  expect((await admin.patch(appPath, { tenancyConfig: { brandingScope: 'tenant' } })).status).toBe(200);
  expect((await admin.put('/branding', { logoUrl: `${LOGO_HOST}/app.png`, colors: APPLICATION_COLORS })).status).toBe(200);
  const acme = await app.createTenant('Acme', branded);
  const globex = await app.createTenant('Globex', branded);
  const tenantBranding = await admin.put(`${appPath}/tenants/${acme}/branding`, { logoUrl: `${LOGO_HOST}/acme.png`, colors: TENANT_COLORS });
  expect(tenantBranding.status, JSON.stringify(tenantBranding.body)).toBe(200);
  await seedUsers(branded, [acme, globex], acme);
  looks.push(await lookOf('branded', branded, 'acme'));

  mkdirSync('test-results', { recursive: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await callback?.close();
});

/** What a page state must be, beyond axe's rules. */
interface Expected {
  /** The document's title. */
  readonly title: string;
  /** Every visible form control by id, with the autocomplete it must carry (null: none expected, e.g. a select). */
  readonly controls?: Readonly<Record<string, string | null>>;
  /** The error shown: its text (announced by role="alert") and the fields it marks invalid, the first one focused. */
  readonly error?: { readonly text: string; readonly invalid: readonly string[] };
  /** What Tab reaches, in order, from the top of the page (fields by #id, buttons and links by their text). */
  readonly tabOrder?: readonly string[];
}

/** A page on which the service, the client's redirect URI and the tenants' logos are all that may be reached. */
const openPage = () => openBrandedPage(browser, [issuer, REDIRECT_URI]);
const withPage = (run: (page: Page) => Promise<void>) => withBrandedPage(browser, [issuer, REDIRECT_URI], run);

/** The focused element as the tab order lists it: a field by #id, a button or link by its text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (element === null || element === document.body) return 'body';
    if (element.id !== '') return `#${element.id}`;
    return `${element.tagName.toLowerCase()}:${(element.textContent ?? '').trim()}`;
  });

/**
 * Puts the keyboard at the top of the page, as after loading it: Chromium goes on from the last focused element after
 * a blur(), so the focus is parked on a stand-in before everything, which the first Tab leaves (and which then goes).
 */
async function fromTheTop(page: Page): Promise<void> {
  await page.evaluate(() => {
    const start = document.createElement('span');
    start.id = 'a11y-top';
    start.tabIndex = -1;
    document.body.prepend(start);
    start.focus();
  });
}

/** Tab, then the stand-in of fromTheTop is gone. */
async function tab(page: Page): Promise<string> {
  await page.keyboard.press('Tab');
  await page.evaluate(() => document.getElementById('a11y-top')?.remove());
  return focused(page);
}

/** Presses Tab from the top of the page until it has gone round (or `limit` stops), listing what takes the focus. */
async function tabOrder(page: Page, limit = 10): Promise<string[]> {
  await fromTheTop(page);
  const order: string[] = [];
  for (let step = 0; step < limit; step += 1) {
    const now = await tab(page);
    if (now === 'body' || order.includes(now)) break;
    order.push(now);
  }
  return order;
}

/** Every visible form control: its id, label texts and autocomplete. */
const visibleControls = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input:not([type=hidden]), select, textarea')].map((control) => ({
      id: control.id,
      labels: [...(control.labels ?? [])].map((label) => (label.textContent ?? '').trim()),
      autocomplete: control.getAttribute('autocomplete'),
    })),
  );

/** The error as assistive technology meets it: the alert's text, the invalid fields and what describes them. */
const errorState = (page: Page) =>
  page.evaluate(() => {
    const text = (id: string) => (document.getElementById(id)?.textContent ?? '').trim();
    return {
      alerts: [...document.querySelectorAll('[role=alert], [aria-live=assertive], [aria-live=polite]')].map((element) => ({
        id: element.id,
        text: (element.textContent ?? '').trim(),
      })),
      invalid: [...document.querySelectorAll('[aria-invalid=true]')].map((element) => ({
        id: element.id,
        describedBy: (element.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id !== ''),
        descriptions: (element.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id !== '').map(text),
      })),
      focused: document.activeElement?.id ?? '',
    };
  });

/** Whether the page fits 320 CSS px (WCAG 1.4.10: 1280 px at 400 % zoom) without scrolling sideways. */
async function reflowsAt320(page: Page, screenshot: string): Promise<{ scrollWidth: number; clientWidth: number }> {
  await page.setViewportSize({ width: 320, height: 640 });
  try {
    const widths = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
    await page.screenshot({ path: `test-results/a11y-${screenshot}.png`, fullPage: true });
    return widths;
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
}

/** The document: its language, a title naming the page, one heading. */
async function expectDocument(page: Page, name: string, title: string): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.lang), name).toBe('en');
  expect(await page.title(), name).toBe(title);
  expect(await page.locator('h1').count(), name).toBe(1);
}

/** Exactly the expected fields, each with one label and its autocomplete. */
async function expectLabelledControls(page: Page, name: string, expected: Readonly<Record<string, string | null>>): Promise<void> {
  const controls = await visibleControls(page);
  expect(Object.fromEntries(controls.map((control) => [control.id, control.autocomplete])), name).toEqual(expected);
  for (const control of controls) expect(control.labels.filter((label) => label !== ''), `${name}: label of #${control.id}`).toHaveLength(1);
}

/** No alert and no invalid field; or the one alert, the invalid fields naming it, the focus on the first of them. */
async function expectError(page: Page, name: string, expected: Expected['error']): Promise<void> {
  const error = await errorState(page);
  if (expected === undefined) {
    expect(error.alerts, name).toEqual([]);
    expect(error.invalid, name).toEqual([]);
    return;
  }
  const [alert, ...others] = error.alerts;
  expect(others, name).toEqual([]);
  expect(alert?.text, name).toBe(expected.text);
  expect(error.invalid.map((field) => field.id), name).toEqual(expected.invalid);
  for (const field of error.invalid) {
    // Each invalid field names the announced error, and every description it names exists and says something.
    expect(field.describedBy, `${name}: #${field.id}`).toContain(alert?.id);
    expect(field.descriptions.every((description) => description !== ''), `${name}: #${field.id} describedby ${field.describedBy.join(' ')}`).toBe(true);
  }
  // The focus lands on the first field to correct, which a screen reader reads with its error (no script needed).
  if (expected.invalid.length > 0) expect(error.focused, name).toBe(expected.invalid[0]);
}

/** One page state: axe's WCAG A/AA rules, then the checks by hand. */
async function expectAccessible(page: Page, look: Look, state: string, expected: Expected): Promise<void> {
  const name = `${look.label} look, ${state}`;
  const violations = await axeViolations(page);
  expect(violations, printed(name, violations)).toEqual([]);
  await expectDocument(page, name, expected.title);
  await expectLabelledControls(page, name, expected.controls ?? {});
  await expectError(page, name, expected.error);
  const widths = await reflowsAt320(page, `${look.label}-${state.replaceAll(/[^a-z0-9]+/gi, '-')}`);
  expect(widths.scrollWidth, `${name}: width at 320 px`).toBeLessThanOrEqual(widths.clientWidth);
  // Last, as Tab moves the focus: the order from the top of the page.
  if (expected.tabOrder !== undefined) expect(await tabOrder(page), name).toEqual(expected.tabOrder);
}

/** Presses a key that submits (Enter), and waits for the page that answers, with its autofocus applied. */
async function pressAndLoad(page: Page, key = 'Enter'): Promise<void> {
  await Promise.all([page.waitForEvent('load'), page.keyboard.press(key)]);
  await page.waitForFunction(() => {
    const autofocus = document.querySelector('[autofocus]');
    return autofocus === null || document.activeElement === autofocus;
  });
}

/** From the top of the page, Tab to each field in turn and type into it, then on to `submit` and press Enter. */
async function fillByKeyboard(page: Page, values: readonly (readonly [string, string])[], submit: string): Promise<void> {
  await fromTheTop(page);
  const pending = new Map(values);
  for (let step = 0; step < 10; step += 1) {
    const now = await tab(page);
    const value = pending.get(now);
    if (value !== undefined) {
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(value);
      pending.delete(now);
    }
    if (now === submit) break;
  }
  expect([...pending.keys()], 'fields the keyboard never reached').toEqual([]);
  expect(await focused(page)).toBe(submit);
  await pressAndLoad(page);
}

/** Retypes the focused field (the one an error put the focus on) and submits with Enter from inside it. */
async function retypeAndEnter(page: Page, value: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(value);
  await pressAndLoad(page);
}

const title = (heading: string, name: string, error = false) => `${error ? 'Error: ' : ''}${heading} – ${name}`;
const copy = (key: CopyKey, name = '') => CATALOGS.en[key].replaceAll('{name}', name);
const authorizeUrl = async (look: Look, parameters: Record<string, string> = {}) =>
  (await authorizationRequest(look.web, { redirectUri: REDIRECT_URI, resource: '' }, parameters)).url.href;

/** Signs `email` in on the hosted form with the keyboard, from wherever the browser stands on it. */
async function signInByKeyboard(page: Page, email: string, submit = 'button:Sign in'): Promise<void> {
  await fillByKeyboard(page, [['#email', email], ['#password', PASSWORD]], submit);
}

describe.each(['default', 'branded'] as const)('the hosted pages in the %s look', (label) => {
  const look = () => looks.find((candidate) => candidate.label === label)!;
  const signUpLink = (named: boolean) => (named ? [] : [`a:${CATALOGS.en['login.signupLink']}`]);

  it('sign-in: the form, a refused password, an address locked out', async () => {
    const { name, tenant } = look();
    await withPage(async (page) => {
      await page.goto(await authorizeUrl(look(), tenant));
      const controls = { email: 'username', password: 'current-password' };
      await expectAccessible(page, look(), 'sign-in', {
        title: title('Sign in', name),
        controls,
        tabOrder: ['#email', '#password', 'button:Sign in', `a:${CATALOGS.en['login.forgot']}`, ...signUpLink(tenant['tenant'] !== undefined)],
      });

      await fillByKeyboard(page, [['#email', 'lee@example.com'], ['#password', WRONG]], 'button:Sign in');
      const refused = { title: title('Sign in', name, true), controls, error: { text: copy('login.error'), invalid: ['email', 'password'] } };
      await expectAccessible(page, look(), 'sign-in, refused password', refused);
      // The focus is on the e-mail, kept; Tab to the password, retype, Enter from inside the field: twice more locks the address out.
      for (let attempt = 0; attempt < 2; attempt += 1) {
        await page.keyboard.press('Tab');
        await retypeAndEnter(page, WRONG);
      }
      await page.keyboard.press('Tab');
      await retypeAndEnter(page, PASSWORD);
      expect(new URL(page.url()).pathname).toMatch(/^\/interaction\/[^/]+\/login$/);
      await expectAccessible(page, look(), 'sign-in, address locked out', refused);
    });
  });

  it('sign-up: the form, policy violations, then an account to verify', async () => {
    const { applicationName } = look();
    await withPage(async (page) => {
      // Sign-up is open where the request names no tenant (the shared pool): reached by keyboard from the sign-in form.
      await page.goto(await authorizeUrl(look()));
      await fillByKeyboard(page, [], `a:${CATALOGS.en['login.signupLink']}`);
      const controls = { name: 'name', email: 'username', password: 'new-password' };
      await expectAccessible(page, look(), 'sign-up', {
        title: title('Create an account', applicationName),
        controls,
        tabOrder: ['#name', '#email', '#password', 'button:Create account', 'a:Sign in'],
      });
      expect(await page.locator('#password').getAttribute('aria-describedby')).toBe('password-rules');

      await fillByKeyboard(page, [['#name', 'Sam'], ['#email', 'not-an-email'], ['#password', 'short']], 'button:Create account');
      await expectAccessible(page, look(), 'sign-up, policy violations', {
        title: title('Create an account', applicationName, true),
        controls,
        error: { text: copy('signup.invalid'), invalid: ['email', 'password'] },
      });

      // The focus is on the e-mail: a valid one, Tab, the password again (never kept), Enter: a page that says to check the
      // mail, the same for an address taken already (test/oauth/hosted-account-links.test.ts).
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(`sam-${label}@example.com`);
      await page.keyboard.press('Tab');
      await retypeAndEnter(page, PASSWORD);
      await expectAccessible(page, look(), 'sign-up, check your email', { title: title('Check your email', applicationName) });
    });
  });

  it('the tenant chooser: the choice, a refused choice, then the sign-in', async () => {
    const { applicationName } = look();
    await withPage(async (page) => {
      await page.goto(await authorizeUrl(look()));
      await signInByKeyboard(page, 'multi@example.com');
      const chooser = { title: title('Choose an organization', applicationName), controls: { tenant: null } };
      await expectAccessible(page, look(), 'tenant chooser', { ...chooser, tabOrder: ['#tenant', 'button:Continue'] });

      // A choice outside the list (a tampered form) is refused with the error on the select.
      await page.locator('#tenant option').first().evaluate((option) => option.setAttribute('value', 'elsewhere'));
      await fillByKeyboard(page, [], 'button:Continue');
      await expectAccessible(page, look(), 'tenant chooser, refused choice', {
        ...chooser,
        title: title('Choose an organization', applicationName, true),
        error: { text: copy('tenant.error'), invalid: ['tenant'] },
      });
      // The focus is on the select: the arrow key picks the second tenant, Tab reaches Continue, Enter sends it.
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('button:Continue');
      await pressAndLoad(page);
      expect(page.url()).toMatch(new RegExp(`^${REDIRECT_URI}\\?code=`));
    });
  });

  it('device verification: code entry, a wrong code, confirmation, success, a denial, a used code', async () => {
    const { name, tenant, device } = look();
    const started = await oidc.initiateDeviceAuthorization(device, { scope: 'openid', ...tenant });
    const denied = await oidc.initiateDeviceAuthorization(device, { scope: 'openid', ...tenant });
    // The bare verification URI names no application: the plain look until a code names one. The branded look
    // starts from verification_uri_complete, prefilled, in the look of the device's tenant.
    const branded = label === 'branded';
    const entryName = branded ? name : PLAIN_LOOK.name;
    const entry = { controls: { user_code: 'off' } };
    await withPage(async (page) => {
      await page.goto(branded ? started.verification_uri_complete! : started.verification_uri);
      await expectAccessible(page, look(), 'device code entry', {
        ...entry,
        title: title('Connect a device', entryName),
        tabOrder: ['#user_code', 'button:Continue'],
      });
      await fillByKeyboard(page, [['#user_code', 'bcdf-ghjk']], 'button:Continue');
      await expectAccessible(page, look(), 'device, wrong code', {
        ...entry,
        title: title('Connect a device', entryName, true),
        error: { text: copy('device.error'), invalid: ['user_code'] },
      });

      // Typed as people type what a TV shows: lower case, a space for the dash.
      await retypeAndEnter(page, started.user_code.toLowerCase().replace('-', ' '));
      await expectAccessible(page, look(), 'device confirmation', {
        title: title('Confirm the device', name),
        tabOrder: ['button:Continue', 'button:Cancel'],
      });
      expect(await page.locator('.code').textContent()).toBe(started.user_code);
      await fillByKeyboard(page, [], 'button:Continue');
      await signInByKeyboard(page, 'ola@example.com');
      await expectAccessible(page, look(), 'device connected', { title: title('Device connected', name) });

      // The denial: another device's code, confirmed with Cancel.
      await page.goto(denied.verification_uri_complete!);
      await fillByKeyboard(page, [], 'button:Continue');
      await fillByKeyboard(page, [], 'button:Cancel');
      await expectAccessible(page, look(), 'device, denied', {
        ...entry,
        title: title('Connect a device', name),
        error: { text: copy('device.aborted'), invalid: [] },
      });

      // The first code again: used.
      await page.goto(started.verification_uri_complete!);
      await fillByKeyboard(page, [], 'button:Continue');
      await expectAccessible(page, look(), 'device, used code', {
        ...entry,
        title: title('Connect a device', name, true),
        error: { text: copy('device.expired'), invalid: ['user_code'] },
      });
    });
  });

  it('logout: the confirmation and the signed-out page', async () => {
    const { name, tenant, web } = look();
    await withPage(async (page) => {
      await page.goto(await authorizeUrl(look(), tenant));
      await signInByKeyboard(page, 'ola@example.com');
      expect(page.url()).toMatch(new RegExp(`^${REDIRECT_URI}\\?code=`));
      await page.goto(oidc.buildEndSessionUrl(web, { client_id: web.clientMetadata().client_id }).href);
      await expectAccessible(page, look(), 'logout confirmation', { title: title('Sign out', name), tabOrder: ['button:Sign out'] });
      await fillByKeyboard(page, [], 'button:Sign out');
      // Confirming ends the whole session (logout=yes), after which oidc-provider names no client: the plain look.
      await expectAccessible(page, look(), 'signed out', { title: title('You are signed out', PLAIN_LOOK.name) });
    });
  });

  it('error pages: the OP’s (an unknown client) and the hosted surface’s', async () => {
    await withPage(async (page) => {
      if (label === 'default') {
        const unknown = new URL(`${issuer}/oauth2/authorize`);
        unknown.search = new URLSearchParams({ client_id: 'no-such-client', response_type: 'code', redirect_uri: REDIRECT_URI, scope: 'openid' }).toString();
        expect((await page.goto(unknown.href))?.status()).toBe(400);
        await expectAccessible(page, look(), 'OP error page', {
          title: title('Sign-in is not possible', PLAIN_LOOK.name),
          error: { text: await page.locator('[role=alert]').innerText(), invalid: [] },
        });
        expect((await page.goto(`${issuer}/interaction/no-such-interaction/else`))?.status()).toBe(404);
        await expectAccessible(page, look(), 'hosted error page', {
          title: title('Sign-in is not possible', PLAIN_LOOK.name),
          error: { text: 'There is no such sign-in page.', invalid: [] },
        });
      } else {
        // The tenant's own surface asked for another tenant: the error in the surface tenant's branding. A tenant's
        // path is a surface of an isolated application only: the branded one is isolated from here on (its last page).
        const isolated = await new HttpClient(app.baseUrl, { apiKey: branded.apiKey }).patch(`/applications/${branded.applicationId}`, {
          tenancyConfig: { authIsolation: 'isolated' },
        });
        expect(isolated.status, JSON.stringify(isolated.body)).toBe(200);
        const surface = new URL(await authorizeUrl(look(), { tenant: 'globex' }));
        surface.pathname = '/t/acme/oauth2/authorize';
        expect((await page.goto(surface.href))?.status()).toBe(400);
        await expectAccessible(page, look(), 'tenant surface error page', {
          title: title('Sign-in is not possible', look().name),
          error: { text: 'This is the sign-in of Acme: the request names another organization.', invalid: [] },
        });
      }
    });
  });
});

/**
 * Whatever colours a tenant picks, text stays readable (WCAG 1.4.3, 4.5:1) and the focus ring visible (1.4.11, 3:1):
 * pages rendered straight from pages.ts in palettes chosen to be hard, checked by axe and by the computed styles.
 */
describe('any tenant colours', () => {
  const palettes = [
    { primary: '#ffffff', background: '#ffffff', text: '#ffffff' },
    { primary: '#000000', background: '#000000', text: '#000000' },
    { primary: '#777777', background: '#777777', text: '#777777' },
    { primary: '#ff0000', background: '#ffffff', text: '#999999' },
    { primary: '#ffff00', background: '#ffffee', text: '#aaaa00' },
    { primary: '#00ff00', background: '#222222', text: '#444444' },
    { primary: '#0000ff', background: '#000033', text: '#0000ff' },
    { primary: '#6b7280', background: '#7a7a7a', text: '#858585' },
    { primary: '#e11d48', background: '#fb7185', text: '#be123c' },
    { primary: '#4f46e5', background: '#ffffff', text: '#111827' },
  ];
  const lookIn = (colors: (typeof palettes)[number]): PageLook => ({
    ...PLAIN_LOOK,
    name: 'Palette',
    branding: { ...PLAIN_LOOK.branding, colors },
  });
  const removingPage = (look: PageLook, currentRefused: boolean) =>
    newPasswordPage(look, 'n', 'reset', {
      action: '/reset',
      proof: { name: 'token', value: 't' },
      email: 'ada@example.com',
      passwordPolicy: POLICY_DEFAULTS.password,
      removes: { kind: 'webauthn', name: 'Laptop', addedAt: new Date('2026-01-02T03:04:05Z'), codesGo: true },
      currentRefused,
    });
  const pages: Record<string, (look: PageLook) => RenderedPage> = {
    'sign-in with an error': (look) => loginPage(look, 'n', { action: '/login', csrf: 'c', error: 'login.error', signupUrl: '/signup', forgotUrl: '/forgot' }),
    'sign-in, e-mail to verify': (look) => loginPage(look, 'n', { action: '/login', csrf: 'c', error: 'login.unverified', resendUrl: '/verify', forgotUrl: '/forgot' }),
    'sign-up with field errors': (look) =>
      signupPage(look, 'n', {
        action: '/signup',
        csrf: 'c',
        loginUrl: '/',
        error: 'signup.invalid',
        fieldErrors: { email: [{ key: 'field.email' }], password: [{ key: 'password.tooShort', values: { count: '12' } }] },
        passwordPolicy: POLICY_DEFAULTS.password,
      }),
    'forgot password': (look) => emailFormPage(look, 'n', { action: '/forgot', csrf: 'c', form: 'forgot', loginUrl: '/' }),
    'new password with an error': (look) =>
      newPasswordPage(look, 'n', 'reset', { action: '/reset', proof: { name: 'token', value: 't' }, email: 'ada@example.com', passwordPolicy: POLICY_DEFAULTS.password, errors: [{ key: 'password.tooShort', values: { count: '12' } }] }),
    'new password that removes a factor': (look) => removingPage(look, false),
    'new password that removes a factor, its proof refused': (look) => removingPage(look, true),
    'new password that gives an address back': (look) =>
      newPasswordPage(look, 'n', 'reset', {
        action: '/reset',
        proof: { name: 'token', value: 't' },
        email: 'ada@example.com',
        passwordPolicy: POLICY_DEFAULTS.password,
        restores: { email: 'ada@example.com', current: 'mallory@example.org', since: new Date('2026-01-02T03:04:05Z') },
      }),
    'verify e-mail': (look) => linkConfirmPage(look, 'n', { action: '/verify', token: 't', confirms: 'verify', values: { email: 'ada@example.com' } }),
    'change e-mail': (look) =>
      linkConfirmPage(look, 'n', { action: '/confirm', token: 't', confirms: 'emailChange', values: { email: 'ada@example.com', newEmail: 'ada@example.org' } }),
    'mail sent': (look) => donePage(look, 'n', 'forgot.sentTitle', 'forgot.sentText', { email: 'ada@example.com' }),
    'device code with an error': (look) => deviceCodePage(look, 'n', { action: '/device', xsrf: 'x', error: 'device.error', userCode: 'BCDF-GHJK' }),
    'device confirmation': (look) => deviceConfirmPage(look, 'n', { action: '/device', xsrf: 'x', userCode: 'BCDF-GHJK' }),
  };

  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => ({ context, page } = await openPage()));
  afterAll(async () => context?.close());

  // A test per palette: the hundred pages' axe runs together took about the whole of one test's minute.
  it.each(palettes)('keeps every text at 4.5:1 and every focus ring at 3:1: primary $primary, background $background, text $text', async (colors) => {
    const failures: string[] = [];
    for (const [state, render] of Object.entries(pages)) {
      const name = `${state} in ${JSON.stringify(colors)}`;
      // The nonce attribute is harmless without the CSP header: the style applies as the browser would allow it.
      await page.setContent(render(lookIn(colors)).html);
      const violations = await axeViolations(page);
      if (violations.length > 0) failures.push(printed(name, violations));
      const rings = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('input:not([type=hidden]), button, a')].map((element) => {
          element.focus();
          return { element: element.id || element.textContent?.trim() || element.tagName, outline: getComputedStyle(element).outlineColor, width: getComputedStyle(element).outlineWidth };
        }),
      );
      const background = await page.evaluate(() => getComputedStyle(document.querySelector('main')!).backgroundColor);
      for (const ring of rings) {
        const ratio = contrastRatio(hexOf(ring.outline), hexOf(background));
        if (ratio < 3 || ring.width === '0px') failures.push(`${name}: focus ring of ${ring.element} ${ring.outline} on ${background}: ${ratio.toFixed(2)}:1, ${ring.width}`);
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });
});

/** rgb(r, g, b) as computed styles give it → #rrggbb. */
function hexOf(rgb: string): string {
  const channels = /rgba?\((\d+), (\d+), (\d+)/.exec(rgb)?.slice(1, 4) ?? [];
  expect(channels, rgb).toHaveLength(3);
  return `#${channels.map((channel) => Number(channel).toString(16).padStart(2, '0')).join('')}`;
}
