import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BRANDING } from '../../src/domain/branding/branding.ts';
import { CATALOGS } from '../../src/domain/branding/copy/index.ts';
import { loginPage, PLAIN_LOOK, type CopyKey } from '../../src/pages/pages.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar, readForm, type Visit } from '../support/cookie-jar.ts';
import { authorizationRequest, createTestClient, discover } from '../support/oauth.ts';

/**
 * The edges of the hosted pages a browser can reach besides the happy path: e-mail addresses browsers would refuse,
 * addresses typed or reloaded by hand, blank branding texts, and the pages oidc-provider writes itself (its
 * self-submitting forms), which must carry the hosted pages' headers and a policy as strict as theirs.
 */
const REDIRECT_URI = 'https://app.example/callback';
const POST_LOGOUT_URI = 'https://app.example/signed-out';
const PASSWORD = 'Correct-Horse-9';

let app: TestApp;
let issuer: string;
let config: oidc.Configuration;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  const client = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI], postLogoutRedirectUris: [POST_LOGOUT_URI] });
  config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  expect((await app.http.post('/users', { email: 'jörg@example.com', password: PASSWORD })).status).toBe(201);
});
afterAll(async () => app?.close());

/** An authorization request in `jar`, and the first answer (the interaction's page is at its location). */
async function authorize(jar: CookieJar, parameters: Record<string, string> = {}) {
  const { url, verifier, state } = await authorizationRequest(config, { redirectUri: REDIRECT_URI, resource: '' }, parameters);
  return { verifier, state, start: await jar.visit(url.href) };
}

function expectHostedHeaders(visit: Visit) {
  expect(visit.headers.get('x-frame-options')).toBe('DENY');
  expect(visit.headers.get('cache-control')).toBe('no-store');
  expect(visit.headers.get('referrer-policy')).toBe('no-referrer');
  expect(visit.headers.get('x-content-type-options')).toBe('nosniff');
}

/**
 * The policy of one of oidc-provider's self-submitting forms: nothing but its own inline script (by hash) and the
 * form's targets.
 */
