import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { passwordProviderId } from '../support/auth-providers.ts';
import { fetchVia } from '../support/host-fetch.ts';
import { CookieJar, type Visit } from '../support/cookie-jar.ts';
import { REDIRECT_URI, startHostedTestApp, type HostedTestApp } from '../support/hosted-app.ts';
import { secondInstance, settled, TWO_INSTANCES } from '../support/second-instance.ts';

/**
 * The hosted pages remember each surface's settings (src/domain/sign-in/surface-settings.ts: branding, names, auth providers,
 * lockout policy). The cache lives a minute here, so a page that shows a change right after it can only owe it to an
 * invalidation: every change of the tenancy engine evicts what it governs, on this instance and, through Redis, on the
 * others.
 */
const CACHE_MS = 60_000;
const PASSWORD = 'Cache-Test-Password-9';

let hosted: HostedTestApp;
let app: TestApp;
let config: oidc.Configuration;
let appId: string;

beforeAll(async () => {
  hosted = await startHostedTestApp({ surfaceSettingsCacheMs: CACHE_MS });
  ({ app, config } = hosted);
  appId = app.root.applicationId;
});
afterAll(async () => hosted?.close());

/** The hosted sign-in page of a new authorization request, on the service's surface or `baseUrl`'s. */
async function signInPage(parameters: Record<string, string> = {}, baseUrl = app.baseUrl): Promise<{ jar: CookieJar; page: Visit }> {
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
    ...parameters,
  });
  // Another instance is reached as a load balancer reaches it: at the service's public address (its Host).
  const jar = baseUrl === app.baseUrl ? new CookieJar() : new CookieJar(fetchVia(baseUrl));
  const start = await jar.visit(`${app.baseUrl}${url.pathname}${url.search}`);
  expect(start.location, start.body.slice(0, 300)).toMatch(/\/interaction\//);
  // The OP names the service's PUBLIC_URL: the page is read from the same instance, which the cookies do not tell apart.
  const location = new URL(start.location!, app.baseUrl);
  return { jar, page: await jar.visit(`${app.baseUrl}${location.pathname}${location.search}`) };
}

