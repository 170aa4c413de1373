import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { SigningKeyStore } from '../auth/signing-keys.ts';
import { loadConfigOrExit, type Config } from '../config.ts';
import { databaseState, describeDatabaseUrl } from '../db/database-url.ts';
import { EmbeddedDatabaseInUse, holdsEmbeddedDatabase, openEmbeddedDatabase, readEmbeddedLock, takeCommandConnection, type EmbeddedLock } from '../db/embedded.ts';
import { openDatabase, type Database } from '../db/orm.ts';
import { bootstrap, createRecoveryKey } from '../domain/bootstrap.ts';
import { ensureOrganizationConsole } from '../domain/console/console.ts';
import { dashboardUrl } from '../domain/console/dashboard-client.ts';
import { GatehouseError } from '../errors.ts';

const USAGE = `usage: gatehouse <command> [--json]

  bootstrap             create an organization, a multi-tenant application and an app_admin API key; for a
                        later organization, its first dashboard operator too, with a one-time password link
  create-api-key        create an application-wide API key of an existing application, shown once: access back
                        when its bootstrap key is lost
    --application <id>  the application (its id: GET /api/v1/applications lists them, the first start's log says it)
    --permissions <p,…> what the key may do, comma-separated (users:read,users:write); app_admin's when left out
  rotate-signing-key    make new signing keys active, ES256 (access and ID tokens) and RS256 (ID tokens of clients
                        that ask for it): published at once, signing a minute later, when every instance publishes
                        them; the old ones stay published a year, so their ID tokens stay sign-out hints
    --now               sign with them at once: instances that have not re-read the keys (30 s) neither publish
                        them nor stop signing with the old ones until they do
    --revoke            an old key leaked: sign with the new ones at once (as --now) and revoke every old one,
                        which no longer verifies: the tokens they signed are refused (clients get new ones), and
                        they leave the JWKS, on every instance within 30 s
  --json                print one JSON line

The commands use the server's database: DATABASE_URL, or the embedded one in GATEHOUSE_DATA_DIR (./data from the
working directory): run them in the server's directory, or set the same. Only bootstrap starts on an empty one (or
one without Gatehouse's schema), or creates a missing one.`;

interface Flags {
  json: boolean;
  now: boolean;
  revoke: boolean;
  application: string | undefined;
  permissions: string | undefined;
}

type Command = (database: Database, config: Config, flags: Flags) => Promise<string>;

const COMMANDS: Record<string, Command> = {
  async bootstrap(database, config, { json }) {
    const requestId = randomUUID();
    const result = await bootstrap(database.orm, { apiKeySecret: undefined, requestId });
    const operator = await ensureOrganizationConsole(database.orm, config.publicUrl, requestId, result.organizationId);
    const dashboard = `${dashboardUrl(config.publicUrl)}?organization=${result.organizationId}`;
    if (json) return JSON.stringify(operator === null ? result : { ...result, firstOperator: { ...operator, dashboard } });
    const created = `Organization ${result.organizationId}\nApplication  ${result.applicationId}\nAPI key      ${result.apiKey} (shown once)`;
    return operator === null
      ? created
      : `${created}\nOperator     ${operator.email}: set the password within 30 minutes at\n             ${operator.passwordLink ?? ''}\n             then sign in at ${dashboard}`;
  },
  async 'create-api-key'(database, _config, { json, application, permissions }) {
    const created = await createRecoveryKey(database.orm, {
      applicationId: application ?? '',
      ...(permissions === undefined ? {} : { permissions: permissions.split(',').map((permission) => permission.trim()) }),
      requestId: randomUUID(),
    });
    return json
      ? JSON.stringify(created)
      : `Application  ${created.applicationId}\nAPI key      ${created.apiKey} (shown once; id ${created.apiKeyId})\nPermissions  ${created.permissions.join(', ')}`;
  },
  async 'rotate-signing-key'(database, config, { json, now, revoke }) {
    const { kids, signsFrom } = await new SigningKeyStore(database.orm.em, config.publicUrl).rotate({ at: now ? 'once' : 'after-publication', revoke });
    const listed = Object.entries(kids).map(([alg, kid]) => `${alg} ${kid}`).join(', ');
    return json ? JSON.stringify({ kids, signsFrom: signsFrom.toISOString() }) : `Active signing keys: ${listed}, signing from ${signsFrom.toISOString()}`;
  },
};

