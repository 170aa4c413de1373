import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatehouse, type Gatehouse } from '../../src/app.ts';
import { startTestApp, startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { forgeCursor } from '../support/cursors.ts';
import { acknowledgement, AUDIT_SUBSCRIPTION, eventually, openGraphQLSocket, subscribedRecords, subscriptionErrors } from '../support/graphql-socket.ts';
import { openSse, type SseStream } from '../support/sse.ts';
import { createUserThrough } from '../support/users.ts';
import { usingEmbeddedDatabase } from '../support/database.ts';

/**
 * `subscription { auditLogs }`: GraphQL over Server-Sent Events on POST /graphql (Accept: text/event-stream), in the
 * list's scope, permission and filters, resumed with `after`; refused as JSON before the stream opens.
 */
let app: TestApp;
let tenantA: string;
let tenantB: string;
const streams: SseStream[] = [];

beforeAll(async () => {
  ({ app, tenants: [tenantA, tenantB] } = await startTestAppWithTenants(['Sub A', 'Sub B'], { auditStreamHeartbeatMs: 100 }));
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await app?.close();
});

async function subscribe(variables: Record<string, unknown> = {}, apiKey = app.root.apiKey): Promise<SseStream> {
  const stream = await openSse(`${app.baseUrl}/graphql`, { 'x-api-key': apiKey }, { query: AUDIT_SUBSCRIPTION, variables });
  streams.push(stream);
  return stream;
}
/** With `resumeAt`, and each record's changes. */
const RESUMABLE = `subscription ($appId: UUID, $tenantId: UUID, $action: String, $after: UUID, $resumeAt: String) {
  auditLogs(appId: $appId, tenantId: $tenantId, action: $action, after: $after, resumeAt: $resumeAt) { id action tenantId target { id } changes { before after } }
}`;
async function subscribeTo(query: string, variables: Record<string, unknown>, apiKey = app.root.apiKey): Promise<SseStream> {
  const stream = await openSse(`${app.baseUrl}/graphql`, { 'x-api-key': apiKey }, { query, variables });
  streams.push(stream);
  return stream;
}
const resultsOf = (stream: SseStream) => stream.events.filter((event) => event.event === 'next').map((event) => JSON.parse(event.data));
const recordsOf = (stream: SseStream) => subscribedRecords(resultsOf(stream));
const hasTarget = (id: string) => (stream: SseStream) => recordsOf(stream).some((record) => record.target.id === id);
const createUser = (tenantId: string, email: string) => createUserThrough(app.http, { email }, `/applications/${app.root.applicationId}/tenants/${tenantId}/users`);

describe('subscription auditLogs', () => {
  it('sends each record as it commits, as an event `next` with the selected fields; heartbeats between', async () => {
    const stream = await subscribe();
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const userId = await createUser(tenantA, 'subscribed@example.com');
    await stream.until(hasTarget(userId), 'the user.created record');
    const record = recordsOf(stream).find((candidate) => candidate.target.id === userId)!;
    expect(record).toEqual({ id: expect.any(String), action: 'user.created', tenantId: tenantA, target: { id: userId } });
    expect((await app.http.get(`/audit-logs/${record.id}`)).body).toMatchObject({ id: record.id, action: 'user.created' });
    await stream.until((s) => s.comments.includes('heartbeat'), 'a heartbeat');
  });

  it('in a tenant scope, only that tenant’s records; filtered by action; resumed after a record', async () => {
    const tenantScoped = await subscribe({ appId: app.root.applicationId, tenantId: tenantA });
    const filtered = await subscribe({ action: 'user.deleted' });
    const otherTenant = await createUser(tenantB, 'elsewhere@example.com');
    const own = await createUser(tenantA, 'own@example.com');
    expect((await app.http.delete(`/users/${own}`)).status).toBe(204);
    await tenantScoped.until(hasTarget(own), 'the tenant’s own record');
    await filtered.until(hasTarget(own), 'the deletion');
    expect(recordsOf(tenantScoped).some((record) => record.target.id === otherTenant)).toBe(false);
    expect(new Set(recordsOf(filtered).map((record) => record.action))).toEqual(new Set(['user.deleted']));
    // Resumed after the creation (the application's scope: the deletion, application-wide, is no tenant's): the
    // deletion comes again, the creation not.
    const creation = recordsOf(tenantScoped).find((record) => record.target.id === own && record.action === 'user.created')!;
    const resumed = await subscribe({ after: creation.id });
    await resumed.until((s) => recordsOf(s).some((record) => record.target.id === own && record.action === 'user.deleted'), 'the deletion, resumed');
    expect(recordsOf(resumed).some((record) => record.id === creation.id)).toBe(false);
  });

  it('a filtered subscription that received nothing resumes where it was: its heartbeats carry its place, which `resumeAt` takes', async () => {
    const scope = { appId: app.root.applicationId, tenantId: tenantA };
    const first = await subscribeTo(RESUMABLE, { ...scope, action: 'user.membership.removed' });
    // Records of the scope, none matching: the subscription reads past them.
    const passing = await createUser(tenantA, 'passing-subscribed@example.com');
    const read = await app.sql<{ id: string }>(`select id::text from audit_log where target_id = ?`, [passing]);
    expect(read).toHaveLength(1);
    await first.until((s) => s.lastEventId !== undefined, 'a place as a heartbeat’s id');
    const place = first.lastEventId!;
    first.close();
    expect(resultsOf(first)).toEqual([]);
    // Taken out of the tenant while no subscription runs.
    expect((await app.http.delete(`/applications/${app.root.applicationId}/tenants/${tenantA}/users/${passing}`)).status).toBe(204);
    const resumed = await subscribeTo(RESUMABLE, { ...scope, action: 'user.membership.removed', resumeAt: place });
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    await resumed.until(hasTarget(passing), 'the removal made while it was away');
    expect(recordsOf(resumed).map((record) => record.action)).toEqual(['user.membership.removed']);
    // As Last-Event-ID: a record id too, a place of its scope only, an altered one never; and one resumption at a time.
    const afterRecord = await subscribeTo(RESUMABLE, { ...scope, resumeAt: read[0]!.id });
    expect(afterRecord.status, JSON.stringify(afterRecord.body)).toBe(200);
    await afterRecord.until(hasTarget(passing), 'the removal, after the creation');
    expect(recordsOf(afterRecord).map((record) => record.action)).toEqual(['user.membership.removed']);
    for (const refused of [
      { appId: app.root.applicationId, tenantId: tenantB, resumeAt: place },
      { ...scope, resumeAt: forgeCursor(place) },
      { ...scope, resumeAt: 'not a place' },
      { ...scope, resumeAt: place, after: read[0]!.id },
    ]) {
      const answer = await subscribeTo(RESUMABLE, refused);
      expect(answer.status, JSON.stringify(refused)).toBe(422);
      expect(answer.body).toMatchObject({ errors: [{ extensions: { code: 'validation_error', field: 'resumeAt' } }] });
    }
  });

  it('sends a tenant the changes of its shared members made on the application’s path, showing no other tenant; a tenant they are not in, none', async () => {
    const member = await createUser(tenantA, 'member-subscribed@example.com');
    const tenantC = await app.createTenant('Sub C');
    expect((await app.http.patch(`/users/${member}`, { tenantIds: [tenantA, tenantC] })).status).toBe(200);
    const readerOf = async (tenantId: string) => {
      const key = await app.http.post(`/applications/${app.root.applicationId}/tenants/${tenantId}/api-keys`, { name: 'reader', permissions: ['audit_logs:read', 'users:read'] });
      expect(key.status, JSON.stringify(key.body)).toBe(201);
      return subscribeTo(RESUMABLE, {}, key.body.secret as string);
    };
    const [ofA, ofB] = [await readerOf(tenantA), await readerOf(tenantB)];
    expect((await app.http.post(`/users/${member}/suspend`, {})).status).toBe(200);
    await ofA.until(hasTarget(member), 'the suspension of A’s member');
    const [suspended] = recordsOf(ofA).filter((record) => record.target.id === member);
    expect(suspended).toMatchObject({ action: 'user.suspended', tenantId: null, changes: { after: { tenantIds: [tenantA], status: 'suspended' } } });
    expect(JSON.stringify(suspended)).not.toContain(tenantC);
    const laterInB = await createUser(tenantB, 'later-in-b-subscribed@example.com');
    await ofB.until(hasTarget(laterInB), 'a record of B written after the suspension');
    expect(hasTarget(member)(ofB)).toBe(false);
  });

  it('with a `to` long past, sends the range’s records and completes', async () => {
    const userId = await createUser(tenantB, 'long-ago@example.com');
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const dated = await app.sql(`update audit_log set created_at = ? where target_id = ? returning action`, [minutesAgo(7), userId]);
    expect(dated, 'the records of the user made, dated back').toEqual([{ action: 'user.created' }]);
    const stream = await subscribe({ appId: app.root.applicationId, tenantId: tenantB, from: minutesAgo(8), to: minutesAgo(6) });
    expect(stream.status, JSON.stringify(stream.body)).toBe(200);
    await stream.until((s) => s.ended, 'the subscription ended');
    expect(stream.events.at(-1)?.event).toBe('complete');
    expect(subscriptionErrors(resultsOf(stream))).toEqual([]);
    const rows = await app.sql(`select action, created_at, tx::text from audit_log where target_id = ?`, [userId]);
    expect(recordsOf(stream).map((record) => record.target.id), JSON.stringify({ rows, events: stream.events })).toEqual([userId]);
  });

  it('refused before the stream opens, as JSON: no permission (403), another tenant’s scope (403), an unknown `after` (422)', async () => {
    const narrow = await app.http.post('/api-keys', { name: 'no audit', permissions: ['users:read'] });
    expect(narrow.status).toBe(201);
    const refused = await subscribe({}, narrow.body.secret as string);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ errors: [{ extensions: { code: 'forbidden' } }] });
    const tenantKey = await app.http.post(`/applications/${app.root.applicationId}/tenants/${tenantA}/api-keys`, { name: 'tenant A', permissions: ['audit_logs:read'] });
    expect(tenantKey.status, JSON.stringify(tenantKey.body)).toBe(201);
    const elsewhere = await subscribe({ appId: app.root.applicationId, tenantId: tenantB }, tenantKey.body.secret as string);
    expect(elsewhere.status).toBe(403);
    const unknown = await subscribe({ after: '01900000-0000-7000-8000-000000000000' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ errors: [{ extensions: { code: 'validation_error', field: 'after' } }] });
  });

  it('ends when its key is revoked: nothing committed after reaches it', async () => {
    const key = await app.http.post(`/applications/${app.root.applicationId}/tenants/${tenantA}/api-keys`, { name: 'subscriber', permissions: ['audit_logs:read'] });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const stream = await subscribe({}, key.body.secret as string);
    const witness = await subscribe({ appId: app.root.applicationId, tenantId: tenantA });
    const before = await createUser(tenantA, 'sub-before@example.com');
    await stream.until(hasTarget(before), 'the record written before the revocation');

    expect((await app.http.delete(`/api-keys/${key.body.key.id}`)).status).toBeLessThan(300);
    const after = await createUser(tenantA, 'sub-after@example.com');
    await witness.until(hasTarget(after), 'the record written after the revocation');
    await stream.until((s) => s.ended, 'the revoked key’s subscription ended');
    expect(hasTarget(after)(stream)).toBe(false);
    // Its last result says why it ends, then it completes.
    expect(stream.events.at(-1)?.event).toBe('complete');
    expect(subscriptionErrors(resultsOf(stream)).map((error) => error.extensions?.['code'])).toEqual(['unauthenticated']);
  });

  it('fails without `complete` when the log cannot be read, so its client resumes rather than stopping', async () => {
    const own = await startTestApp({ auditStreamHeartbeatMs: 100 });
    const stream = await openSse(`${own.baseUrl}/graphql`, { 'x-api-key': own.root.apiKey }, { query: AUDIT_SUBSCRIPTION });
    expect(stream.status).toBe(200);
    await own.sql('alter table audit_log rename to audit_log_away');
    try {
      await stream.until((s) => s.ended, 'the end of the failed stream');
    } finally {
      await own.sql('alter table audit_log_away rename to audit_log');
    }
    expect(stream.events.map((event) => event.event)).not.toContain('complete');
    await own.close();
  });

  it('ends its streams when the service stops, rather than waiting for them', async () => {
    const own = await startTestApp({ auditStreamHeartbeatMs: 100 });
    const stream = await openSse(`${own.baseUrl}/graphql`, { 'x-api-key': own.root.apiKey }, { query: AUDIT_SUBSCRIPTION });
    expect(stream.status).toBe(200);
    await own.close();
    await stream.until((s) => s.ended, 'the end of the stream');
  });
});

