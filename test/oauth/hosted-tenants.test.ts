import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar, readForm, type Visit } from '../support/cookie-jar.ts';
import { usingEmbeddedDatabase } from '../support/database.ts';
import type { HttpClient } from '../support/http.ts';
import { createTestClient, decodeJwt, discover } from '../support/oauth.ts';
import { isolatedNorthSouth } from '../support/surface-sign-in.ts';
import { formsSentAtOnce, queuedBehind, type RowHolder } from '../support/row-lock.ts';

/**
 * Tenant selection on the hosted sign-in: `shared` (one pool; the client names the tenant or the user picks one of
 * theirs) and `isolated` (the client must name the tenant; each tenant is its own pool with its own policies).
 */
const REDIRECT_URI = 'https://app.example/callback';
const PASSWORD = 'Correct-Horse-9';

let app: TestApp;
let issuer: string;
let managementApi: string;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  managementApi = `${issuer}/api/v1`;
});
afterAll(async () => app?.close());

async function webClient(applicationId: string, tenantId: string | null = null): Promise<oidc.Configuration> {
  const client = await createTestClient(app, { type: 'web', applicationId, tenantId, redirectUris: [REDIRECT_URI] });
  return discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
}

interface Flow {
  readonly jar: CookieJar;
  readonly verifier: string;
  readonly state: string;
  readonly page: Visit;
}

/** An authorization request of `config`'s client; a parameter given as undefined is left out (e.g. `resource`). */
async function authorize(config: oidc.Configuration, parameters: Record<string, string | undefined> = {}, jar = new CookieJar()): Promise<Flow> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const all: Record<string, string | undefined> = {
    redirect_uri: REDIRECT_URI,
    scope: 'openid email',
    resource: managementApi,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...parameters,
  };
  const url = oidc.buildAuthorizationUrl(config, Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined)));
  const start = await jar.visit(url.href);
  expect(start.location, start.body).toBeDefined();
  // A browser signed in already may go straight back to the client: then that redirect is the "page".
  const page = start.location!.startsWith(`${issuer}/interaction/`) ? await jar.visit(start.location!) : start;
  return { jar, verifier, state, page };
}

/** The tenant choice a password sign-in continues with: its POST is answered with a 303 to the choice (Post/Redirect/Get). */
async function tenantChoice(flow: Flow, email: string): Promise<Visit> {
  const signedIn = await flow.jar.submit(flow.page, { email, password: PASSWORD });
  expect(signedIn.status, signedIn.body).toBe(303);
  expect(signedIn.location).toBe(`${flow.page.url}/tenant`);
  return flow.jar.visit(signedIn.location!);
}

/** The authorization request refused by the OP at once (no interaction): at the client's redirect URI, with its state. */
function expectInvalidRequest(flow: Flow, description: string) {
  expect(flow.page.status, flow.page.body).toBe(303);
  const callback = new URL(flow.page.location!);
  expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
  expect(Object.fromEntries(callback.searchParams)).toEqual({ error: 'invalid_request', error_description: description, state: flow.state, iss: issuer });
}

/** The access token's claims after the browser has come back to the client with a code. */
async function redeem(config: oidc.Configuration, flow: Flow, answer: Visit) {
  const callback = await flow.jar.followOut(answer, issuer);
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state }, { resource: managementApi });
  return decodeJwt(tokens.access_token).payload;
}

