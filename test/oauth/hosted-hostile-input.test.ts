import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { CookieJar, type Visit } from '../support/cookie-jar.ts';
import { REDIRECT_URI, startHostedTestApp, type HostedTestApp } from '../support/hosted-app.ts';
import { createTestClient, discover, postForm, startAuthorization, type TestClient } from '../support/oauth.ts';

/**
 * What an outsider or a tenant's administrator may type into the hosted pages, the OP's endpoints and the branding
 * they show: refused as the client's error (a 4xx, a page or an OAuth error), never a 500, and never able to change
 * a page's Content-Security-Policy or its texts beyond what they say.
 */
const PASSWORD = 'Correct-Horse-9';
const NUL = '\u0000';

let hosted: HostedTestApp;
let app: TestApp;
let issuer: string;
let web: TestClient;
let device: TestClient;

beforeAll(async () => {
  hosted = await startHostedTestApp();
  ({ app, issuer, client: web } = hosted);
  device = await createTestClient(app, { type: 'device', authMethod: 'none' });
});
afterAll(async () => hosted?.close());

const signIn = (parameters: Record<string, string> = {}) => hosted.authorize(parameters);
const alert = (page: Visit) => /<p[^>]*role="alert"[^>]*>([^<]*)<\/p>/.exec(page.body)?.[1];

describe('NUL characters (PostgreSQL stores none)', () => {
  it('in authorization parameters: the OP refuses the request, no 500', async () => {
    for (const [name, value] of [['state', `a${NUL}`], ['login_hint', `a${NUL}`], ['tenant', `a${NUL}`]] as const) {
      const parameters = { [name]: value };
      const { start } = await signIn(parameters);
      expect(start.status, JSON.stringify(parameters)).toBeLessThan(500);
      const refusal = start.location === undefined ? undefined : new URL(start.location);
      // Redirected to the client (its redirect URI is registered) with the OAuth error, as for any bad parameter.
      expect(refusal?.origin, start.body).toBe(new URL(REDIRECT_URI).origin);
      expect(refusal?.searchParams.get('error')).toBe('invalid_request');
    }
  });

  it('in the tenant parameter of a signed-in browser: no 500', async () => {
    const flow = await signIn();
    await app.http.post('/users', { email: 'nul-session@example.com', password: PASSWORD });
    const signedIn = await flow.jar.submit(flow.page, { email: 'nul-session@example.com', password: PASSWORD });
    await flow.jar.followOut(signedIn, issuer);
    const again = await signIn({ tenant: `a${NUL}` });
    expect(again.start.status).toBeLessThan(500);
    await app.createTenant('Nul Path');
    // A tenant's path is a surface of an isolated application only; shared again after (no tenant data was made).
    const isolation = (authIsolation: string) => app.http.patch(`/applications/${app.root.applicationId}`, { tenancyConfig: { authIsolation } });
    expect((await isolation('isolated')).status).toBe(200);
    const tenantPath = await flow.jar.visit(`${issuer}/t/nul-path/oauth2/authorize?client_id=${web.clientId}&tenant=a%00`);
    expect(tenantPath.status).toBe(400);
    expect(alert(tenantPath)).toBe('This is the sign-in of Nul Path: the request names another organization.');
    expect((await isolation('shared')).status).toBe(200);
  });

  it('in the sign-in form: the generic refusal', async () => {
    const flow = await signIn();
    const answer = await flow.jar.submit(flow.page, { email: `a${NUL}b@example.com`, password: PASSWORD });
    expect(answer.status).toBe(400);
    expect(alert(answer)).toBe('The email address or password is incorrect.');
  });

  it('in the sign-up form: the fields are refused', async () => {
    const flow = await signIn();
    const form = await flow.jar.visit(`${flow.page.url}/signup`);
    const answer = await flow.jar.submit(form, { name: `Ni${NUL}a`, email: `nia${NUL}@example.com`, password: PASSWORD });
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('<p id="name-error" class="field-error">Name must not contain control characters.</p>');
    expect(answer.body).toContain('<p id="email-error" class="field-error">Enter an email address like name@example.com.</p>');
  });

  it('in the device verification form: the code is unknown, the look plain', async () => {
    const jar = new CookieJar();
    const input = await jar.visit(`${issuer}/oauth2/device`);
    const xsrf = /name="xsrf" value="([^"]*)"/.exec(input.body)?.[1] ?? '';
    const answer = await jar.visit(`${issuer}/oauth2/device`, { form: { xsrf, user_code: `AB${NUL}CD`, client_id: device.clientId, tenant: `x${NUL}` } });
    expect(answer.status).toBe(400);
    expect(alert(answer)).toContain('The code you entered is incorrect or has expired.');
  });

  it('in a code, refresh token or device code at the token endpoint: invalid_grant', async () => {
    const token = `${issuer}/oauth2/token`;
    const basic = { authorization: `Basic ${Buffer.from(`${web.clientId}:${web.clientSecret}`).toString('base64')}` };
    const code = await postForm(token, { grant_type: 'authorization_code', code: `a${NUL}`, redirect_uri: REDIRECT_URI, code_verifier: 'a'.repeat(43) }, basic);
    expect(code.status).toBe(400);
    expect(code.body.error).toBe('invalid_grant');
    const refresh = await postForm(token, { grant_type: 'refresh_token', refresh_token: `a${NUL}` }, basic);
    expect(refresh.body.error).toBe('invalid_grant');
    const polled = await postForm(token, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: `a${NUL}`, client_id: device.clientId });
    expect(polled.body.error).toBe('invalid_grant');
  });

  it('in management API names, e-mails and branding copy: 422 with the field', async () => {
    const tenant = await app.http.post(`/applications/${app.root.applicationId}/tenants`, { name: `Ac${NUL}me` });
    expect(tenant.status).toBe(422);
    expect(tenant.body.field).toBe('name');
    const user = await app.http.post('/users', { email: `a${NUL}@example.com` });
    expect(user.status).toBe(422);
    expect(user.body.field).toBe('email');
    const branding = await app.http.put('/branding', { copy: { 'login.title': `Sign${NUL} in` } });
    expect(branding.status).toBe(422);
    expect(branding.body.field).toBe('copy.login.title');
    // Line breaks and tabs are text.
    expect((await app.http.put('/branding', { copy: { 'login.title': 'Sign\tin\nhere' } })).status).toBe(200);
    expect((await app.http.put('/branding', {})).status).toBe(200);
  });
});

