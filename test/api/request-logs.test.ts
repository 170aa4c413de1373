import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { issueTestKey } from '../support/keys.ts';
import { openSse } from '../support/sse.ts';
import { basicAuth, createTestClient, postForm } from '../support/oauth.ts';

/**
 * The service's log, as an operator ships it: JSON lines, each line of a request carrying its id, and no secret in any
 * of them: not the credentials in headers, not the passwords and client secrets in bodies, not the tokens and codes
 * that OAuth puts in URLs.
 */
interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  req?: { url: string };
  [field: string]: unknown;
}

let app: TestApp;
const written: string[] = [];
const lines = (): LogLine[] => written.map((line) => JSON.parse(line) as LogLine);
const linesOf = (requestId: string) => lines().filter((line) => line.reqId === requestId);

/** The log lines written since `mark`, as text, for "appears nowhere" assertions. */
const logSince = (mark: number) => written.slice(mark).join('');

beforeAll(async () => {
  app = await startTestApp({}, { logStream: { write: (line) => written.push(line) } });
});
afterAll(async () => app?.close());

describe('secrets in URLs', () => {
  it('logs the query with the values of credentials, codes and hints replaced', async () => {
    const mark = written.length;
    const secrets = { accessToken: `at-${randomUUID()}`, idToken: `eyJ${randomUUID()}`, userCode: 'WDJB-MJHT', state: `st-${randomUUID()}` };
    const requestId = randomUUID();
    await fetch(`${app.baseUrl}/oauth2/userinfo?access_token=${secrets.accessToken}`);
    await fetch(`${app.baseUrl}/oauth2/logout?id_token_hint=${secrets.idToken}&post_logout_redirect_uri=https://app.example/out`);
    await fetch(`${app.baseUrl}/oauth2/device?user_code=${secrets.userCode}`);
    await fetch(`${app.baseUrl}/oauth2/authorize?client_id=abc&response_type=code&login_hint=ada%40example.com&state=${secrets.state}`, {
      headers: { 'x-request-id': requestId },
      redirect: 'manual',
    });

    const log = logSince(mark);
    for (const secret of [...Object.values(secrets), 'ada%40example.com', 'ada@example.com']) expect(log).not.toContain(secret);
    const [incoming] = linesOf(requestId);
    expect(incoming?.req?.url).toBe('/oauth2/authorize?client_id=abc&response_type=code&login_hint=[redacted]&state=[redacted]');
  });

  it('keeps what a list request asked for', async () => {
    const requestId = randomUUID();
    await app.http.get('/users?pageSize=5', { headers: { 'x-request-id': requestId } });
    expect(linesOf(requestId)[0]?.req?.url).toBe('/api/v1/users?pageSize=5');
  });
});

describe('secrets in headers and bodies', () => {
  it('logs none of them, on successes and refusals', async () => {
    const mark = written.length;
    const password = `Pw-${randomUUID()}`;
    const cookie = `_session=${randomUUID()}`;
    const user = await app.http.post('/users', { email: `${randomUUID()}@example.com`, password }, { headers: { cookie } });
    expect(user.status).toBe(201);
    const bearer = await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['users:read'] });
    expect((await app.as({ bearer }).get('/users')).status).toBe(200);
    const wrongKey = `ghk_${randomUUID()}`;
    expect((await app.as({ apiKey: wrongKey }).get('/users')).status).toBe(401);

    const post = await createTestClient(app, { authMethod: 'client_secret_post', permissions: ['users:read'] });
    const basic = await createTestClient(app, { permissions: ['users:read'] });
    const token = `${app.baseUrl}/oauth2/token`;
    const granted = await postForm(token, { grant_type: 'client_credentials', client_id: post.clientId, client_secret: post.clientSecret! });
    expect(granted.status).toBe(200);
    expect((await postForm(token, { grant_type: 'client_credentials' }, { authorization: basicAuth(basic.clientId, basic.clientSecret!) })).status).toBe(200);
    expect((await postForm(token, { grant_type: 'client_credentials', client_id: post.clientId, client_secret: `${post.clientSecret!}x` })).status).toBe(401);

    const log = logSince(mark);
    const secrets = [password, cookie, bearer, wrongKey, app.root.apiKey, post.clientSecret!, basic.clientSecret!, granted.body.access_token as string];
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});

