import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar, type Visit } from '../support/cookie-jar.ts';
import { usingEmbeddedDatabase } from '../support/database.ts';
import { HttpClient } from '../support/http.ts';
import { createTestClient, discover, postForm, type TestClient } from '../support/oauth.ts';
import { queuedBehind } from '../support/row-lock.ts';

/**
 * Device authorization (RFC 8628) with openid-client polling, and the user in a browser on the hosted verification
 * pages: the code entered on the page, confirmed, the user signed in on the hosted sign-in form, each page in the
 * branding of the device client's application (and of the tenant the device authorization named).
 */
const PASSWORD = 'Correct-Horse-9';

let app: TestApp;
let issuer: string;
let device: TestClient;
let ada: string;
let acme: string;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  acme = await app.createTenant('Acme');
  ada = (await app.http.post('/users', { email: 'ada@example.com', name: 'Ada', password: PASSWORD, tenantId: acme })).body.id;
  device = await createTestClient(app, { type: 'device', authMethod: 'none' });
  const appId = app.root.applicationId;
  expect((await app.http.put('/branding', { colors: { primary: '#222222' }, copy: { 'device.confirm': 'Next <step>' } })).status).toBe(200);
  expect((await app.http.patch(`/applications/${appId}`, { tenancyConfig: { brandingScope: 'tenant' } })).status).toBe(200);
  const acmeBranding = await app.http.put(`/applications/${appId}/tenants/${acme}/branding`, {
    logoUrl: 'https://cdn.acme.example/logo.png',
    colors: { primary: '#ff0000', background: '#fff7f7', text: '#330000' },
    copy: { 'device.title': 'Connect your Acme TV', 'device.doneTitle': 'Acme TV connected' },
  });
  expect(acmeBranding.status).toBe(200);
});
afterAll(async () => app?.close());

const ACME_LOOK = '--gh-primary:#ff0000;--gh-background:#fff7f7;--gh-text:#330000';
const APP_LOOK = '--gh-primary:#222222';
const PLAIN_LOOK = '--gh-primary:#4f46e5';

async function start(parameters: Record<string, string> = {}, client = device) {
  const config = await discover(app, client.clientId, oidc.None());
  return { config, started: await oidc.initiateDeviceAuthorization(config, { scope: 'openid email offline_access', ...parameters }) };
}

const pollOnce = (deviceCode: string, client = device) =>
  postForm(`${app.baseUrl}/oauth2/token`, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode, client_id: client.clientId });

/** A device code past its expiry, as the OP reads it (`exp`) and the store does (`expires_at`). */
const expireDeviceCode = (deviceCode: string) =>
  app.gatehouse.services.orm.em
    .getConnection()
    .execute(
      `update oidc_model set expires_at = now() - interval '1 second', payload = jsonb_set(payload, '{exp}', to_jsonb(extract(epoch from now())::bigint - 1))
        where model = 'DeviceCode' and id = ?`,
      [deviceCode],
    );

/** The headers every hosted page carries, with a form posting to the OP (`'self'`) or none. */
function expectPageHeaders(page: Visit, formAction: string) {
  const csp = page.headers.get('content-security-policy') ?? '';
  const nonce = /style-src 'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeDefined();
  expect(page.body).toContain(`<style nonce="${nonce}">`);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain(`form-action ${formAction}`);
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(page.body).toMatch(/<html lang="en" dir="ltr">/);
  expect(page.body).toMatch(/<main>[\s\S]*<h1>[^<]+<\/h1>[\s\S]*<\/main>/);
  expect(page.body).not.toMatch(/<script|onfocus=|oidc-provider/);
}

