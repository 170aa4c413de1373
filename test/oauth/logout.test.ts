import { generateKeyPair, SignJWT, type JWK } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { CookieJar, readForm, type Visit } from '../support/cookie-jar.ts';
import { POST_LOGOUT_URI, REDIRECT_URI, startHostedTestApp, type HostedTestApp } from '../support/hosted-app.ts';
import { expectSelfSubmittingForm } from '../support/hosted-headers.ts';
import { createTestClient, decodeJwt, postForm, type TestClient } from '../support/oauth.ts';

/**
 * RP-initiated logout (`/oauth2/logout`) after a sign-in through the hosted form, driven by openid-client: the
 * confirmation and signed-out pages in the hosted look of the client's application (and of the tenant signed in to).
 */
const PASSWORD = 'Correct-Horse-9';
const ACME_LOOK = '--gh-primary:#ff0000;--gh-background:#fff7f7;--gh-text:#330000';
const PLAIN_LOOK = '--gh-primary:#4f46e5';

let hosted: HostedTestApp;
let app: TestApp;
let issuer: string;
let client: TestClient;
let config: oidc.Configuration;
let acme: string;

beforeAll(async () => {
  hosted = await startHostedTestApp({}, { postLogoutRedirectUris: [POST_LOGOUT_URI] });
  ({ app, issuer, client, config } = hosted);
  acme = await app.createTenant('Acme');
  expect((await app.http.post('/users', { email: 'ada@example.com', name: 'Ada', password: PASSWORD, tenantId: acme })).status).toBe(201);
  const appId = app.root.applicationId;
  expect((await app.http.patch(`/applications/${appId}`, { tenancyConfig: { brandingScope: 'tenant' } })).status).toBe(200);
  const branding = await app.http.put(`/applications/${appId}/tenants/${acme}/branding`, {
    colors: { primary: '#ff0000', background: '#fff7f7', text: '#330000' },
    copy: { 'logout.text': 'Leave <Acme> now?' },
  });
  expect(branding.status).toBe(200);
});
afterAll(async () => hosted?.close());

/** Starts a code + PKCE authorization in `jar`; `start` is the first answer the browser gets. */
const startAuthorization = (jar: CookieJar) => hosted.authorize({}, jar);

/** Signs Ada in through the hosted form; the jar then holds the OP session. Returns her ID token. */
async function signIn(jar: CookieJar): Promise<string> {
  const { tokens } = await hosted.signIn({ email: 'ada@example.com', password: PASSWORD }, {}, jar);
  return tokens.id_token!;
}

/** Whether the browser's session for the client stands: a new authorization goes straight back with a code. */
async function signedIn(jar: CookieJar): Promise<boolean> {
  return (await startAuthorization(jar)).start.location?.startsWith(`${REDIRECT_URI}?code=`) === true;
}

