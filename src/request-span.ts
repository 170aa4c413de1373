import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api';
import type { FastifyServerOptions } from 'fastify';
import { workContext } from './spans.ts';

/**
 * The span of each HTTP request, with tracing on: made here rather than by the HTTP instrumentation, whose server side
 * costs most of tracing a cheap request (docs/bench.md, "Observability").
 */
const tracer = trace.getTracer('gatehouse');

/** Paths whose requests make no trace: the probes, asked every few seconds. */
const UNTRACED = new Set(['/healthz', '/readyz', '/metrics']);

const SPAN_CONTEXT = Symbol('request span context');
type TracedRequest = IncomingMessage & { [SPAN_CONTEXT]?: Context };

/**
 * Runs `next` in the request's context (its span, or a dropped request's): Node runs a body's stream events outside it.
 * A request without a body is still in it, and entering it again would copy every async-local store for nothing.
 */
export function withRequestSpan(request: IncomingMessage, next: () => void): void {
  const spanContext = (request as TracedRequest)[SPAN_CONTEXT];
  if (spanContext === undefined || context.active() === spanContext) return next();
  context.with(spanContext, next);
}

/** One options object for every request's span: startSpan only reads it. */
const SERVER_SPAN = { kind: SpanKind.SERVER };

/**
 * Headers a propagator OTEL_PROPAGATORS names reads without naming them in `fields()`, which lists what it writes: B3's
 * reads both its encodings, and names the one it writes (`b3` single, `b3multi` the X-B3-* headers).
 */
const READ_UNNAMED = ['b3', 'x-b3-traceid'];

function tracedRequests(handler: RequestListener): RequestListener {
  // The headers the configured propagators read: a request with none continues no trace, and most come without, so
  // extracting nothing is not worth its 0.3 µs. A header of READ_UNNAMED the configured ones ignore is extracted for nothing.
  const carriers = [...new Set([...propagation.fields(), ...READ_UNNAMED])];
  const parentOf = (request: IncomingMessage): Context => {
    for (const field of carriers) if (request.headers[field] !== undefined) return propagation.extract(ROOT_CONTEXT, request.headers);
    return ROOT_CONTEXT;
  };
  return (request: TracedRequest, response: ServerResponse) => {
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    // The path only: a query may carry a code or a token.
    const path = query === -1 ? url : url.slice(0, query);
    if (UNTRACED.has(path)) return handler(request, response);
    const parent = parentOf(request);
    const span = tracer.startSpan(request.method ?? 'HTTP', SERVER_SPAN, parent);
    const spanContext = workContext(span, parent);
    request[SPAN_CONTEXT] = spanContext;
    // Dropped: nothing more to note. A service it calls is not told the decision either, and samples for itself.
    if (!span.isRecording()) return context.with(spanContext, handler, undefined, request, response);
    // Attributes here, not to startSpan, which checks them before sampling.
    span.setAttributes({ 'http.request.method': request.method, 'url.path': path });
    // 'close' follows a response sent and a connection lost alike.
    response.once('close', () => {
      span.setAttribute('http.response.status_code', response.statusCode);
      if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      else if (!response.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR, message: 'connection closed before the response was sent' });
      span.end();
    });
    context.with(spanContext, handler, undefined, request, response);
  };
}

/**
 * Fastify's server factory with tracing on: the HTTP/1 server Fastify would make (its settings as fastify/lib/server.js
 * applies them), its requests each in a span.
 */
export function tracedServerFactory(handler: RequestListener, options: FastifyServerOptions): Server {
  // Fastify hands its whole options over, `http` (the HTTP/1 server's own) included, which its type here leaves out.
  const server = createServer((options as { readonly http?: ServerOptions | null }).http ?? {}, tracedRequests(handler));
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
  if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
  if (options.maxRequestsPerSocket !== undefined && options.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  return server;
}
