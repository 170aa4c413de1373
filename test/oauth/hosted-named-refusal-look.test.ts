import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { CookieJar, type Visit } from '../support/cookie-jar.ts';
import { accountLinkOf, csrfOf, emailFormAction, issuedLink, magicLinkOf, mails } from '../support/email-sign-in.ts';
import { addDomain } from '../support/domains.ts';
import { fetchVia } from '../support/host-fetch.ts';
import { HttpClient } from '../support/http.ts';
import { createTestClient, discover, startAuthorization } from '../support/oauth.ts';
import { createPasswordUser } from '../support/users.ts';
import { REDIRECT_URI, startHostedTestApp, type HostedTestApp } from '../support/hosted-app.ts';
import { TestIdp } from '../support/saml-idp.ts';

/**
 * Refusal pages that know an application but no sign-in of it (no interaction in this browser): an IdP's response
 * refused at the ACS, a used magic link opened in another browser, an account link used or opened on another surface.
 * They are in the look of that application's surface (a tenant's by the URL), in the browser's language. A forged
 * token naming the application gets the very page a used one gets (nothing tells whether it existed); one naming no
 * application, or no application at all, the plain look.
 */
const NEW_PASSWORD = 'Battery-Staple-42';
const POLAR_HOST = 'login.polar.example';

let hosted: HostedTestApp;
let app: TestApp;
let issuer: string;
const idp = new TestIdp();
let provider: { id: string; acsUrl: string; metadataUrl: string };

