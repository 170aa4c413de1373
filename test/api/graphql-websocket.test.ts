import type { IncomingHttpHeaders } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ensureConsoles } from '../../src/domain/console/console.ts';
import { JSON_BODY_MAX_DEPTH, JSON_BODY_MAX_VALUES } from '../../src/http/json-body.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import {
  acknowledgement,
  AUDIT_SUBSCRIPTION,
  eventually,
  openGraphQLSocket,
  subscribedRecords,
  type GraphQLSocket,
  type SocketSubscription,
} from '../support/graphql-socket.ts';
import { basicAuth, postForm } from '../support/oauth.ts';
import { secondInstance, TWO_INSTANCES } from '../support/second-instance.ts';
import { openSse, type SseStream } from '../support/sse.ts';
import { createUserThrough } from '../support/users.ts';

/**
 * GraphQL subscriptions over WebSocket (graphql-ws, an Upgrade of GET /graphql): the SSE subscription's checks,
 * results and errors, its credentials from `connection_init` or the upgrade, refused with graphql-ws's close codes
 * (and closed so once they end, on any instance);
 * subscriptions only; the streams a credential holds bounded across both transports; closed by the server's shutdown.
 */
let app: TestApp;
let wsUrl: string;
let tenantA: string;
const sockets: GraphQLSocket[] = [];
const streams: SseStream[] = [];

beforeAll(async () => {
  app = await startTestApp({ auditStreamHeartbeatMs: 100 });
  wsUrl = `${app.baseUrl.replace(/^http/, 'ws')}/graphql`;
  tenantA = await app.createTenant('Socket A');
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await Promise.all(sockets.map((socket) => socket.dispose()));
  await app?.close();
});

const socketOf = (connectionParams?: Record<string, unknown>, url = wsUrl, headers?: Record<string, string>) => {
  const socket = openGraphQLSocket(url, { ...(connectionParams === undefined ? {} : { connectionParams }), ...(headers === undefined ? {} : { headers }) });
  sockets.push(socket);
  return socket;
};
const keyed = (apiKey = app.root.apiKey, url = wsUrl) => socketOf({ 'X-API-Key': apiKey }, url);
const sse = async (variables: Record<string, unknown>, apiKey = app.root.apiKey, base = app.baseUrl, query = AUDIT_SUBSCRIPTION) => {
  const stream = await openSse(`${base}/graphql`, { 'x-api-key': apiKey }, { query, variables });
  streams.push(stream);
  return stream;
};
const sseResults = (stream: SseStream) => stream.events.filter((event) => event.event === 'next').map((event) => JSON.parse(event.data) as unknown);
const hasTarget = (subscription: SocketSubscription, id: string) => subscribedRecords(subscription.results).some((record) => record.target.id === id);
/** The newest audit record: a subscription `after` it misses nothing committed once it was read, however late it starts. */
const newestRecord = async (client = app.http) => {
  const page = await client.get('/audit-logs?pageSize=1');
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  return page.body.data[0].id as string;
};
const apiKey = async (permissions: string[], tenantId?: string) => {
  const path = tenantId === undefined ? '/api-keys' : `/applications/${app.root.applicationId}/tenants/${tenantId}/api-keys`;
  const created = await app.http.post(path, { name: `socket ${permissions.join(' ')}`, permissions });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.key.id as string, secret: created.body.secret as string };
};

