import cluster from 'node:cluster';
import { loadConfigOrExit } from './config.ts';

/**
 * Entry: with WORKERS above 1 the cluster primary (src/cluster.ts), otherwise, and in each worker, one serving process
 * (src/serve.ts). Each loads only what it runs.
 */
const config = loadConfigOrExit();
// Before the modules it instruments are loaded (src/tracing.ts): off without OTEL_* settings.
await (await import('./tracing.ts')).startTracing();
if (config.workers > 1 && cluster.isPrimary) await (await import('./cluster.ts')).runPrimary(config);
else await (await import('./serve.ts')).serve(config);