const DEFAULT_COLOR = /--gh-primary:(#[0-9a-f]{6})/;

describe('device verification pages', () => {
  it('the user enters the code on the branded page, confirms, signs in; the device gets tokens', async () => {
    const { config, started } = await start({ tenant: 'acme' });
    expect(started.verification_uri).toBe(`${issuer}/oauth2/device`);
    expect((await pollOnce(started.device_code)).body.error).toBe('authorization_pending');

    // verification_uri_complete: the hosted input page, prefilled, in the look of Acme (named by the device).
    const jar = new CookieJar();
    const input = await jar.visit(started.verification_uri_complete!);
    expect(input.status).toBe(200);
    expectPageHeaders(input, "'self'");
    expect(input.body).toContain(ACME_LOOK);
    expect(input.body).toContain('<img class="logo" src="https://cdn.acme.example/logo.png" alt="Acme">');
    expect(input.headers.get('content-security-policy')).toContain('img-src https://cdn.acme.example;');
    expect(input.body).toContain('<h1>Connect your Acme TV</h1>');
    expect(input.body).toContain('<label for="user_code">Device code</label>');
    expect(input.body).toContain(`value="${started.user_code}"`);

    const confirm = await jar.submit(input, {});
    expect(confirm.status).toBe(200);
    expectPageHeaders(confirm, "'self'");
    expect(confirm.body).toContain(ACME_LOOK);
    expect(confirm.body).toContain(`<p class="code"><code>${started.user_code}</code></p>`);
    expect(confirm.body).toContain('name="abort" value="yes"');

    const toSignIn = await jar.submit(confirm, {});
    expect(toSignIn.status).toBe(303);
    expect(toSignIn.location).toMatch(new RegExp(`^${issuer}/interaction/`));
    const login = await jar.visit(toSignIn.location!);
    expect(login.body).toContain(ACME_LOOK);
    const resumed = await jar.submit(login, { email: 'ada@example.com', password: PASSWORD });
    expect(resumed.status).toBe(303);
    const done = await jar.visit(resumed.location!);
    expect(done.status).toBe(200);
    expectPageHeaders(done, "'none'");
    expect(done.body).toContain(ACME_LOOK);
    expect(done.body).toContain('<h1>Acme TV connected</h1>');
    expect(done.body).toContain('Your device is now signed in to Acme.');

    const tokens = await oidc.pollDeviceAuthorizationGrant(config, { ...started, interval: 1 });
    expect(tokens.claims()?.sub).toBe(ada);
    expect(await oidc.fetchUserInfo(config, tokens.access_token, ada)).toEqual({ sub: ada, tenant_id: acme, email: 'ada@example.com', email_verified: true });
    // While the approving browser's session holds the device's grant, the device's tokens are of that session, listed.
    const [approving] = (await app.http.get(`/users/${ada}/sessions`)).body.data;
    expect(approving).toMatchObject({ clientId: device.clientId, tenantId: acme });
    for (const token of [tokens.access_token, tokens.refresh_token!]) {
      expect((await app.http.post('/sessions/validate', { token })).body).toMatchObject({ valid: true, session: { id: approving.id } });
    }

    // The code is spent: entering it again is refused, in the look of its client, and approves nothing.
    const again = await jar.submit(await jar.visit(started.verification_uri_complete!), {});
    expect(again.status).toBe(400);
    expect(again.body).toContain(ACME_LOOK);
    expect(again.body).toContain('This code has already been used or has expired.');
    expect(again.body).not.toContain('name="confirm"');
  });

  it('the device authorization’s ui_locales is the language of its code’s pages, from the first; a code without one keeps the browser’s', async () => {
    const { started } = await start({ ui_locales: 'de' });
    const jar = new CookieJar();
    const input = await jar.visit(started.verification_uri_complete!);
    expect(input.body).toMatch(/<html lang="de" dir="ltr">/);
    const confirm = await jar.submit(input, {});
    expect(confirm.status).toBe(200);
    expect(confirm.body).toMatch(/<html lang="de" dir="ltr">/);
    const login = await jar.visit((await jar.submit(confirm, {})).location!);
    expect(login.body).toMatch(/<html lang="de" dir="ltr">/);

    const { started: plain } = await start();
    const english = await jar.submit(await jar.visit(plain.verification_uri_complete!), {});
    expect(english.body).toMatch(/<html lang="en" dir="ltr">/);
  });

  it('the bare verification page has the plain look until a code names the application', async () => {
    const { started } = await start();
    const jar = new CookieJar();
    const input = await jar.visit(`${app.baseUrl}/oauth2/device`);
    expect(input.status).toBe(200);
    expectPageHeaders(input, "'self'");
    expect(DEFAULT_COLOR.exec(input.body)?.[1]).toBe(PLAIN_LOOK.split(':')[1]);
    expect(input.body).toContain('<h1>Connect a device</h1>');
    expect(input.body).not.toContain('name="client_id"');
    // Typed as people type it: lower case, no dash.
    const confirm = await jar.submit(input, { user_code: started.user_code.replace('-', '').toLowerCase() });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain(APP_LOOK);
    expect(confirm.body).toContain(`<code>${started.user_code}</code>`);
    // Copy is text, never markup.
    expect(confirm.body).toContain('<button type="submit">Next &#60;step&#62;</button>');
  });

  it('a wrong code gets the page again with the error, in the look of the page it was typed on; nothing is approved', async () => {
    const { started } = await start({ tenant: acme });
    const jar = new CookieJar();
    const branded = await jar.visit(started.verification_uri_complete!);
    const wrong = await jar.submit(branded, { user_code: 'BCDF-GHJK' });
    expect(wrong.status).toBe(400);
    expectPageHeaders(wrong, "'self'");
    expect(wrong.body).toContain(ACME_LOOK);
    expect(wrong.body).toContain('<p id="form-error" class="error" role="alert">The code you entered is incorrect or has expired.');
    expect(wrong.body).toMatch(/<input id="user_code"[^>]* value="BCDF-GHJK" aria-describedby="form-error" aria-invalid="true" autofocus>/);

    const plain = new CookieJar();
    const bare = await plain.visit(`${app.baseUrl}/oauth2/device`);
    const wrongOnBare = await plain.submit(bare, { user_code: '"><script>alert(1)</script>' });
    expect(wrongOnBare.status).toBe(400);
    expect(wrongOnBare.body).toContain(PLAIN_LOOK);
    expect(wrongOnBare.body).toContain('value="&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;"');
    expect(wrongOnBare.body).not.toContain('<script');

    expect((await pollOnce(started.device_code)).body.error).toBe('authorization_pending');
  });

  it('a browser signed in to one application, confirming another application’s device code, is asked to sign in', async () => {
    // Signed in to this application through its device flow (no tenant named: the application's look).
    const jar = new CookieJar();
    const { started } = await start();
    const toSignIn = await jar.submit(await jar.submit(await jar.visit(started.verification_uri_complete!), {}), {});
    const resumed = await jar.submit(await jar.visit(toSignIn.location!), { email: 'ada@example.com', password: PASSWORD });
    expect((await jar.visit(resumed.location!)).status).toBe(200);

    const another = await app.bootstrapAnother();
    const foreign = await createTestClient(app, { type: 'device', authMethod: 'none', applicationId: another.applicationId });
    const foreignStarted = await oidc.initiateDeviceAuthorization(await discover(app, foreign.clientId, oidc.None()), { scope: 'openid' });
    const confirmed = await jar.submit(await jar.submit(await jar.visit(foreignStarted.verification_uri_complete!), {}), {});
    expect(confirmed.status, confirmed.body.slice(0, 500)).toBe(303);
    expect(confirmed.location).toMatch(new RegExp(`^${issuer}/interaction/`));
    const login = await jar.visit(confirmed.location!);
    expect(login.status).toBe(200);
    expect(login.body).toContain('name="password"');
  });

  it('the resume step without the browser’s session (a link opened elsewhere) is the code page with an error, not a 500', async () => {
    const url = `${app.baseUrl}/oauth2/device/no-such-interaction`;
    // No cookie at all, and cookies that are not the OP's (unsigned, made up).
    for (const cookie of [undefined, '_session=made-up; _interaction_resume=made-up']) {
      const page = await fetch(url, { headers: cookie === undefined ? {} : { cookie }, redirect: 'manual' });
      expect(page.status).toBe(400);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(await page.text()).toContain('name="user_code"');
    }
  });

  it('a prefilled code is escaped, and a forged xsrf token is refused', async () => {
    const jar = new CookieJar();
    const page = await jar.visit(`${app.baseUrl}/oauth2/device?user_code=${encodeURIComponent('"><img src=x>')}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('value="&#34;&#62;&#60;img src=x&#62;"');
    const forged = await jar.submit(page, { xsrf: 'forged', user_code: 'BCDF-GHJK' });
    expect(forged.status).toBe(400);
    expect(forged.body).toContain('The code could not be checked. Enter it again.');
  });

  it('a code named twice in the link prefills nothing: the page to type one, not the OP\'s auto-posting form', async () => {
    const page = await new CookieJar().visit(`${app.baseUrl}/oauth2/device?user_code=BCDF-GHJK&user_code=LMNP-QRST`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('name="user_code"');
    expect(page.body).not.toContain('BCDF-GHJK');
    expect(page.body).not.toContain('<script');
  });

  it('an expired code is refused and approves nothing', async () => {
    const { started } = await start({ tenant: 'acme' });
    const jar = new CookieJar();
    const branded = await jar.visit(started.verification_uri_complete!);
    await app.gatehouse.services.orm.em
      .getConnection()
      .execute(`update oidc_model set expires_at = now() - interval '1 second' where model = 'DeviceCode' and user_code = ?`, [
        started.user_code.replace('-', ''),
      ]);
    const expired = await jar.submit(branded, {});
    expect(expired.status).toBe(400);
    expect(expired.body).toContain(ACME_LOOK);
    expect(expired.body).toContain('The code you entered is incorrect or has expired.');
    expect(expired.body).not.toContain('name="confirm"');
  });

  it('cancelling on the confirmation page refuses the device', async () => {
    const { started } = await start();
    const jar = new CookieJar();
    const confirm = await jar.submit(await jar.visit(started.verification_uri_complete!), {});
    const cancelled = await jar.submit(confirm, { abort: 'yes' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toContain('The sign-in of the device was cancelled.');
    expect((await pollOnce(started.device_code)).body.error).toBe('access_denied');
  });

  it('a sign-in refused after the password (the user suspended meanwhile) denies the device: access_denied at its next poll', async () => {
    const globex = await app.createTenant('Globex');
    const kai = (await app.http.post('/users', { email: 'kai@example.com', password: PASSWORD, tenantId: acme })).body.id as string;
    expect((await app.http.patch(`/users/${kai}`, { tenantIds: [acme, globex] })).status).toBe(200);
    const { started } = await start();
    const jar = new CookieJar();
    const toSignIn = await jar.submit(await jar.submit(await jar.visit(started.verification_uri_complete!), {}), {});
    const signedIn = await jar.submit(await jar.visit(toSignIn.location!), { email: 'kai@example.com', password: PASSWORD });
    expect(signedIn.status, signedIn.body).toBe(303);
    const chooser = await jar.visit(signedIn.location!);
    expect(chooser.body).toContain('name="tenant"');
    await app.gatehouse.services.orm.em.getConnection().execute(`update app_user set status = 'suspended' where id = ?`, [kai]);

    const refused = await jar.submit(chooser, { tenant: globex });
    expect(refused.status, refused.body).toBe(303);
    const page = await jar.visit(refused.location!);
    expect(page.status).toBe(403);
    expectPageHeaders(page, "'self'");
    expect(page.body).toContain(APP_LOOK);
    expect(page.body).toMatch(/role="alert">This sign-in cannot be completed: the device was not signed in to [^<]+\.</);
    expect((await pollOnce(started.device_code)).body).toEqual({ error: 'access_denied', error_description: 'the sign-in was refused' });
  });

  it('a device authorization whose tenant the sign-in cannot serve is invalid_request before any code; the tenants it can are served', async () => {
    const deviceAuthorization = (client: TestClient, tenant?: string) =>
      postForm(`${app.baseUrl}/oauth2/device_authorization`, { client_id: client.clientId, scope: 'openid', ...(tenant === undefined ? {} : { tenant }) });
    const expectRefused = async (client: TestClient, tenant: string | undefined, description: string) => {
      const refused = await deviceAuthorization(client, tenant);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ error: 'invalid_request', error_description: description });
    };
    const expectServed = async (client: TestClient, tenant?: string) => {
      const served = await deviceAuthorization(client, tenant);
      expect(served.status, JSON.stringify(served.body)).toBe(200);
    };
    await expectRefused(device, 'no-such-tenant', 'the tenant parameter names no tenant of this application');
    await expectServed(device, 'ACME');

    // A client bound to a tenant: another one, or an unknown one, alike.
    const bound = await createTestClient(app, { type: 'device', authMethod: 'none', tenantId: acme });
    const other = await app.createTenant('Bound Elsewhere');
    for (const tenant of [other, 'no-such-tenant']) await expectRefused(bound, tenant, 'the tenant parameter names another tenant than this client signs in to');
    for (const tenant of [undefined, 'acme']) await expectServed(bound, tenant);

    // An isolated application: each tenant has its own sign-in, so the request names one.
    const isolated = await app.bootstrapAnother();
    await app.createTenant('North', isolated);
    const admin = new HttpClient(app.baseUrl, { apiKey: isolated.apiKey });
    expect((await admin.patch(`/applications/${isolated.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const isolatedDevice = await createTestClient(app, { type: 'device', authMethod: 'none', applicationId: isolated.applicationId });
    await expectRefused(isolatedDevice, undefined, 'this application signs in to one of its tenants: the tenant parameter is required');
    await expectServed(isolatedDevice, 'north');
  });

  it('a device authorization naming no scope the OP serves is invalid_scope before any code (RFC 6749 3.3, RFC 8628 3.2)', async () => {
    const codesBefore = await app.sql(`select count(*)::int as n from oidc_model where model = 'DeviceCode'`);
    for (const scope of [undefined, '', 'foo', 'foo bar']) {
      const refused = await postForm(`${app.baseUrl}/oauth2/device_authorization`, { client_id: device.clientId, tenant: 'acme', ...(scope === undefined ? {} : { scope }) });
      expect(refused.status, `scope ${String(scope)}`).toBe(400);
      expect(refused.body, `scope ${String(scope)}`).toMatchObject({
        error: 'invalid_scope',
        error_description: 'the request names no scope this server supports (openid, offline_access, email, profile, roles, or a permission of the resource it names)',
      });
    }
    expect(await app.sql(`select count(*)::int as n from oidc_model where model = 'DeviceCode'`)).toEqual(codesBefore);
  });

  it('a known scope beside unknown ones is served with the known ones, and the device signs in', async () => {
    const { started } = await start({ tenant: 'acme', scope: 'openid foo' });
    const jar = new CookieJar();
    const toSignIn = await jar.submit(await jar.submit(await jar.visit(started.verification_uri_complete!), {}), {});
    const signedIn = await jar.submit(await jar.visit(toSignIn.location!), { email: 'ada@example.com', password: PASSWORD });
    expect(signedIn.status, signedIn.body).toBe(303);
    expect((await jar.visit(signedIn.location!)).body).toContain('Your device is now signed in to Acme.');
    const tokens = await pollOnce(started.device_code);
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    expect(tokens.body.scope).toBe('openid');
  });

  it('other clients may not start the device flow: unauthorized_client (RFC 8628 3.2, RFC 6749 5.2), and no code is stored', async () => {
    const spa = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: ['https://app.example/cb'] });
    const refused = await postForm(`${app.baseUrl}/oauth2/device_authorization`, { client_id: spa.clientId, scope: 'openid' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'unauthorized_client', error_description: 'urn:ietf:params:oauth:grant-type:device_code is not allowed for this client' });
    expect(await app.sql(`select id from oidc_model where model = 'DeviceCode' and payload->>'clientId' = ?`, [spa.clientId])).toEqual([]);
  });
});

describe('a code entered again (its sign-in left unfinished)', () => {
  let lin: string;
  beforeAll(async () => {
    lin = (await app.http.post('/users', { email: 'lin@example.com', name: 'Lin', password: PASSWORD, tenantId: acme })).body.id;
  });

  const USED = 'This code has already been used or has expired.';

  /** The code entered and confirmed in `jar`: the address of the sign-in it begins, which the user may leave. */
  async function confirmCode(jar: CookieJar, verificationUriComplete: string): Promise<string> {
    const confirm = await jar.submit(await jar.visit(verificationUriComplete), {});
    expect(confirm.status, confirm.body.slice(0, 500)).toBe(200);
    expect(confirm.body).toContain('name="abort" value="yes"');
    const toSignIn = await jar.submit(confirm, {});
    expect(toSignIn.status, toSignIn.body.slice(0, 500)).toBe(303);
    expect(toSignIn.location).toMatch(new RegExp(`^${issuer}/interaction/`));
    return toSignIn.location!;
  }

  /** Signs in as `email` on the sign-in page at `signInUrl`: the address where the OP resumes the device's sign-in. */
  async function signIn(jar: CookieJar, signInUrl: string, email: string): Promise<string> {
    const resumed = await jar.submit(await jar.visit(signInUrl), { email, password: PASSWORD });
    expect(resumed.status, resumed.body.slice(0, 500)).toBe(303);
    return resumed.location!;
  }

  /**
   * Requests that each read the undecided code, then wait to save it: its row is held until all of them wait on it
   * (test/support/row-lock.ts). PostgreSQL only.
   */
  const queuedOnCode = (deviceCode: string, ...visits: (() => Promise<Visit>)[]) =>
    queuedBehind(app.gatehouse.services.orm, { table: 'oidc_model', applicationId: app.root.applicationId, id: deviceCode }, { lock: 'share' }, visits);

  const expectUsed = (page: Visit) => {
    expect(page.status, page.body.slice(0, 500)).toBe(400);
    expect(page.body).toContain(ACME_LOOK);
    expect(page.body).toContain(USED);
    expect(page.body).not.toContain('name="confirm"');
  };

  const createUser = async (email: string): Promise<string> => (await app.http.post('/users', { email, name: email, password: PASSWORD, tenantId: acme })).body.id;
  const grantsOf = async (userId: string) =>
    (await app.sql<{ id: string }>(`select id from oidc_model where model = 'Grant' and payload->>'accountId' = ?`, [userId])).map((row) => row.id);
  const sessionsOf = async (userId: string) => (await app.http.get(`/users/${userId}/sessions`)).body.data as { clientId: string }[];

  /** What `userId`'s sign-in that finished too late leaves: nothing of its grant but the record of its revocation. */
  async function expectGrantRevoked(userId: string, grantId: string) {
    expect(await grantsOf(userId)).toEqual([]);
    expect(await app.sql(`select model from oidc_model where grant_id = ?`, [grantId])).toEqual([]);
    expect(await sessionsOf(userId)).toEqual([]);
    expect(await app.sql(`select actor_type, actor_id, action, tenant_id, after from audit_log where target_id = ?`, [grantId])).toEqual([
      { actor_type: 'user', actor_id: userId, action: 'grant.revoked', tenant_id: acme, after: { reason: 'device_code_used', clientId: device.clientId, userId } },
    ]);
  }

  /** How a code is decided, or lost, while a sign-in for it is open in another browser. */
  const OUTCOMES = {
    async approved(verificationUriComplete: string) {
      const jar = new CookieJar();
      const done = await jar.visit(await signIn(jar, await confirmCode(jar, verificationUriComplete), 'ada@example.com'));
      expect(done.status, done.body.slice(0, 500)).toBe(200);
      expect(done.body).toContain('<h1>Acme TV connected</h1>');
    },
    async denied(verificationUriComplete: string) {
      const jar = new CookieJar();
      const cancelled = await jar.submit(await jar.submit(await jar.visit(verificationUriComplete), {}), { abort: 'yes' });
      expect(cancelled.body).toContain('The sign-in of the device was cancelled.');
    },
    async expired(_: string, deviceCode: string) {
      await expireDeviceCode(deviceCode);
    },
    // Expired and swept: the resume finds no code at all.
    async swept(_: string, deviceCode: string) {
      await app.sql(`delete from oidc_model where model = 'DeviceCode' and id = ?`, [deviceCode]);
    },
  } satisfies Record<string, (verificationUriComplete: string, deviceCode: string) => Promise<void>>;
  /** The device's next poll: the decision as it was (no error: its tokens). */
  const POLLED = { approved: undefined, denied: 'access_denied', expired: 'expired_token', swept: 'invalid_grant' } as const;

  it.each(Object.keys(OUTCOMES) as (keyof typeof OUTCOMES)[])(
    'a sign-in finished after its code was %s leaves no grant (revoked, audited) and is told the code is used or expired',
    async (outcome) => {
      const late = await createUser(`late-${outcome}@example.com`);
      const { started } = await start({ tenant: 'acme' });
      const jar = new CookieJar();
      const left = await confirmCode(jar, started.verification_uri_complete!);
      await OUTCOMES[outcome](started.verification_uri_complete!, started.device_code);

      // The sign-in page answers the login (it makes the grant) before the OP resumes and finds the code decided.
      const resumes = await signIn(jar, left, `late-${outcome}@example.com`);
      const [grant] = await grantsOf(late);
      expect(grant).toEqual(expect.any(String));
      expectUsed(await jar.visit(resumes));
      await expectGrantRevoked(late, grant!);
      // The decision stands as it was.
      expect((await pollOnce(started.device_code)).body.error).toBe(POLLED[outcome]);
    },
  );

  it('a sign-in that finishes while its code is undecided keeps its grant, which yields the device’s tokens', async () => {
    const onTime = await createUser('on-time@example.com');
    const { started } = await start({ tenant: 'acme' });
    const jar = new CookieJar();
    const done = await jar.visit(await signIn(jar, await confirmCode(jar, started.verification_uri_complete!), 'on-time@example.com'));
    expect(done.status, done.body.slice(0, 500)).toBe(200);
    const [grant] = await grantsOf(onTime);
    expect(await app.sql(`select action from audit_log where target_id = ?`, [grant])).toEqual([]);
    const tokens = await pollOnce(started.device_code);
    expect(tokens.status).toBe(200);
    expect(await app.sql(`select grant_id from oidc_model where model = 'RefreshToken' and id = ?`, [tokens.body.refresh_token])).toEqual([{ grant_id: grant }]);
  });

  it('starts a new confirmation and sign-in, in the same browser or another; the device gets the tokens of the sign-in that finished', async () => {
    const { config, started } = await start({ tenant: 'acme' });
    const phone = new CookieJar();
    const left = await confirmCode(phone, started.verification_uri_complete!);
    expect((await pollOnce(started.device_code)).body.error).toBe('authorization_pending');

    // The same browser, its sign-in page lost: the code again is a new confirmation and a new sign-in.
    const again = await confirmCode(phone, started.verification_uri_complete!);
    expect(again).not.toBe(left);
    // Another browser too, typed on the bare page.
    const laptop = new CookieJar();
    const typed = await laptop.submit(await laptop.visit(`${app.baseUrl}/oauth2/device`), { user_code: started.user_code });
    expect(typed.status, typed.body.slice(0, 500)).toBe(200);
    const toSignIn = await laptop.submit(typed, {});
    expect(toSignIn.status).toBe(303);

    const done = await laptop.visit(await signIn(laptop, toSignIn.location!, 'lin@example.com'));
    expect(done.status, done.body.slice(0, 500)).toBe(200);
    expect(done.body).toContain('<h1>Acme TV connected</h1>');
    const tokens = await oidc.pollDeviceAuthorizationGrant(config, { ...started, interval: 1 });
    expect(tokens.claims()?.sub).toBe(lin);
    expect(await oidc.fetchUserInfo(config, tokens.access_token, lin)).toMatchObject({ sub: lin, tenant_id: acme });

    // Approved once: the sign-ins left open are refused when finished, and the code cannot be entered again.
    expectUsed(await phone.visit(await signIn(phone, again, 'ada@example.com')));
    expectUsed(await phone.visit(await signIn(phone, left, 'ada@example.com')));
    expectUsed(await phone.submit(await phone.visit(started.verification_uri_complete!), {}));
  });

  it('a code cancelled while its first sign-in is open stays refused: that sign-in, finished, approves nothing', async () => {
    const { started } = await start({ tenant: 'acme' });
    const tv = new CookieJar();
    const left = await confirmCode(tv, started.verification_uri_complete!);
    const other = new CookieJar();
    const cancelled = await other.submit(await other.submit(await other.visit(started.verification_uri_complete!), {}), { abort: 'yes' });
    expect(cancelled.status, cancelled.body.slice(0, 500)).toBe(200);
    expect(cancelled.body).toContain('The sign-in of the device was cancelled.');

    expectUsed(await tv.visit(await signIn(tv, left, 'ada@example.com')));
    expectUsed(await other.submit(await other.visit(started.verification_uri_complete!), {}));
    expect((await pollOnce(started.device_code)).body).toEqual({ error: 'access_denied', error_description: 'End-User aborted interaction' });
  });

  it('an expired code is refused, entered again or at the end of its open sign-in', async () => {
    const { started } = await start({ tenant: 'acme' });
    const jar = new CookieJar();
    const left = await confirmCode(jar, started.verification_uri_complete!);
    const entry = await jar.visit(started.verification_uri_complete!);
    await expireDeviceCode(started.device_code);

    const again = await jar.submit(entry, {});
    expect(again.status).toBe(400);
    expect(again.body).toContain('The code you entered is incorrect or has expired.');
    expect(again.body).not.toContain('name="confirm"');
    expectUsed(await jar.visit(await signIn(jar, left, 'ada@example.com')));
    expect((await pollOnce(started.device_code)).body.error).toBe('expired_token');
  });

  it.skipIf(usingEmbeddedDatabase())('two browsers finishing one code at once: exactly one approves it, the other is told it is used', async () => {
    const { config, started } = await start({ tenant: 'acme' });
    const adas = new CookieJar();
    const lins = new CookieJar();
    const adaResumes = await signIn(adas, await confirmCode(adas, started.verification_uri_complete!), 'ada@example.com');
    const linResumes = await signIn(lins, await confirmCode(lins, started.verification_uri_complete!), 'lin@example.com');

    const [adaPage, linPage] = await queuedOnCode(started.device_code, () => adas.visit(adaResumes), () => lins.visit(linResumes));
    const pages = [adaPage!, linPage!];
    const won = pages.filter((page) => page.status === 200);
    expect(won, pages.map((page) => `${page.status} ${page.body.slice(0, 300)}`).join('\n')).toHaveLength(1);
    expect(won[0]!.body).toContain('<h1>Acme TV connected</h1>');
    expectUsed(pages.find((page) => page.status !== 200)!);

    const tokens = await oidc.pollDeviceAuthorizationGrant(config, { ...started, interval: 1 });
    expect(tokens.claims()?.sub).toBe(won[0] === adaPage ? ada : lin);
  });

  it.skipIf(usingEmbeddedDatabase())('the approval that loses the race leaves no grant: revoked, audited, listed as no session', async () => {
    const [mo, noa] = [await createUser('mo@example.com'), await createUser('noa@example.com')];
    const { started } = await start({ tenant: 'acme' });
    const mos = new CookieJar();
    const noas = new CookieJar();
    const moResumes = await signIn(mos, await confirmCode(mos, started.verification_uri_complete!), 'mo@example.com');
    const noaResumes = await signIn(noas, await confirmCode(noas, started.verification_uri_complete!), 'noa@example.com');
    const [[moGrant], [noaGrant]] = [await grantsOf(mo), await grantsOf(noa)];
    expect([moGrant, noaGrant]).toEqual([expect.any(String), expect.any(String)]);

    const [moPage, noaPage] = await queuedOnCode(started.device_code, () => mos.visit(moResumes), () => noas.visit(noaResumes));
    const [winner, loser] = moPage!.status === 200 ? [{ id: mo, grant: moGrant }, { id: noa, grant: noaGrant, page: noaPage! }] : [{ id: noa, grant: noaGrant }, { id: mo, grant: moGrant, page: moPage! }];
    expectUsed(loser.page);
    await expectGrantRevoked(loser.id, loser.grant!);

    // The winner's grant stands, and yields the device's tokens.
    expect(await grantsOf(winner.id)).toEqual([winner.grant]);
    expect(await sessionsOf(winner.id)).toMatchObject([{ clientId: device.clientId }]);
    expect(await app.sql(`select action from audit_log where target_id = ?`, [winner.grant])).toEqual([]);
    expect((await pollOnce(started.device_code)).status).toBe(200);
  });

  it.skipIf(usingEmbeddedDatabase())('an approval and a cancel at once: one of them stands, the other is told the code is used', async () => {
    const { started } = await start({ tenant: 'acme' });
    const adas = new CookieJar();
    const resumes = await signIn(adas, await confirmCode(adas, started.verification_uri_complete!), 'ada@example.com');
    const other = new CookieJar();
    const confirmation = await other.submit(await other.visit(started.verification_uri_complete!), {});

    const [approval, cancel] = await queuedOnCode(started.device_code, () => adas.visit(resumes), () => other.submit(confirmation, { abort: 'yes' }));
    const poll = await pollOnce(started.device_code);
    if (approval!.status === 200) {
      expect(approval!.body).toContain('<h1>Acme TV connected</h1>');
      expectUsed(cancel!);
      expect(poll.status, JSON.stringify(poll.body)).toBe(200);
    } else {
      expectUsed(approval!);
      expect(cancel!.body).toContain('The sign-in of the device was cancelled.');
      expect(poll.body.error).toBe('access_denied');
    }
  });
});

describe('device flow', () => {
  let otherDevice: TestClient;
  beforeAll(async () => {
    const other = await app.bootstrapAnother();
    otherDevice = await createTestClient(app, { type: 'device', authMethod: 'none', applicationId: other.applicationId });
    const globex = await app.createTenant('Globex', other);
    const created = await new HttpClient(app.baseUrl, { apiKey: other.apiKey }).post('/users', { email: 'bob@globex.example', password: PASSWORD, tenantId: globex });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });

  /** Approves the code as `email` in `jar`, through an account switch's sign-out form when the OP asks for one. */
  async function approve(jar: CookieJar, verificationUriComplete: string, email: string) {
    const toSignIn = await jar.submit(await jar.submit(await jar.visit(verificationUriComplete), {}), {});
    expect(toSignIn.status, toSignIn.body.slice(0, 500)).toBe(303);
    let visit = await jar.submit(await jar.visit(toSignIn.location!), { email, password: PASSWORD });
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

  it('a device’s sign-in ends, recorded, with its client’s deletion; the OP already refused its refresh token', async () => {
    const tv = await createTestClient(app, { type: 'device', authMethod: 'none' });
    const { started } = await start({ tenant: 'acme' }, tv);
    await approve(new CookieJar(), started.verification_uri_complete!, 'ada@example.com');
    const tokens = await pollOnce(started.device_code, tv);
    expect(tokens.status).toBe(200);
    await app.sql(`update oidc_model set expires_at = now() - interval '1 second' where model = 'Session' and payload->>'accountId' = ?`, [ada]);
    const [{ grant_id: grantId }] = (await app.sql(`select grant_id from oidc_model where id = ?`, [tokens.body.refresh_token])) as [{ grant_id: string }];
    const { session } = (await app.http.post('/sessions/validate', { token: tokens.body.refresh_token })).body;
    expect(session).toMatchObject({ clientId: tv.clientId });

    expect((await app.http.delete(`/oauth-clients/${tv.clientId}`)).status).toBe(204);

    const refreshed = await postForm(`${app.baseUrl}/oauth2/token`, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: tv.clientId });
    expect([refreshed.status, refreshed.body.error]).toEqual([401, 'invalid_client']);
    expect(await app.sql(`select 1 from oidc_model where id = ? or grant_id = ?`, [grantId, grantId])).toEqual([]);
    expect(await app.sql(`select tenant_id, after from audit_log where action = 'session.revoked' and target_id = ?`, [session.id])).toEqual([
      { tenant_id: acme, after: { reason: 'client_deleted', grantsRevoked: 1 } },
    ]);
  });

  it('a device whose approving browser session ended is a session of its own: listed, validated with it, revoked by its id', async () => {
    const jar = new CookieJar();
    const { started } = await start({ tenant: 'acme' });
    await approve(jar, started.verification_uri_complete!, 'ada@example.com');
    const tokens = await pollOnce(started.device_code);
    expect(tokens.status).toBe(200);
    // The browser's session ends (its idle timeout); the device's grant does not end with it.
    await app.sql(`update oidc_model set expires_at = now() - interval '1 second' where model = 'Session' and payload->>'accountId' = ?`, [ada]);
    const [{ grant_id: grantId }] = (await app.sql(`select grant_id from oidc_model where id = ?`, [tokens.body.refresh_token])) as [{ grant_id: string }];
    const { session } = (await app.http.post('/sessions/validate', { token: tokens.body.refresh_token })).body;
    expect(session).toMatchObject({ userId: ada, tenantId: acme, clientId: device.clientId, ip: null, userAgent: null, methods: [] });
    expect((await app.http.post('/sessions/validate', { token: tokens.body.access_token })).body).toEqual({ valid: true, session });
    const listed = (path: string) => app.http.get(path).then((list) => list.body.data.filter((row: { id: string }) => row.id === session.id));
    for (const path of [`/users/${ada}/sessions`, '/sessions', `/applications/${app.root.applicationId}/tenants/${acme}/sessions`]) expect(await listed(path), path).toEqual([session]);
    // Refusals: another application's key sees no such session and ends nothing.
    const other = app.as({ apiKey: (await app.bootstrapAnother()).apiKey });
    expect((await other.delete(`/sessions/${session.id}`)).status).toBe(404);
    expect((await other.get(`/sessions/${session.id}`)).status).toBe(404);

    expect((await app.http.delete(`/sessions/${session.id}`)).status).toBe(204);
    const refresh = await postForm(`${app.baseUrl}/oauth2/token`, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: device.clientId });
    expect(refresh.body.error).toBe('invalid_grant');
    expect((await app.http.post('/sessions/validate', { token: tokens.body.access_token })).body).toEqual({ valid: false, session: null });
    expect(await app.sql<unknown>(`select 1 from oidc_model where grant_id = ? or id = ?`, [grantId, grantId])).toEqual([]);
    expect(await listed(`/users/${ada}/sessions`)).toEqual([]);
  });

  const adasGrants = async () =>
    (
      await app.gatehouse.services.orm.em
        .getConnection()
        .execute<{ id: string }[]>(`select id from oidc_model where model = 'Grant' and payload->>'accountId' = ? order by id`, [ada])
    ).map((row) => row.id);

  /** Confirms the code in `jar`, whose session is signed in: any step the OP asks of the pages goes on without a form. */
  async function approveSignedIn(jar: CookieJar, verificationUriComplete: string) {
    let visit = await jar.submit(await jar.submit(await jar.visit(verificationUriComplete), {}), {});
    for (let hop = 0; hop < 6 && visit.status !== 200; hop += 1) visit = await jar.visit(visit.location!);
    expect(visit.status, visit.body.slice(0, 500)).toBe(200);
    expect(visit.body).toContain('Your device is now signed in');
  }

  it('each device approved in one browser by one account has its own grant: its own tokens, session and revocation', async () => {
    const grantOf = async (refreshToken: string) =>
      (await app.sql<{ grant_id: string }>(`select grant_id from oidc_model where model = 'RefreshToken' and id = ?`, [refreshToken]))[0]?.grant_id;
    const sessionOf = async (token: string) => (await app.http.post('/sessions/validate', { token })).body as { valid: boolean; session: { id: string } | null };
    const refresh = (refreshToken: string) => postForm(`${app.baseUrl}/oauth2/token`, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: device.clientId });

    const jar = new CookieJar();
    const { started: tv } = await start({ tenant: 'acme' });
    await approve(jar, tv.verification_uri_complete!, 'ada@example.com');
    const { started: stick } = await start({ tenant: 'acme' });
    await approveSignedIn(jar, stick.verification_uri_complete!);
    const [tvTokens, stickTokens] = [(await pollOnce(tv.device_code)).body, (await pollOnce(stick.device_code)).body];
    expect(await oidc.fetchUserInfo((await start()).config, stickTokens.access_token, ada)).toMatchObject({ sub: ada, tenant_id: acme });

    const [tvGrant, stickGrant] = [await grantOf(tvTokens.refresh_token), await grantOf(stickTokens.refresh_token)];
    expect(tvGrant).toEqual(expect.any(String));
    expect(stickGrant).toEqual(expect.any(String));
    expect(stickGrant).not.toBe(tvGrant);
    // Two sign-ins in the user's list: the browser session's (the grant it holds now) and the other device's own.
    const [tvSession, stickSession] = [await sessionOf(tvTokens.access_token), await sessionOf(stickTokens.access_token)];
    expect(tvSession.valid && stickSession.valid).toBe(true);
    expect(tvSession.session!.id).not.toBe(stickSession.session!.id);
    const listed = ((await app.http.get(`/users/${ada}/sessions`)).body.data as { id: string }[]).map((row) => row.id);
    expect(listed).toEqual(expect.arrayContaining([tvSession.session!.id, stickSession.session!.id]));

    // Revoking one device's sign-in leaves the other's.
    expect((await app.http.delete(`/sessions/${tvSession.session!.id}`)).status).toBe(204);
    expect((await refresh(tvTokens.refresh_token)).body.error).toBe('invalid_grant');
    expect(await sessionOf(tvTokens.access_token)).toEqual({ valid: false, session: null });
    expect(await sessionOf(stickTokens.access_token)).toMatchObject({ valid: true });
    expect((await refresh(stickTokens.refresh_token)).status).toBe(200);
  });

  it('a second device cancelled in the same browser is refused and leaves the first device’s grant as it was', async () => {
    const jar = new CookieJar();
    const { started: tv } = await start({ tenant: 'acme' });
    await approve(jar, tv.verification_uri_complete!, 'ada@example.com');
    const tvTokens = (await pollOnce(tv.device_code)).body;
    const before = await adasGrants();

    const { started: stick } = await start({ tenant: 'acme' });
    const cancelled = await jar.submit(await jar.submit(await jar.visit(stick.verification_uri_complete!), {}), { abort: 'yes' });
    expect(cancelled.body).toContain('The sign-in of the device was cancelled.');
    expect((await pollOnce(stick.device_code)).body.error).toBe('access_denied');
    expect(await adasGrants()).toEqual(before);
    expect((await app.http.post('/sessions/validate', { token: tvTokens.access_token })).body).toMatchObject({ valid: true });
  });

  it('a second device’s code cancelled elsewhere before its approval resumes: told it is used, and the grant its step made is revoked', async () => {
    const jar = new CookieJar();
    const { started: tv } = await start({ tenant: 'acme' });
    await approve(jar, tv.verification_uri_complete!, 'ada@example.com');
    const before = await adasGrants();

    const { started: stick } = await start({ tenant: 'acme' });
    const toPages = await jar.submit(await jar.submit(await jar.visit(stick.verification_uri_complete!), {}), {});
    expect(toPages.status, toPages.body.slice(0, 500)).toBe(303);
    // The pages answer the signed-in user's step at once (a grant made), and the OP would resume it next.
    const resumes = await jar.visit(toPages.location!);
    expect(resumes.status, resumes.body.slice(0, 500)).toBe(303);
    const made = (await adasGrants()).filter((grant) => !before.includes(grant));
    expect(made).toHaveLength(1);
    const elsewhere = new CookieJar();
    await elsewhere.submit(await elsewhere.submit(await elsewhere.visit(stick.verification_uri_complete!), {}), { abort: 'yes' });

    const refused = await jar.visit(resumes.location!);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('This code has already been used or has expired.');
    expect(await adasGrants()).toEqual(before);
    const records = await app.gatehouse.services.orm.em.getConnection().execute(`select action, after from audit_log where target_id = ?`, [made[0]]);
    expect(records).toEqual([{ action: 'grant.revoked', after: { reason: 'device_code_used', clientId: device.clientId, userId: ada } }]);
    expect((await pollOnce(stick.device_code)).body.error).toBe('access_denied');
  });

  /** The user code as stored (oidc-provider's normal form: no dash). */
  const storedUserCode = (userCode: string) => userCode.toUpperCase().replace(/\W/g, '');

  /** oidc-provider draws user codes at random: a trigger makes the draws during `run` store `userCode`. */
  async function drawingUserCode<T>(userCode: string, run: () => Promise<T>): Promise<T> {
    await app.sql(`create function test_draw_user_code() returns trigger language plpgsql as $$
        begin new.user_code := '${userCode}'; return new; end $$`);
    await app.sql(`create trigger test_draw_user_code before insert on oidc_model for each row when (new.model = 'DeviceCode')
        execute function test_draw_user_code()`);
    try {
      return await run();
    } finally {
      await app.sql('drop trigger test_draw_user_code on oidc_model');
      await app.sql('drop function test_draw_user_code');
    }
  }

  it('a user code names one stored device, of any application: a second holding it is refused, so the code finds its own device', async () => {
    const { started: ours } = await start({ tenant: 'acme' });
    const { started: theirs } = await start({}, otherDevice);
    const code = storedUserCode(ours.user_code);
    const collide = app.sql(`update oidc_model set user_code = ?, payload = jsonb_set(payload, '{userCode}', to_jsonb(?::text)) where model = 'DeviceCode' and id = ?`, [
      code,
      code,
      theirs.device_code,
    ]);
    await expect(collide).rejects.toThrow(/oidc_model_user_code_key/);

    const jar = new CookieJar();
    const input = await jar.visit(ours.verification_uri_complete!);
    expect(input.body).toContain(ACME_LOOK);
    await approve(jar, ours.verification_uri_complete!, 'ada@example.com');
    expect((await pollOnce(ours.device_code)).status).toBe(200);
    expect((await pollOnce(theirs.device_code, otherDevice)).body.error).toBe('authorization_pending');
  });

  it('a device authorization whose drawn user code is already held is 503 temporarily_unavailable, nothing stored; asked again, it is served', async () => {
    const { started: held } = await start();
    const devices = () => app.sql(`select count(*)::int as n from oidc_model where model = 'DeviceCode'`);
    const before = await devices();
    const refused = await drawingUserCode(storedUserCode(held.user_code), () =>
      postForm(`${app.baseUrl}/oauth2/device_authorization`, { client_id: otherDevice.clientId, scope: 'openid' }),
    );
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(refused.body).toEqual({ error: 'temporarily_unavailable', error_description: 'the user code drawn for this device is in use: ask again' });
    expect(await devices()).toEqual(before);

    const served = await postForm(`${app.baseUrl}/oauth2/device_authorization`, { client_id: otherDevice.clientId, scope: 'openid' });
    expect(served.status, JSON.stringify(served.body)).toBe(200);
    expect(served.body.user_code).not.toBe(held.user_code);
  });

  it('approving another application’s device in the same browser leaves the first application’s device signed in', async () => {
    const jar = new CookieJar();
    const { started: first } = await start({ scope: 'openid email' });
    await approve(jar, first.verification_uri_complete!, 'ada@example.com');
    const tokens = await pollOnce(first.device_code);
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    const userinfo = () => fetch(`${issuer}/oauth2/userinfo`, { headers: { authorization: `Bearer ${tokens.body.access_token}` } });
    expect((await userinfo()).status).toBe(200);

    // Bob, a user of another customer's application, approves his TV on the same phone.
    const { started: second } = await start({ scope: 'openid email' }, otherDevice);
    await approve(jar, second.verification_uri_complete!, 'bob@globex.example');
    expect((await pollOnce(second.device_code, otherDevice)).status).toBe(200);

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

describe('polling the token endpoint (RFC 8628 3.4, 3.5)', () => {

  /** Moves a device code's recorded previous poll `seconds` into the past, as if the device had waited that long (none recorded: nothing). */
  const waitSincePoll = (deviceCode: string, seconds: number) =>
    app.sql(
      `update oidc_model set payload = jsonb_set(payload, '{gatehousePolling,at}', to_jsonb((payload #>> '{gatehousePolling,at}')::float8 - ?))
        where model = 'DeviceCode' and id = ? and payload->'gatehousePolling' is not null`,
      [seconds, deviceCode],
    );

  async function approve(verificationUriComplete: string) {
    const jar = new CookieJar();
    const toSignIn = await jar.submit(await jar.submit(await jar.visit(verificationUriComplete), {}), {});
    const resumed = await jar.submit(await jar.visit(toSignIn.location!), { email: 'ada@example.com', password: PASSWORD });
    expect((await jar.visit(resumed.location!)).status).toBe(200);
  }

  it('the interval is 5 s; a pending code polled sooner is slow_down, and its interval grows by 5 s each time', async () => {
    const { started } = await start();
    expect(started.interval).toBe(5);
    expect((await pollOnce(started.device_code)).body.error).toBe('authorization_pending');
    const tooSoon = await pollOnce(started.device_code);
    expect({ status: tooSoon.status, error: tooSoon.body.error }).toEqual({ status: 400, error: 'slow_down' });
    // 6 s is enough for 5 s, not for the 10 s it has become (and now 15 s).
    await waitSincePoll(started.device_code, 6);
    expect((await pollOnce(started.device_code)).body.error).toBe('slow_down');
    await waitSincePoll(started.device_code, 16);
    expect((await pollOnce(started.device_code)).body.error).toBe('authorization_pending');
  });

  it('a browser confirming the code keeps the pace the device was told', async () => {
    const { started } = await start();
    expect((await pollOnce(started.device_code)).body.error).toBe('authorization_pending');
    expect((await pollOnce(started.device_code)).body.error).toBe('slow_down');
    const jar = new CookieJar();
    const toSignIn = await jar.submit(await jar.submit(await jar.visit(started.verification_uri_complete!), {}), {});
    expect(toSignIn.status, toSignIn.body.slice(0, 500)).toBe(303);
    // Polled at the first pace (5 s), not the 10 s it has become: still too soon.
    await waitSincePoll(started.device_code, 6);
    expect((await pollOnce(started.device_code)).body.error).toBe('slow_down');
    await waitSincePoll(started.device_code, 16);
    expect((await pollOnce(started.device_code)).body.error).toBe('authorization_pending');
  });

  it('an approved code is answered at once; a resource it may not name is invalid_target and leaves it redeemable', async () => {
    const { started } = await start();
    expect((await pollOnce(started.device_code)).body.error).toBe('authorization_pending');
    await approve(started.verification_uri_complete!);
    const refused = await postForm(`${app.baseUrl}/oauth2/token`, {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: started.device_code,
      client_id: device.clientId,
      resource: 'https://evil.example/',
    });
    expect(refused.body.error).toBe('invalid_target');
    const tokens = await pollOnce(started.device_code);
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    expect(tokens.body.access_token).toEqual(expect.any(String));
  });

  it('an expired device code is expired_token', async () => {
    const { started } = await start();
    await expireDeviceCode(started.device_code);
    const expired = await pollOnce(started.device_code);
    expect({ status: expired.status, error: expired.body.error }).toEqual({ status: 400, error: 'expired_token' });
  });
});
