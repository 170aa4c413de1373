import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshApplication } from '../support/applications.ts';
import { CookieJar, readForm } from '../support/cookie-jar.ts';
import { HttpClient } from '../support/http.ts';
import { countActiveUsers } from '../../src/domain/analytics.ts';
import { authorizationRequest, authorize, basicAuth, createTestClient, decodeJwt, discover, discoverSurface, postForm, type TestClient } from '../support/oauth.ts';

/**
 * Authentication events: each sign-in (success and failure, with method and reason) and each token issuance leaves
 * an audit record and counts in the analytics rollups, read per application and per tenant over days the test sets.
 */
const REDIRECT_URI = 'https://app.example/callback';
const PASSWORD = 'Correct-Horse-9';

let app: TestApp;
let now = new Date('2026-03-02T12:00:00Z');
let web: TestClient;
let webConfig: oidc.Configuration;
let spa: TestClient;
let spaConfig: oidc.Configuration;
let tenantA: string;
let tenantB: string;
let ada: string;
let bob: string;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true, clock: () => now });
  web = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
  webConfig = await discover(app, web.clientId, oidc.ClientSecretBasic(web.clientSecret ?? ''));
  spa = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT_URI] });
  spaConfig = await discover(app, spa.clientId, oidc.None(), { redirect_uris: [REDIRECT_URI] });
  tenantA = await app.createTenant('A');
  tenantB = await app.createTenant('B');
  ada = (await app.http.post('/users', { email: 'ada@example.com', password: PASSWORD, tenantId: tenantA })).body.id as string;
  bob = (await app.http.post('/users', { email: 'bob@example.com', password: PASSWORD, tenantId: tenantB })).body.id as string;
});
afterAll(async () => app?.close());

/** The hosted sign-in form of the web client (`parameters`: the authorization request's), posted with `values`. */
async function signInWith(values: Record<string, string>, parameters: Record<string, string> = {}) {
  const jar = new CookieJar();
  const { url } = await authorizationRequest(webConfig, { redirectUri: REDIRECT_URI, resource: '' }, parameters);
  const start = await jar.visit(url.href);
  const page = await jar.visit(start.location!);
  const form = readForm(page.url, page.body);
  return jar.visit(form.action, { form: { ...form.fields, ...values } });
}

const recordsOf = (action: string) =>
  app.sql<{ actor_type: string; actor_id: string; target_id: string | null; tenant_id: string | null; outcome: string; after: Record<string, unknown> }>(
    `select actor_type, actor_id, target_id, tenant_id, outcome, after from audit_log where application_id = ? and action = ? order by seq`,
    [app.root.applicationId, action],
  );

const tenantPath = (tenantId: string) => `/applications/${app.root.applicationId}/tenants/${tenantId}`;

describe('sign-ins', () => {
  it('a success: user.signed_in, the user its actor, method password; a failure: user.sign_in_failed with its reason', async () => {
    expect((await signInWith({ email: 'ada@example.com', password: PASSWORD })).status).toBe(303);
    const wrong = await signInWith({ email: 'ada@example.com', password: 'wrong-password-1' });
    const unknown = await signInWith({ email: 'nobody@example.com', password: 'wrong-password-1' });
    // The page of an unknown e-mail is the page of a wrong password: the record alone tells them apart.
    expect(unknown.status).toBe(wrong.status);
    const page = (body: string, email: string) =>
      body.replaceAll(email, 'X').replace(/nonce="[^"]*"/g, '').replace(/\/interaction\/[^/]+\//g, '').replace(/<input type="hidden"[^>]*>/g, '');
    expect(page(unknown.body, 'nobody@example.com')).toBe(page(wrong.body, 'ada@example.com'));
    expect(await recordsOf('user.signed_in')).toEqual([
      { actor_type: 'user', actor_id: ada, target_id: ada, tenant_id: tenantA, outcome: 'success', after: { method: 'password', clientId: web.clientId } },
    ]);
    expect(await recordsOf('user.sign_in_failed')).toEqual([
      {
        actor_type: 'oauth_client',
        actor_id: web.clientId,
        target_id: ada,
        tenant_id: tenantA,
        outcome: 'failure',
        after: { method: 'password', clientId: web.clientId, reason: 'wrong_password', email: 'ada@example.com' },
      },
      {
        actor_type: 'oauth_client',
        actor_id: web.clientId,
        target_id: null,
        tenant_id: null,
        outcome: 'failure',
        after: { method: 'password', clientId: web.clientId, reason: 'unknown_user', email: 'nobody@example.com' },
      },
    ]);
  });
});

