import { pino } from 'pino';
import { ConfigError, type Config } from '../config.ts';
import { loggerOptions } from '../observability/log.ts';

/** A cause the operator removes with a setting: the message says which, and a stack would only hide it. */
export class StartRefusal extends Error {}

/** Node's codes for a port or address it cannot bind, as a reason naming the setting to change. */
export function listenRefusal(error: unknown, config: Pick<Config, 'port' | 'host'>): StartRefusal | undefined {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  if (code === 'EADDRINUSE') return new StartRefusal(`port ${config.port} is in use: set PORT to a free one`);
  if (code === 'EACCES') return new StartRefusal(`port ${config.port} needs privileges this process does not have: set PORT to one above 1023`);
  if (code === 'EADDRNOTAVAIL') return new StartRefusal(`HOST ${config.host} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0`);
  return undefined;
}

/** One JSON log line saying why; the error (its stack) with it unless it names the setting to change. */
export function logCannotStart(config: Config, error: unknown): void {
  const reason = error instanceof Error ? error.message : String(error);
  const cause = error instanceof StartRefusal || error instanceof ConfigError ? {} : { err: error };
  // pino's default destination writes synchronously: the line is out before an exit.
  pino(loggerOptions(config.logLevel, config.logPretty)).fatal({ ...cause, reason }, `cannot start: ${reason}`);
}

/**
 * One JSON log line and exit 1, no retry: the process manager restarts it, and a wrong DATABASE_URL does not hide
 * behind a running process.
 */
export function exitCannotStart(config: Config, error: unknown): never {
  logCannotStart(config, error);
  process.exit(1);
}
