import { ROOT_CONTEXT, SpanStatusCode, trace, type Span } from '@opentelemetry/api';

const tracer = trace.getTracer('gatehouse');

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
  return tracer.startActiveSpan(name, {}, ROOT_CONTEXT, endingWith(work));
}
