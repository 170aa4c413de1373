import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { lockTurnsWaiting } from '../../src/db/advisory-lock.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { usingEmbeddedDatabase } from '../support/database.ts';

/**
 * Requests that wait on one advisory lock (src/db/advisory-lock.ts): an instance's requests for a lock take turns in
 * process before taking a connection, so at most one of them holds a pooled connection while it waits at the
 * database, and a lock held long elsewhere (another instance's transaction) leaves the pool to everyone else.
 */
const POOL = 3;
const BURST = 3 * POOL;
let app: TestApp;
const logged: string[] = [];

beforeAll(async () => {
  const quiet = { ...loadConfig({}).email, pollMs: 3_600_000 };
  app = await startTestApp({ databasePoolMax: POOL, email: quiet, auditRetentionEveryMs: 0 }, { logStream: { write: (line) => logged.push(line) } });
});
afterAll(async () => app?.close());

/** Another session holding the lock the test mails take, as another instance's transaction would. */
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

// A second session holds the lock: the embedded database serves one session at a time.
describe.skipIf(usingEmbeddedDatabase())('on PostgreSQL', () => {
  it('a burst waiting on a lock held past the pool wait holds one connection, leaves the pool to other requests, and is served once the lock is free', async () => {
    const databaseUrl = app.gatehouse.services.config.databaseUrl!;
    const lock = await heldElsewhere(databaseUrl, `mail-limit:${app.root.applicationId}:test:`);
    let released = false;
    try {
      const burst = Array.from({ length: BURST }, (_, n) => sendTest(n));
      for (let attempt = 0; (await lock.waiters()) < 1; attempt += 1) {
        if (attempt > 500) throw new Error('no test mail waits on the lock');
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
      expect(answered.map((response) => response.status)).toEqual(Array.from({ length: BURST }, () => 201));
      expect(logged.filter((line) => line.includes('database pool exhausted'))).toEqual([]);
    } finally {
      if (!released) await lock.release();
    }
  }, 30_000);
});

it('the embedded database and PostgreSQL alike: a concurrent burst of test mails is served, each mail queued once', async () => {
  const answered = await Promise.all(Array.from({ length: BURST }, (_, n) => sendTest(100 + n)));
  expect(answered.map((response) => response.status)).toEqual(Array.from({ length: BURST }, () => 201));
  expect(new Set(answered.map((response) => response.body.id as string)).size).toBe(BURST);
});