beforeAll(async () => {
  hosted = await startHostedTestApp();
  ({ app, issuer } = hosted);
  expect((await app.http.patch(`/applications/${app.root.applicationId}`, { name: 'Lumen' })).status).toBe(200);
  const branding = await app.http.put('/branding', {
    colors: { primary: '#ff0000', background: '#fff7f7', text: '#330000' },
    copy: { 'error.title': 'Lumen could not sign you in' },
  });
  expect(branding.status, JSON.stringify(branding.body)).toBe(200);
  for (const body of [
    { type: 'magic_link' },
    { type: 'saml', name: 'Lumen SSO', config: idp.providerConfig() },
  ]) {
    const created = await app.http.post('/auth-providers', body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    if (body.type === 'saml') provider = created.body as typeof provider;
  }
});
afterAll(async () => hosted?.close());

/** In Lumen's look: its colors, its copy, its name in the title. */
function expectLumen(page: Visit, status: number) {
  expect(page.status, page.body).toBe(status);
  expect(page.body).toContain('--gh-primary:#ff0000');
  expect(page.body).toContain('<h1>Lumen could not sign you in</h1>');
  expect(page.body).toContain('<title>Lumen could not sign you in – Lumen</title>');
}

/** The built-in look, naming nothing of an application. */
function expectPlain(page: Visit, status: number) {
  expect(page.status, page.body).toBe(status);
  expect(page.body).toContain('<title>Sign-in is not possible – Gatehouse</title>');
  expect(page.body).not.toContain('#ff0000');
  expect(page.body).not.toContain('Lumen');
}

/** The page but its nonce, which every answer draws afresh. */
const withoutNonce = (page: Visit) => page.body.replaceAll(/nonce="[^"]+"/g, 'nonce="…"');

/** `link` with its token replaced. */
const withToken = (link: string, token: string) => {
  const url = new URL(link);
  url.searchParams.set('token', token);
  return url.href;
};

describe('an IdP’s response refused at the ACS', () => {
  const post = (samlResponse: string, headers: Record<string, string> = {}, acsUrl = provider.acsUrl) =>
    new CookieJar().visit(acsUrl, { method: 'POST', form: { SAMLResponse: samlResponse }, headers });
  const respond = (options: { sign?: 'assertion' | 'none'; shiftSeconds?: number; audience?: string } = {}) =>
    idp.response({ acsUrl: provider.acsUrl, audience: provider.metadataUrl, email: 'sam@example.com', ...options });

  it('unsigned, expired or for another audience: the provider’s application’s look, in the browser’s language', async () => {
    for (const refused of [respond({ sign: 'none' }), respond({ shiftSeconds: -900 }), respond({ audience: 'https://other.example/sp' })]) {
      const page = await post(refused);
      expectLumen(page, 400);
      expect(page.body).toContain('The identity provider’s answer could not be verified.');
    }
    const german = await post(respond({ sign: 'none' }), { 'accept-language': 'de' });
    expect(german.status).toBe(400);
    expect(german.body).toContain('<html lang="de"');
    expect(german.body).toContain('--gh-primary:#ff0000');
    expect(german.body).toContain('– Lumen</title>');
    expect(german.body).toContain('Die Antwort des Identitätsanbieters konnte nicht überprüft werden.');
  });

  it('an unsolicited response where the provider takes none: the same look', async () => {
    expectLumen(await post(respond()), 400);
  });

  it('single logout: an unsigned LogoutRequest is refused, and a LogoutResponse of no request signs out, in the same look', async () => {
    expect((await app.http.patch(`/auth-providers/${provider.id}`, { config: { sloUrl: 'https://idp.test/slo' } })).status).toBe(200);
    try {
      const endpoint = provider.metadataUrl.replace(/\/metadata$/, '/slo');
      expectLumen(await new CookieJar().visit(idp.logoutRedirect({ destination: endpoint, nameId: 'nobody', sign: 'none' }).url), 400);
      const signedOut = await new CookieJar().visit(idp.logoutResponse(endpoint, '_no-such-request'));
      expect(signedOut.status).toBe(200);
      expect(signedOut.body).toContain('<title>You are signed out – Lumen</title>');
      expect(signedOut.body).toContain('--gh-primary:#ff0000');
    } finally {
      await app.http.patch(`/auth-providers/${provider.id}`, { config: { sloUrl: null } });
    }
  });

  it('a verified response whose browser has no interaction: the look of the provider its sealed proof names; a forged proof, plain', async () => {
    const flow = await startAuthorization(hosted.config, { redirectUri: REDIRECT_URI, resource: '' }, { scope: 'openid' });
    const button = /<a class="upstream" href="([^"]+)">Sign in with Lumen SSO<\/a>/.exec(flow.page.body)?.[1];
    expect(button, flow.page.body).toBeDefined();
    const toIdp = await flow.jar.visit(new URL(button!.replaceAll('&#38;', '&'), flow.page.url).href);
    const request = idp.readRequest(toIdp.location!);
    const acs = await post(idp.response({ acsUrl: provider.acsUrl, audience: provider.metadataUrl, email: 'sam@example.com', inResponseTo: request.id }));
    expect(acs.status, acs.body).toBe(303);
    const back = new URL(acs.location!);

    const elsewhere = await new CookieJar().visit(back.href, { headers: { 'accept-language': 'de' } });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toContain('<html lang="de"');
    expect(elsewhere.body).toContain('--gh-primary:#ff0000');
    expect(elsewhere.body).toContain('– Lumen</title>');
    expectLumen(await new CookieJar().visit(back.href), 400);
    // The proof is what names the provider: one not sealed for this interaction names nothing.
    const proof = back.searchParams.get('proof')!;
    const forged = new URL(back.href);
    forged.searchParams.set('proof', `${proof.split('.').slice(0, 2).join('.')}.forged`);
    expectPlain(await new CookieJar().visit(forged.href), 400);
    expectPlain(await new CookieJar().visit(back.href.replace(back.pathname.split('/')[2]!, 'another-interaction')), 400);
    // In its own browser the proof goes on with the sign-in.
    expect((await flow.jar.visit(back.href)).status).toBe(303);
  });

  it('at the ACS of no provider: the plain 404', async () => {
    const page = await post(respond(), {}, provider.acsUrl.replace(provider.id, randomUUID()));
    expect(page.status).toBe(404);
    expect(page.body).toContain('– Gatehouse</title>');
    expect(page.body).not.toContain('Lumen');
  });
});

describe('a magic link that no longer works, opened in another browser', () => {
  it('used: the application’s look; a forged token of the application the same page; of no application, plain', async () => {
    await createPasswordUser(app.http, 'mia@example.com');
    const flow = await startAuthorization(hosted.config, { redirectUri: REDIRECT_URI, resource: '' }, { scope: 'openid' });
    expect((await flow.jar.visit(emailFormAction(flow.page, 'email-link'), { form: { csrf: csrfOf(flow.page), email: 'mia@example.com' } })).status).toBe(200);
    const link = await magicLinkOf(app.http, 'mia@example.com');
    expect((await flow.jar.visit(link)).status).toBe(303);

    const used = await new CookieJar().visit(link);
    expectLumen(used, 400);
    expect(used.body).toContain('This link has expired, was already used, or does not belong here.');
    const forged = await new CookieJar().visit(withToken(link, `${app.root.applicationId}.forged`));
    expectLumen(forged, 400);
    expect(withoutNonce(forged)).toBe(withoutNonce(used));
    expectPlain(await new CookieJar().visit(withToken(link, `${randomUUID()}.forged`)), 400);
    expectPlain(await new CookieJar().visit(withToken(link, 'nonsense')), 400);
  });
});