describe('an unexpected failure', () => {
  /** Runs `during` while the table is away: the statements that read it fail as a lost database would. */
  async function withoutTable<T>(table: string, during: () => Promise<T>): Promise<T> {
    const connection = app.gatehouse.services.orm.em.getConnection();
    await connection.execute(`alter table "${table}" rename to "${table}_away"`);
    try {
      return await during();
    } finally {
      await connection.execute(`alter table "${table}_away" rename to "${table}"`);
    }
  }

  /** The error lines of the request whose id the response carried, besides its completion line (an error too: a 500). */
  const errorsOf = (response: Response | { headers: Headers }) => {
    const errors = linesOf(response.headers.get('x-request-id') ?? '').filter((line) => line.level >= 50);
    expect(errors.filter((line) => line.msg === 'request completed').map((line) => line['status'])).toEqual([500]);
    return errors.filter((line) => line.msg !== 'request completed');
  };

  it('in a resolver, over REST and GraphQL, is logged with the request id', async () => {
    expect((await app.http.get('/users')).status).toBe(200);
    const [rest, graphql] = await withoutTable('app_user', async () => [
      // Another question than the one above, which the read cache (src/rest/read-cache.ts) would answer unread.
      await app.http.get('/users?pageSize=3'),
      await app.http.request('POST', '/graphql', { body: { query: '{ users { data { id } } }' } }),
    ]);
    for (const response of [rest, graphql]) {
      expect(response.status).toBe(500);
      expect(errorsOf(response).map((line) => line.msg)).toEqual(['unexpected error in a resolver']);
    }
  });

  it('of the database, whose message and detail may quote the failing row, logs no value of it', async () => {
    // A constraint the row breaks, standing for any failure that reports the row (not null, check, partition).
    const connection = app.gatehouse.services.orm.em.getConnection();
    await connection.execute(`alter table setting add constraint fails_always check (key <> '') not valid`);
    const secret = `SG.${randomUUID()}`;
    const mark = written.length;
    try {
      const response = await app.http.put('/email/provider', { type: 'sendgrid', fromAddress: 'no-reply@acme.test', secrets: { apiKey: secret } });
      expect(response.status).toBe(500);
      expect(errorsOf(response).map((line) => line.msg)).toEqual(['unexpected error in a resolver']);
    } finally {
      await connection.execute('alter table setting drop constraint fails_always');
    }
    expect(logSince(mark)).not.toContain(secret);
    expect(logSince(mark)).toContain('fails_always');
  });

  it("in the OAuth provider is logged with the request id", async () => {
    const device = await createTestClient(app, { type: 'device', authMethod: 'none' });
    const response = await withoutTable('oidc_model', async () =>
      fetch(`${app.baseUrl}/oauth2/device_authorization`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: device.clientId, scope: 'openid' }).toString(),
      }),
    );
    expect(response.status).toBe(500);
    expect(errorsOf(response).map((line) => line.msg)).toEqual(['unexpected error in the OAuth provider']);
  });
});

