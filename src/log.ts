import { AsyncLocalStorage } from 'node:async_hooks';
import cluster from 'node:cluster';
import { hostname } from 'node:os';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { stdSerializers, type BaseLogger, type LoggerOptions } from 'pino';
import type { Config } from './config.ts';
import { loggedSpan } from './spans.ts';

/**
 * Query parameters whose values may be logged: they say what was asked for and prove nothing. Every other value is
 * replaced, since URLs carry credentials and personal data: an `id_token_hint` on the logout URL, the `user_code` of a
 * device's verification link, an `access_token` sent where it is refused, a `login_hint`'s e-mail address.
 */
const LOGGED_QUERY_VALUES: ReadonlySet<string> = new Set([
  'client_id',
  'response_type',
  'response_mode',
  'scope',
  'prompt',
  'redirect_uri',
  'post_logout_redirect_uri',
  'code_challenge_method',
  'tenant',
  'ui_locales',
  'pageSize',
]);

/** A request URL as the log shows it: the path, and the query's names with only harmless values. */
function loggedUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  const query = [...new URLSearchParams(url.slice(mark + 1))].map(
    ([name, value]) => `${encodeURIComponent(name)}=${LOGGED_QUERY_VALUES.has(name) ? encodeURIComponent(value) : '[redacted]'}`,
  );
  return `${url.slice(0, mark)}?${query.join('&')}`;
}

/** Fastify's own `req` serializer (method, URL, host, client address), with the URL as loggedUrl() writes it. */
function loggedRequest(request: FastifyRequest) {
  return { method: request.method, url: loggedUrl(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket.remotePort };
}

const WITHHELD = '[withheld: the values of the row]';

/**
 * pino's own `err` serializer, without what a database error quotes of its row: PostgreSQL's `detail` ("Failing row
 * contains (…)", "Key (…)=(…)") holds the row's values, secrets among them (an e-mail provider's API key), and MikroORM
 * repeats it in the message, so in the stack too.
 */
function loggedError(error: unknown) {
  const serialized = stdSerializers.err(error as Error) as ReturnType<typeof stdSerializers.err> & { detail?: unknown };
  const detail = serialized.detail;
  if (typeof detail !== 'string' || detail === '') return serialized;
  const withheld = (text: string) => text.split(detail).join(WITHHELD);
  return { ...serialized, detail: WITHHELD, message: withheld(serialized.message), stack: withheld(serialized.stack) };
}

/** With tracing on (src/tracing.ts), every line written inside a request carries its trace and span ids. */
function traceIds(): Record<string, string> {
  const context = loggedSpan()?.spanContext();
  return context === undefined ? {} : { traceId: context.traceId, spanId: context.spanId };
}

/** LOG_FORMAT=pretty: pino-pretty in pino's worker thread, one coloured line per entry, for a terminal. */
const PRETTY = { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } };

/**
 * pino's options for every process of the service (Fastify's logger, the cluster primary's): a worker's lines carry its
 * id; a request's URL is logged without the secrets its query may hold, an error without the row a database quoted.
 */
export function loggerOptions(level: string, pretty = false): LoggerOptions {
  const worker = cluster.worker;
  const serializers = { req: loggedRequest, err: loggedError };
  return {
    level,
    serializers,
    mixin: traceIds,
    ...(worker === undefined ? {} : { base: { pid: process.pid, hostname: hostname(), worker: worker.id } }),
    ...(pretty ? { transport: PRETTY } : {}),
  };
}

/**
 * What a request's completion line says beyond Fastify's own fields, noted by the code that learns it: the operation
 * it ran (REST's named operation, GraphQL's type and root field), and why it was refused when that matters to security.
 */
export interface RequestFacts {
  operation?: string;
  /** The application and tenant a request without management credentials served (a sign-in page, an OAuth endpoint). */
  applicationId?: string;
  tenantId?: string;
  /** A security refusal the status alone does not tell (a lockout, a refresh token used twice): the line is `warn`. */
  refusal?: string;
  /** Why a request was refused as the service overloaded (503): the database pool's counts. The line is `warn`. */
  overload?: string;
  /** How a WebSocket ended (its close code): its upgrade's line is written once it has closed. */
  closeCode?: number;
}

/** The log and facts of the request being handled, for code that runs inside it but is not handed it (below). */
const requestLog = new AsyncLocalStorage<{ readonly log: FastifyBaseLogger; readonly facts: RequestFacts }>();

/** Runs `next` (the rest of a request's handling) with `log` as the request's log and `facts` as its facts. */
export function withRequestLog(log: FastifyBaseLogger, facts: RequestFacts, next: () => void): void {
  requestLog.run({ log, facts }, next);
}

/**
 * The log of the request being handled (its lines carry the request id), else `fallback`: for what reports failures
 * without being handed the request, such as the GraphQL error serializer and oidc-provider's `server_error` event.
 */
export function currentRequestLog(fallback: FastifyBaseLogger): FastifyBaseLogger {
  return requestLog.getStore()?.log ?? fallback;
}

/** Adds to the facts of the request being handled (none outside a request: the note is dropped). */
export function noteRequest(facts: RequestFacts): void {
  const store = requestLog.getStore();
  if (store !== undefined) Object.assign(store.facts, facts);
}

/**
 * The addresses the start-up line names, each one that answers a browser or curl without credentials: the REST API by
 * its OpenAPI document, since `/api/v1` itself is only the prefix of its routes.
 */
export function announcedAddresses(config: Pick<Config, 'publicUrl'>): { graphql: string; openapi: string } {
  return { graphql: `${config.publicUrl}/graphql`, openapi: `${config.publicUrl}/api/v1/openapi.json` };
}

/**
 * Says the service serves: in the log, and to a parent watching through an IPC channel (a process manager waiting for
 * "ready", the bench, the tests). Said by the one serving process, or by the primary once every worker listens.
 */
export function announceListening(log: Pick<BaseLogger, 'info'>, config: Config): void {
  log.info(
    {
      ...announcedAddresses(config),
      database: config.databaseUrl === undefined ? 'embedded' : 'postgresql',
      workers: config.workers,
    },
    `Gatehouse is listening; GraphQL playground at ${config.publicUrl}/graphql`,
  );
  process.send?.('ready');
}