describe('names and addresses that read like others', () => {
  it('an e-mail address with an invisible character is refused, not a second account that looks like the first', async () => {
    expect((await app.http.post('/users', { email: 'twin@example.com' })).status).toBe(201);
    for (const invisible of ['\u200b', '\u200d', '\u2060', '\ufeff', '\u202e']) {
      const twin = await app.http.post('/users', { email: `twin${invisible}@example.com` });
      expect(twin.status, JSON.stringify(invisible)).toBe(422);
      expect(twin.body.field).toBe('email');
    }
  });

  it('a tenant name with a line break is refused', async () => {
    // U+2028 and U+2029 are line breaks too (UAX #14 BK): a browser or mail client may start a new line at them.
    for (const name of ['Acme\nSupport: call +1 555', 'Acme\u2028Support: call +1 555', 'Acme\u2029Support: call +1 555']) {
      const created = await app.http.post(`/applications/${app.root.applicationId}/tenants`, { name });
      expect(created.status, JSON.stringify(name)).toBe(422);
      expect(created.body.field).toBe('name');
    }
  });

  it('a tenant name is shown as written, `$&` and all', async () => {
    const tenant = await app.createTenant('Dollar $& $` $\' Co');
    const { page } = await signIn({ tenant });
    expect(page.body).toContain('<p class="subtitle">to continue to Dollar $&#38; $` $&#39; Co</p>');
  });
});

describe('the Content-Security-Policy holds only well-formed sources', () => {
  it('a logo URL whose host would end the img-src directive is refused at write', async () => {
    for (const logoUrl of ['https://cdn;sandbox/logo.png', 'https://cdn,x/logo.png', "https://cdn'x/logo.png", 'https://cdn%3Bx/logo.png', 'https://cdn*/logo.png']) {
      const refused = await app.http.put('/branding', { logoUrl });
      expect(refused.status, logoUrl).toBe(422);
      expect(refused.body.field).toBe('logoUrl');
    }
    for (const logoUrl of ['https://cdn.example/logo.png', 'https://203.0.113.5/logo.png', 'https://[2001:db8::1]:8443/logo.png', 'https://bücher.example/l.png']) {
      const accepted = await app.http.put('/branding', { logoUrl });
      expect(accepted.status, logoUrl).toBe(200);
    }
    const { page } = await signIn();
    expect(page.headers.get('content-security-policy')).toContain('img-src https://xn--bcher-kva.example;');
    expect((await app.http.put('/branding', {})).status).toBe(200);
  });

  it('a stored redirect URI whose host would end the form-action directive is not offered: the page names the others', async () => {
    // Written past the API, which refuses it: a row from before its rules.
    const odd = await createTestClient(app, { type: 'web', redirectUris: ['https://app;sandbox/cb', REDIRECT_URI] });
    const oddConfig = await discover(app, odd.clientId, oidc.ClientSecretBasic(odd.clientSecret ?? ''));
    const refused = await startAuthorization(oddConfig, { redirectUri: 'https://app;sandbox/cb', resource: '' });
    expect(refused.start.status).toBe(400);
    expect(refused.start.location).toBeUndefined();
    const { page } = await startAuthorization(oddConfig, { redirectUri: REDIRECT_URI, resource: '' });
    expect(page.status, page.body).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("form-action 'self' https://app.example;");
    expect(csp.split(';').map((directive) => directive.trim().split(' ')[0])).toEqual([
      'default-src',
      'style-src',
      'img-src',
      'form-action',
      'frame-ancestors',
      'base-uri',
    ]);
  });
});
