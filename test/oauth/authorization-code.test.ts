import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { CookieJar, readForm, type Visit } from '../support/cookie-jar.ts';
import { REDIRECT_URI, startHostedTestApp, type HostedTestApp } from '../support/hosted-app.ts';
import { expectHostedHeaders, expectSelfSubmittingForm } from '../support/hosted-headers.ts';
import { authorizationRequest, createTestClient, decodeJwt, discover, FULL_CONSENT } from '../support/oauth.ts';
import { usingEmbeddedDatabase } from '../support/database.ts';
import { queuedBehind, type RowHolder } from '../support/row-lock.ts';

const PASSWORD = 'Correct-Horse-9';

let hosted: HostedTestApp;
let app: TestApp;
let issuer: string;
let managementApi: string;
let config: oidc.Configuration;
let tenantId: string;
let aliceId: string;

beforeAll(async () => {
  hosted = await startHostedTestApp();
  ({ app, issuer, config } = hosted);
  managementApi = `${issuer}/api/v1`;
  tenantId = await app.createTenant('Acme');
  const alice = await app.http.post('/users', { email: 'Alice@Example.com', name: 'Alice', password: PASSWORD, tenantId });
  expect(alice.status).toBe(201);
  aliceId = alice.body.id;
  expect((await app.http.post('/users', { email: 'jörg@example.com', password: PASSWORD })).status).toBe(201);
});
afterAll(async () => hosted?.close());

interface Flow {
  readonly jar: CookieJar;
  readonly verifier: string;
  readonly state: string;
  /** The hosted page the OP sent the browser to. */
  readonly page: Visit;
}

/** The RP starts a code + PKCE S256 authorization; the browser follows the OP's redirect to the hosted page. */
async function authorize(parameters: Record<string, string> = {}, jar = new CookieJar()): Promise<Flow> {
  const { url, verifier, state } = await authorizationRequest(config, { redirectUri: REDIRECT_URI, resource: '' }, { ...FULL_CONSENT, ...parameters });
  const start = await jar.visit(url.href);
  expect(start.status, start.body).toBeGreaterThanOrEqual(300);
  expect(start.location).toMatch(new RegExp(`^${issuer}/interaction/[\\w-]+$`));
  const page = await jar.visit(start.location!);
  return { jar, verifier, state, page };
}

async function signIn(parameters: Record<string, string> = {}, email = 'alice@example.com') {
  const flow = await authorize({ resource: managementApi, ...parameters });
  const posted = await flow.jar.submit(flow.page, { email, password: PASSWORD });
  expect(posted.status, posted.body).toBe(303);
  const url = await flow.jar.followOut(posted, issuer);
  const tokens = await oidc.authorizationCodeGrant(config, url, { pkceCodeVerifier: flow.verifier, expectedState: flow.state }, { resource: managementApi });
  return { flow, url, tokens };
}

/** A plain code request (no consent prompt, no resource), in `jar`, followed to the hosted page when the OP sends it there. */
const plainAuthorization = (parameters: Record<string, string> = {}, jar = new CookieJar()) => hosted.authorize(parameters, jar);

const errorMessage = (html: string) => /<p id="form-error"[^>]*>([^<]*)<\/p>/.exec(html)?.[1];

