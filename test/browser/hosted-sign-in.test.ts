import { mkdirSync } from 'node:fs';
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { cspViolationsOf, launchChromium, requestsOutside, startClientCallback, type ClientCallback } from '../support/chromium.ts';
import { HttpClient } from '../support/http.ts';
import { authorizationRequest, createTestClient, decodeJwt, discover } from '../support/oauth.ts';

/**
 * A real browser (Debian's Chromium through playwright-core) signs one user in through the hosted page, once for
 * each of two tenants of one application, and sees each tenant's branding. Screenshots: test-results/hosted-*.png.
 */
let clientSide: ClientCallback;
let REDIRECT_URI: string;
const PASSWORD = 'Correct-Horse-9';

let app: TestApp;
let issuer: string;
let managementApi: string;
let config: oidc.Configuration;
let browser: Browser;
let userId: string;
const tenants: Record<string, { id: string; primary: string; title: string; submit: string }> = {};

beforeAll(async () => {
  clientSide = await startClientCallback();
  REDIRECT_URI = clientSide.redirectUri;
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  managementApi = `${issuer}/api/v1`;
  const client = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
  config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  const appId = app.root.applicationId;
  expect((await app.http.patch(`/applications/${appId}`, { tenancyConfig: { brandingScope: 'tenant' } })).status).toBe(200);
  for (const [name, primary, background, title, submit] of [
    ['Acme', '#c81e1e', '#fff5f5', 'Welcome to Acme', 'Enter Acme'],
    ['Globex', '#047857', '#f0fdf4', 'Globex employees only', 'Continue to Globex'],
  ] as const) {
    const id = await app.createTenant(name);
    const branding = await app.http.put(`/applications/${appId}/tenants/${id}/branding`, {
      colors: { primary, background, text: '#111111' },
      copy: { 'login.title': title, 'login.submit': submit },
    });
    expect(branding.status).toBe(200);
    tenants[name] = { id, primary, title, submit };
  }
  const user = await app.http.post('/users', { email: 'uma@example.com', name: 'Uma', password: PASSWORD, tenantId: tenants['Acme']!.id });
  userId = user.body.id;
  expect((await app.http.patch(`/users/${userId}`, { tenantIds: [tenants['Acme']!.id, tenants['Globex']!.id] })).status).toBe(200);
  mkdirSync('test-results', { recursive: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await clientSide?.close();
});

/** The client's redirect URI and the management API as the resource (known once the app runs). */
const defaults = () => ({ redirectUri: REDIRECT_URI, resource: managementApi });

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)).join(', ')})`;

describe('hosted sign-in in Chromium', () => {
  for (const name of ['Acme', 'Globex']) {
    it(`signs a user in to ${name}, on a page in ${name}'s branding`, async () => {
      const tenant = tenants[name]!;
      const { url, verifier, state } = await authorizationRequest(config, defaults(), { tenant: name.toLowerCase() });
      // A fresh context per tenant: its own cookies, as two people on two machines.
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        const outside = requestsOutside(page, [issuer, REDIRECT_URI]);
        const violations = cspViolationsOf(page);
        await page.goto(url.href);
        expect(new URL(page.url()).pathname).toMatch(/^\/interaction\//);
        // goto has waited for the page's load: no polling (expect.poll gives up after 1 s, which one protocol round
        // trip to a busy Chromium can take on a loaded machine); a wrong heading is shown as it is.
        expect(await page.locator('h1').textContent()).toBe(tenant.title);
        const button = page.getByRole('button', { name: tenant.submit });
        expect(await button.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(rgb(tenant.primary));
        // The labels name the fields (what a screen reader announces).
        await page.getByLabel('Email address').fill('uma@example.com');
        await page.getByLabel('Password').fill(PASSWORD);
        await page.screenshot({ path: `test-results/hosted-${name.toLowerCase()}.png`, fullPage: true });

        // The form POST, then the 303s through the OP to the client (CSP form-action must allow each hop).
        await Promise.all([page.waitForURL(`${REDIRECT_URI}**`), button.click()]);
        expect(await page.textContent('body')).toBe('back at the client');
        const callback = new URL(page.url());
        expect(clientSide.received.map(String)).toContain(callback.href);
        expect(callback.searchParams.get('state')).toBe(state);
        const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }, { resource: managementApi });
        expect(decodeJwt(tokens.access_token).payload).toMatchObject({ sub: userId, tenant_id: tenant.id });
        expect(outside).toEqual([]);
        expect(violations).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});

describe('account switching in Chromium', () => {
  it('signed in to one isolated tenant, signing in to another switches the account through the OP’s sign-out form', async () => {
    // An application whose tenants are each their own pool, with one e-mail in both, and a client of it.
    const other = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: other.apiKey });
    expect((await admin.patch(`/applications/${other.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const users: Record<string, string> = {};
    for (const [name, password] of [['North', PASSWORD], ['South', 'Other-Horse-7']] as const) {
      const tenantId = await app.createTenant(name, other);
      const created = await admin.post(`/applications/${other.applicationId}/tenants/${tenantId}/users`, { email: 'erin@example.com', password });
      expect(created.status).toBe(201);
      users[name] = created.body.id as string;
    }
    const client = await createTestClient(app, { type: 'web', applicationId: other.applicationId, redirectUris: [REDIRECT_URI] });
    const isolated = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));

    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const violations = cspViolationsOf(page);
      const signIn = async (tenant: string, password: string) => {
        const { url, verifier, state } = await authorizationRequest(isolated, defaults(), { tenant });
        await page.goto(url.href);
        const notice = (await page.locator('.notice').count()) === 0 ? null : await page.locator('.notice').textContent();
        await page.getByLabel('Email address').fill('erin@example.com');
        await page.getByLabel('Password').fill(password);
        if (notice !== null) await page.screenshot({ path: 'test-results/hosted-switch-account.png', fullPage: true });
        // For a switch: the login POST, the OP's auto-submitted sign-out of the other account, the resume, the client.
        await Promise.all([page.waitForURL(`${REDIRECT_URI}**`), page.getByRole('button', { name: 'Sign in' }).click()]);
        const tokens = await oidc.authorizationCodeGrant(isolated, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: state }, { resource: managementApi });
        return { notice, claims: decodeJwt(tokens.access_token).payload };
      };

      const north = await signIn('north', PASSWORD);
      expect(north.notice).toBeNull();
      expect(north.claims.sub).toBe(users['North']);
      const south = await signIn('south', 'Other-Horse-7');
      expect(south.notice).toContain('cannot be used for South');
      expect(south.claims.sub).toBe(users['South']);
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

