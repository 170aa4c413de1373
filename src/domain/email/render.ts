import { Worker } from 'node:worker_threads';
import { invalid } from '../../errors.ts';
import { rateLimitRefusal } from '../../observability/metrics.ts';
import { END_USER_VARIABLES } from './template-defaults.ts';

export type TemplatePart = 'subject' | 'html' | 'text';
export type TemplateParts = Readonly<Record<TemplatePart, string>>;
export const TEMPLATE_PARTS = ['subject', 'html', 'text'] as const;

/** Plain data, cloned across the thread boundary. */
export interface RenderJob {
  part: TemplatePart;
  source: string;
  variables: object;
  /** When given, the source may name no variable but these paths, those below them and its own (a draft's check). */
  offered?: readonly string[];
  /** Paths of `variables` an end user writes: an HTML part never prints them unescaped (a draft's `| raw` of one is refused). */
  endUser: readonly string[];
}

/** A template being written (a PUT, a preview): only the parts the author sent (`written`) are checked against `offered`. */
export interface Draft {
  parts: TemplateParts;
  written: readonly TemplatePart[];
  offered: readonly string[];
}

export type RenderReply = { text: string } | { refused: string };

/** Workers keep templates off the shared event loop and heap. Two, so one slow render does not queue every mail; not
 *  more, since each may hold up to its heap cap and a cluster runs one pool per process. */
const POOL_SIZE = 2;

/** Then the worker is terminated; liquidjs's own 1 s limit answers first (clearer), this one also holds inside filters. */
const RENDER_TIMEOUT_MS = 2_000;

/** An allocation too large for what is left aborts the process (nodejs/node#47224), so the cap sits well above what
 *  liquidjs's allocation limit lets a render hold (about 80 MB). V8 flags given to node replace these (nodejs/node#43991):
 *  `--max-old-space-size`, and `npm start`'s `--max-semi-space-size=16`. */
const HEAP_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 16 } as const;

const WORKER = new URL('./render-worker.ts', import.meta.url);

const workers: Array<Promise<Worker> | undefined> = Array.from({ length: POOL_SIZE }, () => undefined);
const freeSlots = workers.map((_, slot) => slot);

/** A mail takes a free worker before any draft, so drafts delay a mail by at most the templates under way. */
type Lane = 'mail' | 'draft';
const waiting: Record<Lane, Array<(slot: number) => void>> = { mail: [], draft: [] };

/** Scopes rendering a draft (`application:tenant`), and how many of each application's tenants are. */
const drafting = new Set<string>();
const tenantDrafts = new Map<string, number>();
const DRAFTS_OF_TENANTS = 2;

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

/** A timeout or out-of-heap death is a refusal, settled once the worker exited (so never more than POOL_SIZE live); any
 *  other end of the worker is our failure, not the template's. */
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

async function acquire(lane: Lane): Promise<number> {
  return freeSlots.pop() ?? new Promise<number>((resolve) => waiting[lane].push(resolve));
}

function release(slot: number): void {
  const next = waiting.mail.shift() ?? waiting.draft.shift();
  if (next === undefined) freeSlots.push(slot);
  else next(slot);
}

async function renderOn(slot: number, job: RenderJob): Promise<RenderReply> {
  const worker = await (workers[slot] ??= start(slot));
  // An idle worker does not keep the process alive (a test's, or the service's once it has closed).
  worker.ref();
  try {
    return await exchange(worker, job);
  } finally {
    worker.unref();
  }
}

function refused(field: string, reason: string): never {
  throw invalid(field, `${field} is not a valid template: ${reason}`);
}

/** Unicode's mandatory breaks (UAX #14 BK, CR, LF, NL), which a mail client may show as a new line. */
const LINE_BREAKS = /[\n\v\f\r\u0085\u2028\u2029]+/g;

/** The parts in turn on one worker, so a template waits for a worker once, not between its parts. */
async function renderIn(lane: Lane, { parts, written, offered }: Draft, variables: object): Promise<TemplateParts> {
  const slot = await acquire(lane);
  try {
    const rendered: Record<TemplatePart, string> = { subject: '', html: '', text: '' };
    for (const part of TEMPLATE_PARTS) {
      const job: RenderJob = { part, source: parts[part], variables, endUser: END_USER_VARIABLES, ...(written.includes(part) && { offered }) };
      const reply = await renderOn(slot, job);
      if ('refused' in reply) refused(part, reply.refused);
      rendered[part] = part === 'subject' ? reply.text.replace(LINE_BREAKS, ' ').trim() : reply.text;
    }
    return rendered;
  } finally {
    release(slot);
  }
}

/** For a mail. Syntax and render errors and overruns of time, heap or output are 422 `validation_error` on the part. The
 *  subject is folded onto one line, so no variable can inject a mail header. */
export function renderTemplate(parts: TemplateParts, variables: object): Promise<TemplateParts> {
  return renderIn('mail', { parts, written: [], offered: [] }, variables);
}

/** For a preview or a PUT's check (a written part naming a variable its template lacks is 422). One draft per scope
 *  and DRAFTS_OF_TENANTS of an application's tenants at once, else 429: a tenant's slow previews refuse no one else's. */
export async function renderDrafts(at: { applicationId: string; tenantId: string | null }, drafts: readonly Draft[], variables: object): Promise<TemplateParts[]> {
  const scope = `${at.applicationId}:${at.tenantId ?? ''}`;
  const ofTenants = tenantDrafts.get(at.applicationId) ?? 0;
  if (drafting.has(scope)) {
    const whose = at.tenantId === null ? 'this application' : 'this tenant';
    throw rateLimitRefusal('template_rendering', `Another template of ${whose} is rendering (a preview, or a template being saved): try again once it has answered`);
  }
  if (at.tenantId !== null && ofTenants >= DRAFTS_OF_TENANTS) {
    throw rateLimitRefusal('template_rendering', "Two templates of this application's tenants are rendering (previews or saves): try again once one has answered");
  }
  drafting.add(scope);
  if (at.tenantId !== null) tenantDrafts.set(at.applicationId, ofTenants + 1);
  try {
    const rendered: TemplateParts[] = [];
    for (const draft of drafts) rendered.push(await renderIn('draft', draft, variables));
    return rendered;
  } finally {
    drafting.delete(scope);
    if (at.tenantId !== null) {
      const left = tenantDrafts.get(at.applicationId)! - 1;
      if (left === 0) tenantDrafts.delete(at.applicationId);
      else tenantDrafts.set(at.applicationId, left);
    }
  }
}
