import { register } from 'node:module';
import { ATTR_DB_QUERY_TEXT } from '@opentelemetry/semantic-conventions';
import { sqlShape } from './sql-shape.ts';
import { PooledIdGenerator } from './trace-ids.ts';

/**
 * OpenTelemetry traces, configured by the standard OTEL_* variables (docs/operations.md): on once an OTLP endpoint or a
 * traces exporter is named, unless OTEL_SDK_DISABLED. Instruments HTTP (outgoing; incoming spans are
 * src/request-span.ts's), GraphQL, pg (PGlite too, through the same driver) and ioredis. Only traces: metrics are
 * prom-client's and logs pino's, so OTEL_METRICS_EXPORTER and OTEL_LOGS_EXPORTER default to none.
 */
export function tracingConfigured(env: NodeJS.ProcessEnv): boolean {
  if (env['OTEL_SDK_DISABLED']?.toLowerCase() === 'true') return false;
  const exporter = env['OTEL_TRACES_EXPORTER'];
  if (exporter !== undefined && exporter !== '') return exporter !== 'none';
  return [env['OTEL_EXPORTER_OTLP_ENDPOINT'], env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']].some((value) => value !== undefined && value !== '');
}

/** The modules the instrumentations below patch. */
const INSTRUMENTED = ['http', 'https', 'node:http', 'node:https', 'graphql', 'pg', 'ioredis'];

let started = false;

/** Whether startTracing started the SDK in this process: the server then makes a span per request. */
export function tracingStarted(): boolean {
  return started;
}

export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (!tracingConfigured(env)) return;
  env['OTEL_METRICS_EXPORTER'] ??= 'none';
  env['OTEL_LOGS_EXPORTER'] ??= 'none';
  // The service is ES modules: import-in-the-middle's hook lets the instrumentations patch what they import. Only the
  // instrumented packages: a hooked module's exports become getters, a cost on every use.
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
      // requireParentSpan: a statement in no request's or job's span (src/spans.ts) is a background poll, most often
      // finding nothing; as a trace of its own each would bury the requests' traces. The text without its values,
      // which the ORM writes into it (sqlShape).
      new PgInstrumentation({
        requireParentSpan: true,
        requestHook: (span, { query }) => span.setAttribute(ATTR_DB_QUERY_TEXT, sqlShape(query.text)),
      }),
      // The command's name only: its keys hold client addresses, and the default serializer would match every command.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  sdk.start();
  started = true;
}