const primaryColor = (page: Visit) => /--gh-primary:(#[0-9a-f]{6})/.exec(page.body)?.[1];

describe('the surface settings cache on one instance', () => {
  it('shows a branding change of the application at once', async () => {
    expect((await app.http.put('/branding', { colors: { primary: '#111111' } })).status).toBe(200);
    expect(primaryColor((await signInPage()).page)).toBe('#111111');
    expect((await app.http.put('/branding', { colors: { primary: '#222222' } })).status).toBe(200);
    expect(primaryColor((await signInPage()).page)).toBe('#222222');
  });

  it('shows a tenant override, its removal and a new tenant name at once, and leaves other tenants as they were', async () => {
    const acme = await app.createTenant('Acme Cache');
    const globex = await app.createTenant('Globex Cache');
    expect((await app.http.patch(`/applications/${appId}`, { tenancyConfig: { brandingScope: 'tenant' } })).status).toBe(200);
    expect(primaryColor((await signInPage({ tenant: acme })).page)).toBe('#222222');
    expect(primaryColor((await signInPage({ tenant: globex })).page)).toBe('#222222');

    const override = await app.http.put(`/applications/${appId}/tenants/${acme}/branding`, { colors: { primary: '#ff0000' } });
    expect(override.status, JSON.stringify(override.body)).toBe(200);
    expect(primaryColor((await signInPage({ tenant: acme })).page)).toBe('#ff0000');
    expect(primaryColor((await signInPage({ tenant: globex })).page)).toBe('#222222');

    expect((await app.http.patch(`/applications/${appId}/tenants/${acme}`, { name: 'Acme Renamed' })).status).toBe(200);
    expect((await signInPage({ tenant: acme })).page.body).toContain('Acme Renamed');

    expect((await app.http.delete(`/applications/${appId}/tenants/${acme}/branding`)).status).toBe(204);
    expect(primaryColor((await signInPage({ tenant: acme })).page)).toBe('#222222');
    expect((await app.http.patch(`/applications/${appId}`, { tenancyConfig: { brandingScope: 'application' } })).status).toBe(200);
  });

  it('refuses a tenant at once once it is deleted', async () => {
    const initech = await app.createTenant('Initech Cache');
    expect((await signInPage({ tenant: initech })).page.status).toBe(200);
    expect((await app.http.delete(`/applications/${appId}/tenants/${initech}`)).status).toBe(204);
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      tenant: initech,
    });
    const start = await new CookieJar().visit(url.href);
    expect(start.status).toBe(303);
    expect(start.location).toMatch(new RegExp(`^${REDIRECT_URI}\\?error=invalid_request&`));
  });

  it('stops password sign-in at once when the password provider is disabled, and offers it again when enabled', async () => {
    expect((await signInPage()).page.status).toBe(200);
    const provider = await passwordProviderId(app.http);
    try {
      expect((await app.http.patch(`/auth-providers/${provider}`, { enabled: false })).status).toBe(200);
      expect((await signInPage()).page.status).toBe(403);
      expect((await app.http.patch(`/auth-providers/${provider}`, { enabled: true })).status).toBe(200);
      expect((await signInPage()).page.status).toBe(200);
    } finally {
      await app.http.patch(`/auth-providers/${provider}`, { enabled: true });
    }
  });

  it('applies a stricter lockout policy to the next failed sign-in', async () => {
    const created = await app.http.post('/users', { email: 'cached-lockout@example.com', password: PASSWORD });
    expect(created.status).toBe(201);
    const lockout = (maxAttempts: number) => app.http.put('/policies/lockout', { enabled: true, maxAttempts, lockoutMinutes: 5, resetAfterMinutes: 15 });
    const attempt = async () => {
      const { jar, page } = await signInPage();
      return jar.submit(page, { email: 'cached-lockout@example.com', password: 'wrong-password' });
    };
    /** Whether this client's address (127.0.0.1) is locked out of the account. */
    const lockedOut = async () =>
      (
        await app.gatehouse.services.orm.em
          .getConnection()
          .execute<{ locked: boolean }[]>('select locked_at is not null as locked from sign_in_failure where user_id = ?', [created.body.id])
      )[0]?.locked;
    expect((await lockout(10)).status).toBe(200);
    await attempt();
    await attempt();
    expect(await lockedOut()).toBe(false);
    expect((await lockout(3)).status).toBe(200);
    await attempt();
    expect(await lockedOut()).toBe(true);
  });

  it('asks for a password change at the next sign-in once the password policy sets a maxAge, and no more once it is lifted', async () => {
    const created = await app.http.post('/users', { email: 'cached-expiry@example.com', password: PASSWORD });
    expect(created.status).toBe(201);
    await app.gatehouse.services.orm.em
      .getConnection()
      .execute(`update app_user set password_changed_at = now() - interval '3 days' where id = ?`, [created.body.id]);
    const passwordPolicy = (maxAge: number | null) => app.http.put('/policies/password', { maxAge });
    /** Where the login POST sends the browser: the expired password's form, or on to the OP. */
    const signIn = async () => {
      const { jar, page } = await signInPage();
      return (await jar.submit(page, { email: 'cached-expiry@example.com', password: PASSWORD })).location ?? '';
    };
    const onToTheOp = /\/oauth2\/authorize\//;
    expect(await signIn()).toMatch(onToTheOp);
    expect((await passwordPolicy(1)).status).toBe(200);
    expect(await signIn()).toMatch(/\/interaction\/[\w-]+\/password$/);
    expect((await passwordPolicy(null)).status).toBe(200);
    expect(await signIn()).toMatch(onToTheOp);
  });
});

describe.runIf(TWO_INSTANCES)('the surface settings cache across instances (Redis)', () => {
  const second = secondInstance(() => app);

  it('a branding change made on one instance shows on the other, whose cache held the old one', async () => {
    expect((await app.http.put('/branding', { colors: { primary: '#333333' } })).status).toBe(200);
    expect(primaryColor((await signInPage({}, second.url())).page)).toBe('#333333');
    expect((await app.http.put('/branding', { colors: { primary: '#444444' } })).status).toBe(200);
    const color = await settled(async () => primaryColor((await signInPage({}, second.url())).page), (seen) => seen === '#444444');
    expect(color).toBe('#444444');
  });
});
