import { mkdirSync } from 'node:fs';
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { launchChromium, startClientCallback, type ClientCallback } from '../support/chromium.ts';
import { authorizationRequest, createTestClient, decodeJwt, discover } from '../support/oauth.ts';
import { freePort } from '../support/spawned-service.ts';
import { startUpstreamIdp, type TestUpstream } from '../support/upstream-idp.ts';

/**
 * Chromium signs a new user in through an upstream OpenID provider (a second oidc-provider, on loopback): the hosted
 * page's provider link, the upstream's authorization, Gatehouse's callback, and back at the client with a code whose
 * tokens name the user the sign-in created. Screenshot: test-results/hosted-social.png.
 */
const UPSTREAM_SECRET = 'browser-upstream-secret';

let clientSide: ClientCallback;
let app: TestApp;
let issuer: string;
let config: oidc.Configuration;
let idp: TestUpstream;
let browser: Browser;

beforeAll(async () => {
  clientSide = await startClientCallback();
  const idpPort = await freePort();
  app = await startTestApp({ upstreams: { allowLoopback: true, githubUrl: 'https://github.com', githubApiUrl: 'https://api.github.com' } }, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  const provider = await app.http.post('/auth-providers', {
    type: 'oauth',
    name: 'Example ID',
    config: { provider: 'generic', clientId: 'gatehouse', issuer: `http://127.0.0.1:${idpPort}` },
    secrets: { clientSecret: UPSTREAM_SECRET },
  });
  expect(provider.status).toBe(201);
  idp = await startUpstreamIdp({ port: idpPort, clientSecret: UPSTREAM_SECRET, redirectUris: [provider.body.callbackUrl as string] });
  idp.login = { sub: 'upstream-zoe', email: 'zoe@example.com', email_verified: true, name: 'Zoe' };
  const client = await createTestClient(app, { type: 'web', redirectUris: [clientSide.redirectUri] });
  config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  mkdirSync('test-results', { recursive: true });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await idp?.close();
  await clientSide?.close();
});

describe('social sign-in in Chromium', () => {
  it('signs a new user in through the upstream provider’s link', async () => {
    const resource = `${issuer}/api/v1`;
    const { url, verifier, state } = await authorizationRequest(config, { redirectUri: clientSide.redirectUri, resource });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await page.goto(url.href);
      expect(new URL(page.url()).pathname).toMatch(/^\/interaction\//);
      const link = page.getByRole('link', { name: 'Sign in with Example ID' });
      await page.screenshot({ path: 'test-results/hosted-social.png', fullPage: true });
      await Promise.all([page.waitForURL(`${clientSide.redirectUri}**`), link.click()]);
      expect(await page.textContent('body')).toBe('back at the client');
      const callback = new URL(page.url());
      const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }, { resource });
      const [zoe] = (await app.http.get('/users?email=zoe@example.com')).body.data as { id: string; name: string }[];
      expect(zoe).toMatchObject({ name: 'Zoe' });
      expect(decodeJwt(tokens.access_token).payload['sub']).toBe(zoe!.id);
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
