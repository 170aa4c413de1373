import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar } from '../support/cookie-jar.ts';
import { HttpClient } from '../support/http.ts';
import { authorizationRequest, createTestClient, discover, postForm, type TestClient } from '../support/oauth.ts';

/**
 * Edges of RP-initiated logout and the device flow: the session a logout ends, a device's tokens beside another
 * application's sign-in in the same browser, and guesses of user codes through verification_uri_complete.
 */
const REDIRECT_URI = 'https://app.example/callback';
const POST_LOGOUT_URI = 'https://app.example/signed-out';
const PASSWORD = 'Correct-Horse-Battery-9';

let app: TestApp;
let issuer: string;
let web: TestClient;
let webConfig: oidc.Configuration;
let device: TestClient;
let other: BootstrapResult;
let otherDevice: TestClient;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  web = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI], postLogoutRedirectUris: [POST_LOGOUT_URI] });
  webConfig = await discover(app, web.clientId, oidc.ClientSecretBasic(web.clientSecret ?? ''));
  device = await createTestClient(app, { type: 'device', authMethod: 'none' });
  const acme = await app.createTenant('Acme');
  expect((await app.http.post('/users', { email: 'ada@example.com', name: 'Ada', password: PASSWORD, tenantId: acme })).status).toBe(201);
  other = await app.bootstrapAnother();
  otherDevice = await createTestClient(app, { type: 'device', authMethod: 'none', applicationId: other.applicationId });
  const globex = await app.createTenant('Globex', other);
  const created = await new HttpClient(app.baseUrl, { apiKey: other.apiKey }).post('/users', { email: 'bob@globex.example', password: PASSWORD, tenantId: globex });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
});
afterAll(async () => app?.close());

/** Signs Ada in to the web client through the hosted form in `jar`; returns her ID token. */
async function signIn(jar: CookieJar): Promise<string> {
  const { url, verifier, state } = await authorizationRequest(webConfig, { redirectUri: REDIRECT_URI, resource: '' });
  const start = await jar.visit(url.href);
  const page = await jar.visit(start.location!);
  const callback = await jar.followOut(await jar.submit(page, { email: 'ada@example.com', password: PASSWORD }), issuer);
  const tokens = await oidc.authorizationCodeGrant(webConfig, callback, { pkceCodeVerifier: verifier, expectedState: state });
  return tokens.id_token!;
}

/** Whether the browser's session for the web client stands: a new authorization goes straight back with a code. */
async function signedIn(jar: CookieJar): Promise<boolean> {
  const { url } = await authorizationRequest(webConfig, { redirectUri: REDIRECT_URI, resource: '' });
  const start = await jar.visit(url.href);
  return start.location?.startsWith(`${REDIRECT_URI}?code=`) === true;
}

describe('RP-initiated logout', () => {
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
});

describe('device flow', () => {
  const start = async (client: TestClient, scope: string) =>
    oidc.initiateDeviceAuthorization(await discover(app, client.clientId, oidc.None()), { scope });

  async function approve(jar: CookieJar, verificationUriComplete: string, email: string) {
    const toSignIn = await jar.submit(await jar.submit(await jar.visit(verificationUriComplete), {}), {});
    expect(toSignIn.status, toSignIn.body.slice(0, 500)).toBe(303);
    let visit = await jar.submit(await jar.visit(toSignIn.location!), { email, password: PASSWORD });
    // Through the OP's own steps (an account switch's sign-out form included) to the success page.
    for (let hop = 0; hop < 6 && visit.status !== 200; hop += 1) visit = await jar.visit(visit.location!);
    if (visit.body.includes('name="logout"')) {
      const action = /action="([^"]+)"/.exec(visit.body)![1]!.replaceAll('&amp;', '&');
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(visit.body)![1]!;
      visit = await jar.visit(new URL(action, issuer).href, { form: { xsrf, logout: 'yes' } });
      for (let hop = 0; hop < 6 && visit.status !== 200; hop += 1) visit = await jar.visit(visit.location!);
    }
    expect(visit.status, visit.body.slice(0, 500)).toBe(200);
    expect(visit.body).toContain('Your device is now signed in');
  }

  const poll = (client: TestClient, deviceCode: string) =>
    postForm(`${app.baseUrl}/oauth2/token`, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode, client_id: client.clientId });

  it('approving another application’s device in the same browser leaves the first application’s device signed in', async () => {
    const jar = new CookieJar();
    const first = await start(device, 'openid email');
    await approve(jar, first.verification_uri_complete!, 'ada@example.com');
    const tokens = await poll(device, first.device_code);
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    const userinfo = () => fetch(`${issuer}/oauth2/userinfo`, { headers: { authorization: `Bearer ${tokens.body.access_token}` } });
    expect((await userinfo()).status).toBe(200);

    // Bob, a user of another customer's application, approves his TV on the same phone.
    const second = await start(otherDevice, 'openid email');
    await approve(jar, second.verification_uri_complete!, 'bob@globex.example');
    expect((await poll(otherDevice, second.device_code)).status).toBe(200);

    // Ada's device, of the first application, keeps its tokens.
    expect((await userinfo()).status).toBe(200);
  });
});

describe('user code guesses (RFC 8628 5.1)', () => {
  let throttled: TestApp;
  beforeAll(async () => {
    throttled = await startTestApp({ signInRateLimit: { max: 3, windowMs: 60_000 } }, { reachablePublicUrl: true });
  });
  afterAll(async () => throttled?.close());

  it('verification_uri_complete (a GET naming a code) counts towards the throttle: it tells a live code from a wrong one', async () => {
    const base = throttled.gatehouse.services.config.publicUrl;
    const client = await createTestClient(throttled, { type: 'device', authMethod: 'none' });
    const config = await oidc.discovery(new URL(base), client.clientId, {}, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
    // A live code's page is in its client's look and names the client; a wrong code's is plain.
    const tells = (body: string) => body.includes(`name="client_id" value="${client.clientId}"`);
    const jar = new CookieJar();
    expect(tells((await jar.visit(`${base}/oauth2/device?user_code=${started.user_code}`)).body)).toBe(true);
    expect(tells((await jar.visit(`${base}/oauth2/device?user_code=BCDF-GHJK`)).body)).toBe(false);
    // Guesses by POST are throttled...
    const page = await jar.visit(`${base}/oauth2/device`);
    let refused = false;
    for (let guess = 0; guess < 5 && !refused; guess += 1) refused = (await jar.submit(page, { user_code: 'BCDF-GHJK' })).status === 429;
    expect(refused).toBe(true);
    // ...and so must they be by GET: the same guess, answered whether it is right.
    const byGet = await jar.visit(`${base}/oauth2/device?user_code=${started.user_code}`);
    expect(byGet.status).toBe(429);
    expect(tells(byGet.body)).toBe(false);
  });
});
