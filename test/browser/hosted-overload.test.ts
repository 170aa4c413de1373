import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { DEFAULT_BRANDING } from '../../src/domain/branding/branding.ts';
import { PLAIN_LOOK } from '../../src/pages/pages.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { launchChromium } from '../support/chromium.ts';
import { usingEmbeddedDatabase } from '../support/database.ts';
import { authorizationRequest, createTestClient, discover } from '../support/oauth.ts';

/**
 * The hosted pages of an overloaded service (no database connection came free within the pool's wait) in a real
 * browser: the 503 page says so in the browser's language, in the plain look, since the branding is itself read
 * from the database.
 */
const REDIRECT_URI = 'https://app.example/callback';
const BRANDED = { primary: '#c81e1e', background: '#fff5f5', text: '#111111' };

let app: TestApp;
let config: oidc.Configuration;
let browser: Browser;

beforeAll(async () => {
  const quiet = { ...loadConfig({}).email, pollMs: 3_600_000 };
  app = await startTestApp({ databasePoolMax: 1, email: quiet, auditRetentionEveryMs: 0 }, { reachablePublicUrl: true });
  expect((await app.http.put('/branding', { colors: BRANDED, copy: { 'fr:login.title': 'Bienvenue chez Acme' } })).status).toBe(200);
  const client = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
  config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)).join(', ')})`;

// The embedded database's pool waits without a limit (it is in-process): only a database server's times out.
describe.skipIf(usingEmbeddedDatabase())('an overloaded service in Chromium', () => {
  it('a sign-in page reloaded while the pool is held answers 503 in the browser’s language and the plain look', async () => {
    const { url } = await authorizationRequest(config, { redirectUri: REDIRECT_URI, resource: '' });
    const context = await browser.newContext({ locale: 'fr-FR' });
    try {
      const page = await context.newPage();
      await page.goto(url.href);
      expect(new URL(page.url()).pathname).toMatch(/^\/interaction\//);
      // The application's page first: its French copy and its colours.
      expect(await page.locator('h1').textContent()).toBe('Bienvenue chez Acme');
      const background = () => page.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor);
      expect(await background()).toBe(rgb(BRANDED.background));

      // The pool's one connection, held in a transaction for longer than the pool's wait.
      const holder = app.gatehouse.services.orm.em.fork();
      await holder.begin();
      let answer;
      try {
        // The page reads its interaction first, through the OP's storage, which refuses in OAuth's words.
        answer = await page.reload();
      } finally {
        await holder.rollback();
      }
      expect(answer?.status(), await page.content()).toBe(503);
      expect(await answer?.headerValue('retry-after')).toBe('2');
      expect(await page.locator('html').getAttribute('lang')).toBe('fr');
      expect(await page.locator('body').textContent()).toContain('Le service est surchargé. Patientez quelques secondes, puis réessayez.');
      expect(await page.title()).toContain(PLAIN_LOOK.name);
      expect(await page.locator('body').textContent()).not.toContain('Acme');
      expect(await background()).toBe(rgb(DEFAULT_BRANDING.colors.background));
    } finally {
      await context.close();
    }
  }, 60_000);
});