/** The commands that may start on an empty embedded database (and create it); the others need the server's. */
const CREATES_DATABASE: ReadonlySet<string> = new Set(['bootstrap']);

/**
 * No database in `dataDir`, and no process creating or serving one there: run from another directory, the default
 * ./data would be a new, empty database, whose "No application" would mislead.
 */
async function noEmbeddedDatabase(dataDir: string): Promise<boolean> {
  return !(await holdsEmbeddedDatabase(dataDir)) && (await readEmbeddedLock(dataDir)) === undefined;
}

/** The command line, or parseArgs's reason for refusing it (an unknown option, a value given to a flag). */
function readArguments(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        json: { type: 'boolean' },
        now: { type: 'boolean' },
        revoke: { type: 'boolean' },
        application: { type: 'string' },
        permissions: { type: 'string' },
        help: { type: 'boolean' },
      },
      allowPositionals: true,
    });
  } catch (error) {
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS_')) return error.message;
    throw error;
  }
}

/** How long a command waits for an instance that is starting (or another command) to let it in. */
const OWNER_WAIT_MS = 120_000;

/**
 * With the embedded database, commands go through the running instance's socket when one owns the data directory
 * (PGlite allows one process), one command at a time (takeCommandConnection), and open the directory themselves when
 * nobody does. While its owner has not published a socket (a server starting, another command), or another command
 * uses the socket, they wait, and refuse after OWNER_WAIT_MS: never open it too.
 */
async function openForCommand(config: Config): Promise<{ database: Database; close: () => Promise<void> }> {
  if (config.databaseUrl !== undefined) {
    const database = await openDatabase(config);
    return { database, close: () => database.close() };
  }
  const deadline = Date.now() + OWNER_WAIT_MS;
  let waitingFor: number | undefined;
  const wait = async (holder: EmbeddedLock, what: string) => {
    if (holder.pid === undefined || Date.now() >= deadline) throw new EmbeddedDatabaseInUse(config.dataDir, holder);
    if (waitingFor !== holder.pid) process.stderr.write(`gatehouse: waiting for process ${holder.pid}, which ${what}\n`);
    waitingFor = holder.pid;
    await new Promise((resolve) => setTimeout(resolve, 200));
  };
  for (;;) {
    const owner = await readEmbeddedLock(config.dataDir);
    if (owner?.url !== undefined) {
      const connection = await takeCommandConnection(config.dataDir);
      if ('holder' in connection) {
        await wait(connection.holder, `runs a command on the embedded database in ${config.dataDir}`);
        continue;
      }
      try {
        const database = await openDatabase(config, { url: owner.url, poolMax: 1 });
        return { database, close: () => database.close().finally(connection.release) };
      } catch (error) {
        await connection.release();
        throw error;
      }
    }
    if (owner === undefined) {
      let embedded;
      try {
        embedded = await openEmbeddedDatabase(config.dataDir);
      } catch (error) {
        // Another process took the directory between the look and the open: go through it, or wait for it.
        if (error instanceof EmbeddedDatabaseInUse) continue;
        throw error;
      }
      const opened = embedded;
      try {
        const database = await openDatabase(config, { url: opened.url, poolMax: opened.poolMax });
        return { database, close: () => database.close().finally(() => opened.stop()) };
      } catch (error) {
        await opened.stop();
        throw error;
      }
    }
    await wait(owner, `holds the embedded database in ${config.dataDir}`);
  }
}

