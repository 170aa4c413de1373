import { Worker } from 'node:worker_threads';
import { invalid } from '../../errors.ts';

export type TemplatePart = 'subject' | 'html' | 'text';

/** Plain data, cloned across the thread boundary. */
export interface RenderJob {
  part: TemplatePart;
  source: string;
  variables: object;
}

export type RenderReply = { text: string } | { refused: string };

/**
 * Worker threads keep templates off the shared event loop and heap. Two, so one slow render does not queue every other
 * e-mail; not more, since each may hold up to its heap cap and a cluster runs one pool per process.
 */
const POOL_SIZE = 2;

/**
 * Past it the worker is terminated. liquidjs's own 1 s limit stops most templates with a clearer message; this one
 * also holds inside filters, where liquidjs does not look, and leaves that limit room to answer first.
 */
const RENDER_TIMEOUT_MS = 2_000;

/**
 * An allocation too large for what is left aborts the whole process (nodejs/node#47224), so the cap sits well above
 * what liquidjs's allocation limit lets a render hold (about 80 MB), and that limit refuses first. V8 flags given to
 * node replace these (nodejs/node#43991): `--max-old-space-size`, and `npm start`'s `--max-semi-space-size=16`.
 */
const HEAP_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 16 } as const;

const WORKER = new URL('./render-worker.ts', import.meta.url);

/** Started when a render first needs it, forgotten when it exits. */
const workers: Array<Promise<Worker> | undefined> = Array.from({ length: POOL_SIZE }, () => undefined);
const freeSlots = workers.map((_, slot) => slot);
const waiting: Array<(slot: number) => void> = [];

function start(slot: number): Promise<Worker> {
  const worker = new Worker(WORKER, { resourceLimits: HEAP_LIMITS });
  const started = new Promise<Worker>((resolve, reject) => {
    worker.once('error', reject);
    // Settles a worker that ends before it is ready without an error (a no-op once it has started).
    worker.once('exit', (code) => reject(new Error(`the render worker exited (code ${code}) before it was ready`)));
    worker.once('message', () => {
      worker.off('error', reject);
      resolve(worker);
    });
  });
  worker.once('exit', () => {
    if (workers[slot] === started) workers[slot] = undefined;
  });
  return started;
}

/**
 * A timeout or an out-of-heap death is a refusal, settled once the worker has exited so no more than POOL_SIZE ever
 * live. Any other end of the worker is our failure, not the template's.
 */
function exchange(worker: Worker, job: RenderJob): Promise<RenderReply> {
  return new Promise((resolve, reject) => {
    worker.postMessage(job); // first: variables that cannot be cloned throw here, before anything waits on the worker
    let ending: RenderReply | Error = new Error('the render worker exited');
    const onMessage = (reply: RenderReply) => {
      stop();
      resolve(reply);
    };
    const onError = (error: Error & { code?: string }) => {
      ending = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { refused: 'render memory limit exceeded' } : error;
    };
    const onExit = () => {
      stop();
      if (ending instanceof Error) reject(ending);
      else resolve(ending);
    };
    const timer = setTimeout(() => {
      worker.off('message', onMessage);
      ending = { refused: `render limit exceeded (the render ran over ${RENDER_TIMEOUT_MS / 1_000} s)` };
      void worker.terminate();
    }, RENDER_TIMEOUT_MS);
    const stop = () => {
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
    };
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
}

async function run(job: RenderJob): Promise<RenderReply> {
  const slot = freeSlots.pop() ?? (await new Promise<number>((resolve) => waiting.push(resolve)));
  try {
    const worker = await (workers[slot] ??= start(slot));
    // An idle worker does not keep the process alive (a test's, or the service's once it has closed).
    worker.ref();
    try {
      return await exchange(worker, job);
    } finally {
      worker.unref();
    }
  } finally {
    const next = waiting.shift();
    if (next === undefined) freeSlots.push(slot);
    else next(slot);
  }
}

function refused(field: string, reason: string): never {
  throw invalid(field, `${field} is not a valid template: ${reason}`);
}

/**
 * Syntax and render errors, and overruns of time or heap, are 422 `validation_error` on `field`. A rendered subject is
 * folded onto one line, so no variable can inject a mail header.
 */
export async function renderPart(part: TemplatePart, source: string, variables: object, field: string = part): Promise<string> {
  const reply = await run({ part, source, variables });
  if ('refused' in reply) refused(field, reply.refused);
  return part === 'subject' ? reply.text.replace(/[\r\n]+/g, ' ').trim() : reply.text;
}
