import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { trace } from '@opentelemetry/api';
import { LRUCache } from 'lru-cache';
import type { RequestFacts } from './log.ts';
import { guessingAddress } from './request-origin.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the request's completion line says beyond the status (src/log.ts, noteRequest); null before onRequest. */
    facts: RequestFacts | null;
    /** The refusal's code and message, read from an error answer's body as it is sent. */
    refusal?: { readonly code: string; readonly message?: string };
  }
}

/** From this many 401s within BURST_WINDOW_MS, an address's further 401s are `warn`: someone is trying credentials. */
const BURST = 10;
const BURST_WINDOW_MS = 60_000;

/** pino's level values. */
const LEVEL_VALUES: Readonly<Record<string, number>> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

/** The longest error body read for its code: the contract's bodies are small; anything larger is not one. */
const MAX_REFUSAL_BODY = 4096;

/** An error answer's code and message: the contract's body, GraphQL's first error, or OAuth's `error`. */
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

/** Where each request's facts start, and where an error answer's reason is read, for RequestLogController. */
export function registerRequestFacts(app: FastifyInstance): void {
  app.decorateRequest('facts', null);
  app.addHook('onRequest', (request, _reply, done) => {
    request.facts = {};
    // With tracing on (src/tracing.ts), the request's span is named by its route pattern, never its URL.
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

/**
 * Fastify's request lines, the completion line saying status, duration, application, tenant, principal, operation and
 * refusal reason. Security refusals are `warn` (429, 403, a burst of 401s from one address, a lockout, a refresh token
 * used twice), and so is the service overloaded (503, with the database pool's counts); failures `error`; the rest
 * `info`; silent routes (the probes) nothing.
 */
export class RequestLogController extends LogController {
  private readonly unauthenticated = new LRUCache<string, number>({ max: 10_000, ttl: BURST_WINDOW_MS });

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const status = reply.statusCode;
    let reason = request.facts?.refusal;
    if (reason === undefined && status === 401) {
      const address = guessingAddress(request);
      const count = (this.unauthenticated.get(address) ?? 0) + 1;
      this.unauthenticated.set(address, count, { noUpdateTTL: count > 1 });
      if (count >= BURST) reason = 'repeated_unauthenticated';
    }
    if (reason === undefined && (status === 403 || status === 429)) reason = request.refusal?.code ?? (status === 429 ? 'rate_limited' : 'forbidden');
    const overload = request.facts?.overload;
    const level = (status >= 500 && overload === undefined) || error != null ? 'error' : reason !== undefined || overload !== undefined ? 'warn' : 'info';
    // No fields gathered for a level the log leaves out.
    if (LEVEL_VALUES[level]! < (LEVEL_VALUES[reply.log.level] ?? 0)) return;
    reply.log[level]({ ...completion(request, reply, reason), ...(error == null ? {} : { err: error }) }, 'request completed');
  }
}

/** The completion line's fields. */
function completion(request: FastifyRequest, reply: FastifyReply, reason: string | undefined) {
  const authentication = request.authentication;
  const principal = authentication !== undefined && 'principal' in authentication ? authentication.principal : undefined;
  const params = (request.params ?? {}) as Record<string, unknown>;
  const pathTenant = typeof params['tenantId'] === 'string' ? params['tenantId'] : undefined;
  const pathApplication = typeof params['appId'] === 'string' ? params['appId'] : undefined;
  return {
    status: reply.statusCode,
    durationMs: Math.round(reply.elapsedTime * 10) / 10,
    application: principal?.applicationId ?? pathApplication ?? request.facts?.applicationId,
    tenant: pathTenant ?? principal?.tenantId ?? request.facts?.tenantId ?? undefined,
    ...(principal === undefined ? {} : { principal: { kind: principal.actor.type, id: principal.actor.id } }),
    operation: request.routeOptions.config.operation ?? request.facts?.operation,
    ...(request.facts?.closeCode === undefined ? {} : { closeCode: request.facts.closeCode }),
    ...(request.facts?.overload === undefined ? {} : { overload: request.facts.overload }),
    ...(reason === undefined && request.refusal === undefined ? {} : { reason: reason ?? request.refusal?.code, refusal: request.refusal?.message }),
  };
}