// The roles' table is held by a transaction of the test's own: the embedded database serves one at a time.
describe.skipIf(usingEmbeddedDatabase())('a key revoked between the two reads of its credentials (the key, then what it holds)', () => {
  it('ends its subscription as revoked (401), not as lacking a permission (403)', async () => {
    // Its own service: no other subscription reads credentials meanwhile.
    const own = await startTestApp();
    try {
      const key = await own.http.post('/api-keys', { name: 'read twice', permissions: ['audit_logs:read'] });
      expect(key.status, JSON.stringify(key.body)).toBe(201);
      const stream = await openSse(`${own.baseUrl}/graphql`, { 'x-api-key': key.body.secret as string }, { query: AUDIT_SUBSCRIPTION });
      streams.push(stream);
      expect(stream.status).toBe(200);
      const holder = new pg.Client({ connectionString: own.gatehouse.services.config.databaseUrl });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('lock table role in access exclusive mode');
        // An idle subscription asks its credentials from the database every few seconds: it reads the key, then waits here.
        const waiting = async () => (await holder.query(`select 1 from pg_locks where relation = 'role'::regclass and not granted`)).rowCount;
        for (let waited = 0; waited < 30_000 && (await waiting()) === 0; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
        expect(await waiting()).toBe(1);
        await holder.query('update api_key set revoked_at = now() where id = $1', [key.body.key.id]);
        await holder.query('commit');
      } finally {
        await holder.end();
      }
      await stream.until((s) => s.ended, 'the revoked key’s subscription ended');
      expect(stream.events.at(-1)?.event).toBe('complete');
      expect(subscriptionErrors(resultsOf(stream)).map((error) => error.extensions?.['code'])).toEqual(['unauthenticated']);
    } finally {
      await own.close();
    }
  });
});

