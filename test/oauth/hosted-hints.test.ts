import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { CookieJar, readForm, type Visit } from '../support/cookie-jar.ts';
import { POST_LOGOUT_URI, startHostedTestApp, type HostedTestApp } from '../support/hosted-app.ts';
import { startAuthorization } from '../support/oauth.ts';

/**
 * What the hosted pages take from the request beyond the protocol: `login_hint` prefills the e-mail field (OIDC Core
 * 3.1.2.1) when it is an address, escaped; and a refused sign-out says so under a sign-out's heading.
 */
const PASSWORD = 'Correct-Horse-9';

let hosted: HostedTestApp;
let app: TestApp;
let issuer: string;
let config: oidc.Configuration;

beforeAll(async () => {
  hosted = await startHostedTestApp({}, { postLogoutRedirectUris: [POST_LOGOUT_URI] });
  ({ app, issuer, config } = hosted);
  expect((await app.http.post('/users', { email: 'ada@example.com', password: PASSWORD })).status).toBe(201);
});
afterAll(async () => hosted?.close());

/** The sign-in page of an authorization request carrying `login_hint` (none when undefined). */
async function signInPage(loginHint?: string) {
  const flow = await hosted.authorize(loginHint === undefined ? {} : { login_hint: loginHint });
  expect(flow.page.status).toBe(200);
  expect(flow.page.body).toContain('name="password"');
  return flow;
}

/** The `<input>` tag of a field. */
const inputTag = (page: Visit, name: string) => {
  const tag = new RegExp(`<input id="${name}"[^>]*>`).exec(page.body)?.[0];
  expect(tag, `no ${name} field`).toBeDefined();
  return tag!;
};

const heading = (page: Visit) => /<h1>([^<]*)<\/h1>/.exec(page.body)?.[1];

describe('login_hint', () => {
  it('an e-mail address is the e-mail field’s value; the password stays empty', async () => {
    const { page } = await signInPage('ada@example.com');
    expect(inputTag(page, 'email')).toContain(' value="ada@example.com"');
    expect(inputTag(page, 'password')).not.toContain('value=');
  });

  it('the hinted address (trimmed) is sent with the form: only the password needs typing', async () => {
    const { jar, page } = await signInPage('  ada@example.com ');
    expect(readForm(page.url, page.body).fields['email']).toBe('ada@example.com');
    const posted = await jar.submit(page, { password: PASSWORD });
    expect(posted.status).toBe(303);
    expect((await jar.followOut(posted, issuer)).searchParams.get('code')).toBeTruthy();
  });

  it('what an address may hold that markup means is escaped: the value stays inside its attribute', async () => {
    const marked = "o'neil&co=x@evil.example";
    const { page } = await signInPage(marked);
    expect(inputTag(page, 'email')).toContain(' value="o&#39;neil&#38;co=x@evil.example"');
    // Read back as a browser does: the whole hint is the field's value, nothing more.
    expect(readForm(page.url, page.body).fields).toMatchObject({ email: marked, password: '' });
    // Quotes and angle brackets are no address's (src/domain/validate.ts): such a hint is dropped.
    const hostile = await signInPage('"><script>alert(1)</script>@evil.example');
    expect(hostile.page.body).not.toContain('<script>');
    expect(inputTag(hostile.page, 'email')).not.toContain('value=');
  });

  it('a hint that is no address an account could have is dropped: a subject id, a phone number, spaces, controls, too long', async () => {
    const hints = ['01a2b3c4-0000-7000-8000-000000000000', '+15551234567', 'ada @example.com', 'ada@exam\u200bple.com', `${'a'.repeat(250)}@example.com`, ''];
    for (const hint of hints) {
      const { page } = await signInPage(hint);
      expect(inputTag(page, 'email'), JSON.stringify(hint)).not.toContain('value=');
    }
  });

  it('a refused sign-in shows the address typed, not the hint', async () => {
    const { jar, page } = await signInPage('ada@example.com');
    const posted = await jar.submit(page, { email: 'bob@example.com', password: 'Wrong-Horse-9' });
    expect(posted.status).toBe(400);
    expect(inputTag(posted, 'email')).toContain(' value="bob@example.com"');
    expect(posted.body).not.toContain('ada@example.com');
  });

  it('the sign-up form takes the hinted address too, never into the password', async () => {
    const { jar, page } = await signInPage('new@example.com');
    const link = /<a href="([^"]+\/signup)">/.exec(page.body)?.[1];
    expect(link).toBeDefined();
    const signup = await jar.visit(new URL(link!, page.url).href);
    expect(signup.status).toBe(200);
    expect(inputTag(signup, 'email')).toContain(' value="new@example.com"');
    expect(inputTag(signup, 'password')).not.toContain('value=');
    expect(inputTag(signup, 'name')).not.toContain('value=');
  });
});

describe('error headings', () => {
  it('a refused sign-out (unregistered post_logout_redirect_uri) is headed as a sign-out', async () => {
    const refused = await new CookieJar().visit(
      oidc.buildEndSessionUrl(config, { post_logout_redirect_uri: 'https://evil.example/signed-out' }).href,
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('post_logout_redirect_uri not registered');
    expect(heading(refused)).toBe('Sign-out is not possible');
    expect(refused.body).toContain('<title>Sign-out is not possible – Gatehouse</title>');
    expect(refused.body).not.toContain('Sign-in is not possible');
  });

  it('a forged sign-out confirmation is headed as a sign-out', async () => {
    const forged = await new CookieJar().visit(`${issuer}/oauth2/logout/confirm`, { form: { xsrf: 'forged', logout: 'yes' } });
    expect(forged.status).toBe(400);
    expect(heading(forged)).toBe('Sign-out is not possible');
  });

  it('a refused authorization keeps the sign-in heading', async () => {
    const { page } = await startAuthorization(config, { redirectUri: 'https://evil.example/callback', resource: '' });
    expect(page.status).toBe(400);
    expect(heading(page)).toBe('Sign-in is not possible');
  });
});
