import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderError } from '../../src/oidc/error-page.ts';
import { type TestApp } from '../support/app.ts';
import { CookieJar, type Visit } from '../support/cookie-jar.ts';
import { addDomain } from '../support/domains.ts';
import { hostedPagesOf, REDIRECT_URI, startHostedTestApp, type HostedTestApp } from '../support/hosted-app.ts';
import { expectHostedHeaders } from '../support/hosted-headers.ts';
import { fetchVia } from '../support/host-fetch.ts';
import { HttpClient } from '../support/http.ts';
import { codeAuthorizationUrl, createTestClient, discoverSurface, startAuthorization, type TestClient } from '../support/oauth.ts';


let app: TestApp;
let issuer: string;
let clientId: string;

beforeAll(async () => {
  let client: TestClient;
  ({ app, issuer, client } = await startHostedTestApp());
  clientId = client.clientId;
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

  it('escapes every value it shows', async () => {
    const ctx = { headers: {} as Record<string, string>, type: '', body: '', set(headers: Record<string, string>) { Object.assign(this.headers, headers); } };
    // The OP calls it with its Koa context; this test needs only what the page writes.
    await renderError(ctx as never, { error: '<b>x</b>', error_description: '"><script>alert(1)</script>' }, new Error('x'));
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

describe('a sign-in request reached again once over (Back, an old tab or bookmark, its form posted again)', () => {
  const PASSWORD = 'Correct-Horse-9';
  const EXPIRED = 'This sign-in request has expired or is not valid.';
  let hosted: HostedTestApp;

  beforeAll(async () => {
    hosted = await hostedPagesOf(app);
    expect((await app.http.post('/users', { email: 'back@example.com', password: PASSWORD })).status).toBe(201);
  });

  const uidOf = (page: Visit) => new URL(page.url).pathname.split('/')[2]!;
  /** The interaction ends as an hour without an answer ends it. */
  const expire = (uid: string) =>
    app.gatehouse.services.orm.em.getConnection().execute(`update oidc_model set expires_at = now() - interval '1 second' where model = 'Interaction' and id = ?`, [uid]);
  /** The links a page offers. */
  const links = (html: string) => [...html.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)].map(([, href, label]) => ({ href, label }));
  /** The plain refusal: no way anywhere. */
  const expectDeadEnd = (visit: Visit) => {
    expect(visit.status).toBe(400);
    expect(visit.location).toBeUndefined();
    expect(visit.body).toContain(EXPIRED);
    expect(links(visit.body)).toEqual([]);
  };

  it('the browser that finished it is told it is signed in, with a link to the client; so is its form posted again', async () => {
    const jar = new CookieJar();
    const { flow } = await hosted.signIn({ email: 'back@example.com', password: PASSWORD }, {}, jar);
    const back = await jar.visit(flow.page.url);
    const reposted = await jar.submit(flow.page, { email: 'back@example.com', password: PASSWORD });
    for (const visit of [back, reposted]) {
      expect(visit.status).toBe(400);
      expect(visit.location).toBeUndefined();
      expectHostedHeaders(visit);
      expect(visit.body).toContain('<h1>You are already signed in</h1>');
      expect(visit.body).toContain('This sign-in is complete: you are signed in to test web client.');
      expect(links(visit.body)).toEqual([{ href: 'https://app.example/', label: 'Continue to test web client' }]);
    }
  });

  it('another browser (a bookmark), or one whose request expired, is offered to start again at the client', async () => {
    const { flow } = await hosted.signIn({ email: 'back@example.com', password: PASSWORD });
    const bookmark = await new CookieJar().visit(flow.page.url);
    const { jar, page } = await hosted.signInPage();
    await expire(uidOf(page));
    const expired = await jar.visit(page.url);
    for (const visit of [bookmark, expired]) {
      expect(visit.status).toBe(400);
      expectHostedHeaders(visit);
      expect(visit.body).toContain('<h1>Sign-in is not possible</h1>');
      expect(visit.body).toContain(EXPIRED);
      expect(visit.body).not.toContain('already signed in');
      expect(links(visit.body)).toEqual([{ href: 'https://app.example/', label: 'Go back to test web client and sign in again' }]);
    }
  });

  it('speaks the browser’s language, and the branding’s copy replaces its texts', async () => {
    const { jar, page } = await hosted.signInPage();
    await expire(uidOf(page));
    const german = await jar.visit(page.url, { headers: { 'accept-language': 'de' } });
    expect(german.body).toContain('<html lang="de"');
    expect(links(german.body)).toEqual([{ href: 'https://app.example/', label: 'Zurück zu test web client und erneut anmelden' }]);
    expect((await app.http.put('/branding', { copy: { 'spent.restart': 'Start over at {client}' } })).status).toBe(200);
    try {
      expect(links((await jar.visit(page.url)).body)).toEqual([{ href: 'https://app.example/', label: 'Start over at test web client' }]);
    } finally {
      expect((await app.http.put('/branding', { copy: {} })).status).toBe(200);
    }
  });

  it('a forged or unknown uid gets the plain page, whatever the request names; a real one the way back', async () => {
    const { jar, page } = await hosted.signInPage();
    await expire(uidOf(page));
    expect(links((await jar.visit(page.url)).body)).toHaveLength(1);
    const named = `?redirect_uri=${encodeURIComponent('https://evil.example/')}&client_id=${hosted.client.clientId}`;
    for (const uid of ['no-such-interaction', uidOf(page).replace(/^./, (first) => (first === 'A' ? 'B' : 'A')), '%00', 'a'.repeat(200)]) {
      expectDeadEnd(await jar.visit(`${issuer}/interaction/${uid}${named}`));
      expectDeadEnd(await jar.visit(`${issuer}/interaction/${uid}/login`, { form: { email: 'back@example.com', password: PASSWORD } }));
    }
  });

  it('each uid leads to its own client, and only on the host its sign-in began on', async () => {
    const other = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: ['https://other.example/app/cb', 'https://third.example/cb'] });
    const jar = new CookieJar(fetchVia(app.baseUrl));
    const start = await jar.visit(codeAuthorizationUrl(issuer, other.clientId, 'https://other.example/app/cb'));
    expect(start.location).toMatch(new RegExp(`^${issuer}/interaction/`));
    const uid = new URL(start.location!).pathname.split('/')[2]!;
    await expire(uid);
    expect(links((await jar.visit(start.location!)).body)).toEqual([{ href: 'https://other.example/', label: 'Go back to test spa client and sign in again' }]);
    // Another application's verified domain, on the same service: that application's host serves no sign-in of this one.
    const another = await app.bootstrapAnother();
    await addDomain(app, { apiKey: another.apiKey, applicationId: another.applicationId }, 'login.another.example');
    expectDeadEnd(await jar.visit(`http://login.another.example/interaction/${uid}`));
  });

  it('links to the login URI the client registered, telling it the issuer to sign in at; a native app’s too', async () => {
    const spent = async (body: Record<string, unknown>, redirectUri: string) => {
      const created = await app.http.post('/oauth-clients', { name: 'Shop', ...body, redirectUris: [redirectUri] });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const jar = new CookieJar();
      const start = await jar.visit(codeAuthorizationUrl(issuer, created.body.clientId, redirectUri));
      await expire(new URL(start.location!).pathname.split('/')[2]!);
      return links((await jar.visit(start.location!)).body);
    };
    const iss = encodeURIComponent(issuer);
    expect(await spent({ type: 'spa', initiateLoginUri: 'https://shop.example/login' }, 'https://shop.example/app/cb')).toEqual([
      { href: `https://shop.example/login?iss=${iss}`, label: 'Go back to Shop and sign in again' },
    ]);
    expect(await spent({ type: 'native', initiateLoginUri: 'https://shop.example/ios?app=1' }, 'com.example.shop:/cb')).toEqual([
      { href: `https://shop.example/ios?app=1&#38;iss=${iss}`, label: 'Go back to Shop and sign in again' },
    ]);
  });

  it('on a tenant’s path, whose session cookie is a name of its own: the page tells a signed-in browser so', async () => {
    const another = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: another.apiKey });
    const north = await app.createTenant('North', another);
    expect((await admin.patch(`/applications/${another.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const user = await admin.post(`/applications/${another.applicationId}/tenants/${north}/users`, { email: 'north@example.com', password: PASSWORD });
    expect(user.status, JSON.stringify(user.body)).toBe(201);
    const client = await createTestClient(app, { type: 'web', applicationId: another.applicationId, redirectUris: [REDIRECT_URI] });
    const config = await discoverSurface(`${issuer}/t/north`, client);
    const flow = await startAuthorization(config, { redirectUri: REDIRECT_URI, resource: '' }, {}, new CookieJar());
    expect(flow.page.status, flow.page.body.slice(0, 300)).toBe(200);
    await flow.jar.followOut(await flow.jar.submit(flow.page, { email: 'north@example.com', password: PASSWORD }), issuer);

    // The Back button, and the form posted again: the session, read where the pages are, is said.
    for (const back of [await flow.jar.visit(flow.page.url), await flow.jar.submit(flow.page, { email: 'north@example.com', password: PASSWORD })]) {
      expect(back.status).toBe(400);
      expectHostedHeaders(back);
      expect(back.body).toContain('<h1>You are already signed in</h1>');
      expect(links(back.body)).toEqual([{ href: 'https://app.example/', label: 'Continue to test web client' }]);
    }

    // Another browser is offered to start again.
    const elsewhere = await new CookieJar().visit(flow.page.url);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).not.toContain('already signed in');
    expect(links(elsewhere.body)).toEqual([{ href: 'https://app.example/', label: 'Go back to test web client and sign in again' }]);
  });

  it('a client without a page to go back to (a native app), or revoked since, gets the plain page', async () => {
    const native = await createTestClient(app, { type: 'native', authMethod: 'none', redirectUris: ['com.example.app:/callback', 'http://127.0.0.1/cb'] });
    const web = await createTestClient(app, { type: 'web', redirectUris: ['https://revoked.example/cb'] });
    const spent = async (clientId: string, redirectUri: string) => {
      const jar = new CookieJar();
      const start = await jar.visit(codeAuthorizationUrl(issuer, clientId, redirectUri));
      expect(start.location).toMatch(new RegExp(`^${issuer}/interaction/`));
      await expire(new URL(start.location!).pathname.split('/')[2]!);
      return () => jar.visit(start.location!);
    };
    expectDeadEnd(await (await spent(native.clientId, 'com.example.app:/callback'))());
    const revoked = await spent(web.clientId, 'https://revoked.example/cb');
    expect(links((await revoked()).body)).toEqual([{ href: 'https://revoked.example/', label: 'Go back to test web client and sign in again' }]);
    expect((await app.http.delete(`/oauth-clients/${web.clientId}`)).status).toBe(204);
    expectDeadEnd(await revoked());
  });
});
