import { randomUUID } from 'node:crypto';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import type { Pool } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { STATEMENTS_PER_REQUEST } from '../../src/db/statement-gate.ts';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { droppedRequest, type HttpResponse } from '../support/http.ts';
import { eventually } from '../support/graphql-socket.ts';
import { openSse, type SseStream } from '../support/sse.ts';

/**
 * One credential's burst must not take the database pool from everyone else (src/http/concurrency-cap.ts,
 * src/db/statement-gate.ts): past CONCURRENT_REQUESTS_PER_CREDENTIAL requests in flight, 429 `rate_limited`; and one
 * request's statements hold at most STATEMENTS_PER_REQUEST pooled connections, however many root fields it runs.
 */
const CAP = 3;
let app: TestApp;
let other: BootstrapResult;
let pool: Pool;

beforeAll(async () => {
  // A small pool on PostgreSQL (the embedded database's is its own 4); no outbox polls, no retention run: every
  // connection taken from the pool meanwhile is the tests' requests'.
  const quiet = { ...loadConfig({}).email, pollMs: 3_600_000 };
  app = await startTestApp({ concurrentRequestsPerCredential: CAP, databasePoolMax: 5, email: quiet, auditRetentionEveryMs: 0 });
  other = await app.bootstrapAnother();
  pool = await app.gatehouse.services.orm.em.getConnection().getNativeClient();
  for (let i = 0; i < 30; i += 1) await app.createUser(`burst-${i}@example.com`);
});
afterAll(async () => app?.close());

/** 20 aliased lists of users: within every documented limit, and more root fields than the pool has connections. */
const ALIASED = `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: users(pageSize: ${100 - i}) { data { id email name status tenantIds createdAt } next }`).join(' ')} }`;

/** A request whose headers have arrived and whose body has not: in flight for as long as the test likes. */
interface HeldRequest {
  finish(): Promise<{ status: number; body: string }>;
  /** The status it was answered before it was finished: a refusal, its headers having come while the cap was full. */
  readonly answeredEarly: number | undefined;
}

/** Held requests not yet finished: a failed test's are finished after it, or they would hold the cap and the close. */
const unfinished = new Set<HeldRequest>();
afterEach(async () => {
  await Promise.allSettled([...unfinished].map((held) => held.finish()));
  unfinished.clear();
});

function holdRequest(apiKey: string): HeldRequest {
  const body = JSON.stringify({ query: '{ users(pageSize: 1) { data { id } } }' });
  const request: ClientRequest = httpRequest(`${app.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
  });
  let answeredEarly: number | undefined;
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (response: IncomingMessage) => {
      if (!request.writableEnded) answeredEarly = response.statusCode;
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
  });
  request.write(body.slice(0, 1));
  request.flushHeaders();
  const held: HeldRequest = {
    finish() {
      unfinished.delete(held);
      if (!request.writableEnded) request.end(body.slice(1));
      return answered;
    },
    get answeredEarly() {
      return answeredEarly;
    },
  };
  unfinished.add(held);
  return held;
}

/**
 * Asks until the cap refuses, each answer before it `before` (200, or 401 for a key of no one): the held requests'
 * headers reach the server in their own time, which on a loaded machine may be after many quick answers, or while one
 * of those answers holds a slot: a held request refused then is held again, between two asks.
 */
async function firstRefusal(send: () => Promise<HttpResponse>, held: HeldRequest[], apiKey: string, before = 200): Promise<HttpResponse> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 10))) {
    for (const [index, request] of held.entries()) {
      if (request.answeredEarly === undefined) continue;
      expect(request.answeredEarly).toBe(429);
      held[index] = holdRequest(apiKey);
    }
    const answer = await send();
    if (answer.status === 429) return answer;
    expect(answer.status).toBe(before);
  }
  // What the held requests were answered says why they were not counted.
  const answers = await Promise.allSettled(held.map((request) => request.finish()));
  const said = answers.map((answer) => (answer.status === 'fulfilled' ? `${answer.value.status} ${answer.value.body.slice(0, 300)}` : String(answer.reason)));
  throw new Error(`the cap never refused; the held requests were answered: ${said.join(' | ')}`);
}