describe('subscription auditLogs over WebSocket', () => {
  it('sends each record as it commits, as the same `next` results as over Server-Sent Events', async () => {
    const after = await newestRecord();
    const variables = { appId: app.root.applicationId, tenantId: tenantA, after };
    const socket = keyed();
    const subscription = socket.subscribe(AUDIT_SUBSCRIPTION, variables);
    const stream = await sse(variables);
    const userId = await app.createUser('socket-first@example.com', tenantA);
    await eventually(() => hasTarget(subscription, userId), 'the user.created record');
    await stream.until((s) => s.events.some((event) => event.data.includes(userId)), 'the record over SSE');
    expect(socket.acknowledged).toBe(true);
    const record = subscribedRecords(subscription.results).find((candidate) => candidate.target.id === userId)!;
    expect(record).toEqual({ id: expect.any(String), action: 'user.created', tenantId: tenantA, target: { id: userId } });
    const count = subscription.results.length;
    expect(sseResults(stream).slice(0, count)).toEqual(subscription.results);
    expect(subscription.ended).toBe(false);
  });

  it('takes a Bearer token from connection_init (its names in any case), else the upgrade’s own headers', async () => {
    const after = await newestRecord();
    const token = await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['audit_logs:read'] });
    const bearer = socketOf({ AUTHORIZATION: `Bearer ${token}` }).subscribe(AUDIT_SUBSCRIPTION, { after });
    const headers = socketOf(undefined, wsUrl, { 'x-api-key': app.root.apiKey }).subscribe(AUDIT_SUBSCRIPTION, { after });
    const userId = await app.createUser('socket-headers@example.com');
    await eventually(() => hasTarget(bearer, userId), 'the record, over a socket authenticated by a Bearer token');
    await eventually(() => hasTarget(headers, userId), 'the record, over a socket authenticated by its headers');
  });

  it('closes a connection without working credentials with 4403, delivering nothing', async () => {
    for (const [params, reason] of [
      [undefined, /^unauthenticated: Missing credentials/],
      [{ 'X-API-Key': 'gh_not_a_key' }, /^unauthenticated: Invalid API key/],
      [{ authorization: 'Basic dXNlcjpwYXNz' }, /^unauthenticated: The Authorization header must be a Bearer token/],
      [{ 'X-API-Key': app.root.apiKey, 'x-api-key': app.root.apiKey }, /^unauthenticated: connection_init/],
    ] as const) {
      const socket = socketOf(params);
      const subscription = socket.subscribe(AUDIT_SUBSCRIPTION);
      await eventually(() => socket.closed !== undefined, 'the close');
      expect(socket.closed?.code, JSON.stringify(params)).toBe(4403);
      expect(socket.closed?.reason).toMatch(reason);
      expect(socket.acknowledged).toBe(false);
      expect(subscription.results).toEqual([]);
    }
  });

  it('refuses what the SSE subscription refuses, with the same errors, on a connection that stays open', async () => {
    const narrow = await apiKey(['users:read']);
    const refusals: [Record<string, unknown>, string, string, Record<string, unknown>][] = [
      // No audit_logs:read.
      [{}, AUDIT_SUBSCRIPTION, narrow.secret, { code: 'forbidden', status: 403 }],
      // An invalid operation: an unknown field, two root fields, a variable of the wrong type, a record of no stream.
      [{}, 'subscription { auditLogs { nope } }', app.root.apiKey, { code: 'validation_error', status: 422 }],
      [{}, 'subscription { a: auditLogs { id } b: auditLogs { id } }', app.root.apiKey, { code: 'validation_error', status: 422 }],
      // Its only root field skipped: none left (graphql-js's own rule counts more than one only).
      [{}, 'subscription { auditLogs @skip(if: true) { id } }', app.root.apiKey, { code: 'validation_error', status: 422 }],
      [{ no: false }, 'subscription($no: Boolean!) { ... on Subscription { auditLogs @include(if: $no) { id } } }', app.root.apiKey, { code: 'validation_error', status: 422 }],
      [{ tenantId: 'x' }, AUDIT_SUBSCRIPTION, app.root.apiKey, { code: 'validation_error', status: 422, field: 'tenantId' }],
      [{ after: '01900000-0000-7000-8000-000000000000' }, AUDIT_SUBSCRIPTION, app.root.apiKey, { code: 'validation_error', status: 422, field: 'after' }],
    ];
    for (const [variables, query, key, extensions] of refusals) {
      const socket = keyed(key);
      const subscription = socket.subscribe(query, variables);
      await eventually(() => subscription.ended, `the refusal of ${query} ${JSON.stringify(variables)}`);
      expect(subscription.errors?.[0]?.extensions, `${query} ${JSON.stringify(socket.closed)}`).toMatchObject(extensions);
      const overSse = await sse(variables, key, app.baseUrl, query);
      expect(overSse.status).toBe(extensions['status']);
      expect(subscription.errors).toEqual((overSse.body as { errors: unknown[] }).errors);
      expect(subscription.results).toEqual([]);
      expect(socket.closed).toBeUndefined();
    }
    // A document that does not parse, as a query's refusal over HTTP reads.
    const socket = keyed();
    const unparsed = socket.subscribe('subscription { auditLogs { id ');
    await eventually(() => unparsed.ended, 'the syntax error');
    expect(unparsed.errors?.[0]).toMatchObject({ message: expect.stringMatching(/^Syntax Error/), extensions: { code: 'validation_error', status: 422 } });
    expect((await app.http.graphql('subscription { auditLogs { id ')).body.errors).toEqual(unparsed.errors);
  });

  it('refuses queries and mutations: they are served over HTTP', async () => {
    const socket = keyed();
    const create = `mutation M { createTenant(appId: "${app.root.applicationId}", input: { name: "over a socket" }) { id } }`;
    for (const query of ['query Q { version }', create]) {
      const operation = socket.subscribe(query);
      await eventually(() => operation.ended, `the refusal of ${query}`);
      expect(operation.errors).toEqual([
        {
          message: 'Only subscriptions are served over WebSocket: send queries and mutations as POST /graphql',
          extensions: { code: 'validation_error', status: 422, field: 'query' },
        },
      ]);
      expect(operation.results).toEqual([]);
    }
    const tenants = await app.http.get(`/applications/${app.root.applicationId}/tenants?pageSize=100`);
    expect(tenants.body.data.some((tenant: { name: string }) => tenant.name === 'over a socket')).toBe(false);
  });

  it('closes a connection with 4403 once its key is revoked, idle or running a subscription: nothing committed after reaches it', async () => {
    const key = await apiKey(['audit_logs:read'], tenantA);
    const after = await newestRecord();
    const socket = keyed(key.secret);
    const subscription = socket.subscribe(AUDIT_SUBSCRIPTION, { after });
    const idle = keyed(key.secret);
    const bystander = keyed();
    const witness = bystander.subscribe(AUDIT_SUBSCRIPTION, { appId: app.root.applicationId, tenantId: tenantA, after });
    await Promise.all([acknowledgement(idle), acknowledgement(bystander)]);
    const before = await app.createUser('socket-before@example.com', tenantA);
    await eventually(() => hasTarget(subscription, before), 'the record written before the revocation');

    expect((await app.http.delete(`/api-keys/${key.id}`)).status).toBeLessThan(300);
    for (const revoked of [socket, idle]) {
      await eventually(() => revoked.closed !== undefined, 'the revoked key’s close');
      expect(revoked.closed).toEqual({ code: 4403, reason: expect.stringMatching(/^unauthenticated: Invalid API key/) });
    }
    expect(subscription.ended).toBe(true);
    const written = await app.createUser('socket-after@example.com', tenantA);
    await eventually(() => hasTarget(witness, written), 'the record written after the revocation');
    expect(hasTarget(subscription, written)).toBe(false);
    // Another key's connection is left alone.
    expect(bystander.closed).toBeUndefined();
  });

  it('ends a subscription once its organization is deactivated, and refuses new ones', async () => {
    const other = await app.bootstrapAnother();
    const socket = keyed(other.apiKey);
    const subscription = socket.subscribe(AUDIT_SUBSCRIPTION, { after: await newestRecord(app.as({ apiKey: other.apiKey })) });
    // Running before the deactivation (an acknowledged connection may not have started it yet on a loaded machine).
    const witness = await app.createTenant('Socket witness', other);
    await eventually(() => hasTarget(subscription, witness), 'a record while the organization is active');
    const seen = subscription.results.length;
    const deactivated = await app.as({ apiKey: other.apiKey }).post(`/organizations/${other.organizationId}/deactivate`);
    expect(deactivated.status).toBe(200);
    // The deactivation's own record is the next event: the credentials, asked again, are refused before it is sent.
    await eventually(() => subscription.completed, 'the deactivated organization’s subscription completed');
    // Its last result says why it ends.
    expect(subscription.results).toHaveLength(seen + 1);
    expect(subscription.results.at(-1)).toEqual({ errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'organization_deactivated' }) })] });
    const refused = socket.subscribe(AUDIT_SUBSCRIPTION);
    await eventually(() => refused.ended, 'the refusal');
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'organization_deactivated', status: 403 });
    expect(refused.results).toEqual([]);
  });
});

