import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar } from '../support/cookie-jar.ts';
import { fetchVia, type FetchLike } from '../support/host-fetch.ts';
import { mails } from '../support/email-sign-in.ts';
import { codeAuthorizationUrl, createTestClient } from '../support/oauth.ts';

/**
 * Behind an https PUBLIC_URL every answer asks browsers to keep to https (HSTS), and the OP's cookies carry the
 * prefixes browsers keep for a host's own secure cookies (`__Host-`, `__Secure-`), so that neither a sibling subdomain
 * nor a plain-http answer can plant a session; a sign-in goes through with them. Over http, neither (no browser would
 * keep such cookies there). A browser session lives the session policy's idle lifetime once signed in (3 days by
 * default), an interaction's hour before.
 */
const ISSUER = 'https://gatehouse.test';
const REDIRECT_URI = 'https://client.example/callback';
const PASSWORD = 'Correct-Horse-Battery-9';
const DAY = 24 * 3600;

let app: TestApp;
/** Every Set-Cookie line the service answered, in order. */
const setCookies: string[] = [];

/** The service as a browser on ISSUER's host reaches it, recording the cookies it sets. */
function recordingFetch(baseUrl: string): FetchLike {
  const via = fetchVia(baseUrl);
  return async (input, init) => {
    const response = await via(input, init);
    setCookies.push(...response.headers.getSetCookie());
    return response;
  };
}

/** The Set-Cookie lines of a cookie, and their attributes in lower case. */
const cookieLines = (name: string) =>
  setCookies.filter((line) => line.startsWith(`${name}=`)).map((line) => line.toLowerCase().split(';').map((part) => part.trim()));

/** Seconds until the browser session rows of the service expire, newest first. */
async function sessionLifetimes(of: TestApp): Promise<number[]> {
  const rows = await of.gatehouse.services.orm.em
    .getConnection()
    .execute<{ left: number }[]>(`select extract(epoch from expires_at - now())::float8 as "left" from oidc_model where model = 'Session' order by expires_at desc`);
  return rows.map((row) => row.left);
}

beforeAll(async () => {
  app = await startTestApp({ publicUrl: ISSUER });
});
afterAll(async () => app?.close());

