import { AsyncLocalStorage } from 'node:async_hooks';
import cluster from 'node:cluster';
import { hostname } from 'node:os';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { pino, stdSerializers, type BaseLogger, type LoggerOptions } from 'pino';
import type { Config } from '../config.ts';
import { clientAddress } from '../http/request-origin.ts';
import { loggedSpan } from './spans.ts';

/**
 * Values that prove nothing; every other is replaced, since URLs carry credentials and personal data (`id_token_hint`,
 * a device's `user_code`, a refused `access_token`, a `login_hint`'s e-mail address).
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

function loggedUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  const query = [...new URLSearchParams(url.slice(mark + 1))].map(
    ([name, value]) => `${encodeURIComponent(name)}=${LOGGED_QUERY_VALUES.has(name) ? encodeURIComponent(value) : '[redacted]'}`,
  );
  return `${url.slice(0, mark)}?${query.join('&')}`;
}

function loggedRequest(request: FastifyRequest) {
  return { method: request.method, url: loggedUrl(request.url), host: request.host, remoteAddress: clientAddress(request), remotePort: request.socket.remotePort };
}

const WITHHELD = '[withheld: the values of the row]';

/**
 * PostgreSQL's `detail` ("Failing row contains (…)") holds the row's values, secrets among them, and MikroORM repeats it
 * in the message, so in the stack too.
 */
function loggedError(error: unknown) {
  const serialized = stdSerializers.err(error as Error) as ReturnType<typeof stdSerializers.err> & { detail?: unknown };
  const detail = serialized.detail;
  if (typeof detail !== 'string' || detail === '') return serialized;
  const withheld = (text: string) => text.split(detail).join(WITHHELD);
  return { ...serialized, detail: WITHHELD, message: withheld(serialized.message), stack: withheld(serialized.stack) };
}

function traceIds(): Record<string, string> {
  const context = loggedSpan()?.spanContext();
  return context === undefined ? {} : { traceId: context.traceId, spanId: context.spanId };
}

/** Fastify's line per bound interface, which the loggers drop: the hosted pages answer 421 at those addresses, so only
 *  announceListening's PUBLIC_URL is shown. */
export const UNANNOUNCED_LISTEN_TEXT = 'fastify: listening on a bound interface (not announced)';

const hooks: LoggerOptions['hooks'] = {
  logMethod(args, method) {
    if (args[0] !== UNANNOUNCED_LISTEN_TEXT) method.apply(this, args);
  },
};

const PRETTY = { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } };

export function loggerOptions(level: string, pretty = false): LoggerOptions {
  const worker = cluster.worker;
  const serializers = { req: loggedRequest, err: loggedError };
  return {
    level,
    serializers,
    mixin: traceIds,
    hooks,
    ...(worker === undefined ? {} : { base: { pid: process.pid, hostname: hostname(), worker: worker.id } }),
    ...(pretty ? { transport: PRETTY } : {}),
  };
}

export interface RequestFacts {
  operation?: string;
  /** Served without management credentials (a sign-in page, an OAuth endpoint). */
  applicationId?: string;
  tenantId?: string;
  /** A security refusal the status alone does not tell (a lockout, a refresh token used twice): the line is `warn`. */
  refusal?: string;
  /** The database pool's counts behind a 503; the line is `warn`. */
  overload?: string;
  /** Its upgrade's line is written once it has closed. */
  closeCode?: number;
  /** An error answer written past onSend (oidc-provider's, after the hijack): its code and description, as onSend reads
   *  the others' bodies into request.refusal. */
  answeredError?: { readonly code: string; readonly message?: string };
}

const requestLog = new AsyncLocalStorage<{ readonly log: FastifyBaseLogger; readonly facts: RequestFacts }>();

export function withRequestLog(log: FastifyBaseLogger, facts: RequestFacts, next: () => void): void {
  requestLog.run({ log, facts }, next);
}

/** For what reports failures without the request, such as the GraphQL error serializer and oidc-provider's `server_error`. */
export function currentRequestLog(fallback: FastifyBaseLogger): FastifyBaseLogger {
  return requestLog.getStore()?.log ?? fallback;
}

let unrequested: BaseLogger | undefined;

/** For domain code reporting what it does not fail its request for: the request's logger; outside a request (a script
 *  calling the domain), one of its own on stderr. */
export function domainLog(): Pick<BaseLogger, 'info' | 'warn' | 'error'> {
  return requestLog.getStore()?.log ?? (unrequested ??= pino(loggerOptions('info'), pino.destination(2)));
}

export function noteRequest(facts: RequestFacts): void {
  const store = requestLog.getStore();
  if (store !== undefined) Object.assign(store.facts, facts);
}

/** Each answers a browser or curl without credentials: `/api/v1` itself is only a prefix, so the OpenAPI document. */
export function announcedAddresses(config: Pick<Config, 'publicUrl'>): { graphql: string; openapi: string } {
  return { graphql: `${config.publicUrl}/graphql`, openapi: `${config.publicUrl}/api/v1/openapi.json` };
}

/**
 * To the log and to a parent on IPC waiting for "ready"; by the one serving process, or the primary once every worker
 * listens.
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
