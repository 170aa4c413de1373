import { fork as forkProcess } from 'node:child_process';
import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import type { Config } from '../config.ts';
import { announceListening, loggerOptions } from '../observability/log.ts';
import { serveClusterMetrics } from '../observability/metrics.ts';

/** A worker that dies is replaced after 1 s, twice as long each time one dies within a minute of starting, at most 30 s. */
const RESTART = { firstMs: 1_000, maxMs: 30_000, youngMs: 60_000 } as const;

const PREPARE = fileURLToPath(new URL('prepare.ts', import.meta.url));

/**
 * The cluster primary (WORKERS above 1): does the once-only work (src/process/prepare.ts), then forks `config.workers` workers
 * sharing the port; it serves nothing itself. A dying worker is replaced once the service is listening; before, the
 * service does not start (exit 1). Signals pass to every worker; the primary exits once all have, 1 if a shutdown failed.
 */
export async function runPrimary(config: Config): Promise<void> {
  const log = pino(loggerOptions(config.logLevel, config.logPretty));
  const prepared = await new Promise<number | null>((resolve) => forkProcess(PREPARE).once('exit', resolve));
  if (prepared !== 0) {
    log.error({ code: prepared }, 'preparing the database failed: no worker started');
    process.exit(1);
  }

  const startedAt = new Map<Worker, number>();
  const restarts = new Set<NodeJS.Timeout>();
  let nextRestartMs: number = RESTART.firstMs;
  let listening = 0;
  let serving = false;
  let stopping = false;
  let shutdownFailed = false;
  const fork = () => startedAt.set(cluster.fork(), Date.now());

  const stop = (signal: NodeJS.Signals, failed: boolean) => {
    stopping = true;
    shutdownFailed ||= failed;
    for (const timer of restarts) clearTimeout(timer);
    if (startedAt.size === 0) process.exit(shutdownFailed ? 1 : 0);
    for (const worker of startedAt.keys()) worker.process.kill(signal);
  };

  cluster.on('listening', () => {
    listening += 1;
    if (listening !== config.workers) return;
    serving = true;
    announceListening(log, config);
  });
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    const exit = { worker: worker.id, workerPid: worker.process.pid, code, signal };
    if (stopping) {
      shutdownFailed ||= code !== 0 && code !== null;
      if (startedAt.size === 0) process.exit(shutdownFailed ? 1 : 0);
      return;
    }
    if (!serving) {
      // A worker that cannot start (the port taken, the database refusing) would fail again however often it is
      // replaced: the service does not start, as a single process would not.
      log.error(exit, 'a worker exited before the service was listening; stopping');
      stop('SIGTERM', true);
      return;
    }
    const delay = lived < RESTART.youngMs ? nextRestartMs : RESTART.firstMs;
    nextRestartMs = Math.min(delay * 2, RESTART.maxMs);
    log.error({ ...exit, restartInMs: delay }, 'a worker exited unexpectedly; replacing it');
    const timer = setTimeout(() => {
      restarts.delete(timer);
      fork();
    }, delay);
    restarts.add(timer);
  });

  serveClusterMetrics();
  for (let i = 0; i < config.workers; i += 1) fork();

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      log.info({ signal, workers: startedAt.size }, 'shutting down: every worker finishes its in-flight requests');
      stop(signal, false);
    });
  }
}
