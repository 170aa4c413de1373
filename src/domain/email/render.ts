import { performance } from 'node:perf_hooks';
import { AssertionError, CycleTag, Liquid, LiquidError, Tag, toValue, Value, type Context, type Emitter, type TagToken, type TopLevelToken } from 'liquidjs';
import { invalid } from '../../errors.ts';

/**
 * Liquid rendering of e-mail templates, locked down for templates written by customers:
 * - `templates: {}` serves include/render/layout from an empty in-memory map, so no tag reaches the file system;
 * - `ownPropertyOnly` hides prototypes (`{{ user.constructor }}` renders nothing), unknown filters are parse errors;
 * - parse, render-time and allocation limits stop a template from taking the process down; the time limit holds
 *   inside filters too (limitFilterTime), and what a template writes (its output, and what `capture` collects)
 *   counts towards the allocation limit (chargeOutput), so a loop cannot build hundreds of megabytes in time;
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

/** liquidjs's filter handlers (`FilterHandler`): called with the render's context as `this`. */
type FilterHandler = (this: { context: Context }, value: unknown, ...args: unknown[]) => unknown;

const isIterator = (value: unknown): value is Iterator<unknown, unknown, unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { next?: unknown }).next === 'function';

/** Runs a filter's generator as liquidjs would, checking the render's time limit before each of its steps. */
function* withinRenderLimit(steps: Iterator<unknown, unknown, unknown>, ctx: Context): Generator<unknown, unknown, unknown> {
  let sent: unknown;
  let failed = false;
  for (;;) {
    ctx.renderLimit.check(performance.now());
    const step = failed ? steps.throw?.(sent) : steps.next(sent);
    if (step === undefined) throw sent;
    if (step.done === true) return step.value;
    try {
      sent = yield step.value;
      failed = false;
    } catch (error) {
      sent = error;
      failed = true;
    }
  }
}

/**
 * Every filter of `engine` checks the render's time limit when it starts and, for the filters that walk an array
 * item by item (`where`, `reject`, `map`, `sort`, `group_by`, their `_exp` forms…), at every item. liquidjs checks
 * it only between tags and outputs, so one output chaining such filters over a long array held the process (every
 * request, not only this one: the steps are microtasks) for minutes.
 */
function limitFilterTime(engine: Liquid): Liquid {
  for (const [name, options] of Object.entries(engine.filters)) {
    const handler = (typeof options === 'function' ? options : options.handler) as FilterHandler;
    const timed: FilterHandler = function (value, ...args) {
      this.context.renderLimit.check(performance.now());
      const result = handler.call(this, value, ...args);
      return isIterator(result) ? withinRenderLimit(result, this.context) : result;
    };
    engine.registerFilter(name, typeof options === 'function' ? timed : { ...options, handler: timed });
  }
  return engine;
}

const htmlEngine = limitFilterTime(chargeOutput(new Liquid({ ...LIMITS, outputEscape: 'escape' })));
htmlEngine.registerTag('echo', EscapingEcho);
htmlEngine.registerTag('cycle', EscapingCycle);
const textEngine = limitFilterTime(chargeOutput(new Liquid(LIMITS)));

export type TemplatePart = 'subject' | 'html' | 'text';

function engineFor(part: TemplatePart): Liquid {
  return part === 'html' ? htmlEngine : textEngine;
}

/** A template's error: liquidjs's, or one of its limits met between top-level tags (an AssertionError, unwrapped). */
function refused(field: string, error: unknown): never {
  if (error instanceof LiquidError || error instanceof AssertionError) {
    // The first line names the problem and its position; the rest is a source excerpt.
    throw invalid(field, `${field} is not a valid template: ${error.message.split('\n')[0] ?? ''}`);
  }
  throw error;
}

/**
 * Renders one part of a template. Syntax and render errors are 422 `validation_error` on `field`. A rendered
 * subject is folded onto one line, so no variable can inject a mail header.
 */
export async function renderPart(part: TemplatePart, source: string, variables: object, field: string = part): Promise<string> {
  let rendered: string;
  try {
    const engine = engineFor(part);
    rendered = String(await engine.render(engine.parse(source), variables));
  } catch (error) {
    refused(field, error);
  }
  return part === 'subject' ? rendered.replace(/[\r\n]+/g, ' ').trim() : rendered;
}
