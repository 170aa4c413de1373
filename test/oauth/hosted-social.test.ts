import { createServer, type Server } from 'node:net';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SHARED_POOL } from '../../src/db/entities/user.entity.ts';
import { newId } from '../../src/ids.ts';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar, type Visit } from '../support/cookie-jar.ts';
import { cookieLinesOf, recordingJar } from '../support/set-cookies.ts';
import { addDomain } from '../support/domains.ts';
import { fetchVia, type FetchLike } from '../support/host-fetch.ts';
import { passwordProviderId } from '../support/auth-providers.ts';
import { expectReadByTenantsOnly } from '../support/audit-readers.ts';
import { clientWithKey } from '../support/keys.ts';
import { TestRoles } from '../support/roles.ts';
import { createPasswordUser } from '../support/users.ts';
import { accountPageUrl, postAccountForm, settleWithin } from '../support/account-page.ts';
import { failuresAt, leaveAddress } from '../support/lockout.ts';
import type { HttpClient } from '../support/http.ts';
import { createTestClient, decodeJwt, discover, startAuthorization, type AuthorizationFlow } from '../support/oauth.ts';
import { freePort } from '../support/spawned-service.ts';
import { lockWaitersAtLeast, usingEmbeddedDatabase } from '../support/database.ts';
import { queuedBehind } from '../support/row-lock.ts';
import { startDiscoveryUpstream, startGitHub, startUpstreamIdp, type TestGitHub, type TestUpstream } from '../support/upstream-idp.ts';

/**
 * Social and OIDC sign-in on the hosted page: a second oidc-provider started here is the upstream OpenID provider (a
 * `generic` provider with its `issuer`), a small server the GitHub-shaped OAuth 2.0 upstream.
 */
const REDIRECT_URI = 'https://app.example/callback';
const UPSTREAM_SECRET = 'upstream-client-secret';
/** The root application's verified custom domain, reached through the test service (host-fetch.ts). */
const DOMAIN = 'login.social.example';

let app: TestApp;
let issuer: string;
let idp: TestUpstream;
let github: TestGitHub;
let config: oidc.Configuration;
let domainConfig: oidc.Configuration;
/** The browser's fetch: the custom domain through the test service, the upstream (on 127.0.0.1) directly. */
let browserFetch: FetchLike;
/** The application's providers: the upstream OpenID provider (sign-up allowed), the same without sign-up, GitHub. */
let upstreamId: string;
let closedId: string;
let githubId: string;
/** Made by a key holding only auth_providers:read and auth_providers:write. */
let narrowId: string;
let narrowKey: HttpClient;
/** An isolated application: tenant `acme` with its own upstream provider, tenant `globex` with it disabled. */
let isolated: BootstrapResult;
let isolatedConfig: oidc.Configuration;
let acmeProviderId: string;
let globexProviderId: string;
/** A shared application with tenants `one` and `two` and its own upstream provider, whose `authIsolation` the tests switch. */
let switching: { admin: HttpClient; path: string; one: string; two: string; providerId: string; config: oidc.Configuration };
/** Isolated applications as `switching` is, each for one race of its pools' merge against an upstream sign-in. */
let racing: Racing[];
/** The service's log lines. */
const logged: { level: number; msg: string; reqId?: string; err?: { message: string } }[] = [];
interface Racing {
  /** Its provider's, on the sign-in page's button. */
  readonly name: string;
  readonly admin: HttpClient;
  readonly applicationId: string;
  readonly path: string;
  readonly one: string;
  readonly two: string;
  readonly providerId: string;
  readonly config: oidc.Configuration;
}


