import pg, { type Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/orm.ts';
import { STATEMENTS_PER_REQUEST, withStatementGate } from '../../src/db/statement-gate.ts';
import { createTestDatabase, usingEmbeddedDatabase, type TestDatabase } from '../support/database.ts';

/**
 * The per-request gate to the pool (src/db/statement-gate.ts) on the ORM itself: what takes a pooled connection waits
 * its turn in the request's gate; a transaction's statements never do, so a request holding a transaction can neither
 * wait on itself nor be kept from sending a statement beside it. A pool wait that times out says the pool was exhausted.
 */
let testDatabase: TestDatabase;
let database: Database;
let pool: Pool;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  database = await openDatabase(loadConfig({}, { databaseUrl: testDatabase.databaseUrl, dataDir: testDatabase.dataDir, databasePoolMax: 6 }));
  pool = await database.orm.em.getConnection().getNativeClient();
});
afterAll(async () => {
  await database?.close();
  await testDatabase?.drop();
});

/** Runs `work` as a request's handler runs: inside a gate of its own. */
function inRequest<T>(work: () => Promise<T>): Promise<T> {
  let result!: Promise<T>;
  withStatementGate(() => {
    result = work();
  });
  return result;
}

const inUse = () => pool.totalCount - pool.idleCount;
const LOCK = 424_242;

/** A session of its own holding an advisory lock: statements asking for it block at the database, holding their connection. */
async function lockHeldElsewhere(): Promise<{ waiters(): Promise<number>; release(): Promise<void> }> {
  const locker = new pg.Client({ connectionString: testDatabase.databaseUrl });
  await locker.connect();
  await locker.query('select pg_advisory_lock($1)', [LOCK]);
  return {
    async waiters() {
      const { rows } = await locker.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
      return rows[0]!.n;
    },
    async release() {
      await locker.query('select pg_advisory_unlock($1)', [LOCK]);
      await locker.end();
    },
  };
}

async function waitersReach(lock: { waiters(): Promise<number> }, count: number): Promise<void> {
  for (let attempt = 0; attempt < 1_500; attempt += 1) {
    if ((await lock.waiters()) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} statements waiting on the lock`);
}

// A second session holds the lock the statements wait on: the embedded database serves one session at a time.
describe.skipIf(usingEmbeddedDatabase())('on PostgreSQL', () => {
  it(`a request's statements hold at most ${STATEMENTS_PER_REQUEST} connections; its transaction's statements pass while they are held, and nothing deadlocks`, async () => {
    const lock = await lockHeldElsewhere();
    const connection = database.orm.em.getConnection();
    const outcome = inRequest(async () => {
      const transaction = database.orm.em.fork();
      await transaction.begin();
      // One more than the gate admits, each blocked at the database holding its connection.
      const blocked = Array.from({ length: STATEMENTS_PER_REQUEST + 1 }, () => connection.execute('select pg_advisory_xact_lock_shared(?)', [LOCK]));
      await waitersReach(lock, STATEMENTS_PER_REQUEST);
      // Every permit is held: the transaction's statements run on its own connection all the same.
      const inTransaction = await Promise.all([1, 2, 3].map((n) => transaction.execute<{ n: number }[]>('select ?::int as n', [n])));
      const seen = { inTransaction: inTransaction.map(([row]) => row!.n), inUse: inUse(), queuedAtPool: pool.waitingCount, waiters: await lock.waiters() };
      await transaction.commit();
      await lock.release();
      await Promise.all(blocked);
      return seen;
    });
    const seen = await outcome;
    expect(seen.inTransaction).toEqual([1, 2, 3]);
    // The blocked statements and the transaction; the last statement waits in the gate, not at the pool or the database.
    expect(seen.inUse).toBe(STATEMENTS_PER_REQUEST + 1);
    expect(seen.queuedAtPool).toBe(0);
    expect(seen.waiters).toBe(STATEMENTS_PER_REQUEST);
  });

  it('a request holding an open transaction may still send statements beside it', async () => {
    const answers = await inRequest(async () => {
      const transaction = database.orm.em.fork();
      await transaction.begin();
      await transaction.execute('select 1');
      const beside = await Promise.all(Array.from({ length: 2 * STATEMENTS_PER_REQUEST }, (_, n) => database.orm.em.fork().execute<{ n: number }[]>('select ?::int as n', [n])));
      await transaction.commit();
      return beside.map(([row]) => row!.n);
    });
    expect(answers).toEqual([0, 1, 2, 3]);
  });

  it('a wait for a connection that times out says the pool was exhausted, with the wait', async () => {
    const small = await openDatabase(loadConfig({}, { databaseUrl: testDatabase.databaseUrl, dataDir: testDatabase.dataDir }), { poolMax: 1 });
    try {
      const holder = small.orm.em.fork();
      await holder.begin();
      const refused = await small.orm.em.fork().execute('select 1').then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      await holder.rollback();
      expect(refused?.message).toMatch(/^database pool exhausted: no connection came free in \d+ ms \(1 of 1 open, 0 idle, 0 more statements waiting\)$/);
    } finally {
      await small.close();
    }
  });
});

it('the embedded database and PostgreSQL alike: a transaction run in a request, its statements concurrent, commits', async () => {
  const written = await inRequest(() =>
    database.orm.em.fork().transactional(async (em) => {
      const rows = await Promise.all(Array.from({ length: 2 * STATEMENTS_PER_REQUEST + 1 }, (_, n) => em.execute<{ n: number }[]>('select ?::int as n', [n])));
      return rows.map(([row]) => row!.n);
    }),
  );
  expect(written).toEqual([0, 1, 2, 3, 4]);
  expect(inUse()).toBe(0);
});
