import type { Profiler } from 'node:inspector';
import { describe, expect, it } from 'vitest';
import { cpuShares } from '../../bench/cpu-shares.ts';

const REPO = 'file:///srv/gatehouse';

/** A profile of the given frames (each under the one named by `parent`), 1 ms a sample over `samples`. */
function profile(frames: readonly { id: number; parent?: number; functionName: string; url: string }[], samples: readonly number[]): Profiler.Profile {
  const nodes: Profiler.ProfileNode[] = frames.map(({ id, functionName, url }) => ({
    id,
    callFrame: { functionName, url, scriptId: '0', lineNumber: 0, columnNumber: 0 },
    children: frames.filter((frame) => frame.parent === id).map((frame) => frame.id),
  }));
  return { nodes, startTime: 0, endTime: samples.length * 1000, samples: [...samples], timeDeltas: samples.map(() => 1000) };
}

const FRAMES = [
  { id: 1, functionName: '(root)', url: '' },
  { id: 2, parent: 1, functionName: '(idle)', url: '' },
  { id: 3, parent: 1, functionName: '(garbage collector)', url: '' },
  { id: 4, parent: 1, functionName: 'tracedRequests', url: `${REPO}/src/observability/request-span.ts` },
  { id: 5, parent: 4, functionName: 'startSpan', url: `${REPO}/node_modules/@opentelemetry/sdk-trace/dist/Tracer.mjs` },
  // A native under the SDK: Buffer's hex writing of a span id.
  { id: 6, parent: 5, functionName: 'hexSlice', url: '' },
  { id: 7, parent: 4, functionName: 'routeHandler', url: `${REPO}/node_modules/fastify/lib/route.js` },
  // Node's internals under the service's code: a socket write.
  { id: 8, parent: 7, functionName: 'writeGeneric', url: 'node:internal/stream_base_commons' },
  { id: 9, parent: 8, functionName: 'writeUtf8String', url: '' },
  { id: 10, parent: 7, functionName: 'observe', url: `${REPO}/node_modules/prom-client/lib/histogram.js` },
  { id: 11, parent: 7, functionName: 'count', url: `${REPO}/src/observability/metrics.ts` },
  // A package installed under another's node_modules is its own, whatever its parent's.
  { id: 12, parent: 7, functionName: 'getSpan', url: `${REPO}/node_modules/fastify/node_modules/@opentelemetry/api/build/trace.js` },
  { id: 13, parent: 7, functionName: 'spans', url: `${REPO}/node_modules/some-package/src/spans.ts` },
  { id: 14, parent: 1, functionName: '(program)', url: '' },
];

describe('cpuShares', () => {
  it('charges each sample to its frame or its nearest caller of a package or the service, and counts idle time out', () => {
    const samples = [2, 2, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 10, 11, 11, 12, 13, 14];
    expect(cpuShares(profile(FRAMES, samples))).toEqual({ busyMs: 15, tracingMs: 5, metricsMs: 3, gcMs: 2 });
  });

  it('answers nothing for an empty profile', () => {
    expect(cpuShares(profile(FRAMES, []))).toEqual({ busyMs: 0, tracingMs: 0, metricsMs: 0, gcMs: 0 });
  });
});
