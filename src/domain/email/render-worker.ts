import { parentPort } from 'node:worker_threads';
import {
  AssertionError,
  CaptureTag,
  CycleTag,
  Drop,
  type Arguments,
  Liquid,
  LiquidError,
  Output,
  Tag,
  toValue,
  toValueSync,
  Value,
  type Context,
  type Emitter,
  type FilterImplOptions,
  type TagToken,
  type Template,
  type TopLevelToken,
} from 'liquidjs';
import type { RenderJob, RenderReply, TemplatePart } from './render.ts';

/** Customer-written Liquid, locked down for hostile templates: `templates`, an empty map, reaches no file system and, having
 *  no prototype, no partial either (liquidjs indexes it: a `{}` would serve `{% include constructor %}` Object's); `ownPropertyOnly`
 *  hides prototypes (`{{ user.constructor }}`); unknown filters are parse errors; liquidjs's limits refuse a runaway
 *  template, output counting towards the allocation limit (chargeOutput), its time limit (between tags only) backed by
 *  render.ts's timeout; HTML parts escape every output, `{% echo %}` and `{% cycle %}` too (`| raw` is the opt-out, but
 *  for what an end user writes: takeInEndUserText). */
const LIMITS = {
  templates: Object.create(null) as Record<string, string>,
  dynamicPartials: false,
  relativeReference: false,
  strictFilters: true,
  ownPropertyOnly: true,
  parseLimit: 200_000,
  renderLimit: 1_000,
  memoryLimit: 10_000_000,
} as const;

/** As liquidjs's `stringify` does. */
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

/** liquidjs's own echo ignores `outputEscape`, which would let a user's name carry markup into an HTML e-mail.
 *  `arguments` shows the value to liquidjs's analysis (unknownVariable). */
class EscapingEcho extends Tag {
  readonly value: Value | undefined;
  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid) {
    super(token, remainTokens, liquid);
    this.tokenizer.skipBlank();
    this.value = this.tokenizer.end() ? undefined : new Value(this.tokenizer.readFilteredValue(), liquid);
  }
  *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
    if (this.value === undefined) return;
    const value: unknown = yield this.value.value(ctx, false);
    emitter.write(this.value.filters.at(-1)?.raw === true ? stringify(value) : escapeOutput(value));
  }
  *arguments(): Arguments {
    if (this.value !== undefined) yield this.value;
  }
}