async function createProvider(http: HttpClient, path: string, body: Record<string, unknown>): Promise<string> {
  const created = await http.post(path, body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

beforeAll(async () => {
  github = await startGitHub();
  const idpPort = await freePort();
  const idpIssuer = `http://127.0.0.1:${idpPort}`;
  app = await startTestApp(
    { upstreams: { allowLoopback: true, allowPrivateHosts: false, githubUrl: github.url, githubApiUrl: github.url } },
    { reachablePublicUrl: true, logStream: { write: (line) => void logged.push(JSON.parse(line) as (typeof logged)[number]) } },
  );
  issuer = app.gatehouse.services.config.publicUrl;
  const generic = (name: string, allowSignup: boolean) => ({
    type: 'oauth',
    name,
    config: { provider: 'generic', clientId: 'gatehouse', issuer: idpIssuer, allowSignup },
    secrets: { clientSecret: UPSTREAM_SECRET },
  });
  // The application signs in through its upstreams alone: its password provider is off.
  expect((await app.http.patch(`/auth-providers/${await passwordProviderId(app.http)}`, { enabled: false })).status).toBe(200);
  upstreamId = await createProvider(app.http, '/auth-providers', generic('Upstream', true));
  closedId = await createProvider(app.http, '/auth-providers', generic('Closed', false));
  narrowKey = await clientWithKey(app, ['auth_providers:read', 'auth_providers:write']);
  narrowId = await createProvider(narrowKey, '/auth-providers', generic('Narrow', true));
  githubId = await createProvider(app.http, '/auth-providers', {
    type: 'oauth',
    config: { provider: 'github', clientId: github.clientId },
    secrets: { clientSecret: github.clientSecret },
  });
  const client = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
  config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  await addDomain(app, app.root, DOMAIN);
  const via = fetchVia(app.baseUrl);
  browserFetch = (input, init) => (new URL(input).host === DOMAIN ? via(input, init) : fetch(input, init as RequestInit));
  domainConfig = await oidc.discovery(new URL(`http://${DOMAIN}`), client.clientId, {}, oidc.ClientSecretBasic(client.clientSecret ?? ''), {
    [oidc.customFetch]: via,
    execute: [oidc.allowInsecureRequests],
  });

  isolated = await app.bootstrapAnother();
  const admin = app.as({ apiKey: isolated.apiKey });
  const appPath = `/applications/${isolated.applicationId}`;
  expect((await admin.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
  const acme = (await admin.post(`${appPath}/tenants`, { name: 'Acme', slug: 'acme' })).body.id as string;
  const globex = (await admin.post(`${appPath}/tenants`, { name: 'Globex', slug: 'globex' })).body.id as string;
  acmeProviderId = await createProvider(admin, `${appPath}/tenants/${acme}/auth-providers`, generic('Acme IdP', true));
  globexProviderId = await createProvider(admin, `${appPath}/tenants/${globex}/auth-providers`, { ...generic('Globex IdP', true), enabled: false });
  await createProvider(admin, `${appPath}/tenants/${globex}/auth-providers`, { type: 'password' });
  const isolatedClient = await createTestClient(app, { applicationId: isolated.applicationId, type: 'web', redirectUris: [REDIRECT_URI] });
  isolatedConfig = await discover(app, isolatedClient.clientId, oidc.ClientSecretBasic(isolatedClient.clientSecret ?? ''));

  const switchingApp = await app.bootstrapAnother();
  const switchingAdmin = app.as({ apiKey: switchingApp.apiKey });
  const switchingPath = `/applications/${switchingApp.applicationId}`;
  const switchingClient = await createTestClient(app, { applicationId: switchingApp.applicationId, type: 'web', redirectUris: [REDIRECT_URI] });
  switching = {
    admin: switchingAdmin,
    path: switchingPath,
    one: (await switchingAdmin.post(`${switchingPath}/tenants`, { name: 'One', slug: 'one' })).body.id as string,
    two: (await switchingAdmin.post(`${switchingPath}/tenants`, { name: 'Two', slug: 'two' })).body.id as string,
    providerId: await createProvider(switchingAdmin, '/auth-providers', generic('Switch IdP', true)),
    config: await discover(app, switchingClient.clientId, oidc.ClientSecretBasic(switchingClient.clientSecret ?? '')),
  };

  racing = [];
  for (const name of ['Race IdP', 'Second Race IdP']) {
    const created = await app.bootstrapAnother();
    const admin = app.as({ apiKey: created.apiKey });
    const path = `/applications/${created.applicationId}`;
    const one = (await admin.post(`${path}/tenants`, { name: 'One', slug: 'one' })).body.id as string;
    const two = (await admin.post(`${path}/tenants`, { name: 'Two', slug: 'two' })).body.id as string;
    expect((await admin.patch(path, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const client = await createTestClient(app, { applicationId: created.applicationId, type: 'web', redirectUris: [REDIRECT_URI] });
    const providerId = await createProvider(admin, '/auth-providers', generic(name, true));
    racing.push({ name, admin, applicationId: created.applicationId, path, one, two, providerId, config: await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? '')) });
  }

  const callback = (id: string, tenantId?: string) => `${issuer}${tenantId === undefined ? '' : `/t/${tenantId}`}/auth/callback/${id}`;
  idp = await startUpstreamIdp({
    port: idpPort,
    clientSecret: UPSTREAM_SECRET,
    redirectUris: [callback(upstreamId), callback(closedId), callback(narrowId), callback(acmeProviderId, acme), callback(globexProviderId, globex), callback(switching.providerId), ...racing.map((race) => callback(race.providerId)), `http://${DOMAIN}/auth/callback/${upstreamId}`],
  });
}, 60_000);
afterAll(async () => {
  await app?.close();
  await idp?.close();
  await github?.close();
});

async function authorize(configuration = config, parameters: Record<string, string> = {}, jar = new CookieJar()): Promise<AuthorizationFlow> {
  return startAuthorization(configuration, { redirectUri: REDIRECT_URI, resource: `${issuer}/api/v1` }, { scope: 'openid email', ...parameters }, jar);
}

/** The sign-in page's link of a provider (its text holds the provider's name), absolute. */
function buttonOf(page: Visit, name: string): string | undefined {
  const href = new RegExp(`<a class="upstream" href="([^"]+)">Sign in with ${name}</a>`).exec(page.body)?.[1];
  return href === undefined ? undefined : new URL(href.replaceAll('&amp;', '&'), page.url).href;
}

/** Follows redirects through Gatehouse and the upstream (every one on 127.0.0.1) until the client's redirect URI, or a page. */
async function follow(jar: CookieJar, visit: Visit): Promise<Visit> {
  for (let hops = 0; hops < 20 && (visit.status === 302 || visit.status === 303); hops += 1) {
    if (visit.location!.startsWith(REDIRECT_URI)) return visit;
    visit = await jar.visit(visit.location!);
  }
  return visit;
}

/** The upstream sign-in of `name`'s button, the upstream's authorization URL changed by `tamper` when given. */
async function signInWith(flow: Pick<AuthorizationFlow, 'page' | 'jar'>, name: string, tamper?: (url: URL) => void): Promise<Visit> {
  const button = buttonOf(flow.page, name);
  expect(button, flow.page.body).toBeDefined();
  const started = await flow.jar.visit(button!);
  expect(started.status, started.body).toBe(303);
  const upstream = new URL(started.location!);
  tamper?.(upstream);
  return follow(flow.jar, await flow.jar.visit(upstream.href));
}

/** The ID token's claims the client gets for the sign-in's code. */
async function idTokenOf(flow: AuthorizationFlow, answer: Visit, configuration = config) {
  expect(answer.location, answer.body).toMatch(new RegExp(`^${REDIRECT_URI}\\?`));
  const tokens = await oidc.authorizationCodeGrant(configuration, new URL(answer.location!), { pkceCodeVerifier: flow.verifier, expectedState: flow.state }, {
    resource: `${issuer}/api/v1`,
  });
  return decodeJwt(tokens.id_token!).payload;
}

async function lastSignInRecord(applicationId = app.root.applicationId) {
  const [row] = await app.sql<{ action: string; target_id: string | null; after: Record<string, unknown> }>(
    `select action, target_id, after from audit_log where application_id = ? and action in ('user.signed_in', 'user.sign_in_failed') order by id desc limit 1`,
    [applicationId],
  );
  return row!;
}

const identities = (userId: string) => app.sql<{ provider_id: string; subject: string }>('select provider_id, subject from user_identity where user_id = ?', [userId]);

describe('social and OIDC sign-in', () => {
  it('shows each enabled provider as a link with its name, beside no password form when no password provider is enabled', async () => {
    const flow = await authorize();
    expect(flow.page.status).toBe(200);
    expect(buttonOf(flow.page, 'Upstream')).toBe(`${flow.page.url}/oauth/${upstreamId}`);
    expect(buttonOf(flow.page, 'Closed')).toBeDefined();
    expect(buttonOf(flow.page, 'GitHub')).toBeDefined();
    expect(flow.page.body).not.toContain('name="password"');
  });

  it('a new upstream account creates a user when the provider allows sign-up, who signs in again by the subject whatever e-mail comes next', async () => {
    idp.login = { sub: 'alice-sub', email: 'alice@example.com', email_verified: true, name: 'Alice' };
    const flow = await authorize();
    const claims = await idTokenOf(flow, await signInWith(flow, 'Upstream'));
    const users = (await app.http.get('/users?email=alice@example.com')).body.data as { id: string; name: string; emailVerified: boolean }[];
    expect(users).toHaveLength(1);
    expect(claims['sub']).toBe(users[0]!.id);
    expect(claims['amr']).toBeUndefined();
    expect(await identities(users[0]!.id)).toEqual([{ provider_id: upstreamId, subject: 'alice-sub' }]);
    const record = await lastSignInRecord();
    expect(record).toMatchObject({ action: 'user.signed_in', target_id: users[0]!.id, after: { method: 'oauth', upstream: { providerId: upstreamId, provider: 'generic' } } });
    expect((await app.http.get(`/users/${users[0]!.id}/sessions`)).body.data.map((session: { methods: string[] }) => session.methods)).toEqual([['oauth']]);

    idp.login = { sub: 'alice-sub', email: 'alice.new@example.com', email_verified: true };
    const again = await authorize();
    expect((await idTokenOf(again, await signInWith(again, 'Upstream')))['sub']).toBe(users[0]!.id);
  });

  it('the request’s cookie: under the interaction’s path for its 10 minutes, Lax (the callback is a top-level GET), spent at the callback', async () => {
    idp.login = { sub: 'cookie-sub', email: 'cookie-upstream@example.com', email_verified: true };
    const { jar, lines } = recordingJar();
    const flow = await authorize(config, {}, jar);
    const uid = new URL(flow.page.url).pathname.split('/')[2]!;
    expect((await idTokenOf(flow, await signInWith(flow, 'Upstream')))['sub']).toBeDefined();
    expect(cookieLinesOf(lines, 'gh_upstream=')).toEqual([
      `gh_upstream=<value>; Path=/interaction/${uid}; Max-Age=600; HttpOnly; SameSite=Lax`,
      `gh_upstream=; Path=/interaction/${uid}; Max-Age=0; HttpOnly; SameSite=Lax`,
    ]);
  });

  it('signs in through the application’s custom domain, the upstream answering the domain’s callback', async () => {
    const dora = await app.createUser('dora@example.com');
    idp.login = { sub: 'dora-sub', email: 'dora@example.com', email_verified: true };
    const flow = await authorize(domainConfig, {}, new CookieJar(browserFetch));
    expect(flow.page.url.startsWith(`http://${DOMAIN}/interaction/`), flow.page.url).toBe(true);
    const button = buttonOf(flow.page, 'Upstream');
    expect(button).toBe(`${flow.page.url}/oauth/${upstreamId}`);
    const started = await flow.jar.visit(button!);
    expect(started.status, started.body).toBe(303);
    expect(new URL(started.location!).searchParams.get('redirect_uri')).toBe(`http://${DOMAIN}/auth/callback/${upstreamId}`);
    const answer = await follow(flow.jar, await flow.jar.visit(started.location!));
    const claims = await idTokenOf(flow, answer, domainConfig);
    expect(claims['sub']).toBe(dora);
    expect(claims['iss']).toBe(`http://${DOMAIN}`);
    expect(await identities(dora)).toEqual([{ provider_id: upstreamId, subject: 'dora-sub' }]);
  });

  it('takes an upstream name the users’ rule refuses as none: a NUL signs in (no 500), a line break, override or 5000 characters is not stored', async () => {
    const names: Record<string, string> = {
      nul: 'Mallory\u0000Evil',
      crlf: 'Mallory\r\nforged log line',
      bidi: 'Mallory\u202Egnp.exe',
      long: 'M'.repeat(5000),
    };
    for (const [label, name] of Object.entries(names)) {
      const email = `refused-name-${label}@example.com`;
      idp.login = { sub: `refused-name-${label}`, email, email_verified: true, name };
      const flow = await authorize();
      const answer = await signInWith(flow, 'Upstream');
      expect(answer.location, `${label}: ${answer.body}`).toMatch(new RegExp(`^${REDIRECT_URI}\\?code=`));
      const users = (await app.http.get(`/users?email=${email}`)).body.data as { name: string | null }[];
      expect(users, label).toEqual([expect.objectContaining({ name: null })]);
    }
    idp.login = { sub: 'accepted-name', email: 'accepted-name@example.com', email_verified: true, name: '  <b>Grace</b> Hopper ' };
    const flow = await authorize();
    await idTokenOf(flow, await signInWith(flow, 'Upstream'));
    expect((await app.http.get('/users?email=accepted-name@example.com')).body.data).toEqual([expect.objectContaining({ name: '<b>Grace</b> Hopper' })]);
  });

  it('links an existing user by a verified upstream e-mail, recorded as user.upstream_link.created; signing in again by the link records none', async () => {
    const bob = await app.createUser('bob@example.com');
    idp.login = { sub: 'bob-sub', email: 'Bob@Example.com', email_verified: true };
    const linkRecords = () =>
      app.sql<{ actor_type: string; actor_id: string; target_id: string; tenant_id: string | null; after: unknown }>(
        `select actor_type, actor_id, target_id, tenant_id, after from audit_log where application_id = ? and action = 'user.upstream_link.created' and target_id = ?`,
        [app.root.applicationId, bob],
      );
    const flow = await authorize();
    expect((await idTokenOf(flow, await signInWith(flow, 'Upstream')))['sub']).toBe(bob);
    expect(await identities(bob)).toEqual([{ provider_id: upstreamId, subject: 'bob-sub' }]);
    const created = [{ actor_type: 'user', actor_id: bob, target_id: bob, tenant_id: null, after: { providerId: upstreamId, provider: 'generic', subject: 'bob-sub' } }];
    expect(await linkRecords()).toEqual(created);
    const again = await authorize();
    expect((await idTokenOf(again, await signInWith(again, 'Upstream')))['sub']).toBe(bob);
    expect(await linkRecords()).toEqual(created);
  });

  it('a shared user’s link made at sign-in is read by each of the user’s tenants, as its removal is; a tenant they are not in reads none', async () => {
    const [one, two, three] = [await app.createTenant('Linking One'), await app.createTenant('Linking Two'), await app.createTenant('Linking Three')];
    const kit = await app.createUser('kit-linking@example.com', one);
    expect((await app.http.patch(`/users/${kit}`, { tenantIds: [one, two] })).status).toBe(200);
    idp.login = { sub: 'kit-sub', email: 'kit-linking@example.com', email_verified: true };
    const flow = await authorize();
    await signInWith(flow, 'Upstream');
    expect(await identities(kit)).toEqual([{ provider_id: upstreamId, subject: 'kit-sub' }]);
    const [record] = (await app.http.get(`/audit-logs?target=${kit}&action=user.upstream_link.created`)).body.data as { id: string; tenantId: string | null }[];
    expect(record).toMatchObject({ tenantId: null });
    await expectReadByTenantsOnly(app, { userId: kit, ids: [record!.id], search: '&action=user.upstream_link.created', tenants: [one, two], outsider: three });
  });

  it('never links an existing user by an unverified upstream e-mail, nor makes an account of it', async () => {
    const carol = await app.createUser('carol@example.com');
    idp.login = { sub: 'mallory-sub', email: 'carol@example.com', email_verified: false };
    const flow = await authorize();
    const refused = await signInWith(flow, 'Upstream');
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('not verified by its provider');
    expect(await identities(carol)).toEqual([]);
    expect(await lastSignInRecord()).toMatchObject({ action: 'user.sign_in_failed', after: { method: 'oauth', reason: 'upstream_email_unverified' } });
    idp.login = { sub: 'mallory-sub', email: 'mallory@example.com', email_verified: false };
    const other = await authorize();
    expect((await signInWith(other, 'Upstream')).status).toBe(403);
    expect((await app.http.get('/users?email=mallory@example.com')).body.data).toEqual([]);
  });

  it('reads Entra ID’s xms_edov from Microsoft only: a generic upstream’s, beside email_verified false, links nobody', async () => {
    const gwen = await app.createUser('gwen@example.com');
    idp.login = { sub: 'edov-sub', email: 'gwen@example.com', email_verified: false, xms_edov: true };
    const flow = await authorize();
    const refused = await signInWith(flow, 'Upstream');
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('not verified by its provider');
    expect(await identities(gwen)).toEqual([]);
    expect(await lastSignInRecord()).toMatchObject({ action: 'user.sign_in_failed', after: { method: 'oauth', reason: 'upstream_email_unverified' } });
  });

  it('never links an existing user whose own address nobody proved (a sign-up not confirmed): its owner confirms it first', async () => {
    // As a sign-up leaves it: a password whoever typed the address set.
    const fay = await createPasswordUser(app.http, 'fay@example.com');
    await app.sql('update app_user set email_verified = false where id = ?', [fay]);
    idp.login = { sub: 'fay-sub', email: 'fay@example.com', email_verified: true };
    const flow = await authorize();
    const refused = await signInWith(flow, 'Upstream');
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('Confirm your email address first');
    expect(await identities(fay)).toEqual([]);
    expect(await lastSignInRecord()).toMatchObject({ action: 'user.sign_in_failed', target_id: fay, after: { method: 'oauth', reason: 'email_unverified' } });
    // Proven, the same upstream account links to it.
    await app.sql('update app_user set email_verified = true where id = ?', [fay]);
    const again = await authorize();
    expect((await idTokenOf(again, await signInWith(again, 'Upstream')))['sub']).toBe(fay);
    expect(await identities(fay)).toEqual([{ provider_id: upstreamId, subject: 'fay-sub' }]);
  });

  it('a suspended user is refused by a verified upstream e-mail and gets no link: the refusal adds no way into the account', async () => {
    const sue = await app.createUser('suspended-upstream@example.com');
    expect((await app.http.post(`/users/${sue}/suspend`, {})).status).toBe(200);
    idp.login = { sub: 'suspended-sub', email: 'suspended-upstream@example.com', email_verified: true };
    const flow = await authorize();
    const refused = await signInWith(flow, 'Upstream');
    expect(refused.status).toBe(403);
    expect(await lastSignInRecord()).toMatchObject({ action: 'user.sign_in_failed', target_id: sue, after: { method: 'oauth', reason: 'user_inactive' } });
    expect(await identities(sue)).toEqual([]);
    expect(await app.sql(`select 1 from audit_log where action = 'user.upstream_link.created' and target_id = ?`, [sue])).toEqual([]);
  });

  it('an account locked out at the browser’s address is refused by a verified upstream e-mail and gets no link; unlocked, it links', async () => {
    const lou = await app.createUser('locked-address-upstream@example.com');
    // As the lockout policy's failed passwords from this address (the test's 127.0.0.1) leave the account.
    await leaveAddress(app, lou, 'locked');
    idp.login = { sub: 'locked-address-sub', email: 'locked-address-upstream@example.com', email_verified: true };
    const flow = await authorize();
    const refused = await signInWith(flow, 'Upstream');
    expect(refused.status).toBe(403);
    expect(await lastSignInRecord()).toMatchObject({ action: 'user.sign_in_failed', target_id: lou, after: { method: 'oauth', reason: 'address_locked' } });
    expect(await identities(lou)).toEqual([]);
    expect(await app.sql(`select 1 from audit_log where action = 'user.upstream_link.created' and target_id = ?`, [lou])).toEqual([]);
    expect((await app.http.post(`/users/${lou}/unlock`, {})).status).toBe(200);
    const again = await authorize();
    expect((await idTokenOf(again, await signInWith(again, 'Upstream')))['sub']).toBe(lou);
    expect(await identities(lou)).toEqual([{ provider_id: upstreamId, subject: 'locked-address-sub' }]);
  });

  it('a suspended user’s link signs nothing in (user_inactive); activated again, the same link signs them in', async () => {
    idp.login = { sub: 'linked-suspended-sub', email: 'linked-suspended@example.com', email_verified: true };
    const first = await authorize();
    const linked = (await idTokenOf(first, await signInWith(first, 'Upstream')))['sub'] as string;
    expect(await identities(linked)).toEqual([{ provider_id: upstreamId, subject: 'linked-suspended-sub' }]);
    expect((await app.http.post(`/users/${linked}/suspend`, {})).status).toBe(200);
    const flow = await authorize();
    const refused = await signInWith(flow, 'Upstream');
    expect(refused.status, refused.body).toBe(403);
    expect(await lastSignInRecord()).toMatchObject({ action: 'user.sign_in_failed', target_id: linked, after: { method: 'oauth', reason: 'user_inactive' } });
    expect((await app.http.get(`/users/${linked}/sessions`)).body.data).toEqual([]);
    expect((await app.http.post(`/users/${linked}/activate`, {})).status).toBe(200);
    const again = await authorize();
    expect((await idTokenOf(again, await signInWith(again, 'Upstream')))['sub']).toBe(linked);
  });

  it('a linked account at an address locked out of it, or made to wait, is refused unheard (address_locked, address_waiting), as a suspended one is answered; unlocked, the link signs in', async () => {
    idp.login = { sub: 'linked-locked-sub', email: 'linked-locked@example.com', email_verified: true };
    const first = await authorize();
    const linked = (await idTokenOf(first, await signInWith(first, 'Upstream')))['sub'] as string;
    for (const standing of ['locked', 'waiting'] as const) {
      await leaveAddress(app, linked, standing);
      const flow = await authorize();
      // Answered after as long as a counted failure takes, as the other methods' uncounted refusals are.
      const pad = vi.spyOn(app.gatehouse.services.refusalTiming, 'pad');
      let padded = 0;
      const refused = await signInWith(flow, 'Upstream').finally(() => {
        padded = pad.mock.calls.length;
        pad.mockRestore();
      });
      expect(padded).toBe(1);
      expect(refused.status, refused.body).toBe(403);
      expect(refused.body).toContain('Signing in with that account did not work.');
      expect(await lastSignInRecord()).toMatchObject({ action: 'user.sign_in_failed', target_id: linked, after: { method: 'oauth', reason: `address_${standing}` } });
      expect(await failuresAt(app, linked)).toEqual([{ failures: standing === 'locked' ? 10 : 8, locked: standing === 'locked' }]);
      expect((await app.http.get(`/users/${linked}/sessions`)).body.data).toHaveLength(1);
      expect((await app.http.post(`/users/${linked}/unlock`, {})).status).toBe(200);
    }
    const again = await authorize();
    expect((await idTokenOf(again, await signInWith(again, 'Upstream')))['sub']).toBe(linked);
  });

  it('refuses an unknown upstream account where the provider allows no sign-up', async () => {
    idp.login = { sub: 'dave-sub', email: 'dave@example.com', email_verified: true };
    const flow = await authorize();
    const refused = await signInWith(flow, 'Closed');
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('There is no account');
    expect((await app.http.get('/users?email=dave@example.com')).body.data).toEqual([]);
    expect(await lastSignInRecord()).toMatchObject({ action: 'user.sign_in_failed', after: { reason: 'signup_unavailable', upstream: { providerId: closedId } } });
  });

  it('a provider stored without the email scope (saved before the rule): warned of when loaded; a linked account signs in, an unlinked one is refused saying why', async () => {
    const linkedUser = await createPasswordUser(app.http, 'scopeless-linked@example.com');
    await app.sql('insert into user_identity (id, application_id, pool_id, provider_id, subject, user_id, created_at) values (?, ?, ?, ?, ?, ?, now())', [
      newId(),
      app.root.applicationId,
      SHARED_POOL,
      upstreamId,
      'scopeless-linked-sub',
      linkedUser,
    ]);
    const [{ config: stored } = { config: {} }] = await app.sql<{ config: Record<string, unknown> }>('select config from auth_provider where id = ?', [upstreamId]);
    // As a row written before config.scopes had to hold `email`: a write of them now is 422.
    await app.sql(`update auth_provider set config = jsonb_set(config, '{scopes}', '["openid", "profile"]'::jsonb) where id = ?`, [upstreamId]);
    expect((await app.http.patch(`/auth-providers/${upstreamId}`, { config: { scopes: ['openid', 'profile'] } })).body).toMatchObject({ field: 'config.scopes' });
    try {
      // A write that leaves its config as stored (its name) loads it again.
      expect((await app.http.patch(`/auth-providers/${upstreamId}`, { name: 'Upstream old' })).status).toBe(200);
      const before = logged.length;
      idp.login = { sub: 'scopeless-new-sub', email: 'scopeless-new@example.com', email_verified: true };
      const flow = await authorize();
      const warned = logged.slice(before).filter((line) => line.level === 40 && line.msg.includes('lacking email'));
      expect(warned, JSON.stringify(logged.slice(before))).toHaveLength(1);
      expect(warned[0]).toMatchObject({ providerId: upstreamId, applicationId: app.root.applicationId, missingScopes: ['email'] });

      // Nothing to find or make an account by: refused on the sign-in page, which says the provider is the cause.
      const refused = await signInWith(flow, 'Upstream old');
      expect(refused.status).toBe(403);
      expect(refused.body).toContain('This sign-in provider is not set up to share email addresses');
      expect(refused.body).toContain('<a class="upstream"');
      expect((await app.http.get('/users?email=scopeless-new@example.com')).body.data).toEqual([]);
      expect(await lastSignInRecord()).toMatchObject({ action: 'user.sign_in_failed', after: { reason: 'upstream_no_email', upstream: { providerId: upstreamId } } });
      const refusal = logged.slice(before).filter((line) => line.level === 40 && line.msg.startsWith('upstream sign-in refused'));
      expect(refusal).toMatchObject([{ providerId: upstreamId, applicationId: app.root.applicationId, missingScopes: ['email'] }]);

      // An account linked before signs in by its subject, as it did.
      idp.login = { sub: 'scopeless-linked-sub', email: 'scopeless-linked@example.com', email_verified: true };
      const again = await authorize();
      expect((await idTokenOf(again, await signInWith(again, 'Upstream old')))['sub']).toBe(linkedUser);
    } finally {
      await app.sql('update auth_provider set config = ?::jsonb where id = ?', [JSON.stringify(stored), upstreamId]);
      expect((await app.http.patch(`/auth-providers/${upstreamId}`, { name: 'Upstream' })).status).toBe(200);
    }
  });

  it('refuses an answer whose state is not the request’s', async () => {
    idp.login = { sub: 'alice-sub', email: 'alice@example.com', email_verified: true };
    const flow = await authorize();
    const refused = await signInWith(flow, 'Upstream', (url) => url.searchParams.set('state', `${url.searchParams.get('state')!.split('.')[0]}.forged`));
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('did not work');
    expect(await lastSignInRecord()).toMatchObject({ action: 'user.sign_in_failed', after: { reason: 'upstream_error' } });
  });

  it('refuses an ID token whose nonce is not the request’s', async () => {
    idp.login = { sub: 'alice-sub', email: 'alice@example.com', email_verified: true };
    const flow = await authorize();
    const refused = await signInWith(flow, 'Upstream', (url) => url.searchParams.set('nonce', 'forged-nonce'));
    expect(refused.status).toBe(400);
    expect(await lastSignInRecord()).toMatchObject({ action: 'user.sign_in_failed', after: { reason: 'upstream_error' } });
  });

  it('an upstream’s error answer is upstream_error (400), logged at info; a failure of our own finding the account is the service’s 500', async () => {
    idp.login = { sub: 'lost-sub', email: 'lost@example.com', email_verified: true };
    const linesOf = (visit: Visit) => logged.filter((line) => line.reqId === visit.headers.get('x-request-id'));
    // prompt=none with no session at the upstream: it answers error=login_required.
    const answered = await authorize();
    const upstreamRefused = await signInWith(answered, 'Upstream', (url) => url.searchParams.set('prompt', 'none'));
    expect(upstreamRefused.status).toBe(400);
    expect(upstreamRefused.body).toContain('did not work');
    expect(linesOf(upstreamRefused).map((line) => [line.level, line.msg])).toContainEqual([30, 'upstream sign-in refused']);
    expect(linesOf(upstreamRefused).filter((line) => line.level >= 50)).toEqual([]);
    const refusedRecord = await lastSignInRecord();
    expect(refusedRecord).toMatchObject({ action: 'user.sign_in_failed', after: { reason: 'upstream_error' } });

    const flow = await authorize();
    await app.sql('alter table user_identity rename to user_identity_away');
    let failed: Visit;
    try {
      failed = await signInWith(flow, 'Upstream');
    } finally {
      await app.sql('alter table user_identity_away rename to user_identity');
    }
    expect(failed.status).toBe(500);
    expect(failed.body).toContain('Something went wrong on our side');
    expect(failed.body).not.toContain('did not work');
    expect(failed.headers.get('x-request-id')).toBeTruthy();
    const error = linesOf(failed).find((line) => line.msg === 'unexpected error on a hosted page');
    expect(error).toMatchObject({ level: 50, err: { message: expect.stringContaining('user_identity') } });
    expect(linesOf(failed).map((line) => line.msg)).not.toContain('upstream sign-in refused');
    // Not recorded as the upstream's failure: the last record is still the refusal above.
    expect(await lastSignInRecord()).toEqual(refusedRecord);
    expect((await app.http.get('/users?email=lost@example.com')).body.data).toEqual([]);
  });

  it('refuses a callback without the request the browser started (another browser, or one already used)', async () => {
    idp.login = { sub: 'alice-sub', email: 'alice@example.com', email_verified: true };
    const flow = await authorize();
    const started = await flow.jar.visit(buttonOf(flow.page, 'Upstream')!);
    const upstreamJar = new (flow.jar.constructor as new () => CookieJar)();
    let visit = await upstreamJar.visit(started.location!);
    while (visit.location !== undefined && !visit.location.startsWith(issuer)) visit = await upstreamJar.visit(visit.location);
    // The upstream's answer reaches Gatehouse in the browser that started the sign-in, once: a replay has no request left.
    const answered = await follow(flow.jar, await flow.jar.visit(visit.location!));
    expect(answered.location).toMatch(new RegExp(`^${REDIRECT_URI}\\?code=`));
    const replay = await flow.jar.visit(visit.location!);
    const replayed = await flow.jar.visit(replay.location!);
    expect(replayed.status).toBe(400);
  });

  it('signs in through a GitHub-shaped OAuth 2.0 upstream with its primary verified e-mail', async () => {
    github.user = { id: 777, login: 'octo', name: 'Octo Cat' };
    github.emails = [
      { email: 'octo-old@example.com', primary: false, verified: true },
      { email: 'octo@example.com', primary: true, verified: true },
    ];
    const flow = await authorize();
    const claims = await idTokenOf(flow, await signInWith(flow, 'GitHub'));
    const [user] = (await app.http.get('/users?email=octo@example.com')).body.data as { id: string; name: string }[];
    expect(claims['sub']).toBe(user!.id);
    expect(user!.name).toBe('Octo Cat');
    expect(await identities(user!.id)).toEqual([{ provider_id: githubId, subject: '777' }]);

    // A display name the users' rule refuses: the login stands in.
    github.user = { id: 779, login: 'line-breaker', name: 'Line\r\nBreaker' };
    github.emails = [{ email: 'line-breaker@example.com', primary: true, verified: true }];
    const refusedName = await authorize();
    await idTokenOf(refusedName, await signInWith(refusedName, 'GitHub'));
    expect((await app.http.get('/users?email=line-breaker@example.com')).body.data).toEqual([expect.objectContaining({ name: 'line-breaker' })]);

    github.user = { id: 778, login: 'unverified', name: null };
    github.emails = [{ email: 'bob@example.com', primary: true, verified: false }];
    const unverified = await authorize();
    expect((await signInWith(unverified, 'GitHub')).status).toBe(403);
  });

  it('a client’s prompt=login and max_age reach the OpenID upstream, which signs in afresh; GitHub, whose API takes neither, is told neither', async () => {
    const asked = (url: URL | undefined) => ({ prompt: url?.searchParams.get('prompt'), maxAge: url?.searchParams.get('max_age') });
    let upstreamUrl: URL | undefined;
    const seen = (url: URL) => void (upstreamUrl = url);
    idp.login = { sub: 'fresh-upstream', email: 'fresh-upstream@example.com', email_verified: true };
    const fresh = await authorize(config, { prompt: 'login', max_age: '300' });
    // oidc-provider states auth_time for a max_age: the sign-in it just made meets it.
    const claims = await idTokenOf(fresh, await signInWith(fresh, 'Upstream', seen));
    expect(asked(upstreamUrl)).toEqual({ prompt: 'login', maxAge: '300' });
    expect(claims['email']).toBe('fresh-upstream@example.com');
    const plain = await authorize();
    await idTokenOf(plain, await signInWith(plain, 'Upstream', seen));
    expect(asked(upstreamUrl)).toEqual({ prompt: null, maxAge: null });

    github.user = { id: 780, login: 'fresh-octo', name: null };
    github.emails = [{ email: 'fresh-octo@example.com', primary: true, verified: true }];
    const toGitHub = await authorize(config, { prompt: 'login', max_age: '300' });
    await idTokenOf(toGitHub, await signInWith(toGitHub, 'GitHub', seen));
    expect(upstreamUrl?.origin).toBe(github.url);
    expect(asked(upstreamUrl)).toEqual({ prompt: null, maxAge: null });
  });

  it('on the account page a GitHub sign-in, which GitHub may answer from its own session, proves no change: a code mailed to the address does', async () => {
    github.user = { id: 781, login: 'page-octo', name: null };
    github.emails = [{ email: 'page-octo@example.com', primary: true, verified: true }];
    const jar = new CookieJar();
    const url = accountPageUrl(issuer, config.clientMetadata().client_id);
    const signInPage = await settleWithin(jar, await jar.visit(url), issuer);
    const page = await signInWith({ page: signInPage, jar }, 'GitHub');
    expect(page.status, page.body).toBe(200);
    expect(page.body).toContain('confirm it is you with a code we email to page-octo@example.com');
    const mailsTo = (to: string, template: string) =>
      app.sql<{ text_body: string }>('select text_body from email_delivery where to_address = ? and template_key = ? order by created_at desc', [to, template]);

    const refused = await postAccountForm(jar, page, 'email', { new_email: 'octo-elsewhere@example.com' });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('For your security, confirm it is you with a code first.');
    expect(await mailsTo('octo-elsewhere@example.com', 'email_change')).toEqual([]);

    expect((await postAccountForm(jar, page, 'confirm-send', {})).status).toBe(303);
    const code = /\b(\d{6})\b/.exec((await mailsTo('page-octo@example.com', 'email_otp'))[0]!.text_body)![1]!;
    expect((await postAccountForm(jar, page, 'confirm', { confirm_code: code })).status).toBe(303);
    expect((await postAccountForm(jar, page, 'email', { new_email: 'octo-elsewhere@example.com' })).status).toBe(303);
    expect(await mailsTo('octo-elsewhere@example.com', 'email_change')).toHaveLength(1);
  });

  it('a provider disabled for a tenant has no button and its sign-in is refused; an isolated tenant’s own provider signs in to its pool', async () => {
    const globex = await authorize(isolatedConfig, { tenant: 'globex' });
    expect(globex.page.status).toBe(200);
    expect(buttonOf(globex.page, 'Globex IdP')).toBeUndefined();
    expect(globex.page.body).toContain('name="password"');
    for (const providerId of [globexProviderId, acmeProviderId]) {
      const refused = await globex.jar.visit(`${globex.page.url}/oauth/${providerId}`);
      expect(refused.status).toBe(404);
      expect(refused.body).toContain('not available for Globex');
      const callback = await globex.jar.visit(`${globex.page.url}/oauth/${providerId}/callback?code=x&state=y`);
      expect(callback.status).toBe(400);
    }

    idp.login = { sub: 'erin-sub', email: 'erin@example.com', email_verified: true };
    const acme = await authorize(isolatedConfig, { tenant: 'acme' });
    const claims = await idTokenOf(acme, await signInWith(acme, 'Acme IdP'), isolatedConfig);
    expect(claims['tenant_id']).toBeDefined();
    const [identity] = await app.sql<{ pool_id: string; provider_id: string }>('select pool_id, provider_id from user_identity where subject = ?', ['erin-sub']);
    expect(identity).toEqual({ pool_id: claims['tenant_id'], provider_id: acmeProviderId });
  });

  it('deleting a provider removes its links; deleting a user removes theirs', async () => {
    const [alice] = (await app.http.get('/users?email=alice@example.com')).body.data as { id: string }[];
    const [links] = await app.sql<{ count: string }>('select count(*) from user_identity where provider_id = ?', [githubId]);
    expect(Number(links!.count)).toBeGreaterThan(0);
    expect((await app.http.delete(`/auth-providers/${githubId}`)).status).toBe(204);
    expect(await app.sql('select 1 from user_identity where provider_id = ?', [githubId])).toEqual([]);
    expect((await app.http.delete(`/users/${alice!.id}`)).status).toBe(204);
    expect(await identities(alice!.id)).toEqual([]);
  });
});

describe('an account holding more than whoever configured the provider', () => {
  const refusedAsNotTrusted = async (userId: string, provider: string) => {
    const flow = await authorize();
    const refused = await signInWith(flow, provider);
    expect(refused.status, refused.body).toBe(403);
    expect(refused.body).toContain('cannot sign in to');
    expect(await lastSignInRecord()).toMatchObject({ action: 'user.sign_in_failed', target_id: userId, after: { method: 'oauth', reason: 'provider_not_trusted' } });
  };

  it('an app_admin is neither linked nor signed in through a provider made by a key holding only auth_providers:write; a plain user is', async () => {
    const admin = await app.createUser('narrow-target@example.com');
    await new TestRoles(app).assign({ type: 'user', id: admin }, 'app_admin');
    idp.login = { sub: 'narrow-target-sub', email: 'narrow-target@example.com', email_verified: true };
    await refusedAsNotTrusted(admin, 'Narrow');
    expect(await identities(admin)).toEqual([]);
    // The same upstream account through the application admin's provider: their word covers the account.
    const flow = await authorize();
    expect((await idTokenOf(flow, await signInWith(flow, 'Upstream')))['sub']).toBe(admin);

    const plain = await app.createUser('narrow-plain@example.com');
    idp.login = { sub: 'narrow-plain-sub', email: 'narrow-plain@example.com', email_verified: true };
    const plainFlow = await authorize();
    expect((await idTokenOf(plainFlow, await signInWith(plainFlow, 'Narrow')))['sub']).toBe(plain);
  });

  it('a linked account holding more is refused once such a key changes the provider, and signs in again once an admin does', async () => {
    const admin = await app.createUser('linked-admin@example.com');
    idp.login = { sub: 'linked-admin-sub', email: 'linked-admin@example.com', email_verified: true };
    const first = await authorize();
    expect((await idTokenOf(first, await signInWith(first, 'Upstream')))['sub']).toBe(admin);
    // Given more since it was linked.
    const assignment = await new TestRoles(app).assign({ type: 'user', id: admin }, 'app_admin');
    expect((await narrowKey.patch(`/auth-providers/${upstreamId}`, { config: { allowSignup: true } })).status).toBe(200);
    await refusedAsNotTrusted(admin, 'Upstream');
    // A name is no word on identities: it changes nothing.
    expect((await app.http.patch(`/auth-providers/${upstreamId}`, { name: 'Upstream' })).status).toBe(200);
    await refusedAsNotTrusted(admin, 'Upstream');
    expect((await app.http.patch(`/auth-providers/${upstreamId}`, { config: { allowSignup: true } })).status).toBe(200);
    const again = await authorize();
    expect((await idTokenOf(again, await signInWith(again, 'Upstream')))['sub']).toBe(admin);
    await new TestRoles(app).revoke(assignment);
  });
});

describe('a member a tenant’s administrator made without a password (its address unconfirmed, vouched by that tenant)', () => {
  let tenant: string;
  let tenantAdmin: HttpClient;
  beforeAll(async () => {
    tenant = await app.createTenant('Vouching Co');
    tenantAdmin = await clientWithKey(app, ['users:read', 'users:write'], tenant);
  });
  /** Made by the tenant's own key: stored unconfirmed, the tenant its voucher. */
  async function vouchedMember(email: string, password?: string): Promise<string> {
    const created = await tenantAdmin.post('/users', { email, ...(password === undefined ? {} : { password }) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.emailVerified).toBe(false);
    return created.body.id as string;
  }
  const standing = async (userId: string) =>
    (await app.sql<{ email_verified: boolean; vouched_by_tenant_id: string | null; tenant_ids: string[] }>('select email_verified, vouched_by_tenant_id, tenant_ids from app_user where id = ?', [userId]))[0];

  it('a verified e-mail of the application’s provider proves the mailbox: its owner takes the account over, as an e-mail link does', async () => {
    const member = await vouchedMember('vouched-member@example.com');
    // A way in its maker gave it: an upstream account of theirs, linked to it.
    await app.sql(`insert into user_identity (application_id, id, pool_id, provider_id, subject, user_id, created_at) values (?, ?, ?, ?, 'maker-sub', ?, now())`, [
      app.root.applicationId,
      newId(),
      SHARED_POOL,
      closedId,
      member,
    ]);
    idp.login = { sub: 'vouched-owner-sub', email: 'vouched-member@example.com', email_verified: true };
    const flow = await authorize();
    expect((await idTokenOf(flow, await signInWith(flow, 'Upstream')))['sub']).toBe(member);
    expect(await standing(member)).toEqual({ email_verified: true, vouched_by_tenant_id: null, tenant_ids: [tenant] });
    // The maker's way in ended; the owner's upstream account is the one linked.
    expect(await identities(member)).toEqual([{ provider_id: upstreamId, subject: 'vouched-owner-sub' }]);
    const actions = await app.sql<{ action: string }>(
      `select action from audit_log where application_id = ? and target_id = ? and action in ('user.sign_up.disowned', 'user.email.verified', 'user.upstream_link.removed', 'user.upstream_link.created') `,
      [app.root.applicationId, member],
    );
    expect(actions.map((row) => row.action).sort()).toEqual(['user.email.verified', 'user.sign_up.disowned', 'user.upstream_link.created', 'user.upstream_link.removed']);
    expect(await lastSignInRecord()).toMatchObject({ action: 'user.signed_in', target_id: member, after: { method: 'oauth' } });
  });

  it('an unverified upstream e-mail proves nothing: refused, the account as it was', async () => {
    const member = await vouchedMember('vouched-unverified@example.com');
    idp.login = { sub: 'vouched-unverified-sub', email: 'vouched-unverified@example.com', email_verified: false };
    const flow = await authorize();
    const refused = await signInWith(flow, 'Upstream');
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('not verified by its provider');
    expect(await lastSignInRecord()).toMatchObject({ action: 'user.sign_in_failed', target_id: member, after: { method: 'oauth', reason: 'upstream_email_unverified' } });
    expect(await standing(member)).toEqual({ email_verified: false, vouched_by_tenant_id: tenant, tenant_ids: [tenant] });
    expect(await identities(member)).toEqual([]);
  });

  it('one with a password is not taken over (that password’s setter would keep it): refused, its owner resets the password', async () => {
    const member = await vouchedMember('vouched-password@example.com', 'a tenant-set password 1');
    idp.login = { sub: 'vouched-password-sub', email: 'vouched-password@example.com', email_verified: true };
    const flow = await authorize();
    const refused = await signInWith(flow, 'Upstream');
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('Confirm your email address first');
    expect(await lastSignInRecord()).toMatchObject({ action: 'user.sign_in_failed', target_id: member, after: { method: 'oauth', reason: 'email_unverified' } });
    expect(await standing(member)).toEqual({ email_verified: false, vouched_by_tenant_id: tenant, tenant_ids: [tenant] });
    expect(await identities(member)).toEqual([]);
    const [row] = await app.sql<{ has_password: boolean }>('select password_hash is not null as has_password from app_user where id = ?', [member]);
    expect(row!.has_password).toBe(true);
  });

  it('a tenant’s own provider proves no mailbox, whatever it asserts: refused, the account unconfirmed and unlinked', async () => {
    // An isolated tenant's unconfirmed account without a password, vouched by that tenant, as a shared pool's split leaves one.
    const [acme] = await app.sql<{ id: string }>(`select id from tenant where application_id = ? and slug = 'acme'`, [isolated.applicationId]);
    const created = await app.as({ apiKey: isolated.apiKey }).post(`/applications/${isolated.applicationId}/tenants/${acme!.id}/users`, { email: 'acme-vouched@example.com' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const member = created.body.id as string;
    await app.sql('update app_user set email_verified = false, vouched_by_tenant_id = pool_id where id = ?', [member]);
    idp.login = { sub: 'acme-vouched-sub', email: 'acme-vouched@example.com', email_verified: true };
    const flow = await authorize(isolatedConfig, { tenant: 'acme' });
    const refused = await signInWith(flow, 'Acme IdP');
    expect(refused.status, refused.body).toBe(403);
    expect(refused.body).toContain('cannot sign in to');
    expect(await lastSignInRecord(isolated.applicationId)).toMatchObject({ action: 'user.sign_in_failed', target_id: member, after: { method: 'oauth', reason: 'provider_not_trusted' } });
    const [row] = await app.sql<{ email_verified: boolean; vouched: boolean }>('select email_verified, vouched_by_tenant_id = pool_id as vouched from app_user where id = ?', [member]);
    expect(row).toEqual({ email_verified: false, vouched: true });
    expect(await identities(member)).toEqual([]);
  });
});

describe('upstream links across authIsolation switches', () => {
  const switchTo = (authIsolation: 'shared' | 'isolated') => switching.admin.patch(switching.path, { tenancyConfig: { authIsolation } });
  /** The `sub` the client gets for the upstream account `login` signing in to `tenant` of the switching application. */
  async function subjectIn(tenant: string, login: typeof idp.login): Promise<unknown> {
    idp.login = login;
    const flow = await authorize(switching.config, { tenant });
    return (await idTokenOf(flow, await signInWith(flow, 'Switch IdP'), switching.config))['sub'];
  }
  const linksOf = (userId: string) => app.sql<{ pool_id: string; subject: string }>('select pool_id, subject from user_identity where user_id = ?', [userId]);
  const inTenant = async (tenantId: string, email: string) =>
    ((await switching.admin.get(`${switching.path}/tenants/${tenantId}/users?email=${email}`)).body.data as { id: string }[]).map((user) => user.id);
  /** Frank, a member of `two` only, keeps his record; Dave, of `one` then `two`, keeps his in `one` and gets a copy in `two`. */
  const people: { frank?: string; dave?: string; daveCopy?: string } = {};
  /** Their addresses at the upstream once linked: only the link by subject finds them. */
  const frankMoved = { sub: 'frank-sub', email: 'frank@moved.example', email_verified: true };
  const daveMoved = { sub: 'dave-sub', email: 'dave@moved.example', email_verified: true };

  it('shared → isolated: a user who keeps their record keeps their links in their tenant’s pool, and a copy signs in by the same subject in its own', async () => {
    people.frank = (await switching.admin.post('/users', { email: 'frank@example.com', tenantId: switching.two })).body.id as string;
    people.dave = (await switching.admin.post('/users', { email: 'dave@example.com', tenantId: switching.one })).body.id as string;
    expect((await switching.admin.patch(`/users/${people.dave}`, { tenantIds: [switching.one, switching.two] })).status).toBe(200);
    expect(await subjectIn('two', { sub: 'frank-sub', email: 'frank@example.com', email_verified: true })).toBe(people.frank);
    expect(await subjectIn('one', { sub: 'dave-sub', email: 'dave@example.com', email_verified: true })).toBe(people.dave);

    expect((await switchTo('isolated')).status).toBe(200);
    [people.daveCopy] = await inTenant(switching.two, 'dave@example.com');
    expect(people.daveCopy).toBeDefined();
    expect(people.daveCopy).not.toBe(people.dave);
    expect(await linksOf(people.frank)).toEqual([{ pool_id: switching.two, subject: 'frank-sub' }]);
    expect(await linksOf(people.dave)).toEqual([{ pool_id: switching.one, subject: 'dave-sub' }]);
    expect(await linksOf(people.daveCopy!)).toEqual([{ pool_id: switching.two, subject: 'dave-sub' }]);

    expect(await subjectIn('two', frankMoved)).toBe(people.frank);
    expect(await subjectIn('one', daveMoved)).toBe(people.dave);
    expect(await subjectIn('two', daveMoved)).toBe(people.daveCopy);
    expect(await inTenant(switching.two, 'frank@moved.example')).toEqual([]);
    expect(await inTenant(switching.two, 'dave@moved.example')).toEqual([]);
  });

  it('isolated → shared is refused with 409 while one upstream account is linked in two pools, and nothing changes', async () => {
    // Dave's copy, given another address, no longer collides by e-mail: its link still would.
    expect((await switching.admin.patch(`/users/${people.daveCopy}`, { email: 'dave.two@example.com' })).status).toBe(200);
    const refused = await switchTo('shared');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'tenant_auth_data_remains', field: 'tenancyConfig.authIsolation' });
    expect(refused.body.details).toEqual(
      [switching.one, switching.two]
        .sort()
        .map((tenantId) => ({ tenantId, tenantSlug: tenantId === switching.one ? 'one' : 'two', kind: 'users_with_duplicate_upstream_link', count: 1 })),
    );
    expect((await switching.admin.get(switching.path)).body.tenancyConfig.authIsolation).toBe('isolated');
    expect(await linksOf(people.daveCopy!)).toEqual([{ pool_id: switching.two, subject: 'dave-sub' }]);
  });

  it('isolated → shared once nothing collides: every link goes with its user to the application’s pool and signs the same user in', async () => {
    expect((await switching.admin.delete(`/users/${people.dave}`)).status).toBe(204);
    expect((await switchTo('shared')).status).toBe(200);
    expect(await linksOf(people.frank!)).toEqual([{ pool_id: SHARED_POOL, subject: 'frank-sub' }]);
    expect(await linksOf(people.daveCopy!)).toEqual([{ pool_id: SHARED_POOL, subject: 'dave-sub' }]);
    expect(await subjectIn('two', frankMoved)).toBe(people.frank);
    expect(await subjectIn('two', daveMoved)).toBe(people.daveCopy);
    expect((await switching.admin.get('/users?email=frank@moved.example')).body.data).toEqual([]);
  });

  it('migration 0054 takes the links an earlier switch left behind to their users’ pools; a place taken since stays its holder’s', async () => {
    // As switches before it left them: Frank's link in a pool he has left; one to Dave's copy's upstream account beside it.
    await app.sql('update user_identity set pool_id = ? where user_id = ?', [switching.one, people.frank]);
    await app.sql(`insert into user_identity (application_id, id, pool_id, provider_id, subject, user_id, created_at)
               select application_id, gen_random_uuid(), ?, provider_id, 'dave-sub', user_id, now() from user_identity where user_id = ?`, [switching.two, people.frank]);
    await app.sql("delete from mikro_orm_migrations where name = '0054-links-in-their-users-pools'");
    await app.gatehouse.services.orm.migrator.up();
    expect(await linksOf(people.frank!)).toEqual([{ pool_id: SHARED_POOL, subject: 'frank-sub' }]);
    expect(await linksOf(people.daveCopy!)).toEqual([{ pool_id: SHARED_POOL, subject: 'dave-sub' }]);
    expect(await subjectIn('two', frankMoved)).toBe(people.frank);
    expect(await subjectIn('two', daveMoved)).toBe(people.daveCopy);
  });
});

describe('an upstream link by e-mail racing the merge of isolated pools', () => {
  /**
   * Bob of `two`, signed up by the upstream account `race-sub`, which now says the address of Bob of `one`: its sign-in
   * to `one` links that Bob, and the merged pools would hold that upstream account twice.
   */
  async function twoBobs(race: Racing, subject: string) {
    idp.login = { sub: subject, email: `bob@two.${subject}.example`, email_verified: true };
    const signUp = await authorize(race.config, { tenant: 'two' });
    const inTwo = (await idTokenOf(signUp, await signInWith(signUp, race.name), race.config))['sub'] as string;
    const inOne = await race.admin.post(`${race.path}/tenants/${race.one}/users`, { email: `bob@one.${subject}.example` });
    expect(inOne.status).toBe(201);
    idp.login = { sub: subject, email: `bob@one.${subject}.example`, email_verified: true };
    return { inTwo, inOne: inOne.body.id as string };
  }
  const startSignIn = async (race: Racing, tenant = 'one') => {
    const flow = await authorize(race.config, { tenant });
    return { flow, answer: signInWith(flow, race.name) };
  };
  /** Until the sign-in's link of `userId` is committed, or two statements wait on locks (the merge, and the link behind it). */
  async function linkedOrQueued(userId: string): Promise<void> {
    for (let attempt = 0; attempt < 1500; attempt += 1) {
      const [row] = await app.sql<{ links: number; waiting: number }>(
        `select (select count(*)::int from user_identity where user_id = ?) as links,
                (select count(*)::int from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock') as waiting`,
        [userId],
      );
      if (row!.links > 0 || row!.waiting >= 2) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('the sign-in neither linked nor waited');
  }
  const linksIn = (race: Racing) =>
    app.sql<{ user_id: string; in_its_users_pool: boolean }>(
      `select l.user_id, l.pool_id = u.pool_id as in_its_users_pool from user_identity as l join app_user as u on u.application_id = l.application_id and u.id = l.user_id
        where l.application_id = ? order by l.user_id`,
      [race.applicationId],
    );

  it.skipIf(usingEmbeddedDatabase())('the merge first: it completes, the sign-in links nobody and is refused to start again (409), then signs in to the merged pool', async () => {
    const race = racing[0]!;
    const bobs = await twoBobs(race, 'race-sub');
    // Bob of `one` held: the merge has checked its pools and waits to move him; the sign-in links him meanwhile.
    let signIn!: Awaited<ReturnType<typeof startSignIn>>;
    const [merged] = await queuedBehind(app.gatehouse.services.orm, { table: 'app_user', applicationId: race.applicationId, id: bobs.inOne }, {
      lock: 'share',
      beforeCommit: async () => {
        signIn = await startSignIn(race);
        await linkedOrQueued(bobs.inOne);
      },
    }, [() => race.admin.patch(race.path, { tenancyConfig: { authIsolation: 'shared' } })]);
    expect(merged!.status, JSON.stringify(merged!.body)).toBe(200);
    const refused = await signIn.answer;
    // No link left in the pool Bob of `one` has just left.
    expect(await linksIn(race)).toEqual([{ user_id: bobs.inTwo, in_its_users_pool: true }]);
    expect(refused.status).toBe(409);
    expect(refused.body).toContain('have just changed. Go back to the application and start again.');
    // Again: the merged pool's link of that upstream account is Bob of `two`'s (who is no member of `one`).
    const again = await startSignIn(race, 'two');
    expect((await idTokenOf(again.flow, await again.answer, race.config))['sub']).toBe(bobs.inTwo);

    // Without Bob of `two`, the upstream account links Bob of `one` by e-mail, and a split takes the link to his pool.
    expect((await race.admin.delete(`/users/${bobs.inTwo}`)).status).toBe(204);
    const linking = await startSignIn(race);
    expect((await idTokenOf(linking.flow, await linking.answer, race.config))['sub']).toBe(bobs.inOne);
    const split = await race.admin.patch(race.path, { tenancyConfig: { authIsolation: 'isolated' } });
    expect(split.status, JSON.stringify(split.body)).toBe(200);
    expect(await linksIn(race)).toEqual([{ user_id: bobs.inOne, in_its_users_pool: true }]);
  });

  it.skipIf(usingEmbeddedDatabase())('the link first: the sign-in completes, and the merge is refused with 409 users_with_duplicate_upstream_link', async () => {
    const race = racing[1]!;
    const bobs = await twoBobs(race, 'second-race-sub');
    // The application's row held as the link holds it: the merge waits for it; the link goes ahead and commits.
    let signIn!: Awaited<ReturnType<typeof startSignIn>>;
    const [merge] = await queuedBehind(app.gatehouse.services.orm, { table: 'application', id: race.applicationId }, {
      lock: 'share',
      beforeCommit: async () => {
        signIn = await startSignIn(race);
        await linkedOrQueued(bobs.inOne);
      },
    }, [() => race.admin.patch(race.path, { tenancyConfig: { authIsolation: 'shared' } })]);
    expect(merge!.status, JSON.stringify(merge!.body)).toBe(409);
    expect(merge!.body).toMatchObject({ code: 'tenant_auth_data_remains', field: 'tenancyConfig.authIsolation' });
    expect(merge!.body.details).toEqual(
      [race.one, race.two].sort().map((tenantId) => ({ tenantId, tenantSlug: tenantId === race.one ? 'one' : 'two', kind: 'users_with_duplicate_upstream_link', count: 1 })),
    );
    expect((await idTokenOf(signIn.flow, await signIn.answer, race.config))['sub']).toBe(bobs.inOne);
    expect((await race.admin.get(race.path)).body.tenancyConfig.authIsolation).toBe('isolated');
    expect(await linksIn(race)).toEqual([bobs.inOne, bobs.inTwo].sort().map((user_id) => ({ user_id, in_its_users_pool: true })));
  });
});

describe('upstream connections into the operator’s network', () => {
  /** Stands in for an internal service (a cloud metadata endpoint, an admin console); counts who reached it. */
  let internal: Server;
  let reached = 0;
  /** 0.0.0.0 is not loopback (GATEHOUSE_ALLOW_LOOPBACK_UPSTREAMS does not open it), yet a connection there reaches this machine. */
  let inside: string;

  beforeAll(async () => {
    internal = createServer((socket) => {
      reached += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    inside = `0.0.0.0:${(internal.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((resolve) => internal?.close(resolve)));

  it('a loopback issuer’s discovery document naming an internal token endpoint: the callback fails and nothing connects there', async () => {
    const rogue = await startDiscoveryUpstream(`https://${inside}`);
    try {
      await createProvider(app.http, '/auth-providers', { type: 'oauth', name: 'Rogue', config: { provider: 'generic', clientId: 'gatehouse', issuer: rogue.issuer }, secrets: { clientSecret: 's' } });
      const flow = await authorize();
      const refused = await signInWith(flow, 'Rogue');
      expect(refused.status).toBe(400);
      expect(refused.body).toContain('did not work');
      expect(await lastSignInRecord()).toMatchObject({ action: 'user.sign_in_failed', after: { reason: 'upstream_error' } });
      expect(reached).toBe(0);
    } finally {
      await rogue.close();
    }
  });

  it('a provider stored at an internal issuer (saved before the rule): its button is the unreachable page, and nothing connects there', async () => {
    const id = await createProvider(app.http, '/auth-providers', { type: 'oauth', name: 'Stored', config: { provider: 'generic', clientId: 'gatehouse', issuer: 'https://idp.example.com' }, secrets: { clientSecret: 's' } });
    await app.sql(`update auth_provider set config = jsonb_set(config, '{issuer}', to_jsonb(?::text)) where id = ?`, [`https://${inside}/`, id]);
    const flow = await authorize();
    const refused = await flow.jar.visit(buttonOf(flow.page, 'Stored')!);
    expect(refused.status).toBe(502);
    expect(refused.body).toContain('cannot be reached');
    expect(reached).toBe(0);
  });
});

describe('upstream answers', () => {
  /** Read whole: a discovery document, JWKS, token or userinfo answer without a bound would fill the service's memory. */
  it('one over 256 KiB is not read: the button is the unreachable page; one under it serves', async () => {
    const bulky = await startDiscoveryUpstream('https://idp.example.com', 300 * 1024);
    const fitting = await startDiscoveryUpstream('https://idp.example.com', 200 * 1024);
    try {
      await createProvider(app.http, '/auth-providers', { type: 'oauth', name: 'Bulky', config: { provider: 'generic', clientId: 'gatehouse', issuer: bulky.issuer }, secrets: { clientSecret: 's' } });
      await createProvider(app.http, '/auth-providers', { type: 'oauth', name: 'Fitting', config: { provider: 'generic', clientId: 'gatehouse', issuer: fitting.issuer }, secrets: { clientSecret: 's' } });
      const flow = await authorize();
      const refused = await flow.jar.visit(buttonOf(flow.page, 'Bulky')!);
      expect(refused.status).toBe(502);
      expect(refused.body).toContain('cannot be reached');
      const served = await flow.jar.visit(buttonOf(flow.page, 'Fitting')!);
      expect(served.status, served.body).toBe(303);
      expect(served.location).toMatch(new RegExp(`^${fitting.issuer}/authorize\\?`));
    } finally {
      await bulky.close();
      await fitting.close();
    }
  });
});

describe('a user’s upstream links, listed and removed by an administrator', () => {
  it('lists a user’s links; a removed one no longer signs in as the user, whose next sign-in there is a first one', async () => {
    idp.login = { sub: 'erin-sub', email: 'erin@example.com', email_verified: true };
    const flow = await authorize();
    const erin = (await idTokenOf(flow, await signInWith(flow, 'Upstream')))['sub'] as string;
    const listed = await app.http.get(`/users/${erin}/upstream-links`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ data: [{ id: expect.any(String), userId: erin, providerId: upstreamId, subject: 'erin-sub', createdAt: expect.any(String) }], next: null });
    const linkId = listed.body.data[0].id as string;

    // The upstream account changed hands: its new owner's address is theirs.
    idp.login = { sub: 'erin-sub', email: 'frank@example.com', email_verified: true };
    expect((await app.http.delete(`/users/${erin}/upstream-links/${linkId}`)).status).toBe(204);
    const [record] = await app.sql<{ action: string; target_id: string; before: unknown; after: unknown }>(
      `select action, target_id, before, after from audit_log where application_id = ? and action = 'user.upstream_link.removed' order by id desc limit 1`,
      [app.root.applicationId],
    );
    expect(record).toEqual({ action: 'user.upstream_link.removed', target_id: erin, before: { providerId: upstreamId, subject: 'erin-sub' }, after: null });
    expect((await app.http.get(`/users/${erin}/upstream-links`)).body).toEqual({ data: [], next: null });
    const gone = await app.http.delete(`/users/${erin}/upstream-links/${linkId}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: 'not_found', field: 'linkId' });

    const again = await authorize();
    const frank = (await idTokenOf(again, await signInWith(again, 'Upstream')))['sub'];
    expect(frank).not.toBe(erin);
    expect((await app.http.get('/users?email=frank@example.com')).body.data.map((user: { id: string }) => user.id)).toEqual([frank]);
  });

  it('refuses another user’s link (404), a tenant scope on a user of other tenants (403), and a key without users:write (403), removing nothing', async () => {
    const [one, two] = await Promise.all(['Links One', 'Links Two'].map(async (name, index) => (await app.http.post(`/applications/${app.root.applicationId}/tenants`, { name, slug: `links-${index}` })).body.id as string));
    const gina = await app.createUser('gina@example.com', one);
    const joined = await app.http.patch(`/users/${gina}`, { tenantIds: [one, two] });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    const hank = await app.createUser('hank@example.com', one);
    const linkId = newId();
    await app.sql(`insert into user_identity (application_id, id, pool_id, provider_id, subject, user_id, created_at) values (?, ?, ?, ?, 'gina-sub', ?, now())`, [
      app.root.applicationId,
      linkId,
      SHARED_POOL,
      upstreamId,
      gina,
    ]);
    const keyOf = async (body: Record<string, unknown>) => app.as({ apiKey: (await app.http.post('/api-keys', { name: 'links', ...body })).body.secret as string });

    const otherUser = await app.http.delete(`/users/${hank}/upstream-links/${linkId}`);
    expect(otherUser.status).toBe(404);
    expect(otherUser.body).toMatchObject({ code: 'not_found', field: 'linkId' });
    const ofOne = await keyOf({ permissions: ['users:*'], tenantId: one });
    expect((await ofOne.delete(`/users/${gina}/upstream-links/${linkId}`)).status).toBe(403);
    expect((await ofOne.get(`/users/${gina}/upstream-links`)).body.data).toHaveLength(1);
    const reader = await keyOf({ permissions: ['users:read'] });
    expect((await reader.delete(`/users/${gina}/upstream-links/${linkId}`)).status).toBe(403);
    expect((await app.http.get(`/users/${newId()}/upstream-links`)).body).toMatchObject({ code: 'not_found', field: 'userId' });
    expect(await identities(gina)).toEqual([{ provider_id: upstreamId, subject: 'gina-sub' }]);

    // Once the user is the tenant's alone, the tenant's administrator may.
    expect((await app.http.patch(`/users/${gina}`, { tenantIds: [one] })).status).toBe(200);
    expect((await ofOne.delete(`/users/${gina}/upstream-links/${linkId}`)).status).toBe(204);
    expect(await identities(gina)).toEqual([]);
  });
});

describe('an upstream provider moved to another issuer', () => {
  const removedLinks = (providerId: string) =>
    app.sql<{ target_id: string; tenant_id: string | null; before: unknown; after: unknown }>(
      `select target_id, tenant_id, before, after from audit_log where application_id = ? and action = 'user.upstream_link.removed' and before->>'providerId' = ?`,
      [app.root.applicationId, providerId],
    );

  const generic = (port: number) => ({ provider: 'generic', clientId: 'gatehouse', issuer: `http://127.0.0.1:${port}` });

  /** A generic provider `name` at a local issuer (`before`) and another issuer to move it to (`after`); the provider
   *  deleted and both closed after `use`. */
  async function movingProvider(
    name: string,
    use: (moving: { id: string; before: TestUpstream; after: TestUpstream; portBefore: number; portAfter: number }) => Promise<void>,
  ): Promise<void> {
    const [portBefore, portAfter] = [await freePort(), await freePort()];
    const id = await createProvider(app.http, '/auth-providers', { type: 'oauth', name, config: { ...generic(portBefore), allowSignup: true }, secrets: { clientSecret: UPSTREAM_SECRET } });
    const redirectUris = [`${issuer}/auth/callback/${id}`];
    const before = await startUpstreamIdp({ port: portBefore, clientSecret: UPSTREAM_SECRET, redirectUris });
    const after = await startUpstreamIdp({ port: portAfter, clientSecret: UPSTREAM_SECRET, redirectUris });
    try {
      await use({ id, before, after, portBefore, portAfter });
    } finally {
      await app.http.delete(`/auth-providers/${id}`);
      await before.close();
      await after.close();
    }
  }

  it('its links go, recorded: the same subject at the new issuer is another person, who never signs in as the linked user', async () => {
    await movingProvider('Moving', async ({ id, before, after, portAfter }) => {
      const hal = await app.createUser('hal-moving@example.com');
      // Numeric subjects, as GitLab's or GitHub's: the next issuer has its own user 1001.
      before.login = { sub: '1001', email: 'hal-moving@example.com', email_verified: true };
      const first = await authorize();
      expect((await idTokenOf(first, await signInWith(first, 'Moving')))['sub']).toBe(hal);
      // A setting that names no other issuer keeps the link.
      expect((await app.http.patch(`/auth-providers/${id}`, { name: 'Moving', config: { allowSignup: true } })).status).toBe(200);
      expect(await identities(hal)).toEqual([{ provider_id: id, subject: '1001' }]);
      expect(await removedLinks(id)).toEqual([]);

      // Refused for another field, the move removes nothing.
      const refused = await app.http.patch(`/auth-providers/${id}`, { config: { issuer: generic(portAfter).issuer }, secrets: { clientSecret: '' } });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'validation_error', field: 'secrets.clientSecret' });
      expect(await identities(hal)).toEqual([{ provider_id: id, subject: '1001' }]);
      expect(await removedLinks(id)).toEqual([]);

      expect((await app.http.patch(`/auth-providers/${id}`, { config: { issuer: generic(portAfter).issuer }, secrets: { clientSecret: UPSTREAM_SECRET } })).status).toBe(200);
      expect(await identities(hal)).toEqual([]);
      expect(await removedLinks(id)).toEqual([{ target_id: hal, tenant_id: null, before: { providerId: id, subject: '1001' }, after: { reason: 'provider_changed' } }]);
      after.login = { sub: '1001', email: 'ivy-moving@example.com', email_verified: true };
      const second = await authorize();
      const ivy = (await idTokenOf(second, await signInWith(second, 'Moving')))['sub'];
      expect(ivy).not.toBe(hal);
      expect((await app.http.get('/users?email=ivy-moving@example.com')).body.data).toEqual([expect.objectContaining({ id: ivy })]);
    });
  });

  it('moved while a callback waits on the former issuer: the answer links nobody and makes no account (upstream_error); the new issuer’s same subject is another person', async () => {
    await movingProvider('Racing move', async ({ id, before, after, portBefore, portAfter }) => {
      // The callback has read the provider and checks the former issuer's answer when the move commits.
      const moveTo = async (port: number) => {
        const moved = await app.http.patch(`/auth-providers/${id}`, { config: generic(port), secrets: { clientSecret: UPSTREAM_SECRET } });
        expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      };
      before.beforeToken = () => moveTo(portAfter);
      const kim = await app.createUser('kim-moving@example.com');
      before.login = { sub: '3003', email: 'kim-moving@example.com', email_verified: true };
      const linking = await authorize();
      const refused = await signInWith(linking, 'Racing move');
      expect(refused.status).toBe(400);
      expect(await lastSignInRecord()).toMatchObject({ action: 'user.sign_in_failed', target_id: kim, after: expect.objectContaining({ reason: 'upstream_error' }) });
      expect(await identities(kim)).toEqual([]);

      // The sign-up the former issuer's answer asks makes no account either.
      await moveTo(portBefore);
      before.login = { sub: '3004', email: 'lee-moving@example.com', email_verified: true };
      const signUp = await authorize();
      expect((await signInWith(signUp, 'Racing move')).status).toBe(400);
      expect((await app.http.get('/users?email=lee-moving@example.com')).body.data).toEqual([]);

      // Unmoved, the same answer links Kim; and once moved, the next issuer's 3003 is not Kim.
      before.beforeToken = undefined;
      await moveTo(portBefore);
      before.login = { sub: '3003', email: 'kim-moving@example.com', email_verified: true };
      const linked = await authorize();
      expect((await idTokenOf(linked, await signInWith(linked, 'Racing move')))['sub']).toBe(kim);
      await moveTo(portAfter);
      after.login = { sub: '3003', email: 'mia-moving@example.com', email_verified: true };
      const other = await authorize();
      expect((await idTokenOf(other, await signInWith(other, 'Racing move')))['sub']).not.toBe(kim);
      expect(await identities(kim)).toEqual([]);
    });
  });

  it.skipIf(usingEmbeddedDatabase())('moved once a callback’s link has checked the issuer: the move waits for the link, then removes it', async () => {
    await movingProvider('Held move', async ({ id, before, portAfter }) => {
      const noa = await app.createUser('noa-moving@example.com');
      before.login = { sub: '4004', email: 'noa-moving@example.com', email_verified: true };
      const flow = await authorize();
      // Noa's row held: the link, checked and written, waits at its commit (its user's foreign key); the move is sent then.
      let move!: Promise<{ status: number; body: unknown }>;
      const moved = async () => {
        move = app.http.patch(`/auth-providers/${id}`, { config: generic(portAfter), secrets: { clientSecret: UPSTREAM_SECRET } });
        return move;
      };
      // The move waits on the link, or (were the link under no lock it takes) completes before it.
      const queued = (count: number) => (count === 1 ? lockWaitersAtLeast(app.gatehouse.services.orm, 1) : Promise.race([lockWaitersAtLeast(app.gatehouse.services.orm, 2), move.then(() => undefined)]));
      const [answer, patched] = await queuedBehind<unknown>(
        app.gatehouse.services.orm,
        { table: 'app_user', applicationId: app.root.applicationId, id: noa },
        { lock: 'update' },
        [() => signInWith(flow, 'Held move'), moved],
        queued,
      );
      expect((patched as { status: number }).status).toBe(200);
      // Signed in by the answer the issuer then gave; the link it wrote went with the move.
      expect((await idTokenOf(flow, answer as Visit))['sub']).toBe(noa);
      expect(await identities(noa)).toEqual([]);
      const [removed] = await app.sql<{ after: unknown }>(`select after from audit_log where application_id = ? and action = 'user.upstream_link.removed' and target_id = ?`, [app.root.applicationId, noa]);
      expect(removed).toEqual({ after: { reason: 'provider_changed' } });
    });
  });
  it('a shared user’s link it removes is read by each of the user’s tenants, as an administrator’s removal is; a tenant they are not in reads none', async () => {
    await movingProvider('Moving members', async ({ id, portAfter }) => {
      const [one, two, three] = [await app.createTenant('Moving One'), await app.createTenant('Moving Two'), await app.createTenant('Moving Three')];
      const jo = await app.createUser('jo-moving@example.com', one);
      expect((await app.http.patch(`/users/${jo}`, { tenantIds: [one, two] })).status).toBe(200);
      await app.sql(`insert into user_identity (application_id, id, pool_id, provider_id, subject, user_id, created_at) values (?, ?, ?, ?, 'jo-sub', ?, now())`, [
        app.root.applicationId,
        newId(),
        SHARED_POOL,
        id,
        jo,
      ]);
      expect((await app.http.patch(`/auth-providers/${id}`, { config: generic(portAfter), secrets: { clientSecret: UPSTREAM_SECRET } })).status).toBe(200);
      expect(await identities(jo)).toEqual([]);
      const [record] = (await app.http.get(`/audit-logs?target=${jo}&action=user.upstream_link.removed`)).body.data as { id: string; tenantId: string | null }[];
      expect(record).toMatchObject({ tenantId: null, changes: { before: { providerId: id, subject: 'jo-sub' }, after: { reason: 'provider_changed' } } });

      await expectReadByTenantsOnly(app, { userId: jo, ids: [record!.id], search: '&action=user.upstream_link.removed', tenants: [one, two], outsider: three });
    });
  });
});
