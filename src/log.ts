import cluster from 'node:cluster';
import { hostname } from 'node:os';
import type { BaseLogger, LoggerOptions } from 'pino';
import type { Config } from './config.ts';

/** pino's options for every process of the service (Fastify's logger, the cluster primary's): a worker's lines carry its id. */
export function loggerOptions(level: string): LoggerOptions {
  const worker = cluster.worker;
  return worker === undefined ? { level } : { level, base: { pid: process.pid, hostname: hostname(), worker: worker.id } };
}

/**
 * Says the service serves: in the log, and to a parent watching through an IPC channel (a process manager waiting for
 * "ready", the bench, the tests). Said by the one serving process, or by the primary once every worker listens.
 */
export function announceListening(log: Pick<BaseLogger, 'info'>, config: Config): void {
  log.info(
    {
      graphql: `${config.publicUrl}/graphql`,
      rest: `${config.publicUrl}/api/v1`,
      database: config.databaseUrl === undefined ? 'embedded' : 'postgresql',
      workers: config.workers,
    },
    `Gatehouse is listening; GraphQL playground at ${config.publicUrl}/graphql`,
  );
  process.send?.('ready');
}