function expectSelfSubmittingForm(visit: Visit, formAction: string) {
  expect(visit.status).toBe(200);
  expectHostedHeaders(visit);
  const script = /<script>([\s\S]*?)<\/script>/.exec(visit.body)?.[1];
  expect(script, visit.body).toBeDefined();
  const hash = createHash('sha256').update(script!).digest('base64');
  const directives = (visit.headers.get('content-security-policy') ?? '').split(';').map((directive) => directive.trim());
  expect(directives).toEqual([
    "default-src 'none'",
    `script-src 'sha256-${hash}'`,
    `form-action ${formAction}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ]);
}

describe('e-mail fields', () => {
  it('are text with an e-mail keyboard, so a non-ASCII address (valid for accounts, not for type="email") can be sent', async () => {
    const jar = new CookieJar();
    const { start } = await authorize(jar);
    const page = await jar.visit(start.location!);
    expect(page.body).toContain(
      '<input id="email" name="email" type="text" autocomplete="username" inputmode="email" spellcheck="false" autocapitalize="none" required>',
    );
    expect(page.body).not.toContain('type="email"');
    const signedIn = await jar.submit(page, { email: 'jörg@example.com', password: PASSWORD });
    expect(signedIn.status, signedIn.body).toBe(303);
  });
});

describe('passwords', () => {
  it('are one password however their characters are encoded: composed, decomposed or full-width', async () => {
    // Set through the API as one device types it (é composed, full-width digits), typed at sign-in as another does.
    const composed = 'Caf\u00e9-cr\u00e8me-\uff17\uff18';
    expect((await app.http.post('/users', { email: 'unicode@example.com', password: composed })).status).toBe(201);
    for (const typed of [composed, composed.normalize('NFD'), 'Cafe\u0301-cre\u0300me-78']) {
      const jar = new CookieJar();
      const page = await jar.visit((await authorize(jar)).start.location!);
      const signedIn = await jar.submit(page, { email: 'unicode@example.com', password: typed });
      expect(signedIn.status, typed).toBe(303);
    }
    const jar = new CookieJar();
    const page = await jar.visit((await authorize(jar)).start.location!);
    const refused = await jar.submit(page, { email: 'unicode@example.com', password: 'Cafe-creme-78' });
    expect(refused.status).toBe(400);
  });
});

describe('addresses under /interaction that are no page', () => {
  it('a POST-only form address opened with GET goes back to the interaction’s page', async () => {
    const jar = new CookieJar();
    const { start } = await authorize(jar);
    const page = await jar.visit(start.location!);
    const refused = await jar.submit(page, { email: 'jörg@example.com', password: 'Wrong-Horse-9' });
    expect(refused.status).toBe(400);
    // The user reloads the address bar, which shows the form's action.
    for (const step of ['login', 'tenant']) {
      const reloaded = await jar.visit(`${page.url}/${step}`);
      expect(reloaded.status).toBe(303);
      expect(reloaded.location).toBe(page.url);
      expectHostedHeaders(reloaded);
    }
    expect((await jar.visit(page.url)).body).toContain('name="password"');
    // A path parameter cannot reach the Location header raw.
    const encoded = await jar.visit(`${issuer}/interaction/a%0d%0ab/login`);
    expect(encoded.location).toBe(`${issuer}/interaction/a%0D%0Ab`);
  });

  it('any other address or method there is a hosted 404 page, with the hosted pages’ headers', async () => {
    const jar = new CookieJar();
    const { start } = await authorize(jar);
    const uid = new URL(start.location!).pathname.split('/')[2]!;
    const answers = [
      await jar.visit(`${issuer}/interaction/${uid}/nope`),
      await jar.visit(`${issuer}/interaction/${uid}/login/more`),
      await jar.visit(`${issuer}/interaction/${uid}/login`, { method: 'DELETE' }),
      await jar.visit(`${issuer}/interaction/${uid}`, { method: 'PUT' }),
      await jar.visit(`${issuer}/interaction`),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.url).toBe(404);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.body).toContain('<html lang="en" dir="ltr">');
      expect(answer.body).toContain('There is no such sign-in page.');
      expectHostedHeaders(answer);
      expect(answer.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'nonce-[^']+';/);
    }
  });
});

describe('blank branding texts', () => {
  it('fall back to the built-in text: no empty title, label or alert', () => {
    const blank = (keys: readonly CopyKey[], value: string) => Object.fromEntries(keys.map((key) => [key, value]));
    const copy = { ...blank(['login.title', 'login.email'], ''), ...blank(['login.password', 'login.error', 'login.submit'], ' \n\t ') };
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

describe('oidc-provider’s self-submitting forms', () => {
  it('response_mode=form_post: the code’s form allows its own script and posts to the redirect URI’s origin (or the OP’s)', async () => {
    const jar = new CookieJar();
    const { start } = await authorize(jar, { response_mode: 'form_post' });
    const page = await jar.visit(start.location!);
    const signedIn = await jar.submit(page, { email: 'jörg@example.com', password: PASSWORD });
    // After the sign-in: the resumed authorization answers with the form. ('self' on every such form: on that route, a
    // sign-in that switches the session's account gets the OP's sign-out form instead.)
    const resumed = await jar.visit(signedIn.location!);
    expect(readForm(resumed.url, resumed.body)).toMatchObject({ action: REDIRECT_URI, fields: { code: expect.any(String) } });
    expectSelfSubmittingForm(resumed, "'self' https://app.example");

    // Signed in already: the authorization endpoint answers with the form at once.
    const again = await authorize(jar, { response_mode: 'form_post' });
    expect(readForm(again.start.url, again.start.body).action).toBe(REDIRECT_URI);
    expectSelfSubmittingForm(again.start, "'self' https://app.example");
  });

  it('a logout without a session: the sign-out form posts to the OP, which may redirect to the post-logout URI only; naming no client, it is refused', async () => {
    const jar = new CookieJar();
    // Naming no client, the service's sign-in page cannot tell whose session to end: refused on a page of its own.
    const bare = await jar.visit(`${issuer}/oauth2/logout`);
    expect(bare.status).toBe(400);
    expect(bare.body).toContain('<h1>Sign-out is not possible</h1>');

    const clientId = config.clientMetadata().client_id;
    const named = await jar.visit(`${issuer}/oauth2/logout?client_id=${clientId}&post_logout_redirect_uri=${encodeURIComponent(POST_LOGOUT_URI)}&state=s`);
    expectSelfSubmittingForm(named, "'self' https://app.example");
    const done = await jar.submit(named, {});
    expect(done.location).toBe(`${POST_LOGOUT_URI}?state=s`);
    // Without a client the URI is never followed: the request is refused before the OP reads it.
    const unnamed = await jar.visit(`${issuer}/oauth2/logout?post_logout_redirect_uri=${encodeURIComponent('https://elsewhere.example/')}`);
    expect(unnamed.status).toBe(400);
    expect(unnamed.location).toBeUndefined();
    expect(unnamed.headers.get('content-security-policy')).not.toContain('elsewhere.example');
  });
});
