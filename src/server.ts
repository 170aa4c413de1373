import { createHash, randomUUID } from 'node:crypto';
import type { ServerOptions } from 'node:http';
import type { ApolloServer } from '@apollo/server';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { DestinationStream } from 'pino';
import { authenticate, BearerTokenRefused, readCredentials, type CredentialSource, type CredentialStore } from './auth/authenticate.ts';
import { ApiKeyCache } from './auth/api-key-cache.ts';
import { hashApiKeySecret, secretMatches } from './auth/api-key-secret.ts';
import { answerClientError } from './client-error.ts';
import type { Config } from './config.ts';
import type { Principal } from './auth/principal.ts';
import { readsAfterCall } from './auth/reads-after-call.ts';
import { capConcurrentRequests } from './concurrency-cap.ts';
import { refusalOfDatabase } from './domain/db-errors.ts';
import { createRequestContext, type RequestContext } from './context.ts';
import { GatehouseError, INTERNAL_ERROR, STATUS_BY_CODE, toErrorBody, toGraphQLErrorBody, type ErrorBody } from './errors.ts';
import { createApollo } from './graphql/apollo.ts';
import { formatError } from './graphql/format-error.ts';
import { registerDashboard } from './dashboard/routes.ts';
import { sayWhenToRetry } from './retry-after.ts';
import { graphqlErrors, registerGraphQLEndpoint } from './graphql/http-endpoint.ts';
import { subscriptionRunner, subscriptionStarter } from './graphql/subscriptions.ts';
import { graphqlWebSocket, registerWebSockets, type CredentialHeaders } from './graphql/websocket.ts';
import { EventStreams } from './event-stream.ts';
import { sendGraphQLAnswer } from './graphql/http-media.ts';
import { readinessCheck } from './db/readiness.ts';
import { withStatementGate } from './db/statement-gate.ts';
import { secureHtmlAnswers } from './html-security.ts';
import { createOperationExecutor } from './graphql/operation-executor.ts';
import { buildSchema } from './graphql/schema.ts';
import { parseJsonBody } from './json-body.ts';
import { currentRequestLog, loggerOptions, withRequestLog } from './log.ts';
import { httpRequests, METRICS_CONTENT_TYPE, rateLimited, readMetrics } from './metrics.ts';
import { guessingAddress, withRequestOrigin } from './request-origin.ts';
import { refuseMisdirectedSignIn } from './public-host.ts';
import { rateLimitStore } from './rate-limit-store.ts';
import { answerOutsideRoutes, elapsedMs, registerRequestFacts, RequestLogController } from './request-log.ts';
import { tracedServerFactory, withRequestSpan } from './request-span.ts';
import { refuseOtherMethods, registerRestRoutes } from './rest/adapter.ts';
import { registerAuditStream } from './rest/audit-stream.ts';
import { hostedRoutes } from './hosted/routes.ts';
import { signInThrottle } from './pages/throttle.ts';
import { oidcRoutes } from './oidc/routes.ts';
import { servedOpenApiJson } from './rest/openapi.ts';
import type { Services } from './services.ts';
import { tracingStarted } from './tracing.ts';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

const NOT_JSON = 'Request bodies must be application/json';

/** Checked often enough to end a late request near its deadline. */
function requestDeadlines(requestTimeoutMs: number): ServerOptions {
  return { headersTimeout: Math.min(60_000, requestTimeoutMs), connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(requestTimeoutMs / 4))) };
}

