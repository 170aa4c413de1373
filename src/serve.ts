import cluster from 'node:cluster';
import { startGatehouse } from './app.ts';
import type { Config } from './config.ts';
import { bootstrapOnFirstStart } from './first-start.ts';
import { announceListening } from './log.ts';

/**
 * One serving process: the whole service (WORKERS=1), or a cluster worker, whose primary bootstrapped the database
 * before forking it and announces the service once every worker listens (src/cluster.ts). On SIGINT or SIGTERM it
 * finishes its in-flight requests and exits 0.
 */
export async function serve(config: Config): Promise<void> {
  const gatehouse = await startGatehouse(config);
  const log = gatehouse.server.app.log;
  await gatehouse.server.app.listen({ port: config.port, host: config.host });
  if (cluster.isPrimary) {
    await bootstrapOnFirstStart(gatehouse.services.orm, config, log);
    announceListening(log, config);
  }

  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'shutting down: finishing in-flight requests');
      gatehouse.close().then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}
