import cluster from 'node:cluster';
import { loadConfigOrExit } from '../config.ts';

/** The cluster primary with WORKERS above 1, else (and in each worker) one serving process; each loads only what it runs. */
const config = loadConfigOrExit();
// Before the modules it instruments are loaded.
await (await import('../observability/tracing.ts')).startTracing();
if (config.workers > 1 && cluster.isPrimary) await (await import('./cluster.ts')).runPrimary(config);
else await (await import('./serve.ts')).serve(config);