/** The options only one command takes. */
const OWN_OPTIONS: Record<string, readonly ('now' | 'revoke' | 'application' | 'permissions')[]> = {
  'rotate-signing-key': ['now', 'revoke'],
  'create-api-key': ['application', 'permissions'],
};

/** Why the command line cannot run, or undefined when it can. */
function refusal(parsed: Exclude<ReturnType<typeof readArguments>, string>): string | undefined {
  const [name, ...extra] = parsed.positionals;
  if (name === undefined) return 'no command given';
  if (COMMANDS[name] === undefined) return `unknown command "${name}"`;
  if (extra.length > 0) return `unexpected argument "${extra[0]}"`;
  for (const [owner, options] of Object.entries(OWN_OPTIONS)) {
    const misplaced = owner !== name && options.find((option) => parsed.values[option] !== undefined);
    if (misplaced) return `--${misplaced} is ${owner}'s option`;
  }
  if (name === 'create-api-key' && parsed.values.application === undefined) return 'create-api-key needs --application <id>';
  return undefined;
}

async function main(argv: string[]): Promise<number> {
  const parsed = readArguments(argv);
  if (typeof parsed !== 'string' && (parsed.values.help === true || parsed.positionals[0] === 'help')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const problem = typeof parsed === 'string' ? parsed : refusal(parsed);
  if (typeof parsed === 'string' || problem !== undefined) {
    process.stderr.write(`gatehouse: ${problem}\n${USAGE}\n`);
    return 2;
  }
  const name = parsed.positionals[0] as string;
  const command = COMMANDS[name] as Command;
  const { values } = parsed;
  const config = loadConfigOrExit();
  if (config.databaseUrl === undefined && !CREATES_DATABASE.has(name) && (await noEmbeddedDatabase(config.dataDir))) {
    process.stderr.write(
      `gatehouse: no embedded database in ${config.dataDir}: run the command in the server's directory, or set GATEHOUSE_DATA_DIR to its data directory (DATABASE_URL to its PostgreSQL)\n`,
    );
    return 1;
  }
  let opened;
  try {
    // Another database would be migrated into Gatehouse's, and a rotation there would revoke nothing the server signs with.
    const checked = CREATES_DATABASE.has(name) ? undefined : config.databaseUrl;
    const state = checked === undefined ? 'gatehouse' : await databaseState(checked);
    if (checked !== undefined && state !== 'gatehouse') {
      const where = describeDatabaseUrl(checked);
      process.stderr.write(
        state === 'missing'
          ? `gatehouse: no database ${where}: set DATABASE_URL to the server's (only bootstrap creates one)\n`
          : `gatehouse: the database ${where} holds no Gatehouse schema: set DATABASE_URL to the server's (only bootstrap starts on another)\n`,
      );
      return 1;
    }
    opened = await openForCommand(config);
  } catch (error) {
    if (error instanceof EmbeddedDatabaseInUse) {
      process.stderr.write(`gatehouse: ${error.message}\n`);
    } else {
      // Unreachable, refusing the role, a failing migration: the reason in one line, as the server's `cannot start`.
      const where = config.databaseUrl === undefined ? `in ${config.dataDir}` : describeDatabaseUrl(config.databaseUrl);
      process.stderr.write(`gatehouse: cannot open the database ${where}: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    return 1;
  }
  try {
    const flags = { json: values.json === true, now: values.now === true, revoke: values.revoke === true, application: values.application, permissions: values.permissions };
    process.stdout.write(`${await command(opened.database, config, flags)}\n`);
    return 0;
  } catch (error) {
    // A refused input (an unknown application, a malformed permission): its message, not a stack.
    if (!(error instanceof GatehouseError)) throw error;
    process.stderr.write(`gatehouse: ${error.message}\n`);
    return 1;
  } finally {
    await opened.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
