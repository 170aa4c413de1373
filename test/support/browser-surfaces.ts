import * as oidc from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import { cspViolationsOf, type CustomDomains } from './chromium.ts';
import { addDomain } from './domains.ts';
import { fetchVia } from './host-fetch.ts';
import type { HttpClient } from './http.ts';
import { authorizationRequest, type AuthorizationRequest, createTestClient, decodeJwt, discoverSurface, type TestClient } from './oauth.ts';

/**
 * The three surfaces a hosted sign-in method must work on (issue 22), for the browser suites' `describe.each`: the
 * shared surface (the root application's), a tenant's path surface (`/t/north` of an application with
 * `authIsolation = isolated`) and that tenant's verified custom domain, which Chromium reaches through
 * `launchChromium({ customDomains })`.
 */
export const SURFACES = ['the shared surface', 'a tenant’s surface', 'a custom domain'] as const;
export type SurfaceName = (typeof SURFACES)[number];

export const NORTH_HOST = 'login.north.example';

export interface BrowserSurface {
  /** The test's web client, discovered at the surface's issuer (at the custom domain through the service's port). */
  readonly config: oidc.Configuration;
  /** The API of the scope's application, with its admin key. */
  readonly admin: HttpClient;
  /**
   * The scope's resources' path prefix: '' for the application's (`/auth-providers`, `/users`, `/policies/mfa`), the
   * tenant form `/applications/{id}/tenants/{id}` for North's.
   */
  readonly scopePath: string;
}

/** Chromium's mapping of the custom domain onto the test service. */
export const customDomainsOf = (app: TestApp): CustomDomains => ({ hostnames: [NORTH_HOST], service: app.baseUrl });

/**
 * The surfaces, each with a web client redirecting to `redirectUri`: the root application's, and a new isolated
 * application's tenant North with its custom domain. The root application has its password provider and North no
 * provider of its own yet: `scopesOf` lists the scopes.
 */
export async function startSurfaces(app: TestApp, redirectUri: string): Promise<Record<SurfaceName, BrowserSurface>> {
  const issuer = app.gatehouse.services.config.publicUrl;
  const isolated = await app.bootstrapAnother();
  const admin = app.as({ apiKey: isolated.apiKey });
  const appPath = `/applications/${isolated.applicationId}`;
  expect((await admin.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
  const north = await app.createTenant('North', isolated);
  await addDomain(app, { apiKey: isolated.apiKey, applicationId: isolated.applicationId, tenantId: north }, NORTH_HOST);
  const tenantPath = `${appPath}/tenants/${north}`;

  const shared = await createTestClient(app, { type: 'web', redirectUris: [redirectUri] });
  const tenants = await createTestClient(app, { type: 'web', applicationId: isolated.applicationId, redirectUris: [redirectUri] });
  const discoverAt = (at: string, client: TestClient, domain = false) => discoverSurface(at, client, domain ? fetchVia(app.baseUrl) : undefined);
  const inTenant = { admin, scopePath: tenantPath };
  return {
    'the shared surface': { config: await discoverAt(issuer, shared), admin: app.http, scopePath: '' },
    'a tenant’s surface': { config: await discoverAt(`${issuer}/t/north`, tenants), ...inTenant },
    'a custom domain': { config: await discoverAt(`http://${NORTH_HOST}`, tenants, true), ...inTenant },
  };
}

/** Each scope once (the tenant's two surfaces share one), for its providers and policies. */
export const scopesOf = (surfaces: Record<SurfaceName, BrowserSurface>): BrowserSurface[] => [surfaces['the shared surface'], surfaces['a tenant’s surface']];

/** A user of the surface's scope (a member of North on its two surfaces), with `password` when given; its id. */
export async function userOf(surface: BrowserSurface, email: string, password?: string): Promise<string> {
  const created = await surface.admin.post(`${surface.scopePath}/users`, { email, ...(password === undefined ? {} : { password }) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

/** Opens the surface's sign-in page in `page` for an authorization request; what redeems its answer. */
export async function startSignIn(surface: BrowserSurface, page: Page, redirectUri: string, parameters: Record<string, string> = {}): Promise<AuthorizationRequest> {
  const request = await authorizationRequest(surface.config, { redirectUri, resource: '' }, parameters);
  await page.goto(request.url.href);
  return request;
}

/** `run` on a fresh context's page sent to the surface's sign-in (startSignIn); the page must then have broken no CSP. */
export async function inSignInPage(
  browser: Browser,
  surface: BrowserSurface,
  redirectUri: string,
  run: (page: Page, request: AuthorizationRequest) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const csp = cspViolationsOf(page);
    const request = await startSignIn(surface, page, redirectUri);
    await run(page, request);
    expect(csp).toEqual([]);
  } finally {
    await context.close();
  }
}

/** The ID token's claims the code the client got back (the page's URL) redeems for, at the surface's issuer. */
export async function idTokenAt(surface: BrowserSurface, page: Page, request: AuthorizationRequest): Promise<Record<string, unknown>> {
  const tokens = await oidc.authorizationCodeGrant(surface.config, new URL(page.url()), { pkceCodeVerifier: request.verifier, expectedState: request.state });
  return decodeJwt(tokens.id_token!).payload;
}