describe('an account link that does not work where it is opened', () => {
  it('used: the application’s look; a forged token of the application the same page; of no application, plain', async () => {
    const userId = await createPasswordUser(app.http, 'rex@example.com');
    const link = await issuedLink(app, userId, hosted.client.clientId, issuer);
    const jar = new CookieJar();
    const form = await jar.visit(link);
    expect(form.status).toBe(200);
    expect((await jar.submit(form, { password: NEW_PASSWORD })).status).toBe(200);

    const used = await jar.visit(link);
    expectLumen(used, 400);
    expect(used.body).toContain('This link has expired, was already used, or does not belong here.');
    const posted = await jar.submit(form, { password: 'Yet-Another-Horse-5' });
    expectLumen(posted, 400);
    const forged = await jar.visit(withToken(link, `${app.root.applicationId}.forged`));
    expect(withoutNonce(forged)).toBe(withoutNonce(used));
    expectPlain(await jar.visit(withToken(link, `${randomUUID()}.forged`)), 400);
    expectPlain(await jar.visit(`${issuer}/account/verify-email?token=nonsense`), 400);
    const german = await jar.visit(link, { headers: { 'accept-language': 'de' } });
    expect(german.body).toContain('<html lang="de"');
    expect(german.body).toContain('– Lumen</title>');
    expect(german.body).toContain('Dieser Link ist abgelaufen');
  });

  it('an isolated tenant’s link on another tenant’s path or the service’s: the look of that surface of its application; on a custom domain, the domain’s', async () => {
    const another = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: another.apiKey });
    const north = await app.createTenant('North', another);
    await app.createTenant('South', another);
    expect((await admin.patch(`/applications/${another.applicationId}`, { name: 'Polar', tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const client = await createTestClient(app, { type: 'web', applicationId: another.applicationId, redirectUris: [REDIRECT_URI] });
    const isolated = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
    await createPasswordUser(admin, 'nia@example.com', `/applications/${another.applicationId}/tenants/${north}/users`);
    const flow = await startAuthorization(isolated, { redirectUri: REDIRECT_URI, resource: '' }, { scope: 'openid', tenant: 'north' });
    const forgot = /<a href="([^"]+)">Forgot your password\?<\/a>/.exec(flow.page.body)?.[1];
    expect(forgot, flow.page.body).toBeDefined();
    const asked = await flow.jar.visit(new URL(forgot!.replaceAll('&amp;', '&'), flow.page.url).href);
    expect((await flow.jar.submit(asked, { email: 'nia@example.com' })).status).toBe(200);
    expect(await mails(admin, 'nia@example.com', 'password_reset')).toHaveLength(1);
    const link = await accountLinkOf(admin, 'nia@example.com', 'password_reset');

    const jar = new CookieJar();
    const onSouth = await jar.visit(link.replace(`/t/${north}/`, '/t/south/'));
    expect(onSouth.status).toBe(400);
    expect(onSouth.body).toContain('<title>Sign-in is not possible – South</title>');
    const onService = await jar.visit(link.replace(`/t/${north}/`, '/'));
    expect(onService.status).toBe(400);
    expect(onService.body).toContain('<title>Sign-in is not possible – Polar</title>');
    // A tenant path of no tenant of the application the token names: nothing of it.
    expectPlain(await jar.visit(link.replace(`/t/${north}/`, '/t/nowhere/')), 400);
    expect((await jar.visit(link)).status).toBe(200);

    // A verified custom domain is its application's and tenant's surface whatever a token names.
    await addDomain(app, { apiKey: another.apiKey, applicationId: another.applicationId, tenantId: north }, POLAR_HOST);
    const onDomain = new CookieJar(fetchVia(app.baseUrl));
    for (const path of [`/account/reset-password?token=${randomUUID()}.forged`, `/interaction/${randomUUID()}/email-link?token=nonsense`]) {
      const page = await onDomain.visit(`http://${POLAR_HOST}${path}`);
      expect(page.status).toBe(400);
      expect(page.body).toContain('<title>Sign-in is not possible – North</title>');
    }
  });
});
