import { pino } from 'pino';
import type { Config } from './config.ts';
import { loggerOptions } from './log.ts';

/**
 * One JSON log line and exit 1, no retry: the process manager restarts it, and a wrong DATABASE_URL does not hide
 * behind a running process.
 */
export function exitCannotStart(config: Config, error: unknown): never {
  const reason = error instanceof Error ? error.message : String(error);
  // pino's default destination writes synchronously: the line is out before the exit.
  pino(loggerOptions(config.logLevel, config.logPretty)).fatal({ err: error, reason }, `cannot start: ${reason}`);
  process.exit(1);
}
