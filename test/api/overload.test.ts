import type { PoolClient } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { newId } from '../../src/ids.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { usingEmbeddedDatabase } from '../support/database.ts';
import { acknowledgement, eventually, openGraphQLSocket } from '../support/graphql-socket.ts';
import { basicAuth, codeAuthorizationUrl, createTestClient, postForm } from '../support/oauth.ts';

/**
 * No database connection came free within the pool's wait (DATABASE_TIMEOUTS.connectMs): the service is overloaded,
 * not broken. 503 `service_unavailable` with Retry-After on both transports, whichever layer waited (a resolver's
 * statement, the authentication of credentials not yet cached), and the request's line is `warn` with the pool's counts.
 */
let app: TestApp;
const logged: string[] = [];

beforeAll(async () => {
  const quiet = { ...loadConfig({}).email, pollMs: 3_600_000 };
  app = await startTestApp({ databasePoolMax: 1, email: quiet, auditRetentionEveryMs: 0 }, { reachablePublicUrl: true, logStream: { write: (line) => logged.push(line) } });
});
afterAll(async () => app?.close());

const OVERLOADED = { code: 'service_unavailable', message: 'The service is overloaded: try again shortly' };

/** The events of the tokens issued before: their write, due within a second, would meet the held pool (an error line). */
const tokenEventsWritten = () => app.gatehouse.services.tokenEvents.flush();

/** Runs `requests` while the test holds the pool's one connection in a transaction, longer than the pool's wait. */
async function whilePoolHeld<T>(requests: () => Promise<T>): Promise<T> {
  await tokenEventsWritten();
  const holder = app.gatehouse.services.orm.em.fork();
  await holder.begin();
  try {
    return await requests();
  } finally {
    await holder.rollback();
  }
}

/**
 * Runs `request` with the pool's one connection taken by the test the moment the OP emits `event` as its endpoint
 * answers: only what runs after the endpoint, the middleware given to the OP with `use`, meets the overload. The OP's
 * listeners run synchronously and the pool hands connections out in the order asked, so the test's is first.
 */
async function whilePoolTakenAt<T>(event: 'grant.error' | 'introspection.error', request: () => Promise<T>): Promise<T> {
  await tokenEventsWritten();
  const { provider } = await app.gatehouse.services.oidc.get();
  // Its typings name each event in an overload of its own, which a union of names matches none of.
  const events: NodeJS.EventEmitter = provider;
  const pool = await app.gatehouse.services.orm.em.getConnection().getNativeClient();
  let taken: Promise<PoolClient> | undefined;
  const take = () => {
    taken = pool.connect();
  };
  events.once(event, take);
  try {
    return await request();
  } finally {
    events.off(event, take);
    (await taken)?.release();
  }
}

/** The lines logged since `logged` was emptied: none at error, `count` requests' at warn with the pool's counts. */
function expectOverloadLines(count: number): void {
  const lines = logged.map((line) => JSON.parse(line) as { level: number; msg: string; overload?: string });
  expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  const overloaded = lines.filter((line) => line.msg === 'request completed' && line.overload !== undefined);
  expect(overloaded).toHaveLength(count);
  for (const line of overloaded) {
    expect(line.level).toBe(40);
    expect(line.overload).toMatch(/^database pool exhausted: no connection came free in \d+ ms/);
  }
}