describe('the line of each request', () => {
  const completed = (requestId: string) => {
    const found = linesOf(requestId).filter((line) => line.msg === 'request completed');
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it('says which application, tenant, principal and operation it served, with its status and duration', async () => {
    const requestId = randomUUID();
    expect((await app.http.get('/users', { headers: { 'x-request-id': requestId } })).status).toBe(200);
    const [incoming] = linesOf(requestId);
    expect(incoming).toMatchObject({ msg: 'incoming request', level: 30, req: { method: 'GET', url: '/api/v1/users' } });
    expect(completed(requestId)).toMatchObject({
      level: 30,
      status: 200,
      durationMs: expect.any(Number),
      application: app.root.applicationId,
      principal: { kind: 'api_key', id: expect.any(String) },
      operation: 'ListUsers',
    });
    const graphql = randomUUID();
    await app.http.request('POST', '/graphql', { body: { query: 'query Mine { users { data { id } } }' }, headers: { 'x-request-id': graphql } });
    expect(completed(graphql)).toMatchObject({ level: 30, status: 200, operation: 'query users', application: app.root.applicationId });
    // A subscription over Server-Sent Events, once its client has left the stream (no `finish`), as GraphQL's other operations.
    const subscribed = randomUUID();
    const stream = await openSse(`${app.baseUrl}/graphql`, { 'x-api-key': app.root.apiKey, 'x-request-id': subscribed }, { query: 'subscription { auditLogs { id } }' });
    expect(stream.status).toBe(200);
    stream.close();
    await expect.poll(() => linesOf(subscribed).some((line) => line.msg === 'request completed')).toBe(true);
    expect(completed(subscribed)).toMatchObject({ status: 200, operation: 'subscription auditLogs', application: app.root.applicationId });
  });

  it('of a tenant’s credentials refused on another tenant is a warning with its reason', async () => {
    const tenantA = await app.createTenant('Logged A');
    const tenantB = await app.createTenant('Logged B');
    const keyA = await issueTestKey(app, { tenantId: tenantA, permissions: ['users:*'] });
    const requestId = randomUUID();
    const refused = await keyA.get(`/applications/${app.root.applicationId}/tenants/${tenantB}/users`, { headers: { 'x-request-id': requestId } });
    expect(refused.status).toBe(403);
    expect(completed(requestId)).toMatchObject({
      level: 40,
      status: 403,
      application: app.root.applicationId,
      tenant: tenantB,
      principal: { kind: 'api_key', id: expect.any(String) },
      operation: 'ListUsers',
      reason: 'forbidden',
      refusal: refused.body.message,
    });
    // Over GraphQL too, whatever status the media type answers it with (application/json: always 200).
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const graphql = randomUUID();
      const answer = await keyA.request('POST', '/graphql', {
        body: { query: 'query($t: UUID) { users(tenantId: $t) { data { id } } }', variables: { t: tenantB } },
        headers: { 'x-request-id': graphql, accept },
      });
      expect(answer.status, accept).toBe(accept === 'application/json' ? 200 : 403);
      // The tenant asked for, as REST's path names it, not the key's own.
      expect(completed(graphql), accept).toMatchObject({ level: 40, reason: 'forbidden', tenant: tenantB, operation: 'query users' });
      expect(answer.body.data ?? null).toBeNull();
    }
    // The same key in its own tenant is an ordinary line.
    const own = randomUUID();
    expect((await keyA.get(`/applications/${app.root.applicationId}/tenants/${tenantA}/users`, { headers: { 'x-request-id': own } })).status).toBe(200);
    expect(completed(own)).toMatchObject({ level: 30, status: 200, tenant: tenantA });
    // An application-wide key's GraphQL request names the tenant it asked for, as its REST request does.
    const wide = randomUUID();
    const listed = await app.http.request('POST', '/graphql', { body: { query: `{ users(tenantId: "${tenantB}") { data { id } } }` }, headers: { 'x-request-id': wide } });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(completed(wide)).toMatchObject({ level: 30, status: 200, tenant: tenantB, operation: 'query users' });
  });

  it('of an OAuth endpoint or sign-in page says the application and tenant of its client', async () => {
    const tenant = await app.createTenant('Logged OAuth');
    const client = await createTestClient(app, { tenantId: tenant, permissions: ['users:read'] });
    const requestId = randomUUID();
    const answer = await postForm(`${app.baseUrl}/oauth2/token`, { grant_type: 'client_credentials' }, { authorization: basicAuth(client.clientId, client.clientSecret!), 'x-request-id': requestId });
    expect(answer.status).toBe(200);
    // Its operation is the route it took, as a pattern (the OP's endpoints and the pages name none of their own).
    expect(completed(requestId)).toMatchObject({ status: 200, application: app.root.applicationId, tenant, operation: 'POST /oauth2/token' });
    const page = randomUUID();
    const tenantPath = `/t/${randomUUID()}/account`;
    expect((await fetch(`${app.baseUrl}${tenantPath}`, { headers: { 'x-request-id': page } })).status).toBe(404);
    expect(completed(page)).toMatchObject({ status: 404, operation: 'GET /t/:tenantRef/account' });
  });

  it('of an OAuth endpoint’s error answer says its error code and description', async () => {
    const client = await createTestClient(app, { permissions: ['users:read'] });
    const token = `${app.baseUrl}/oauth2/token`;
    const requestId = randomUUID();
    const refused = await postForm(token, { grant_type: 'client_credentials' }, { authorization: basicAuth(client.clientId, `${client.clientSecret!}x`), 'x-request-id': requestId });
    expect(refused.status).toBe(401);
    expect(completed(requestId)).toMatchObject({ level: 30, status: 401, reason: refused.body.error, refusal: refused.body.error_description });
    expect(refused.body.error).toBe('invalid_client');
    const revocation = randomUUID();
    const unsupported = await postForm(`${app.baseUrl}/oauth2/revoke`, {}, { authorization: basicAuth(client.clientId, client.clientSecret!), 'x-request-id': revocation });
    expect(unsupported.status).toBe(400);
    expect(completed(revocation)).toMatchObject({ level: 30, status: 400, reason: unsupported.body.error, refusal: unsupported.body.error_description });
  });

  it('of a path the router cannot read is written as any other, its 429s warnings', async () => {
    const logged: string[] = [];
    const limited = await startTestApp({ rateLimit: { max: 1, windowMs: 60_000, redisPrefix: `gatehouse-test-${randomUUID()}-` } }, { logStream: { write: (line) => logged.push(line) } });
    try {
      const ids = [randomUUID(), randomUUID()];
      for (const [i, requestId] of ids.entries()) {
        expect((await fetch(`${limited.baseUrl}/%zz/1`, { headers: { 'x-request-id': requestId } })).status).toBe(i === 0 ? 404 : 429);
      }
      const completedOf = (requestId: string) =>
        logged.map((line) => JSON.parse(line) as LogLine).filter((line) => line.reqId === requestId && line.msg === 'request completed');
      expect(completedOf(ids[0]!)).toEqual([expect.objectContaining({ level: 30, status: 404, durationMs: expect.any(Number), reason: 'not_found' })]);
      expect(completedOf(ids[1]!)).toEqual([expect.objectContaining({ level: 40, status: 429, reason: 'rate_limited' })]);
    } finally {
      await limited.close();
    }
  });

  it('of a 401 is a warning once an address keeps sending wrong credentials', async () => {
    const ids = [];
    for (let i = 0; i < 12; i += 1) {
      const requestId = randomUUID();
      ids.push(requestId);
      expect((await app.as({ apiKey: `ghk_${randomUUID()}` }).get('/users', { headers: { 'x-request-id': requestId } })).status).toBe(401);
    }
    const lines = ids.map(completed);
    expect(lines.at(-1)).toMatchObject({ level: 40, status: 401, reason: 'repeated_unauthenticated' });
    expect(lines.every((line) => line['principal'] === undefined)).toBe(true);
  });

  it('of a 404 is a warning too once an address keeps sending wrong credentials to paths no route takes', async () => {
    const ids = [];
    for (let i = 0; i < 12; i += 1) {
      const requestId = randomUUID();
      ids.push(requestId);
      expect((await app.as({ apiKey: `ghk_${randomUUID()}` }).get('/nope', { headers: { 'x-request-id': requestId } })).status).toBe(404);
    }
    expect(ids.map(completed).at(-1)).toMatchObject({ level: 40, status: 404, reason: 'repeated_unauthenticated' });
  });
});
