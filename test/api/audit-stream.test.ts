import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatehouse, type Gatehouse } from '../../src/app.ts';
import { authenticate } from '../../src/auth/authenticate.ts';
import { createRequestContext } from '../../src/context.ts';
import { followAuditLog, streamStart, type AuditSink } from '../../src/domain/audit/stream.ts';
import type { Config } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { forgeCursor } from '../support/cursors.ts';
import { HttpClient } from '../support/http.ts';
import { TestRoles } from '../support/roles.ts';
import { eventually } from '../support/graphql-socket.ts';
import { openSse, recordsOf, type SseStream } from '../support/sse.ts';
import { createUserThrough } from '../support/users.ts';
import { recordAudit } from '../../src/domain/audit/audit.ts';

/**
 * GET /audit-logs/stream: Server-Sent Events of the audit records as they commit, in the list's scope and filters,
 * resumed with Last-Event-ID, heartbeats; on PostgreSQL, across instances and across a restart.
 */
let app: TestApp;
let admin: HttpClient;
let tenantA: string;
let tenantB: string;
const streams: SseStream[] = [];

beforeAll(async () => {
  app = await startTestApp({ auditStreamHeartbeatMs: 100 });
  admin = new HttpClient(app.baseUrl, { apiKey: app.root.apiKey });
  tenantA = await app.createTenant('A');
  tenantB = await app.createTenant('B');
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await app?.close();
});

const open = async (path: string, apiKey = app.root.apiKey, headers: Record<string, string> = {}, base = app.baseUrl) => {
  const stream = await openSse(`${base}/api/v1${path}`, { 'x-api-key': apiKey, ...headers });
  streams.push(stream);
  return stream;
};
const tenantUsers = (tenantId: string) => `/applications/${app.root.applicationId}/tenants/${tenantId}/users`;
const createUser = (tenantId: string, email: string, client = admin) => createUserThrough(client, { email }, tenantUsers(tenantId));
/** A user whose records are dated 7 minutes ago, and a stream of their records in tenant B from 8 to 6 minutes ago. */
const streamOfLongAgo = async (email: string) => {
  const userId = await createUser(tenantB, email);
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
  await app.sql(`update audit_log set created_at = ? where target_id = ?`, [minutesAgo(7), userId]);
  const range = new URLSearchParams({ from: minutesAgo(8).toISOString(), to: minutesAgo(6).toISOString(), target: userId });
  return { userId, range, stream: await open(`/applications/${app.root.applicationId}/tenants/${tenantB}/audit-logs/stream?${range}`) };
};
const hasTarget = (id: string) => (stream: SseStream) => recordsOf(stream).some((record) => record.target.id === id);