function fromFastifyError(error: FastifyError, request: FastifyRequest): ErrorBody | undefined {
  switch (error.code) {
    // A QUERY (RFC 10008) without a Content-Type on a path no route takes: the 404 any other method gets.
    case 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE':
      return request.is404
        ? { code: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}` }
        : { code: 'unsupported_media_type', message: NOT_JSON };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: 'payload_too_large', message: 'The request body is larger than 1 MiB' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { code: 'unsupported_media_type', message: NOT_JSON };
    default:
      return undefined;
  }
}

/** Zero bytes are no body (`curl -X POST -d ''` to an unlock); a first byte is 415, without reading on. */
function readNoBody(request: FastifyRequest, payload: NodeJS.ReadableStream, done: (error?: GatehouseError | Error) => void): void {
  const { 'content-length': length, 'transfer-encoding': chunked } = request.headers;
  if (request.is404) return done();
  if (chunked === undefined) return done(length === undefined || Number(length) === 0 ? undefined : new GatehouseError('unsupported_media_type', NOT_JSON));
  const finish = (error?: Error) => {
    payload.pause();
    payload.off('data', onData).off('end', finish).off('error', finish);
    done(error);
  };
  const onData = (chunk: Buffer | string) => {
    if (chunk.length > 0) finish(new GatehouseError('unsupported_media_type', NOT_JSON));
  };
  payload.on('data', onData).on('end', finish).on('error', finish);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Credentials are checked before the rate limit counts them. */
    authenticated?: boolean;
    /** For its log line (src/request-log.ts). */
    operation?: string;
  }
  interface FastifyRequest {
    /** A refusal, or an unexpected failure (the database down). */
    authentication?: { principal: Principal } | { error: unknown };
  }
}

/**
 * Credentials that fail to authenticate count against the address (an IPv6 one by its /64), so inventing keys, or
 * addresses of one's own /64, buys no fresh buckets.
 */
function rateLimitKey(request: FastifyRequest): string {
  const authentication = request.authentication;
  return authentication !== undefined && 'principal' in authentication
    ? `cred:${authentication.principal.credentialId}`
    : `ip:${guessingAddress(request)}`;
}

function rateLimitRefusal(max: number, ttlMs: number): GatehouseError {
  return new GatehouseError('rate_limited', `Rate limit of ${max} requests exceeded; retry in ${Math.ceil(ttlMs / 1000)} s`);
}

/** A number becomes a function of the hop, as Fastify makes of a number itself. */
function fastifyTrustProxy(trust: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust === false ? false : [...trust];
}

const READY_PROBE_MS = 2_000;

/** A longer one is a path no route takes. */
const MAX_PATH_PARAMETER = 1024;

/** A year, as RFC 6797's examples and most sites. */
const STRICT_TRANSPORT_SECONDS = 365 * 24 * 3600;

/** The service-wide limit as a hook (`app.rateLimit()`): it sets the `X-RateLimit-*` headers or throws the 429, and a
 *  request it ran for is not counted again by its route's limiter. */
type RateLimitHook = ReturnType<FastifyInstance['rateLimit']>;

/** By the route's pattern, never the URL: ids would make a series per user. */
function observeAnswer(request: FastifyRequest, reply: FastifyReply): void {
  const route = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
  httpRequests.observe({ method: request.method, route, status: reply.statusCode }, elapsedMs(request, reply) / 1000);
}

/**
 * Unroutable requests arrive before any hook: counted by the rate limit, answered as an unknown route with the common
 * headers, logged and measured as any answer (answerOutsideRoutes).
 */
async function refuseUnroutable(limit: RateLimitHook | undefined, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('x-request-id', request.id);
  let refusal = new GatehouseError('not_found', 'No route: the path is not valid (malformed percent-encoding, or a segment too long)');
  try {
    await limit?.call(request.server, request, reply);
  } catch (error) {
    if (!(error instanceof GatehouseError)) throw error;
    refusal = error;
  }
  const body = toErrorBody(refusal);
  request.refusal = { code: body.code, message: body.message };
  await reply.status(STATUS_BY_CODE[body.code]).send(body);
}

export interface Server {
  readonly app: FastifyInstance;
  readonly apollo: ApolloServer<RequestContext>;
}

/** `false`: nowhere; a stream: JSON lines (the tests read it). */
export type LogDestination = boolean | DestinationStream;

export async function createServer(services: Services, options: { redis?: Redis; logger?: LogDestination } = {}): Promise<Server> {
  const { config } = services;
  const { logger = true } = options;
  const requestLog = new RequestLogController();
  const app = Fastify({
    logger: typeof logger === 'boolean' ? logger && loggerOptions(config.logLevel, config.logPretty) : { ...loggerOptions(config.logLevel), stream: logger },
    bodyLimit: config.bodyLimitBytes,
    // Only for the client address (request.ip); see Config.trustProxy.
    trustProxy: fastifyTrustProxy(config.trustProxy),
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    forceCloseConnections: 'idle',
    requestTimeout: config.requestTimeoutMs,
    http: requestDeadlines(config.requestTimeoutMs),
    ...(tracingStarted() ? { serverFactory: tracedServerFactory } : {}),
    logController: requestLog,
    // Long ids, slugs and hostnames reach their route's validation (a 422 naming the parameter), not the router's 414.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: MAX_PATH_PARAMETER },
    clientErrorHandler: answerClientError,
    frameworkErrors: (_error, request, reply) => {
      answerOutsideRoutes(request, reply, () => {
        observeAnswer(request, reply);
        requestLog.requestCompleted(null, request, reply);
      });
      void refuseUnroutable(unrouted.limit, request, reply);
    },
  });
  registerRequestFacts(app);
  // Made before anything is awaited: it listens for the Redis client's errors from its first connection attempt on.
  const sharedCounters = options.redis === undefined ? undefined : rateLimitStore(options.redis, config.rateLimit.redisPrefix, app.log);
  // Set once the limiter is registered (below), before the server listens.
  const unrouted: { limit?: RateLimitHook } = {};
  const schema = buildSchema();
  const serializeError = formatError(schema, (error) => currentRequestLog(app.log).error({ err: error }, 'unexpected error in a resolver'));
  const apollo = await createApollo(schema, serializeError);

  services.invalidations.onError = (error) => currentRequestLog(app.log).error({ err: error }, 'invalidation fan-out through Redis failed');
  services.invalidations.onRecovered = () => app.log.info('invalidation fan-out through Redis works again');

  // With an https PUBLIC_URL a first plain-http request cannot then be answered by someone on the way (RFC 6797). Not
  // `includeSubDomains`: a custom domain's parent is the customer's, and so are its other hosts.
  const strictTransport = new URL(config.publicUrl).protocol === 'https:';
  // Callback hooks here and below: a promise per request would cost more than their work.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (strictTransport) reply.header('strict-transport-security', `max-age=${STRICT_TRANSPORT_SECONDS}`);
    done();
  });
  // The request's log, origin, trace and database gate (src/db/statement-gate.ts) as current, for code not handed the
  // request. A callback hook: the handler is called from within `done`.
  app.addHook('preHandler', (request, _reply, done) =>
    withRequestSpan(request.raw, () =>
      withRequestLog(request.log, request.facts ?? {}, () => withRequestOrigin(request.ip, request.headers['user-agent'], () => withStatementGate(done))),
    ),
  );
  secureHtmlAnswers(app);
  app.addHook('onResponse', (request, reply, done) => {
    observeAnswer(request, reply);
    done();
  });

  // A stream outlives its request: its credentials are checked again before each event (src/domain/audit-stream.ts).
  const stores: Record<CredentialSource, CredentialStore> = {
    cache: { orm: services.orm, cache: services.apiKeys },
    // A lifetime of 0 keeps nothing: every question reaches the database.
    database: { orm: services.orm, cache: new ApiKeyCache(services.invalidations, 0) },
  };
  // The streams of one credential woken by one record share a database read begun after each asked.
  const databaseReads = readsAfterCall<Principal>();
  const authenticateHeaders = async (headers: CredentialHeaders, source: CredentialSource = 'cache') => {
    const credentials = readCredentials(headers);
    const read = () => authenticate(stores[source], services.signingKeys, credentials, services.surfaces);
    if (source === 'cache') return read();
    const key = createHash('sha256').update(JSON.stringify([credentials.apiKey, credentials.bearer, credentials.application])).digest('base64url');
    return databaseReads(key, read);
  };
  const authenticateRequest = (request: FastifyRequest, source?: CredentialSource) => authenticateHeaders(request.headers, source);

  // Application-level hooks run before the rate limiter's route-level one, which then buckets by the outcome.
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.authenticated !== true) return;
    try {
      request.authentication = { principal: await authenticateRequest(request) };
    } catch (error) {
      // Any failure is answered by the handler (contextFor), after the rate limit has counted it against the address.
      request.authentication = { error };
    }
  });

  // A 401 says how to authenticate (RFC 7235 3.1, RFC 6750 3); `insufficient_scope` on a Bearer 403 (RFC 6750 3.1).
  // An answer to credentials may carry a secret: no cache keeps it (RFC 9111 lets them keep an answer that says nothing).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.routeOptions.config.authenticated !== true) return done(null, payload);
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    if (reply.statusCode === 401) {
      const outcome = request.authentication;
      const tokenRefused = outcome !== undefined && 'error' in outcome && outcome.error instanceof BearerTokenRefused;
      reply.header('www-authenticate', `Bearer realm="gatehouse"${tokenRefused ? ', error="invalid_token"' : ''}`);
    } else if (reply.statusCode === 403 && request.headers.authorization !== undefined) {
      reply.header('www-authenticate', 'Bearer realm="gatehouse", error="insufficient_scope"');
    }
    done(null, payload);
  });

  // In-flight requests still finish, but their keep-alive connections must not hold the shutdown open.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  // An empty body is no body, whatever its Content-Type. Anything else is 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (error) {
      done(error as GatehouseError, undefined);
    }
  });
  app.addContentTypeParser('*', (request, payload, done) => {
    readNoBody(request, payload, (error) => done(error ?? null, undefined));
  });

  app.setErrorHandler((thrown: FastifyError | GatehouseError, request, reply) => {
    const error = thrown instanceof GatehouseError ? thrown : (refusalOfDatabase(thrown) ?? thrown);
    let body: ErrorBody;
    if (error instanceof GatehouseError) {
      body = toErrorBody(error);
    } else {
      const mapped = fromFastifyError(error, request);
      if (mapped === undefined) request.log.error({ err: error }, 'unexpected error');
      body = mapped ?? INTERNAL_ERROR;
    }
    const status = STATUS_BY_CODE[body.code];
    sayWhenToRetry(reply, status, error instanceof GatehouseError ? error.retryAfterSeconds : undefined);
    // GraphQL clients read errors in the GraphQL shape, whichever layer refused the request.
    if (request.routeOptions.url === '/graphql') {
      return sendGraphQLAnswer(request, reply, { status, body: graphqlErrors(error instanceof GatehouseError ? toGraphQLErrorBody(error) : body), fromGraphQL: false });
    }
    return reply.status(status).send(body);
  });

  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.windowMs,
    keyGenerator: rateLimitKey,
    ...(sharedCounters === undefined ? {} : { store: sharedCounters }),
    addHeadersOnExceeding: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true },
    addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
    onExceeded: () => rateLimited.inc({ limit: 'api' }),
    errorResponseBuilder: (_request, context) => rateLimitRefusal(context.max, context.ttl),
  });
  capConcurrentRequests(app, config.concurrentRequestsPerCredential, rateLimitKey);
  // A GraphQL WebSocket counts its connection, and each subscription, as an SSE open's request.
  const countRequest = app.createRateLimit();
  const countAgainst = async (request: FastifyRequest, principal: Principal) => {
    request.authentication = { principal };
    const counted = await countRequest(request);
    if (counted.isAllowed || !counted.isExceeded) return undefined;
    rateLimited.inc({ limit: 'api' });
    return rateLimitRefusal(counted.max, counted.ttl);
  };

  const throttle = signInThrottle(app, config.signInRateLimit);

  // Counted before their body is read: an oversized body on an unknown path gets 413 after the limiter's headers.
  unrouted.limit = app.rateLimit();
  app.addHook('onRequest', (request, reply, done) => {
    const limit = unrouted.limit;
    if (!request.is404 || limit === undefined) return done();
    limit.call(app, request, reply).then(() => done(), done);
  });
  await registerWebSockets(app, config.bodyLimitBytes);
  app.setNotFoundHandler(async (request) => {
    throw new GatehouseError('not_found', `No route ${request.method} ${request.url.split('?')[0]}`);
  });

  const contextFor = async (request: FastifyRequest) => {
    const authentication = request.authentication;
    if (authentication === undefined) throw new Error(`${request.routeOptions.url} is not an authenticated route`);
    if ('error' in authentication) throw authentication.error;
    return createRequestContext(services, request.id, authentication.principal);
  };

  // The orchestrator's probes: outside the rate limit (behind a proxy they would spend every client's budget, and a 429
  // takes the instance out of service) and outside the request log.
  const probe = { config: { rateLimit: false }, logLevel: 'silent' } as const;
  app.get('/healthz', probe, async () => ({ status: 'ok' }));
  // The log says when the answer changes, not each time.
  const databaseAnswers = readinessCheck(services.orm, config.databaseUrl);
  let ready = true;
  app.get('/readyz', probe, async (_request, reply) => {
    try {
      await databaseAnswers(READY_PROBE_MS);
      if (!ready) app.log.info('database reachable again: ready');
      ready = true;
      return { status: 'ready' };
    } catch (error) {
      if (ready) app.log.warn({ err: error }, 'database unreachable: not ready');
      ready = false;
      return reply.status(503).send({ status: 'unavailable' });
    }
  });

  // A probe too (not limited, not logged), behind METRICS_TOKEN when set.
  const metricsToken = config.metricsToken === undefined ? undefined : hashApiKeySecret(`Bearer ${config.metricsToken}`);
  app.get('/metrics', probe, async (request, reply) => {
    if (metricsToken !== undefined && !secretMatches(request.headers.authorization ?? '', metricsToken)) {
      return reply.status(401).header('www-authenticate', 'Bearer realm="metrics"').send(toErrorBody(new GatehouseError('unauthenticated', 'GET /metrics needs the METRICS_TOKEN as a Bearer token')));
    }
    return reply.type(METRICS_CONTENT_TYPE).send(await readMetrics());
  });

  const streams = new EventStreams(app, config.auditStreamHeartbeatMs, config.streamsPerCredential);
  const subscriptions = subscriptionStarter(schema, serializeError);
  const webSocket = graphqlWebSocket(app, {
    schema,
    subscriptions,
    streams,
    authenticate: authenticateHeaders,
    countRequest: countAgainst,
    contextOf: (request, principal) => createRequestContext(services, request.id, principal),
    heartbeatMs: config.auditStreamHeartbeatMs,
    logCompleted: (error, request, reply) => requestLog.requestCompleted(error, request, reply),
  });
  registerGraphQLEndpoint(app, apollo, contextFor, subscriptionRunner({ subscriptions, streams, authenticateAgain: authenticateRequest }), webSocket);

  registerRestRoutes(app, { schema, operations: createOperationExecutor(schema, serializeError), contextFor, readCache: services.readCache });
  registerAuditStream(app, { contextFor, authenticateAgain: authenticateRequest, waker: services.auditWaker, streams });
  // Public on purpose (docs/decisions.md): it describes the API, not anyone's data.
  const openapi = servedOpenApiJson(schema, config.publicUrl);
  app.get('/api/v1/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(openapi));
  for (const url of ['/healthz', '/readyz', '/metrics', '/api/v1/openapi.json']) refuseOtherMethods(app, url, ['GET']);
  refuseOtherMethods(app, '/graphql', ['GET', 'POST']);
  registerDashboard(app, { orm: services.orm, publicUrl: config.publicUrl, audience: services.signingKeys.managementAudience });
  refuseMisdirectedSignIn(app, services.surfaces, config.publicUrl);
  // On the raw request, in its own scope: no body parsing.
  await app.register(oidcRoutes(services, throttle));
  // Their own scope: form bodies, HTML errors, CSP.
  await app.register(hostedRoutes(services, throttle));
  return { app, apollo };
}
