import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { TestRoles } from '../support/roles.ts';
import { CookieJar, type Visit } from '../support/cookie-jar.ts';
import { createTestClient, discover, startAuthorization } from '../support/oauth.ts';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/upstream-idp.ts';

/**
 * An upstream OpenID provider that answers badly (src/domain/sign-in/upstream/): a scripted one whose ID token, token
 * answer, userinfo and discovery each test changes. What it says is refused as `upstream_error` (400, logged), never
 * a user made or linked, never our 500.
 */
const REDIRECT_URI = 'https://app.example/callback';

let app: TestApp;
let issuer: string;
let upstream: ScriptedUpstream;
let config: oidc.Configuration;
let providerId: string;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  app = await startTestApp(
    { upstreams: { allowLoopback: true, allowPrivateHosts: false, githubUrl: 'https://github.com', githubApiUrl: 'https://api.github.com' } },
    { reachablePublicUrl: true },
  );
  issuer = app.gatehouse.services.config.publicUrl;
  const created = await app.http.post('/auth-providers', {
    type: 'oauth',
    name: 'Scripted',
    config: { provider: 'generic', clientId: upstream.clientId, issuer: upstream.issuer, allowSignup: true },
    secrets: { clientSecret: upstream.clientSecret },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  providerId = created.body.id as string;
  const client = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
  config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
}, 60_000);
afterAll(async () => {
  await app?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

/** How a sign-in starts: the client, its authorization request's parameters, the button, and the browser (a new one by default). */
interface Through {
  readonly config: () => oidc.Configuration;
  readonly parameters: Record<string, string>;
  readonly button: string;
  readonly jar?: CookieJar;
}

const SCRIPTED: Through = { config: () => config, parameters: {}, button: 'Scripted' };

/** A browser's sign-in with the scripted upstream, to the client's redirect or a page; `beforeAnswer` runs while the upstream is at it. */
async function signIn(beforeAnswer?: () => Promise<void>, through: Through = SCRIPTED): Promise<Visit> {
  const flow = await startAuthorization(through.config(), { redirectUri: REDIRECT_URI, resource: `${issuer}/api/v1` }, { scope: 'openid email', ...through.parameters }, through.jar);
  const href = new RegExp(`<a class="upstream" href="([^"]+)">Sign in with ${through.button}</a>`).exec(flow.page.body)?.[1];
  expect(href, flow.page.body).toBeDefined();
  let visit = await flow.jar.visit(new URL(href!.replaceAll('&amp;', '&'), flow.page.url).href);
  expect(visit.status, visit.body).toBe(303);
  await beforeAnswer?.();
  visit = await flow.jar.visit(visit.location!);
  for (let hops = 0; hops < 20 && (visit.status === 302 || visit.status === 303) && !visit.location!.startsWith(REDIRECT_URI); hops += 1) {
    visit = await flow.jar.visit(visit.location!);
  }
  return visit;
}

const signedIn = (visit: Visit) => expect(visit.location, `${visit.status} ${visit.body}`).toMatch(new RegExp(`^${REDIRECT_URI}\\?code=`));
const usersOf = async (email: string) => (await app.http.get(`/users?email=${encodeURIComponent(email)}`)).body.data as { id: string }[];
const linkCount = () => app.sql<{ count: number }>('select count(*)::int as count from user_identity where provider_id = ?', [providerId]);
const linksOf = (subject: string) => app.sql<{ user_id: string }>('select user_id from user_identity where provider_id = ? and subject = ?', [providerId, subject]);

async function lastSignInRecord(applicationId = app.root.applicationId) {
  const [row] = await app.sql<{ action: string; after: Record<string, unknown> }>(
    `select action, after from audit_log where application_id = ? and action in ('user.signed_in', 'user.sign_in_failed', 'user.signed_up') order by id desc limit 1`,
    [applicationId],
  );
  return row!;
}

/** Refused as the upstream's failure: 400 `upstream_error`, nothing of the answer on the page, nobody made or linked. */
async function refusedAsUpstreamError(label: string, email: string, through?: Through): Promise<void> {
  const [links] = await linkCount();
  const refused = await signIn(undefined, through);
  expect(refused.status, `${label}: ${refused.body}`).toBe(400);
  expect(refused.body, label).toContain('did not work');
  expect(refused.body, label).not.toContain('<script>alert');
  expect(await lastSignInRecord(), label).toMatchObject({ action: 'user.sign_in_failed', after: { method: 'oauth', reason: 'upstream_error' } });
  expect(await usersOf(email), label).toEqual([]);
  expect(await linkCount(), label).toEqual([links]);
}

describe('an upstream answering badly', () => {
  it('refuses an ID token, token answer or userinfo OIDC says to refuse, and an error answer (its markup not shown); a good one signs up', async () => {
    const now = () => Math.floor(Date.now() / 1000);
    const refusals: Record<string, () => void> = {
      'an iss not the upstream’s': () => (upstream.claims = (claims) => ({ ...claims, iss: 'https://elsewhere.example' })),
      'an aud not ours': () => (upstream.claims = (claims) => ({ ...claims, aud: 'someone-else' })),
      'an aud of another audience too, without azp': () => (upstream.claims = (claims) => ({ ...claims, aud: [upstream.clientId, 'someone-else'] })),
      'an aud of another audience too, azp the other': () => (upstream.claims = (claims) => ({ ...claims, aud: [upstream.clientId, 'someone-else'], azp: 'someone-else' })),
      'an exp past': () => (upstream.claims = (claims) => ({ ...claims, iat: now() - 7200, exp: now() - 3600 })),
      'no exp': () => (upstream.claims = ({ exp: _exp, ...claims }) => claims),
      'an nbf to come': () => (upstream.claims = (claims) => ({ ...claims, nbf: now() + 3600 })),
      'no nonce': () => (upstream.claims = ({ nonce: _nonce, ...claims }) => claims),
      'alg none': () => (upstream.signing = 'none'),
      'HS256 with the client secret where RS256 is published': () => (upstream.signing = 'client_secret'),
      'no sub': () => (upstream.claims = ({ sub: _sub, ...claims }) => claims),
      'a blank sub': () => (upstream.claims = (claims) => ({ ...claims, sub: ' ' })),
      'a numeric sub': () => (upstream.claims = (claims) => ({ ...claims, sub: 12345 })),
      'a token error': () => (upstream.token = () => ({ status: 400, body: '{"error":"invalid_grant","error_description":"<script>alert(1)</script>"}' })),
      'an HTML token answer': () => (upstream.token = () => ({ headers: { 'content-type': 'text/html' }, body: '<html><script>alert(1)</script></html>' })),
      'a token answer over 256 KiB': () =>
        (upstream.token = (idToken) => ({ body: JSON.stringify({ access_token: 'a', token_type: 'Bearer', id_token: idToken, padding: 'x'.repeat(256 * 1024) }) })),
      'a token answer redirecting to an internal address': () => (upstream.token = () => ({ status: 307, headers: { location: 'http://169.254.169.254/latest/meta-data/' } })),
      // OIDC Core 5.3.2: userinfo of another subject, asked for the address the ID token lacks.
      'userinfo of another sub': () => {
        upstream.claims = ({ email: _email, email_verified: _verified, ...claims }) => claims;
        upstream.userinfo = { sub: 'someone-else', email: 'userinfo-victim@example.com', email_verified: true };
      },
      'an error answer with markup in its description': () => (upstream.answer = ({ state }) => ({ state: state!, error: 'access_denied', error_description: '<script>alert(1)</script>' })),
      'an answer without its code': () => (upstream.answer = ({ state }) => ({ state: state! })),
    };
    for (const [label, answerBadly] of Object.entries(refusals)) {
      upstream.reset();
      const subject = `refused-${label.replaceAll(/\W+/g, '-')}`;
      upstream.account = { sub: subject, email: `${subject}@example.com`, email_verified: true };
      answerBadly();
      await refusedAsUpstreamError(label, `${subject}@example.com`);
    }
    expect(await usersOf('userinfo-victim@example.com')).toEqual([]);

    upstream.reset();
    upstream.account = { sub: 'good-sub', email: 'good@example.com', email_verified: true };
    signedIn(await signIn());
    // A large answer within the bound (an ID token's many groups) signs in as ever.
    upstream.token = (idToken) => ({ body: JSON.stringify({ access_token: 'a', token_type: 'Bearer', id_token: idToken, padding: 'x'.repeat(200 * 1024) }) });
    signedIn(await signIn());
    upstream.reset();
    upstream.account = { sub: 'good-sub', email: 'good@example.com', email_verified: true };
    // Userinfo of the ID token's own subject gives the address it lacks.
    upstream.account = { sub: 'userinfo-sub', email: 'userinfo@example.com', email_verified: true };
    upstream.claims = ({ email: _email, email_verified: _verified, ...claims }) => claims;
    signedIn(await signIn());
    expect(await usersOf('userinfo@example.com')).toHaveLength(1);
  });

  it('refuses a sub with a NUL, of kilobytes, over 255 characters or with a line break as upstream_error (our 500 before); 255 characters sign in', async () => {
    const subjects: Record<string, string> = {
      nul: 'nul\u0000sub',
      kilobytes: randomBytes(6000).toString('base64url'),
      long: 's'.repeat(256),
      'line break': 'line\nbreak',
    };
    for (const [label, sub] of Object.entries(subjects)) {
      const email = `odd-sub-${label.replace(' ', '-')}@example.com`;
      upstream.account = { sub, email, email_verified: true };
      await refusedAsUpstreamError(label, email);
    }
    upstream.account = { sub: 's'.repeat(255), email: 'long-sub@example.com', email_verified: true };
    signedIn(await signIn());
    expect(await linksOf('s'.repeat(255))).toHaveLength(1);
  });

  it('discovery failing at the callback (the client made again: the provider changed since the start) is upstream_error, not our 500', async () => {
    upstream.account = { sub: 'rediscovered-sub', email: 'rediscovered@example.com', email_verified: true };
    const refused = await signIn(async () => {
      upstream.discovery = { status: 503, body: 'down' };
      expect((await app.http.patch(`/auth-providers/${providerId}`, { name: 'Scripted again' })).status).toBe(200);
    });
    expect((await app.http.patch(`/auth-providers/${providerId}`, { name: 'Scripted' })).status).toBe(200);
    expect(refused.status, refused.body).toBe(400);
    expect(refused.body).toContain('did not work');
    expect(await lastSignInRecord()).toMatchObject({ action: 'user.sign_in_failed', after: { method: 'oauth', reason: 'upstream_error', upstream: { providerId, provider: 'generic' } } });
    expect(await usersOf('rediscovered@example.com')).toEqual([]);
    // Back up, the next sign-in discovers it again.
    upstream.discovery = undefined;
    signedIn(await signIn());
  });
});

describe('a tenant’s own provider', () => {
  it('never links by e-mail an account holding a role beyond the tenant, whose password its administrator may not set either: the provider is the administrator’s word', async () => {
    const isolated = await app.bootstrapAnother();
    const admin = app.as({ apiKey: isolated.apiKey });
    const path = `/applications/${isolated.applicationId}`;
    expect((await admin.patch(path, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const acme = (await admin.post(`${path}/tenants`, { name: 'Acme', slug: 'acme' })).body.id as string;
    const userIn = async (email: string) => (await admin.post(`${path}/tenants/${acme}/users`, { email })).body.id as string;
    const boss = await userIn('boss@acme.example');
    const member = await userIn('member@acme.example');
    await new TestRoles(app, isolated.applicationId).assign({ type: 'user', id: boss }, 'app_admin');
    // Acme's administrator: its own providers, not the application's administrator's password.
    const key = await admin.post('/api-keys', { name: 'Acme admin', permissions: ['auth_providers:*', 'tenant_overrides:write', 'users:*'], tenantId: acme });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const acmeAdmin = app.as({ apiKey: key.body.secret as string });
    expect((await acmeAdmin.patch(`/users/${boss}`, { password: 'Acme-Chosen-Passphrase-1' })).status).toBe(403);
    const provider = await acmeAdmin.post('/auth-providers', {
      type: 'oauth',
      name: 'Acme IdP',
      config: { provider: 'generic', clientId: upstream.clientId, issuer: upstream.issuer },
      secrets: { clientSecret: upstream.clientSecret },
    });
    expect(provider.status, JSON.stringify(provider.body)).toBe(201);
    const client = await createTestClient(app, { applicationId: isolated.applicationId, type: 'web', redirectUris: [REDIRECT_URI] });
    const isolatedConfig = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
    const throughAcme = { config: () => isolatedConfig, parameters: { tenant: 'acme' }, button: 'Acme IdP' };

    upstream.account = { sub: 'acme-says-boss', email: 'Boss@acme.example', email_verified: true };
    const refused = await signIn(undefined, throughAcme);
    expect(refused.status, refused.body).toBe(403);
    expect(refused.body).toContain('cannot sign in to');
    expect(await lastSignInRecord(isolated.applicationId)).toMatchObject({ action: 'user.sign_in_failed', after: { method: 'oauth', reason: 'provider_not_trusted' } });
    expect(await app.sql('select 1 from user_identity where user_id = ?', [boss])).toEqual([]);

    // A member holding nothing beyond Acme is Acme's IdP's to link.
    upstream.account = { sub: 'acme-member', email: 'member@acme.example', email_verified: true };
    signedIn(await signIn(undefined, throughAcme));
    expect(await app.sql('select subject from user_identity where user_id = ?', [member])).toEqual([{ subject: 'acme-member' }]);
  });
});

describe('a generic provider with endpoints of its own (no issuer)', () => {
  it('reads the user at userInfoUrl, whatever issuer the ID token or the answer’s iss names (Keycloak’s realm path, Auth0’s slash): none was configured', async () => {
    const created = await app.http.post('/auth-providers', {
      type: 'oauth',
      name: 'Endpoints',
      config: { provider: 'generic', clientId: upstream.clientId, authorizationUrl: `${upstream.issuer}/authorize`, tokenUrl: `${upstream.issuer}/token`, userInfoUrl: `${upstream.issuer}/userinfo` },
      secrets: { clientSecret: upstream.clientSecret },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const through = { config: () => config, parameters: {}, button: 'Endpoints' };
    const realm = `${upstream.issuer}/realms/acme`;
    const answers: Record<string, () => void> = {
      'an ID token of a realm path': () => (upstream.claims = (claims) => ({ ...claims, iss: realm })),
      'an ID token whose issuer ends in a slash': () => (upstream.claims = (claims) => ({ ...claims, iss: `${upstream.issuer}/` })),
      'an iss parameter (RFC 9207) of a realm path': () => (upstream.answer = (parameters) => ({ ...parameters, iss: realm })),
    };
    for (const [label, answer] of Object.entries(answers)) {
      upstream.reset();
      const subject = `endpoints-${label.replaceAll(/\W+/g, '-')}`;
      upstream.account = { sub: subject, email: `${subject}@example.com`, email_verified: true };
      answer();
      const visit = await signIn(undefined, through);
      expect(visit.location, `${label}: ${visit.status} ${visit.body}`).toMatch(new RegExp(`^${REDIRECT_URI}\\?code=`));
      expect(await usersOf(`${subject}@example.com`), label).toHaveLength(1);
      expect(await lastSignInRecord(), label).toMatchObject({ action: 'user.signed_in', after: { method: 'oauth', upstream: { provider: 'generic' } } });
    }
  });
});

describe('a fresh sign-in the client asks for', () => {
  const asking = (parameters: Record<string, string>, jar?: CookieJar): Through => ({ ...SCRIPTED, parameters, ...(jar === undefined ? {} : { jar }) });
  /** What the last authorization request to the upstream asked of freshness. */
  const askedUpstream = () => {
    const last = upstream.authorizations.at(-1)!;
    return { prompt: last.get('prompt'), maxAge: last.get('max_age') };
  };

  it('reaches the upstream’s authorization request as prompt=login and max_age only when the client sent them', async () => {
    upstream.account = { sub: 'fresh-sub', email: 'fresh@example.com', email_verified: true };
    const cases: [label: string, parameters: Record<string, string>, asked: ReturnType<typeof askedUpstream>][] = [
      ['neither', {}, { prompt: null, maxAge: null }],
      ['prompt=login', { prompt: 'login' }, { prompt: 'login', maxAge: null }],
      // No session here: max_age is the upstream's to weigh against its own, no fresh sign-in forced.
      ['max_age without a session', { max_age: '600' }, { prompt: null, maxAge: '600' }],
      // OIDC Core 3.1.2.1: max_age=0 is prompt=login.
      ['max_age=0', { max_age: '0' }, { prompt: 'login', maxAge: null }],
      ['prompt=consent', { prompt: 'consent' }, { prompt: null, maxAge: null }],
    ];
    for (const [label, parameters, asked] of cases) {
      signedIn(await signIn(undefined, asking(parameters)));
      expect(askedUpstream(), label).toEqual(asked);
    }
  });

  it('asks for a fresh upstream sign-in when the browser’s session is older than max_age; not while it meets it', async () => {
    upstream.account = { sub: 'aged-sub', email: 'aged@example.com', email_verified: true };
    const jar = new CookieJar();
    signedIn(await signIn(undefined, asking({}, jar)));
    // The session meets max_age=600: the client's code at once, the upstream not asked at all.
    const before = upstream.authorizations.length;
    const met = await startAuthorization(config, { redirectUri: REDIRECT_URI, resource: `${issuer}/api/v1` }, { scope: 'openid email', max_age: '600' }, jar);
    signedIn(met.page);
    expect(upstream.authorizations).toHaveLength(before);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    signedIn(await signIn(undefined, asking({ max_age: '1' }, jar)));
    expect(askedUpstream()).toEqual({ prompt: 'login', maxAge: '1' });
  });

  it('refuses an ID token whose auth_time is older than the max_age asked, as upstream_error; a recent one, or none stated, signs in', async () => {
    const now = () => Math.floor(Date.now() / 1000);
    upstream.account = { sub: 'stale-sub', email: 'stale@example.com', email_verified: true };
    upstream.claims = (claims) => ({ ...claims, auth_time: now() - 3600 });
    await refusedAsUpstreamError('an hour-old sign-in for max_age=300', 'stale@example.com', asking({ max_age: '300' }));
    // Past max_age by less than the clocks' skew still agrees.
    upstream.claims = (claims) => ({ ...claims, auth_time: now() - 330 });
    signedIn(await signIn(undefined, asking({ max_age: '300' })));
    expect(await usersOf('stale@example.com')).toHaveLength(1);
    upstream.claims = (claims) => ({ ...claims, auth_time: now() - 3600 });
    signedIn(await signIn(undefined, asking({ prompt: 'login' })));
    signedIn(await signIn(undefined, asking({})));
    upstream.claims = (claims) => claims;
    signedIn(await signIn(undefined, asking({ max_age: '300' })));
    expect(await lastSignInRecord()).toMatchObject({ action: 'user.signed_in', after: { method: 'oauth' } });
  });
});
