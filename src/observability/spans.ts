import { context, createContextKey, ROOT_CONTEXT, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';

const tracer = trace.getTracer('gatehouse');

const DROPPED_SPAN = createContextKey('gatehouse dropped span');
const UNTRACED_CONTEXT = suppressTracing(ROOT_CONTEXT);

/**
 * Read through rather than copied: `setValue`'s Map copy was a quarter of a dropped request's tracing allocations
 * (docs/bench.md).
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
 * Tracing is suppressed under a dropped span: every sampler would drop its children too, and each statement's dropped
 * span costs several µs. The dropped span stays under a key of ours, whose trace id ties its log lines (loggedSpan).
 */
export const workContext = (span: Span, parent: Context): Context => (span.isRecording() ? trace.setSpan(parent, span) : new DroppedSpanContext(span));

export function loggedSpan(): Span | undefined {
  const active = context.active();
  return trace.getSpan(active) ?? (active.getValue(DROPPED_SPAN) as Span | undefined);
}

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

/** Only if the active one records: every sampler OTEL_TRACES_SAMPLER names would drop a child of a dropped span. */
export function inChildSpan<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (trace.getActiveSpan()?.isRecording() !== true) return work();
  return tracer.startActiveSpan(name, endingWith(work));
}

/** Its SQL and Redis spans need it: statements outside any span make no trace (src/observability/tracing.ts). */
export function inJobSpan<T>(name: string, work: () => Promise<T>): Promise<T> {
  const span = tracer.startSpan(name, {}, ROOT_CONTEXT);
  return context.with(workContext(span, ROOT_CONTEXT), span.isRecording() ? endingWith(work) : work, undefined, span);
}