describe('an https PUBLIC_URL', () => {
  it('every answer carries Strict-Transport-Security: the API’s, the OP’s and the hosted pages’', async () => {
    const browser = recordingFetch(app.baseUrl);
    for (const path of ['/healthz', '/api/v1/users', '/.well-known/openid-configuration', '/oauth2/device', '/interaction/unknown']) {
      const answer = await browser(`${ISSUER}${path}`);
      expect(answer.headers.get('strict-transport-security'), path).toBe(`max-age=${365 * DAY}`);
    }
  });

  it('a sign-in sets only prefixed, Secure cookies, and gets its code', async () => {
    const { clientId } = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
    const tenantId = await app.createTenant('Acme');
    expect((await app.http.post('/users', { email: 'ada@example.com', password: PASSWORD, tenantId })).status).toBe(201);
    setCookies.length = 0;
    const jar = new CookieJar(recordingFetch(app.baseUrl));
    const start = await jar.visit(codeAuthorizationUrl(ISSUER, clientId, REDIRECT_URI));
    const uid = /\/interaction\/([^/?]+)$/.exec(start.location ?? '')?.[1];
    expect(uid, `${start.status} ${start.body.slice(0, 300)}`).toBeDefined();
    const page = await jar.visit(start.location!);
    expect(page.status).toBe(200);
    const out = await jar.followOut(await jar.submit(page, { email: 'ada@example.com', password: PASSWORD }), ISSUER);
    expect(out.searchParams.get('code')).toBeTruthy();

    const names = new Set(setCookies.map((line) => line.slice(0, line.indexOf('='))));
    for (const name of names) expect(name, name).toMatch(/^__(Host|Secure)-/);
    for (const line of setCookies) expect(line.toLowerCase(), line).toContain('; secure');
    // __Host-: the application's session, at the path / of this host alone (no Domain).
    const session = cookieLines(`__Host-_session.${app.root.applicationId}`);
    expect(session.length).toBeGreaterThan(0);
    for (const attributes of session) {
      expect(attributes).toContain('path=/');
      expect(attributes.some((part) => part.startsWith('domain='))).toBe(false);
    }
    // __Secure-: the interaction's cookie, scoped to its path.
    expect(cookieLines('__Secure-_interaction')[0]).toContain(`path=/interaction/${uid!.toLowerCase()}`);
    // Signed in: the session lives the default session policy's idle lifetime, 3 days.
    const [lifetime] = await sessionLifetimes(app);
    expect(lifetime).toBeGreaterThan(3 * DAY - 60);
    expect(lifetime).toBeLessThanOrEqual(3 * DAY);
  });

  it('the proof a tenant choice carries is a __Secure- cookie of the interaction’s path, dropped once the choice is made', async () => {
    const { clientId } = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
    const [north, south] = [await app.createTenant('North choice'), await app.createTenant('South choice')];
    const user = await app.http.post('/users', { email: 'two@example.com', password: PASSWORD, tenantId: north });
    expect((await app.http.patch(`/users/${user.body.id}`, { tenantIds: [north, south] })).status).toBe(200);
    setCookies.length = 0;
    const jar = new CookieJar(recordingFetch(app.baseUrl));
    const start = await jar.visit(codeAuthorizationUrl(ISSUER, clientId, REDIRECT_URI));
    const page = await jar.visit(start.location!);
    const signedIn = await jar.submit(page, { email: 'two@example.com', password: PASSWORD });
    expect(signedIn.status).toBe(303);
    const pagePath = new URL(page.url).pathname;
    const proofLines = () => setCookies.filter((line) => line.startsWith('__Secure-gh_signin=')).map((line) => line.replace(/^([^=;]+)=[^;]+;/, '$1=<value>;'));
    expect(proofLines()).toEqual([`__Secure-gh_signin=<value>; Path=${pagePath}; Max-Age=600; HttpOnly; SameSite=Lax; Secure`]);
    const choice = await jar.visit(signedIn.location!);
    expect(choice.status).toBe(200);
    const out = await jar.followOut(await jar.submit(choice, { tenant: south }), ISSUER);
    expect(out.searchParams.get('code')).toBeTruthy();
    expect(jar.all().some((cookie) => cookie.name === '__Secure-gh_signin')).toBe(false);
    expect(proofLines().at(-1)).toBe(`__Secure-gh_signin=; Path=${pagePath}; Max-Age=0; HttpOnly; SameSite=Lax; Secure`);
    for (const line of setCookies) expect(line.toLowerCase(), line).toContain('; secure');
  });

  it('a tenant path’s session cookie is __Host-, a name of its own at the path /', async () => {
    const another = await app.bootstrapAnother();
    const tenantId = await app.createTenant('North', another);
    const isolated = await app.as({ apiKey: another.apiKey }).patch(`/applications/${another.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } });
    expect(isolated.status).toBe(200);
    setCookies.length = 0;
    const page = await recordingFetch(app.baseUrl)(`${ISSUER}/t/${tenantId}/oauth2/device`);
    expect(page.status).toBe(200);
    const [session] = cookieLines(`__Host-_session_t.${tenantId}`);
    expect(session).toContain('path=/');
    expect(setCookies.some((line) => line.startsWith('_session'))).toBe(false);
  });
});

describe('cookies a sibling subdomain plants (any but __Host-)', () => {
  /** What a sibling subdomain on https can give another browser: each of `from`'s cookies but the __Host- ones, at its path. */
  function plant(from: CookieJar, into: CookieJar) {
    for (const cookie of from.all()) {
      if (!cookie.name.startsWith('__Host-')) into.store(`${ISSUER}${cookie.path}`, [`${cookie.name}=${cookie.value}; Path=${cookie.path}`]);
    }
  }

  /** An attacker's sign-in started in their own browser: its jar and the interaction's first page. */
  async function attackersSignIn() {
    const { clientId } = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
    const attacker = new CookieJar(recordingFetch(app.baseUrl));
    const start = await attacker.visit(codeAuthorizationUrl(ISSUER, clientId, REDIRECT_URI));
    expect(start.location).toMatch(/\/interaction\/[^/?]+$/);
    return { attacker, page: await attacker.visit(start.location!) };
  }

  it('walk no other browser into the attacker’s sign-in: its pages are the browser’s that started it', async () => {
    const { attacker, page } = await attackersSignIn();
    expect(page.body).toContain('name="password"');
    const victim = new CookieJar(recordingFetch(app.baseUrl));
    plant(attacker, victim);
    const planted = await victim.visit(page.url);
    expect(planted.status).toBe(400);
    expect(planted.body).not.toContain('name="password"');
  });

  it('resume no other browser into the attacker’s finished sign-in: no code, no session there', async () => {
    expect((await app.http.post('/users', { email: 'mallory@example.com', password: PASSWORD })).status).toBe(201);
    const { attacker, page } = await attackersSignIn();
    const signedIn = await attacker.submit(page, { email: 'mallory@example.com', password: PASSWORD });
    expect(signedIn.location).toMatch(/\/oauth2\/authorize\/[^/?]+$/);
    const victim = new CookieJar(recordingFetch(app.baseUrl));
    plant(attacker, victim);
    const resumed = await victim.visit(signedIn.location!);
    expect(resumed.location ?? '').not.toContain('code=');
    expect(victim.all().some((cookie) => cookie.name.startsWith('__Host-_session'))).toBe(false);
    // The attacker's own browser resumes it.
    expect((await attacker.followOut(signedIn, ISSUER)).searchParams.get('code')).toBeTruthy();
  });
});

describe('the browser id of notifyNewBrowser (gh_browser)', () => {
  const VICTIM = 'vic@example.com';
  const browserId = () => randomBytes(32).toString('base64url');
  const newSignInMails = async () => (await mails(app.http, VICTIM, 'new_sign_in')).length;
  let clientId: string;

  beforeAll(async () => {
    ({ clientId } = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] }));
    expect((await app.http.post('/users', { email: VICTIM, password: PASSWORD })).status).toBe(201);
    expect((await app.http.put('/policies/session', { notifyNewBrowser: true })).status).toBe(200);
  });
  afterAll(async () => {
    expect((await app.http.put('/policies/session', {})).status).toBe(200);
  });

  /** The victim's password typed in `jar`'s browser; the Set-Cookie lines of the sign-in's answer. */
  async function signIn(jar: CookieJar): Promise<string[]> {
    const start = await jar.visit(codeAuthorizationUrl(ISSUER, clientId, REDIRECT_URI, { prompt: 'login' }));
    const signedIn = await jar.submit(await jar.visit(start.location!), { email: VICTIM, password: PASSWORD });
    expect(signedIn.status).toBe(303);
    return signedIn.headers.getSetCookie();
  }

  it('is a __Host- cookie, which no sibling subdomain can plant', async () => {
    const lines = await signIn(new CookieJar(recordingFetch(app.baseUrl)));
    expect(lines).toContainEqual(expect.stringMatching(/^__Host-gh_browser=[\w-]{43}; Path=\/; Max-Age=34560000; HttpOnly; SameSite=Lax; Secure$/));
    expect(lines.some((line) => line.startsWith('__Secure-gh_browser='))).toBe(false);
  });

  it('one planted under the older __Secure- name is never made known: the planter’s sign-in with the password is still news', async () => {
    const planted = browserId();
    const phone = new CookieJar(recordingFetch(app.baseUrl));
    phone.store(`${ISSUER}/`, [`__Secure-gh_browser=${planted}; Path=/; Secure`]);
    const before = await newSignInMails();
    await signIn(phone);
    expect(await newSignInMails()).toBe(before + 1);
    // The attacker's own browser carries the planted id under either name.
    const attacker = new CookieJar(recordingFetch(app.baseUrl));
    attacker.store(`${ISSUER}/`, [`__Secure-gh_browser=${planted}; Path=/; Secure`, `__Host-gh_browser=${planted}; Path=/; Secure`]);
    await signIn(attacker);
    expect(await newSignInMails()).toBe(before + 2);
  });

  it('a browser known under the older __Secure- name stays known, and gets a __Host- id of its own', async () => {
    const former = browserId();
    const [user] = await app.sql<{ id: string }>('select id from app_user where email = ?', [VICTIM]);
    await app.sql('insert into known_browser (application_id, user_id, browser_hash) values (?, ?, ?)', [
      app.root.applicationId,
      user!.id,
      createHash('sha256').update(former).digest('base64url'),
    ]);
    const laptop = new CookieJar(recordingFetch(app.baseUrl));
    laptop.store(`${ISSUER}/`, [`__Secure-gh_browser=${former}; Path=/; Secure`]);
    const before = await newSignInMails();
    const lines = await signIn(laptop);
    expect(await newSignInMails()).toBe(before);
    expect(lines).toContainEqual(expect.stringMatching(/^__Host-gh_browser=[\w-]{43}; /));
    expect(lines).toContainEqual('__Secure-gh_browser=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure');
    expect(laptop.all().map((cookie) => cookie.name)).not.toContain('__Secure-gh_browser');
    // Known under its new id too.
    await signIn(laptop);
    expect(await newSignInMails()).toBe(before);
  });
});

describe('browser sessions without an account', () => {
  it('a visit of an open page (the device page) makes a session that lives an hour, not days', async () => {
    const before = (await sessionLifetimes(app)).length;
    setCookies.length = 0;
    expect((await recordingFetch(app.baseUrl)(`${ISSUER}/oauth2/device`)).status).toBe(200);
    expect(cookieLines('__Host-_session').length).toBeGreaterThan(0);
    const lifetimes = await sessionLifetimes(app);
    expect(lifetimes).toHaveLength(before + 1);
    const newest = Math.min(...lifetimes);
    expect(newest).toBeGreaterThan(3000);
    expect(newest).toBeLessThanOrEqual(3600);
  });
});

describe('an http PUBLIC_URL', () => {
  it('carries no Strict-Transport-Security and keeps the plain cookie names', async () => {
    const plain = await startTestApp();
    try {
      const answer = await fetchVia(plain.baseUrl)('http://gatehouse.test/oauth2/device');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('strict-transport-security')).toBeNull();
      const names = answer.headers.getSetCookie().map((line) => line.slice(0, line.indexOf('=')));
      expect(names).toContain('_session');
      expect(names.some((name) => name.startsWith('__'))).toBe(false);
    } finally {
      await plain.close();
    }
  });
});