describe('shared pool', () => {
  let config: oidc.Configuration;
  let acme: string;
  let globex: string;
  let initech: string;
  let bob: string;
  let carol: string;

  beforeAll(async () => {
    config = await webClient(app.root.applicationId);
    [acme, globex, initech] = [await app.createTenant('Acme'), await app.createTenant('Globex'), await app.createTenant('Initech')];
    bob = (await app.http.post('/users', { email: 'bob@example.com', password: PASSWORD, tenantId: acme })).body.id;
    expect((await app.http.patch(`/users/${bob}`, { tenantIds: [acme, globex] })).status).toBe(200);
    carol = (await app.http.post('/users', { email: 'carol@example.com', password: PASSWORD })).body.id;
  });

  it('a user of several tenants picks one on the page (only theirs are offered), and the token carries it', async () => {
    const flow = await authorize(config);
    const chooser = await tenantChoice(flow, 'bob@example.com');
    expect(chooser.status).toBe(200);
    expect(chooser.body).toContain('<label for="tenant">');
    const form = readForm(chooser.url, chooser.body);
    expect(form.action).toBe(`${flow.page.url}/tenant`);
    expect(new Set(form.options['tenant'])).toEqual(new Set([acme, globex]));
    expect(chooser.body).not.toContain(initech);
    const signIns = `select after->>'method' as method from audit_log where target_id = ? and action = 'user.signed_in'`;
    const before = (await app.sql(signIns, [bob])).length;
    const chosen = await flow.jar.submit(chooser, { tenant: globex });
    expect(chosen.status, chosen.body).toBe(303);
    expect(await redeem(config, flow, chosen)).toMatchObject({ sub: bob, app_id: app.root.applicationId, tenant_id: globex });
    // The password's record is written once the tenant is chosen (with the MFA step decided), once.
    expect((await app.sql(signIns, [bob])).slice(before)).toEqual([{ method: 'password' }]);
  });

  it('a sign-in completed by the tenant choice is the chosen tenant’s: its record and its count there, as an MFA step’s would be', async () => {
    const tenantPath = `/applications/${app.root.applicationId}/tenants/${globex}`;
    // The default range (the last 30 days) holds every sign-in of this run, whatever the day.
    const succeededIn = async (path: string) =>
      ((await app.http.get(`${path}/analytics/sign-ins`)).body.data as { succeeded: number }[]).reduce((sum, point) => sum + point.succeeded, 0);
    const recordsIn = async (path: string) => (await app.http.get(`${path}/audit-logs?action=user.signed_in&target=${bob}&pageSize=100`)).body.data as unknown[];
    const [inGlobex, inApplication, recordsBefore] = [await succeededIn(tenantPath), await succeededIn(''), (await recordsIn(tenantPath)).length];
    const flow = await authorize(config);
    const chosen = await flow.jar.submit(await tenantChoice(flow, 'bob@example.com'), { tenant: globex });
    expect(await redeem(config, flow, chosen)).toMatchObject({ sub: bob, tenant_id: globex });
    const [record] = await app.sql<{ tenant_id: string | null }>(
      `select tenant_id::text from audit_log where target_id = ? and action = 'user.signed_in' order by seq desc limit 1`,
      [bob],
    );
    expect(record).toEqual({ tenant_id: globex });
    expect(await succeededIn(tenantPath)).toBe(inGlobex + 1);
    // Counted once: the application's series holds every tenant's.
    expect(await succeededIn('')).toBe(inApplication + 1);
    expect(await recordsIn(tenantPath)).toHaveLength(recordsBefore + 1);
  });

  it('the choice stays with the session: asking again (prompt=consent, no tenant named) keeps the chosen tenant', async () => {
    const flow = await authorize(config);
    const chooser = await tenantChoice(flow, 'bob@example.com');
    expect(await redeem(config, flow, await flow.jar.submit(chooser, { tenant: globex }))).toMatchObject({ tenant_id: globex });
    const again = await authorize(config, { prompt: 'consent' }, flow.jar);
    expect(again.page.status).toBe(303);
    expect(await redeem(config, again, again.page)).toMatchObject({ sub: bob, tenant_id: globex });
  });

  it('a signed-in user choosing a tenant for another client makes no new sign-in: no password step, the session’s auth_time and amr', async () => {
    const dana = (await app.http.post('/users', { email: 'chooser@example.com', password: PASSWORD, tenantId: acme })).body.id;
    expect((await app.http.patch(`/users/${dana}`, { tenantIds: [acme, globex] })).status).toBe(200);
    const idClaims = async (configuration: oidc.Configuration, flow: Flow, answer: Visit) => {
      const callback = await flow.jar.followOut(answer, issuer);
      const tokens = await oidc.authorizationCodeGrant(configuration, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state }, { resource: managementApi });
      return tokens.claims()!;
    };
    // max_age puts auth_time in the ID token.
    const flow = await authorize(config, { max_age: '3600' });
    const signedIn = await idClaims(config, flow, await flow.jar.submit(await tenantChoice(flow, 'chooser@example.com'), { tenant: globex }));
    expect(signedIn.auth_time).toEqual(expect.any(Number));
    // Her password expires meanwhile: a password proven now would be changed first, a session's choice proves none.
    expect((await app.http.put('/policies/password', { maxAge: 1 })).status).toBe(200);
    await app.gatehouse.services.orm.em.getConnection().execute(`update app_user set password_changed_at = now() - interval '2 days' where id = ?`, [dana]);
    try {
      const other = await webClient(app.root.applicationId);
      const again = await authorize(other, { max_age: '3600' }, flow.jar);
      expect(again.page.status, again.page.body).toBe(200);
      expect(new Set(readForm(again.page.url, again.page.body).options['tenant'])).toEqual(new Set([acme, globex]));
      const answer = await again.jar.submit(again.page, { tenant: acme });
      expect(answer.status, answer.body).toBe(303);
      const chosen = await idClaims(other, again, answer);
      expect(chosen).toMatchObject({ sub: dana, tenant_id: acme, auth_time: signedIn.auth_time, amr: signedIn.amr });
      // The session's sign-in to acme is the one proven for globex, as its methods say.
      const sessions = (await app.http.get(`/users/${dana}/sessions`)).body.data as { tenantId: string; methods: string[] }[];
      expect(new Map(sessions.map((session) => [session.tenantId, session.methods]))).toEqual(new Map([[globex, ['password']], [acme, ['password']]]));
    } finally {
      expect((await app.http.put('/policies/password', {})).status).toBe(200);
    }
  });

  it('a tenant outside the user’s own cannot be chosen, nor can the choice be made without the password step', async () => {
    const flow = await authorize(config);
    const chooser = await tenantChoice(flow, 'bob@example.com');
    const refused = await flow.jar.submit(chooser, { tenant: initech });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('role="alert"');
    const forged = await flow.jar.submit(chooser, { tenant: acme, signin: 'forged.0.x' });
    expect(forged.status).toBe(403);
    // The genuine proof still completes the sign-in.
    const chosen = await flow.jar.submit(chooser, { tenant: acme });
    expect(await redeem(config, flow, chosen)).toMatchObject({ tenant_id: acme });
  });

  it('the client names the tenant by slug or id: no choice, straight to the client', async () => {
    for (const tenant of ['globex', globex]) {
      const flow = await authorize(config, { tenant });
      const answer = await flow.jar.submit(flow.page, { email: 'bob@example.com', password: PASSWORD });
      expect(answer.status).toBe(303);
      expect(await redeem(config, flow, answer)).toMatchObject({ sub: bob, tenant_id: globex });
    }
  });

  it('a named tenant the user does not belong to refuses after the password; a wrong password stays generic', async () => {
    const flow = await authorize(config, { tenant: 'initech' });
    const wrong = await flow.jar.submit(flow.page, { email: 'bob@example.com', password: 'Wrong-Horse-9' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('The email address or password is incorrect.');
    const noAccess = await flow.jar.submit(wrong, { password: PASSWORD });
    expect(noAccess.status).toBe(403);
    expect(noAccess.body).toContain('This account has no access to Initech.');
    expect(noAccess.location).toBeUndefined();
  });

  it('a user of no tenant signs in to the application: the token has no tenant_id', async () => {
    const flow = await authorize(config);
    const answer = await flow.jar.submit(flow.page, { email: 'carol@example.com', password: PASSWORD });
    const claims = await redeem(config, flow, answer);
    expect(claims).toMatchObject({ sub: carol, app_id: app.root.applicationId });
    expect(claims).not.toHaveProperty('tenant_id');
  });

  it('a signed-in user asking for another tenant gets a token of that tenant, never the session’s previous one', async () => {
    const first = await authorize(config, { tenant: 'acme' });
    const signedIn = await first.jar.submit(first.page, { email: 'bob@example.com', password: PASSWORD });
    expect(await redeem(config, first, signedIn)).toMatchObject({ tenant_id: acme });
    // Same browser (the OP's session cookie): no password, the switch confirmed on its page, each time with the named tenant.
    for (const [tenant, expected] of [['globex', globex], [acme, acme], ['GLOBEX', globex]] as const) {
      const again = await authorize(config, { tenant }, first.jar);
      expect(again.page.status, again.page.body).toBe(200);
      expect(await redeem(config, again, await again.jar.submit(again.page, {}))).toMatchObject({ sub: bob, tenant_id: expected });
    }
    // The session's own tenant: straight back to the client.
    const same = await authorize(config, { tenant: 'globex' }, first.jar);
    expect(await redeem(config, same, same.page)).toMatchObject({ sub: bob, tenant_id: globex });
    // A tenant the user does not belong to is not swapped for one they do: its sign-in form, for another account.
    const stranger = await authorize(config, { tenant: 'initech' }, first.jar);
    expect(stranger.page.status).toBe(200);
    expect(stranger.page.location).toBeUndefined();
    expect(stranger.page.body).toContain('cannot be used for Initech');
    // Naming none keeps the session's sign-in as it is.
    const unnamed = await authorize(config, {}, first.jar);
    expect((await redeem(config, unnamed, unnamed.page)).sub).toBe(bob);
  });

  it('a request for another tenant ends no sign-in by itself: prompt=none is interaction_required, the page asks, the user’s POST switches', async () => {
    const alice = (await app.http.post('/users', { email: 'alice@example.com', password: PASSWORD, tenantId: acme })).body.id as string;
    expect((await app.http.patch(`/users/${alice}`, { tenantIds: [acme, globex] })).status).toBe(200);
    const first = await authorize(config, { tenant: 'acme', scope: 'openid email offline_access', prompt: 'consent' });
    const callback = await first.jar.followOut(await first.jar.submit(first.page, { email: 'alice@example.com', password: PASSWORD }), issuer);
    const inAcme = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: first.verifier, expectedState: first.state }, { resource: managementApi });
    let refreshToken = inAcme.refresh_token!;
    const stillSignedIn = async () => {
      refreshToken = (await oidc.refreshTokenGrant(config, refreshToken, { resource: managementApi })).refresh_token!;
    };
    const switches = `select after->>'reason' as reason from audit_log where action = 'grant.revoked' and after->>'userId' = ?`;
    // A cross-site navigation asking silently: the client hears interaction_required, nothing ends. The account page's
    // response mode answers only that page's own request (prompt=login), so it is refused before any consent.
    for (const [responseMode, error] of [[undefined, 'interaction_required'], ['gatehouse_account', 'unsupported_response_mode']] as const) {
      const silent = await authorize(config, { tenant: 'globex', prompt: 'none', response_mode: responseMode }, first.jar);
      expect(silent.page.status, silent.page.body).toBe(303);
      const answer = new URL(silent.page.location!);
      expect(answer.searchParams.get('error')).toBe(error);
      expect(`${answer.origin}${answer.pathname}`).toBe(REDIRECT_URI);
      expect(answer.searchParams.get('state')).toBe(silent.state);
      await stillSignedIn();
    }
    // Asked with a page: its GET shows the confirmation and ends nothing; a forged POST neither.
    const asked = await authorize(config, { tenant: 'globex' }, first.jar);
    expect(asked.page.status, asked.page.body).toBe(200);
    expect(asked.page.body).toContain('Globex');
    expect(asked.page.body).toContain('Acme');
    expect((await asked.jar.visit(asked.page.url)).status).toBe(200);
    const forged = await asked.jar.submit(asked.page, { csrf: 'forged' });
    expect(forged.status).toBe(403);
    // A tenant the consent does not go to (the request named Globex): back to the page, which asks again.
    for (const tenant of [acme, initech, '']) {
      const other = await asked.jar.submit(asked.page, { tenant });
      expect([other.status, other.location]).toEqual([303, asked.page.url]);
    }
    await stillSignedIn();
    expect(await app.sql(switches, [alice])).toEqual([]);
    // The user's own confirmation: the sign-in continues in Globex, and Acme's grant ends with its tokens, recorded.
    expect(await redeem(config, asked, await asked.jar.submit(asked.page, {}))).toMatchObject({ sub: alice, tenant_id: globex });
    await expect(oidc.refreshTokenGrant(config, refreshToken, { resource: managementApi })).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await app.sql(switches, [alice])).toEqual([{ reason: 'tenant_switch' }]);
  });

  it('the switch page names the client, the tenant whose sign-in ends and the one it goes on in; a consent asked again is no switch', async () => {
    const erin = (await app.http.post('/users', { email: 'erin@example.com', password: PASSWORD, tenantId: acme })).body.id as string;
    expect((await app.http.patch(`/users/${erin}`, { tenantIds: [acme, globex] })).status).toBe(200);
    const first = await authorize(config, { tenant: 'acme' });
    expect(await redeem(config, first, await first.jar.submit(first.page, { email: 'erin@example.com', password: PASSWORD }))).toMatchObject({ tenant_id: acme });
    // A consent asked again, no tenant named: the session's grant stands.
    const kept = await authorize(config, { prompt: 'consent' }, first.jar);
    expect(await redeem(config, kept, kept.page)).toMatchObject({ sub: erin, tenant_id: acme });
    // The account's other tenant: the page says what ends, and until its POST nothing has.
    const grants = `select id from oidc_model where model = 'Grant' and payload->>'accountId' = ?`;
    const [acmeGrant] = await app.sql(grants, [erin]);
    const flow = await authorize(config, { tenant: 'globex', prompt: 'consent' }, first.jar);
    expect(flow.page.status, flow.page.body).toBe(200);
    expect(flow.page.body).toContain('You are signed in to test web client in Acme. Continuing in Globex ends that sign-in.');
    expect(readForm(flow.page.url, flow.page.body).action).toBe(`${flow.page.url}/switch`);
    expect(await app.sql(grants, [erin])).toEqual([acmeGrant]);
    expect(await redeem(config, flow, await flow.jar.submit(flow.page, {}))).toMatchObject({ sub: erin, tenant_id: globex });
    expect(await app.sql(grants, [erin])).not.toContainEqual(acmeGrant);
  });

  it('signed in with an account that has no access to the named tenant, another account signs in there and switches', async () => {
    const ines = (await app.http.post('/users', { email: 'ines@example.com', password: PASSWORD, tenantId: initech })).body.id as string;
    const first = await authorize(config, { tenant: 'acme' });
    expect(await redeem(config, first, await first.jar.submit(first.page, { email: 'bob@example.com', password: PASSWORD }))).toMatchObject({ sub: bob });

    // Bob is no member of Initech: Initech's sign-in form, saying Bob will be signed out (not a dead end).
    const toInitech = await authorize(config, { tenant: 'initech' }, first.jar);
    expect(toInitech.page.status).toBe(200);
    expect(toInitech.page.body).toContain(
      '<p class="notice" role="status">You are signed in with an account that cannot be used for Initech. Signing in here signs that account out.</p>',
    );
    // Bob's own password there is still no access, on the same form.
    const bobAgain = await toInitech.jar.submit(toInitech.page, { email: 'bob@example.com', password: PASSWORD });
    expect(bobAgain.status).toBe(403);
    expect(bobAgain.body).toContain('This account has no access to Initech.');

    // Ines, a member, signs in: the OP has the browser confirm Bob's sign-out (its own form), then resumes.
    const switched = await toInitech.jar.submit(bobAgain, { email: 'ines@example.com', password: PASSWORD });
    expect(switched.status, switched.body).toBe(303);
    const signOut = await toInitech.jar.visit(switched.location!);
    expect(readForm(signOut.url, signOut.body).action).toBe(`${issuer}/oauth2/logout/confirm?app=${app.root.applicationId}`);
    // Its script by hash; its POST leads through the OP back to the client (browsers check form-action on each hop).
    const csp = signOut.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/^default-src 'none';script-src 'sha256-[\w+/=]+';form-action 'self' https:\/\/app\.example;/);
    const resumed = await toInitech.jar.submit(signOut, {});
    expect(await redeem(config, toInitech, resumed)).toMatchObject({ sub: ines, tenant_id: initech });
  });

  it('prompt=login naming another tenant than the session’s: a fresh sign-in there, never the session’s, never a tenant the user is not in', async () => {
    const first = await authorize(config, { tenant: 'acme' });
    expect(await redeem(config, first, await first.jar.submit(first.page, { email: 'bob@example.com', password: PASSWORD }))).toMatchObject({ sub: bob, tenant_id: acme });
    const sessionOf = (jar: CookieJar) => jar.all().filter((cookie) => cookie.name.startsWith('_session')).map((cookie) => `${cookie.name}=${cookie.value}`);
    const acmeSession = sessionOf(first.jar);

    // A tenant the session's user belongs to too: the form, not the session's account (no switch page, no redirect).
    const toGlobex = await authorize(config, { tenant: 'globex', prompt: 'login' }, first.jar);
    expect(toGlobex.page.status).toBe(200);
    expect(toGlobex.page.location).toBeUndefined();
    expect(readForm(toGlobex.page.url, toGlobex.page.body).fields).toHaveProperty('password');
    // Posting nothing, or the switch page's form, proves nothing: back to the form, nothing signed in.
    for (const path of ['/login', '/switch']) {
      const unproven = await toGlobex.jar.visit(`${toGlobex.page.url}${path}`, { form: { ...readForm(toGlobex.page.url, toGlobex.page.body).fields, tenant: globex, email: '', password: '' } });
      expect(unproven.location ?? '', path).not.toMatch(new RegExp(`^${REDIRECT_URI}`));
      expect(sessionOf(toGlobex.jar)).toEqual(acmeSession);
    }
    const fresh = await toGlobex.jar.submit(toGlobex.page, { email: 'bob@example.com', password: PASSWORD });
    expect(await redeem(config, toGlobex, fresh)).toMatchObject({ sub: bob, tenant_id: globex });

    // A tenant the user is not in: the form too; their password is refused there, no code, the session as it was.
    const toInitech = await authorize(config, { tenant: 'initech', prompt: 'login' }, first.jar);
    expect(toInitech.page.status).toBe(200);
    expect(toInitech.page.location).toBeUndefined();
    const sessionBefore = sessionOf(toInitech.jar);
    const noAccess = await toInitech.jar.submit(toInitech.page, { email: 'bob@example.com', password: PASSWORD });
    expect(noAccess.status).toBe(403);
    expect(noAccess.location).toBeUndefined();
    expect(noAccess.body).toContain('This account has no access to Initech.');
    expect(sessionOf(toInitech.jar)).toEqual(sessionBefore);
    // The session still signs in silently where it was, and never to Initech.
    const silent = await authorize(config, { tenant: 'globex', prompt: 'none' }, first.jar);
    expect(await redeem(config, silent, silent.page)).toMatchObject({ sub: bob, tenant_id: globex });
    const silentInitech = await authorize(config, { tenant: 'initech', prompt: 'none' }, first.jar);
    expect(new URL(silentInitech.page.location!).searchParams.get('error')).toBe('login_required');
  });

  it('an unknown tenant, or another application’s, is invalid_request at the redirect URI with the state, before any form', async () => {
    const foreign = await app.createTenant('Foreign', await app.bootstrapAnother());
    for (const tenant of ['no-such-tenant', foreign]) {
      expectInvalidRequest(await authorize(config, { tenant }), 'the tenant parameter names no tenant of this application');
    }
  });

  it('a tenant-bound client signs in to its own tenant only: another, or an unknown one, is invalid_request at the redirect URI', async () => {
    const bound = await webClient(app.root.applicationId, acme);
    for (const tenant of [undefined, 'acme', acme]) {
      const flow = await authorize(bound, { tenant });
      const answer = await flow.jar.submit(flow.page, { email: 'bob@example.com', password: PASSWORD });
      expect(await redeem(bound, flow, answer)).toMatchObject({ tenant_id: acme });
    }
    // One answer whether the tenant is the application's or none: it does not tell which names are tenants.
    for (const tenant of ['globex', initech, 'no-such-tenant']) {
      for (const prompt of [undefined, 'none']) {
        expectInvalidRequest(await authorize(bound, { tenant, prompt }), 'the tenant parameter names another tenant than this client signs in to');
      }
    }
  });
});

