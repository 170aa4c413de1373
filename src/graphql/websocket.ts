import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { getOperationAST, GraphQLError, OperationTypeNode, type DocumentNode, type ExecutionArgs, type GraphQLSchema } from 'graphql';
import { CloseCode, handleProtocols, makeServer, type ExecutionResult, type FormattedExecutionResult, type SubscribePayload } from 'graphql-ws';
import type { RawData, WebSocket } from 'ws';
import { readCredentials, type CredentialSource } from '../auth/authenticate.ts';
import { unverifiedExpiry } from '../auth/jwt.ts';
import type { Principal } from '../auth/principal.ts';
import type { RequestContext } from '../context.ts';
import { GatehouseError, invalid } from '../errors.ts';
import type { InvalidationBus } from '../events/invalidations.ts';
import { gatehouseErrorOf } from '../gatehouse-error-of.ts';
import { credentialWatch } from './credential-watch.ts';
import { PingWatch } from './ping-watch.ts';
import { MAX_STALL_MS, MAX_UNREAD_BYTES, type EventStreams, type StreamSlot } from '../http/event-stream.ts';
import { jsonShapeProblem } from '../http/json-body.ts';
import { withRequestLog } from '../observability/log.ts';
import { parseClientDocument } from './operation-limits.ts';
import { inputRefusal, refusalOf, type SubscriptionStarter } from './subscriptions.ts';

/**
 * GraphQL over WebSocket (graphql-ws), subscriptions only, under the SSE path's rules (subscriptions.ts). Credentials
 * are asked again for each subscription and result, as a stream's, and when a record they stand on changes (closed
 * once refused, idle or not); each message counts in the rate limit, or one socket could subscribe without end, or have
 * messages as large as a request body parsed (and pings echoed) without end.
 */

export type CredentialHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface WebSocketDeps {
  readonly schema: GraphQLSchema;
  readonly subscriptions: SubscriptionStarter;
  readonly streams: EventStreams;
  readonly authenticate: (headers: CredentialHeaders, source?: CredentialSource) => Promise<Principal>;
  /** The refusal once the credential (without one, what the request was counted against) is over the API's rate limit. */
  readonly countRequest: (request: FastifyRequest, principal?: Principal) => Promise<GatehouseError | undefined>;
  readonly contextOf: (request: FastifyRequest, principal: Principal) => RequestContext;
  /** How often a ping goes out, as a stream's heartbeat; a client that leaves one unanswered for MAX_STALL_MS is dropped. */
  readonly heartbeatMs: number;
  readonly logCompleted: (error: Error | null, request: FastifyRequest, reply: FastifyReply) => void;
  /** Tells of the records changed (a key revoked, a user suspended), here or on another instance. */
  readonly invalidations: Pick<InvalidationBus, 'subscribe'>;
}

/** RFC 6455's registered code for "come back later": graphql-ws clients retry it (rate limited, too many streams, overloaded). */
const TRY_AGAIN_LATER = 1013;
/** RFC 6455's code for a server going down: clients reconnect, to another instance. */
const GOING_AWAY = 1001;
const CLOSE_GRACE_MS = 1_000;
/** A close frame's reason is at most 123 bytes. */
const MAX_CLOSE_REASON_BYTES = 123;

const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['x-api-key', 'authorization', 'x-gatehouse-application']);

const ONLY_SUBSCRIPTIONS = 'Only subscriptions are served over WebSocket: send queries and mutations as POST /graphql';

/** A connection refused (its credentials, the rate limit, its streams): closed with `closeCode`, the refusal as reason. */
class ConnectionRefused extends Error {
  readonly closeCode: number;
  readonly refusal: GatehouseError;

  constructor(closeCode: number, refusal: GatehouseError) {
    super(refusal.message);
    this.closeCode = closeCode;
    this.refusal = refusal;
  }
}

interface Connection {
  readonly request: FastifyRequest;
  credentials: CredentialHeaders;
  /** The credential's streams it holds: one, and one per subscription it runs beyond the first; none once closed. */
  readonly held: StreamSlot[];
  running: number;
  closed: boolean;
  ended?: GatehouseError | Error;
  /** Messages received so far. */
  received: number;
  /** Its messages' counts in the rate limit, one after the other, so that they are handled in the order they came. */
  counted: Promise<void>;
  /** Closes it, refused, as a subscription refused for its credentials does. */
  refuse: (refused: ConnectionRefused) => void;
}

