import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { launchChromium } from '../support/chromium.ts';

/** The GraphQL playground must work with no internet access: every script and style comes from the service. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

describe('GraphiQL', () => {
  it('GraphiQL renders its editor in Chromium without a single request beyond the service', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const outside: string[] = [];
      page.on('request', (request) => {
        const { protocol, hostname } = new URL(request.url());
        if ((protocol === 'http:' || protocol === 'https:' || protocol === 'ws:' || protocol === 'wss:') && hostname !== '127.0.0.1' && hostname !== 'localhost') {
          outside.push(request.url());
        }
      });
      // The page works under its Content-Security-Policy: nothing it does is refused.
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
      });
      page.on('pageerror', (error) => refused.push(error.message));
      const response = await page.goto(`${app.baseUrl}/graphql`, { waitUntil: 'networkidle' });
      expect(response?.headers()['content-security-policy']).toMatch(/script-src 'sha256-/);
      await page.waitForSelector('.graphiql-container .graphiql-query-editor', { timeout: 30_000 });
      expect(await page.locator('.graphiql-query-editor').isVisible()).toBe(true);
      // A query runs against /graphql (no key: the service's refusal is the answer shown; the editor closes the brace).
      await page.locator('.graphiql-query-editor').click();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('{ version');
      await page.keyboard.press('Control+Enter');
      await page.waitForFunction(() => document.querySelector('.graphiql-response')?.textContent?.includes('unauthenticated') === true, undefined, { timeout: 30_000 });
      expect(refused).toEqual([]);
      expect(outside).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
