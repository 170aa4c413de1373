/**
 * Preloaded (`node --import`) into a service that the bench or the fuzz script starts: the worst event-loop delay since
 * the last question, measured in the service's own processes and answered over their IPC channel. A cluster primary
 * asks each worker (they inherit the preload) and answers the worst of all.
 */
import cluster, { type Worker } from 'node:cluster';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

/** What the parent sends; the answer carries the same `loopDelay` id and the worst delay in milliseconds. */
export interface LoopDelayQuestion {
  readonly loopDelay: number;
}
export interface LoopDelayAnswer extends LoopDelayQuestion {
  readonly maxMs: number;
}

export const isLoopDelayQuestion = (message: unknown): message is LoopDelayQuestion =>
  typeof message === 'object' && message !== null && typeof (message as Partial<LoopDelayQuestion>).loopDelay === 'number';

export const isLoopDelayAnswer = (message: unknown): message is LoopDelayAnswer =>
  isLoopDelayQuestion(message) && typeof (message as Partial<LoopDelayAnswer>).maxMs === 'number';

/** Sampled every 10 ms: a delay shows within that of its length, and the sampling costs nothing measurable. */
const histogram = monitorEventLoopDelay({ resolution: 10 });

function ownWorst(): number {
  const ms = histogram.max / 1e6;
  histogram.reset();
  return ms;
}

let questions = 0;

function ask(worker: Worker): Promise<number> {
  const loopDelay = (questions += 1);
  return new Promise((resolve) => {
    const listen = (message: unknown) => {
      if (!isLoopDelayAnswer(message) || message.loopDelay !== loopDelay) return;
      worker.off('message', listen);
      resolve(message.maxMs);
    };
    worker.on('message', listen);
    // A worker gone meanwhile has nothing more to say.
    worker.once('exit', () => resolve(0));
    worker.send({ loopDelay } satisfies LoopDelayQuestion);
  });
}

async function worst(): Promise<number> {
  const workers = cluster.isPrimary ? Object.values(cluster.workers ?? {}).filter((worker) => worker?.isConnected() === true) : [];
  const theirs = await Promise.all(workers.map((worker) => ask(worker!)));
  return Math.max(ownWorst(), ...theirs);
}

if (isMainThread && process.send !== undefined) {
  histogram.enable();
  process.on('message', (message) => {
    if (isLoopDelayQuestion(message)) void worst().then((maxMs) => process.send?.({ loopDelay: message.loopDelay, maxMs } satisfies LoopDelayAnswer));
  });
  // Listening must not keep the service alive once it stops.
  process.channel?.unref();
}