describe('requests in flight per credential', () => {
  it('past the cap a credential is refused 429 rate_limited with Retry-After and the rate-limit headers; another application is served; the held requests are answered', async () => {
    const held = Array.from({ length: CAP }, () => holdRequest(app.root.apiKey));
    const refused = await firstRefusal(() => app.http.get('/users?pageSize=1'), held, app.root.apiKey);
    expect(refused.body).toMatchObject({ code: 'rate_limited' });
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(refused.headers.get('x-ratelimit-remaining')).not.toBeNull();

    // GraphQL clients read the refusal in the GraphQL shape.
    // Asked until refused too: the loop's last request may hold its slot a moment more, and a held one be still on its way.
    const overGraphql = await firstRefusal(() => app.http.graphql('{ users(pageSize: 1) { data { id } } }'), held, app.root.apiKey);
    expect(overGraphql.status).toBe(429);
    expect(overGraphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(overGraphql.headers.get('retry-after')).toBe('1');

    // Another organization's key has slots of its own; probes are outside the cap.
    expect((await app.as({ apiKey: other.apiKey }).get('/users?pageSize=1')).status).toBe(200);
    expect((await fetch(`${app.baseUrl}/healthz`)).status).toBe(200);

    const answers = await Promise.all(held.map((request) => request.finish()));
    expect(answers.map(({ status }) => status)).toEqual(Array(CAP).fill(200));
    // The slots are given back once answered.
    expect((await app.http.get('/users?pageSize=1')).status).toBe(200);
  }, 150_000);

  it('requests without working credentials are capped per client address, apart from any credential', async () => {
    const held = Array.from({ length: CAP }, () => holdRequest('gh_not_a_key_of_anyone_0123456789abcdef'));
    const stranger = app.as({ apiKey: 'gh_not_a_key_of_anyone_0123456789abcdef' });
    const refused = await firstRefusal(() => stranger.get('/users?pageSize=1'), held, 'gh_not_a_key_of_anyone_0123456789abcdef', 401);
    expect(refused.body).toMatchObject({ code: 'rate_limited' });
    expect((await app.http.get('/users?pageSize=1')).status).toBe(200);
    const answers = await Promise.all(held.map((request) => request.finish()));
    expect(answers.map(({ status }) => status)).toEqual(Array(CAP).fill(401));
  }, 150_000);

  it('a burst of aliased queries beyond the cap is answered 200 or 429 with Retry-After, never 500, while another application is served', async () => {
    const neighbour = app.as({ apiKey: other.apiKey });
    const [burst, served] = await Promise.all([
      Promise.all(Array.from({ length: 4 * CAP }, () => app.http.graphql(ALIASED))),
      Promise.all(Array.from({ length: CAP }, () => neighbour.get('/users?pageSize=1'))),
    ]);
    const statuses = burst.map(({ status }) => status);
    expect(statuses.every((status) => status === 200 || status === 429), JSON.stringify(statuses)).toBe(true);
    // The first CAP to arrive are admitted whatever the timing.
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(CAP);
    for (const answer of burst.filter(({ status }) => status === 429)) expect(answer.headers.get('retry-after')).toBe('1');
    for (const answer of burst.filter(({ status }) => status === 200)) expect(Object.keys(answer.body.data ?? {})).toHaveLength(20);
    expect(served.map(({ status }) => status)).toEqual(Array(CAP).fill(200));
  });
});

describe('the pool connections one request holds', () => {
  /** The most connections checked out of the pool at once while `work` runs, once the earlier tests' have come back. */
  async function mostInUse<T>(work: () => Promise<T>): Promise<{ result: T; most: number }> {
    for (let attempt = 0; attempt < 1_500 && pool.totalCount > pool.idleCount; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    let inUse = pool.totalCount - pool.idleCount;
    expect(inUse).toBe(0);
    let most = 0;
    const acquired = () => (most = Math.max(most, ++inUse));
    const released = () => void (inUse -= 1);
    pool.on('acquire', acquired).on('release', released);
    try {
      return { result: await work(), most };
    } finally {
      pool.off('acquire', acquired).off('release', released);
    }
  }

  it(`a query of 20 aliased root fields succeeds holding at most ${STATEMENTS_PER_REQUEST} connections`, async () => {
    const { result, most } = await mostInUse(() => app.http.graphql(ALIASED));
    expect(result.status).toBe(200);
    expect(Object.keys(result.body.data ?? {})).toHaveLength(20);
    expect((result.body.data as Record<string, { data: unknown[] }>)['a0']!.data.length).toBeGreaterThanOrEqual(30);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(STATEMENTS_PER_REQUEST);
  });

  it('a write under an Idempotency-Key runs its statements in the request transaction it holds, and its answer is replayed', async () => {
    const headers = { 'idempotency-key': randomUUID() };
    const { result: created, most } = await mostInUse(() => app.http.post('/users', { email: 'gated-write@example.com', name: 'Gated' }, { headers }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // The transaction's connection, and the gate's statements beside it.
    expect(most).toBeLessThanOrEqual(STATEMENTS_PER_REQUEST + 1);
    const replayed = await app.http.post('/users', { email: 'gated-write@example.com', name: 'Gated' }, { headers });
    expect(replayed.status).toBe(201);
    expect(replayed.body.id).toBe(created.body.id);
  });

  it('a mutation writing in its transaction, then reading its answer, is answered', async () => {
    const { result: created, most } = await mostInUse(() =>
      app.http.graphql('mutation ($appId: UUID!) { createTenant(appId: $appId, input: { name: "Gated tenant" }) { id name } }', { appId: app.root.applicationId }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data).toMatchObject({ createTenant: { name: 'Gated tenant' } });
    expect(most).toBeLessThanOrEqual(STATEMENTS_PER_REQUEST + 1);
  });
});

describe('requests whose client left before they were answered', () => {
  let dropping: TestApp;
  beforeAll(async () => {
    // Each request reads its key from the database: its client leaves while it waits on that.
    dropping = await startTestApp({ concurrentRequestsPerCredential: CAP, apiKeyCacheMs: 0 });
  });
  afterAll(async () => dropping?.close());

  it('hold no slot: more such requests than the cap, then the credential is served as many at once as the cap allows', async () => {
    const server = dropping.gatehouse.server.app.server;
    const path = '/api/v1/users?pageSize=1';
    let received = 0;
    const count = (request: IncomingMessage) => void (request.url === path && (received += 1));
    server.on('request', count);
    // A request authenticated (this is its last statement) then takes its slot, before the next one's authentication
    // ends: the requests below ask after every dropped one reached its slot.
    const authenticated = () => dropping.queries.filter((query) => query.includes('from application as a join organization')).length;
    const before = authenticated();
    const dropped = 5 * CAP;
    try {
      for (let i = 0; i < dropped; i += 1) await droppedRequest(dropping.baseUrl, 'GET', path, { 'x-api-key': dropping.root.apiKey });
      await eventually(() => received === dropped && authenticated() - before === dropped, 'authentication of each dropped request');
    } finally {
      server.off('request', count);
    }
    const answers = await Promise.all(Array.from({ length: CAP }, () => dropping.http.get('/users?pageSize=1')));
    expect(answers.map(({ status, body }) => `${status} ${status === 200 ? '' : JSON.stringify(body)}`)).toEqual(Array(CAP).fill('200 '));
  });
});

// Last: the streams' server side may read the database for a while after the client closed them.
describe('event streams', () => {
  it('an event stream gives its slot back once open: it is bounded by STREAMS_PER_CREDENTIAL instead', async () => {
    const streams: SseStream[] = [];
    try {
      for (let i = 0; i < CAP + 1; i += 1) streams.push(await openSse(`${app.baseUrl}/api/v1/audit-logs/stream`, { 'x-api-key': app.root.apiKey }));
      expect(streams.map(({ status }) => status)).toEqual(Array(CAP + 1).fill(200));
      expect((await app.http.get('/users?pageSize=1')).status).toBe(200);
    } finally {
      for (const stream of streams) stream.close();
    }
  });
});
