import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderError } from '../../src/oidc/error-page.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { HttpClient } from '../support/http.ts';
import { codeAuthorizationUrl, createTestClient } from '../support/oauth.ts';

const REDIRECT_URI = 'https://app.example/callback';

let app: TestApp;
let issuer: string;
let clientId: string;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  clientId = (await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] })).clientId;
});
afterAll(async () => app?.close());

const authorizeUrl = (redirectUri: string) =>
  codeAuthorizationUrl(issuer, clientId, redirectUri, { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', state: 'xyz' });

describe("the OP's error page", () => {
  it('meets a redirect URI stored before the rules refused it (a zero-width space in the host): no code goes there', async () => {
    const hidden = 'https://app\u200b.example/callback';
    const { clientId: stored } = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI, 'https://other.example/cb'] });
    await app.gatehouse.services.orm.em.getConnection().execute('update oauth_client set redirect_uris = array[?, ?] where id = ?', [REDIRECT_URI, hidden, stored]);
    const ask = (redirectUri: string) => fetch(codeAuthorizationUrl(issuer, stored, redirectUri, { state: 'xyz' }), { redirect: 'manual', headers: { accept: 'text/html' } });
    const refused = await ask(hidden);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    // The URI beside it still works.
    expect((await ask(REDIRECT_URI)).status).toBe(303);
  });

  it.each([
    ['trailing slash', `${REDIRECT_URI}/`],
    ['case', 'https://APP.example/Callback'],
    ['extra query', `${REDIRECT_URI}?next=1`],
    ['userinfo trick', 'https://app.example@evil.example/callback'],
    ['other port', 'https://app.example:8443/callback'],
  ])('an inexact redirect URI (%s) gets a 400 HTML page with the error, no redirect', async (_case, redirectUri) => {
    const response = await fetch(authorizeUrl(redirectUri), { redirect: 'manual', headers: { accept: 'text/html' } });
    const html = await response.text();
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(html).toMatch(/<html lang="en" dir="ltr">/);
    expect(html).toMatch(/<main>[\s\S]*<h1>[^<]+<\/h1>[\s\S]*<\/main>/);
    expect(html).toContain('<code>invalid_redirect_uri</code>');
    expect(html).toContain('redirect_uri did not match any of the client&#39;s registered redirect_uris');
    expect(html).not.toContain('oidc-provider');
    // Self-contained: no script, no external asset, nothing of the refused URI to follow.
    expect(html).not.toMatch(/<script|<link|https?:\/\//);
  });

  it('escapes every value it shows', () => {
    const ctx = { headers: {} as Record<string, string>, type: '', body: '', set(headers: Record<string, string>) { Object.assign(this.headers, headers); } };
    // The OP calls it with its Koa context; this test needs only what the page writes.
    void renderError(ctx as never, { error: '<b>x</b>', error_description: '"><script>alert(1)</script>' }, new Error('x'));
    expect(ctx.body).not.toMatch(/<script|<b>/);
    expect(ctx.body).toContain('&#60;b&#62;x&#60;/b&#62;');
    expect(ctx.body).toContain('&#34;&#62;&#60;script&#62;');
    expect(ctx.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});

describe('a tenant surface’s authorization endpoint and a client whose stored metadata the OP refuses', () => {
  it('is refused without a redirect, as on the service’s surface, never a 500', async () => {
    const another = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: another.apiKey });
    await app.createTenant('North', another);
    expect((await admin.patch(`/applications/${another.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    // A row stored before the API refused such URIs: oidc-provider refuses a native client's https loopback URI.
    const stale = await createTestClient(app, { type: 'native', authMethod: 'none', applicationId: another.applicationId, redirectUris: ['https://localhost/cb'] });
    for (const base of [issuer, `${issuer}/t/north`, `${issuer}/t/no-such-tenant`]) {
      const response = await fetch(codeAuthorizationUrl(base, stale.clientId, 'https://localhost/cb'), { redirect: 'manual' });
      // A 400 page as the OP answers it on the service's surface (on a tenant path that exists nowhere, its 404).
      expect(response.status, `${base}: ${(await response.text()).slice(0, 300)}`).toBe(base.endsWith('no-such-tenant') ? 404 : 400);
      expect(response.headers.get('location')).toBeNull();
    }
  });
});
