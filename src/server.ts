import { randomUUID } from 'node:crypto';
import type { Server as HttpServer, ServerOptions } from 'node:http';
import type { ApolloServer } from '@apollo/server';
import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import Fastify, { type FastifyHttpOptions, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { DestinationStream } from 'pino';
import { registerAuthentication } from './http/authentication.ts';
import { answerClientError, followRouted } from './http/client-error.ts';
import type { Config } from './config.ts';
import type { Principal } from './auth/principal.ts';
import { capConcurrentRequests } from './http/concurrency-cap.ts';
import { createRequestContext, type RequestContext } from './context.ts';
import { GatehouseError, STATUS_BY_CODE, toErrorBody } from './errors.ts';
import { createApollo } from './graphql/apollo.ts';
import { formatError } from './graphql/format-error.ts';
import { registerDashboard } from './dashboard/routes.ts';
import { registerGraphQLEndpoint } from './graphql/http-endpoint.ts';
import { subscriptionRunner, subscriptionStarter } from './graphql/subscriptions.ts';
import { graphqlWebSocket, registerWebSockets } from './graphql/websocket.ts';
import { EventStreams } from './http/event-stream.ts';
import { withStatementGate } from './db/statement-gate.ts';
import { secureHtmlAnswers } from './http/html-security.ts';
import { createOperationExecutor } from './graphql/operation-executor.ts';
import { buildSchema } from './graphql/schema.ts';
import { registerJsonErrors } from './http/json-errors.ts';
import { currentRequestLog, loggerOptions, withRequestLog } from './observability/log.ts';
import { httpRequests, rateLimitRefusal } from './observability/metrics.ts';
import { registerProbes } from './http/probes.ts';
import { clientAddress, guessingAddress, withRequestOrigin } from './http/request-origin.ts';
import { refuseMisdirectedSignIn } from './http/public-host.ts';
import { CREDENTIAL_BUCKET, memoryRateLimitStore } from './http/rate-limit-memory.ts';
import { rateLimitStore } from './http/rate-limit-store.ts';
import { answerOutsideRoutes, elapsedMs, registerRequestFacts, RequestLogController } from './observability/request-log.ts';
import { tracedServerFactory, withRequestSpan } from './observability/request-span.ts';
import { refuseOtherMethods, registerRestRoutes } from './rest/adapter.ts';
import { registerAuditStream } from './rest/audit-stream.ts';
import { hostedRoutes } from './hosted/routes.ts';
import { signInThrottle } from './pages/throttle.ts';
import { oidcRoutes } from './oidc/routes.ts';
import { servedOpenApiJson } from './rest/openapi.ts';
import { unroutedMessage } from './http/unrouted.ts';
import type { Services } from './services.ts';
import { tracingStarted } from './observability/tracing.ts';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Checked often enough to end a late request near its deadline. */
function requestDeadlines(requestTimeoutMs: number): ServerOptions {
  return { headersTimeout: Math.min(60_000, requestTimeoutMs), connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(requestTimeoutMs / 4))) };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** For its log line (src/observability/request-log.ts). */
    operation?: string;
  }
}

/**
 * Credentials that fail to authenticate count against the address (an IPv6 one by its /64), so inventing keys, or
 * addresses of one's own /64, buys no fresh buckets.
 */
function rateLimitKey(request: FastifyRequest): string {
  const authentication = request.authentication;
  return authentication !== undefined && 'principal' in authentication
    ? `${CREDENTIAL_BUCKET}${authentication.principal.credentialId}`
    : `ip:${guessingAddress(request)}`;
}

function apiLimitRefusal(max: number, ttlMs: number): GatehouseError {
  return rateLimitRefusal('api', `Rate limit of ${max} requests exceeded; retry in ${Math.ceil(ttlMs / 1000)} s`);
}

/** A number becomes a function of the hop, as Fastify makes of a number itself. */
function fastifyTrustProxy(trust: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust === false ? false : [...trust];
}

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

/** What counts a request no route takes; set once the limiter is registered, before the server listens. */
interface Unrouted {
  limit?: RateLimitHook;
  credentials?: (request: FastifyRequest) => Promise<void>;
}

/**
 * Unroutable requests arrive before any hook: counted by the rate limit as any 404 (against working credentials sent),
 * answered as an unknown route with the common headers, logged and measured as any answer (answerOutsideRoutes).
 */
async function refuseUnroutable(unrouted: Unrouted, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('x-request-id', request.id);
  let refusal = new GatehouseError('not_found', 'No route: the path is not valid (malformed percent-encoding, or a segment too long)');
  try {
    await unrouted.credentials?.(request);
    await unrouted.limit?.call(request.server, request, reply);
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

function fastifyOptions(config: Config, logger: LogDestination, requestLog: RequestLogController, unrouted: Unrouted): FastifyHttpOptions<HttpServer> {
  return {
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
      void refuseUnroutable(unrouted, request, reply);
    },
  };
}

/** Every answer's request id (and HSTS; a 408 of its late body's too: followRouted), the request's facts current while it
 *  is handled, its measure once answered. */
function registerRequestHooks(app: FastifyInstance, publicUrl: string): void {
  // With an https PUBLIC_URL a first plain-http request cannot then be answered by someone on the way (RFC 6797). Not
  // `includeSubDomains`: a custom domain's parent is the customer's, and so are its other hosts.
  const strictTransport = new URL(publicUrl).protocol === 'https:';
  // Callback hooks here and below: a promise per request would cost more than their work.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    followRouted(reply);
    if (strictTransport) reply.header('strict-transport-security', `max-age=${STRICT_TRANSPORT_SECONDS}`);
    done();
  });
  // The request's log, origin, trace and database gate (src/db/statement-gate.ts) as current, for code not handed the
  // request. A callback hook: the handler is called from within `done`.
  app.addHook('preHandler', (request, _reply, done) =>
    withRequestSpan(request.raw, () =>
      withRequestLog(request.log, request.facts ?? {}, () => withRequestOrigin(clientAddress(request), request.headers['user-agent'], () => withStatementGate(done))),
    ),
  );
  secureHtmlAnswers(app);
  app.addHook('onResponse', (request, reply, done) => {
    observeAnswer(request, reply);
    done();
  });
}

