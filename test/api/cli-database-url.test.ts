import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runCli as run } from '../support/cli.ts';
import { freePort } from '../support/spawned-service.ts';

/**
 * The CLI on a database server (DATABASE_URL): what it says when it cannot open it, and that only bootstrap creates
 * a missing database. The server's own cases need TEST_DATABASE_URL's server; test/api/cli.test.ts has the embedded ones.
 */
describe('gatehouse CLI on a DATABASE_URL', () => {
  const application = ['create-api-key', '--application', '01a00000-0000-7000-8000-000000000000'];

  it('one that cannot be reached: one line saying so, exit code 1, no stack trace', async () => {
    const port = await freePort();
    for (const command of [application, ['bootstrap'], ['rotate-signing-key']]) {
      const result = await run(command, { DATABASE_URL: `postgres://postgres:hunter2@127.0.0.1:${port}/gatehouse` });
      expect([result.code, result.stdout], command[0]).toEqual([1, '']);
      expect(result.stderr, command[0]).toMatch(new RegExp(`^gatehouse: cannot open the database "gatehouse" at 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED.*\\n$`));
      expect(result.stderr).not.toContain('hunter2');
    }
  });

  const server = process.env['TEST_DATABASE_URL'];
  it.skipIf(server === undefined)('one whose server refuses the role: one line with its reason, exit code 1', async () => {
    const url = new URL(server!);
    url.username = 'nobody_here';
    url.pathname = '/gatehouse_cli_refused';
    const result = await run(['bootstrap'], { DATABASE_URL: url.toString() });
    expect([result.code, result.stdout]).toEqual([1, '']);
    expect(result.stderr).toBe(`gatehouse: cannot open the database "gatehouse_cli_refused" at ${url.hostname}:${url.port || '5432'}: role "nobody_here" does not exist\n`);
  });

  it.skipIf(server === undefined)('one naming a missing database: every command but bootstrap refuses, naming it, and creates nothing', async () => {
    const url = new URL(server!);
    const name = `gatehouse_cli_missing_${process.pid}`;
    url.pathname = `/${name}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    const exists = async () => (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    try {
      await admin.query(`drop database if exists ${name}`);
      for (const command of [application, ['rotate-signing-key']]) {
        const result = await run(command, { DATABASE_URL: url.toString() });
        expect([result.code, result.stdout, result.stderr], command[0]).toEqual([
          1,
          '',
          `gatehouse: no database "${name}" at ${url.hostname}:${url.port || '5432'}: set DATABASE_URL to the server's (only bootstrap creates one)\n`,
        ]);
        expect(await exists()).toBe(false);
      }
      const created = await run(['bootstrap', '--json'], { DATABASE_URL: url.toString() });
      expect(created.code, created.stderr).toBe(0);
      expect(await exists()).toBe(true);
      const recovered = await run(['create-api-key', '--application', JSON.parse(created.stdout).applicationId, '--json'], { DATABASE_URL: url.toString() });
      expect(recovered.code, recovered.stderr).toBe(0);
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
    // Four CLI processes, one migrating a new database: on a loaded machine that is well over a minute.
  }, 240_000);

  it.skipIf(server === undefined)('one naming a database that holds no Gatehouse (a new one, another program’s): every command but bootstrap refuses, naming it, and creates nothing', async () => {
    const url = new URL(server!);
    const name = `gatehouse_cli_foreign_${process.pid}`;
    url.pathname = `/${name}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    const foreign = new pg.Client({ connectionString: url.toString() });
    try {
      await admin.query(`drop database if exists ${name}`);
      await admin.query(`create database ${name}`);
      await foreign.connect();
      await foreign.query('create table orders (id int primary key)');
      const tables = async () => (await foreign.query<{ table_name: string }>(`select table_name from information_schema.tables where table_schema = 'public' order by 1`)).rows.map((row) => row.table_name);
      for (const command of [application, ['rotate-signing-key', '--revoke']]) {
        const result = await run(command, { DATABASE_URL: url.toString() });
        expect([result.code, result.stdout, result.stderr], command[0]).toEqual([
          1,
          '',
          `gatehouse: the database "${name}" at ${url.hostname}:${url.port || '5432'} holds no Gatehouse schema: set DATABASE_URL to the server's (only bootstrap starts on another)\n`,
        ]);
        expect(await tables()).toEqual(['orders']);
      }
    } finally {
      await foreign.end().catch(() => undefined);
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 120_000);
});
