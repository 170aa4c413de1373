import { fork as forkProcess } from 'node:child_process';
import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import type { Config } from './config.ts';
import { announceListening, loggerOptions } from './log.ts';

/** A worker that dies is replaced after 1 s, twice as long each time one dies within a minute of starting, at most 30 s. */
const RESTART = { firstMs: 1_000, maxMs: 30_000, youngMs: 60_000 } as const;

const PREPARE = fileURLToPath(new URL('prepare.ts', import.meta.url));

/**
 * The cluster primary (WORKERS above 1). It has the once-only work done (src/prepare.ts: migrations, the first signing
 * key, the bootstrap of an empty database), then forks `config.workers` workers that share the port (node:cluster hands
 * them the connections) and serve; it loads neither the ORM nor the server, and serves nothing itself. A worker that
 * dies is logged and replaced. SIGINT or SIGTERM is passed to every worker, which finishes its in-flight requests; the
 * primary exits once all have exited: 0, or 1 if a worker's shutdown failed.
 */
export async function runPrimary(config: Config): Promise<void> {
  const log = pino(loggerOptions(config.logLevel));
  const prepared = await new Promise<number | null>((resolve) => forkProcess(PREPARE).once('exit', resolve));
  if (prepared !== 0) {
    log.error({ code: prepared }, 'preparing the database failed: no worker started');
    process.exit(1);
  }

  const startedAt = new Map<Worker, number>();
  const restarts = new Set<NodeJS.Timeout>();
  let nextRestartMs: number = RESTART.firstMs;
  let listening = 0;
  let stopping = false;
  let shutdownFailed = false;
  const fork = () => startedAt.set(cluster.fork(), Date.now());

  cluster.on('listening', () => {
    listening += 1;
    if (listening === config.workers) announceListening(log, config);
  });
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) {
      shutdownFailed ||= code !== 0 && code !== null;
      if (startedAt.size === 0) process.exit(shutdownFailed ? 1 : 0);
      return;
    }
    const delay = lived < RESTART.youngMs ? nextRestartMs : RESTART.firstMs;
    nextRestartMs = Math.min(delay * 2, RESTART.maxMs);
    log.error({ worker: worker.id, pid: worker.process.pid, code, signal, restartInMs: delay }, 'a worker exited unexpectedly; replacing it');
    const timer = setTimeout(() => {
      restarts.delete(timer);
      fork();
    }, delay);
    restarts.add(timer);
  });

  for (let i = 0; i < config.workers; i += 1) fork();

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      for (const timer of restarts) clearTimeout(timer);
      log.info({ signal, workers: startedAt.size }, 'shutting down: every worker finishes its in-flight requests');
      if (startedAt.size === 0) process.exit(0);
      for (const worker of startedAt.keys()) worker.process.kill(signal);
    });
  }
}