describe('RP-initiated logout', () => {
  it('confirms on the branded page, ends the session and redirects to the registered URI with the state', async () => {
    const jar = new CookieJar();
    const idToken = await signIn(jar);
    // Signed in: a new authorization goes straight back to the client.
    expect((await startAuthorization(jar)).start.location).toMatch(/^https:\/\/app\.example\/callback\?code=/);

    const logoutUrl = oidc.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: POST_LOGOUT_URI, state: 'bye-1' });
    const confirm = await jar.visit(logoutUrl.href);
    expect(confirm.status).toBe(200);
    expect(confirm.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(confirm.headers.get('x-frame-options')).toBe('DENY');
    expect(confirm.headers.get('cache-control')).toBe('no-store');
    const csp = confirm.headers.get('content-security-policy') ?? '';
    const nonce = /style-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(confirm.body).toContain(`<style nonce="${nonce}">`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    // The confirmation's 303 leads to the client's post-logout URI: browsers check form-action on it.
    expect(csp).toContain("form-action 'self' https://app.example;");
    // The look of the tenant Ada signed in to, copy escaped.
    expect(confirm.body).toContain(ACME_LOOK);
    expect(confirm.body).toMatch(/<html lang="en" dir="ltr">[\s\S]*<main>[\s\S]*<h1>Sign out<\/h1>/);
    expect(confirm.body).toContain('<p>Leave &#60;Acme&#62; now?</p>');
    expect(confirm.body).not.toMatch(/<script|oidc-provider/);
    const form = readForm(confirm.url, confirm.body);
    // The confirmation names whose session it ends (src/oidc/session-application.ts).
    expect(form.action).toBe(`${issuer}/oauth2/logout/confirm?app=${app.root.applicationId}`);
    expect(Object.keys(form.fields)).toEqual(['xsrf']);

    const done = await jar.submit(confirm, { logout: 'yes' });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${POST_LOGOUT_URI}?state=bye-1`);

    // The session is gone: a new authorization asks for the sign-in again.
    const again = await startAuthorization(jar);
    expect(again.start.location).toMatch(new RegExp(`^${issuer}/interaction/`));
    const page = await jar.visit(again.start.location!);
    expect(page.body).toContain('name="password"');
  });

  it('a grant that replaced an offline one (a switch of tenant) ends with the sign-out, as every grant without offline_access does', async () => {
    const globex = await app.createTenant('Globex');
    const bea = await app.http.post('/users', { email: 'bea@example.com', name: 'Bea', password: PASSWORD, tenantId: acme });
    expect((await app.http.patch(`/users/${bea.body.id}`, { tenantIds: [acme, globex] })).status).toBe(200);
    const credentials = { email: 'bea@example.com', password: PASSWORD };
    const jar = new CookieJar();
    await hosted.signIn(credentials, { scope: 'openid offline_access', prompt: 'consent', tenant: acme }, jar);
    // A grant of its own, without offline_access, replaces the Acme one in the session.
    const { tokens } = await hosted.signIn(credentials, { tenant: globex, prompt: 'login', resource: `${issuer}/api/v1` }, jar);
    const status = async () => (await app.as({ bearer: tokens.access_token }).get('/users')).status;
    expect(await status(), 'signed in, holding no permission').toBe(403);

    const confirm = await jar.visit(oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: POST_LOGOUT_URI }).href);
    expect((await jar.submit(confirm, { logout: 'yes' })).location).toBe(POST_LOGOUT_URI);
    expect(await status(), 'its grant ended with the sign-out').toBe(401);
  });

  it('a forged confirmation (wrong xsrf) ends nothing', async () => {
    const jar = new CookieJar();
    const idToken = await signIn(jar);
    const confirm = await jar.visit(oidc.buildEndSessionUrl(config, { id_token_hint: idToken }).href);
    const forged = await jar.visit(`${issuer}/oauth2/logout/confirm`, { form: { xsrf: 'forged', logout: 'yes' } });
    expect(forged.status).toBe(400);
    expect(forged.location).toBeUndefined();
    expect(confirm.status).toBe(200);
    expect((await startAuthorization(jar)).start.location).toMatch(/^https:\/\/app\.example\/callback\?code=/);
  });

  it('an unregistered post_logout_redirect_uri is refused on an error page, without a redirect', async () => {
    const jar = new CookieJar();
    const idToken = await signIn(jar);
    const refused = await jar.visit(
      oidc.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: 'https://evil.example/signed-out', state: 's' }).href,
    );
    expect(refused.status).toBe(400);
    expect(refused.location).toBeUndefined();
    expect(refused.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(refused.body).toContain('post_logout_redirect_uri not registered');
    expect(refused.body).not.toContain('evil.example');
    // Still signed in.
    expect((await startAuthorization(jar)).start.location).toMatch(/^https:\/\/app\.example\/callback\?code=/);
  });

  it('a logout naming no client is refused and ends nothing; without a post-logout URI the signed-out page is shown', async () => {
    const jar = new CookieJar();
    await signIn(jar);
    // The service's sign-in page serves every application: which session to end, it cannot tell.
    const refused = await jar.visit(`${issuer}/oauth2/logout`);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('<h1>Sign-out is not possible</h1>');
    expect(refused.body).toContain('neither client_id nor id_token_hint');
    expect(refused.body).toContain(PLAIN_LOOK);
    expect((await startAuthorization(jar)).start.location).toMatch(/^https:\/\/app\.example\/callback\?code=/);
    const confirm = await jar.visit(`${issuer}/oauth2/logout?client_id=${client.clientId}`);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain(ACME_LOOK);
    expect(confirm.headers.get('content-security-policy')).toContain("form-action 'self';");
    const done = await jar.submit(confirm, { logout: 'yes' });
    expect(done.location).toBe(`${issuer}/oauth2/logout/success`);
    const signedOut = await jar.visit(done.location!);
    expect(signedOut.status).toBe(200);
    expect(signedOut.body).toContain('<h1>You are signed out</h1>');
    expect(signedOut.headers.get('content-security-policy')).toContain("form-action 'none'");
    expect(signedOut.headers.get('x-frame-options')).toBe('DENY');

    const named = await jar.visit(`${issuer}/oauth2/logout/success?client_id=${client.clientId}`);
    expect(named.status).toBe(200);
    expect(named.body).toContain('You have been signed out of ');
  });

  it('a logout’s ui_locales is the language of its confirmation and of the signed-out page after it', async () => {
    const jar = new CookieJar();
    await signIn(jar);
    const confirm = await jar.visit(`${issuer}/oauth2/logout?client_id=${client.clientId}&ui_locales=de`, { headers: { 'accept-language': 'fr' } });
    expect(confirm.body).toMatch(/<html lang="de" dir="ltr">/);
    const done = await jar.submit(confirm, { logout: 'yes' }, { 'accept-language': 'fr' });
    expect(done.location).toBe(`${issuer}/oauth2/logout/success?ui_locales=de`);
    const signedOut = await jar.visit(done.location!, { headers: { 'accept-language': 'fr' } });
    expect(signedOut.status).toBe(200);
    expect(signedOut.body).toMatch(/<html lang="de" dir="ltr">/);
    expect(signedOut.body).toContain('<h1>Sie sind abgemeldet</h1>');
  });

  it('a logout POSTed, ui_locales in its body, is 405 naming GET and HEAD, and ends nothing: RPs send logouts as redirects (docs/decisions.md)', async () => {
    const jar = new CookieJar();
    await signIn(jar);
    const posted = await jar.visit(`${issuer}/oauth2/logout`, { form: { client_id: client.clientId, ui_locales: 'de' } });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
    // The session stands: a silent authorization still answers with a code.
    expect((await startAuthorization(jar)).start.location).toMatch(/^https:\/\/app\.example\/callback\?code=/);
    // The same logout sent as a GET keeps its language.
    const confirm = await jar.visit(`${issuer}/oauth2/logout?client_id=${client.clientId}&ui_locales=de`);
    expect(confirm.body).toMatch(/<html lang="de" dir="ltr">/);
    expect((await jar.submit(confirm, { logout: 'yes' })).location).toBe(`${issuer}/oauth2/logout/success?ui_locales=de`);
  });

  it('a logout naming a device’s client is refused and ends nothing: the device’s sign-in is no sign-out’s to end', async () => {
    const device = await createTestClient(app, { type: 'device', authMethod: 'none' });
    const jar = new CookieJar();
    await signIn(jar);
    // The device's ID token names its client as its audience (read unverified, as for a web client's).
    const hint = ['{"alg":"none"}', JSON.stringify({ aud: device.clientId })].map((part) => Buffer.from(part).toString('base64url')).join('.');
    for (const query of [`client_id=${device.clientId}`, `id_token_hint=${hint}.x`, `client_id=${device.clientId}&post_logout_redirect_uri=${encodeURIComponent(POST_LOGOUT_URI)}`]) {
      const refused = await jar.visit(`${issuer}/oauth2/logout?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.location).toBeUndefined();
      expect(refused.body).toContain('<h1>Sign-out is not possible</h1>');
      expect(refused.body).toContain('a device’s sign-in does not end with a sign-out in this browser');
      expect(refused.body).not.toContain('signed out of');
    }
    const german = await jar.visit(`${issuer}/oauth2/logout?client_id=${device.clientId}&ui_locales=de`);
    expect(german.body).toContain('Die Anmeldung eines Geräts endet nicht');
    expect(await signedIn(jar)).toBe(true);
    // A web client's logout is answered as before.
    expect((await jar.visit(`${issuer}/oauth2/logout?client_id=${client.clientId}`)).status).toBe(200);
  });

  it('an empty client_id beside the id_token_hint ends the session the hint names, not another one', async () => {
    const jar = new CookieJar();
    const idToken = await signIn(jar);
    expect(await signedIn(jar)).toBe(true);
    // client_id= (empty) is absent for the OP (oidc-provider reads `value || undefined`): the hint names the client.
    const url = `${issuer}/oauth2/logout?client_id=&id_token_hint=${idToken}&post_logout_redirect_uri=${encodeURIComponent(POST_LOGOUT_URI)}&state=s1`;
    let visit = await jar.visit(url);
    // The confirmation page, or (no session found) the OP's self-submitting sign-out; either way the session ends.
    if (visit.status === 200 && visit.body.includes('name="xsrf"') && !visit.body.includes('<script')) visit = await jar.submit(visit, { logout: 'yes' });
    else if (visit.status === 200) {
      const action = /action="([^"]+)"/.exec(visit.body)![1]!.replaceAll('&amp;', '&');
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(visit.body)![1]!;
      visit = await jar.visit(new URL(action, url).href, { form: { xsrf, logout: 'yes' } });
    }
    // The RP is told the user is signed out...
    expect(visit.location).toBe(`${POST_LOGOUT_URI}?state=s1`);
    // ...and so they must be.
    expect(await signedIn(jar)).toBe(false);
  });

  it('a state holding a NUL (which the session cannot keep) is the sign-out error page with every header, signed in or not; nothing ends', async () => {
    const jar = new CookieJar();
    await signIn(jar);
    const query = `client_id=${client.clientId}&post_logout_redirect_uri=${encodeURIComponent(POST_LOGOUT_URI)}&state=a%00b`;
    for (const browser of [jar, new CookieJar()]) {
      const refused = await browser.visit(`${issuer}/oauth2/logout?${query}`);
      expect(refused.status).toBe(400);
      expect(refused.location).toBeUndefined();
      expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(refused.body).toContain('<h1>Sign-out is not possible</h1>');
      expect(refused.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(refused.headers.get('x-frame-options')).toBe('DENY');
      expect(refused.headers.get('x-request-id')).toEqual(expect.any(String));
      expect(refused.headers.get('x-ratelimit-limit')).toEqual(expect.any(String));
    }
    expect(await signedIn(jar)).toBe(true);
  });
});

