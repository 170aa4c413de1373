import type { Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSampleApp } from '../../examples/express-app/app.ts';
import { DEMO_EMAIL, setUp, type SetupResult } from '../../examples/express-app/setup.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { launchChromium } from '../support/chromium.ts';
import { freePort } from '../support/spawned-service.ts';

/**
 * README's quick start, end to end: setup.ts configures the application through the typed client, the Express sample
 * signs a user in through the hosted page in Chromium, shows who and in which tenant, and its API route verifies the
 * access token with jose. Screenshot: test-results/quick-start.png.
 */
let app: TestApp;
let sample: Server;
let appUrl: string;
let setup: SetupResult;
let browser: Browser;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  setup = await setUp({ gatehouseUrl: app.gatehouse.services.config.publicUrl, apiKey: app.root.apiKey, appUrl });
  const express = await createSampleApp(setup.config);
  sample = await new Promise<Server>((resolve) => {
    const server = express.listen(port, '127.0.0.1', () => resolve(server));
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (sample === undefined ? resolve(undefined) : sample.close(resolve)));
  await app?.close();
});

/** From the sample's home page through Gatehouse's hosted sign-in, back to the sample signed in. */
async function signIn(page: Page, email: string, password: string) {
  await page.goto(appUrl);
  await Promise.all([page.waitForURL(/\/interaction\//), page.getByRole('link', { name: 'Sign in with Gatehouse' }).click()]);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await Promise.all([page.waitForURL(`${appUrl}/`), page.getByRole('button', { name: 'Sign in' }).click()]);
}

describe('quick start: the Express sample', () => {
  it('signs the user in through Gatehouse, shows who and in which tenant, and calls its API with the access token', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await signIn(page, DEMO_EMAIL, setup.user.password!);
      expect(await page.locator('#who').textContent()).toBe(`Signed in as ${DEMO_EMAIL} (user ${setup.user.id})`);
      expect(await page.locator('#tenant').textContent()).toBe(`Tenant: acme (${setup.tenantId})`);
      await page.screenshot({ path: 'test-results/quick-start.png', fullPage: true });

      await Promise.all([page.waitForURL(`${appUrl}/notes`), page.getByRole('link', { name: 'Call the notes API' }).click()]);
      expect(await page.locator('#status').textContent()).toBe('The API answered 200');
      expect(JSON.parse((await page.locator('#answer').textContent()) ?? '')).toEqual({
        notes: [{ id: 1, text: 'Hello from the notes API' }],
        user: setup.user.id,
        tenant: setup.tenantId,
        permissions: ['notes:read'],
      });
    } finally {
      await context.close();
    }
  });

  it('signing out of the sample ends Gatehouse’s session too: back at the sample, the next sign-in asks for the password', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await signIn(page, DEMO_EMAIL, setup.user.password!);
      const before = await context.cookies(appUrl);
      // Gatehouse asks before it ends its session (RP-initiated logout), then returns to the registered URI.
      await Promise.all([page.waitForURL(/\/oauth2\/logout\?/), page.getByRole('button', { name: 'Sign out' }).click()]);
      await Promise.all([page.waitForURL(`${appUrl}/`), page.getByRole('button', { name: 'Sign out' }).click()]);
      expect(await page.getByText('Not signed in.').count()).toBe(1);
      expect(await context.cookies(appUrl)).not.toContainEqual(before.find((cookie) => cookie.name === 'sample_session'));

      await Promise.all([page.waitForURL(/\/interaction\//), page.getByRole('link', { name: 'Sign in with Gatehouse' }).click()]);
      expect(await page.getByLabel('Password').count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('a session id planted before the sign-in is not the signed-in one (session fixation), and signing out without a session stays at the sample', async () => {
    const planted = (await fetch(appUrl, { redirect: 'manual' })).headers.get('set-cookie')!.split(';')[0]!;
    const context = await browser.newContext();
    try {
      const [name, value] = planted.split('=') as [string, string];
      await context.addCookies([{ name, value, url: appUrl }]);
      const page = await context.newPage();
      await signIn(page, DEMO_EMAIL, setup.user.password!);
      const signedIn = (await context.cookies(appUrl)).find((cookie) => cookie.name === 'sample_session');
      expect(signedIn?.value).toMatch(/^[\w-]+$/);
      expect(signedIn?.value).not.toBe(value);
      // The planted id knows nothing of the sign-in.
      expect(await (await fetch(appUrl, { headers: { cookie: planted } })).text()).toContain('Not signed in.');
    } finally {
      await context.close();
    }
    const anonymous = await fetch(`${appUrl}/logout`, { method: 'POST', redirect: 'manual' });
    expect([anonymous.status, anonymous.headers.get('location')]).toEqual([302, '/']);
  });

  it('a sign-in that comes back with an error (cancelled: access_denied) or an answer that does not check out: a plain page to try again, no stack trace', async () => {
    /** /login's redirect: the session cookie and the state the callback must carry. */
    const started = async () => {
      const login = await fetch(`${appUrl}/login`, { redirect: 'manual' });
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
      return { cookie, state: new URL(login.headers.get('location')!).searchParams.get('state')! };
    };
    const callback = async (cookie: string, query: Record<string, string>) => {
      const answer = await fetch(`${appUrl}/callback?${new URLSearchParams(query).toString()}`, { headers: { cookie }, redirect: 'manual' });
      return { status: answer.status, body: await answer.text() };
    };
    const issuer = app.gatehouse.services.config.publicUrl;
    const cancelled = await started();
    const cancel = await callback(cancelled.cookie, { error: 'access_denied', error_description: 'End-User aborted interaction', state: cancelled.state, iss: issuer });
    expect(cancel.status).toBe(400);
    expect(cancel.body).toContain('<h1>Sign-in cancelled</h1><p id="reason">The sign-in was cancelled or refused.</p><p><a href="/login">Try again</a></p>');
    // Used once: the same answer again is no sign-in started here.
    expect((await callback(cancelled.cookie, { error: 'access_denied', state: cancelled.state, iss: issuer })).body).toContain('No sign-in was started here.');

    const refused = await started();
    const error = await callback(refused.cookie, { error: 'server_error', state: refused.state, iss: issuer });
    expect([error.status, error.body]).toEqual([400, expect.stringContaining('The sign-in did not complete. Gatehouse answered server_error.</p><p><a href="/login">Try again</a>')]);
    // Without the issuer Gatehouse names (RFC 9207), as a hand-made URL: the answer does not check out.
    const forged = await started();
    const unchecked = await callback(forged.cookie, { error: 'access_denied', state: forged.state });
    expect([unchecked.status, unchecked.body]).toEqual([400, expect.stringContaining('The sign-in did not complete. Its answer could not be checked.')]);
    for (const body of [cancel.body, error.body, unchecked.body]) {
      expect(body).not.toMatch(/ at |node_modules|\.ts:\d/);
    }
  });

  it('its API refuses a request without a token, with a token for another audience, and a user without the permission', async () => {
    const notes = (authorization?: string) => fetch(`${appUrl}/api/notes`, authorization === undefined ? {} : { headers: { authorization } });
    expect((await notes()).status).toBe(401);
    expect((await notes('Bearer not-a-jwt')).status).toBe(401);
    // Signed by Gatehouse for the same user, but for the management API: another audience.
    const managementToken = await app.mintAccessToken({ sub: setup.user.id, app_id: app.root.applicationId, tenant_id: setup.tenantId });
    const otherAudience = await notes(`Bearer ${managementToken}`);
    expect(otherAudience.status).toBe(401);
    expect(await otherAudience.json()).toEqual({ error: 'invalid access token: ERR_JWT_CLAIM_VALIDATION_FAILED' });

    // A member of the tenant who does not hold the role: signed in, but the token carries no notes:read.
    const password = 'Another-Horse-8';
    const created = await app.http.post(`/applications/${app.root.applicationId}/tenants/${setup.tenantId}/users`, { email: 'reader-not@example.com', password });
    expect(created.status).toBe(201);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await signIn(page, 'reader-not@example.com', password);
      expect(await page.locator('#tenant').textContent()).toBe(`Tenant: acme (${setup.tenantId})`);
      await Promise.all([page.waitForURL(`${appUrl}/notes`), page.getByRole('link', { name: 'Call the notes API' }).click()]);
      expect(await page.locator('#status').textContent()).toBe('The API answered 403');
      expect(JSON.parse((await page.locator('#answer').textContent()) ?? '')).toEqual({ error: 'the token lacks notes:read' });
    } finally {
      await context.close();
    }
  });

  it('setup runs again on the same application: it reuses what exists, the client too, whose secret it renews', async () => {
    const again = await setUp({ gatehouseUrl: app.gatehouse.services.config.publicUrl, apiKey: app.root.apiKey, appUrl });
    expect(again.tenantId).toBe(setup.tenantId);
    expect(again.user).toEqual({ id: setup.user.id, email: DEMO_EMAIL, password: undefined });
    expect(again.config.clientId).toBe(setup.config.clientId);
    const samples = (await app.http.get('/oauth-clients?pageSize=100')).body.data.filter((client: { name: string }) => client.name === 'Express sample');
    expect(samples).toHaveLength(1);
    // The token endpoint tells a known secret (the code is refused: invalid_grant) from a stale one (invalid_client).
    const redeem = async (secret: string) => {
      const answer = await fetch(`${app.gatehouse.services.config.publicUrl}/oauth2/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${again.config.clientId}:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: 'not-a-code', redirect_uri: `${appUrl}/callback` }),
      });
      return ((await answer.json()) as { error: string }).error;
    };
    expect(await redeem(again.config.clientSecret)).toBe('invalid_grant');
    expect(await redeem(setup.config.clientSecret)).toBe('invalid_client');
  });
});
