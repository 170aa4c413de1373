import cluster from 'node:cluster';
import { startGatehouse, type Gatehouse } from '../app.ts';
import type { Config } from '../config.ts';
import { EmbeddedDatabaseInUse } from '../db/embedded.ts';
import { bootstrapOnFirstStart } from './first-start.ts';
import { announceListening, UNANNOUNCED_LISTEN_TEXT } from '../observability/log.ts';
import { exitCannotStart, listenRefusal, logCannotStart } from './start-failure.ts';

/** Relayed by npm, a primary, or the process group. */
const RELAYED_SIGNAL_MS = 1_000;

/**
 * A whole service (WORKERS=1) or a cluster worker. On a signal it finishes in-flight requests and exits 0; past
 * SHUTDOWN_TIMEOUT_MS, or on a second signal, it exits 1 without waiting.
 */
export async function serve(config: Config): Promise<void> {
  let gatehouse: Gatehouse;
  try {
    gatehouse = await startGatehouse(config);
  } catch (error) {
    if (!(error instanceof EmbeddedDatabaseInUse)) exitCannotStart(config, error);
    // Another process holds the embedded database: one line, nothing opened.
    process.stderr.write(`gatehouse: ${error.message}\n`);
    process.exit(1);
  }
  const log = gatehouse.server.app.log;
  try {
    await gatehouse.server.app.listen({ port: config.port, host: config.host, listenTextResolver: () => UNANNOUNCED_LISTEN_TEXT });
  } catch (error) {
    logCannotStart(config, listenRefusal(error, config) ?? error);
    await gatehouse.close();
    process.exit(1);
  }

  let stoppingSince: number | undefined;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stoppingSince !== undefined) {
        // The same signal twice within moments is relayed, not an insistence. A worker leaves insisting to its primary.
        if (cluster.isWorker || Date.now() - stoppingSince < RELAYED_SIGNAL_MS) return;
        log.warn({ signal }, 'second signal: exiting without waiting for in-flight requests');
        process.exit(1);
      }
      stoppingSince = Date.now();
      log.info({ signal, timeoutMs: config.shutdownTimeoutMs }, 'shutting down: finishing in-flight requests');
      setTimeout(() => {
        log.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown did not finish in time: exiting with requests in flight');
        process.exit(1);
      }, config.shutdownTimeoutMs).unref();
      gatehouse.close().then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }

  // After the handlers: whoever waits for 'ready' (announceListening) may signal at once.
  if (cluster.isPrimary) {
    try {
      await bootstrapOnFirstStart(gatehouse.services.orm, config, log);
    } catch (error) {
      // A first operator the console refuses: the reason in one line, as any other setting's.
      logCannotStart(config, error);
      await gatehouse.close();
      process.exit(1);
    }
    announceListening(log, config);
  }
}
