import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { customDomainsOf, idTokenAt, scopesOf, startSignIn, startSurfaces, SURFACES, type BrowserSurface, type SurfaceName } from '../support/browser-surfaces.ts';
import { cspViolationsOf, expectAccessible, launchChromium, startClientCallback, type ClientCallback } from '../support/chromium.ts';
import { freePort } from '../support/spawned-service.ts';
import { startGitHub, startUpstreamIdp, type TestGitHub, type TestUpstream } from '../support/upstream-idp.ts';

/**
 * Chromium signs new users in through an upstream OpenID provider (a second oidc-provider, on loopback) and through a
 * GitHub-shaped OAuth 2.0 upstream (no OIDC), on the shared surface, a tenant's surface and its custom domain: the
 * hosted page's provider link, the upstream's authorization, Gatehouse's callback on the surface's host, and back at
 * the client with a code whose tokens name the user the sign-in created. Screenshots: test-results/hosted-social-*.png.
 */
const UPSTREAM_SECRET = 'browser-upstream-secret';

let clientSide: ClientCallback;
let app: TestApp;
let surfaces: Record<SurfaceName, BrowserSurface>;
let idp: TestUpstream;
let github: TestGitHub;
let browser: Browser;

beforeAll(async () => {
  clientSide = await startClientCallback();
  github = await startGitHub();
  const idpPort = await freePort();
  app = await startTestApp({ upstreams: { allowLoopback: true, allowPrivateHosts: false, githubUrl: github.url, githubApiUrl: github.url } }, { reachablePublicUrl: true });
  surfaces = await startSurfaces(app, clientSide.redirectUri);
  /** The upstream OpenID provider's callbacks, registered there: each scope's provider's, and the custom domain's own. */
  const callbacks: string[] = [];
  for (const { admin, scopePath } of scopesOf(surfaces)) {
    const oidcUpstream = await admin.post(`${scopePath}/auth-providers`, {
      type: 'oauth',
      name: 'Example ID',
      config: { provider: 'generic', clientId: 'gatehouse', issuer: `http://127.0.0.1:${idpPort}` },
      secrets: { clientSecret: UPSTREAM_SECRET },
    });
    expect(oidcUpstream.status, JSON.stringify(oidcUpstream.body)).toBe(201);
    callbacks.push(oidcUpstream.body.callbackUrl as string);
    if (scopePath === surfaces['a custom domain'].scopePath) callbacks.push(`${surfaces['a custom domain'].config.serverMetadata().issuer}/auth/callback/${oidcUpstream.body.id as string}`);
    const gitHub = await admin.post(`${scopePath}/auth-providers`, { type: 'oauth', config: { provider: 'github', clientId: github.clientId }, secrets: { clientSecret: github.clientSecret } });
    expect(gitHub.status, JSON.stringify(gitHub.body)).toBe(201);
  }
  idp = await startUpstreamIdp({ port: idpPort, clientSecret: UPSTREAM_SECRET, redirectUris: callbacks });
  mkdirSync('test-results', { recursive: true });
  browser = await launchChromium({ customDomains: customDomainsOf(app) });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await idp?.close();
  await github?.close();
  await clientSide?.close();
});

describe.each(SURFACES)('social sign-in in Chromium on %s', (name) => {
  const surface = () => surfaces[name];
  const index = SURFACES.indexOf(name);

  /** Signs in through the provider's link on the surface's page; the ID token's claims and the user the scope lists for `email`. */
  async function signInThrough(provider: string, email: string) {
    const context = await browser.newContext();
    try {
      const page: Page = await context.newPage();
      const csp = cspViolationsOf(page);
      const request = await startSignIn(surface(), page, clientSide.redirectUri);
      expect(new URL(page.url()).pathname).toMatch(/\/interaction\/[\w-]+$/);
      await expectAccessible(page, 'sign-in with upstream links', `hosted-social-${index}`);
      await Promise.all([page.waitForURL(`${clientSide.redirectUri}**`), page.getByRole('link', { name: `Sign in with ${provider}` }).click()]);
      expect(await page.textContent('body')).toBe('back at the client');
      const claims = await idTokenAt(surface(), page, request);
      expect(csp).toEqual([]);
      const users = (await surface().admin.get(`${surface().scopePath}/users?email=${encodeURIComponent(email)}`)).body.data as { id: string; name: string | null }[];
      expect(users).toHaveLength(1);
      expect(claims).toMatchObject({ sub: users[0]!.id, iss: surface().config.serverMetadata().issuer });
      return users[0]!;
    } finally {
      await context.close();
    }
  }

  it('signs a new user in through the upstream OpenID provider’s link', async () => {
    idp.login = { sub: `upstream-zoe-${index}`, email: `zoe.${index}@example.com`, email_verified: true, name: 'Zoe' };
    expect(await signInThrough('Example ID', `zoe.${index}@example.com`)).toMatchObject({ name: 'Zoe' });
  });

  it('signs a new user in through the GitHub-shaped OAuth 2.0 upstream, by its primary verified e-mail', async () => {
    github.user = { id: 4242 + index, login: `octocat${index}`, name: 'The Octocat' };
    github.emails = [
      { email: `octo.other.${index}@example.com`, primary: false, verified: true },
      { email: `octo.${index}@example.com`, primary: true, verified: true },
    ];
    await signInThrough('GitHub', `octo.${index}@example.com`);
  });
});
