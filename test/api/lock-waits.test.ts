import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password-hash.ts';
import { loadConfig } from '../../src/config.ts';
import { lockTurnsWaiting } from '../../src/db/advisory-lock.ts';
import { ensureConsoles } from '../../src/domain/console/console.ts';
import { askedForLock } from '../../src/domain/email/flow-mail.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { usingEmbeddedDatabase } from '../support/database.ts';
import { startHostedTestApp, type HostedTestApp } from '../support/hosted-app.ts';
import { createPasswordUser } from '../support/users.ts';

/**
 * Requests that wait on one advisory lock (src/db/advisory-lock.ts): an instance's requests for a lock take turns in
 * process before taking a connection, so at most one of them holds a pooled connection while it waits at the
 * database, and a lock held long elsewhere (another instance's transaction) leaves the pool to everyone else.
 */
const POOL = 3;
const BURST = 3 * POOL;
const quiet = { databasePoolMax: POOL, email: { ...loadConfig({}).email, pollMs: 3_600_000 }, auditRetentionEveryMs: 0 };
let app: TestApp;
let hosted: HostedTestApp;
const logged: string[] = [];

beforeAll(async () => {
  hosted = await startHostedTestApp(quiet, { logStream: { write: (line) => logged.push(line) } });
  ({ app } = hosted);
});
afterAll(async () => app?.close());

/** A statement taking a lock, and its parameters. */
type Lock = readonly [sql: string, params: unknown[]];
/** The advisory lock `name`. */
const advisory = (name: string): Lock => ['select pg_advisory_xact_lock(hashtext($1))', [name]];

/** Another session's transaction holding `lock`, as another instance's would; `waiters` counts sessions waiting on any lock. */
async function heldElsewhere(databaseUrl: string, [sql, params]: Lock): Promise<{ waiters(): Promise<number>; release(): Promise<void> }> {
  const [locker, observer] = [new pg.Client({ connectionString: databaseUrl }), new pg.Client({ connectionString: databaseUrl })];
  await Promise.all([locker.connect(), observer.connect()]);
  await locker.query('begin');
  await locker.query(sql, params);
  return {
    async waiters() {
      const { rows } = await observer.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
      return rows[0]!.n;
    },
    async release() {
      await locker.query('commit');
      await Promise.all([locker.end(), observer.end()]);
    },
  };
}

const sendTest = (n: number) => app.http.post('/email/test', { to: `burst-${n}@example.com` });

/** A test app, and the log lines it wrote. */
interface Served {
  readonly app: TestApp;
  readonly logged: string[];
}

/**
 * Fires BURST requests (`request(n)`) that all wait on the lock `held`, held by another session past the pool's 5 s
 * wait: at most one of them may hold a connection meanwhile, the rest waiting their turn in the process, and an
 * unrelated request is answered. The burst's statuses, once the lock is released.
 */
