import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import type { TestApp } from './app.ts';
import { CookieJar } from './cookie-jar.ts';
import { addDomain } from './domains.ts';
import { fetchVia, type FetchLike } from './host-fetch.ts';
import { HttpClient } from './http.ts';
import { createPasswordUser } from './users.ts';
import { authorizationRequest, basicAuth, createTestClient, discoverSurface, redeemAfter, startAuthorization, type TestClient } from './oauth.ts';

/**
 * A new application of `app` with `authIsolation = isolated`, whose users sign in through the hosted form on any of
 * its surfaces (the service's, a tenant's path, a custom domain reached through the service's port), for the suites
 * that ask what a surface's tokens are worth once its slug or hostname has passed to another tenant. Every app of
 * these suites has a reachable public URL.
 */
export interface IsolatedApplication {
  readonly application: BootstrapResult;
  /** The application's API, with its admin key. */
  readonly admin: HttpClient;
  /** A confidential web client of the application. */
  readonly client: TestClient;
  readonly service: string;
  /** Every request of these suites goes through it: a custom domain is its Host header. */
  readonly via: FetchLike;
  /** A tenant with `slug` and a user `email` in its pool (the test password); the tenant's id. */
  tenantWithUser(slug: string, email: string): Promise<string>;
  /** Verifies `hostname` for the tenant (or, without one, the application); the domain's id. */
  addDomain(hostname: string, tenantId?: string): Promise<string>;
  /**
   * Signs `email` in at `issuer` (`tenant` names one where the surface fixes none) with `offline_access`, for the
   * management API: its JWT access token, its refresh token and the browser (its session at `issuer`).
   */
  signIn(issuer: string, email: string, tenant?: string): Promise<{ accessToken: string; refreshToken: string; jar: CookieJar }>;
  /** `grant_type=refresh_token` at `issuer`'s token endpoint, the web client authenticating: the status and body. */
  refresh(issuer: string, refreshToken: string): Promise<{ status: number; body: Record<string, unknown> }>;
  /** `prompt=none` at `issuer` in `jar`: `code` when the browser's session there signs the user in, else the OIDC error. */
  silently(issuer: string, jar: CookieJar, tenant?: string): Promise<string>;
  /** RFC 7662 at `issuer`, the web client authenticating. */
  introspect(issuer: string, token: string): Promise<Record<string, unknown>>;
  /** The slug of a tenant changed (200 expected). */
  rename(tenantId: string, slug: string): Promise<void>;
  deleteDomain(domainId: string, tenantId?: string): Promise<void>;
}

export const SURFACE_PASSWORD = 'Correct-Horse-9';

/** Another application of `app` with tenants North and South, each signing in on its own (`authIsolation = isolated`, plus `tenancyConfig`). */
export async function isolatedNorthSouth(app: TestApp, tenancyConfig: Record<string, unknown> = {}) {
  const application = await app.bootstrapAnother();
  const admin = new HttpClient(app.baseUrl, { apiKey: application.apiKey });
  const appPath = `/applications/${application.applicationId}`;
  const north = await app.createTenant('North', application);
  const south = await app.createTenant('South', application);
  expect((await admin.patch(appPath, { tenancyConfig: { authIsolation: 'isolated', ...tenancyConfig } })).status).toBe(200);
  return { application, admin, appPath, north, south };
}

/**
 * The e-mail sign-in suites' isolated North and South: each tenant's own `providers`, hal@example.com (the test
 * password) in both, a web client, North verified on `northHost`; `discoverAt` sees a surface as that client.
 */
