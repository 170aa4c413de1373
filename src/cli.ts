import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { readEmbeddedLock } from './db/embedded.ts';
import { openDatabase } from './db/orm.ts';
import { bootstrap } from './domain/bootstrap.ts';

const USAGE = `usage: gatehouse bootstrap [--json]

  bootstrap   create an organization, a multi-tenant application and an app_admin API key
  --json      print one JSON line {"organizationId","applicationId","apiKey"}`;

/**
 * `gatehouse bootstrap`. With the embedded database it goes through the running instance's socket when one
 * owns the data directory (PGlite allows one process), and opens the directory itself otherwise.
 */
async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { json: { type: 'boolean' }, help: { type: 'boolean' } }, allowPositionals: true });
  if (values.help || positionals[0] !== 'bootstrap' || positionals.length !== 1) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  const running = config.databaseUrl === undefined ? await readEmbeddedLock(config.dataDir) : undefined;
  const database = await openDatabase(config, running === undefined ? {} : { url: running.url, poolMax: 1 });
  try {
    const result = await bootstrap(database.orm, { apiKeySecret: undefined, requestId: randomUUID() });
    process.stdout.write(
      values.json
        ? `${JSON.stringify(result)}\n`
        : `Organization ${result.organizationId}\nApplication  ${result.applicationId}\nAPI key      ${result.apiKey} (shown once)\n`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