describe('the audit stream', () => {
  it('sends each record as it commits: event audit, id the record id, data the record as GET shows it; heartbeats between', async () => {
    const stream = await open('/audit-logs/stream');
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const userId = await createUser(tenantA, 'streamed@example.com');
    await stream.until(hasTarget(userId), 'user.created record');
    const event = stream.events.find((candidate) => JSON.parse(candidate.data).target.id === userId)!;
    expect(event.event).toBe('audit');
    const shown = await admin.get(`/audit-logs/${event.id}`);
    expect(shown.status).toBe(200);
    expect(JSON.parse(event.data)).toEqual(shown.body);
    await stream.until((s) => s.comments.includes('heartbeat'), 'heartbeat');
  });

  it('applies the list’s filters and scope: a tenant path sees its tenant’s records only, a tenant key too', async () => {
    const tenantPath = await open(`/applications/${app.root.applicationId}/tenants/${tenantA}/audit-logs/stream`);
    const filtered = await open('/audit-logs/stream?action=user.updated');
    const key = await admin.post(`/applications/${app.root.applicationId}/tenants/${tenantB}/api-keys`, { name: 'B reader', permissions: ['audit_logs:read'] });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const tenantKey = await open('/audit-logs/stream', key.body.secret as string);
    const inB = await createUser(tenantB, 'b-stream@example.com');
    const inA = await createUser(tenantA, 'a-stream@example.com');
    expect((await admin.patch(`${tenantUsers(tenantA)}/${inA}`, { name: 'Ann' })).status).toBe(200);
    await tenantPath.until((s) => recordsOf(s).filter((record) => record.target.id === inA).length === 2, 'both records of A’s user');
    await tenantKey.until(hasTarget(inB), 'B’s user');
    await filtered.until(hasTarget(inA), 'the update');
    // Each stream is in order: by then what the others carried has been read past.
    expect(recordsOf(tenantPath).every((record) => record.tenantId === tenantA)).toBe(true);
    expect(recordsOf(tenantKey).every((record) => record.tenantId === tenantB)).toBe(true);
    expect(recordsOf(filtered).map((record) => record.action)).toEqual(['user.updated']);
  });

  it('shows a tenant key a shared user’s tenants as GET does: its own alone', async () => {
    const shared = await createUser(tenantA, 'shared-stream@example.com');
    expect((await admin.patch(`/users/${shared}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    const key = await admin.post(`/applications/${app.root.applicationId}/tenants/${tenantA}/api-keys`, { name: 'A', permissions: ['audit_logs:read', 'users:delete'] });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const stream = await open('/audit-logs/stream', key.body.secret as string);
    expect((await app.as({ apiKey: key.body.secret as string }).delete(`/users/${shared}`)).status).toBe(204);
    await stream.until(hasTarget(shared), 'the membership’s removal');
    const [removed] = recordsOf(stream).filter((record) => record.target.id === shared);
    expect(removed).toMatchObject({ action: 'user.membership.removed', changes: { before: { tenantIds: [tenantA] }, after: { tenantIds: [] } } });
  });

  it('sends a tenant the changes of its shared members made on the application’s path, showing no other tenant; a tenant they are not in, none', async () => {
    const member = await createUser(tenantA, 'member-streamed@example.com');
    const tenantC = await app.createTenant('C of the stream');
    expect((await admin.patch(`/users/${member}`, { tenantIds: [tenantA, tenantC] })).status).toBe(200);
    const readerOf = async (tenantId: string) => {
      const key = await admin.post(`/applications/${app.root.applicationId}/tenants/${tenantId}/api-keys`, { name: 'reader', permissions: ['audit_logs:read', 'users:read'] });
      expect(key.status, JSON.stringify(key.body)).toBe(201);
      return open('/audit-logs/stream', key.body.secret as string);
    };
    const [ofA, ofB] = [await readerOf(tenantA), await readerOf(tenantB)];
    expect((await admin.post(`/users/${member}/suspend`, {})).status).toBe(200);
    await ofA.until(hasTarget(member), 'the suspension of A’s member');
    const [suspended] = recordsOf(ofA).filter((record) => record.target.id === member);
    expect(suspended).toMatchObject({ action: 'user.suspended', tenantId: null, changes: { after: { tenantIds: [tenantA], status: 'suspended' } } });
    expect(JSON.stringify(suspended)).not.toContain(tenantC);
    expect(suspended!.changes!.after).not.toHaveProperty('sessionsEnded');
    // B's stream has read past the suspension once it sends a record of B written after it.
    const laterInB = await createUser(tenantB, 'later-in-b@example.com');
    await ofB.until(hasTarget(laterInB), 'a record of B written after the suspension');
    expect(hasTarget(member)(ofB)).toBe(false);
  });

  it('resumes after Last-Event-ID: no record lost, none repeated', async () => {
    const first = await open(`/applications/${app.root.applicationId}/tenants/${tenantA}/audit-logs/stream`);
    const one = await createUser(tenantA, 'one@example.com');
    await first.until(hasTarget(one), 'the first user');
    const lastId = first.events.at(-1)!.id!;
    first.close();
    const missed = [await createUser(tenantA, 'two@example.com'), await createUser(tenantA, 'three@example.com')];
    const resumed = await open(`/applications/${app.root.applicationId}/tenants/${tenantA}/audit-logs/stream`, app.root.apiKey, { 'last-event-id': lastId });
    await resumed.until(hasTarget(missed[1]!), 'the users created meanwhile');
    expect(recordsOf(resumed).map((record) => record.target.id)).toEqual(missed);
  });

  it('resumes from its URL alone (an EventSource’s first request sends no header): after a record, or at a place; a Last-Event-ID overrides either', async () => {
    const path = `/applications/${app.root.applicationId}/tenants/${tenantA}/audit-logs/stream`;
    const first = await open(path);
    const one = await createUser(tenantA, 'url-one@example.com');
    await first.until(hasTarget(one), 'the first user');
    const lastId = first.events.at(-1)!.id!;
    first.close();
    const missed = [await createUser(tenantA, 'url-two@example.com'), await createUser(tenantA, 'url-three@example.com')];
    for (const resumption of [`after=${lastId}`, `resumeAt=${lastId}`]) {
      const resumed = await open(`${path}?${resumption}`);
      await resumed.until(hasTarget(missed[1]!), 'the users created meanwhile');
      expect(recordsOf(resumed).map((record) => record.target.id), resumption).toEqual(missed);
    }
    // Reconnecting to the same URL, an EventSource sends the last id it received: the stream resumes there.
    const secondId = (await admin.get(`/audit-logs?target=${missed[0]!}&pageSize=1`)).body.data[0].id as string;
    const reconnected = await open(`${path}?after=${lastId}`, app.root.apiKey, { 'last-event-id': secondId });
    await reconnected.until(hasTarget(missed[1]!), 'the last user');
    expect(recordsOf(reconnected).map((record) => record.target.id)).toEqual([missed[1]]);
    // An empty one is no last id (an `id:` line without a value resets it): the URL's place stands.
    const unset = await open(`${path}?after=${lastId}`, app.root.apiKey, { 'last-event-id': '' });
    await unset.until(hasTarget(missed[1]!), 'the users after the URL’s record');
    expect(recordsOf(unset).map((record) => record.target.id)).toEqual(missed);

    const refused = async (query: string) => (await open(`${path}?${query}`)).body;
    expect(await refused(`after=${lastId}&resumeAt=${lastId}`)).toMatchObject({ code: 'validation_error', field: 'resumeAt' });
    expect(await refused('after=not-a-uuid')).toMatchObject({ code: 'validation_error', field: 'after' });
    const inB = await createUser(tenantB, 'url-elsewhere@example.com');
    const ofB = (await admin.get(`/audit-logs?target=${inB}&pageSize=1`)).body.data[0].id as string;
    expect(await refused(`after=${ofB}`)).toMatchObject({ code: 'validation_error', field: 'after' });
    expect(await refused('resumeAt=not-a-place')).toMatchObject({ code: 'validation_error', field: 'resumeAt' });
  });

  it('a filtered stream that sent nothing still resumes where it was: its heartbeats carry its place as the event id', async () => {
    const path = `/applications/${app.root.applicationId}/tenants/${tenantA}/audit-logs/stream?action=user.membership.removed`;
    const first = await open(path);
    // Records of the scope, none matching: the stream reads past them.
    const passing = await createUser(tenantA, 'passing@example.com');
    await first.until((s) => s.lastEventId !== undefined, 'a place as the event id');
    expect(recordsOf(first)).toEqual([]);
    first.close();
    // Taken out of the tenant while no stream is open: the client resumes with what an EventSource would send.
    expect((await admin.delete(`${tenantUsers(tenantA)}/${passing}`)).status).toBe(204);
    const resumed = await open(path, app.root.apiKey, { 'last-event-id': first.lastEventId! });
    await resumed.until(hasTarget(passing), 'the removal made while it was away');
    expect(recordsOf(resumed).map((record) => record.action)).toEqual(['user.membership.removed']);
    // A place is its scope's: another tenant's stream refuses it, as it refuses that tenant's record ids.
    const elsewhere = await open(`/applications/${app.root.applicationId}/tenants/${tenantB}/audit-logs/stream`, app.root.apiKey, { 'last-event-id': first.lastEventId! });
    expect(elsewhere.body).toMatchObject({ code: 'validation_error', field: 'Last-Event-ID' });
    const tampered = forgeCursor(first.lastEventId!);
    expect((await open(path, app.root.apiKey, { 'last-event-id': tampered })).body).toMatchObject({ code: 'validation_error', field: 'Last-Event-ID' });
  });

  it('starts after the last record when places cross a power of ten (they compare as numbers, not text)', async () => {
    await app.sql(`select setval(pg_get_serial_sequence('audit_log', 'seq'), 99998)`);
    const before = [await createUser(tenantA, 'seq-1@example.com'), await createUser(tenantA, 'seq-2@example.com')];
    const stream = await open('/audit-logs/stream');
    const after = await createUser(tenantA, 'seq-3@example.com');
    await stream.until(hasTarget(after), 'the record written after it opened');
    expect(recordsOf(stream).some((record) => before.includes(record.target.id!))).toBe(false);
  });

  it('ends when its key is revoked, as an answer ends (no reset): nothing committed after reaches it, while a live key’s stream goes on', async () => {
    const tenantPath = `/applications/${app.root.applicationId}/tenants/${tenantA}`;
    const key = await admin.post(`${tenantPath}/api-keys`, { name: 'stream reader', permissions: ['audit_logs:read'] });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const revokedStream = await open('/audit-logs/stream', key.body.secret as string);
    const witness = await open(`${tenantPath}/audit-logs/stream`);
    const before = await createUser(tenantA, 'before-revocation@example.com');
    await revokedStream.until((s) => recordsOf(s).some((record) => record.target.id === before), 'the record written before the revocation');

    expect((await admin.delete(`/api-keys/${key.body.key.id}`)).status).toBeLessThan(300);
    const after = await createUser(tenantA, 'after-revocation@example.com');
    await witness.until((s) => recordsOf(s).some((record) => record.target.id === after), 'the record written after the revocation');
    await revokedStream.until((s) => s.ended, 'the revoked key’s stream ended');
    expect(revokedStream.endedCleanly).toBe(true);
    expect(recordsOf(revokedStream).map((record) => record.target.id)).not.toContain(after);
    expect(witness.ended).toBe(false);
  });

  it('ends once its credentials no longer may, with no record to send: a key expired, a key revoked, a user suspended', async () => {
    const revoked = await admin.post('/api-keys', { name: 'revoked reader', permissions: ['audit_logs:read'] });
    expect(revoked.status).toBe(201);
    const userId = await createUser(tenantA, 'idle-reader@example.com');
    const roles = await admin.get('/roles');
    const appAdmin = (roles.body.data as { id: string; key: string }[]).find((role) => role.key === 'app_admin')!.id;
    expect((await admin.post('/role-assignments', { subject: { type: 'user', id: userId }, roleId: appAdmin })).status).toBe(201);
    const bearer = await app.mintAccessToken({ sub: userId, app_id: app.root.applicationId });

    const expiring = await admin.post('/api-keys', { name: 'expiring reader', permissions: ['audit_logs:read'], expiresAt: new Date(Date.now() + 3_000).toISOString() });
    expect(expiring.status).toBe(201);
    // Scopes and filters that the revocation's and the suspension's own records do not match (the suspended user is no
    // member of B): nothing comes to send.
    const pathOfB = `/applications/${app.root.applicationId}/tenants/${tenantB}`;
    const ofExpired = await open(`${pathOfB}/audit-logs/stream`, expiring.body.secret as string);
    const ofRevoked = await open('/audit-logs/stream?action=user.created', revoked.body.secret as string);
    const ofSuspended = await openSse(`${app.baseUrl}/api/v1${pathOfB}/audit-logs/stream`, { authorization: `Bearer ${bearer}` });
    streams.push(ofSuspended);
    expect([ofExpired.status, ofRevoked.status, ofSuspended.status]).toEqual([200, 200, 200]);
    expect((await admin.delete(`/api-keys/${revoked.body.key.id}`)).status).toBeLessThan(300);
    expect((await admin.post(`/users/${userId}/suspend`)).status).toBe(200);

    for (const [stream, whose] of [[ofExpired, 'the expired key’s'], [ofRevoked, 'the revoked key’s'], [ofSuspended, 'the suspended user’s']] as const) {
      await stream.until((s) => s.ended, `${whose} stream ended`);
      expect(stream.endedCleanly).toBe(true);
      expect(recordsOf(stream)).toEqual([]);
    }
  });

  it('shows a user’s tenants as its credentials now may see them, not as they could when it opened; ends once they no longer read the log', async () => {
    const roles = new TestRoles(app);
    const reader = await createUser(tenantA, 'narrowed-reader@example.com');
    const member = await createUser(tenantA, 'narrowed-member@example.com');
    for (const userId of [reader, member]) expect((await admin.patch(`/users/${userId}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    const auditReader = await roles.assign({ type: 'user', id: reader }, await roles.create('stream-audit-reader', ['audit_logs:read']));
    const usersReader = await roles.create('stream-users-reader', ['users:read']);
    await roles.assign({ type: 'user', id: reader }, usersReader, tenantA);
    const inB = await roles.assign({ type: 'user', id: reader }, usersReader, tenantB);
    const bearer = await app.mintAccessToken({ sub: reader, app_id: app.root.applicationId });
    const stream = await openSse(`${app.baseUrl}/api/v1/audit-logs/stream?target=${member}`, { authorization: `Bearer ${bearer}` });
    streams.push(stream);
    expect(stream.status).toBe(200);
    const renamed = (name: string) => (s: SseStream) => recordsOf(s).some((record) => (record.changes?.after as { name?: string } | undefined)?.name === name);

    expect((await admin.patch(`/users/${member}`, { name: 'Seen in both' })).status).toBe(200);
    await stream.until(renamed('Seen in both'), 'the first change');
    expect(recordsOf(stream).at(-1)!.changes!.after).toMatchObject({ tenantIds: [tenantA, tenantB] });
    // Its reading of B's users taken away, the stream goes on without B.
    await roles.revoke(inB);
    expect((await admin.patch(`/users/${member}`, { name: 'Seen in A' })).status).toBe(200);
    await stream.until(renamed('Seen in A'), 'the change after B was taken away');
    expect(recordsOf(stream).at(-1)!.changes).toMatchObject({ before: { tenantIds: [tenantA] }, after: { tenantIds: [tenantA] } });
    // Its reading of the log taken away, it ends, and sends nothing more.
    await roles.revoke(auditReader);
    expect((await admin.patch(`/users/${member}`, { name: 'Unseen' })).status).toBe(200);
    await stream.until((s) => s.ended, 'the stream of credentials that no longer read the log');
    expect(stream.endedCleanly).toBe(true);
    expect(renamed('Unseen')(stream)).toBe(false);
  });

  it('asks the database for its credentials once per read of records, not once per record', async () => {
    // An app of its own: the other tests' streams, still open, ask the same statement.
    const own = await startTestApp({ auditStreamHeartbeatMs: 100 });
    try {
      const tenantId = await own.createTenant('Read at once');
      const [opened] = await own.sql<{ id: string }>(`select id::text from audit_log where target_id = ?`, [tenantId]);
      const users: string[] = [];
      for (let i = 0; i < 10; i += 1) users.push(await own.createUser(`read-at-once-${i}@example.com`, tenantId));
      own.queries.length = 0;
      // Resumed after the tenant's record: the users' records, all committed already, come in one read (or few).
      const stream = await openSse(`${own.baseUrl}/api/v1/audit-logs/stream`, { 'x-api-key': own.root.apiKey, 'last-event-id': opened!.id });
      streams.push(stream);
      await stream.until((s) => users.every((id) => hasTarget(id)(s)), 'the users’ records');
      const keyReads = own.queries.filter((sql) => sql.includes('from api_key as k')).length;
      expect(keyReads).toBeGreaterThan(0);
      expect(keyReads).toBeLessThan(recordsOf(stream).length / 2);
    } finally {
      await own.close();
    }
  });

  it('with `from`, starts at the records of that time, not at the log’s beginning: older records are not read through', async () => {
    const own = await startTestApp({ auditStreamHeartbeatMs: 100 });
    try {
      // The application's records so far dated two days back (their ids' time too), then 2,500 of yesterday, each with
      // the UUIDv7 id of its time: a log older than `from`, of more than two reads.
      await own.sql(
        `update audit_log set created_at = created_at - interval '2 days',
                id = overlay(id::text placing substr(lpad(to_hex((extract(epoch from now() - interval '2 days') * 1000)::bigint), 12, '0'), 1, 8) from 1 for 8)::uuid
          where application_id = ?`,
        [own.root.applicationId],
      );
      await own.sql(
        `insert into audit_log (application_id, id, actor_type, actor_id, action, target_type, target_id, request_id, created_at)
         select ?, (substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7' || substr(r, 1, 3) || '-8' || substr(r, 4, 3) || '-' || substr(r, 7, 12))::uuid,
                'system', 'test', 'user.updated', 'user', 'old', 'old', t
           from generate_series(1, 2500) as i,
                lateral (select now() - interval '1 day' + i * interval '1 millisecond' as t) as at,
                lateral (select lpad(to_hex((extract(epoch from t) * 1000)::bigint), 12, '0') as h, md5(i::text) as r) as id`,
        [own.root.applicationId],
      );
      const from = new Date(Date.now() - 60_000).toISOString();
      own.queries.length = 0;
      const reads = () => own.queries.filter((sql) => sql.includes('with w as materialized')).length;
      const stream = await openSse(`${own.baseUrl}/api/v1/audit-logs/stream?from=${encodeURIComponent(from)}`, { 'x-api-key': own.root.apiKey });
      streams.push(stream);
      // Nothing was written since `from`: placed there, the stream has no window to read until a record commits. Read from
      // the log's beginning, it would have read the old records at once (a read takes 1,000 at most: three reads).
      await stream.until((s) => s.comments.includes('heartbeat'), 'a heartbeat');
      expect(reads()).toBe(0);
      const userId = await own.createUser('from-recent@example.com');
      await stream.until(hasTarget(userId), 'the user’s record');
      expect(recordsOf(stream).some((record) => record.target.id === 'old')).toBe(false);
      expect(reads()).toBeGreaterThan(0);
    } finally {
      await own.close();
    }
  });

  it('a following reads no more once its client left, and the service closes its database once every following ended', async () => {
    const own = await startTestApp();
    try {
      const { services } = own.gatehouse;
      const principal = await authenticate({ orm: services.orm, cache: services.apiKeys }, services.signingKeys, { apiKey: own.root.apiKey, bearer: undefined });
      const scope = await createRequestContext(services, randomUUID(), principal).scope();
      const reads = () => own.queries.filter((sql) => sql.includes('pg_snapshot_xmin(pg_current_snapshot())::text as xmin')).length;
      const follow = (sink: AuditSink) => streamStart(scope, {}, undefined).then((start) => followAuditLog(scope, {}, start, sink, services.auditWaker));
      // Woken once as it starts (LISTEN connected, or the sequence first read), then by records only: none come.
      let started = false;
      const stopListening = services.auditWaker.subscribe(own.root.applicationId, () => (started = true));
      await eventually(() => started, 'the waker’s start');
      stopListening();
      let left = false;
      const leaving = follow({ confirm: async () => principal, send: async () => undefined, get closed() { return left; } });
      // It reads once at its start, then waits: nothing was committed since.
      await eventually(() => reads() === 1, 'the following’s first read');
      left = true;
      expect(await leaving).toBeUndefined();
      expect(reads()).toBe(1);

      let ended = false;
      void follow({ confirm: async () => principal, send: async () => undefined, closed: false }).then(() => (ended = true));
      await eventually(() => reads() === 2, 'the second following’s first read');
      await own.gatehouse.close();
      expect(ended).toBe(true);
    } finally {
      await own.close();
    }
  });

  it('with a `to` long past, sends the range’s records, then `event: end`, and ends as an answer ends', async () => {
    const { userId, stream, range } = await streamOfLongAgo('long-ago@example.com');
    await stream.until((s) => s.ended, 'the stream ended');
    expect(stream.endedCleanly).toBe(true);
    expect(recordsOf(stream).map((record) => record.target.id)).toEqual([userId]);
    expect(stream.events.at(-1)).toMatchObject({ event: 'end', data: JSON.stringify({ to: range.get('to') }) });
  });

  it('refuses what the list refuses, and a Last-Event-ID of no record of its scope; other methods are 405', async () => {
    expect((await open('/audit-logs/stream?action=NOT%20AN%20ACTION')).body).toMatchObject({ code: 'validation_error', field: 'action' });
    expect((await open('/audit-logs/stream?tenantId=x')).body).toMatchObject({ code: 'validation_error', field: 'tenantId' });
    expect((await open(`/applications/not-a-uuid/audit-logs/stream`)).body).toMatchObject({ code: 'validation_error', field: 'appId' });
    // Read by the list's RFC 3339 scalar: no day rolled over into the next, no time read in the server's zone.
    // And no time before the ids' epoch (1970): PostgreSQL holds no year 0.
    const refusals = [['from', '2024-02-30T00:00:00Z'], ['to', '2024-01-01T24:00:00Z'], ['from', '2024-01-01T10:00:00'], ['to', 'yesterday'],
      ['from', '0000-01-01T00:00:00Z'], ['to', '0000-01-01T00:00:00Z'], ['from', '1969-12-31T23:59:59.999Z'], ['to', '9999-12-31T23:59:59-23:59'], ['apiKey', 'not-a-key']];
    for (const [name, value] of refusals) {
      const query = `${name}=${encodeURIComponent(value!)}`;
      const listed = await admin.get(`/audit-logs?${query}`);
      expect(listed.status, value).toBe(422);
      expect(listed.body, value).toMatchObject({ code: 'validation_error', field: name });
      expect((await open(`/audit-logs/stream?${query}`)).body, value).toEqual(listed.body);
    }
    // A record of tenant B named on tenant A's stream: as unknown as an id that never was.
    const inB = await createUser(tenantB, 'b-other@example.com');
    const [record] = await app.sql<{ id: string }>(`select id::text from audit_log where target_id = ?`, [inB]);
    const refused = await open(`/applications/${app.root.applicationId}/tenants/${tenantA}/audit-logs/stream`, app.root.apiKey, { 'last-event-id': record!.id });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'Last-Event-ID' });
    const noPermission = await admin.post('/api-keys', { name: 'no audit', permissions: ['users:read'] });
    expect((await open('/audit-logs/stream', noPermission.body.secret as string)).status).toBe(403);
    expect((await open('/audit-logs/stream', 'gh_not_a_key')).status).toBe(401);
    expect((await admin.post('/audit-logs/stream', {})).status).toBe(405);
  });
});

describe.runIf(Boolean(process.env['TEST_DATABASE_URL']))('a transaction running elsewhere on the server', () => {
  it('holds the stream back, but a stream opened meanwhile sends nothing committed before it opened', async () => {
    const elsewhere = new pg.Client({ connectionString: app.gatehouse.services.config.databaseUrl });
    await elsewhere.connect();
    try {
      await elsewhere.query('begin');
      // An id taken: the records committed from now on are not final until this transaction ends.
      await elsewhere.query('select pg_current_xact_id()');
      const before = await createUser(tenantA, 'held-before@example.com');
      const stream = await open('/audit-logs/stream');
      const after = await createUser(tenantA, 'held-after@example.com');
      await elsewhere.query('commit');
      await stream.until(hasTarget(after), 'the record written after it opened');
      expect(recordsOf(stream).map((record) => record.target.id)).not.toContain(before);
    } finally {
      await elsewhere.end();
    }
  });

  it('resumed after a record the list showed while an older transaction ran: what that transaction commits after is sent, the record and those before it are not', async () => {
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    const written = randomUUID();
    let idTaken!: () => void;
    const older = new Promise<void>((resolve) => (idTaken = resolve));
    // The application's own write, its transaction's id taken (a row locked, say) before the records below are made.
    const writing = app.gatehouse.services.orm.em.fork().transactional(async (em) => {
      await em.execute('select pg_current_xact_id()');
      idTaken();
      await held;
      recordAudit(em, { applicationId: app.root.applicationId, tenantId: tenantA, requestId: randomUUID(), principal: { actor: { type: 'system', id: 'test' } } }, {
        action: 'user.updated',
        targetType: 'user',
        targetId: written,
      });
    });
    await older;
    const before = await createUser(tenantA, 'listed-before@example.com');
    const listed = await createUser(tenantA, 'listed@example.com');
    const [record] = (await admin.get(`/audit-logs?target=${listed}`)).body.data as { id: string }[];
    const stream = await open('/audit-logs/stream', app.root.apiKey, { 'last-event-id': record!.id });
    expect(stream.status).toBe(200);
    // Held back behind the record, its heartbeats name no place before it: a reconnection would send it again. The client
    // keeps the record's id meanwhile.
    await stream.until((s) => s.comments.length >= 3, 'heartbeats');
    expect(stream.lastEventId).toBeUndefined();
    commit();
    await writing;
    const after = await createUser(tenantA, 'listed-after@example.com');
    await stream.until(hasTarget(after), 'the record written after the stream opened');
    expect(recordsOf(stream).map((sent) => sent.target.id)).toEqual([written, after]);
    expect(recordsOf(stream).map((sent) => sent.target.id)).not.toContain(before);
  });

  it('with a `to` long past, ends only once a transaction older than its records ends: they may not be final before', async () => {
    const elsewhere = new pg.Client({ connectionString: app.gatehouse.services.config.databaseUrl });
    await elsewhere.connect();
    try {
      await elsewhere.query('begin');
      await elsewhere.query('select pg_current_xact_id()');
      const { userId, stream } = await streamOfLongAgo('held-long-ago@example.com');
      // The stream reads at least once a second: held back, it neither sends the record nor ends meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect([stream.ended, recordsOf(stream)]).toEqual([false, []]);
      await elsewhere.query('commit');
      await stream.until((s) => s.ended, 'the stream ended');
      expect(recordsOf(stream).map((record) => record.target.id)).toEqual([userId]);
      expect(stream.events.at(-1)?.event).toBe('end');
    } finally {
      await elsewhere.end();
    }
  });
});

describe.runIf(Boolean(process.env['TEST_DATABASE_URL']))('two instances on PostgreSQL', () => {
  const startInstance = async (overrides: Partial<Config> = {}) => {
    const instance = await startGatehouse({ ...app.gatehouse.services.config, ...overrides }, { logger: false });
    await instance.server.app.listen({ port: 0, host: '127.0.0.1' });
    return { instance, url: `http://127.0.0.1:${(instance.server.app.server.address() as AddressInfo).port}` };
  };
  let second: Gatehouse | undefined;
  let deaf: Gatehouse | undefined;
  afterAll(async () => Promise.all([second?.close(), deaf?.close()]));

  it('a write on instance A appears on a stream held open on instance B; B’s shutdown ends it as an answer ends; after B restarts, Last-Event-ID resumes there', async () => {
    const b = await startInstance();
    second = b.instance;
    const onB = await open('/audit-logs/stream', app.root.apiKey, {}, b.url);
    const written = await createUser(tenantA, 'across@example.com');
    await onB.until(hasTarget(written), 'the record written on A');
    const lastId = onB.events.at(-1)!.id!;
    await b.instance.close();
    await onB.until((s) => s.ended, 'the stream ended by the shutdown');
    expect(onB.endedCleanly).toBe(true);
    const missed = await createUser(tenantA, 'while-down@example.com');
    const restarted = await startInstance();
    second = restarted.instance;
    const resumed = await open('/audit-logs/stream', app.root.apiKey, { 'last-event-id': lastId }, restarted.url);
    await resumed.until(hasTarget(missed), 'the record written while B was down');
    expect(recordsOf(resumed).map((record) => record.target.id)).toEqual([missed]);
  });

  it('a key revoked on A while B still holds it in its cache (B hears no invalidation): B’s stream sends nothing committed after the revocation, and ends as for any revoked key', async () => {
    // Without Redis, B is never told of A's changes: its credential cache keeps the key for its whole lifetime.
    const b = await startInstance({ redisUrl: undefined });
    deaf = b.instance;
    const key = await admin.post(`/applications/${app.root.applicationId}/tenants/${tenantA}/api-keys`, { name: 'reader on B', permissions: ['audit_logs:read'] });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const secret = key.body.secret as string;
    const onB = await open('/audit-logs/stream', secret, {}, b.url);
    const before = await createUser(tenantA, 'before-revocation-on-a@example.com');
    await onB.until(hasTarget(before), 'the record written before the revocation');

    expect((await admin.delete(`/api-keys/${key.body.key.id}`)).status).toBeLessThan(300);
    // The premise: B's cache still takes the key.
    expect((await new HttpClient(b.url, { apiKey: secret }).get('/audit-logs')).status).toBe(200);
    const after = await createUser(tenantA, 'after-revocation-on-a@example.com');
    await onB.until((s) => s.ended || hasTarget(after)(s), 'the stream ended, or the record written after the revocation');
    expect(recordsOf(onB).map((record) => record.target.id)).not.toContain(after);
    expect(onB.endedCleanly).toBe(true);
  });
});