describe('tokens issued', () => {
  it('one token.issued per token request, by grant type, written by the buffer within a flush', async () => {
    const m2m = await createTestClient(app, { permissions: ['users:read'] });
    const issued = await postForm(`${app.baseUrl}/oauth2/token`, { grant_type: 'client_credentials' }, { authorization: basicAuth(m2m.clientId, m2m.clientSecret!) });
    expect(issued.status).toBe(200);
    const { url, verifier, state } = await authorizationRequest(spaConfig, { redirectUri: REDIRECT_URI, resource: '' }, { scope: 'openid offline_access', prompt: 'consent', tenant: tenantB });
    const outcome = await authorize(app, url, { userId: bob, tenantId: tenantB });
    if (outcome.kind !== 'redirect') throw new Error(`expected a redirect, got ${outcome.status}`);
    const tokens = await oidc.authorizationCodeGrant(spaConfig, outcome.url, { pkceCodeVerifier: verifier, expectedState: state });
    const refreshed = await postForm(`${app.baseUrl}/oauth2/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: spa.clientId });
    expect(refreshed.status).toBe(200);
    await app.gatehouse.services.tokenEvents.flush();
    expect(await recordsOf('token.issued')).toEqual([
      { actor_type: 'oauth_client', actor_id: m2m.clientId, target_id: m2m.clientId, tenant_id: null, outcome: 'success', after: { grantType: 'client_credentials', clientId: m2m.clientId } },
      { actor_type: 'oauth_client', actor_id: spa.clientId, target_id: bob, tenant_id: tenantB, outcome: 'success', after: { grantType: 'authorization_code', clientId: spa.clientId } },
      { actor_type: 'oauth_client', actor_id: spa.clientId, target_id: bob, tenant_id: tenantB, outcome: 'success', after: { grantType: 'refresh_token', clientId: spa.clientId } },
    ]);
  });

  it("an application-wide credential's token on an isolated tenant's path is filed under the tenant it names", async () => {
    const other = await app.bootstrapAnother();
    const admin = app.as({ apiKey: other.apiKey });
    const appPath = `/applications/${other.applicationId}`;
    expect((await admin.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const acme = await app.createTenant('Acme', other);
    const slug = (await admin.get(`${appPath}/tenants/${acme}`)).body.slug as string;
    const wide = await createTestClient(app, { permissions: ['users:read'], applicationId: other.applicationId });
    const issued = await oidc.clientCredentialsGrant(await discoverSurface(`${app.gatehouse.services.config.publicUrl}/t/${slug}`, wide));
    expect(decodeJwt(issued.access_token).payload).toMatchObject({ tenant_id: acme });
    await app.gatehouse.services.tokenEvents.flush();
    const records = await app.sql(`select tenant_id, target_id from audit_log where application_id = ? and action = 'token.issued'`, [other.applicationId]);
    expect(records).toEqual([{ tenant_id: acme, target_id: wide.clientId }]);
  });
});

describe('analytics', () => {
  it('counts over simulated days: active users per day, week and month, sign-ins by outcome and method, per tenant', async () => {
    // Mon 2 March (above): Ada signed in, failed once, an unknown e-mail failed; Bob's tokens were issued.
    now = new Date('2026-03-03T09:00:00Z');
    expect((await signInWith({ email: 'ada@example.com', password: PASSWORD })).status).toBe(303);
    expect((await signInWith({ email: 'bob@example.com', password: PASSWORD })).status).toBe(303);
    now = new Date('2026-03-10T09:00:00Z');
    expect((await signInWith({ email: 'ada@example.com', password: PASSWORD })).status).toBe(303);
    expect((await signInWith({ email: 'ada@example.com', password: PASSWORD })).status).toBe(303);

    const range = 'from=2026-03-01&to=2026-03-10';
    const daily = await app.http.get(`/analytics/active-users?${range}`);
    expect(daily.status, JSON.stringify(daily.body)).toBe(200);
    const counts = Object.fromEntries((daily.body.data as { period: string; count: number }[]).map((point) => [point.period, point.count]));
    expect(daily.body.data).toHaveLength(10);
    expect(counts).toMatchObject({ '2026-03-01': 0, '2026-03-02': 2, '2026-03-03': 2, '2026-03-04': 0, '2026-03-10': 1 });
    expect((await app.http.get(`/analytics/active-users?${range}&interval=week`)).body).toEqual({
      data: [
        { period: '2026-02-23', count: 0 },
        { period: '2026-03-02', count: 2 },
        { period: '2026-03-09', count: 1 },
      ],
    });
    expect((await app.http.get(`/analytics/active-users?${range}&interval=month`)).body).toEqual({ data: [{ period: '2026-03-01', count: 2 }] });
    // Tenant A's series: Ada alone; the tenant path and a tenant's own key read the same.
    const inA = await app.http.get(`${tenantPath(tenantA)}/analytics/active-users?${range}&interval=month`);
    expect(inA.body).toEqual({ data: [{ period: '2026-03-01', count: 1 }] });

    const signIns = await app.http.get(`/analytics/sign-ins?${range}&interval=week`);
    expect(signIns.body).toEqual({
      data: [
        { period: '2026-02-23', succeeded: 0, failed: 0, byMethod: {} },
        { period: '2026-03-02', succeeded: 3, failed: 2, byMethod: { password: 5 } },
        { period: '2026-03-09', succeeded: 2, failed: 0, byMethod: { password: 2 } },
      ],
    });
    // A week or month the range cuts is counted whole, as active users are: Monday's sign-ins are the week's of Wednesday.
    expect((await app.http.get('/analytics/sign-ins?from=2026-03-04&to=2026-03-08&interval=week')).body).toEqual({
      data: [{ period: '2026-03-02', succeeded: 3, failed: 2, byMethod: { password: 5 } }],
    });
    expect((await app.http.get('/analytics/sign-ins?from=2026-03-10&to=2026-03-10&interval=month')).body).toEqual({
      data: [{ period: '2026-03-01', succeeded: 5, failed: 2, byMethod: { password: 7 } }],
    });
    expect((await app.http.get(`${tenantPath(tenantB)}/analytics/sign-ins?from=2026-03-03&to=2026-03-03`)).body).toEqual({
      data: [{ period: '2026-03-03', succeeded: 1, failed: 0, byMethod: { password: 1 } }],
    });
  });

  it('a query over a year reads one range of the rollup per series', async () => {
    app.queries.length = 0;
    const year = await app.http.get('/analytics/sign-ins?from=2025-03-11&to=2026-03-10&interval=day');
    expect(year.status).toBe(200);
    expect(year.body.data).toHaveLength(365);
    expect(app.queries.filter((query) => query.includes('analytics_'))).toHaveLength(1);
    // The widest range, by day: its operation is priced at every point and within /graphql's cost limit (graphql-limits.test.ts).
    expect((await app.http.get('/analytics/sign-ins?from=2016-03-03&to=2026-03-10&interval=day')).body.data).toHaveLength(3660);
  });

  it('MFA adoption: the users, none of whom holds a factor', async () => {
    expect((await app.http.get('/analytics/mfa-adoption')).body).toEqual({ users: 2, usersWithMfa: 0, ratio: 0, byFactor: {} });
    expect((await app.http.get(`${tenantPath(tenantA)}/analytics/mfa-adoption`)).body).toEqual({ users: 1, usersWithMfa: 0, ratio: 0, byFactor: {} });
  });

  it('refuses what it cannot read: bad dates, a reversed range, an unknown interval, no permission, another tenant', async () => {
    expect((await app.http.get('/analytics/active-users?from=2026-02-30')).body).toMatchObject({ code: 'validation_error', field: 'from' });
    expect((await app.http.get('/analytics/sign-ins?from=2026-03-05&to=2026-03-01')).body).toMatchObject({ code: 'validation_error', field: 'to' });
    // With `to` left out (today, 2026-03-10), a later `from` is the mistake.
    expect((await app.http.get('/analytics/sign-ins?from=2026-03-11')).body).toMatchObject({ code: 'validation_error', field: 'from' });
    // With `from` left out, the last 30 days end no earlier than the epoch's first day, as a given `from` must.
    expect((await app.http.get('/analytics/active-users?to=1970-01-03')).body).toEqual({ data: ['1970-01-01', '1970-01-02', '1970-01-03'].map((period) => ({ period, count: 0 })) });
    expect((await app.http.get('/analytics/sign-ins?interval=year')).status).toBe(422);
    expect((await app.http.get('/analytics/sign-ins?from=2000-01-01&to=2026-01-01')).body).toMatchObject({ code: 'validation_error', field: 'from' });
    // Before 1970 no event can be (and PostgreSQL holds no year 0); 1970-01-01 itself is a day.
    expect((await app.http.get('/analytics/sign-ins?from=0000-01-01&to=0000-01-05')).body).toMatchObject({ code: 'validation_error', field: 'to' });
    expect((await app.http.get('/analytics/active-users?from=0000-01-01&to=2000-01-01')).body).toMatchObject({ code: 'validation_error', field: 'from' });
    expect((await app.http.get('/analytics/sign-ins?from=1969-12-31&to=1970-01-05')).body).toMatchObject({ code: 'validation_error', field: 'from' });
    expect((await app.http.get('/analytics/sign-ins?from=1970-01-01&to=1970-01-01')).body).toEqual({ data: [{ period: '1970-01-01', succeeded: 0, failed: 0, byMethod: {} }] });
    // So is 9999-12-31, though no ISO date names the day after its period.
    expect((await app.http.get('/analytics/sign-ins?from=9999-12-31&to=9999-12-31&interval=month')).body).toEqual({ data: [{ period: '9999-12-01', succeeded: 0, failed: 0, byMethod: {} }] });
    expect((await app.http.get('/analytics/active-users?from=9999-12-31&to=9999-12-31&interval=week')).body).toEqual({ data: [{ period: '9999-12-27', count: 0 }] });
    // The week of 9999-12-31 runs on past it: its sign-ins are read up to that day, the last a date names.
    expect((await app.http.get('/analytics/sign-ins?from=9999-12-27&to=9999-12-31&interval=week')).body).toEqual({ data: [{ period: '9999-12-27', succeeded: 0, failed: 0, byMethod: {} }] });
    expect((await app.http.graphql('{ signIns(from: "9999-12-31", to: "9999-12-31", interval: week) { data { period succeeded } } }')).body).toEqual({ data: { signIns: { data: [{ period: '9999-12-27', succeeded: 0 }] } } });
    const reader = await app.http.post('/api-keys', { name: 'users only', permissions: ['users:read'] });
    expect((await app.as({ apiKey: reader.body.secret as string }).get('/analytics/active-users')).status).toBe(403);
    const keyOfB = await app.http.post(`${tenantPath(tenantB)}/api-keys`, { name: 'B', permissions: ['analytics:read'] });
    const asB = new HttpClient(app.baseUrl, { apiKey: keyOfB.body.secret as string });
    expect((await asB.get(`${tenantPath(tenantA)}/analytics/active-users`)).status).toBe(403);
    expect((await asB.get('/analytics/active-users?from=2026-03-01&to=2026-03-31&interval=month')).body).toEqual({ data: [{ period: '2026-03-01', count: 1 }] });
  });
});

// Last: its sign-ins would count in the analytics above, whose day it shares.
describe('sign-ins on a tenant’s page', () => {
  it('of a user of another tenant only are, in that tenant’s log, an unknown address’s: no user named, the outcome told by nothing', async () => {
    const records = async () =>
      (await app.sql<{ target_id: string | null; after: Record<string, unknown> }>(
        `select target_id, after from audit_log where application_id = ? and tenant_id = ? and action in ('user.signed_in', 'user.sign_in_failed') order by seq`,
        [app.root.applicationId, tenantA],
      )).filter((record) => record.after['email'] !== 'ada@example.com');
    const before = (await records()).length;
    // Bob is tenant B's: his wrong and his right password on tenant A's page, beside an address of no account.
    await signInWith({ email: 'bob@example.com', password: 'wrong-password-1' }, { tenant: tenantA });
    expect((await signInWith({ email: 'bob@example.com', password: PASSWORD }, { tenant: tenantA })).status).not.toBe(303);
    await signInWith({ email: 'nobody-here@example.com', password: 'wrong-password-1' }, { tenant: tenantA });
    const shown = (await records()).slice(before);
    expect(shown).toEqual([
      { target_id: null, after: { method: 'password', clientId: web.clientId, reason: 'unknown_user', email: 'bob@example.com' } },
      { target_id: null, after: { method: 'password', clientId: web.clientId, reason: 'unknown_user', email: 'bob@example.com' } },
      { target_id: null, after: { method: 'password', clientId: web.clientId, reason: 'unknown_user', email: 'nobody-here@example.com' } },
    ]);
    expect(JSON.stringify(shown)).not.toContain(bob);
  });
});

// Last: its sign-in would count in the analytics above.
describe('token.issued after the grant is gone', () => {
  it('a user token’s token.issued names the tenant it was issued in, though the user is suspended (the grant deleted) before the write', async () => {
    const carol = (await app.http.post('/users', { email: 'carol@example.com', password: PASSWORD, tenantId: tenantB })).body.id as string;
    const { url, verifier, state } = await authorizationRequest(spaConfig, { redirectUri: REDIRECT_URI, resource: '' }, { scope: 'openid', tenant: tenantB });
    const outcome = await authorize(app, url, { userId: carol, tenantId: tenantB });
    if (outcome.kind !== 'redirect') throw new Error(`expected a redirect, got ${outcome.status}`);
    await oidc.authorizationCodeGrant(spaConfig, outcome.url, { pkceCodeVerifier: verifier, expectedState: state });
    expect((await app.http.post(`/users/${carol}/suspend`, {})).status).toBe(200);
    await app.gatehouse.services.tokenEvents.flush();
    expect((await recordsOf('token.issued')).filter((record) => record.target_id === carol)).toEqual([
      { actor_type: 'oauth_client', actor_id: spa.clientId, target_id: carol, tenant_id: tenantB, outcome: 'success', after: { grantType: 'authorization_code', clientId: spa.clientId } },
    ]);
  });
});

// Last: its activity would count in the analytics above.
describe('a deleted user', () => {
  it('takes their activity marks along (DELETE /users/{id} removes what is bound to them); the counts stay', async () => {
    const created = await app.http.post('/users', { email: 'deleted-later@example.com', tenantId: tenantA });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const gone = created.body.id as string;
    const day = now.toISOString().slice(0, 10);
    const active = () => countActiveUsers(app.gatehouse.services.orm.em.fork(), [{ applicationId: app.root.applicationId, tenantId: tenantA, userId: gone, day }]);
    await active();
    const marks = () => app.sql(`select period from analytics_active_user where user_id = ?`, [gone]);
    // A day, a week and a month, in the application's series and tenant A's.
    expect(await marks()).toHaveLength(6);
    const counted = (await app.http.get(`/analytics/active-users?from=${day}&to=${day}`)).body;
    expect((await app.http.delete(`/users/${gone}`)).status).toBe(204);
    expect(await marks()).toEqual([]);
    expect((await app.http.get(`/analytics/active-users?from=${day}&to=${day}`)).body).toEqual(counted);
    // A token event buffered for them and written after the deletion marks them no more.
    await active();
    expect(await marks()).toEqual([]);
  });
});

// Last: an application of its own, whose series the analytics above do not read.
describe('the shared → isolated split', () => {
  it('a copy is, in its tenant’s series, the user it was copied from there: their activity counts once', async () => {
    const { admin, appPath, applicationId, tenants: [one, two], switchTo } = await freshApplication(app, { tenants: ['One', 'Two'] });
    const original = (await admin.post('/users', { email: 'twice@example.com', tenantId: one })).body.id as string;
    expect((await admin.patch(`/users/${original}`, { tenantIds: [one, two] })).status).toBe(200);
    const day = now.toISOString().slice(0, 10);
    const active = (tenantId: string, userId: string) =>
      countActiveUsers(app.gatehouse.services.orm.em.fork(), [{ applicationId, tenantId, userId, day }]);
    const series = async (tenantId: string) =>
      Promise.all(
        (['day', 'week', 'month'] as const).map(async (interval) => {
          const answer = await admin.get(`${appPath}/tenants/${tenantId}/analytics/active-users?from=${day}&to=${day}&interval=${interval}`);
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          return (answer.body.data as { count: number }[])[0]?.count;
        }),
      );
    // Active in Two (a sign-in there, or a token of a grant there) before the switch.
    await active(two, original);
    expect(await series(two)).toEqual([1, 1, 1]);

    expect((await switchTo('isolated')).status).toBe(200);
    const [copy] = (await admin.get(`${appPath}/tenants/${two}/users`)).body.data as { id: string }[];
    expect(copy?.id).not.toBe(original);
    // The same person, now Two's copy, active again the same day: Two still has one active user.
    await active(two, copy!.id);
    expect(await series(two)).toEqual([1, 1, 1]);
    expect(await series(one)).toEqual([0, 0, 0]);
  });
});