describe('hosted sign-in → authorization code', () => {
  it('renders an accessible, self-contained form with a CSRF field and the security headers', async () => {
    const { page } = await authorize();
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expectHostedHeaders(page);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/style-src 'nonce-[\w+/=]+'/);
    // The 303s after the POST lead through the OP to the client: browsers check form-action on those redirects.
    expect(csp).toContain("form-action 'self' https://app.example");
    expect(page.body).toMatch(/<html lang="en" dir="ltr">/);
    expect(page.body).toMatch(/<main>[\s\S]*<h1>Sign in<\/h1>[\s\S]*<\/main>/);
    expect(page.body).toContain('<label for="email">');
    expect(page.body).toContain('<label for="password">');
    expect(page.body).toContain('<input id="email" name="email" type="text" autocomplete="username" inputmode="email" spellcheck="false" autocapitalize="none" required>');
    expect(page.body).toMatch(/<input id="password" name="password" type="password" autocomplete="current-password" required>/);
    // No external asset, no script.
    expect(page.body).not.toMatch(/<script|<link rel="stylesheet"|https?:\/\/(?!app\.example)/);
    const form = readForm(page.url, page.body);
    expect(form.action).toBe(`${page.url}/login`);
    expect(Object.keys(form.fields).sort()).toEqual(['csrf', 'email', 'password']);
    expect(form.fields['csrf']).toMatch(/^[\w-]{43}$/);
  });

  it('signs in through the form: 303s to the callback with a code, which openid-client redeems with PKCE', async () => {
    const { flow, url, tokens } = await signIn();
    expect(url.searchParams.get('code')).toBeTruthy();
    expect(url.searchParams.get('state')).toBe(flow.state);
    expect(url.searchParams.get('iss')).toBe(issuer);

    const access = decodeJwt(tokens.access_token);
    expect(access.header).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    expect(access.payload).toMatchObject({ iss: issuer, sub: aliceId, aud: managementApi, app_id: app.root.applicationId, tenant_id: tenantId });

    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: issuer, sub: aliceId, email: 'Alice@Example.com', name: 'Alice' });
    expect(tokens.refresh_token).toBeTruthy();
  });

  it('the user access token authenticates on the management API, where a user holds no permission yet', async () => {
    const { tokens } = await signIn();
    const asUser = await app.as({ bearer: tokens.access_token }).get('/users');
    // Authenticated (not 401), with no permission: user permissions come with role assignments.
    expect(asUser.status).toBe(403);
    expect(asUser.body.code).toBe('forbidden');
    const forged = await app.as({ bearer: `${tokens.access_token.slice(0, -4)}AAAA` }).get('/users');
    expect(forged.status).toBe(401);
  });

  it('response_mode=form_post answers with a page that carries the code: never framed, cached or sniffed', async () => {
    const { flow } = await signIn();
    // Signed in already: the OP answers at once, with its self-submitting form instead of a redirect.
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid',
      response_mode: 'form_post',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      state: oidc.randomState(),
    });
    const page = await flow.jar.visit(url.href);
    expect(page.status, page.body).toBe(200);
    expect(page.body).toMatch(/<form[^>]+action="https:\/\/app\.example\/callback"/);
    expect(page.body).toMatch(/name="code" value="[\w-]+"/);
    // The OP's form submits itself with an inline script: the page policy forbids framing, not scripts.
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('userinfo answers with the granted claims for a userinfo access token', async () => {
    const { tokens } = await signIn();
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    const info = await oidc.fetchUserInfo(config, refreshed.access_token, aliceId);
    expect(info).toMatchObject({ sub: aliceId, email: 'Alice@Example.com', name: 'Alice' });
  });

  it('refresh tokens rotate and keep the tenant; replaying a used one revokes the family, the newest included', async () => {
    const { tokens } = await signIn();
    const first = tokens.refresh_token!;
    const rotated = await oidc.refreshTokenGrant(config, first, { resource: managementApi });
    expect(rotated.refresh_token).toBeTruthy();
    expect(rotated.refresh_token).not.toBe(first);
    expect(decodeJwt(rotated.access_token).payload).toMatchObject({ sub: aliceId, app_id: app.root.applicationId, tenant_id: tenantId });
    await expect(oidc.refreshTokenGrant(config, first)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(oidc.refreshTokenGrant(config, rotated.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});

describe('grants and tenants', () => {
  it('a sign-in to another tenant on the same browser makes a new grant, whose refresh tokens keep its tenant; the first sign-in’s end', async () => {
    const globex = await app.createTenant('Globex');
    const email = 'carol@example.com';
    const carol = await app.http.post('/users', { email, password: PASSWORD, tenantId });
    expect((await app.http.patch(`/users/${carol.body.id}`, { tenantIds: [tenantId, globex] })).status).toBe(200);
    const jar = new CookieJar();
    const redeem = async (flow: Flow, posted: Visit) => {
      expect(posted.status, posted.body).toBe(303);
      const url = await jar.followOut(posted, issuer);
      return oidc.authorizationCodeGrant(config, url, { pkceCodeVerifier: flow.verifier, expectedState: flow.state }, { resource: managementApi });
    };
    const first = await authorize({ resource: managementApi, tenant: tenantId }, jar);
    const inAcme = await redeem(first, await jar.submit(first.page, { email, password: PASSWORD }));
    // The same browser signs in again (a forced login, no tenant named): the user picks the other tenant.
    const second = await authorize({ resource: managementApi, prompt: 'login consent' }, jar);
    const signedIn = await jar.submit(second.page, { email, password: PASSWORD });
    expect(signedIn.status, signedIn.body).toBe(303);
    const choice = await jar.visit(signedIn.location!);
    expect(choice.status, choice.body).toBe(200);
    const inGlobex = await redeem(second, await jar.submit(choice, { tenant: globex }));
    expect(decodeJwt(inGlobex.access_token).payload).toMatchObject({ sub: carol.body.id, tenant_id: globex });
    // The browser session holds one grant per client: the first sign-in's ends with its tokens (no list would show it).
    await expect(oidc.refreshTokenGrant(config, inAcme.refresh_token!, { resource: managementApi })).rejects.toMatchObject({ error: 'invalid_grant' });
    const fromGlobex = await oidc.refreshTokenGrant(config, inGlobex.refresh_token!, { resource: managementApi });
    expect(decodeJwt(fromGlobex.access_token).payload).toMatchObject({ sub: carol.body.id, tenant_id: globex });
  });
});

describe('e-mail fields', () => {
  it('are text with an e-mail keyboard, so a non-ASCII address (valid for accounts, not for type="email") can be sent', async () => {
    const { jar, page } = await plainAuthorization();
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
      const { jar, page } = await plainAuthorization();
      const signedIn = await jar.submit(page, { email: 'unicode@example.com', password: typed });
      expect(signedIn.status, typed).toBe(303);
    }
    const { jar, page } = await plainAuthorization();
    const refused = await jar.submit(page, { email: 'unicode@example.com', password: 'Cafe-creme-78' });
    expect(refused.status).toBe(400);
  });
});

describe('oidc-provider’s self-submitting forms', () => {
  it('response_mode=form_post: the code’s form allows its own script and posts to the redirect URI’s origin (or the OP’s)', async () => {
    const { jar, page } = await plainAuthorization({ response_mode: 'form_post' });
    const signedIn = await jar.submit(page, { email: 'jörg@example.com', password: PASSWORD });
    // After the sign-in: the resumed authorization answers with the form. ('self' on every such form: on that route, a
    // sign-in that switches the session's account gets the OP's sign-out form instead.)
    const resumed = await jar.visit(signedIn.location!);
    expect(readForm(resumed.url, resumed.body)).toMatchObject({ action: REDIRECT_URI, fields: { code: expect.any(String) } });
    expectSelfSubmittingForm(resumed, "'self' https://app.example");

    // Signed in already: the authorization endpoint answers with the form at once.
    const again = await plainAuthorization({ response_mode: 'form_post' }, jar);
    expect(readForm(again.start.url, again.start.body).action).toBe(REDIRECT_URI);
    expectSelfSubmittingForm(again.start, "'self' https://app.example");
  });
});

describe('hosted sign-in refusals', () => {
  it('a wrong password and an unknown e-mail get the same page, status and generic message', async () => {
    const wrong = await authorize();
    const wrongPassword = await wrong.jar.submit(wrong.page, { email: 'alice@example.com', password: 'Wrong-Horse-9' });
    const unknown = await authorize();
    const unknownEmail = await unknown.jar.submit(unknown.page, { email: 'nobody@example.com', password: PASSWORD });
    for (const visit of [wrongPassword, unknownEmail]) {
      expect(visit.status).toBe(400);
      expect(visit.location).toBeUndefined();
      expectHostedHeaders(visit);
      expect(errorMessage(visit.body)).toBe('The email address or password is incorrect.');
      expect(visit.body).toContain('role="alert"');
      expect(visit.body).toContain('aria-describedby="form-error"');
    }
    // The typed e-mail is kept, the password never echoed.
    expect(wrongPassword.body).toContain('value="alice@example.com"');
    expect(wrongPassword.body).not.toContain('Wrong-Horse-9');
    // The same form can be submitted again and succeed.
    const retried = await wrong.jar.submit(wrongPassword, { password: PASSWORD });
    expect(retried.status).toBe(303);
  });

  it('a POST without the CSRF field, or with a wrong one, is a 403 page', async () => {
    const { jar, page } = await authorize();
    const form = readForm(page.url, page.body);
    const missing = await jar.visit(form.action, { form: { email: 'alice@example.com', password: PASSWORD } });
    const wrong = await jar.visit(form.action, { form: { csrf: 'x'.repeat(43), email: 'alice@example.com', password: PASSWORD } });
    for (const visit of [missing, wrong]) {
      expect(visit.status).toBe(403);
      expect(visit.location).toBeUndefined();
      expectHostedHeaders(visit);
      expect(visit.body).toContain('<h1>');
      expect(visit.body).not.toContain('<form');
    }
  });

  it('the CSRF token of one interaction does not pass on another', async () => {
    const first = await authorize();
    const second = await authorize({}, first.jar);
    const stolen = readForm(first.page.url, first.page.body).fields['csrf']!;
    const posted = await second.jar.submit(second.page, { csrf: stolen, email: 'alice@example.com', password: PASSWORD });
    expect(posted.status).toBe(403);
  });

  it('an unknown interaction, or one not bound to this browser, is an error page and no redirect', async () => {
    const stranger = new CookieJar();
    const unknown = await stranger.visit(`${issuer}/interaction/no-such-interaction`);
    const { page } = await authorize();
    const foreign = await stranger.visit(page.url);
    const { jar } = await authorize();
    const otherUid = await jar.visit(`${issuer}/interaction/another-uid`);
    for (const visit of [unknown, foreign, otherUid]) {
      expect(visit.status).toBe(400);
      expect(visit.location).toBeUndefined();
      expectHostedHeaders(visit);
      expect(visit.body).toContain('This sign-in request has expired or is not valid.');
    }
  });

  it('a form body in another format is 415, and an oversized one 413, both as pages', async () => {
    const { jar, page } = await authorize();
    const action = readForm(page.url, page.body).action;
    const json = await jar.visit(action, { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(json.status).toBe(415);
    const big = await jar.visit(action, { form: { email: 'a'.repeat(1024 * 1024 + 1), password: 'x' } });
    expect(big.status).toBe(413);
    expect(big.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('a form over 64 KiB or of more than 64 fields is 413 before it is read (parsing a 1 MiB one held the event loop for a second)', async () => {
    const { jar, page } = await authorize();
    const typed = { email: 'nobody@example.com', password: 'wrong-password' };
    const own = Object.keys({ ...readForm(page.url, page.body).fields, ...typed }).length;
    const more = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`f${index}`, '']));
    const many = await jar.submit(page, { ...typed, ...more(65 - own) });
    expect(many.status).toBe(413);
    expect(many.body).toContain('The form sent more data than a sign-in can hold.');
    expect((await jar.submit(page, { ...typed, password: ' '.repeat(64 * 1024) })).status).toBe(413);
    // At the limit the form is read: a wrong password.
    const read = await jar.submit(page, { ...typed, ...more(64 - own) });
    expect(read.status).toBe(400);
    expect(read.body).toContain('The email address or password is incorrect.');
  });

  // The embedded database runs one transaction at a time: a deletion cannot commit while a sign-in's write waits.
  it.skipIf(usingEmbeddedDatabase())('the application deleted while its sign-in is written: the expired page, no error', async () => {
    // The sign-in's record names the application and waits at commit on its held row; the deletion commits first.
    const doomed = await app.bootstrapAnother();
    const { clientId, clientSecret } = await createTestClient(app, { type: 'web', applicationId: doomed.applicationId, redirectUris: [REDIRECT_URI] });
    const configuration = await discover(app, clientId, oidc.ClientSecretBasic(clientSecret ?? ''));
    const created = await app.as({ apiKey: doomed.apiKey }).post('/users', { email: 'vic@example.com', password: PASSWORD });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { jar, page } = await hosted.signInPage({}, new CookieJar(), configuration);
    const deleting: RowHolder = { lock: 'update', beforeCommit: (em) => em.execute('delete from application where id = ?', [doomed.applicationId]) };
    const [answer] = await queuedBehind(app.gatehouse.services.orm, { table: 'application', id: doomed.applicationId }, deleting, [
      () => jar.submit(page, { email: 'vic@example.com', password: PASSWORD }),
    ]);
    expect(answer!.status, answer!.body).toBe(400);
    expectHostedHeaders(answer!);
    expect(answer!.body).toContain('This sign-in request has expired or is not valid.');
  });
});

describe('addresses under /interaction that are no page', () => {
  it('a POST-only form address opened with GET goes back to the interaction’s page', async () => {
    const { jar, page } = await plainAuthorization();
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
    const { jar, start } = await plainAuthorization();
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