describe('a post-logout URI checked again at the confirmation, against the client as it is then', () => {
  const OTHER_POST_LOGOUT_URI = 'https://app.example/other-signed-out';

  /** Ada signed in; the confirmation page of a logout to `uri` naming a client of its own (the suites' is shared) with both URIs. */
  async function confirmingLogoutTo(uri: string, tenantId?: string) {
    const uris = { redirectUris: [REDIRECT_URI], postLogoutRedirectUris: [POST_LOGOUT_URI, OTHER_POST_LOGOUT_URI] };
    const own = await createTestClient(app, { type: 'web', ...uris, ...(tenantId === undefined ? {} : { tenantId }) });
    const jar = new CookieJar();
    await signIn(jar);
    const query = new URLSearchParams({ client_id: own.clientId, post_logout_redirect_uri: uri, state: 'bye' });
    const confirm = await jar.visit(`${issuer}/oauth2/logout?${query}`);
    expect(confirm.status, confirm.body.slice(0, 300)).toBe(200);
    expect(await signedIn(jar)).toBe(true);
    return { jar, confirm, clientPath: `/oauth-clients/${own.clientId}` };
  }

  /** The session ended and the browser was sent to the signed-out page, as when the logout named no URI. */
  async function expectSignedOutHere(jar: CookieJar, done: Visit) {
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${issuer}/oauth2/logout/success`);
    const page = await jar.visit(done.location!);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>You are signed out</h1>');
    expect(await signedIn(jar)).toBe(false);
  }

  it('a URI still registered is followed, with the state, after another one was removed', async () => {
    const { jar, confirm, clientPath } = await confirmingLogoutTo(POST_LOGOUT_URI);
    expect((await app.http.patch(clientPath, { postLogoutRedirectUris: [POST_LOGOUT_URI] })).status).toBe(200);
    const done = await jar.submit(confirm, { logout: 'yes' });
    expect(done.location).toBe(`${POST_LOGOUT_URI}?state=bye`);
    expect(await signedIn(jar)).toBe(false);
  });

  it('a URI removed from the client meanwhile is not followed: the session still ends, on the signed-out page', async () => {
    const { jar, confirm, clientPath } = await confirmingLogoutTo(OTHER_POST_LOGOUT_URI);
    expect((await app.http.patch(clientPath, { postLogoutRedirectUris: [POST_LOGOUT_URI] })).status).toBe(200);
    await expectSignedOutHere(jar, await jar.submit(confirm, { logout: 'yes' }));
  });

  it('no URI of a client deleted meanwhile is followed: the session still ends, on the signed-out page', async () => {
    const { jar, confirm, clientPath } = await confirmingLogoutTo(POST_LOGOUT_URI);
    expect((await app.http.delete(clientPath)).status).toBe(204);
    await expectSignedOutHere(jar, await jar.submit(confirm, { logout: 'yes' }));
  });

  it('no URI of a tenant’s client gone with its tenant meanwhile is followed: the session still ends, on the signed-out page', async () => {
    const initech = await app.createTenant('Initech');
    const { jar, confirm } = await confirmingLogoutTo(POST_LOGOUT_URI, initech);
    expect((await app.http.delete(`/applications/${app.root.applicationId}/tenants/${initech}`)).status).toBe(204);
    await expectSignedOutHere(jar, await jar.submit(confirm, { logout: 'yes' }));
  });

  it('no URI of a client of an organization deactivated meanwhile is followed: the session still ends, on the signed-out page', async () => {
    const { jar, confirm } = await confirmingLogoutTo(POST_LOGOUT_URI);
    const orgPath = `/organizations/${(await app.http.get(`/applications/${app.root.applicationId}`)).body.organizationId as string}`;
    expect((await app.http.post(`${orgPath}/deactivate`)).status).toBe(200);
    let done: Visit;
    try {
      done = await jar.submit(confirm, { logout: 'yes' });
    } finally {
      expect((await app.http.post(`${orgPath}/reactivate`)).status).toBe(200);
    }
    await expectSignedOutHere(jar, done);
  });
});

describe('an ID token issued before its client’s idTokenSigningAlg changed, as id_token_hint', () => {
  const useAlg = async (alg: 'ES256' | 'RS256') =>
    expect((await app.http.patch(`/oauth-clients/${client.clientId}`, { idTokenSigningAlg: alg })).status).toBe(200);
  const silentlyWith = (jar: CookieJar, hint: string) => hosted.authorize({ prompt: 'none', id_token_hint: hint }, jar);
  const logoutWith = (jar: CookieJar, hint: string) =>
    jar.visit(oidc.buildEndSessionUrl(config, { id_token_hint: hint, post_logout_redirect_uri: POST_LOGOUT_URI }).href);
  // The other suites' client signs in ES256.
  afterEach(() => useAlg('ES256'));

  it('is still the OP’s own: a silent authorization answers with a code and the sign-out confirms, either way round', async () => {
    for (const [signedWith, changedTo] of [['ES256', 'RS256'], ['RS256', 'ES256']] as const) {
      await useAlg(signedWith);
      const jar = new CookieJar();
      const idToken = await signIn(jar);
      expect(decodeJwt(idToken).header.alg).toBe(signedWith);
      await useAlg(changedTo);
      const silent = await silentlyWith(jar, idToken);
      expect(silent.start.location, `${signedWith} → ${changedTo}`).toMatch(/^https:\/\/app\.example\/callback\?code=/);
      const confirm = await logoutWith(jar, idToken);
      expect(confirm.status, `${signedWith} → ${changedTo}`).toBe(200);
      expect(readForm(confirm.url, confirm.body).action).toBe(`${issuer}/oauth2/logout/confirm?app=${app.root.applicationId}`);
      expect((await jar.submit(confirm, { logout: 'yes' })).location).toBe(POST_LOGOUT_URI);
    }
  });

  it('signed by another key, in either algorithm and with the OP’s key ids, is refused and ends nothing', async () => {
    const jar = new CookieJar();
    const { payload } = decodeJwt(await signIn(jar));
    const published = ((await (await fetch(`${issuer}/.well-known/jwks.json`)).json()) as { keys: JWK[] }).keys;
    for (const alg of ['RS256', 'ES256'] as const) {
      const { privateKey } = await generateKeyPair(alg);
      const kid = published.find((key) => key.alg === alg)!.kid!;
      const forged = await new SignJWT(payload).setProtectedHeader({ alg, kid }).sign(privateKey);
      const silent = await silentlyWith(jar, forged);
      const answer = new URL(silent.start.location!);
      expect(answer.searchParams.get('error'), alg).toBe('invalid_request');
      expect(answer.searchParams.get('error_description')).toBe('could not validate id_token_hint');
      const refused = await logoutWith(jar, forged);
      expect(refused.status, alg).toBe(400);
      expect(refused.body).toContain('<h1>Sign-out is not possible</h1>');
    }
    expect(await signedIn(jar)).toBe(true);
  });
});

describe('oidc-provider’s self-submitting forms', () => {
  it('a logout without a session: the sign-out form posts to the OP, which may redirect to the post-logout URI only; naming no client, it is refused', async () => {
    const jar = new CookieJar();
    // Naming no client, the service's sign-in page cannot tell whose session to end: refused on a page of its own.
    const bare = await jar.visit(`${issuer}/oauth2/logout`);
    expect(bare.status).toBe(400);
    expect(bare.body).toContain('<h1>Sign-out is not possible</h1>');

    const named = await jar.visit(`${issuer}/oauth2/logout?client_id=${client.clientId}&post_logout_redirect_uri=${encodeURIComponent(POST_LOGOUT_URI)}&state=s`);
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

const startDevice = async (device: TestClient) => {
  const started = await postForm(`${issuer}/oauth2/device_authorization`, { client_id: device.clientId, scope: 'openid offline_access', tenant: acme });
  expect(started.status).toBe(200);
  return started.body as { device_code: string; verification_uri_complete: string };
};
/** The code confirmed in `jar`: the answer after which the OP either asks for a sign-in or approves at once. */
const confirmCode = async (jar: CookieJar, verificationUriComplete: string) => jar.submit(await jar.submit(await jar.visit(verificationUriComplete), {}), {});

/** Approves a new device code in `jar`, signing `email` in on the way. */
async function approveSigningIn(jar: CookieJar, device: TestClient, email: string) {
  const started = await startDevice(device);
  const toSignIn = await confirmCode(jar, started.verification_uri_complete);
  const resumed = await jar.submit(await jar.visit(toSignIn.location!), { email, password: PASSWORD });
  expect((await jar.visit(resumed.location!)).body).toContain('Your device is now signed in');
  return started;
}

/** Where a new device code confirmed in `jar` ends: the sign-in form, or approved at once. */
async function confirmedPage(jar: CookieJar, device: TestClient) {
  let visit = await confirmCode(jar, (await startDevice(device)).verification_uri_complete);
  for (let hop = 0; hop < 6 && visit.status !== 200; hop += 1) visit = await jar.visit(visit.location!);
  return visit;
}

describe('a sign-out and the device verification page’s sign-in in the same browser', () => {
  async function signOut(jar: CookieJar) {
    const confirm = await jar.visit(oidc.buildEndSessionUrl(config, { id_token_hint: await signIn(jar), post_logout_redirect_uri: POST_LOGOUT_URI }).href);
    expect((await jar.submit(confirm, { logout: 'yes' })).location).toBe(POST_LOGOUT_URI);
  }

  it('ends with the sign-out of the same user: another device is not approved in their name without a password; the approved one stays signed in', async () => {
    const device = await createTestClient(app, { type: 'device', authMethod: 'none' });
    const jar = new CookieJar();
    const tv = await approveSigningIn(jar, device, 'ada@example.com');
    const tvTokens = (await postForm(`${issuer}/oauth2/token`, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: tv.device_code, client_id: device.clientId })).body;
    expect(tvTokens.refresh_token).toEqual(expect.any(String));

    // Signed in there, the next device would be approved as Ada at once.
    expect((await confirmedPage(jar, device)).body).toContain('Your device is now signed in');
    await signOut(jar);

    // Whoever uses this browser next is asked to sign in before a device is approved as Ada.
    const asked = await confirmedPage(jar, device);
    expect(asked.body).toContain('name="password"');
    expect(asked.body).not.toContain('Your device is now signed in');
    // The device's own sign-in outlives the browser's sign-out.
    const refreshed = await postForm(`${issuer}/oauth2/token`, { grant_type: 'refresh_token', refresh_token: tvTokens.refresh_token, client_id: device.clientId });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
  });

  it('a sign-out of another user leaves the device pages signed in as the user who approved there', async () => {
    const device = await createTestClient(app, { type: 'device', authMethod: 'none' });
    expect((await app.http.post('/users', { email: 'cy@example.com', name: 'Cy', password: PASSWORD, tenantId: acme })).status).toBe(201);
    const jar = new CookieJar();
    await approveSigningIn(jar, device, 'cy@example.com');
    await signOut(jar);
    expect((await confirmedPage(jar, device)).body).toContain('Your device is now signed in');
  });
});

describe('an account switch and the device verification page’s sign-in in the same browser', () => {
  /** Approves a new device code in `jar` as `email`, who signs in there; the device's refresh token. */
  async function approveAs(jar: CookieJar, device: TestClient, email: string): Promise<string> {
    const started = await approveSigningIn(jar, device, email);
    const tokens = await postForm(`${issuer}/oauth2/token`, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: started.device_code, client_id: device.clientId });
    expect(tokens.body.refresh_token).toEqual(expect.any(String));
    return tokens.body.refresh_token as string;
  }

  /** `email` signs in to the web client in `jar`, which holds another account's session: through the OP's sign-out of it. */
  async function switchTo(jar: CookieJar, email: string) {
    const flow = await hosted.authorize({ prompt: 'login' }, jar);
    const resumed = await jar.visit((await jar.submit(flow.page, { email, password: PASSWORD })).location!);
    const signOut = readForm(resumed.url, resumed.body);
    expect(signOut).toMatchObject({ action: `${issuer}/oauth2/logout/confirm?app=${app.root.applicationId}`, fields: { logout: 'yes' } });
    const callback = await jar.followOut(await jar.submit(resumed, {}), issuer);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
    expect(tokens.claims()?.sub).toBe(userIds.get(email));
  }

  const refreshes = async (device: TestClient, refreshToken: string) =>
    (await postForm(`${issuer}/oauth2/token`, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: device.clientId })).status;

  const userIds = new Map<string, string>();
  beforeAll(async () => {
    for (const [email, name] of [['dee@example.com', 'Dee'], ['eve@example.com', 'Eve'], ['fay@example.com', 'Fay']] as const) {
      const created = await app.http.post('/users', { email, name, password: PASSWORD, tenantId: acme });
      expect(created.status).toBe(201);
      userIds.set(email, created.body.id);
    }
  });

  it('another account signing in ends the device page’s sign-in of the one it replaces; the device approved stays signed in', async () => {
    const device = await createTestClient(app, { type: 'device', authMethod: 'none' });
    const jar = new CookieJar();
    const tv = await approveAs(jar, device, 'dee@example.com');
    await hosted.signIn({ email: 'dee@example.com', password: PASSWORD }, {}, jar);
    expect((await confirmedPage(jar, device)).body).toContain('Your device is now signed in');

    await switchTo(jar, 'eve@example.com');

    // Eve, at Dee's browser, is asked to sign in before a device is approved as Dee.
    const asked = await confirmedPage(jar, device);
    expect(asked.body).toContain('name="password"');
    expect(asked.body).not.toContain('Your device is now signed in');
    expect(await refreshes(device, tv)).toBe(200);
  });

  it('the device page’s sign-in of a third account is left alone', async () => {
    const device = await createTestClient(app, { type: 'device', authMethod: 'none' });
    const jar = new CookieJar();
    const tv = await approveAs(jar, device, 'fay@example.com');
    await hosted.signIn({ email: 'dee@example.com', password: PASSWORD }, {}, jar);
    await switchTo(jar, 'eve@example.com');
    expect((await confirmedPage(jar, device)).body).toContain('Your device is now signed in');
    expect(await refreshes(device, tv)).toBe(200);
  });
});

describe('an ID token signed before a signing-key rotation, as the hint of a logout', () => {
  /** Ada signed in, then a rotation at once; its ID token's key retired `ago` ms back, as every instance reads it. */
  async function hintAfterRotation(rotation: { revoke?: boolean }, ago = 0): Promise<{ jar: CookieJar; idToken: string }> {
    const jar = new CookieJar();
    const idToken = await signIn(jar);
    const keys = app.gatehouse.services.signingKeys;
    await keys.rotate({ at: 'once', ...rotation });
    await app.sql("update signing_key set retired_at = ? where kid = ? and status = 'retired'", [new Date(Date.now() - ago), decodeJwt(idToken).header.kid]);
    // Reads the keys afresh, as every instance does within its cache period.
    await keys.ensureActiveKey();
    return { jar, idToken };
  }

  it('names its session a day after the rotation, past every token’s lifetime but within the session’s: the session ends', async () => {
    const { jar, idToken } = await hintAfterRotation({}, 24 * 3600_000);
    expect(await signedIn(jar)).toBe(true);
    const confirm = await jar.visit(oidc.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: POST_LOGOUT_URI, state: 's' }).href);
    expect(confirm.status, confirm.body.slice(0, 300)).toBe(200);
    expect((await jar.submit(confirm, { logout: 'yes' })).location).toBe(`${POST_LOGOUT_URI}?state=s`);
    expect(await signedIn(jar)).toBe(false);
  });

  it('is refused once its key is revoked (a leak): the error page, no redirect, the session stays', async () => {
    const { jar, idToken } = await hintAfterRotation({ revoke: true });
    const refused = await jar.visit(oidc.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: POST_LOGOUT_URI, state: 's' }).href);
    expect(refused.status).toBe(400);
    expect(refused.location).toBeUndefined();
    expect(refused.body).toContain('<h1>Sign-out is not possible</h1>');
    expect(await signedIn(jar)).toBe(true);
  });
});