/** When the Bearer token (verified already, by authenticate) runs out; Infinity without one. */
function tokenExpiry(credentials: CredentialHeaders): number {
  const token = readCredentials(credentials).bearer;
  return token === undefined ? Infinity : unverifiedExpiry(token);
}

/**
 * `connection_init`'s payload read as headers (`X-API-Key`, `Authorization`, `X-Gatehouse-Application`, in any case) when it holds one, else the
 * upgrade's own headers. Browsers never attach either by themselves and no cookie is read, so a page of another site
 * cannot open a subscription with its visitor's credentials: no Origin check is needed.
 */
function credentialsOf(payload: Readonly<Record<string, unknown>> | undefined, headers: IncomingHttpHeaders): CredentialHeaders {
  const given: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload ?? {})) {
    const header = name.toLowerCase();
    if (!CREDENTIAL_HEADERS.has(header)) continue;
    if (typeof value !== 'string' || Object.hasOwn(given, header)) {
      throw new GatehouseError('unauthenticated', `connection_init's payload must give ${name} once, as a string`);
    }
    given[header] = value;
  }
  return Object.keys(given).length > 0
    ? given
    : { 'x-api-key': headers['x-api-key'], authorization: headers.authorization, 'x-gatehouse-application': headers['x-gatehouse-application'] };
}

/** A refusal closes the connection, "come back later" when it is the load's, not the credentials'; anything else is an internal error. */
function refusedConnection(error: unknown): unknown {
  const refusal = gatehouseErrorOf(error);
  if (refusal === undefined) return error;
  return new ConnectionRefused(refusal.code === 'rate_limited' || refusal.code === 'service_unavailable' ? TRY_AGAIN_LATER : CloseCode.Forbidden, refusal);
}

const textOf = (data: RawData) => (Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data)).toString();

const UNEXPECTED_MESSAGE = /^Unexpected message of type \S+ received$/;

const closeReason = (refusal: GatehouseError) => {
  const reason = `${refusal.code}: ${refusal.message}`;
  return Buffer.byteLength(reason) <= MAX_CLOSE_REASON_BYTES ? reason : refusal.code;
};

/** Resolves once the client took the message; a client leaving too much unread, or reading nothing too long, is dropped. */
function send(socket: WebSocket, data: string): Promise<void> {
  if (socket.readyState !== socket.OPEN) return Promise.resolve();
  if (socket.bufferedAmount > MAX_UNREAD_BYTES) {
    socket.terminate();
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const stalled = setTimeout(() => {
      socket.terminate();
      resolve();
    }, MAX_STALL_MS);
    socket.send(data, () => {
      clearTimeout(stalled);
      resolve();
    });
  });
}

/** A subscription refused 403 or 429 leaves its connection open: its line at close is a warning with that refusal. */
function noted(request: FastifyRequest, errors: readonly GraphQLError[]): readonly GraphQLError[] {
  const refusal = errors.map((error) => error.originalError).find((error) => error instanceof GatehouseError && (error.status === 403 || error.status === 429));
  if (refusal instanceof GatehouseError && request.facts !== null && request.facts.refusal === undefined) {
    request.facts.refusal = refusal.code;
    request.refusal = { code: refusal.code, message: refusal.message };
  }
  return errors;
}

function goAway(socket: WebSocket): void {
  socket.close(GOING_AWAY, 'The server is shutting down');
  setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
}

/** Through @fastify/websocket, so that an upgrade passes the request pipeline (request id, rate limit, log line). */
export async function registerWebSockets(app: FastifyInstance, maxPayload: number): Promise<void> {
  await app.register(websocket, {
    // A message may be as large as a request body (ws's own limit is 100 MiB).
    options: { maxPayload, handleProtocols: (protocols) => handleProtocols(protocols) },
    errorHandler: (error, socket, request) => {
      request.log.warn({ err: error }, 'WebSocket error');
      socket.terminate();
    },
    preClose(done) {
      for (const socket of this.websocketServer.clients) goAway(socket);
      done();
    },
  });
  // Elsewhere an upgrade would be accepted only to be closed, and logged with its URL unredacted.
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.ws && request.routeOptions.url !== '/graphql') return done(new GatehouseError('not_found', 'No WebSocket here: GraphQL subscriptions are served on /graphql'));
    done();
  });
}

