import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { customDomainsOf, idTokenAt, inSignInPage, NORTH_HOST, scopesOf, startSignIn, startSurfaces, SURFACES, userOf, type BrowserSurface, type SurfaceName } from '../support/browser-surfaces.ts';
import { cspViolationsOf, expectAccessible, launchChromium, startClientCallback, type ClientCallback } from '../support/chromium.ts';
import { LOOPBACK_UPSTREAMS, TestIdp } from '../support/saml-idp.ts';
import { passwordProviderId } from '../support/auth-providers.ts';

/**
 * SAML sign-in in a real browser (Debian's Chromium), on the shared surface, a tenant's surface and its custom domain,
 * each scope with its own SAML provider and test IdP on loopback (its SSO URL allowed by
 * GATEHOUSE_ALLOW_LOOPBACK_UPSTREAMS). SP-initiated: the hosted page's button, the IdP's page whose form posts a signed
 * response to the ACS, and back to the client with a code. IdP-initiated: the IdP's page posts an unsolicited
 * response, the browser lands on the application's login URL, and the sign-in the application starts there asks
 * "Continue as …?" and completes with one click. Screenshots: test-results/hosted-saml-*.png.
 */
let clientSide: ClientCallback;
let app: TestApp;
let surfaces: Record<SurfaceName, BrowserSurface>;
let browser: Browser;
/** Each scope's IdP and SAML provider, by the scope's path. */
const scopes = new Map<string, { idp: TestIdp; ssoUrl: string; id: string; acsUrl: string; metadataUrl: string }>();
/** The e-mail the IdPs' next response names. */
let signingIn = '';
/** The provider's `idpInitiatedLoginUrl`: the application's page that starts a sign-in (the test's client server). */
let loginUrl: string;