/**
 * A connection's credentials are asked again from the database at each invalidation naming a record they stand on (the
 * key, the user, the token's grant or client, the tenant, the application): the connection closes with 4403 once they
 * no longer work, on whichever instance it is.
 */
describe('a connection whose credentials end', () => {
  const bearerSocket = async (userId: string, tenantId?: string) =>
    socketOf({ Authorization: `Bearer ${await app.mintAccessToken({ sub: userId, app_id: app.root.applicationId, ...(tenantId === undefined ? {} : { tenant_id: tenantId }) })}` });
  const expectRefused = async (socket: GraphQLSocket, reason: RegExp) => {
    await eventually(() => socket.closed !== undefined, 'the close');
    expect(socket.closed).toEqual({ code: 4403, reason: expect.stringMatching(reason) });
  };
  const TOKEN_REFUSED = /^unauthenticated: The access token’s credential, user or application is no longer valid/;

  it('closes a user’s token’s connection once the user is suspended or deleted, and leaves it open while a change keeps them', async () => {
    const suspended = await createUserThrough(app.http, { email: 'socket-suspended@example.com' });
    const deleted = await createUserThrough(app.http, { email: 'socket-deleted@example.com' });
    const renamed = await createUserThrough(app.http, { email: 'socket-renamed@example.com' });
    const [onSuspended, onDeleted, onRenamed] = [await bearerSocket(suspended), await bearerSocket(deleted), await bearerSocket(renamed)];
    await Promise.all([onSuspended, onDeleted, onRenamed].map(acknowledgement));

    expect((await app.http.patch(`/users/${renamed}`, { name: 'Still Here' })).status).toBe(200);
    expect((await app.http.post(`/users/${suspended}/suspend`)).status).toBe(200);
    await expectRefused(onSuspended, TOKEN_REFUSED);
    expect((await app.http.delete(`/users/${deleted}`)).status).toBe(204);
    await expectRefused(onDeleted, TOKEN_REFUSED);
    // Its user changed, not ended: asked again, the token still works, and the connection still serves subscriptions.
    expect(onRenamed.closed).toBeUndefined();
    const refused = onRenamed.subscribe(AUDIT_SUBSCRIPTION);
    await eventually(() => refused.ended, 'the refusal of a subscription the user may not run');
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'forbidden', status: 403 });
    expect(onRenamed.closed).toBeUndefined();
  });

  it('closes a tenant’s token’s connection once the user leaves that tenant; their application-wide token’s stays', async () => {
    const tenant = await app.createTenant('Socket membership');
    const userId = await createUserThrough(app.http, { email: 'socket-member@example.com', tenantId: tenant });
    const [inTenant, appWide] = [await bearerSocket(userId, tenant), await bearerSocket(userId)];
    await Promise.all([acknowledgement(inTenant), acknowledgement(appWide)]);
    expect((await app.http.delete(`/applications/${app.root.applicationId}/tenants/${tenant}/users/${userId}`)).status).toBe(204);
    await expectRefused(inTenant, TOKEN_REFUSED);
    expect(appWide.closed).toBeUndefined();
  });

  it('closes an M2M credential’s token’s connection once the credential is revoked', async () => {
    const created = await app.http.post('/m2m-credentials', { name: 'socket m2m', permissions: ['audit_logs:read'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const granted = await postForm(`${app.baseUrl}/oauth2/token`, { grant_type: 'client_credentials' }, { authorization: basicAuth(created.body.clientId, created.body.clientSecret) });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    const socket = socketOf({ Authorization: `Bearer ${granted.body.access_token}` });
    await acknowledgement(socket);
    expect((await app.http.delete(`/m2m-credentials/${created.body.id}`)).status).toBe(204);
    await expectRefused(socket, TOKEN_REFUSED);
  });

  it('closes a connection once its key runs out, though no change announces it', async () => {
    const expiresAt = new Date(Date.now() + 5_000).toISOString();
    const created = await app.http.post('/api-keys', { name: 'socket expiring', permissions: ['users:read'], expiresAt });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const socket = keyed(created.body.secret as string);
    await acknowledgement(socket);
    expect(socket.closed).toBeUndefined();
    await expectRefused(socket, /^unauthenticated: /);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresAt));
  });

  it('closes the connections of a deleted tenant’s key and of a deleted application’s key', async () => {
    const tenant = await app.createTenant('Socket deleted tenant');
    const tenantKey = await apiKey(['users:read'], tenant);
    const other = await app.bootstrapAnother();
    const [onTenant, onOther] = [keyed(tenantKey.secret), keyed(other.apiKey)];
    await Promise.all([acknowledgement(onTenant), acknowledgement(onOther)]);
    expect((await app.http.delete(`/applications/${app.root.applicationId}/tenants/${tenant}`)).status).toBe(204);
    await expectRefused(onTenant, /^unauthenticated: Invalid API key/);
    expect((await app.as({ apiKey: other.apiKey }).delete(`/applications/${other.applicationId}`)).status).toBe(204);
    await expectRefused(onOther, /^unauthenticated: Invalid API key/);
  });

  describe('an operator’s, acting on an application with X-Gatehouse-Application', () => {
    let consoleId: string;
    let appAdmin: string;
    let firstOperator: string;
    const tokenOf = (userId: string) => app.mintAccessToken({ sub: userId, app_id: consoleId });
    /** A console user made an operator (their own role assignment in the root application, application-wide). */
    const operator = async (email: string) => {
      // Made through the console, by its first user (its app_admin), as operators are.
      const made = await app.as({ bearer: await tokenOf(firstOperator) }).post('/users', { email });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const userId = made.body.id as string;
      const assigned = await app.http.post('/role-assignments', { subject: { type: 'operator', id: userId }, roleId: appAdmin });
      expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
      return { userId, assignmentId: assigned.body.id as string };
    };
    const onApplication = (bearer: string) => socketOf({ Authorization: `Bearer ${bearer}`, 'X-Gatehouse-Application': app.root.applicationId });

    beforeAll(async () => {
      await ensureConsoles(app.gatehouse.services.orm, app.gatehouse.services.config.publicUrl, randomUUID());
      [{ id: consoleId }] = (await app.sql<{ id: string }>('select id from application where organization_id = ? and console', [app.root.organizationId])) as [{ id: string }];
      [{ id: firstOperator }] = (await app.sql<{ id: string }>('select id from app_user where application_id = ?', [consoleId])) as [{ id: string }];
      appAdmin = ((await app.http.get('/roles')).body.data as { id: string; key: string }[]).find((role) => role.key === 'app_admin')!.id;
    });

    it('closes once their last role in the application is removed, and refuses their HTTP requests; another operator’s removal leaves it open', async () => {
      const [leaving, staying, bystander] = [await operator('socket-leaving@ops.example'), await operator('socket-staying@ops.example'), await operator('socket-bystander@ops.example')];
      const bearer = await tokenOf(leaving.userId);
      const [onLeaving, onStaying] = [onApplication(bearer), onApplication(await tokenOf(staying.userId))];
      await Promise.all([acknowledgement(onLeaving), acknowledgement(onStaying)]);
      // `version` takes no permission: only the operator's authentication can refuse it.
      const version = () => app.as({ bearer }).request('POST', '/graphql', { body: { query: '{ version }' }, headers: { 'x-gatehouse-application': app.root.applicationId } });
      expect((await version()).status).toBe(200);

      // A change of the application's roles that leaves both managing it, then the end of one's management.
      expect((await app.http.delete(`/role-assignments/${bystander.assignmentId}`)).status).toBe(204);
      expect((await app.http.delete(`/role-assignments/${leaving.assignmentId}`)).status).toBe(204);
      await expectRefused(onLeaving, /^forbidden: /);
      const refused = await version();
      expect(refused.status, JSON.stringify(refused.body)).toBe(403);
      expect(refused.body.errors[0].extensions.code).toBe('forbidden');
      // Asked again after both changes, the other operator's connection still serves what they may read.
      const subscription = onStaying.subscribe(AUDIT_SUBSCRIPTION, { after: await newestRecord() });
      const userId = await createUserThrough(app.http, { email: 'socket-operator-sees@example.com' });
      await eventually(() => hasTarget(subscription, userId) || subscription.ended, 'the user.created record on the staying operator’s connection');
      expect(subscription.errors).toBeUndefined();
      expect(onStaying.closed).toBeUndefined();
    });
  });

  describe.runIf(TWO_INSTANCES)('on another instance (Redis)', () => {
    const second = secondInstance(() => app);
    const secondWs = () => `${second.url().replace(/^http/, 'ws')}/graphql`;

    it('closes a connection to the other instance once its key is revoked here; another key’s stays', async () => {
      const key = await apiKey(['audit_logs:read']);
      const [revoked, bystander] = [keyed(key.secret, secondWs()), keyed(app.root.apiKey, secondWs())];
      const subscription = revoked.subscribe(AUDIT_SUBSCRIPTION, { after: await newestRecord() });
      await Promise.all([acknowledgement(revoked), acknowledgement(bystander)]);
      expect((await app.http.delete(`/api-keys/${key.id}`)).status).toBe(204);
      await expectRefused(revoked, /^unauthenticated: Invalid API key/);
      expect(subscription.ended).toBe(true);
      expect(bystander.closed).toBeUndefined();
    });

    it('closes a user’s token’s connection to the other instance once the user is suspended here', async () => {
      const userId = await createUserThrough(app.http, { email: 'socket-elsewhere@example.com' });
      const socket = socketOf({ Authorization: `Bearer ${await app.mintAccessToken({ sub: userId, app_id: app.root.applicationId })}` }, secondWs());
      await acknowledgement(socket);
      expect((await app.http.post(`/users/${userId}/suspend`)).status).toBe(200);
      await expectRefused(socket, TOKEN_REFUSED);
    });
  });
});

