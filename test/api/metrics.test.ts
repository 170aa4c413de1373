import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { basicAuth, createTestClient, discover, postForm, startAuthorization } from '../support/oauth.ts';
import { openSse } from '../support/sse.ts';
import { giveTotp, totpCodeAt, withTimeLeftInStep } from '../support/totp.ts';

/**
 * GET /metrics after known traffic: each counter moves by what was sent. The registry is the process's (src/observability/metrics.ts),
 * shared by the apps of this file, so every assertion reads a difference between two scrapes.
 */
const TOKEN = `metrics-${randomUUID()}`;
const REDIRECT_URI = 'https://app.example/callback';
const PASSWORD = 'Correct-Horse-Battery-9';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ metricsToken: TOKEN }, { reachablePublicUrl: true });
});
afterAll(async () => app?.close());

type Labels = Record<string, string>;

/** Every sample of the Prometheus text, as name, labels and value. */
function samples(text: string): { name: string; labels: Labels; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (match === null) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, name, value]) => [name!, value!]));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The sum of the samples named `name` whose labels include `labels`. */
const valueOf = (text: string, name: string, labels: Labels = {}) =>
  samples(text)
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);

async function scrape(target = app): Promise<string> {
  const response = await fetch(`${target.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

describe('GET /metrics', () => {
  it('asks for METRICS_TOKEN when it is set, and is neither rate-limited nor logged', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN]) {
      const refused = await fetch(`${app.baseUrl}/metrics`, { headers: authorization === undefined ? {} : { authorization } });
      expect(refused.status, authorization).toBe(401);
      expect(await refused.json()).toMatchObject({ code: 'unauthenticated' });
      expect(refused.headers.get('x-ratelimit-limit')).toBeNull();
    }
    // The scheme's name is case-insensitive (RFC 9110 11.1), as on the management API.
    for (const scheme of ['bearer', 'BEARER']) {
      const accepted = await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: `${scheme} ${TOKEN}` } });
      expect(accepted.status, scheme).toBe(200);
      expect(await accepted.text()).toContain('gatehouse_http_request_duration_seconds');
    }
    const text = await scrape();
    // The process's own metrics and the event-loop delay come with prom-client's defaults.
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_p99_seconds']) {
      expect(samples(text).some((sample) => sample.name === name), name).toBe(true);
    }
    // Absent without REDIS_URL: a 0 would say Redis is down where none is configured.
    for (const name of ['gatehouse_redis_up', 'gatehouse_invalidation_fanout_up']) {
      const values = samples(text).filter((sample) => sample.name === name).map((sample) => sample.value);
      expect(values, name).toEqual(process.env['REDIS_URL'] === undefined ? [] : [1]);
    }
    expect(samples(text).filter((sample) => sample.name === 'gatehouse_db_pool_connections').map((sample) => sample.labels['state']).sort()).toEqual(['idle', 'total', 'waiting']);
  });

  it('counts HTTP requests by route pattern and status, never by URL', async () => {
    const before = await scrape();
    const users = await app.http.get('/users');
    expect(users.status).toBe(200);
    const missing = newId();
    expect((await app.http.get(`/users/${missing}`)).status).toBe(404);
    expect((await app.http.get(`/users/${newId()}`)).status).toBe(404);
    expect((await app.as({ apiKey: `ghk_${randomUUID()}` }).get('/users')).status).toBe(401);
    const after = await scrape();
    const count = (labels: Labels) =>
      valueOf(after, 'gatehouse_http_request_duration_seconds_count', labels) - valueOf(before, 'gatehouse_http_request_duration_seconds_count', labels);
    expect(count({ method: 'GET', route: '/api/v1/users', status: '200' })).toBe(1);
    expect(count({ method: 'GET', route: '/api/v1/users/:userId', status: '404' })).toBe(2);
    expect(count({ method: 'GET', route: '/api/v1/users', status: '401' })).toBe(1);
    expect(after).not.toContain(missing);
    // The histogram has its buckets: the +Inf one holds every request.
    expect(valueOf(after, 'gatehouse_http_request_duration_seconds_bucket', { route: '/api/v1/users', status: '200', le: '+Inf' })).toBe(
      valueOf(after, 'gatehouse_http_request_duration_seconds_count', { route: '/api/v1/users', status: '200' }),
    );
    expect(valueOf(after, 'gatehouse_db_query_duration_seconds_count')).toBeGreaterThan(valueOf(before, 'gatehouse_db_query_duration_seconds_count'));
  });

  it('counts a path the router cannot read as unmatched', async () => {
    const before = await scrape();
    expect((await fetch(`${app.baseUrl}/%zz/1`)).status).toBe(404);
    const after = await scrape();
    const labels = { method: 'GET', route: 'unmatched', status: '404' };
    const name = 'gatehouse_http_request_duration_seconds_count';
    expect(valueOf(after, name, labels) - valueOf(before, name, labels)).toBe(1);
  });

  it('counts GraphQL operations by root field and outcome, whatever name the client gave them', async () => {
    const before = await scrape();
    const name = `Client${randomUUID().replaceAll('-', '')}`;
    expect((await app.http.request('POST', '/graphql', { body: { query: `query ${name} { users { data { id } } }` } })).status).toBe(200);
    const refused = await app.http.request('POST', '/graphql', { body: { query: `query { user(userId: "${newId()}") { id } }` } });
    expect(refused.status).toBe(404);
    const after = await scrape();
    const count = (labels: Labels) => valueOf(after, 'gatehouse_graphql_operations_total', labels) - valueOf(before, 'gatehouse_graphql_operations_total', labels);
    expect(count({ type: 'query', field: 'users', outcome: 'ok' })).toBe(1);
    expect(count({ type: 'query', field: 'user', outcome: 'not_found' })).toBe(1);
    expect(after).not.toContain(name);
  });

  it('counts GraphQL subscriptions by root field and outcome, as the other operations', async () => {
    const query = 'subscription { auditLogs { id } }';
    const narrow = await app.http.post('/api-keys', { name: 'metrics narrow', permissions: ['users:read'] });
    expect(narrow.status, JSON.stringify(narrow.body)).toBe(201);
    const before = await scrape();
    const open = await openSse(`${app.baseUrl}/graphql`, { 'x-api-key': app.root.apiKey }, { query });
    expect(open.status).toBe(200);
    open.close();
    const refused = await openSse(`${app.baseUrl}/graphql`, { 'x-api-key': narrow.body.secret as string }, { query });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ errors: [{ extensions: { code: 'forbidden' } }] });
    const after = await scrape();
    const count = (labels: Labels) => valueOf(after, 'gatehouse_graphql_operations_total', labels) - valueOf(before, 'gatehouse_graphql_operations_total', labels);
    expect(count({ type: 'subscription', field: 'auditLogs', outcome: 'ok' })).toBe(1);
    expect(count({ type: 'subscription', field: 'auditLogs', outcome: 'forbidden' })).toBe(1);
  });

  it('counts token grants by type and outcome', async () => {
    const client = await createTestClient(app, { permissions: ['users:read'] });
    const before = await scrape();
    const token = `${app.baseUrl}/oauth2/token`;
    for (let i = 0; i < 2; i += 1) {
      expect((await postForm(token, { grant_type: 'client_credentials' }, { authorization: basicAuth(client.clientId, client.clientSecret!) })).status).toBe(200);
    }
    expect((await postForm(token, { grant_type: 'client_credentials' }, { authorization: basicAuth(client.clientId, `${client.clientSecret!}x`) })).status).toBe(401);
    expect((await postForm(token, { grant_type: `made-up-${randomUUID()}` }, { authorization: basicAuth(client.clientId, client.clientSecret!) })).status).toBe(400);
    const after = await scrape();
    const count = (labels: Labels) => valueOf(after, 'gatehouse_token_grants_total', labels) - valueOf(before, 'gatehouse_token_grants_total', labels);
    expect(count({ grant_type: 'client_credentials', outcome: 'success' })).toBe(2);
    expect(count({ grant_type: 'client_credentials', outcome: 'invalid_client' })).toBe(1);
    expect(count({ grant_type: 'other' })).toBe(1);
    expect(after).not.toContain('made-up-');
  });

  it('counts hosted sign-ins by method and outcome', async () => {
    const email = `metrics-${randomUUID()}@example.com`;
    expect((await app.http.post('/users', { email, password: PASSWORD })).status).toBe(201);
    const issuer = app.gatehouse.services.config.publicUrl;
    const client = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
    const config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
    const before = await scrape();
    const failed = await startAuthorization(config, { redirectUri: REDIRECT_URI, resource: `${issuer}/api/v1` }, { scope: 'openid' });
    expect((await failed.jar.submit(failed.page, { email, password: 'Wrong-Horse-9' })).status).toBe(400);
    const signedIn = await startAuthorization(config, { redirectUri: REDIRECT_URI, resource: `${issuer}/api/v1` }, { scope: 'openid' });
    expect((await signedIn.jar.submit(signedIn.page, { email, password: PASSWORD })).status).toBe(303);
    const after = await scrape();
    const count = (labels: Labels) => valueOf(after, 'gatehouse_sign_ins_total', labels) - valueOf(before, 'gatehouse_sign_ins_total', labels);
    expect(count({ method: 'password', outcome: 'failure' })).toBe(1);
    expect(count({ method: 'password', outcome: 'success' })).toBe(1);
    expect(after).not.toContain(email);
  });

  it('counts a sign-in with an MFA step once, when the step completes it, and each refused code by its method', async () => {
    const email = `metrics-mfa-${randomUUID()}@example.com`;
    const created = await app.http.post('/users', { email, password: PASSWORD });
    expect(created.status).toBe(201);
    const secret = await giveTotp(app, app.root.applicationId, created.body.id);
    const issuer = app.gatehouse.services.config.publicUrl;
    const client = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
    const config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
    const before = await scrape();
    const flow = await startAuthorization(config, { redirectUri: REDIRECT_URI, resource: `${issuer}/api/v1` }, { scope: 'openid' });
    const proven = await flow.jar.submit(flow.page, { email, password: PASSWORD });
    expect(proven.status).toBe(303);
    expect(proven.location).toMatch(/\/mfa$/);
    let step = await flow.jar.visit(proven.location!);
    const right = totpCodeAt(secret);
    const wrong = right === '000000' ? '000001' : '000000';
    for (let i = 0; i < 2; i += 1) {
      step = await flow.jar.submit(step, { code: wrong });
      expect(step.status).toBe(400);
    }
    const afterRefusals = await scrape();
    await withTimeLeftInStep();
    expect((await flow.jar.submit(step, { code: totpCodeAt(secret) })).status).toBe(303);
    const after = await scrape();
    const count = (from: string, to: string, labels: Labels) => valueOf(to, 'gatehouse_sign_ins_total', labels) - valueOf(from, 'gatehouse_sign_ins_total', labels);
    expect(count(before, afterRefusals, { method: 'totp', outcome: 'failure' })).toBe(2);
    expect(count(before, afterRefusals, { outcome: 'success' })).toBe(0);
    expect(count(afterRefusals, after, { method: 'totp', outcome: 'success' })).toBe(1);
    expect(count(before, after, { method: 'password' })).toBe(0);
  });

  it('counts rate-limit refusals', async () => {
    const limited = await startTestApp({ rateLimit: { max: 2, windowMs: 60_000, redisPrefix: `gatehouse-test-${randomUUID()}-` } });
    try {
      const before = await scrape();
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await limited.http.get('/users')).status);
      expect(statuses).toEqual([200, 200, 429, 429]);
      // The probes are not counted by the limit.
      expect((await fetch(`${limited.baseUrl}/healthz`)).status).toBe(200);
      expect((await fetch(`${limited.baseUrl}/metrics`)).status).toBe(200);
      const after = await scrape();
      expect(valueOf(after, 'gatehouse_rate_limited_total', { limit: 'api' }) - valueOf(before, 'gatehouse_rate_limited_total', { limit: 'api' })).toBe(2);
    } finally {
      await limited.close();
    }
  });

  it('counts a test e-mail refused 429 for the hour’s TEST_EMAILS_PER_HOUR', async () => {
    const limited = await startTestApp({ testEmailsPerHour: 1 });
    try {
      const before = await scrape();
      expect((await limited.http.post('/email/test', { to: 'first@example.com' })).status).toBe(201);
      expect((await limited.http.post('/email/test', { to: 'second@example.com' })).status).toBe(429);
      const after = await scrape();
      expect(valueOf(after, 'gatehouse_rate_limited_total', { limit: 'test_emails' }) - valueOf(before, 'gatehouse_rate_limited_total', { limit: 'test_emails' })).toBe(1);
    } finally {
      await limited.close();
    }
  });

  it('counts a stream refused 429 for the streams its credential holds', async () => {
    const limited = await startTestApp({ streamsPerCredential: 1 });
    try {
      const before = await scrape();
      const query = 'subscription { auditLogs { id } }';
      const held = await openSse(`${limited.baseUrl}/graphql`, { 'x-api-key': limited.root.apiKey }, { query });
      expect(held.status).toBe(200);
      const refused = await openSse(`${limited.baseUrl}/graphql`, { 'x-api-key': limited.root.apiKey }, { query });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ errors: [{ extensions: { code: 'rate_limited' } }] });
      held.close();
      const after = await scrape();
      expect(valueOf(after, 'gatehouse_rate_limited_total', { limit: 'streams' }) - valueOf(before, 'gatehouse_rate_limited_total', { limit: 'streams' })).toBe(1);
    } finally {
      await limited.close();
    }
  });
});
