import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/orm.ts';
import { lockTurnsWaiting } from '../../src/db/advisory-lock.ts';

/**
 * Where a test file's service keeps its data: a fresh database on the PostgreSQL of TEST_DATABASE_URL (CI), or
 * a fresh embedded database in a temporary directory when it is unset. Either way, files never share state.
 */
export interface TestDatabase {
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  drop(): Promise<void>;
}

/**
 * A migrated, empty database that every test database of a run starts as a copy of (test/support/global-setup.ts):
 * a PostgreSQL database name, or the data directory of an embedded one. Copying it costs a fraction of what making
 * a database and migrating it does (an embedded one: about 1.5 s instead of 5), once per test file. Unset (a bench,
 * a script), every test database is made and migrated from nothing.
 */
export const TEMPLATE_ENV = 'GATEHOUSE_TEST_DATABASE_TEMPLATE';

/** The embedded database's own files within a service's data directory (src/db/embedded.ts). */
const embeddedFiles = (dataDir: string) => join(dataDir, 'pg');

/** coreutils' cp: a tenth of the time of Node's fs.cp for the embedded database's 1,200 files. */
const copyDirectory = async (from: string, to: string): Promise<void> => void (await promisify(execFile)('cp', ['-R', from, to]));

/** `run` on a connection of its own to the server's administration database, closed after it. */
export async function onAdmin<T>(adminUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A vitest run's name, in its PostgreSQL test databases': dropped after the run, as each DROP DATABASE waits for a checkpoint. */
export const RUN_ENV = 'GATEHOUSE_TEST_RUN';

export async function createTestDatabase(): Promise<TestDatabase> {
  const template = process.env[TEMPLATE_ENV] || undefined;
  const dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-test-'));
  const adminUrl = process.env['TEST_DATABASE_URL'];
  if (adminUrl === undefined || adminUrl === '') {
    if (template !== undefined) await copyDirectory(embeddedFiles(template), embeddedFiles(dataDir));
    return { databaseUrl: undefined, dataDir, drop: () => rm(dataDir, { recursive: true, force: true }) };
  }
  const run = process.env[RUN_ENV] || undefined;
  const name = `gatehouse_test_${run === undefined ? '' : `${run}_`}${randomBytes(6).toString('hex')}`;
  await onAdmin(adminUrl, (admin) => admin.query(`create database ${name}${template === undefined ? '' : ` template ${template}`}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    dataDir,
    async drop() {
      if (run === undefined) await dropDatabases(adminUrl, [name]);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function dropDatabases(adminUrl: string, names: readonly string[]): Promise<void> {
  await onAdmin(adminUrl, async (admin) => {
    for (const name of names) await admin.query(`drop database if exists ${name} with (force)`);
  });
}

/** Several at once, so that their drops share checkpoints. */
export async function dropRunDatabases(run: string): Promise<void> {
  const adminUrl = process.env['TEST_DATABASE_URL'];
  if (adminUrl === undefined || adminUrl === '' || !/^[0-9a-f]+$/.test(run)) return;
  const found = await onAdmin(adminUrl, (admin) =>
    admin.query<{ datname: string }>(`select datname from pg_database where datname like $1`, [`gatehouse\\_test\\_${run}\\_%`]),
  );
  const names = found.rows.map((row) => row.datname);
  const lanes = 8;
  await Promise.all(Array.from({ length: lanes }, (_, lane) => dropDatabases(adminUrl, names.filter((_, index) => index % lanes === lane))));
}

/** Held by a run for as long as it lasts, on a connection of its own: a killed run's ends with its process. */
const runLockKey = (run: string) => `gatehouse test run ${run}`;

/** Holds the run's lock (PostgreSQL only); the release ends the connection. */
export async function holdRunLock(run: string): Promise<() => Promise<void>> {
  const adminUrl = process.env['TEST_DATABASE_URL'];
  if (adminUrl === undefined || adminUrl === '') return async () => {};
  const client = new pg.Client({ connectionString: adminUrl });
  // A connection lost meanwhile loses the lock, not the run.
  client.on('error', () => {});
  await client.connect();
  await client.query('select pg_advisory_lock(hashtext($1))', [runLockKey(run)]);
  return () => client.end();
}

/** Runs whose test databases remain while no process holds their lock: killed before their end dropped them. */
export async function deadRuns(): Promise<string[]> {
  const adminUrl = process.env['TEST_DATABASE_URL'];
  if (adminUrl === undefined || adminUrl === '') return [];
  return onAdmin(adminUrl, async (admin) => {
    const found = await admin.query<{ run: string }>(
      `select distinct substring(datname from '^gatehouse_test_([0-9a-f]+)_') as run from pg_database where datname ~ '^gatehouse_test_[0-9a-f]+_'`,
    );
    const dead: string[] = [];
    for (const { run } of found.rows) {
      const [lock] = (await admin.query<{ taken: boolean }>('select pg_try_advisory_lock(hashtext($1)) as taken', [runLockKey(run)])).rows;
      if (lock?.taken !== true) continue;
      dead.push(run);
      await admin.query('select pg_advisory_unlock(hashtext($1))', [runLockKey(run)]);
    }
    return dead;
  });
}

/**
 * Makes the run's template (TEMPLATE_ENV): a test database brought up to the latest migration, then closed, since
 * PostgreSQL copies only a database nobody is connected to. Returns what TEMPLATE_ENV must hold, and its removal.
 */
export async function createTemplateDatabase(): Promise<{ readonly template: string; readonly drop: () => Promise<void> }> {
  const database = await createTestDatabase();
  await (await openDatabase(loadConfig({}, { databaseUrl: database.databaseUrl, dataDir: database.dataDir }))).close();
  const template = database.databaseUrl === undefined ? database.dataDir : new URL(database.databaseUrl).pathname.slice(1);
  return { template, drop: () => database.drop() };
}

export const usingEmbeddedDatabase = (): boolean => !process.env['TEST_DATABASE_URL'];

/**
 * Waits until at least `count` statements of the service's database wait on a lock (PostgreSQL only: the embedded
 * database has one session): the moment a race test's queued request is known to be waiting.
 */
export async function lockWaitersAtLeast(orm: MikroORM, count: number): Promise<void> {
  for (let attempt = 0; attempt < 1500; attempt += 1) {
    const [row] = await orm.em
      .getConnection()
      .execute<{ n: number }[]>(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
    if (row!.n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} statements waiting on a lock`);
}

/** Waits until at least `count` of this process's requests wait for their turn at an advisory lock (any database). */
export async function lockTurnsWaitingAtLeast(count: number): Promise<void> {
  for (let attempt = 0; attempt < 1500; attempt += 1) {
    if (lockTurnsWaiting() >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} requests waiting for a turn at a lock`);
}