async function burstWaitingOn(held: Lock, request: (n: number) => Promise<{ status: number }>, on: Served = { app, logged }): Promise<number[]> {
  const lock = await heldElsewhere(on.app.gatehouse.services.config.databaseUrl!, held);
  let released = false;
  try {
    const burst = Array.from({ length: BURST }, (_, n) => request(n));
    for (let attempt = 0; (await lock.waiters()) < 1; attempt += 1) {
      if (attempt > 500) throw new Error(`no request waits on ${held[0]}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Past the pool's 5 s wait: the burst's requests would time out at the pool had they taken every connection.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    const beside = await on.app.http.get('/users');
    expect(beside.status).toBe(200);
    expect(await lock.waiters()).toBe(1);
    expect(lockTurnsWaiting()).toBe(BURST - 1);
    await lock.release();
    released = true;
    const answered = await Promise.all(burst);
    expect(on.logged.filter((line) => line.includes('database pool exhausted'))).toEqual([]);
    return answered.map((response) => response.status);
  } finally {
    if (!released) await lock.release();
  }
}

const all = (status: number) => Array.from({ length: BURST }, () => status);
/** One request passes, the others find what it wrote. */
const onceThen = (status: number, others: number) => [status, ...Array.from({ length: BURST - 1 }, () => others)];

// A second session holds the lock: the embedded database serves one session at a time.
describe.skipIf(usingEmbeddedDatabase())('on PostgreSQL, a burst waiting on a lock held past the pool wait holds one connection, leaves the pool to other requests, and is served once the lock is free', () => {
  it('test mails of one application', async () => {
    expect(await burstWaitingOn(advisory(`mail-limit:${app.root.applicationId}:test:`), sendTest)).toEqual(all(201));
  }, 30_000);

  it('password resets asked for one address (its mails’ hourly limit)', async () => {
    const email = 'reset-burst@example.com';
    await createPasswordUser(app.http, email);
    // The forms are opened first: the burst is their posting.
    const forms = await Promise.all(
      Array.from({ length: BURST }, async () => {
        const { jar, page } = await hosted.signInPage();
        return { jar, form: await jar.visit(`${page.url}/forgot`) };
      }),
    );
    const statuses = await burstWaitingOn(advisory(askedForLock(app.root.applicationId, email)), (n) => forms[n]!.jar.submit(forms[n]!.form, { email }));
    expect(statuses).toEqual(all(200));
  }, 60_000);

  it('invitations of one address to one tenant', async () => {
    const tenantId = await app.createTenant('Burst of invitations');
    const path = `/applications/${app.root.applicationId}/tenants/${tenantId}/invitations`;
    const statuses = await burstWaitingOn(advisory(`invitation:${app.root.applicationId}:${tenantId}:invited-burst@example.com`), () =>
      app.http.post(path, { email: 'invited-burst@example.com' }),
    );
    expect(statuses.sort()).toEqual(onceThen(201, 409));
  }, 30_000);

  it('API resources renamed to one identifier', async () => {
    const ids = await Promise.all(
      Array.from({ length: BURST }, async (_, n) => {
        const created = await app.http.post('/api-resources', { identifier: `https://burst-${n}.example/api`, name: `Burst ${n}` });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        return created.body.id as string;
      }),
    );
    const identifier = 'https://burst.example/api';
    const statuses = await burstWaitingOn(advisory(`api-resource-identifier:${identifier}`), (n) => app.http.patch(`/api-resources/${ids[n]}`, { identifier }));
    // An application holds one identifier once: the first renamed keeps it (unique), the others are refused.
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
  }, 30_000);

  it('disabling the console’s last sign-in provider', async () => {
    await ensureConsoles(app.gatehouse.services.orm, app.gatehouse.services.config.publicUrl, randomUUID(), {
      email: 'operator-burst@ops.example',
      passwordHash: await hashPassword('a long operator passphrase'),
    });
    const [{ id: consoleId }] = (await app.sql<{ id: string }>('select id from application where organization_id = ? and console', [app.root.organizationId])) as [{ id: string }];
    const [{ id: operatorId }] = (await app.sql<{ id: string }>('select id from app_user where application_id = ?', [consoleId])) as [{ id: string }];
    const operator = app.as({ bearer: await app.mintAccessToken({ sub: operatorId, app_id: consoleId }) });
    const [password] = (await operator.get('/auth-providers')).body.data as { id: string }[];
    const statuses = await burstWaitingOn(advisory(`gatehouse:console-sign-in:${consoleId}`), () => operator.patch(`/auth-providers/${password!.id}`, { enabled: false }));
    expect(statuses).toEqual(all(409));
  }, 30_000);
});

it('the embedded database and PostgreSQL alike: a concurrent burst of test mails is served, each mail queued once', async () => {
  const answered = await Promise.all(Array.from({ length: BURST }, (_, n) => sendTest(100 + n)));
  expect(answered.map((response) => response.status)).toEqual(Array.from({ length: BURST }, () => 201));
  expect(new Set(answered.map((response) => response.body.id as string)).size).toBe(BURST);
});

/**
 * Under an Idempotency-Key a request's writes commit at its end, with its stored answer (src/http/idempotency.ts), and its
 * advisory locks are held until then: so are this process's turns at them.
 */
const withKey = () => ({ headers: { 'idempotency-key': randomUUID() } });

describe.skipIf(usingEmbeddedDatabase())('on PostgreSQL, under Idempotency-Keys', () => {
  const small: Served = { app: undefined as unknown as TestApp, logged: [] };
  beforeAll(async () => {
    // Two connections: one for the request holding the lock, one for the unrelated request.
    Object.assign(small, { app: await startTestApp({ ...quiet, databasePoolMax: 2 }, { logStream: { write: (line) => small.logged.push(line) } }) });
  });
  afterAll(async () => small.app?.close());

  it('a burst of test mails whose first waits at its commit past its locked write holds one connection: the next begins once that request ends', async () => {
    const { applicationId } = small.app.root;
    // A mail's row refers to its application, checked at commit (deferred): held elsewhere, the first request's
    // commit waits, its advisory lock held.
    const application: Lock = ['select 1 from application where id = $1 for update', [applicationId]];
    const send = (n: number) => small.app.http.post('/email/test', { to: `keyed-${n}@example.com` }, withKey());
    expect(await burstWaitingOn(application, send, small)).toEqual(all(201));
    const mails = (await small.app.http.get('/email/deliveries?templateKey=test')).body.data as unknown[];
    expect(mails).toHaveLength(BURST);
  }, 30_000);
});

it('the embedded database and PostgreSQL alike: a keyed request refused in its turn is rolled back and its turn ends, so the next request on the lock is answered', async () => {
  const limited = await startTestApp({ ...quiet, testEmailsPerHour: 1 });
  try {
    const send = (to: string) => limited.http.post('/email/test', { to }, withKey());
    expect((await send('limited-1@example.com')).status).toBe(201);
    // 429: no outcome to store, so its writes are rolled back (src/http/idempotency.ts).
    const refused = await send('limited-2@example.com');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    // A turn left behind would hold up every later request on the lock.
    expect((await send('limited-3@example.com')).status).toBe(429);
    expect((await limited.http.post('/email/test', { to: 'limited-4@example.com' })).status).toBe(429);
    expect((await limited.http.get('/email/deliveries?templateKey=test')).body.data).toHaveLength(1);
  } finally {
    await limited.close();
  }
}, 60_000);
