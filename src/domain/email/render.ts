import { Liquid, LiquidError } from 'liquidjs';
import { invalid } from '../../errors.ts';

/**
 * Liquid rendering of e-mail templates, locked down for templates written by customers:
 * - `templates: {}` serves include/render/layout from an empty in-memory map, so no tag reaches the file system;
 * - `ownPropertyOnly` hides prototypes (`{{ user.constructor }}` renders nothing), unknown filters are parse errors;
 * - parse, render-time and allocation limits stop a template from taking the process down;
 * - HTML parts escape every output by default (`| raw` is the template author's explicit opt-out); subject and
 *   text parts are plain text and are not escaped.
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

const htmlEngine = new Liquid({ ...LIMITS, outputEscape: 'escape' });
const textEngine = new Liquid(LIMITS);

export type TemplatePart = 'subject' | 'html' | 'text';

function engineFor(part: TemplatePart): Liquid {
  return part === 'html' ? htmlEngine : textEngine;
}

function refused(field: string, error: unknown): never {
  if (error instanceof LiquidError) {
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
