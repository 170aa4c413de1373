import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { hashPassword } from '../../src/auth/password-hash.ts';
import type { Config } from '../../src/config.ts';
import { ensureConsoles } from '../../src/domain/console/console.ts';
import { startTestApp, type TestApp } from './app.ts';
import type { HttpClient } from './http.ts';
import { cspViolationsOf, launchChromium } from './chromium.ts';

/** The console's first operator in the dashboard suites. */
export const OPERATOR = { email: 'ops@example.com', password: 'Operator-Horse-42' } as const;

/** A test app whose PUBLIC_URL the browser reaches, with its console and OPERATOR as the first operator. */
export async function startDashboardApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const app = await startTestApp(overrides, { reachablePublicUrl: true });
  const { orm, config } = app.gatehouse.services;
  await ensureConsoles(orm, config.publicUrl, randomUUID(), { email: OPERATOR.email, passwordHash: await hashPassword(OPERATOR.password) });
  return app;
}

/**
 * Signs an operator in to the dashboard through the console's hosted sign-in (code + PKCE) and back, from the
 * dashboard's address followed by `at` (`?organization={id}`, a route `#/{appId}/users`), to which the dashboard returns.
 */
export async function signInToDashboard(
  page: Page,
  publicUrl: string,
  { email = OPERATOR.email, password = OPERATOR.password, at = '' }: { email?: string; password?: string; at?: string } = {},
): Promise<void> {
  await page.goto(`${publicUrl}/dashboard/${at}`);
  await Promise.all([page.waitForURL(/\/interaction\//), page.getByRole('button', { name: 'Sign in' }).click()]);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await Promise.all([page.waitForURL(`${publicUrl}/dashboard/${at}`), page.locator('form button[type="submit"]').first().click()]);
}

/**
 * A console user with a password, made by the first operator, given the role `roleKey` (built-in or made) in the
 * suite's application as operator: in `tenantId` only, if given, else application-wide.
 */
export async function makeOperator(app: TestApp, account: { email: string; password: string }, roleKey: string, tenantId?: string): Promise<string> {
  const operatorId = await makeConsoleUser(app, account);
  const role = (await app.http.get('/roles?pageSize=100')).body.data.find((candidate: { key: string }) => candidate.key === roleKey);
  expect((await app.http.post('/role-assignments', { subject: { type: 'operator', id: operatorId }, roleId: role.id, ...(tenantId === undefined ? {} : { tenantId }) })).status).toBe(201);
  return operatorId;
}

/** The first operator, acting in the organization's console (where operators' accounts are users). */
async function asFirstOperatorInConsole(app: TestApp): Promise<HttpClient> {
  const [{ id: consoleId }] = (await app.sql<{ id: string }>('select id from application where organization_id = ? and console', [app.root.organizationId])) as [{ id: string }];
  const [{ id: first }] = (await app.sql<{ id: string }>('select id from app_user where application_id = ? and email = ?', [consoleId, OPERATOR.email])) as [{ id: string }];
  return app.as({ bearer: await app.mintAccessToken({ sub: first, app_id: consoleId }) });
}

/** A console user with a password, made by the first operator, holding no role anywhere yet; their id. */
export async function makeConsoleUser(app: TestApp, account: { email: string; password: string }): Promise<string> {
  const made = await (await asFirstOperatorInConsole(app)).post('/users', account);
  expect(made.status).toBe(201);
  return made.body.id as string;
}

/** The console's role `roleKey` given to an operator (console user `operatorId`): what they may do to operators' accounts. */
export async function giveConsoleRole(app: TestApp, operatorId: string, roleKey: string): Promise<void> {
  const asFirst = await asFirstOperatorInConsole(app);
  const role = (await asFirst.get('/roles?pageSize=100')).body.data.find((candidate: { key: string }) => candidate.key === roleKey);
  expect(role, `no console role ${roleKey}`).toBeDefined();
  expect((await asFirst.post('/role-assignments', { subject: { type: 'user', id: operatorId }, roleId: role.id })).status).toBe(201);
}

/** A page of a browser context of its own in `suitePage`'s browser, signed in as `account`; closed after `use`. */
export async function asOperator(suitePage: Page, publicUrl: string, account: { email: string; password: string }, use: (page: Page) => Promise<void>): Promise<void> {
  const context = await suitePage.context().browser()!.newContext();
  try {
    const page = await context.newPage();
    await signInToDashboard(page, publicUrl, account);
    await use(page);
  } finally {
    await context.close();
  }
}

/** asOperator for an operator of some tenants only, on the tenants' landing. */
export function asTenantOperator(suitePage: Page, publicUrl: string, account: { email: string; password: string }, use: (page: Page) => Promise<void>): Promise<void> {
  return asOperator(suitePage, publicUrl, account, async (page) => {
    await page.getByRole('heading', { level: 2, name: 'Your tenants' }).waitFor();
    await use(page);
  });
}

/** The screens of tenant `tenantName` its landing offers, once it has read which they are. */
export async function offeredScreens(page: Page, tenantName: string): Promise<string[]> {
  const links = page.getByRole('list', { name: `Screens of ${tenantName}` }).getByRole('link');
  await links.first().waitFor();
  return links.allTextContents();
}

/** Opens one of the application's tabs (links in its "Application sections" navigation) and waits for its heading. */
export async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Application sections' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 2, name }).waitFor();
}

interface DashboardPage {
  readonly page: Page;
  /** The page's Content Security Policy violations since it opened. */
  readonly violations: readonly string[];
  close(): Promise<void>;
}

/** Chromium signed in to the dashboard as OPERATOR, on the one application they manage (which it opens at once). */
async function openDashboard(app: TestApp): Promise<DashboardPage> {
  mkdirSync('test-results', { recursive: true });
  const browser = await launchChromium();
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations = cspViolationsOf(page);
  await signInToDashboard(page, app.gatehouse.services.config.publicUrl);
  await page.getByRole('heading', { level: 1, name: 'My application' }).waitFor();
  return {
    page,
    violations,
    close: async () => {
      await context.close();
      await browser.close();
    },
  };
}

export interface DashboardSuiteOptions {
  /** The app's configuration, read as the app starts, after the file's earlier beforeAll hooks: it may name what they started. */
  config?: () => Partial<Config>;
  /** Puts in place, through the app, what the suite needs before the dashboard opens (the page reads it as it loads). */
  setup?: (app: TestApp) => Promise<void>;
  /** The application's tab the dashboard opens on (else the application's first view). */
  tab?: string;
}

export interface DashboardSuite {
  /** The suite's app, once its beforeAll has started it. */
  readonly app: TestApp;
  /** The dashboard signed in as OPERATOR, once its beforeAll has opened it. */
  readonly page: Page;
  /** Answers the page's next dialog (a confirmation), accepting it unless told to dismiss it; resolves to its message. */
  answerNextDialog(answer?: 'accept' | 'dismiss'): Promise<string>;
  /** Whether closing or reloading the page would ask first: some form holds unsaved edits. */
  unsaved(): Promise<boolean>;
  /** What the browser fires as the operator comes back to the page, `times` over: it is shown again, and its window gets the focus. */
  comeBack(times?: number): Promise<void>;
  /** The reads of a list (GraphQL query `operation`) the page sends from now on, one entry per read. */
  listReads(operation: string): string[];
}

/** Waits until `picker` (a select) offers `name`. */
export const offered = (picker: Locator, name: string): Promise<void> => picker.getByRole('option', { name, exact: true }).waitFor({ state: 'attached' });

/**
 * Registers a dashboard suite's hooks: beforeAll starts the app, runs `setup` and opens the dashboard (on `tab`);
 * after each test, the page has broken none of its CSP; afterAll closes the browser and the app. Hooks the file
 * registers before run before these, and their afterAll after these (vitest's stack order).
 */
export function dashboardSuite({ config, setup, tab }: DashboardSuiteOptions = {}): DashboardSuite {
  let app: TestApp | undefined;
  let dashboard: DashboardPage | undefined;
  beforeAll(async () => {
    app = await startDashboardApp(config?.());
    await setup?.(app);
    dashboard = await openDashboard(app);
    if (tab !== undefined) await openTab(dashboard.page, tab);
  });
  // Each step breaks none of the page's CSP.
  afterEach(() => expect(dashboard!.violations).toEqual([]));
  afterAll(async () => {
    await dashboard?.close();
    await app?.close();
  });
  const suite: DashboardSuite = {
    get app() {
      if (app === undefined) throw new Error('The dashboard suite has no app before its beforeAll started it.');
      return app;
    },
    get page() {
      if (dashboard === undefined) throw new Error('The dashboard suite has no page before its beforeAll opened it.');
      return dashboard.page;
    },
    answerNextDialog: (answer = 'accept') =>
      new Promise((resolve) => {
        suite.page.once('dialog', (dialog) => {
          resolve(dialog.message());
          void (answer === 'accept' ? dialog.accept() : dialog.dismiss());
        });
      }),
    unsaved: () => suite.page.evaluate(() => !dispatchEvent(new Event('beforeunload', { cancelable: true }))),
    comeBack: (times = 1) =>
      suite.page.evaluate((count) => {
        for (let n = 0; n < count; n += 1) {
          document.dispatchEvent(new Event('visibilitychange'));
          dispatchEvent(new Event('focus'));
        }
      }, times),
    listReads: (operation) => {
      const reads: string[] = [];
      suite.page.on('request', (request) => {
        if (request.method() === 'POST' && request.url().endsWith('/graphql') && (request.postData() ?? '').includes(`query ${operation}(`)) reads.push(operation);
      });
      return reads;
    },
  };
  return suite;
}
