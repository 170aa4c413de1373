import { parentPort } from 'node:worker_threads';
import { AssertionError, CycleTag, Liquid, LiquidError, Tag, toValue, Value, type Context, type Emitter, type TagToken, type TopLevelToken } from 'liquidjs';
import type { RenderJob, RenderReply } from './render.ts';

/**
 * The worker thread that renders customer-written Liquid templates (render.ts starts it, bounds its time and heap, and
 * replaces it when it overruns). Its engines are locked down for hostile templates:
 * - `templates: {}` serves include/render/layout from an empty in-memory map, so no tag reaches the file system;
 * - `ownPropertyOnly` hides prototypes (`{{ user.constructor }}` renders nothing), unknown filters are parse errors;
 * - liquidjs's parse, render-time and allocation limits refuse a runaway template with a message that names the limit,
 *   and leave this worker usable; what a template writes (its output, and what `capture` collects) counts towards the
 *   allocation limit (chargeOutput). liquidjs checks its time limit only between tags and outputs, not inside filters:
 *   render.ts's wall-clock timeout holds there, and its heap cap is a last resort (see HEAP_LIMITS);
 * - HTML parts escape every output by default, `{{ }}`, `{% echo %}` and `{% cycle %}` alike (`| raw` is the
 *   template author's explicit opt-out); subject and text parts are plain text and are not escaped.
 */
const LIMITS = {
  templates: {},
  dynamicPartials: false,
  relativeReference: false,
  strictFilters: true,
  ownPropertyOnly: true,
  parseLimit: 200_000,
  renderLimit: 1_000,
  memoryLimit: 10_000_000,
} as const;

/** As liquidjs turns an output into text (its `stringify`). */
function stringify(value: unknown): string {
  const plain: unknown = toValue(value);
  if (typeof plain === 'string') return plain;
  if (plain === null || plain === undefined) return '';
  if (Array.isArray(plain)) return plain.map((item) => stringify(item)).join('');
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- an object prints as liquidjs prints it
  return String(plain);
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };
/** liquidjs's `escape` filter, which `outputEscape: 'escape'` applies to `{{ }}`. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);

/**
 * `{% echo value | filters %}` (also inside `{% liquid %}`) escaped like `{{ }}` unless its last filter is `raw`:
 * liquidjs's own echo ignores `outputEscape`, which would let a user's name carry markup into an HTML e-mail.
 * The other tags that write a value are `cycle` (below), and `increment`/`decrement`, which write numbers.
 */
class EscapingEcho extends Tag {
  private readonly value: Value | undefined;
  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid) {
    super(token, remainTokens, liquid);
    this.tokenizer.skipBlank();
    this.value = this.tokenizer.end() ? undefined : new Value(this.tokenizer.readFilteredValue(), liquid);
  }
  *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
    if (this.value === undefined) return;
    const text = stringify(yield this.value.value(ctx, false));
    emitter.write(this.value.filters.at(-1)?.raw === true ? text : escapeHtml(text));
  }
}

/** `{% cycle a, b %}` escaped like `{{ }}`: liquidjs writes the candidate it picks as it is. */
class EscapingCycle extends CycleTag {
  override *render(ctx: Context, emitter: Emitter): Generator<unknown, unknown, unknown> {
    return escapeHtml(stringify(yield super.render(ctx, emitter)));
  }
}

/** Marks an emitter that already charges what it is written. */
const CHARGED = Symbol('charged emitter');

/**
 * Every emitter of `engine`'s renders charges what it is written to the render's allocation limit: the output and
 * every capture's text. liquidjs charges only what filters and ranges allocate, so literal text repeated by nested
 * loops could otherwise grow to the largest string V8 allows (512 MiB) within the time limit.
 */
function chargeOutput(engine: Liquid): Liquid {
  const renderer = engine.renderer;
  const renderTemplates = renderer.renderTemplates.bind(renderer);
  renderer.renderTemplates = (templates, ctx, emitter) => {
    if (emitter !== undefined && CHARGED in emitter) return renderTemplates(templates, ctx, emitter);
    const inner = emitter;
    const charged = {
      [CHARGED]: true,
      buffer: '',
      write(html: unknown) {
        const text = stringify(html);
        ctx.memoryLimit.use(text.length);
        if (inner === undefined) this.buffer += text;
        else inner.write(text);
      },
    };
    return renderTemplates(templates, ctx, charged);
  };
  return engine;
}

const htmlEngine = chargeOutput(new Liquid({ ...LIMITS, outputEscape: 'escape' }));
htmlEngine.registerTag('echo', EscapingEcho);
htmlEngine.registerTag('cycle', EscapingCycle);
const textEngine = chargeOutput(new Liquid(LIMITS));

/**
 * A syntax or render error is the template's, and a refusal, as is a liquidjs limit it throws unwrapped (an
 * AssertionError: the parse limit, the render limit met between top-level tags); anything else is ours, and fails the
 * worker.
 */
async function render({ part, source, variables }: RenderJob): Promise<RenderReply> {
  const engine = part === 'html' ? htmlEngine : textEngine;
  try {
    return { text: String(await engine.render(engine.parse(source), variables)) };
  } catch (error) {
    // The first line names the problem and its position; the rest is a source excerpt.
    if (error instanceof LiquidError || error instanceof AssertionError) return { refused: error.message.split('\n')[0] ?? '' };
    throw error;
  }
}

const port = parentPort;
if (port === null) throw new Error('render-worker.ts runs in a worker thread (render.ts starts it)');
port.on('message', (job: RenderJob) => {
  void render(job).then((reply) => port.postMessage(reply));
});
// Ready: render.ts starts a render's clock only now, so the time to load liquidjs is not the template's.
port.postMessage('ready');
