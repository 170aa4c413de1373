import { GatehouseError } from '../errors.ts';

/** Deeper than any input of the API; a deeper body only exhausts whatever walks it. */
export const JSON_BODY_MAX_DEPTH = 32;

/**
 * More than any input holds: JSON.parse builds objects on the event loop at microseconds a member, so the text is
 * counted first.
 */
export const JSON_BODY_MAX_VALUES = 5_000;

const refused = (message: string) => new GatehouseError('validation_error', message, { field: 'body' });

/** RFC 8259 8.1. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;

/**
 * For REST and GraphQL alike; an empty body is no body. Lone surrogates are refused: `\ud800` is valid JSON, but
 * PostgreSQL cannot store it.
 */
export function parseJsonBody(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes).trim();
  } catch {
    throw refused('The request body is not UTF-8 text');
  }
  if (text === '') return undefined;
  const problem = jsonShapeProblem(text);
  if (problem !== undefined) throw refused(`The request body ${problem}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw refused('The request body is not valid JSON');
  }
  // Raw lone surrogates are not UTF-8: one can only come from an escape.
  const mayHoldLoneSurrogates = ESCAPED_SURROGATE.test(text);
  if (mayHoldLoneSurrogates) refuseLoneSurrogates(body);
  return body;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** Why JSON.parse should not be given the text (a request body, a WebSocket message), in one pass over it; text that
 *  is not JSON may pass: JSON.parse refuses it next. */
export function jsonShapeProblem(text: string): string | undefined {
  let depth = 0;
  let values = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = closingQuote(text, i);
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      values += 1;
      if (depth > JSON_BODY_MAX_DEPTH) return `nests deeper than ${JSON_BODY_MAX_DEPTH} levels`;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
    } else if (code === COMMA) {
      values += 1;
    }
    if (values > JSON_BODY_MAX_VALUES) return `holds more than ${JSON_BODY_MAX_VALUES} values`;
  }
  return undefined;
}

/** Searches for quotes rather than reading every character (a megabyte of string is most of a large body); linear. */
function closingQuote(text: string, open: number): number {
  for (let quote = text.indexOf('"', open + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
  }
  return text.length;
}

/** Iteratively: its depth is bounded, its breadth is not. */
function refuseLoneSurrogates(body: unknown): void {
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (!value.isWellFormed()) throw refused('The request body holds a string that is not well-formed Unicode');
    } else if (Array.isArray(value)) {
      pending.push(...(value as unknown[]));
    } else if (typeof value === 'object' && value !== null) {
      for (const name in value) pending.push(name, (value as Record<string, unknown>)[name]);
    }
  }
}