describe('a session and its tokens when the user’s standing changes', () => {
  let config: oidc.Configuration;
  let acme: string;
  let globex: string;

  beforeAll(async () => {
    config = await webClient(app.root.applicationId);
    [acme, globex] = [await app.createTenant('Standing Acme'), await app.createTenant('Standing Globex')];
  });

  async function createUser(email: string, tenantIds: string[]) {
    const created = await app.http.post('/users', { email, password: PASSWORD, ...(tenantIds.length > 0 ? { tenantId: tenantIds[0] } : {}) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    if (tenantIds.length > 1) expect((await app.http.patch(`/users/${created.body.id}`, { tenantIds })).status).toBe(200);
    return created.body.id as string;
  }

  /** Signs in (offline_access, so with a refresh token) in a browser of its own; the browser and the refresh token. */
  async function signIn(email: string, tenant: string, client = config) {
    const flow = await authorize(client, { tenant, scope: 'openid email offline_access', prompt: 'consent' });
    const callback = await flow.jar.followOut(await flow.jar.submit(flow.page, { email, password: PASSWORD }), issuer);
    const tokens = await oidc.authorizationCodeGrant(client, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state }, { resource: managementApi });
    expect(tokens.refresh_token).toBeTruthy();
    return { jar: flow.jar, refreshToken: tokens.refresh_token! };
  }

  it('removed from the tenant, the user’s refresh tokens of it are refused and its session ends: the pages ask again', async () => {
    const dana = await createUser('dana@example.com', [acme, globex]);
    const { jar, refreshToken } = await signIn('dana@example.com', 'standing-acme');
    expect((await app.http.patch(`/users/${dana}`, { tenantIds: [globex] })).status).toBe(200);

    await expect(oidc.refreshTokenGrant(config, refreshToken, { resource: managementApi })).rejects.toMatchObject({ error: 'invalid_grant' });
    // The browser's session was signed in to that tenant: it ended with the membership, so no code comes of it, for
    // that tenant or another; the pages offer the sign-in form, where the user signs in to the tenant they still have.
    for (const tenant of [acme, globex]) {
      const again = await authorize(config, { tenant }, jar);
      expect(again.page.status).toBe(200);
      expect(again.page.location).toBeUndefined();
      expect(again.page.body).toContain('name="password"');
    }
  });

  /** The sign-in ended with access_denied: the client hears it with its state, and the interaction is over. */
  async function expectRefused(flow: Flow, answer: Visit) {
    expect(answer.status, answer.body).toBe(303);
    const callback = await flow.jar.followOut(answer, issuer);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
    expect(Object.fromEntries(callback.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'the sign-in was refused',
      state: flow.state,
      iss: issuer,
    });
    // Its page is the expired one, not a form.
    const over = await flow.jar.visit(flow.page.url);
    expect(over.status).toBe(400);
    expect(over.body).not.toContain('<form');
  }

  const setTenants = async (userId: string, tenantIds: string[]) => expect((await app.http.patch(`/users/${userId}`, { tenantIds })).status).toBe(200);

  it('suspended or deleted between the password and the tenant choice: the client hears access_denied, with its state', async () => {
    const suspend = (userId: string) => app.gatehouse.services.orm.em.getConnection().execute(`update app_user set status = 'suspended' where id = ?`, [userId]);
    const remove = async (userId: string) => expect((await app.http.delete(`/users/${userId}`)).status).toBe(204);
    for (const [email, change] of [['hana@example.com', suspend], ['ivan@example.com', remove]] as const) {
      const userId = await createUser(email, [acme, globex]);
      const flow = await authorize(config);
      const chooser = await tenantChoice(flow, email);
      await change(userId);
      await expectRefused(flow, await flow.jar.submit(chooser, { tenant: globex }));
    }
  });

  it('a new password set between the password and the tenant choice (a reset, an administrator): the old one proves nothing more', async () => {
    const userId = await createUser('hugo@example.com', [acme, globex]);
    const flow = await authorize(config);
    const chooser = await tenantChoice(flow, 'hugo@example.com');
    // Whoever typed the old password (a thief the owner is locking out) holds the choice's proof for its 10 minutes.
    expect((await app.http.patch(`/users/${userId}`, { password: 'Fresh-Battery-77' })).status).toBe(200);
    await expectRefused(flow, await flow.jar.submit(chooser, { tenant: globex }));
  });

  it('suspended and activated again, or signed out everywhere, between the password and the tenant choice: the proof is void; another user’s choice goes on', async () => {
    const suspendAndActivate = async (userId: string) => {
      expect((await app.http.post(`/users/${userId}/suspend`)).status).toBe(200);
      expect((await app.http.post(`/users/${userId}/activate`)).body.status).toBe('active');
    };
    const signOutEverywhere = async (userId: string) => expect((await app.http.delete(`/users/${userId}/sessions`)).status).toBe(204);
    for (const [email, end] of [['hedy@example.com', suspendAndActivate], ['hans@example.com', signOutEverywhere]] as const) {
      const userId = await createUser(email, [acme, globex]);
      const bystander = await createUser(`bystander-${email}`, [acme, globex]);
      const flow = await authorize(config);
      const chooser = await tenantChoice(flow, email);
      const other = await authorize(config);
      const othersChooser = await tenantChoice(other, `bystander-${email}`);
      await end(userId);
      // Reloaded, the choice is no longer shown: the interaction's page asks for the sign-in again.
      const reloaded = await flow.jar.visit(chooser.url);
      expect(reloaded.location).toBe(flow.page.url);
      await expectRefused(flow, await flow.jar.submit(chooser, { tenant: globex }));
      const chosen = await other.jar.submit(othersChooser, { tenant: globex });
      expect(await redeem(config, other, chosen)).toMatchObject({ sub: bystander, tenant_id: globex });
    }
  });

  it('removed from every tenant after the password: no empty choice, the client hears access_denied (choice posted or shown again)', async () => {
    const jon = await createUser('jon@example.com', [acme, globex]);
    const posted = await authorize(config);
    const chooser = await tenantChoice(posted, 'jon@example.com');
    await setTenants(jon, []);
    await expectRefused(posted, await posted.jar.submit(chooser, { tenant: globex }));

    const kim = await createUser('kim@example.com', [acme, globex]);
    const reloaded = await authorize(config);
    const signedIn = await reloaded.jar.submit(reloaded.page, { email: 'kim@example.com', password: PASSWORD });
    await setTenants(kim, []);
    await expectRefused(reloaded, await reloaded.jar.visit(signedIn.location!));
  });

  it('a choice sent twice (a double submit) before the browser goes on: one sign-in, recorded and counted once, the first choice', async () => {
    const zed = await createUser('zed@example.com', [acme, globex]);
    const flow = await authorize(config);
    const chooser = await tenantChoice(flow, 'zed@example.com');
    const first = await flow.jar.submit(chooser, { tenant: globex });
    expect(first.status).toBe(303);
    const second = await flow.jar.submit(chooser, { tenant: acme });
    expect([second.status, second.location]).toEqual([303, first.location]);
    const records = await app.sql<{ action: string; tenant_id: string | null }>(
      `select action, tenant_id from audit_log where target_id = ? and action in ('user.signed_in', 'user.first_factor_proven') order by seq`,
      [zed],
    );
    expect(records).toEqual([{ action: 'user.signed_in', tenant_id: globex }]);
    expect(await redeem(config, flow, second)).toMatchObject({ sub: zed, tenant_id: globex });
  });

  it('a choice sent twice at once (the second posted before the first is answered): one sign-in, one grant, recorded once; both go where it led', async () => {
    const yan = await createUser('yan@example.com', [acme, globex]);
    const flow = await authorize(config);
    const chooser = await tenantChoice(flow, 'yan@example.com');
    const answers = await Promise.all([flow.jar.submit(chooser, { tenant: globex }), flow.jar.submit(chooser, { tenant: acme })]);
    expect(answers.map((answer) => answer.status)).toEqual([303, 303]);
    expect(answers[1].location).toBe(answers[0].location);
    const records = await app.sql<{ action: string; tenant_id: string | null }>(
      `select action, tenant_id from audit_log where target_id = ? and action in ('user.signed_in', 'user.first_factor_proven') order by seq`,
      [yan],
    );
    expect(records).toEqual([{ action: 'user.signed_in', tenant_id: expect.any(String) }]);
    expect(await app.sql(`select id from oidc_model where model = 'Grant' and payload->>'accountId' = ?`, [yan])).toHaveLength(1);
    expect(await redeem(config, flow, answers[1])).toMatchObject({ sub: yan, tenant_id: records[0]!.tenant_id });
  });

  it('a consent finished without a form, its page opened twice at once (two tabs, a reload): one grant; both go where it led', async () => {
    const uma = await createUser('uma@example.com', [acme]);
    const first = await authorize(config);
    expect(await redeem(config, first, await first.jar.submit(first.page, { email: 'uma@example.com', password: PASSWORD }))).toMatchObject({ sub: uma });
    // Another client of the application: the session's user has no grant of it, so the OP asks for consent.
    const other = await webClient(app.root.applicationId);
    const flow = { ...first, verifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState() };
    const url = oidc.buildAuthorizationUrl(other, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid email',
      resource: managementApi,
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: flow.state,
    });
    const page = (await flow.jar.visit(url.href)).location!;
    expect(page).toMatch(new RegExp(`^${issuer}/interaction/[^/]+$`));
    const held = { table: 'oidc_model', id: page.split('/').at(-1)! };
    const answers = await formsSentAtOnce(app.gatehouse.services.orm, held, [() => flow.jar.visit(page), () => flow.jar.visit(page)]);
    expect(answers.map((answer) => answer.status)).toEqual([303, 303]);
    expect(answers[1]!.location).toBe(answers[0]!.location);
    expect(await app.sql(`select id from oidc_model where model = 'Grant' and payload->>'accountId' = ? and payload->>'clientId' = ?`, [uma, other.clientMetadata().client_id])).toHaveLength(1);
    expect(await redeem(other, flow, answers[1]!)).toMatchObject({ sub: uma, tenant_id: acme });
  });

  it('removed from all tenants but one after the password: the choice offers that one, and completes with it', async () => {
    const lea = await createUser('lea@example.com', [acme, globex]);
    const flow = await authorize(config);
    const chooser = await tenantChoice(flow, 'lea@example.com');
    await setTenants(lea, [acme]);
    // The tenant chosen on the page shown before is gone: the choice again, of the one left.
    const again = await flow.jar.submit(chooser, { tenant: globex });
    expect(again.status).toBe(400);
    expect(readForm(again.url, again.body).options['tenant']).toEqual([acme]);
    expect(await redeem(config, flow, await flow.jar.submit(again, { tenant: acme }))).toMatchObject({ sub: lea, tenant_id: acme });
  });

  it.skipIf(usingEmbeddedDatabase())('removed from the only tenant while the password is verified: access_denied, not a sign-in to no tenant', async () => {
    // The row is read, the password verified, then the success written: the success waits on the row while the
    // removal is made, so the sign-in's decision (that tenant) was taken on the row as it was before the removal.
    const { orm } = app.gatehouse.services;
    const applicationId = app.root.applicationId;
    const signInWhile = async (email: string, parameters: Record<string, string>, change: string) => {
      const userId = await createUser(email, [acme]);
      // A failure counted before: the success's write clears it, and so waits on the held row.
      await orm.em.getConnection().execute(`update app_user set failed_sign_ins = 1 where id = ?`, [userId]);
      const flow = await authorize(config, parameters);
      const held: RowHolder = { lock: 'update', beforeCommit: (em) => em.execute(change, [userId]) };
      const [answer] = await queuedBehind(orm, { table: 'app_user', applicationId, id: userId }, held, [
        () => flow.jar.submit(flow.page, { email, password: PASSWORD }),
      ]);
      return { userId, flow, answer: answer! };
    };
    for (const [email, parameters] of [['max@example.com', {}], ['nia@example.com', { tenant: acme }]] as const) {
      const { flow, answer } = await signInWhile(email, parameters, `update app_user set tenant_ids = '{}' where id = ?`);
      await expectRefused(flow, answer);
    }
    // The same wait, the tenant kept: the sign-in completes with it.
    const kept = await signInWhile('oli@example.com', {}, `update app_user set name = 'Oli' where id = ?`);
    expect(await redeem(config, kept.flow, kept.answer)).toMatchObject({ sub: kept.userId, tenant_id: acme });
  });

  it('a deleted tenant’s refresh tokens are refused', async () => {
    const doomed = await app.createTenant('Standing Doomed');
    await createUser('eve@example.com', [doomed]);
    const { refreshToken } = await signIn('eve@example.com', doomed);
    expect((await app.http.delete(`/applications/${app.root.applicationId}/tenants/${doomed}`)).status).toBe(204);
    await expect(oidc.refreshTokenGrant(config, refreshToken, { resource: managementApi })).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('a session whose user was deleted, or belongs to another application, gets the sign-in form (not an error)', async () => {
    const fred = await createUser('fred@example.com', [acme]);
    const { jar } = await signIn('fred@example.com', acme);
    expect((await app.http.delete(`/users/${fred}`)).status).toBe(204);
    const afterDelete = await authorize(config, { tenant: acme }, jar);
    expect(afterDelete.page.status).toBe(200);
    expect(readForm(afterDelete.page.url, afterDelete.page.body).fields).toHaveProperty('password');

    // The same browser, signed in to this application, now sent by a client of another application.
    await createUser('gina@example.com', [acme]);
    const signedIn = await signIn('gina@example.com', acme);
    const another = await app.bootstrapAnother();
    const foreign = await authorize(await webClient(another.applicationId), {}, signedIn.jar);
    expect(foreign.page.status).toBe(200);
    expect(readForm(foreign.page.url, foreign.page.body).fields).toHaveProperty('password');
  });
});

describe('isolated pools', () => {
  let another: BootstrapResult;
  let config: oidc.Configuration;
  let north: string;
  let south: string;
  let erinNorth: string;
  let erinSouth: string;

  beforeAll(async () => {
    let admin: HttpClient;
    ({ application: another, admin, north, south } = await isolatedNorthSouth(app));
    const create = async (tenant: string, password: string) => {
      const created = await admin.post(`/applications/${another.applicationId}/tenants/${tenant}/users`, { email: 'erin@example.com', password });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id as string;
    };
    erinNorth = await create(north, PASSWORD);
    erinSouth = await create(south, 'Other-Horse-7');
    config = await webClient(another.applicationId);
  });

  it('the client must name the tenant: without one, invalid_request at the redirect URI', async () => {
    for (const parameters of [{}, { tenant: '' }, { prompt: 'none' }]) {
      expectInvalidRequest(await authorize(config, parameters), 'this application signs in to one of its tenants: the tenant parameter is required');
    }
  });

  it('each tenant is its own pool: the same e-mail is two users, each with their own password', async () => {
    const toNorth = await authorize(config, { tenant: 'north' });
    const northAnswer = await toNorth.jar.submit(toNorth.page, { email: 'erin@example.com', password: PASSWORD });
    expect(await redeem(config, toNorth, northAnswer)).toMatchObject({ sub: erinNorth, app_id: another.applicationId, tenant_id: north });

    const toSouth = await authorize(config, { tenant: south });
    const wrongPool = await toSouth.jar.submit(toSouth.page, { email: 'erin@example.com', password: PASSWORD });
    expect(wrongPool.status).toBe(400);
    const southAnswer = await toSouth.jar.submit(wrongPool, { password: 'Other-Horse-7' });
    expect(await redeem(config, toSouth, southAnswer)).toMatchObject({ sub: erinSouth, tenant_id: south });
  });

  it('signed in to one tenant’s pool, a request for another tenant asks for that pool’s sign-in and switches the account', async () => {
    const toNorth = await authorize(config, { tenant: 'north' });
    const signedIn = await toNorth.jar.submit(toNorth.page, { email: 'erin@example.com', password: PASSWORD });
    expect(await redeem(config, toNorth, signedIn)).toMatchObject({ sub: erinNorth, tenant_id: north });
    // The OP's session cookies the browser sends (not the interactions' it started).
    const sessionOf = (jar: CookieJar) => jar.all().filter((cookie) => cookie.name.startsWith('_session')).map((cookie) => `${cookie.name}=${cookie.value}`);
    const northSession = sessionOf(toNorth.jar);

    // The session's user is not South's: South's sign-in form, saying the other account will be signed out.
    const toSouth = await authorize(config, { tenant: 'south' }, toNorth.jar);
    expect(toSouth.page.status).toBe(200);
    expect(toSouth.page.body).toContain('cannot be used for South');
    expect(readForm(toSouth.page.url, toSouth.page.body).fields).toHaveProperty('password');

    // North's password is not South's user's: refused on the same form, the notice kept, nothing switched.
    const wrong = await toSouth.jar.submit(toSouth.page, { email: 'erin@example.com', password: PASSWORD });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('cannot be used for South');
    expect(sessionOf(toSouth.jar)).toEqual(northSession);

    // South's user signs in: the OP has the browser confirm the sign-out of North's user (its own form), then resumes.
    const switched = await toSouth.jar.submit(wrong, { password: 'Other-Horse-7' });
    expect(switched.status).toBe(303);
    const signOut = await toSouth.jar.visit(switched.location!);
    expect(signOut.status).toBe(200);
    expect(signOut.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const signOutForm = readForm(signOut.url, signOut.body);
    expect(signOutForm.action).toBe(`${issuer}/oauth2/logout/confirm?app=${another.applicationId}`);
    expect(signOutForm.fields).toMatchObject({ logout: 'yes' });
    const resumed = await toSouth.jar.submit(signOut, {});
    expect(await redeem(config, toSouth, resumed)).toMatchObject({ sub: erinSouth, app_id: another.applicationId, tenant_id: south });

    // The browser's session is South's user's now: North asks for its own sign-in again.
    const backToNorth = await authorize(config, { tenant: 'north' }, toSouth.jar);
    expect(backToNorth.page.status).toBe(200);
    expect(backToNorth.page.body).toContain('cannot be used for North');
  });

  it('prompt=login naming the other tenant: that pool’s form; the session’s credentials sign in nobody there', async () => {
    const toNorth = await authorize(config, { tenant: 'north' });
    expect(await redeem(config, toNorth, await toNorth.jar.submit(toNorth.page, { email: 'erin@example.com', password: PASSWORD }))).toMatchObject({ sub: erinNorth });
    const sessionOf = (jar: CookieJar) => jar.all().filter((cookie) => cookie.name.startsWith('_session')).map((cookie) => `${cookie.name}=${cookie.value}`);
    const northSession = sessionOf(toNorth.jar);
    const toSouth = await authorize(config, { tenant: 'south', prompt: 'login' }, toNorth.jar);
    expect(toSouth.page.status).toBe(200);
    expect(readForm(toSouth.page.url, toSouth.page.body).fields).toHaveProperty('password');
    const wrong = await toSouth.jar.submit(toSouth.page, { email: 'erin@example.com', password: PASSWORD });
    expect(wrong.status).toBe(400);
    expect(wrong.location).toBeUndefined();
    expect(sessionOf(toSouth.jar)).toEqual(northSession);
    const silent = await authorize(config, { tenant: 'north', prompt: 'none' }, toNorth.jar);
    expect(await redeem(config, silent, silent.page)).toMatchObject({ sub: erinNorth, tenant_id: north });
  });

  it('the switch signs the other account out: the tokens of its sign-in stop working', async () => {
    // A sign-in for userinfo (no resource): its access token is the OP's own, alive while its grant is.
    const toNorth = await authorize(config, { tenant: 'north', resource: undefined });
    const northCallback = await toNorth.jar.followOut(await toNorth.jar.submit(toNorth.page, { email: 'erin@example.com', password: PASSWORD }), issuer);
    const northTokens = await oidc.authorizationCodeGrant(config, northCallback, { pkceCodeVerifier: toNorth.verifier, expectedState: toNorth.state });
    expect(await oidc.fetchUserInfo(config, northTokens.access_token, erinNorth)).toMatchObject({ sub: erinNorth });

    const toSouth = await authorize(config, { tenant: 'south' }, toNorth.jar);
    const switched = await toSouth.jar.submit(toSouth.page, { email: 'erin@example.com', password: 'Other-Horse-7' });
    const signOut = await toSouth.jar.visit(switched.location!);
    expect(await redeem(config, toSouth, await toSouth.jar.submit(signOut, {}))).toMatchObject({ sub: erinSouth });
    const userinfo = await fetch(`${issuer}/oauth2/userinfo`, { headers: { authorization: `Bearer ${northTokens.access_token}` } });
    expect(userinfo.status).toBe(401);
  });

  it('the switch may also create an account in the other pool', async () => {
    const toNorth = await authorize(config, { tenant: 'north' });
    const signedIn = await toNorth.jar.submit(toNorth.page, { email: 'erin@example.com', password: PASSWORD });
    expect(await redeem(config, toNorth, signedIn)).toMatchObject({ sub: erinNorth });
    const toSouth = await authorize(config, { tenant: 'south' }, toNorth.jar);
    const signupUrl = /<a href="([^"]+\/signup)">/.exec(toSouth.page.body)?.[1];
    expect(signupUrl).toBeDefined();
    const signup = await toSouth.jar.visit(new URL(signupUrl!, toSouth.page.url).href);
    expect(signup.status).toBe(200);
    const created = await toSouth.jar.submit(signup, { name: 'Finn', email: 'finn@example.com', password: 'Finn-Horse-42' });
    expect(created.status).toBe(200);
    // The new account signs in once its e-mail is verified (its link: test/oauth/hosted-account-links.test.ts).
    const [finn] = await app.gatehouse.services.orm.em
      .getConnection()
      .execute<{ pool_id: string }[]>(`update app_user set email_verified = true where email = 'finn@example.com' returning pool_id`);
    expect(finn).toEqual({ pool_id: south });
    const signingIn = await authorize(config, { tenant: 'south' }, toNorth.jar);
    const signedInSouth = await signingIn.jar.submit(signingIn.page, { email: 'finn@example.com', password: 'Finn-Horse-42' });
    expect(signedInSouth.status).toBe(303);
    const signOut = await signingIn.jar.visit(signedInSouth.location!);
    const claims = await redeem(config, signingIn, await signingIn.jar.submit(signOut, {}));
    expect(claims).toMatchObject({ tenant_id: south });
    expect(claims['sub']).not.toBe(erinNorth);
  });

  it('a sign-in form of another pool without the session’s user signing in changes nothing', async () => {
    const toNorth = await authorize(config, { tenant: 'north' });
    const signedIn = await toNorth.jar.submit(toNorth.page, { email: 'erin@example.com', password: PASSWORD });
    expect(await redeem(config, toNorth, signedIn)).toMatchObject({ sub: erinNorth });
    const toSouth = await authorize(config, { tenant: 'south' }, toNorth.jar);
    // A forged submission (no CSRF token) is refused and signs nobody in or out.
    const forged = await toSouth.jar.visit(readForm(toSouth.page.url, toSouth.page.body).action, { form: { email: 'erin@example.com', password: 'Other-Horse-7' } });
    expect(forged.status).toBe(403);
    const again = await authorize(config, { tenant: 'north' }, toNorth.jar);
    expect(again.page.status).toBe(303);
    expect(again.page.location).toContain(REDIRECT_URI);
  });

  it('another application’s tenant is unknown here: invalid_request at the redirect URI', async () => {
    const flow = await authorize(config, { tenant: 'acme' });
    expect(flow.page.status).toBe(303);
    expect(new URL(flow.page.location!).searchParams.get('error')).toBe('invalid_request');
  });
});
