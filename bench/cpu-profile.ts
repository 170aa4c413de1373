/**
 * Preloaded (`node --import`) into a service that the bench starts, beside bench/loop-delay.ts: on a question over the
 * IPC channel, V8's sampling profiler runs on the process's main thread until the next question, whose answer says
 * where that thread's time went (cpuShares). A difference between two processes carries their persistent differences
 * (docs/bench.md, "Observability"); a share of one process's own time does not.
 */
import cluster from 'node:cluster';
import { Session } from 'node:inspector/promises';
import { isMainThread } from 'node:worker_threads';
import { cpuShares, type CpuShares } from './cpu-shares.ts';

/** What the parent sends: `start`, then `stop`, whose answer carries the same `cpuProfile` id and the shares. */
export interface CpuProfileQuestion {
  readonly cpuProfile: number;
  readonly action: 'start' | 'stop';
}
export interface CpuProfileAnswer {
  readonly cpuProfile: number;
  readonly shares?: CpuShares;
  readonly error?: string;
}

const isQuestion = (message: unknown): message is CpuProfileQuestion =>
  typeof message === 'object' && message !== null && typeof (message as Partial<CpuProfileQuestion>).cpuProfile === 'number';

export const isCpuProfileAnswer = (message: unknown): message is CpuProfileAnswer =>
  isQuestion(message) && !('action' in message);

/** Every 100 µs: a request of 0.1 ms is seen about once, and over a few seconds each kind of time by thousands. */
const SAMPLING_INTERVAL_US = 100;

let session: Session | undefined;

async function answer(question: CpuProfileQuestion): Promise<CpuProfileAnswer> {
  // A cluster primary serves no request: its workers' time would be missed.
  if (cluster.isPrimary && Object.keys(cluster.workers ?? {}).length > 0) return { cpuProfile: question.cpuProfile, error: 'profiles one process, not a cluster' };
  if (question.action === 'start') {
    if (session !== undefined) return { cpuProfile: question.cpuProfile, error: 'a profile is already running' };
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
    await session.post('Profiler.start');
    return { cpuProfile: question.cpuProfile };
  }
  if (session === undefined) return { cpuProfile: question.cpuProfile, error: 'no profile started' };
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  session = undefined;
  return { cpuProfile: question.cpuProfile, shares: cpuShares(profile) };
}

if (isMainThread && process.send !== undefined) {
  process.on('message', (message) => {
    if (isQuestion(message) && 'action' in message) void answer(message).then((reply) => process.send?.(reply));
  });
  // Listening must not keep the service alive once it stops.
  process.channel?.unref();
}
