import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BRANDING } from '../../src/domain/branding/branding.ts';
import { CATALOGS } from '../../src/domain/branding/copy/index.ts';
import { loginPage, PLAIN_LOOK, type CopyKey } from '../../src/pages/pages.ts';
import type { TestApp } from '../support/app.ts';
import { CookieJar, readForm, type Visit } from '../support/cookie-jar.ts';
import { startHostedTestApp, type HostedTestApp } from '../support/hosted-app.ts';

/** The hosted page in the effective branding of the tenant it signs in to, as the tenancy engine resolves it. */

let hosted: HostedTestApp;
let app: TestApp;
let acme: string;
let globex: string;

beforeAll(async () => {
  hosted = await startHostedTestApp();
  ({ app } = hosted);
  acme = await app.createTenant('Acme');
  globex = await app.createTenant('Globex');
  const appId = app.root.applicationId;
  expect((await app.http.put('/branding', { colors: { primary: '#222222' }, copy: { 'login.submit': 'Enter' } })).status).toBe(200);
  expect((await app.http.patch(`/applications/${appId}`, { tenancyConfig: { brandingScope: 'tenant' } })).status).toBe(200);
  const acmeBranding = await app.http.put(`/applications/${appId}/tenants/${acme}/branding`, {
    logoUrl: 'https://cdn.acme.example/logo.png',
    colors: { primary: '#ff0000', background: '#fff7f7', text: '#330000' },
    copy: { 'login.title': 'Welcome to Acme', 'login.submit': 'Let me in', 'login.subtitle': 'Members of {name} only' },
  });
  expect(acmeBranding.status, JSON.stringify(acmeBranding.body)).toBe(200);
  const globexBranding = await app.http.put(`/applications/${appId}/tenants/${globex}/branding`, {
    colors: { primary: '#00aa00' },
    copy: { 'login.title': 'Globex sign-in <b>now</b>' },
  });
  expect(globexBranding.status).toBe(200);
});
afterAll(async () => hosted?.close());

async function page(parameters: Record<string, string> = {}): Promise<Visit> {
  return (await hosted.signInPage(parameters)).page;
}

describe('hosted page branding', () => {
  it('two tenants of one application show their own logo, colors and copy', async () => {
    const acmePage = await page({ tenant: 'acme' });
    const globexPage = await page({ tenant: globex });
    expect(acmePage.status).toBe(200);
    expect(acmePage.body).toContain('--gh-primary:#ff0000;--gh-background:#fff7f7;--gh-text:#330000');
    expect(acmePage.body).toContain('<img class="logo" src="https://cdn.acme.example/logo.png" alt="Acme">');
    expect(acmePage.body).toContain('<h1>Welcome to Acme</h1>');
    expect(acmePage.body).toContain('<button type="submit">Let me in</button>');
    // A placeholder the key offers is filled in on the page.
    expect(acmePage.body).toContain('Members of Acme only');
    // The logo's origin, and no other, may serve images.
    expect(acmePage.headers.get('content-security-policy')).toContain('img-src https://cdn.acme.example;');

    expect(globexPage.body).toContain('--gh-primary:#00aa00;--gh-background:#ffffff;--gh-text:#111827');
    expect(globexPage.body).not.toContain('<img');
    // Copy is text, never markup.
    expect(globexPage.body).toContain('<h1>Globex sign-in &#60;b&#62;now&#60;/b&#62;</h1>');
    // A key the tenant does not override keeps the built-in text (a tenant override replaces the whole branding).
    expect(globexPage.body).toContain('<button type="submit">Sign in</button>');
    expect(globexPage.headers.get('content-security-policy')).toContain("img-src 'none'");
  });

  it('a form refused before its interaction is read (415) shows the interaction’s tenant’s logo and colors, as its sign-in page; another browser’s, the plain look', async () => {
    const { jar, page: signIn } = await hosted.signInPage({ tenant: 'acme' });
    const { action } = readForm(signIn.url, signIn.body);
    const refused = await jar.visit(action, { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(refused.status).toBe(415);
    expect(refused.body).toContain('--gh-primary:#ff0000;--gh-background:#fff7f7;--gh-text:#330000');
    expect(refused.body).toContain('<img class="logo" src="https://cdn.acme.example/logo.png" alt="Acme">');
    expect(refused.headers.get('content-security-policy')).toContain('img-src https://cdn.acme.example;');
    const stranger = await new CookieJar().visit(action, { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(stranger.status).toBe(415);
    expect(stranger.body).not.toContain('#ff0000');
    expect(stranger.body).not.toContain('<img');
  });

  it('a page without a tenant shows the application’s branding', async () => {
    const plain = await page();
    expect(plain.body).toContain('--gh-primary:#222222');
    expect(plain.body).toContain('<button type="submit">Enter</button>');
    expect(plain.body).toContain('to continue to ');
  });

  it('while brandingScope is application, tenants show the application’s branding (their overrides are kept, hidden), and their own again once per tenant', async () => {
    expect((await app.http.patch(`/applications/${app.root.applicationId}`, { tenancyConfig: { brandingScope: 'application' } })).status).toBe(200);
    try {
      const acmePage = await page({ tenant: acme });
      expect(acmePage.body).toContain('--gh-primary:#222222');
      expect(acmePage.body).not.toContain('Welcome to Acme');
      // The name under the title is still the tenant's.
      expect(acmePage.body).toContain('to continue to Acme');
    } finally {
      await app.http.patch(`/applications/${app.root.applicationId}`, { tenancyConfig: { brandingScope: 'tenant' } });
    }
    const again = await page({ tenant: acme });
    expect(again.body).toContain('--gh-primary:#ff0000;--gh-background:#fff7f7;--gh-text:#330000');
    expect(again.body).toContain('<h1>Welcome to Acme</h1>');
  });
});

describe('blank branding texts', () => {
  it('fall back to the built-in text: no empty title, label or alert', () => {
    const blank = (keys: readonly CopyKey[], value: string) => Object.fromEntries(keys.map((key) => [key, value]));
    const copy = { ...blank(['login.title', 'login.email'], ''), ...blank(['login.password', 'login.error'], ' \n\t '), ...blank(['login.submit'], '\u200b ') };
    const { html } = loginPage({ ...PLAIN_LOOK, branding: { ...DEFAULT_BRANDING, copy }, name: 'Acme' }, 'nonce', { action: '/login', csrf: 'x', error: 'login.error' });
    expect(html).toContain(`<title>${CATALOGS.en['error.titlePrefix']} ${CATALOGS.en['login.title']} – Acme</title>`);
    expect(html).toContain(`<h1>${CATALOGS.en['login.title']}</h1>`);
    expect(html).toContain(`<label for="email">${CATALOGS.en['login.email']}</label>`);
    expect(html).toContain(`<label for="password">${CATALOGS.en['login.password']}</label>`);
    expect(html).toContain(`role="alert">${CATALOGS.en['login.error']}</p>`);
    expect(html).toContain(`<button type="submit">${CATALOGS.en['login.submit']}</button>`);
    // A text that is not blank is the branding's, spaces and all.
    const kept = loginPage({ ...PLAIN_LOOK, branding: { ...DEFAULT_BRANDING, copy: { 'login.title': ' Hi ' } }, name: 'Acme' }, 'nonce', { action: '/login', csrf: 'x' });
    expect(kept.html).toContain('<title> Hi  – Acme</title>');
  });
});