beforeAll(async () => {
  clientSide = await startClientCallback();
  loginUrl = clientSide.redirectUri.replace(/\/callback$/, '/login');
  app = await startTestApp({ upstreams: LOOPBACK_UPSTREAMS }, { reachablePublicUrl: true });
  surfaces = await startSurfaces(app, clientSide.redirectUri);
  for (const { admin, scopePath } of scopesOf(surfaces)) {
    // SAML only: the application's password provider off (North has no provider of its own besides).
    if (scopePath === '') expect((await admin.patch(`/auth-providers/${await passwordProviderId(admin)}`, { enabled: false })).status).toBe(200);
    const idp = new TestIdp();
    // The provider's URLs are known once it is created, after the IdP's SSO URL it names.
    const ssoUrl = await idp.serve((request) => {
      const { metadataUrl } = scopes.get(scopePath)!;
      return idp.response({ acsUrl: request.acsUrl, audience: metadataUrl, email: signingIn, ...(request.id === undefined ? {} : { inResponseTo: request.id }) });
    });
    const created = await admin.post(`${scopePath}/auth-providers`, {
      type: 'saml',
      name: 'Corp SSO',
      config: { entityId: idp.entityId, ssoUrl, certificate: idp.certificate, idpInitiatedLoginUrl: loginUrl, sloUrl: ssoUrl.replace(/\/sso$/, '/slo') },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    scopes.set(scopePath, { idp, ssoUrl, id: created.body.id as string, acsUrl: created.body.acsUrl as string, metadataUrl: created.body.metadataUrl as string });
  }
  browser = await launchChromium({ customDomains: customDomainsOf(app) });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  for (const { idp } of scopes.values()) await idp.close();
  await clientSide?.close();
  await app?.close();
});

const atClient = (page: Page) => page.waitForURL(`${clientSide.redirectUri}**`);

describe.each(SURFACES)('SAML sign-in in Chromium on %s', (name) => {
  const surface = () => surfaces[name];
  const scope = () => scopes.get(surface().scopePath)!;
  const index = SURFACES.indexOf(name);

  /** A new user of the scope, whom the IdP's next response names; its id. */
  async function nextUser(who: string): Promise<string> {
    signingIn = `${who}.${index}@saml.test`;
    return userOf(surface(), signingIn);
  }

  it('SP-initiated: the provider’s button, the IdP’s form posting the signed response, and back at the client signed in', async () => {
    const userId = await nextUser('sam');
    await inSignInPage(browser, surface(), clientSide.redirectUri, async (page, request) => {
      expect(new URL(page.url()).pathname).toMatch(/\/interaction\//);
      // SAML only: no password form, one link naming the provider.
      expect(await page.locator('input[name="password"]').count()).toBe(0);
      await expectAccessible(page, 'sign-in with a SAML link', `hosted-saml-${index}`);
      await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
      // The IdP's page (the AuthnRequest went there by the HTTP-Redirect binding).
      await page.getByRole('button', { name: 'Continue as the test IdP' }).waitFor();
      expect(page.url().startsWith(`${scope().ssoUrl}?SAMLRequest=`)).toBe(true);
      await Promise.all([atClient(page), page.getByRole('button', { name: 'Continue as the test IdP' }).click()]);
      expect(await page.textContent('body')).toBe('back at the client');
      expect(await idTokenAt(surface(), page, request)).toMatchObject({ sub: userId, iss: surface().config.serverMetadata().issuer });

      // Signing out goes through the IdP's single logout and back to the signed-out page.
      const { issuer } = surface().config.serverMetadata();
      await page.goto(`${issuer}/oauth2/logout?${new URLSearchParams({ client_id: surface().config.clientMetadata().client_id })}`);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'You are signed out' }).waitFor();
      expect(scope().idp.logoutsSeen.length).toBeGreaterThan(0);
    });
  });

  it('another account signing in on the browser: the first is signed out at its IdP on the way (single logout), then the sign-in completes for the second', async () => {
    const firstId = await nextUser('fay');
    await inSignInPage(browser, surface(), clientSide.redirectUri, async (page, request) => {
      await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
      await Promise.all([atClient(page), page.getByRole('button', { name: 'Continue as the test IdP' }).click()]);
      expect(await idTokenAt(surface(), page, request)).toMatchObject({ sub: firstId });

      const secondId = await nextUser('gus');
      const logouts = scope().idp.logoutsSeen.length;
      const again = await startSignIn(surface(), page, clientSide.redirectUri, { prompt: 'login' });
      await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
      // The OP's own form signs the first out, the browser goes through the IdP's /slo and back to the resume.
      await Promise.all([atClient(page), page.getByRole('button', { name: 'Continue as the test IdP' }).click()]);
      expect(await idTokenAt(surface(), page, again)).toMatchObject({ sub: secondId });
      expect(scope().idp.logoutsSeen.length).toBe(logouts + 1);
    });
  });

  // The unsolicited response's proof is a cookie of the ACS's host: for the custom domain, the IdP posts to the domain's own.
  it('IdP-initiated: the unsolicited response, the application’s login URL, and its sign-in completed by one click on “Continue as …”', async () => {
    const userId = await nextUser('ida');
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const csp = cspViolationsOf(page);
      const acs = name === 'a custom domain' ? `http://${NORTH_HOST}/saml/${scope().id}/acs` : scope().acsUrl;
      await page.goto(`${new URL(scope().ssoUrl).origin}/start?${new URLSearchParams({ acs })}`);
      await Promise.all([page.waitForURL(loginUrl), page.getByRole('button', { name: 'Continue as the test IdP' }).click()]);
      const request = await startSignIn(surface(), page, clientSide.redirectUri);
      await page.getByRole('heading', { name: `Continue as ${signingIn}?` }).waitFor();
      await expectAccessible(page, 'IdP-initiated confirmation', `hosted-saml-confirm-${index}`);
      await Promise.all([atClient(page), page.getByRole('button', { name: `Continue as ${signingIn}` }).click()]);
      expect(await idTokenAt(surface(), page, request)).toMatchObject({ sub: userId, iss: surface().config.serverMetadata().issuer });
      expect(csp).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
