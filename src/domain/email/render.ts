import { Worker } from 'node:worker_threads';
import { invalid } from '../../errors.ts';

export type TemplatePart = 'subject' | 'html' | 'text';

/** What the service sends a render worker (render-worker.ts): plain data, cloned across the thread boundary. */
export interface RenderJob {
  part: TemplatePart;
  source: string;
  variables: object;
}

/** What a render worker answers: the rendered text, or why the template is refused. */
export type RenderReply = { text: string } | { refused: string };

/**
 * Renders run in worker threads, so no template holds the service's event loop, which every request of every tenant
 * shares, or its heap. Two, so that one slow render does not queue every other e-mail behind it; not more, because
 * each may hold up to its heap cap and a cluster runs one pool per process.
 */
const POOL_SIZE = 2;

/**
 * A render's wall-clock limit, from when a started worker has it; past it the worker is terminated (and replaced by
 * the next render). liquidjs's own limit (1 s, render-worker.ts) stops most templates with a clearer message and keeps
 * the worker; this one also holds inside filters, where liquidjs does not look (a chain of array filters held a
 * thread for 36 s), and leaves that limit room to answer first on a loaded machine.
 */
const RENDER_TIMEOUT_MS = 2_000;

/**
 * A worker's heap. A render that outgrows it is usually terminated (ERR_WORKER_OUT_OF_MEMORY, a refusal), but one
 * allocation too large for what is left aborts the whole process (nodejs/node#47224): 64 MB did, for
 * `{% for i in (1..9000000) %}`. So the cap sits well above what liquidjs's allocation limit (render-worker.ts) lets a
 * render hold, at most about 10 M array slots (80 MB, more while an array grows), and that limit refuses first, with
 * its message. V8's flags given to node replace these (nodejs/node#43991): `--max-old-space-size` (NODE_OPTIONS too)
 * the first, `npm start`'s `--max-semi-space-size=16` the second (48 MB).
 */
const HEAP_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 16 } as const;

const WORKER = new URL('./render-worker.ts', import.meta.url);

/** Each slot's worker, started when a render first needs it and forgotten when it exits. */
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
 * Runs `job` on `worker`. A worker that overruns the timeout is terminated, and one that runs out of heap dies: both
 * are refusals, settled once the worker has exited, so that no more than POOL_SIZE workers ever live. Any other end of
 * the worker is our failure, not the template's.
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

/** Runs `job` in a free slot's worker, waiting for a slot if every worker is rendering. */
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

/** The one place a refusal becomes an error: 422 `validation_error` on the part's field. */
function refused(field: string, reason: string): never {
  throw invalid(field, `${field} is not a valid template: ${reason}`);
}

/**
 * Renders one part of a template in a worker thread. Syntax and render errors, and a render that overruns its time
 * or heap, are 422 `validation_error` on `field`. A rendered subject is folded onto one line, so no variable can
 * inject a mail header.
 */
export async function renderPart(part: TemplatePart, source: string, variables: object, field: string = part): Promise<string> {
  const reply = await run({ part, source, variables });
  if ('refused' in reply) refused(field, reply.refused);
  return part === 'subject' ? reply.text.replace(/[\r\n]+/g, ' ').trim() : reply.text;
}
