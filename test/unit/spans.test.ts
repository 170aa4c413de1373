import { context, trace, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { isTracingSuppressed } from '@opentelemetry/core';
import { AlwaysOffSampler, AlwaysOnSampler, InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type Sampler } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inChildSpan, inJobSpan, loggedSpan } from '../../src/spans.ts';

/** The sampler of the SDK below, as OTEL_TRACES_SAMPLER would name it; each test sets its own. */
let sampler: Sampler = new AlwaysOnSampler();
const exported = new InMemorySpanExporter();
const provider = new TracerProvider({
  sampler: { shouldSample: (...args) => sampler.shouldSample(...args), toString: () => `switching to ${sampler.toString()}` },
  spanProcessors: [new SimpleSpanProcessor({ exporter: exported })],
});

// An SDK as src/tracing.ts starts one, for this file only: the suites share a worker. src/spans.ts's tracer keeps the
// first provider it meets, so the later files' spans are dropped, never recorded.
beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
});
beforeEach(() => exported.reset());
afterAll(async () => {
  sampler = new AlwaysOffSampler();
  await provider.shutdown();
  trace.disable();
  context.disable();
});

/** The spans ended so far, once exported. */
async function finished() {
  await provider.forceFlush();
  return exported.getFinishedSpans();
}

/** What a job's work sees: its active span, whether tracing is suppressed, and the span its log lines would name. */
const seen = async () => {
  await Promise.resolve();
  return { active: trace.getActiveSpan(), suppressed: isTracingSuppressed(context.active()), logged: loggedSpan() };
};

describe('inJobSpan', () => {
  it('runs a sampled job in a recording span of a trace of its own, ended with the work, a child span under it', async () => {
    sampler = new AlwaysOnSampler();
    let job: Span | undefined;
    const outcome = await inJobSpan('token-events write', async () => {
      const inside = await seen();
      job = inside.active;
      expect(inside.suppressed).toBe(false);
      expect(inside.logged).toBe(inside.active);
      await inChildSpan('argon2 hash', seen);
      return 'written';
    });
    expect(outcome).toBe('written');
    expect(job?.isRecording()).toBe(false);
    const spans = await finished();
    expect(spans.map((span) => span.name)).toEqual(['argon2 hash', 'token-events write']);
    expect(spans[0]!.parentSpanContext?.spanId).toBe(spans[1]!.spanContext().spanId);
    expect(spans[1]!.parentSpanContext).toBeUndefined();
  });

  it('marks the span of a job that throws as in error, and throws on', async () => {
    sampler = new AlwaysOnSampler();
    await expect(inJobSpan('email-outbox deliver', () => Promise.reject(new Error('SMTP down')))).rejects.toThrow('SMTP down');
    expect((await finished()).map((span) => [span.name, span.status.code])).toEqual([['email-outbox deliver', 2]]);
  });

  it('runs a dropped job with tracing suppressed, its log lines still naming its trace', async () => {
    sampler = new AlwaysOffSampler();
    const inside = await inJobSpan('audit-retention purge', seen);
    // Nothing under it makes a span, not even a dropped one: a statement's instrumentation finds no parent.
    expect(inside.active).toBeUndefined();
    expect(inside.suppressed).toBe(true);
    expect(inside.logged?.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(inside.logged?.spanContext().traceId).not.toBe('0'.repeat(32));
    expect(await inJobSpan('audit-retention purge', () => inChildSpan('argon2 hash', seen))).toMatchObject({ active: undefined, suppressed: true });
    expect(await finished()).toEqual([]);
  });
});
