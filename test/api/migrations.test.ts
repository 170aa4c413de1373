import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openEmbeddedDatabase } from '../../src/db/embedded.ts';
import { MIGRATIONS, openDatabase } from '../../src/db/orm.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

/**
 * Upgrades: a database as an earlier release left it (rows of `mikro_orm_migrations`, objects dropped to match) is
 * opened by this one, on PostgreSQL through the migrations' lock and on the embedded database.
 */
let database: TestDatabase;
afterEach(async () => database?.drop());

/** A migrated copy of the run's template. */
async function migratedDatabase(): Promise<TestDatabase> {
  database = await createTestDatabase();
  return database;
}

const configOf = (of: TestDatabase) => loadConfig({}, { databaseUrl: of.databaseUrl, dataDir: of.dataDir });

/** Opens it as the service does, migrations and all, and closes it. */
async function start(of: TestDatabase): Promise<void> {
  await (await openDatabase(configOf(of))).close();
}

/** `run` on a plain connection, no migration run: the embedded database is opened alone for it. */
async function onDatabase<T>(of: TestDatabase, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const embedded = of.databaseUrl === undefined ? await openEmbeddedDatabase(of.dataDir) : undefined;
  const client = new pg.Client({ connectionString: embedded?.url ?? of.databaseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
    await embedded?.stop();
  }
}

const sql = (of: TestDatabase, statements: string) => onDatabase(of, async (client) => void (await client.query(statements)));

async function executed(of: TestDatabase): Promise<string[]> {
  return onDatabase(of, async (client) => (await client.query<{ name: string }>('select name from mikro_orm_migrations order by id')).rows.map((row) => row.name));
}

async function indexes(of: TestDatabase, names: readonly string[]): Promise<string[]> {
  return onDatabase(of, async (client) =>
    (await client.query<{ name: string }>('select indexname as name from pg_indexes where indexname = any($1) order by 1', [names])).rows.map((row) => row.name),
  );
}

describe('a database migrated before 0018 was renamed', () => {
  it('starts: 0018-user-lifecycle-lookups finds the index 0018-oidc-model-account made and adds the other', async () => {
    const of = await migratedDatabase();
    // As 888343be left it: its 0018 made the account index only, under its first name.
    await sql(
      of,
      `update mikro_orm_migrations set name = '0018-oidc-model-account' where name = '0018-user-lifecycle-lookups';
       drop index app_user_email_prefix_idx;`,
    );
    await start(of);
    expect(await indexes(of, ['oidc_model_account_idx', 'app_user_email_prefix_idx'])).toEqual(['app_user_email_prefix_idx', 'oidc_model_account_idx']);
    expect(await executed(of)).toContain('0018-user-lifecycle-lookups');
  });
});

it('the test databases are migrated by this release', async () => {
  expect(await executed(await migratedDatabase())).toEqual(MIGRATIONS.map((migration) => migration.name));
});
