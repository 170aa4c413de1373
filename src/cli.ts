import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { SigningKeyStore } from './auth/signing-keys.ts';
import { loadConfigOrExit, type Config } from './config.ts';
import { readEmbeddedLock } from './db/embedded.ts';
import { openDatabase, type Database } from './db/orm.ts';
import { bootstrap } from './domain/bootstrap.ts';

const USAGE = `usage: gatehouse <command> [--json]

  bootstrap             create an organization, a multi-tenant application and an app_admin API key
  rotate-signing-key    make a new ES256 signing key active; tokens of the old one verify until they expire
  --json                print one JSON line`;

type Command = (database: Database, config: Config, json: boolean) => Promise<string>;

const COMMANDS: Record<string, Command> = {
  async bootstrap(database, _config, json) {
    const result = await bootstrap(database.orm, { apiKeySecret: undefined, requestId: randomUUID() });
    return json
      ? JSON.stringify(result)
      : `Organization ${result.organizationId}\nApplication  ${result.applicationId}\nAPI key      ${result.apiKey} (shown once)`;
  },
  async 'rotate-signing-key'(database, config, json) {
    const kid = await new SigningKeyStore(database.orm.em, config.publicUrl).rotate();
    return json ? JSON.stringify({ kid }) : `Active signing key: ${kid}`;
  },
};

/** The command line, or undefined for one parseArgs refuses (an unknown option, a value given to a flag). */
function readArguments(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: { json: { type: 'boolean' }, help: { type: 'boolean' } }, allowPositionals: true });
  } catch (error) {
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS_')) return undefined;
    throw error;
  }
}

/**
 * With the embedded database, commands go through the running instance's socket when one owns the data
 * directory (PGlite allows one process), and open the directory themselves otherwise.
 */
async function main(argv: string[]): Promise<number> {
  const parsed = readArguments(argv);
  const command = parsed !== undefined && parsed.positionals.length === 1 ? COMMANDS[parsed.positionals[0] as string] : undefined;
  if (parsed === undefined || parsed.values.help || command === undefined) {
    process.stderr.write(`${USAGE}\n`);
    return parsed?.values.help ? 0 : 2;
  }
  const { values } = parsed;
  const config = loadConfigOrExit();
  const running = config.databaseUrl === undefined ? await readEmbeddedLock(config.dataDir) : undefined;
  const database = await openDatabase(config, running === undefined ? {} : { url: running.url, poolMax: 1 });
  try {
    process.stdout.write(`${await command(database, config, values.json === true)}\n`);
    return 0;
  } finally {
    await database.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
