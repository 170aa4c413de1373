import { pino } from 'pino';
import type { Config } from './config.ts';
import { loggerOptions } from './log.ts';

/**
 * A process that cannot start (the database unreachable or refusing it, a migration failing) says why in one JSON log
 * line, `reason` holding the cause's message, and exits 1. It does not retry: its process manager restarts it (with
 * back-off), and a wrong DATABASE_URL does not hide behind a process that seems to run.
 */
export function exitCannotStart(config: Config, error: unknown): never {
  const reason = error instanceof Error ? error.message : String(error);
  // pino's default destination writes synchronously: the line is out before the exit.
  pino(loggerOptions(config.logLevel, config.logPretty)).fatal({ err: error, reason }, `cannot start: ${reason}`);
  process.exit(1);
}
