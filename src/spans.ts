import { context, createContextKey, ROOT_CONTEXT, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';

const tracer = trace.getTracer('gatehouse');

const DROPPED_SPAN = createContextKey('gatehouse dropped span');
/** Where a request or job the sampler dropped runs: see workContext. */
const UNTRACED_CONTEXT = suppressTracing(ROOT_CONTEXT);

/**
 * A dropped span's context: UNTRACED_CONTEXT with the span under DROPPED_SPAN, read through rather than copied:
 * `setValue`'s copy of the context's Map was a quarter of what tracing allocated for a dropped request (docs/bench.md).
 * Copied once, only if something derives a context from it.
 */
class DroppedSpanContext implements Context {
  readonly #span: Span;
  #copy: Context | undefined;

  constructor(span: Span) {
    this.#span = span;
  }

  getValue(key: symbol): unknown {
    return key === DROPPED_SPAN ? this.#span : UNTRACED_CONTEXT.getValue(key);
  }

  setValue(key: symbol, value: unknown): Context {
    return this.#copied().setValue(key, value);
  }

  deleteValue(key: symbol): Context {
    return this.#copied().deleteValue(key);
  }

  #copied(): Context {
    return (this.#copy ??= UNTRACED_CONTEXT.setValue(DROPPED_SPAN, this.#span));
  }
}

/**
 * The context a request's or job's work runs in: its span's, or, if the sampler dropped that span, one with tracing
 * suppressed, for every sampler OTEL_TRACES_SAMPLER names would drop its children too, and each statement's or
 * command's dropped span costs several µs. A dropped span stays under a key of ours, whose trace id still ties its
 * log lines together (loggedSpan).
 */
export const workContext = (span: Span, parent: Context): Context => (span.isRecording() ? trace.setSpan(parent, span) : new DroppedSpanContext(span));

/** The span whose ids a log line written now carries: the active span, or the dropped request's or job's. */
export function loggedSpan(): Span | undefined {
  const active = context.active();
  return trace.getSpan(active) ?? (active.getValue(DROPPED_SPAN) as Span | undefined);
}

/** `work` in `span`, which ends with it, and says so if it throws. */
const endingWith =
  <T>(work: () => Promise<T>) =>
  async (span: Span): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  };

/**
 * Runs `work` in a child span of the active one, if that one records: every sampler OTEL_TRACES_SAMPLER names would
 * drop a child of a dropped span (same parent decision or same trace id).
 */
export function inChildSpan<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (trace.getActiveSpan()?.isRecording() !== true) return work();
  return tracer.startActiveSpan(name, endingWith(work));
}

/**
 * Runs a background job's work (a batch of mails, of token events) as a trace of its own. Its SQL and Redis spans
 * need it: statements outside any span (a poll that found nothing) make no trace (src/tracing.ts).
 */
export function inJobSpan<T>(name: string, work: () => Promise<T>): Promise<T> {
  const span = tracer.startSpan(name, {}, ROOT_CONTEXT);
  // A dropped span needs no ending.
  return context.with(workContext(span, ROOT_CONTEXT), span.isRecording() ? endingWith(work) : work, undefined, span);
}
