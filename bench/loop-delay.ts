/**
 * Preloaded (`node --import`) into a service that the bench or the fuzz script starts: the worst event-loop delay since
 * the last question, measured in the service's own processes and answered over their IPC channel. A cluster primary
 * asks each worker (they inherit the preload) and answers the worst of all.
 *
 * Beside it, the part of that delay the service's own work can explain: no longer than the CPU its main thread used
 * meanwhile. A process waiting for a core on a busy machine is delayed without running, so that wait is left out.
 */
import cluster, { type Worker } from 'node:cluster';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

/** What the parent sends; the answer carries the same `loopDelay` id and the worst delay in milliseconds. */
export interface LoopDelayQuestion {
  readonly loopDelay: number;
}
export interface LoopDelay {
  /** The worst event-loop delay, in milliseconds of wall-clock time. */
  readonly maxMs: number;
  /** The same, at most the main thread's CPU time over the same span: the delay the process's own work made. */
  readonly ownMs: number;
}
export interface LoopDelayAnswer extends LoopDelayQuestion, LoopDelay {}

export const isLoopDelayQuestion = (message: unknown): message is LoopDelayQuestion =>
  typeof message === 'object' && message !== null && typeof (message as Partial<LoopDelayQuestion>).loopDelay === 'number';

export const isLoopDelayAnswer = (message: unknown): message is LoopDelayAnswer =>
  isLoopDelayQuestion(message) && typeof (message as Partial<LoopDelayAnswer>).maxMs === 'number' && typeof (message as Partial<LoopDelayAnswer>).ownMs === 'number';

/** Sampled every 10 ms: a delay shows within that of its length, and the sampling costs nothing measurable. */
const histogram = monitorEventLoopDelay({ resolution: 10 });

const threadCpuMs = (): number => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};
let cpuAtReset = threadCpuMs();

function ownWorst(): LoopDelay {
  const maxMs = histogram.max / 1e6;
  const cpuMs = threadCpuMs();
  histogram.reset();
  const ownMs = Math.min(maxMs, cpuMs - cpuAtReset);
  cpuAtReset = cpuMs;
  return { maxMs, ownMs };
}

let questions = 0;

function ask(worker: Worker): Promise<LoopDelay> {
  const loopDelay = (questions += 1);
  return new Promise((resolve) => {
    const listen = (message: unknown) => {
      if (!isLoopDelayAnswer(message) || message.loopDelay !== loopDelay) return;
      worker.off('message', listen);
      resolve({ maxMs: message.maxMs, ownMs: message.ownMs });
    };
    worker.on('message', listen);
    // A worker gone meanwhile has nothing more to say.
    worker.once('exit', () => resolve({ maxMs: 0, ownMs: 0 }));
    worker.send({ loopDelay } satisfies LoopDelayQuestion);
  });
}

async function worst(): Promise<LoopDelay> {
  const workers = cluster.isPrimary ? Object.values(cluster.workers ?? {}).filter((worker) => worker?.isConnected() === true) : [];
  const all = [ownWorst(), ...(await Promise.all(workers.map((worker) => ask(worker!))))];
  return { maxMs: Math.max(...all.map((one) => one.maxMs)), ownMs: Math.max(...all.map((one) => one.ownMs)) };
}

if (isMainThread && process.send !== undefined) {
  histogram.enable();
  process.on('message', (message) => {
    if (isLoopDelayQuestion(message)) void worst().then((delay) => process.send?.({ loopDelay: message.loopDelay, ...delay } satisfies LoopDelayAnswer));
  });
  // Listening must not keep the service alive once it stops.
  process.channel?.unref();
}