// The embedded database's pool waits without a limit (it is in-process): only a database server's times out.
describe.skipIf(usingEmbeddedDatabase())('on PostgreSQL', () => {
  it('a wait for a connection past the pool’s limit is 503 with Retry-After, logged at warn with the pool’s counts; the next request is served', async () => {
    const uncached = await app.bootstrapAnother();
    expect((await app.http.get('/users')).status).toBe(200);
    logged.length = 0;
    // The pool's one connection, held in a transaction for longer than the pool's wait.
    const holder = app.gatehouse.services.orm.em.fork();
    await holder.begin();
    let answers;
    try {
      // Pages not asked before: no answer kept for them (the REST read cache).
      answers = await Promise.all([app.http.get('/users?pageSize=3'), app.http.graphql('{ users(pageSize: 3) { data { id } } }'), app.as({ apiKey: uncached.apiKey }).get('/users?pageSize=4')]);
    } finally {
      await holder.rollback();
    }
    const [rest, graphql, authenticating] = answers;
    for (const answer of [rest, authenticating]) {
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual(OVERLOADED);
      expect(answer.headers.get('retry-after')).toBe('2');
    }
    expect(graphql.status).toBe(503);
    expect(graphql.body.errors).toEqual([expect.objectContaining({ message: OVERLOADED.message, extensions: { code: OVERLOADED.code, status: 503 } })]);
    expect(graphql.headers.get('retry-after')).toBe('2');

    const lines = logged.map((line) => JSON.parse(line) as { level: number; msg: string; status?: number; overload?: string; reason?: string });
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    const completed = lines.filter((line) => line.msg === 'request completed');
    expect(completed).toHaveLength(3);
    for (const line of completed) {
      expect(line).toMatchObject({ level: 40, status: 503, reason: 'service_unavailable' });
      expect(line.overload).toMatch(/^database pool exhausted: no connection came free in \d+ ms \(1 of 1 open, 0 idle, \d+ more statements waiting\)$/);
    }

    expect((await app.http.get('/users')).status).toBe(200);
    expect((await app.as({ apiKey: uncached.apiKey }).get('/users')).status).toBe(200);
  }, 30_000);

  it('a GraphQL WebSocket whose credentials wait past the pool’s limit is closed 1013 (try again later), as 503 over HTTP', async () => {
    const uncached = await app.bootstrapAnother();
    const socket = await whilePoolHeld(async () => {
      const opened = openGraphQLSocket(`${app.baseUrl.replace(/^http/, 'ws')}/graphql`, { connectionParams: { 'X-API-Key': uncached.apiKey } });
      await eventually(() => opened.closed !== undefined || opened.acknowledged, 'the connection’s close');
      return opened;
    });
    expect(socket.acknowledged).toBe(false);
    expect(socket.closed).toEqual({ code: 1013, reason: `${OVERLOADED.code}: ${OVERLOADED.message}` });
    const again = openGraphQLSocket(`${app.baseUrl.replace(/^http/, 'ws')}/graphql`, { connectionParams: { 'X-API-Key': uncached.apiKey } });
    await acknowledgement(again);
    await again.dispose();
  }, 30_000);

  it('the hosted pages answer a 503 page in their look with Retry-After; the OAuth endpoints temporarily_unavailable', async () => {
    const issuer = app.gatehouse.services.config.publicUrl;
    const REDIRECT_URI = 'https://app.example/callback';
    const web = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
    // The client read once: its metadata cached, the next authorization fails at its interaction, past the redirect's checks.
    expect((await fetch(codeAuthorizationUrl(issuer, web.clientId, REDIRECT_URI), { redirect: 'manual' })).status).toBe(303);
    const unknownClient = newId();
    logged.length = 0;
    const [page, token, authorizeRedirect, authorizePage] = await whilePoolHeld(() =>
      Promise.all([
        fetch(`${issuer}/invitation?token=never-issued`, { headers: { accept: 'text/html', 'accept-language': 'fr' } }),
        fetch(`${issuer}/oauth2/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${unknownClient}:secret`).toString('base64')}` },
          body: 'grant_type=client_credentials',
        }),
        fetch(codeAuthorizationUrl(issuer, web.clientId, REDIRECT_URI, { state: 'xyz' }), { redirect: 'manual' }),
        // A client not read yet: its redirect URI cannot be verified, so the OP's page says it.
        fetch(codeAuthorizationUrl(issuer, newId(), REDIRECT_URI), { redirect: 'manual', headers: { accept: 'text/html' } }),
      ]),
    );

    expect(page.status).toBe(503);
    expect(page.headers.get('retry-after')).toBe('2');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('Le service est surchargé');

    expect(token.status).toBe(503);
    expect(token.headers.get('retry-after')).toBe('2');
    expect(await token.json()).toEqual({ error: 'temporarily_unavailable', error_description: OVERLOADED.message });

    // RFC 6749 4.1.2.1: to the verified redirect URI, with the request's state.
    expect(authorizeRedirect.status).toBe(303);
    const redirected = new URL(authorizeRedirect.headers.get('location')!);
    expect(`${redirected.origin}${redirected.pathname}`).toBe(REDIRECT_URI);
    expect(Object.fromEntries(redirected.searchParams)).toMatchObject({ error: 'temporarily_unavailable', error_description: OVERLOADED.message, state: 'xyz' });

    expect(authorizePage.status).toBe(503);
    expect(authorizePage.headers.get('retry-after')).toBe('2');
    expect(await authorizePage.text()).toContain('temporarily_unavailable');

    // The redirect's line too (a 303 saying the error): each warn, with the pool's counts.
    expectOverloadLines(4);
    // Served again once the pool has a connection.
    expect((await fetch(`${issuer}/invitation?token=never-issued`)).status).not.toBe(503);
    expect((await fetch(codeAuthorizationUrl(issuer, web.clientId, REDIRECT_URI), { redirect: 'manual' })).status).toBe(303);
  }, 30_000);

  it('a step of the OP past its storage (the claims of a cached client’s token for an API resource) answers temporarily_unavailable too', async () => {
    const issuer = app.gatehouse.services.config.publicUrl;
    const resource = 'https://overloaded.example/api';
    const created = await app.http.post('/api-resources', { identifier: resource, name: 'Overloaded', newPermissions: [{ key: 'reports:read' }] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { clientId, clientSecret } = await createTestClient(app, { permissions: ['*'] });
    const token = () =>
      fetch(`${issuer}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource }).toString(),
      });
    // The client and the resource are read once and kept: the token's claims are what the next request reads first.
    expect((await token()).status).toBe(200);
    logged.length = 0;
    const answer = await whilePoolHeld(token);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('2');
    expect(await answer.json()).toEqual({ error: 'temporarily_unavailable', error_description: OVERLOADED.message });
    expectOverloadLines(1);
    expect((await token()).status).toBe(200);
  }, 30_000);

  it('the middleware given to the OP (device polling’s pace, JWT introspection) answers temporarily_unavailable as its endpoints do', async () => {
    const issuer = app.gatehouse.services.config.publicUrl;
    const device = await createTestClient(app, { type: 'device', authMethod: 'none' });
    const started = await postForm(`${issuer}/oauth2/device_authorization`, { client_id: device.clientId, scope: 'openid' });
    expect(started.status).toBe(200);
    const poll = () =>
      postForm(`${issuer}/oauth2/token`, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: started.body.device_code, client_id: device.clientId });

    const resource = 'https://introspected.example/api';
    expect((await app.http.post('/api-resources', { identifier: resource, name: 'Introspected', newPermissions: [{ key: 'audits:read' }] })).status).toBe(201);
    const caller = await createTestClient(app, { permissions: ['*'] });
    const authorization = { authorization: basicAuth(caller.clientId, caller.clientSecret!) };
    const issued = await postForm(`${issuer}/oauth2/token`, { grant_type: 'client_credentials', resource }, authorization);
    expect(issued.status).toBe(200);
    const introspect = () => postForm(`${issuer}/oauth2/introspect`, { token: issued.body.access_token }, authorization);

    logged.length = 0;
    // The OP's own answers: the device code's `authorization_pending`, the JWT's `unsupported_token_type`.
    const paced = await whilePoolTakenAt('grant.error', poll);
    const introspected = await whilePoolTakenAt('introspection.error', introspect);
    for (const answer of [paced, introspected]) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('2');
      expect(answer.body).toEqual({ error: 'temporarily_unavailable', error_description: OVERLOADED.message });
    }
    expectOverloadLines(2);

    expect((await poll()).body).toMatchObject({ error: expect.stringMatching(/^(authorization_pending|slow_down)$/) });
    expect((await introspect()).body).toMatchObject({ active: true, client_id: caller.clientId, aud: resource });
  }, 30_000);
});
