/**
 * Where a process's main thread spent the time of a V8 CPU profile (bench/cpu-profile.ts takes it): busy time, and the
 * parts of it in tracing's code, in metrics' code and in GC.
 */
import type { Profiler } from 'node:inspector';

/** The main thread's busy time in the profile and the parts of it spent in tracing, in metrics and in GC. */
export interface CpuShares {
  readonly busyMs: number;
  readonly tracingMs: number;
  readonly metricsMs: number;
  readonly gcMs: number;
}

type Kind = 'idle' | 'gc' | 'tracing' | 'metrics' | 'other';

/** Tracing's code: OpenTelemetry, the module hooks it patches through, and the service's span modules; metrics' likewise. */
const PACKAGES: Readonly<Record<string, Kind>> = { '@opentelemetry': 'tracing', 'import-in-the-middle': 'tracing', 'require-in-the-middle': 'tracing', 'prom-client': 'metrics' };
const SOURCES: Readonly<Record<string, Kind>> = { 'src/observability/request-span.ts': 'tracing', 'src/observability/spans.ts': 'tracing', 'src/observability/tracing.ts': 'tracing', 'src/observability/trace-ids.ts': 'tracing', 'src/observability/metrics.ts': 'metrics' };

/** The kind of a frame of a package or of the service; undefined for Node's internals and natives, which have no file. */
function kindOfCode(url: string): Kind | undefined {
  if (url === '' || url.startsWith('node:')) return undefined;
  // The innermost package: one installed under another's node_modules is its own.
  const inPackage = [...url.matchAll(/\/node_modules\/(@[^/]+|[^/]+)(?=\/)/g)].at(-1)?.[1];
  if (inPackage !== undefined) return PACKAGES[inPackage] ?? 'other';
  return Object.entries(SOURCES).find(([source]) => url.endsWith(`/${source}`))?.[1] ?? 'other';
}

/**
 * A sample's time is charged to its frame if that is code of a package or of the service; else (Node's internals, a
 * native such as a socket write) to its nearest caller that is: a span id written by Buffer's natives is the SDK's.
 */
export function cpuShares(profile: Profiler.Profile): CpuShares {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const kindOf = (leaf: Profiler.ProfileNode): Kind => {
    if (leaf.callFrame.functionName === '(idle)') return 'idle';
    if (leaf.callFrame.functionName === '(garbage collector)') return 'gc';
    for (let frame: Profiler.ProfileNode | undefined = leaf; frame !== undefined; frame = nodes.get(parents.get(frame.id) ?? -1)) {
      const kind = kindOfCode(frame.callFrame.url);
      if (kind !== undefined) return kind;
    }
    return 'other';
  };
  const kinds = new Map(profile.nodes.map((node) => [node.id, kindOf(node)]));
  const samples = profile.samples ?? [];
  const sampleMs = samples.length === 0 ? 0 : (profile.endTime - profile.startTime) / 1000 / samples.length;
  const ms: Record<Kind, number> = { idle: 0, gc: 0, tracing: 0, metrics: 0, other: 0 };
  for (const id of samples) ms[kinds.get(id) ?? 'other'] += sampleMs;
  return { busyMs: ms.gc + ms.tracing + ms.metrics + ms.other, tracingMs: ms.tracing, metricsMs: ms.metrics, gcMs: ms.gc };
}
