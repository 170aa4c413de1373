import { trace } from '@opentelemetry/api';

const tracer = trace.getTracer('gatehouse');

/**
 * Runs `work` in a span of its own under the active one, if that one is recorded. Under a request the sampler left out
 * a child would record nothing either (each sampler OTEL_TRACES_SAMPLER names decides as the parent did, or by the
 * trace id the child shares); with tracing off no span is active.
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
