import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar, type Visit } from '../support/cookie-jar.ts';
import { HttpClient } from '../support/http.ts';
import { codeAuthorizationUrl, createTestClient } from '../support/oauth.ts';

/**
 * The service's sign-in page serves every application (every customer's): one browser signed in to two of them keeps
 * both sessions. Signing in to the second, or out of it, leaves the first signed in (src/oidc/session-application.ts);
 * before, the OP's one session switched its account, signing the user out of the first application.
 */
const REDIRECT_URI = 'https://app.example/callback';
const PASSWORD = 'Correct-Horse-Battery-9';

let app: TestApp;
let issuer: string;

interface Customer {
  readonly application: BootstrapResult;
  readonly clientId: string;
  readonly email: string;
}
const customers: Customer[] = [];

/** An application with a web client and one user (in a tenant) who signs in with `email`. */
async function customer(application: BootstrapResult, email: string): Promise<Customer> {
  const { clientId } = await createTestClient(app, { type: 'web', applicationId: application.applicationId, redirectUris: [REDIRECT_URI] });
  const tenantId = await app.createTenant(`Tenant of ${email}`, application);
  const created = await new HttpClient(app.baseUrl, { apiKey: application.apiKey }).post('/users', { email, password: PASSWORD, tenantId });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { application, clientId, email };
}

/** An authorization request of `of`'s client for a code, in `jar`: the browser's first answer. */
function authorize(jar: CookieJar, of: Customer, parameters: Record<string, string> = {}): Promise<Visit> {
  return jar.visit(codeAuthorizationUrl(issuer, of.clientId, REDIRECT_URI, parameters));
}

/** Signs `of`'s user in through the hosted form; true when the client gets its code. */
async function signIn(jar: CookieJar, of: Customer): Promise<boolean> {
  const start = await authorize(jar, of);
  const page = await jar.visit(start.location!);
  expect(page.body).toContain('name="password"');
  const out = await jar.followOut(await jar.submit(page, { email: of.email, password: PASSWORD }), issuer);
  return out.searchParams.get('code') !== null;
}

/** A browser signed in to both applications' users. */
async function signedInToBoth(acme: Customer, globex: Customer): Promise<CookieJar> {
  const jar = new CookieJar();
  expect(await signIn(jar, acme)).toBe(true);
  expect(await signIn(jar, globex)).toBe(true);
  return jar;
}

/** `prompt=none`: the code when the browser's session for `of` stands, else the OIDC error. */
async function silently(jar: CookieJar, of: Customer): Promise<string> {
  const out = await jar.followOut(await authorize(jar, of, { prompt: 'none' }), issuer);
  return out.searchParams.get('code') === null ? (out.searchParams.get('error') ?? 'no answer') : 'code';
}

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  customers.push(await customer(app.root, 'ada@acme.example'), await customer(await app.bootstrapAnother(), 'ada@globex.example'));
});
afterAll(async () => app?.close());

describe('one browser, two applications on the service’s sign-in page', () => {
  it('each keeps its own session: signing in to the second leaves the first signed in', async () => {
    const [acme, globex] = customers as [Customer, Customer];
    const jar = new CookieJar();
    expect(await signIn(jar, acme)).toBe(true);
    // The second application knows nothing of the first's session: its form, not a silent sign-in.
    expect(await silently(jar, globex)).toBe('login_required');
    expect(await signIn(jar, globex)).toBe(true);
    expect(await silently(jar, acme)).toBe('code');
    expect(await silently(jar, globex)).toBe('code');
    const sessions = jar.all().filter((cookie) => cookie.name.startsWith('_session.') && !cookie.name.endsWith('.sig'));
    expect(sessions.map((cookie) => cookie.name).sort()).toEqual([`_session.${acme.application.applicationId}`, `_session.${globex.application.applicationId}`].sort());
  });

  it('signing out of one application leaves the other signed in', async () => {
    const [acme, globex] = customers as [Customer, Customer];
    const jar = await signedInToBoth(acme, globex);
    const confirm = await jar.visit(`${issuer}/oauth2/logout?client_id=${globex.clientId}`);
    expect(confirm.status).toBe(200);
    // The page says what ends: this application's session on this sign-in page.
    expect(confirm.body).toContain('You will also be signed out of the other applications you signed in to on this sign-in page.');
    const done = await jar.submit(confirm, { logout: 'yes' });
    expect(done.location).toBe(`${issuer}/oauth2/logout/success`);
    expect(await silently(jar, globex)).toBe('login_required');
    expect(await silently(jar, acme)).toBe('code');
  });

  it('a confirmation naming another application’s session ends nothing', async () => {
    const [acme, globex] = customers as [Customer, Customer];
    const jar = await signedInToBoth(acme, globex);
    const confirm = await jar.visit(`${issuer}/oauth2/logout?client_id=${globex.clientId}`);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.body)?.[1];
    expect(xsrf).toBeDefined();
    // Globex's token, posted as Acme's confirmation: Acme's session holds no such token.
    const forged = await jar.visit(`${issuer}/oauth2/logout/confirm?app=${acme.application.applicationId}`, { form: { xsrf: xsrf!, logout: 'yes' } });
    expect(forged.status).toBe(400);
    expect(await silently(jar, acme)).toBe('code');
    expect(await silently(jar, globex)).toBe('code');
  });
});
