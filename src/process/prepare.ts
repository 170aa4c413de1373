import { pino } from 'pino';
import { SigningKeyStore } from '../auth/signing-keys.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/orm.ts';
import { bootstrapOnFirstStart } from './first-start.ts';
import { loggerOptions } from '../observability/log.ts';
import { exitCannotStart } from './start-failure.ts';

/** The cluster primary's once-only work, in a process of its own so that the primary never loads the ORM. */
const config = loadConfig();
const database = await openDatabase(config).catch((error: unknown) => exitCannotStart(config, error));
// A refused first operator, as a single process's: one line (the primary then says no worker started), not a stack.
let failure: unknown;
try {
  await new SigningKeyStore(database.orm.em, config.publicUrl).ensureActiveKey();
  await bootstrapOnFirstStart(database.orm, config, pino(loggerOptions(config.logLevel, config.logPretty)));
} catch (error) {
  failure = error;
}
await database.close();
if (failure !== undefined) exitCannotStart(config, failure);
