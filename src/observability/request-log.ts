import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { trace } from '@opentelemetry/api';
import { LRUCache } from 'lru-cache';
import type { RequestFacts } from './log.ts';
import { GatehouseError } from '../errors.ts';
import { guessingAddress } from '../http/request-origin.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** src/observability/log.ts, noteRequest; null before onRequest. */
    facts: RequestFacts | null;
    /** Read from an error answer's body as it is sent. */
    refusal?: { readonly code: string; readonly message?: string };
    /** performance.now() at arrival, for a request answered outside the route lifecycle (answerOutsideRoutes) only. */
    receivedAt?: number;
  }
}

/** Someone is trying credentials: an address's further 401s are `warn`. */
const BURST = 10;
const BURST_WINDOW_MS = 60_000;

const LEVEL_VALUES: Readonly<Record<string, number>> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

/** The contract's bodies are small; anything larger is not one. */
const MAX_REFUSAL_BODY = 4096;

/** The contract's body, GraphQL's first error, or OAuth's `error`. */
function readRefusal(payload: unknown): { code: string; message?: string } | undefined {
  if (typeof payload !== 'string' || payload.length > MAX_REFUSAL_BODY || !payload.startsWith('{')) return undefined;
  let body: { code?: unknown; message?: unknown; error?: unknown; error_description?: unknown; errors?: { message?: unknown; extensions?: { code?: unknown } }[] };
  try {
    body = JSON.parse(payload) as typeof body;
  } catch {
    return undefined;
  }
  const first = Array.isArray(body.errors) ? body.errors[0] : undefined;
  const code = body.code ?? first?.extensions?.code ?? body.error;
  const message = body.message ?? first?.message ?? body.error_description;
  return typeof code === 'string' ? { code, ...(typeof message === 'string' ? { message } : {}) } : undefined;
}

export function registerRequestFacts(app: FastifyInstance): void {
  app.decorateRequest('facts', null);
  app.addHook('onRequest', (request, _reply, done) => {
    request.facts = {};
    // Named by its route pattern, never its URL.
    const span = trace.getActiveSpan();
    if (span !== undefined && request.routeOptions.url !== undefined) {
      span.updateName(`${request.method} ${request.routeOptions.url}`);
      span.setAttribute('http.route', request.routeOptions.url);
    }
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode >= 400) {
      const refusal = readRefusal(payload);
      if (refusal !== undefined) request.refusal = refusal;
    }
    done(null, payload);
  });
}

/** How long the answer took, in milliseconds: Fastify's time of its route lifecycle, else since answerOutsideRoutes. */
export const elapsedMs = (request: FastifyRequest, reply: FastifyReply): number =>
  request.receivedAt === undefined ? reply.elapsedTime : performance.now() - request.receivedAt;

/** A request the router refuses before any route (frameworkErrors) runs no route hook: logged and measured here. */
export function answerOutsideRoutes(request: FastifyRequest, reply: FastifyReply, completed: () => void): void {
  request.facts = {};
  request.receivedAt = performance.now();
  reply.raw.once('finish', completed);
}

/**
 * Security refusals are `warn` (429, 403, a burst of 401s from one address, a lockout, a refresh token used twice), as
 * is overload (503); failures `error`; the rest `info`; the probes nothing.
 */
export class RequestLogController extends LogController {
  private readonly unauthenticated = new LRUCache<string, number>({ max: 10_000, ttl: BURST_WINDOW_MS });

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const status = reply.statusCode;
    let reason = request.facts?.refusal;
    // A WebSocket refused for its credentials is a 101 closed with 4403: a guess all the same.
    if (reason === undefined && (status === 401 || request.refusal?.code === 'unauthenticated' || credentialsRefused(request))) {
      const address = guessingAddress(request);
      const count = (this.unauthenticated.get(address) ?? 0) + 1;
      this.unauthenticated.set(address, count, { noUpdateTTL: count > 1 });
      if (count >= BURST) reason = 'repeated_unauthenticated';
    }
    const refusal = request.refusal ?? request.facts?.answeredError;
    if (reason === undefined && (status === 403 || status === 429)) reason = refusal?.code ?? (status === 429 ? 'rate_limited' : 'forbidden');
    const overload = request.facts?.overload;
    const level = (status >= 500 && overload === undefined) || error != null ? 'error' : reason !== undefined || overload !== undefined ? 'warn' : 'info';
    if (LEVEL_VALUES[level]! < (LEVEL_VALUES[reply.log.level] ?? 0)) return;
    reply.log[level]({ ...completion(request, reply, reason, refusal), ...(error == null ? {} : { err: error }) }, 'request completed');
  }
}

/** Also where the answer does not say so (a 404 sent with a key), which would otherwise try keys unseen. */
function credentialsRefused(request: FastifyRequest): boolean {
  const outcome = request.authentication;
  return outcome !== undefined && 'error' in outcome && outcome.error instanceof GatehouseError && outcome.error.code === 'unauthenticated';
}

/** A route naming no operation of its own (the OP's endpoints, the pages) by its pattern, never its URL. */
function routeTaken(request: FastifyRequest): string | undefined {
  const pattern = request.routeOptions.url;
  return request.is404 || pattern === undefined ? undefined : `${request.method} ${pattern}`;
}

function completion(request: FastifyRequest, reply: FastifyReply, reason: string | undefined, refusal: FastifyRequest['refusal']) {
  const authentication = request.authentication;
  const principal = authentication !== undefined && 'principal' in authentication ? authentication.principal : undefined;
  const params = (request.params ?? {}) as Record<string, unknown>;
  const pathTenant = typeof params['tenantId'] === 'string' ? params['tenantId'] : undefined;
  const pathApplication = typeof params['appId'] === 'string' ? params['appId'] : undefined;
  return {
    status: reply.statusCode,
    durationMs: Math.round(elapsedMs(request, reply) * 10) / 10,
    application: principal?.applicationId ?? pathApplication ?? request.facts?.applicationId,
    tenant: pathTenant ?? request.facts?.tenantId ?? principal?.tenantId ?? undefined,
    ...(principal === undefined ? {} : { principal: { kind: principal.actor.type, id: principal.actor.id } }),
    operation: request.routeOptions.config.operation ?? request.facts?.operation ?? routeTaken(request),
    ...(request.facts?.closeCode === undefined ? {} : { closeCode: request.facts.closeCode }),
    ...(request.facts?.overload === undefined ? {} : { overload: request.facts.overload }),
    ...(reason === undefined && refusal === undefined ? {} : { reason: reason ?? refusal?.code, refusal: refusal?.message }),
  };
}
