import { register } from 'node:module';
import { ATTR_DB_QUERY_TEXT } from '@opentelemetry/semantic-conventions';
import { sqlShape } from './sql-shape.ts';
import { PooledIdGenerator } from './trace-ids.ts';

/**
 * Standard OTEL_* variables (docs/operations.md): on once an OTLP endpoint or a traces exporter is named. Only traces:
 * metrics are prom-client's and logs pino's. Incoming HTTP spans are src/observability/request-span.ts's.
 */
export function tracingConfigured(env: NodeJS.ProcessEnv): boolean {
  if (env['OTEL_SDK_DISABLED']?.toLowerCase() === 'true') return false;
  const exporter = env['OTEL_TRACES_EXPORTER'];
  if (exporter !== undefined && exporter !== '') return exporter !== 'none';
  return [env['OTEL_EXPORTER_OTLP_ENDPOINT'], env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']].some((value) => value !== undefined && value !== '');
}

const INSTRUMENTED = ['http', 'https', 'node:http', 'node:https', 'graphql', 'pg', 'ioredis'];

let started = false;

/** The server then makes a span per request. */
export function tracingStarted(): boolean {
  return started;
}

export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (!tracingConfigured(env)) return;
  env['OTEL_METRICS_EXPORTER'] ??= 'none';
  env['OTEL_LOGS_EXPORTER'] ??= 'none';
  // ES modules need import-in-the-middle's hook; only the instrumented packages, as a hooked module's exports become getters.
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include: INSTRUMENTED } });
  const [{ NodeSDK }, { HttpInstrumentation }, { GraphQLInstrumentation }, { PgInstrumentation }, { IORedisInstrumentation }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-graphql'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-ioredis'),
  ]);
  const sdk = new NodeSDK({
    serviceName: env['OTEL_SERVICE_NAME'] ?? 'gatehouse',
    idGenerator: new PooledIdGenerator(),
    instrumentations: [
      new HttpInstrumentation({ disableIncomingRequestInstrumentation: true }),
      new GraphQLInstrumentation({ ignoreTrivialResolveSpans: true, mergeItems: true }),
      // requireParentSpan: a statement in no span is a background poll, which as a trace of its own would bury the requests'.
      // The text without its values (sqlShape).
      new PgInstrumentation({
        requireParentSpan: true,
        requestHook: (span, { query }) => span.setAttribute(ATTR_DB_QUERY_TEXT, sqlShape(query.text)),
      }),
      // The command's name only: its keys hold client addresses.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  sdk.start();
  started = true;
}