export function graphqlWebSocket(
  app: FastifyInstance,
  deps: WebSocketDeps,
): { preHandler: preHandlerHookHandler; wsHandler: (socket: WebSocket, request: FastifyRequest) => void } {
  // The WebSocket handler is handed the request only: the reply is kept for its headers and log line.
  const replies = new WeakMap<IncomingMessage, FastifyReply>();
  // The 101 carries what every answer does (the request id, the rate-limit headers), as a hijacked SSE answer does.
  app.websocketServer.on('headers', (headers: string[], raw: IncomingMessage) => {
    for (const [name, value] of Object.entries(replies.get(raw)?.getHeaders() ?? {})) {
      if (value !== undefined) headers.push(`${name}: ${Array.isArray(value) ? value.join(', ') : value}`);
    }
  });
  // Started in onSubscribe, where a refusal can still be answered; taken by `subscribe`.
  const started = new WeakMap<ExecutionArgs, AsyncIterableIterator<FormattedExecutionResult>>();

  const credentialChecks = credentialWatch<Connection>(deps.invalidations, checkCredentials);

  /** Closed with 4403 once its credentials are refused; the database failing says nothing of them and leaves it open. */
  async function checkCredentials(connection: Connection): Promise<void> {
    try {
      await deps.authenticate(connection.credentials, 'database');
    } catch (error) {
      if (connection.closed) return;
      const refused = refusedConnection(error);
      if (refused instanceof ConnectionRefused && refused.closeCode !== TRY_AGAIN_LATER) return connection.refuse(refused);
      connection.request.log.warn({ err: error }, 'a WebSocket connection’s credentials could not be asked again');
    }
  }

  async function connect(connection: Connection, payload: Readonly<Record<string, unknown>> | undefined): Promise<void> {
    try {
      connection.credentials = credentialsOf(payload, connection.request.headers);
      const heardBefore = credentialChecks.heard;
      const principal = await deps.authenticate(connection.credentials);
      const limited = await deps.countRequest(connection.request, principal);
      if (limited !== undefined) throw limited;
      const slot = deps.streams.take(principal);
      // Closed while it was authenticated: its close released what it held then.
      if (connection.closed) return slot.release();
      connection.held.push(slot);
      credentialChecks.watch(connection, principal, Math.min(principal.apiKeyExpiresAt?.getTime() ?? Infinity, tokenExpiry(connection.credentials)));
      // A change heard while it authenticated may have come after the read.
      if (credentialChecks.heard !== heardBefore) credentialChecks.askAgain(connection);
    } catch (error) {
      throw refusedConnection(error);
    }
  }

  function take(connection: Connection, principal: Principal): StreamSlot {
    if (connection.running === connection.held.length) connection.held.push(deps.streams.take(principal));
    connection.running += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        connection.running -= 1;
        while (connection.held.length > (connection.closed ? 0 : Math.max(1, connection.running))) connection.held.pop()?.release();
      },
    };
  }

  /** Once connected the credential's count, before what the upgrade counted against (its address). */
  async function countMessage(connection: Connection): Promise<void> {
    const limited = await deps.countRequest(connection.request);
    if (limited !== undefined) throw new ConnectionRefused(TRY_AGAIN_LATER, limited);
  }

  async function subscription(connection: Connection, payload: SubscribePayload): Promise<ExecutionArgs | readonly GraphQLError[]> {
    const { request, credentials } = connection;
    let principal: Principal;
    try {
      principal = await deps.authenticate(credentials);
    } catch (error) {
      // The connection's credentials no longer work (a key revoked since): the connection ends, not just this operation.
      throw refusedConnection(error);
    }
    let document: DocumentNode;
    try {
      document = parseClientDocument(payload.query);
    } catch (error) {
      return [error instanceof GraphQLError ? inputRefusal(error, ApolloServerErrorCode.GRAPHQL_PARSE_FAILED) : refusalOf(error)];
    }
    const operationName = payload.operationName ?? undefined;
    const operation = getOperationAST(document, operationName);
    // Queries and mutations stay on HTTP, where each is a request: its rate-limit count, Idempotency-Key and log line.
    if (operation != null && operation.operation !== OperationTypeNode.SUBSCRIPTION) return [refusalOf(invalid('query', ONLY_SUBSCRIPTIONS))];
    const variables = payload.variables ?? {};
    const context = deps.contextOf(request, principal);
    const subscribed = await deps.subscriptions.start(context, document, operationName, variables, {
      authenticateAgain: (source) => deps.authenticate(credentials, source),
      take: () => take(connection, principal),
    });
    if ('refused' in subscribed) return noted(request, subscribed.refused);
    const args: ExecutionArgs = { schema: deps.schema, document, operationName, variableValues: variables, contextValue: context };
    started.set(args, subscribed.results);
    return args;
  }

  function logClosed({ request, ended }: Connection, reply: FastifyReply, code: number): void {
    if (request.facts !== null) request.facts.closeCode = code;
    // A subscription refused earlier says more than the credentials failing since.
    if (ended instanceof GatehouseError && !(ended.code === 'unauthenticated' && request.facts?.refusal !== undefined)) {
      request.refusal = { code: ended.code, message: ended.message };
      if (ended.code !== 'unauthenticated' && request.facts !== null) request.facts.refusal = ended.code;
    }
    deps.logCompleted(ended === undefined || ended instanceof GatehouseError ? null : ended, request, reply);
  }

  const server = makeServer<Record<string, unknown>, Connection>({
    onConnect: async (ctx) => {
      await connect(ctx.extra, ctx.connectionParams);
      return true;
    },
    onSubscribe: (ctx, _id, payload) => subscription(ctx.extra, payload),
    subscribe: (args) => {
      const results = started.get(args);
      if (results === undefined) throw new Error('a subscription runs only as onSubscribe started it');
      return results as AsyncIterableIterator<ExecutionResult>;
    },
    onNext: (_ctx, _id, _payload, _args, result) => result,
    onError: (_ctx, _id, _payload, errors) => deps.subscriptions.show(errors),
  });

  return {
    preHandler: (request, reply, done) => {
      if (request.ws) replies.set(request.raw, reply);
      done();
    },
    wsHandler: (socket, request) => {
      const reply = replies.get(request.raw);
      if (reply === undefined) throw new Error('the upgrade of GET /graphql passed no preHandler');
      reply.code(101);
      const connection: Connection = { request, credentials: {}, held: [], running: 0, closed: false, received: 0, counted: Promise.resolve(), refuse: () => {} };
      const watch = new PingWatch();
      socket.on('pong', () => watch.pong());
      const heartbeat = setInterval(() => (watch.tick() === 'drop' ? socket.terminate() : socket.ping()), deps.heartbeatMs);
      const failed = (error: unknown) => {
        if (error instanceof ConnectionRefused) {
          connection.ended = error.refusal;
          socket.close(error.closeCode, closeReason(error.refusal));
          return;
        }
        // graphql-ws throws a plain Error for a message type only a server sends: the protocol's 4400, the client's fault.
        if (error instanceof Error && UNEXPECTED_MESSAGE.test(error.message)) return failed(new ConnectionRefused(CloseCode.BadRequest, invalid('type', error.message)));
        connection.ended = error instanceof Error ? error : new Error(String(error));
        socket.close(CloseCode.InternalServerError, 'Internal server error');
      };
      connection.refuse = failed;
      const closed = server.opened(
        {
          protocol: socket.protocol,
          send: (data) => send(socket, data),
          // graphql-ws's own reasons may quote a client's id, past a close frame's 123 bytes, which ws throws on.
          close: (code, reason = '') => socket.close(code, Buffer.byteLength(reason) <= MAX_CLOSE_REASON_BYTES ? reason : ''),
          // Within the upgrade's log, so what resolvers log carries its request id.
          onMessage: (handle) =>
            socket.on('message', (data) =>
              withRequestLog(request.log, request.facts ?? {}, () => {
                const text = textOf(data);
                // Counted before it is read; the first (connection_init) is counted by `connect`.
                if (connection.received++ > 0) connection.counted = connection.counted.then(() => countMessage(connection));
                connection.counted.then(
                  () => {
                    if (socket.readyState !== socket.OPEN) return;
                    // graphql-ws parses every message, a ping's before any credential and echoed in its pong: bounded as a body is.
                    const problem = jsonShapeProblem(text);
                    if (problem !== undefined) return failed(new ConnectionRefused(CloseCode.BadRequest, invalid('message', `The message ${problem}`)));
                    void handle(text).catch(failed);
                  },
                  (error: unknown) => void (socket.readyState === socket.OPEN && failed(error)),
                );
              }),
            ),
        },
        connection,
      );
      socket.once('close', (code, reason) => {
        clearInterval(heartbeat);
        connection.closed = true;
        credentialChecks.unwatch(connection);
        for (const slot of connection.held.splice(0)) slot.release();
        void closed(code, String(reason))
          .catch((error: unknown) => (connection.ended = error instanceof Error ? error : new Error(String(error))))
          .finally(() => logClosed(connection, reply, code));
      });
    },
  };
}
