import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api';
import type { FastifyServerOptions } from 'fastify';
import { workContext } from './spans.ts';

/** Made here rather than by the HTTP instrumentation, whose server side costs most of tracing a cheap request (docs/bench.md). */
const tracer = trace.getTracer('gatehouse');

const UNTRACED = new Set(['/healthz', '/readyz', '/metrics']);

const SPAN_CONTEXT = Symbol('request span context');
type TracedRequest = IncomingMessage & { [SPAN_CONTEXT]?: Context };

/**
 * Node runs a body's stream events outside the request's context; one without a body is still in it (re-entering copies
 * every store).
 */
export function withRequestSpan(request: IncomingMessage, next: () => void): void {
  const spanContext = (request as TracedRequest)[SPAN_CONTEXT];
  if (spanContext === undefined || context.active() === spanContext) return next();
  context.with(spanContext, next);
}

const SERVER_SPAN = { kind: SpanKind.SERVER };

/** Read by B3's propagator though `fields()` lists only the encoding it writes. */
const READ_UNNAMED = ['b3', 'x-b3-traceid'];

function tracedRequests(handler: RequestListener): RequestListener {
  // A request with none continues no trace, and most come without: extracting nothing is not worth its 0.3 µs.
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
    // Dropped: a service it calls is not told the decision either, and samples for itself.
    if (!span.isRecording()) return context.with(spanContext, handler, undefined, request, response);
    // Not to startSpan, which checks them before sampling.
    span.setAttributes({ 'http.request.method': request.method, 'url.path': path });
    response.once('close', () => {
      span.setAttribute('http.response.status_code', response.statusCode);
      if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      else if (!response.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR, message: 'connection closed before the response was sent' });
      span.end();
    });
    context.with(spanContext, handler, undefined, request, response);
  };
}

/** The HTTP/1 server Fastify would make (its settings as fastify/lib/server.js applies them). */
export function tracedServerFactory(handler: RequestListener, options: FastifyServerOptions): Server {
  // Fastify hands its whole options over, `http` included, which its type here leaves out.
  const server = createServer((options as { readonly http?: ServerOptions | null }).http ?? {}, tracedRequests(handler));
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
  if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
  if (options.maxRequestsPerSocket !== undefined && options.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  return server;
}
