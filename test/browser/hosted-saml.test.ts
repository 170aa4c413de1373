import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { launchChromium, startClientCallback, type ClientCallback } from '../support/chromium.ts';
import { authorizationRequest, createTestClient, decodeJwt, discover } from '../support/oauth.ts';
import { TestIdp } from '../support/saml-idp.ts';

/**
 * SAML sign-in in a real browser (Debian's Chromium): the hosted page's button, the test IdP's page on loopback (its
 * SSO URL, allowed by GATEHOUSE_ALLOW_LOOPBACK_UPSTREAMS) whose form posts a signed response to the ACS, and back to
 * the client with a code. Screenshot: test-results/hosted-saml.png.
 */
let clientSide: ClientCallback;
let app: TestApp;
let issuer: string;
let config: oidc.Configuration;
let browser: Browser;
let userId: string;
const idp = new TestIdp();
/** The SAML provider, whose URLs the IdP's responses name (known once it is created, after the IdP's SSO URL). */
let provider: { acsUrl: string; metadataUrl: string } | undefined;

beforeAll(async () => {
  clientSide = await startClientCallback();
  app = await startTestApp({ upstreams: { allowLoopback: true, githubUrl: 'https://github.com', githubApiUrl: 'https://api.github.com' } }, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  const client = await createTestClient(app, { type: 'web', redirectUris: [clientSide.redirectUri] });
  config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  const ssoUrl = await idp.serve((request) => idp.response({ acsUrl: provider!.acsUrl, audience: provider!.metadataUrl, email: 'sam@saml.test', inResponseTo: request.id }));
  const created = await app.http.post('/auth-providers', { type: 'saml', name: 'Corp SSO', config: { entityId: idp.entityId, ssoUrl, certificate: idp.certificate } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  provider = created.body as { acsUrl: string; metadataUrl: string };
  userId = await app.createUser('sam@saml.test');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await idp.close();
  await clientSide?.close();
  await app?.close();
});

describe('SAML sign-in in Chromium', () => {
  it('the provider’s button, the IdP’s form posting the signed response, and back at the client signed in', async () => {
    const { url, verifier, state } = await authorizationRequest(config, { redirectUri: clientSide.redirectUri, resource: '' }, { scope: 'openid email' });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await page.goto(url.href);
      expect(new URL(page.url()).pathname).toMatch(/^\/interaction\//);
      // SAML only: no password form, one link naming the provider.
      expect(await page.locator('input[name="password"]').count()).toBe(0);
      await page.screenshot({ path: 'test-results/hosted-saml.png', fullPage: true });
      await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
      // The IdP's page (the AuthnRequest went there by the HTTP-Redirect binding).
      await page.getByRole('button', { name: 'Continue as the test IdP' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/sso');
      await Promise.all([page.waitForURL(`${clientSide.redirectUri}**`), page.getByRole('button', { name: 'Continue as the test IdP' }).click()]);
      expect(await page.textContent('body')).toBe('back at the client');
      const callback = new URL(page.url());
      const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
      expect(decodeJwt(tokens.id_token!).payload).toMatchObject({ sub: userId, iss: issuer });
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
