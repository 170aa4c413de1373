import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password-hash.ts';
import { loadConfig } from '../../src/config.ts';
import { lockTurnsWaiting } from '../../src/db/advisory-lock.ts';
import { ensureConsoles } from '../../src/domain/console/console.ts';
import { askedForLock } from '../../src/domain/email/flow-mail.ts';
import type { TestApp } from '../support/app.ts';
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
let app: TestApp;
let hosted: HostedTestApp;
const logged: string[] = [];

beforeAll(async () => {
  const quiet = { ...loadConfig({}).email, pollMs: 3_600_000 };
  hosted = await startHostedTestApp({ databasePoolMax: POOL, email: quiet, auditRetentionEveryMs: 0 }, { logStream: { write: (line) => logged.push(line) } });
  ({ app } = hosted);
});
afterAll(async () => app?.close());

/** Another session holding the lock `name`, as another instance's transaction would. */
async function heldElsewhere(databaseUrl: string, name: string): Promise<{ waiters(): Promise<number>; release(): Promise<void> }> {
  const locker = new pg.Client({ connectionString: databaseUrl });
  await locker.connect();
  await locker.query('select pg_advisory_lock(hashtext($1))', [name]);
  return {
    async waiters() {
      const { rows } = await locker.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
      return rows[0]!.n;
    },
    async release() {
      await locker.query('select pg_advisory_unlock(hashtext($1))', [name]);
      await locker.end();
    },
  };
}

const sendTest = (n: number) => app.http.post('/email/test', { to: `burst-${n}@example.com` });

/**
 * Fires BURST requests (`request(n)`) that all wait on the lock `name`, held by another session past the pool's 5 s
 * wait: at most one of them may hold a connection meanwhile, the rest waiting their turn in the process, and an
 * unrelated request is answered. The burst's statuses, once the lock is released.
 */
async function burstWaitingOn(name: string, request: (n: number) => Promise<{ status: number }>): Promise<number[]> {
  const lock = await heldElsewhere(app.gatehouse.services.config.databaseUrl!, name);
  let released = false;
  try {
    const burst = Array.from({ length: BURST }, (_, n) => request(n));
    for (let attempt = 0; (await lock.waiters()) < 1; attempt += 1) {
      if (attempt > 500) throw new Error(`no request waits on ${name}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Past the pool's 5 s wait: the burst's requests would time out at the pool had they taken every connection.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    expect(await lock.waiters()).toBe(1);
    expect(lockTurnsWaiting()).toBe(BURST - 1);
    const beside = await app.http.get('/users');
    expect(beside.status).toBe(200);
    await lock.release();
    released = true;
    const answered = await Promise.all(burst);
    expect(logged.filter((line) => line.includes('database pool exhausted'))).toEqual([]);
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
    expect(await burstWaitingOn(`mail-limit:${app.root.applicationId}:test:`, sendTest)).toEqual(all(201));
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
    const statuses = await burstWaitingOn(askedForLock(app.root.applicationId, email), (n) => forms[n]!.jar.submit(forms[n]!.form, { email }));
    expect(statuses).toEqual(all(200));
  }, 60_000);

  it('invitations of one address to one tenant', async () => {
    const tenantId = await app.createTenant('Burst of invitations');
    const path = `/applications/${app.root.applicationId}/tenants/${tenantId}/invitations`;
    const statuses = await burstWaitingOn(`invitation:${app.root.applicationId}:${tenantId}:invited-burst@example.com`, () =>
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
    const statuses = await burstWaitingOn(`api-resource-identifier:${identifier}`, (n) => app.http.patch(`/api-resources/${ids[n]}`, { identifier }));
    // An application holds one identifier once: the first renamed keeps it (unique), the others are refused.
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
  }, 30_000);

  it('disabling the console’s last sign-in provider', async () => {
    await ensureConsoles(app.gatehouse.services.orm, app.gatehouse.services.config.publicUrl, randomUUID(), {
      email: 'operator-burst@ops.example',
      passwordHash: await hashPassword('a long operator passphrase'),
    });
    const sql = <T>(query: string, params: unknown[]) => app.gatehouse.services.orm.em.getConnection().execute<T[]>(query, params);
    const [{ id: consoleId }] = (await sql<{ id: string }>('select id from application where organization_id = ? and console', [app.root.organizationId])) as [{ id: string }];
    const [{ id: operatorId }] = (await sql<{ id: string }>('select id from app_user where application_id = ?', [consoleId])) as [{ id: string }];
    const operator = app.as({ bearer: await app.mintAccessToken({ sub: operatorId, app_id: consoleId }) });
    const [password] = (await operator.get('/auth-providers')).body.data as { id: string }[];
    const statuses = await burstWaitingOn(`gatehouse:console-sign-in:${consoleId}`, () => operator.patch(`/auth-providers/${password!.id}`, { enabled: false }));
    expect(statuses).toEqual(all(409));
  }, 30_000);
});

it('the embedded database and PostgreSQL alike: a concurrent burst of test mails is served, each mail queued once', async () => {
  const answered = await Promise.all(Array.from({ length: BURST }, (_, n) => sendTest(100 + n)));
  expect(answered.map((response) => response.status)).toEqual(Array.from({ length: BURST }, () => 201));
  expect(new Set(answered.map((response) => response.body.id as string)).size).toBe(BURST);
});
