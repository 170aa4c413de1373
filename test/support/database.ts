import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';

/**
 * Where a test file's service keeps its data: a fresh database on the PostgreSQL of TEST_DATABASE_URL (CI), or
 * a fresh embedded database in a temporary directory when it is unset. Either way, files never share state.
 */
export interface TestDatabase {
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-test-'));
  const adminUrl = process.env['TEST_DATABASE_URL'];
  if (adminUrl === undefined || adminUrl === '') {
    return { databaseUrl: undefined, dataDir, drop: () => rm(dataDir, { recursive: true, force: true }) };
  }
  const name = `gatehouse_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    dataDir,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
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
