import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, createContextKey, propagation, trace, type Span, type TextMapPropagator } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { isTracingSuppressed, W3CTraceContextPropagator } from '@opentelemetry/core';
import { B3InjectEncoding, B3Propagator } from '@opentelemetry/propagator-b3';
import { AlwaysOffSampler, AlwaysOnSampler, InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type Sampler } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tracedServerFactory, withRequestSpan } from '../../src/observability/request-span.ts';
import { inChildSpan, inJobSpan, loggedSpan } from '../../src/observability/spans.ts';

/** The sampler of the SDK below, as OTEL_TRACES_SAMPLER would name it; each test sets its own. */
let sampler: Sampler = new AlwaysOnSampler();
const exported = new InMemorySpanExporter();
const provider = new TracerProvider({
  sampler: { shouldSample: (...args) => sampler.shouldSample(...args), toString: () => `switching to ${sampler.toString()}` },
  spanProcessors: [new SimpleSpanProcessor({ exporter: exported })],
});

// An SDK as src/observability/tracing.ts starts one, for this file only: the suites share a worker. src/observability/spans.ts's tracer keeps the
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
  propagation.disable();
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

describe('a dropped context', () => {
  it("keeps its trace and tracing's suppression in the contexts derived from it", async () => {
    sampler = new AlwaysOffSampler();
    const key = createContextKey('a value of the job');
    const inside = await inJobSpan('audit-retention purge', async () => {
      const derived = context.active().setValue(key, 'set');
      const cleared = derived.deleteValue(key);
      return { logged: loggedSpan(), value: derived.getValue(key), clearedValue: cleared.getValue(key), derived: await context.with(derived, seen), cleared: await context.with(cleared, seen) };
    });
    expect(inside.logged).toBeDefined();
    expect(inside.value).toBe('set');
    expect(inside.clearedValue).toBeUndefined();
    for (const seenThere of [inside.derived, inside.cleared]) expect(seenThere).toEqual({ active: undefined, suppressed: true, logged: inside.logged });
  });
});

/** What a dropped request's handler saw, before its body and after it, the body's events re-entered or not. */
interface DroppedRequestSeen {
  readonly before: Awaited<ReturnType<typeof seen>>;
  readonly inBodyEvents: Span | undefined;
  readonly reentered: { readonly traceId: string | undefined; readonly suppressed: boolean };
}

/** A POST with `headers` to a server of tracedServerFactory, the SDK's propagator `propagator`, its body in two parts. */
async function droppedRequestSeen(propagator: TextMapPropagator, headers: Record<string, string>): Promise<DroppedRequestSeen> {
  sampler = new AlwaysOffSampler();
  propagation.disable();
  propagation.setGlobalPropagator(propagator);
  let before: Promise<Awaited<ReturnType<typeof seen>>> | undefined;
  let inBodyEvents: Span | undefined;
  let reentered: DroppedRequestSeen['reentered'] | undefined;
  const server = tracedServerFactory((request: IncomingMessage, response: ServerResponse) => {
    before = seen();
    request.resume().on('end', () => {
      inBodyEvents = loggedSpan();
      withRequestSpan(request, () => {
        reentered = { traceId: loggedSpan()?.spanContext().traceId, suppressed: isTracingSuppressed(context.active()) };
        response.end();
      });
    });
  }, {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await new Promise<void>((resolve, reject) => {
      const sending = httpRequest(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/users`, {
        method: 'POST',
        headers: { ...headers, 'content-length': 10 },
      });
      sending.on('response', (answer) => answer.resume().on('end', resolve)).on('error', reject);
      sending.write('12345');
      // The rest later: its events then run from the socket's, outside the request's context.
      setTimeout(() => sending.end('67890'), 50);
    });
    return { before: await before!, inBodyEvents, reentered: reentered! };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('tracedServerFactory', () => {
  it("puts a dropped request's handler, and its body's events through withRequestSpan, in its dropped context", async () => {
    const traceId = randomBytes(16).toString('hex');
    const { before, inBodyEvents, reentered } = await droppedRequestSeen(new W3CTraceContextPropagator(), { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-00` });
    expect(before.suppressed).toBe(true);
    expect(before.logged?.spanContext().traceId).toBe(traceId);
    expect(inBodyEvents).toBeUndefined();
    expect(reentered).toEqual({ traceId, suppressed: true });
    expect(await finished()).toEqual([]);
  });

  // B3's propagator names in fields() only the encoding it writes, and reads both.
  it.each([
    ['single', 'multiple'],
    ['multiple', 'single'],
    ['single', 'single'],
    ['multiple', 'multiple'],
  ] as const)("continues the trace of B3 headers, the propagator writing them %s, the caller sending them %s", async (written, sent) => {
    const traceId = randomBytes(16).toString('hex');
    const spanId = randomBytes(8).toString('hex');
    const propagator = new B3Propagator({ injectEncoding: written === 'single' ? B3InjectEncoding.SINGLE_HEADER : B3InjectEncoding.MULTI_HEADER });
    const headers: Record<string, string> = sent === 'single' ? { b3: `${traceId}-${spanId}-0` } : { 'x-b3-traceid': traceId, 'x-b3-spanid': spanId, 'x-b3-sampled': '0' };
    const { before, reentered } = await droppedRequestSeen(propagator, headers);
    expect(before.logged?.spanContext().traceId).toBe(traceId);
    expect(reentered).toEqual({ traceId, suppressed: true });
  });
});
