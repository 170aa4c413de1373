import { trace } from '@opentelemetry/api';

const tracer = trace.getTracer('gatehouse');

/**
 * Runs `work` in a child span of the active one, if that one records: every sampler OTEL_TRACES_SAMPLER names would
 * drop a child of a dropped span (same parent decision or same trace id).
 */
export function inChildSpan<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (trace.getActiveSpan()?.isRecording() !== true) return work();
  return tracer.startActiveSpan(name, async (span) => {
    try {
      return await work();
    } finally {
      span.end();
    }
  });
}