/** A bare WebSocket to `url`: the upgrade's answer headers, and how it closed. */
async function rawSocket(url: string, protocols: string[], headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, protocols, { headers });
  const upgraded = new Promise<IncomingHttpHeaders>((resolve, reject) => {
    socket.once('upgrade', (response) => resolve(response.headers));
    socket.once('unexpected-response', (_request, response) => reject(new Error(`refused upgrade: ${response.statusCode}`)));
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
  socket.on('error', () => undefined);
  return { socket, headers: await upgraded, closed };
}

describe('the protocol’s own refusals', () => {
  it('closes a connection that sends no connection_init within 3 s (4408), or that asks for no graphql-transport-ws (4406)', async () => {
    const silent = await rawSocket(wsUrl, ['graphql-transport-ws']);
    const started = Date.now();
    expect(await silent.closed).toEqual({ code: 4408, reason: 'Connection initialisation timeout' });
    expect(Date.now() - started).toBeLessThan(5_000);
    const unnamed = await rawSocket(wsUrl, []);
    expect((await unnamed.closed).code).toBe(4406);
  });

  it('closes a connection sending a message only a server sends (4400), or a subscription id again, however long (4409)', async () => {
    const early = await rawSocket(wsUrl, ['graphql-transport-ws']);
    early.socket.send(JSON.stringify({ type: 'next', id: '1', payload: {} }));
    expect((await early.closed).code).toBe(4400);
    const { socket, closed } = await rawSocket(wsUrl, ['graphql-transport-ws'], { 'x-api-key': app.root.apiKey });
    const acknowledged = new Promise((resolve) => socket.once('message', resolve));
    socket.send(JSON.stringify({ type: 'connection_init' }));
    await acknowledged;
    const subscribe = JSON.stringify({ type: 'subscribe', id: 'x'.repeat(200), payload: { query: AUDIT_SUBSCRIPTION } });
    socket.send(subscribe);
    socket.send(subscribe);
    expect((await closed).code).toBe(4409);
  });

  it('closes a connection whose message holds more values, nests deeper than a request body may or repeats a key (4400), before it is parsed or answered', async () => {
    const message = (socket: WebSocket) => new Promise<unknown>((resolve) => socket.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8')))));
    const answer = async (sent: string) => {
      const { socket, closed } = await rawSocket(wsUrl, ['graphql-transport-ws']);
      const pong = message(socket);
      socket.send(JSON.stringify({ type: 'ping', payload: { small: true } }));
      expect(await pong).toEqual({ type: 'pong', payload: { small: true } });
      socket.send(sent);
      return Promise.race([closed, message(socket)]);
    };
    // Each held the event loop for hundreds of milliseconds (JSON.parse, then the pong's JSON.stringify), unbounded in number.
    const values = Object.fromEntries(Array.from({ length: JSON_BODY_MAX_VALUES }, (_, index) => [`k${index}`, 0]));
    expect(await answer(JSON.stringify({ type: 'ping', payload: values }))).toEqual({
      code: 4400,
      reason: `validation_error: The message holds more than ${JSON_BODY_MAX_VALUES} values`,
    });
    const deep = `{"type":"ping","payload":${'{"a":'.repeat(JSON_BODY_MAX_DEPTH)}0${'}'.repeat(JSON_BODY_MAX_DEPTH)}}`;
    expect(await answer(deep)).toEqual({ code: 4400, reason: `validation_error: The message nests deeper than ${JSON_BODY_MAX_DEPTH} levels` });
    // Which `type` would count is the parser's choice: none is made.
    expect(await answer('{"type":"ping","type":"subscribe"}')).toEqual({ code: 4400, reason: 'validation_error: The message repeats the key "type"' });
    expect(await answer('{"type":"ping","payload":{"a":1,"a":2}}')).toEqual({ code: 4400, reason: 'validation_error: The message repeats the key "a"' });
  });

  it('takes no message larger than a request body (1009), and no upgrade on another path (404)', async () => {
    const { socket, closed } = await rawSocket(wsUrl, ['graphql-transport-ws']);
    socket.send(JSON.stringify({ type: 'connection_init', payload: { padding: 'x'.repeat(1024 * 1024) } }));
    expect((await closed).code).toBe(1009);
    await expect(rawSocket(`${app.baseUrl.replace(/^http/, 'ws')}/api/v1/users`, ['graphql-transport-ws'], { 'x-api-key': app.root.apiKey })).rejects.toThrow(
      'refused upgrade: 404',
    );
  });
});

describe('a credential’s streams, its rate limit, the log and the shutdown', () => {
  let own: TestApp;
  let ownUrl: string;
  let stopped = false;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    own = await startTestApp(
      { auditStreamHeartbeatMs: 100, streamsPerCredential: 2 },
      { logStream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } },
    );
    ownUrl = `${own.baseUrl.replace(/^http/, 'ws')}/graphql`;
  });
  afterAll(async () => {
    if (!stopped) await own?.close();
  });
  /** Each test's own credential: streams an earlier test left open (failing before it closed them), or closed but not
   *  yet seen closed by the server, hold none of the two this one may open. */
  const ownKey = async () => {
    const created = await own.http.post('/api-keys', { name: 'socket streams', permissions: ['audit_logs:read', 'users:read', 'users:write'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.secret as string;
  };

  it('counts a connection and each subscription as streams of the credential, SSE streams among them', async () => {
    const key = await ownKey();
    const after = await newestRecord(own.http);
    const stream = await sse({}, key, own.baseUrl);
    expect(stream.status).toBe(200);
    // The connection and its first subscription hold one stream: with the SSE one, both the credential may hold.
    const socket = keyed(key, ownUrl);
    const first = socket.subscribe(AUDIT_SUBSCRIPTION, { after });
    await acknowledgement(socket);
    const second = socket.subscribe(AUDIT_SUBSCRIPTION, { after });
    await eventually(() => second.ended, 'the second subscription’s refusal');
    expect(second.errors?.[0]?.extensions).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(second.results).toEqual([]);
    const another = keyed(key, ownUrl);
    await eventually(() => another.closed !== undefined, 'the refused connection');
    expect(another.closed).toMatchObject({ code: 1013, reason: expect.stringMatching(/^rate_limited: These credentials hold 2 streams open/) });
    expect((await sse({}, key, own.baseUrl)).status).toBe(429);
    expect((await openSse(`${own.baseUrl}/api/v1/audit-logs/stream`, { 'x-api-key': key })).status).toBe(429);

    // A stream closed frees its place, once the server has seen it close: a second subscription then takes it.
    stream.close();
    const userId = await own.createUser('streams@example.com');
    let third = socket.subscribe(AUDIT_SUBSCRIPTION, { after });
    await eventually(() => {
      if (third.ended) third = socket.subscribe(AUDIT_SUBSCRIPTION, { after });
      return hasTarget(third, userId);
    }, 'the record on a second subscription');
    await eventually(() => hasTarget(first, userId), 'the record on the first');
    expect(first.ended || third.ended).toBe(false);
    await socket.dispose();
  });

  it('counts the connection and each subscription as requests of the credential in the rate limit', async () => {
    const key = await ownKey();
    const client = own.as({ apiKey: key });
    const remaining = async () => Number((await client.get('/users?pageSize=1')).headers.get('x-ratelimit-remaining'));
    const before = await remaining();
    const socket = keyed(key, ownUrl);
    const subscription = socket.subscribe(AUDIT_SUBSCRIPTION);
    await acknowledgement(socket);
    const created = await client.post('/users', { email: 'counted@example.com' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const userId = created.body.id as string;
    await eventually(() => hasTarget(subscription, userId), 'the record');
    // The connection, its subscription, the user's creation, and this request.
    expect(await remaining()).toBe(before - 4);
    await socket.dispose();
  });

  it('counts each message as a request, pings, pongs and completes too, or one socket could have messages of a request body’s size parsed without end', async () => {
    const key = await ownKey();
    const remaining = async () => Number((await own.as({ apiKey: key }).get('/users?pageSize=1')).headers.get('x-ratelimit-remaining'));
    const before = await remaining();
    const { socket } = await rawSocket(ownUrl, ['graphql-transport-ws'], { 'x-api-key': key });
    const messages: unknown[] = [];
    socket.on('message', (data: Buffer) => void messages.push(JSON.parse(data.toString('utf8'))));
    socket.send(JSON.stringify({ type: 'connection_init' }));
    await eventually(() => messages.length === 1, 'the acknowledgement');
    socket.send(JSON.stringify({ type: 'complete', id: 'x'.repeat(1000) }));
    for (const type of ['pong', 'ping', 'ping']) socket.send(JSON.stringify({ type, payload: { padding: 'x'.repeat(1000) } }));
    await eventually(() => messages.length === 3, 'the pongs');
    // The connection, its complete, its pong and its two pings, and this request.
    expect(await remaining()).toBe(before - 6);
    socket.close();
  });

  it('closes a connection once its messages are over the rate limit (1013), before connection_init the upgrade’s address’s', async () => {
    const limited = await startTestApp({ rateLimit: { max: 4, windowMs: 60_000, redisPrefix: `gatehouse-test-${randomUUID()}-` } });
    const limitedUrl = `${limited.baseUrl.replace(/^http/, 'ws')}/graphql`;
    const overLimit = { code: 1013, reason: expect.stringMatching(/^rate_limited: Rate limit of 4 requests exceeded/) };
    try {
      // The connection is the credential's first; a subscription refused for the limit closes it too, as a connection is.
      const connected = await rawSocket(limitedUrl, ['graphql-transport-ws'], { 'x-api-key': limited.root.apiKey });
      const acknowledged = new Promise((resolve) => connected.socket.once('message', resolve));
      connected.socket.send(JSON.stringify({ type: 'connection_init' }));
      await acknowledged;
      for (let sent = 0; sent < 3; sent++) connected.socket.send(JSON.stringify({ type: 'complete', id: String(sent) }));
      connected.socket.send(JSON.stringify({ type: 'subscribe', id: 'over', payload: { query: AUDIT_SUBSCRIPTION } }));
      expect(await connected.closed).toMatchObject(overLimit);

      // Before connection_init, against the upgrade's address.
      const { socket, closed } = await rawSocket(limitedUrl, ['graphql-transport-ws']);
      const pongs: unknown[] = [];
      socket.on('message', (data: Buffer) => void pongs.push(JSON.parse(data.toString('utf8'))));
      // The upgrades are two of four; a connection's first message takes connection_init's place, counted with the connection.
      for (let sent = 0; sent < 10; sent++) socket.send(JSON.stringify({ type: 'ping' }));
      expect(await closed).toMatchObject(overLimit);
      expect(pongs).toHaveLength(3);
    } finally {
      await limited.close();
    }
  });

  it('logs the upgrade as a request once its socket closes: status 101, the close code, whose; no secret', async () => {
    const mark = lines.length;
    const key = await ownKey();
    const socket = keyed(key, ownUrl);
    socket.subscribe(AUDIT_SUBSCRIPTION);
    await acknowledgement(socket);
    await socket.dispose();
    const refused = keyed('gh_not_a_key', ownUrl);
    await eventually(() => refused.closed !== undefined, 'the refused connection');
    // This test's: an earlier test's connection may have had a subscription refused (a warning).
    const upgrades = () => lines.slice(mark).filter((line) => line['msg'] === 'request completed' && line['status'] === 101);
    await eventually(() => upgrades().some((line) => line['closeCode'] === 4403) && upgrades().some((line) => line['closeCode'] === 1000), 'both lines');
    const accepted = upgrades().find((line) => line['closeCode'] === 1000)!;
    expect(accepted).toMatchObject({ level: 30, application: own.root.applicationId, principal: { kind: 'api_key' } });
    const refusal = upgrades().find((line) => line['closeCode'] === 4403)!;
    expect(refusal).toMatchObject({ reason: 'unauthenticated', refusal: 'Invalid API key' });
    expect(refusal['durationMs']).toEqual(expect.any(Number));
    const logged = JSON.stringify(lines);
    expect(logged).not.toContain(key);
    expect(logged).not.toContain('gh_not_a_key');

    // The 101 carries the request id, as every answer; the line is the request's.
    const traced = await rawSocket(ownUrl, ['graphql-transport-ws'], { 'x-request-id': 'socket-upgrade-1' });
    expect(traced.headers['x-request-id']).toBe('socket-upgrade-1');
    traced.socket.close(1000);
    await traced.closed;
    await eventually(() => upgrades().some((line) => line['reqId'] === 'socket-upgrade-1'), 'the traced upgrade’s line');
  });

  it('logs connections refused for wrong credentials as a burst of 401s is logged: a warning once an address keeps trying', async () => {
    const mark = lines.length;
    for (let i = 0; i < 12; i += 1) {
      const refused = keyed(`gh_guess_${i}`, ownUrl);
      await eventually(() => refused.closed !== undefined, 'the refused connection');
      expect(refused.closed?.code).toBe(4403);
      expect(refused.acknowledged).toBe(false);
    }
    const refusals = () => lines.slice(mark).filter((line) => line['msg'] === 'request completed' && line['closeCode'] === 4403);
    await eventually(() => refusals().length === 12, 'the refused connections’ lines');
    expect(refusals().at(-1)).toMatchObject({ level: 40, status: 101, reason: 'repeated_unauthenticated', refusal: 'Invalid API key' });
  });

  it('logs a subscription refused 403 on a connection that stays open as a warning with its reason', async () => {
    const created = await own.http.post('/api-keys', { name: 'socket narrow', permissions: ['users:read'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const socket = keyed(created.body.secret as string, ownUrl);
    const refused = socket.subscribe(AUDIT_SUBSCRIPTION);
    await eventually(() => refused.ended, 'the refusal');
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'forbidden', status: 403 });
    expect(refused.results).toEqual([]);
    expect(socket.closed).toBeUndefined();
    await socket.dispose();
    const closedLine = () => lines.find((line) => line['msg'] === 'request completed' && line['status'] === 101 && (line['principal'] as { id?: string } | undefined)?.id === created.body.key.id);
    await eventually(() => closedLine() !== undefined, 'the connection’s line');
    expect(closedLine()).toMatchObject({ level: 40, closeCode: 1000, reason: 'forbidden', refusal: expect.stringMatching(/^Missing permission/) });
  });

  it('closes its sockets when the service stops (1001), rather than waiting for them', async () => {
    const socket = keyed(await ownKey(), ownUrl);
    const subscription = socket.subscribe(AUDIT_SUBSCRIPTION);
    await acknowledgement(socket);
    const started = Date.now();
    stopped = true;
    await own.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    await eventually(() => socket.closed !== undefined, 'the close');
    expect(socket.closed?.code).toBe(1001);
    expect(subscription.ended).toBe(true);
  });
});