/** In-flight requests still finish, but their keep-alive connections must not hold the shutdown open. */
function closeConnectionsOnShutdown(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}

/** The service-wide limit and the cap on concurrent requests; gives what counts a WebSocket's requests. */
async function registerRateLimit(app: FastifyInstance, config: Config, counters: FastifyRateLimitStoreCtor) {
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.windowMs,
    keyGenerator: rateLimitKey,
    store: counters,
    addHeadersOnExceeding: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true },
    addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
    errorResponseBuilder: (_request, context) => apiLimitRefusal(context.max, context.ttl),
  });
  capConcurrentRequests(app, config.concurrentRequestsPerCredential, rateLimitKey);
  // A GraphQL WebSocket counts its connection, each subscription and each ping, as an SSE open's request.
  const countRequest = app.createRateLimit();
  return async (request: FastifyRequest, principal?: Principal) => {
    if (principal !== undefined) request.authentication = { principal };
    const counted = await countRequest(request);
    if (counted.isAllowed || !counted.isExceeded) return undefined;
    return apiLimitRefusal(counted.max, counted.ttl);
  };
}

/** Counted before their body is read: an oversized body on an unknown path gets 413 after the limiter's headers. */
function limitUnmatched(app: FastifyInstance): RateLimitHook {
  const limit = app.rateLimit();
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.is404) return done();
    limit.call(app, request, reply).then(() => done(), done);
  });
  return limit;
}

export async function createServer(services: Services, options: { redis?: Redis; logger?: LogDestination } = {}): Promise<Server> {
  const { config } = services;
  const requestLog = new RequestLogController();
  const unrouted: Unrouted = {};
  const app = Fastify(fastifyOptions(config, options.logger ?? true, requestLog, unrouted));
  registerRequestFacts(app);
  // Made before anything is awaited: it listens for the Redis client's errors from its first connection attempt on.
  const counters = options.redis === undefined ? memoryRateLimitStore(app.log) : rateLimitStore(options.redis, config.rateLimit.redisPrefix, app.log);
  const schema = buildSchema();
  const serializeError = formatError(schema, (error) => currentRequestLog(app.log).error({ err: error }, 'unexpected error in a resolver'));
  const apollo = await createApollo(schema, serializeError);

  services.invalidations.onError = (error) => currentRequestLog(app.log).error({ err: error }, 'invalidation fan-out through Redis failed');
  services.invalidations.onRecovered = () => app.log.info('invalidation fan-out through Redis works again');

  registerRequestHooks(app, config.publicUrl);
  const authentication = registerAuthentication(app, services);
  closeConnectionsOnShutdown(app);
  registerJsonErrors(app);
  const countAgainst = await registerRateLimit(app, config, counters);
  const throttle = signInThrottle(app, config.signInRateLimit);
  unrouted.limit = limitUnmatched(app);
  unrouted.credentials = authentication.countedCredentials;
  await registerWebSockets(app, config.bodyLimitBytes);
  app.setNotFoundHandler(async (request) => {
    throw new GatehouseError('not_found', unroutedMessage(request.method, request.url));
  });
  registerProbes(app, services);

  const streams = new EventStreams(app, config.auditStreamHeartbeatMs, config.streamsPerCredential, (reply) => {
    observeAnswer(reply.request, reply);
    requestLog.requestCompleted(null, reply.request, reply);
  });
  const subscriptions = subscriptionStarter(schema, serializeError);
  const webSocket = graphqlWebSocket(app, {
    schema,
    subscriptions,
    streams,
    authenticate: authentication.headers,
    countRequest: countAgainst,
    contextOf: (request, principal) => createRequestContext(services, request.id, principal),
    heartbeatMs: config.auditStreamHeartbeatMs,
    logCompleted: (error, request, reply) => requestLog.requestCompleted(error, request, reply),
    invalidations: services.invalidations,
  });
  const { contextFor } = authentication;
  registerGraphQLEndpoint(app, apollo, contextFor, subscriptionRunner({ subscriptions, streams, authenticateAgain: authentication.request }), webSocket);
  refuseOtherMethods(app, '/graphql', ['GET', 'POST'], { management: true });

  registerRestRoutes(app, { schema, operations: createOperationExecutor(schema, serializeError), contextFor, readCache: services.readCache });
  registerAuditStream(app, { contextFor, authenticateAgain: authentication.request, waker: services.auditWaker, streams });
  // Public on purpose (docs/decisions.md): it describes the API, not anyone's data.
  const openapi = servedOpenApiJson(schema, config.publicUrl);
  app.get('/api/v1/openapi.json', { config: { countsCredentials: true } }, async (_request, reply) => reply.type('application/json; charset=utf-8').send(openapi));
  refuseOtherMethods(app, '/api/v1/openapi.json', ['GET'], { management: true });
  registerDashboard(app, { orm: services.orm, surfaces: services.surfaces, publicUrl: config.publicUrl, audience: services.signingKeys.managementAudience });
  refuseMisdirectedSignIn(app, services.surfaces, config.publicUrl);
  // On the raw request, in its own scope: no body parsing.
  await app.register(oidcRoutes(services, throttle));
  // Their own scope: form bodies, HTML errors, CSP.
  await app.register(hostedRoutes(services, throttle));
  return { app, apollo };
}
