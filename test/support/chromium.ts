import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations, printed } from './axe.ts';

/** Debian's Chromium and its headless shell: installed by .ci/run; no browser is ever downloaded. */
export const CHROMIUM = '/usr/bin/chromium';
/** Chromium's old headless mode, without the browser's own UI: about half the CPU a page, but it treats no insecure origin as secure. */
export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** Custom domains Chromium reaches at the test service, without DNS: each name resolves to `service` (its host:port). */
export interface CustomDomains {
  readonly hostnames: readonly string[];
  /** The test service's base URL (http://127.0.0.1:{port}). */
  readonly service: string;
}

/**
 * A headless Chromium that reaches nothing but this machine. Without the browser the suite fails rather than
 * passing unchecked: the browser tests run only through `npm run test:browser`, which needs it. With `customDomains`,
 * `http://{hostname}/` is the service as a proxy in front of it would pass it on (its Host header the domain's), and
 * counts as a secure context, as the https origin it would be in production (WebAuthn and Secure cookies need one):
 * only the full browser does that.
 */
export async function launchChromium({ customDomains }: { customDomains?: CustomDomains } = {}): Promise<Browser> {
  const executablePath = customDomains === undefined ? HEADLESS_SHELL : CHROMIUM;
  expect(existsSync(executablePath), `${executablePath} is missing: apt-get install -y chromium chromium-headless-shell`).toBe(true);
  const domains =
    customDomains === undefined
      ? []
      : [
          `--host-resolver-rules=${customDomains.hostnames.map((hostname) => `MAP ${hostname} ${new URL(customDomains.service).host}`).join(',')}`,
          `--unsafely-treat-insecure-origin-as-secure=${customDomains.hostnames.map((hostname) => `http://${hostname}`).join(',')}`,
        ];
  return chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync', ...domains],
  });
}

/** A client's redirect URI the browser really leaves the service for: a tiny server of the test's, on another port. */
export interface ClientCallback {
  readonly redirectUri: string;
  /** Every URL the browser was sent to there, in order. */
  readonly received: readonly URL[];
  close(): Promise<void>;
}

export async function startClientCallback(): Promise<ClientCallback> {
  const received: URL[] = [];
  const server = createServer((request, response) => {
    received.push(new URL(request.url ?? '/', redirectUri));
    response.writeHead(200, { 'content-type': 'text/plain' }).end('back at the client');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return { redirectUri, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The page's Content Security Policy violations from now on, as Chromium reports them on its console. */
export function cspViolationsOf(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/** Every URL the page requests from now on that starts with none of `reachable`. */
export function requestsOutside(page: Page, reachable: readonly string[]): string[] {
  const outside: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!reachable.some((prefix) => url.startsWith(prefix))) outside.push(url);
  });
  return outside;
}

/** A browser context with a platform authenticator (CDP WebAuthn) that holds passkeys and verifies its user. */
export async function withAuthenticator(browser: Browser): Promise<{ context: BrowserContext; page: Page; cspViolations: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cspViolations = cspViolationsOf(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { context, page, cspViolations };
}

/** Where the tenants' logos of the branded suites live: answered by the test, so that the browser reaches nothing outside this machine. */
export const LOGO_HOST = 'https://cdn.brand.example';
/** A 1×1 PNG: every logo under LOGO_HOST. */
const LOGO_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A page as a person would have it: its own context (cookies), LOGO_HOST's logos served, CSP reports and every URL requested outside `reachable` and LOGO_HOST collected. */
export async function openBrandedPage(browser: Browser, reachable: readonly string[]): Promise<{ context: BrowserContext; page: Page; cspViolations: string[]; outside: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route(`${LOGO_HOST}/**`, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: LOGO_PNG }));
  const page = await context.newPage();
  return { context, page, cspViolations: cspViolationsOf(page), outside: requestsOutside(page, [...reachable, LOGO_HOST]) };
}

/** `run` on an openBrandedPage, which then must have broken no CSP and requested nothing outside `reachable`. */
export async function withBrandedPage(browser: Browser, reachable: readonly string[], run: (page: Page) => Promise<void>): Promise<void> {
  const { context, page, cspViolations, outside } = await openBrandedPage(browser, reachable);
  try {
    await run(page);
    expect(cspViolations).toEqual([]);
    expect(outside).toEqual([]);
  } finally {
    await context.close();
  }
}

/** axe's WCAG A/AA rules hold on the page as it stands (`state` names it in a failure); `screenshot`: then saved as test-results/{screenshot}.png. */
export async function expectAccessible(page: Page, state: string, screenshot?: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, printed(state, violations)).toEqual([]);
  if (screenshot !== undefined) await page.screenshot({ path: `test-results/${screenshot}.png`, fullPage: true });
}