const UNESCAPES: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(ESCAPES).map(([character, entity]) => [entity, character]));
const unescapeHtml = (html: string) => html.replace(/&(?:amp|lt|gt|#34|#39);/g, (entity) => UNESCAPES[entity] ?? entity);

/** Text a template made: conditions, `size` and filters read `text`. */
abstract class CapturedValue extends Drop {
  readonly text: string;
  constructor(text: string) {
    super();
    this.text = text;
  }
  override valueOf(): string {
    return this.text;
  }
  /** The `size` filter reads `length` itself, and `.size` asks the drop. */
  get length(): number {
    return this.text.length;
  }
  override liquidMethodMissing(key: string): unknown {
    return key === 'size' ? this.text.length : undefined;
  }
}

/** A capture in an HTML part: its HTML, outputs escaped once, printed as it is (`| raw` too); its text unescaped. */
class CapturedHtml extends CapturedValue {
  readonly html: string;
  constructor(html: string) {
    super(unescapeHtml(html));
    this.html = html;
  }
}

/** What a filter made of a capture: text holding its outputs unescaped, so escaped wherever it is printed, `| raw` included.
 *  `endUser`: the end user's variables it holds (takeInEndUserText), whose `| raw` a draft may not ask for. */
class CapturedText extends CapturedValue {
  readonly endUser: readonly string[];
  constructor(text: string, endUser: readonly string[] = []) {
    super(text);
    this.endUser = endUser;
  }
}

/** A draft's refusal of `| raw` on an end user's value, thrown from the filter: liquidjs wraps it with its position. */
class RawOfEndUser extends Error {}

/** Whether `| raw` of an end user's value is refused (a draft) or escaped (a stored template, as a mail renders it).
 *  Module state is the job's: a worker renders one job at a time (render.ts's slots). */
let refusingRawOfEndUser = false;

/** An end user's text (their name, an address they typed): taken in as a capture's text is, so escaped wherever an HTML
 *  part prints it, through filters, assignments and `| raw`: whoever writes it puts no markup in a mail to anyone. */
function takeInEndUserText(variables: object, paths: readonly string[]): void {
  for (const path of paths) {
    const names = path.split('.');
    let holder: unknown = variables;
    for (const name of names.slice(0, -1)) holder = typeof holder === 'object' && holder !== null && Object.hasOwn(holder, name) ? (holder as Record<string, unknown>)[name] : undefined;
    const last = names.at(-1)!;
    if (typeof holder !== 'object' || holder === null || !Object.hasOwn(holder, last)) continue;
    const value = (holder as Record<string, unknown>)[last];
    if (typeof value === 'string') (holder as Record<string, unknown>)[last] = new CapturedText(value, [path]);
  }
}

class EscapedCapture extends CaptureTag {
  override *render(ctx: Context): Generator<unknown, void, unknown> {
    const html = stringify(yield this.liquid.renderer.renderTemplates(this.templates, ctx));
    ctx.bottom()[this.variable] = new CapturedHtml(html);
  }
}

/** `outputEscape` and `{% echo %}`: what is not HTML already is escaped. */
const escapeOutput = (value: unknown) => (value instanceof CapturedHtml ? value.html : escapeHtml(stringify(value)));

const holdsCapture = (value: unknown): boolean => value instanceof CapturedValue || (Array.isArray(value) && value.some(holdsCapture));
const textOf = (value: unknown): unknown => (value instanceof CapturedValue ? value.text : Array.isArray(value) ? value.map(textOf) : value);
const endUserOf = (value: unknown): string[] => (value instanceof CapturedText ? [...value.endUser] : Array.isArray(value) ? value.flatMap(endUserOf) : []);
const capturedText = (value: unknown, endUser: readonly string[]): unknown =>
  typeof value === 'string' ? new CapturedText(value, endUser) : Array.isArray(value) ? value.map((item) => capturedText(item, endUser)) : value;

/** Filters read a capture's text and make text, escaped once when printed; `raw` prints a capture's own HTML only. */
function readingCapturesAsText(engine: Liquid): void {
  for (const [name, filter] of Object.entries(engine.filters)) {
    const { handler, raw } = typeof filter === 'function' ? { handler: filter, raw: false } : filter;
    type Self = ThisParameterType<typeof handler>;
    const read = function* (this: Self, value: unknown, ...args: unknown[]): Generator<unknown, unknown, unknown> {
      if (!holdsCapture(value) && !args.some(holdsCapture)) return yield handler.call(this, value, ...args);
      const endUser = [...new Set([value, ...args].flatMap(endUserOf))];
      return capturedText(yield handler.call(this, textOf(value), ...args.map(textOf)), endUser);
    };
    const rawHtml = function (this: Self, value: unknown): unknown {
      if (value instanceof CapturedHtml) return value.html;
      const [endUser] = endUserOf(value);
      if (endUser !== undefined && refusingRawOfEndUser) {
        throw new RawOfEndUser(rawOfEndUserRefusal(endUser));
      }
      return holdsCapture(value) ? escapeHtml(stringify(value)) : handler.call(this, value);
    };
    engine.registerFilter(name, { raw, handler: name === 'raw' ? rawHtml : read } satisfies FilterImplOptions);
  }
}

/** liquidjs writes the candidate it picks as it is. */
class EscapingCycle extends CycleTag {
  override *render(ctx: Context, emitter: Emitter): Generator<unknown, unknown, unknown> {
    return escapeHtml(stringify(yield super.render(ctx, emitter)));
  }
}

/** A subject RFC 5322's longest line, a body twice its stored source limit: room for loops, not megabytes per mail. */
const OUTPUT_LIMITS: Readonly<Record<TemplatePart, number>> = { subject: 998, html: 200_000, text: 100_000 };

const CHARGED = Symbol('charged emitter');

/** liquidjs charges only what filters and ranges allocate: literal text repeated by nested loops could otherwise grow to
 *  V8's largest string (512 MiB) within the time limit. */
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

const htmlEngine = chargeOutput(new Liquid({ ...LIMITS, outputEscape: escapeOutput }));
htmlEngine.registerTag('echo', EscapingEcho);
htmlEngine.registerTag('capture', EscapedCapture);
htmlEngine.registerTag('cycle', EscapingCycle);
readingCapturesAsText(htmlEngine);
const textEngine = chargeOutput(new Liquid(LIMITS));

/** Offered, on the way to an offered path (`user`), or below one (`branding.colors`: its properties are not listed). */
function isOffered(segments: ReadonlyArray<string | number | object>, offered: readonly string[]): boolean {
  const end = segments.findIndex((segment) => typeof segment === 'object');
  const path = (end === -1 ? segments : segments.slice(0, end)).map(String);
  return offered.some((name) => {
    const names = name.split('.');
    return path.every((segment, index) => index >= names.length || names[index] === segment);
  });
}

/** The first variable, in reading order, neither offered nor bound by the template (liquidjs's analysis knows its own). */
function unknownVariable(engine: Liquid, templates: Template[], offered: readonly string[]): string | undefined {
  const { globals } = engine.analyzeSync(templates, { partials: false });
  const unknown = Object.values(globals)
    .flat()
    .filter((variable) => !isOffered(variable.segments, offered))
    .sort((a, b) => a.location.row - b.location.row || a.location.col - b.location.col)[0];
  if (unknown === undefined) return undefined;
  const { row, col } = unknown.location;
  return `unknown variable ${String(unknown)}, line:${row}, col:${col} (the variables of this template: ${offered.join(', ')})`;
}

/** Every node of the templates, those inside blocks included (partials are none: LIMITS). */
function* nodesOf(templates: readonly Template[]): Generator<Template> {
  for (const template of templates) {
    yield template;
    const { children } = template as { children?: (partials: boolean, sync: boolean) => Generator<unknown, Template[]> };
    if (children !== undefined) yield* nodesOf(toValueSync(children.call(template, false, true)));
  }
}

/** The first output, in any branch, printing an end user's variable with `| raw` last (an HTML draft's check: the
 *  sample variables take one branch only; aliases and filters are caught as it renders: takeInEndUserText). */
function rawOfEndUserIn(engine: Liquid, templates: Template[], endUser: readonly string[]): string | undefined {
  for (const node of nodesOf(templates)) {
    const value = node instanceof Output || node instanceof EscapingEcho ? node.value : undefined;
    if (value?.filters.at(-1)?.raw !== true) continue;
    const { variables } = engine.analyzeSync([node], { partials: false });
    const named = Object.values(variables).flat().map(String);
    const printed = endUser.find((path) => named.some((name) => name === path || name.startsWith(`${path}.`) || name.startsWith(`${path}[`)));
    if (printed !== undefined) return rawOfEndUserRefusal(printed);
  }
  return undefined;
}

const rawOfEndUserRefusal = (variable: string) => `${variable} is written by the end user: | raw would let them put HTML in the mail; print it escaped, as {{ ${variable} }} does`;

const OBJECT_TEXT = '[object Object]';

/** The template's refusal: a syntax or render error, a liquidjs limit (an AssertionError), output over its limit, or a
 *  variable outside `offered`; anything else is ours, and fails the worker. */
async function render({ part, source, variables, offered, endUser }: RenderJob): Promise<RenderReply> {
  const engine = part === 'html' ? htmlEngine : textEngine;
  if (part === 'html') takeInEndUserText(variables, endUser);
  refusingRawOfEndUser = offered !== undefined;
  try {
    const templates = engine.parse(source);
    const unknown = offered === undefined ? undefined : unknownVariable(engine, templates, offered);
    if (unknown !== undefined) return { refused: unknown };
    const rawOfEndUser = offered === undefined || part !== 'html' ? undefined : rawOfEndUserIn(engine, templates, endUser);
    if (rawOfEndUser !== undefined) return { refused: rawOfEndUser };
    const text = String(await engine.render(templates, variables));
    // Checked on a draft only: an object printed whole (`{{ user }}` for `{{ user.name }}`) is a slip the mail would show.
    if (offered !== undefined && text.includes(OBJECT_TEXT) && !source.includes(OBJECT_TEXT)) {
      return { refused: `prints an object as ${OBJECT_TEXT}: name one of its fields (such as user.name, not user)` };
    }
    if (text.length > OUTPUT_LIMITS[part]) return { refused: `render limit exceeded (the rendered ${part} is over ${OUTPUT_LIMITS[part]} characters)` };
    return { text };
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