export async function mailSignInTenants(app: TestApp, providers: { north: readonly object[]; south: readonly object[] }, northHost: string) {
  const tenants = await isolatedNorthSouth(app);
  const { application, admin, appPath, north, south } = tenants;
  for (const [tenant, bodies] of [[north, providers.north], [south, providers.south]] as const) {
    for (const body of bodies) {
      const created = await admin.post(`${appPath}/tenants/${tenant}/auth-providers`, body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
  }
  for (const tenant of [north, south]) await createPasswordUser(admin, 'hal@example.com', `${appPath}/tenants/${tenant}/users`);
  const client = await createTestClient(app, { type: 'web', applicationId: application.applicationId, redirectUris: [REDIRECT_URI] });
  await addDomain(app, { apiKey: application.apiKey, applicationId: application.applicationId, tenantId: north }, northHost);
  return { ...tenants, via: fetchVia(app.baseUrl), discoverAt: (at: string, fetchWith?: FetchLike) => discoverSurface(at, client, fetchWith) };
}
const REDIRECT_URI = 'https://app.example/callback';

export async function isolatedApplication(app: TestApp): Promise<IsolatedApplication> {
  const service = app.gatehouse.services.config.publicUrl;
  const managementApi = `${service}/api/v1`;
  const via = fetchVia(app.baseUrl);
  const application = await app.bootstrapAnother();
  const admin = new HttpClient(app.baseUrl, { apiKey: application.apiKey });
  const appPath = `/applications/${application.applicationId}`;
  expect((await admin.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
  const client = await createTestClient(app, { type: 'web', applicationId: application.applicationId, redirectUris: [REDIRECT_URI] });
  const tenantPath = (tenantId?: string) => `${appPath}${tenantId === undefined ? '' : `/tenants/${tenantId}`}`;
  return {
    application,
    admin,
    client,
    service,
    via,
    async tenantWithUser(slug, email) {
      const tenant = await admin.post(`${appPath}/tenants`, { name: `${slug} ${randomUUID().slice(0, 8)}`, slug });
      expect(tenant.status, JSON.stringify(tenant.body)).toBe(201);
      const user = await admin.post(`${tenantPath(tenant.body.id)}/users`, { email, password: SURFACE_PASSWORD });
      expect(user.status, JSON.stringify(user.body)).toBe(201);
      return tenant.body.id as string;
    },
    addDomain: (hostname, tenantId) =>
      addDomain(app, { apiKey: application.apiKey, applicationId: application.applicationId, ...(tenantId === undefined ? {} : { tenantId }) }, hostname),
    async signIn(issuer, email, tenant) {
      const config = await discoverSurface(issuer, client, via);
      const parameters = { scope: 'openid offline_access', prompt: 'consent', ...(tenant === undefined ? {} : { tenant }) };
      const flow = await startAuthorization(config, { redirectUri: REDIRECT_URI, resource: managementApi }, parameters, new CookieJar(via));
      expect(flow.page.status, flow.page.body.slice(0, 300)).toBe(200);
      const tokens = await redeemAfter(config, flow, await flow.jar.submit(flow.page, { email, password: SURFACE_PASSWORD }), managementApi);
      expect(tokens.refresh_token).toEqual(expect.any(String));
      return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token!, jar: flow.jar };
    },
    async refresh(issuer, refreshToken) {
      const answer = await via(`${issuer}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(client.clientId, client.clientSecret!) },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
      });
      return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
    },
    async silently(issuer, jar, tenant) {
      const config = await discoverSurface(issuer, client, via);
      const parameters = { prompt: 'none', ...(tenant === undefined ? {} : { tenant }) };
      const { url } = await authorizationRequest(config, { redirectUri: REDIRECT_URI, resource: managementApi }, parameters);
      const out = await jar.followOut(await jar.visit(url.href), issuer);
      return out.searchParams.get('code') === null ? (out.searchParams.get('error') ?? 'no answer') : 'code';
    },
    async introspect(issuer, token) {
      const answer = await via(`${issuer}/oauth2/introspect`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(client.clientId, client.clientSecret!) },
        body: new URLSearchParams({ token }).toString(),
      });
      expect(answer.status).toBe(200);
      return (await answer.json()) as Record<string, unknown>;
    },
    async rename(tenantId, slug) {
      expect((await admin.patch(tenantPath(tenantId), { slug })).status).toBe(200);
    },
    async deleteDomain(domainId, tenantId) {
      expect((await admin.delete(`${tenantPath(tenantId)}/domains/${domainId}`)).status).toBe(204);
    },
  };
}