describe.runIf(Boolean(process.env['TEST_DATABASE_URL']))('on an instance whose cache still holds a key revoked on another', () => {
  let deaf: Gatehouse | undefined;
  afterAll(async () => deaf?.close());

  it('over SSE and WebSocket, sends nothing committed after the revocation: the refusal is the last result, then complete', async () => {
    // Without Redis, this instance is never told of the other's changes: its credential cache keeps the key.
    deaf = await startGatehouse({ ...app.gatehouse.services.config, redisUrl: undefined }, { logger: false });
    await deaf.server.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `127.0.0.1:${(deaf.server.app.server.address() as AddressInfo).port}`;
    const key = await app.http.post(`/applications/${app.root.applicationId}/tenants/${tenantA}/api-keys`, { name: 'subscriber elsewhere', permissions: ['audit_logs:read'] });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const secret = key.body.secret as string;
    const overSse = await openSse(`http://${url}/graphql`, { 'x-api-key': secret }, { query: AUDIT_SUBSCRIPTION, variables: {} });
    streams.push(overSse);
    const socket = openGraphQLSocket(`ws://${url}/graphql`, { connectionParams: { 'x-api-key': secret } });
    try {
      await acknowledgement(socket);
      const overSocket = socket.subscribe(AUDIT_SUBSCRIPTION);
      const socketHas = (id: string) => subscribedRecords(overSocket.results).some((record) => record.target.id === id);
      // Each running: the socket's subscription starts when the server takes it, after which a record reaches both.
      const before: string[] = [];
      while (!before.some(socketHas)) {
        if (before.length === 20) throw new Error('no record written before the revocation reached the socket');
        before.push(await createUser(tenantA, `sub-before-elsewhere-${before.length}@example.com`));
        await eventually(() => before.some(socketHas), 'a record over WebSocket', 1000).catch(() => undefined);
      }
      await overSse.until(hasTarget(before[0]!), 'the record written before the revocation, over SSE');

      expect((await app.http.delete(`/api-keys/${key.body.key.id}`)).status).toBeLessThan(300);
      const after = await createUser(tenantA, 'sub-after-elsewhere@example.com');
      await overSse.until((s) => s.ended || hasTarget(after)(s), 'the subscription ended, or the record written after the revocation');
      await eventually(() => overSocket.ended || socketHas(after), 'the socket’s subscription ended, or the record written after the revocation');
      expect([hasTarget(after)(overSse), socketHas(after)]).toEqual([false, false]);
      expect(overSse.events.at(-1)?.event).toBe('complete');
      expect(subscriptionErrors(resultsOf(overSse)).map((error) => error.extensions?.['code'])).toEqual(['unauthenticated']);
      expect(overSocket.completed).toBe(true);
      expect(overSocket.results.at(-1)?.errors?.[0]?.extensions).toMatchObject({ code: 'unauthenticated', status: 401 });
    } finally {
      await socket.dispose();
    }
  });
});
