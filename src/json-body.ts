import { GatehouseError } from './errors.ts';

/** Deeper than any input of the API (its JSON objects included); a deeper body only exhausts whatever walks it. */
export const JSON_BODY_MAX_DEPTH = 32;

/**
 * More values (members of objects and arrays) than any input of the API holds: JSON.parse builds objects on the event
 * loop at microseconds a member, so the count is refused from the text before parsing.
 */
export const JSON_BODY_MAX_VALUES = 5_000;

const refused = (message: string) => new GatehouseError('validation_error', message, { field: 'body' });

/** JSON is UTF-8 (RFC 8259 8.1): bytes that are not (latin-1 text, an overlong form, a surrogate's bytes) are refused. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A JSON escape of a UTF-16 surrogate, the start of a lone one unless its pair follows. */
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;

/**
 * A request body's JSON, for REST and GraphQL alike; an empty body (whitespace, a byte order mark) is no body. Refused
 * with 422 on `body`: bytes that are not UTF-8, text that is not JSON, nesting or values over JSON_BODY_MAX_DEPTH and
 * JSON_BODY_MAX_VALUES (told from the text before parsing), and strings or names that are not well-formed Unicode (a
 * lone surrogate escaped as `\ud800` is valid JSON, but PostgreSQL cannot store it).
 */
export function parseJsonBody(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes).trim();
  } catch {
    throw refused('The request body is not UTF-8 text');
  }
  if (text === '') return undefined;
  refuseShape(text);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw refused('The request body is not valid JSON');
  }
  // Raw lone surrogates are not UTF-8, so the decoder refused them: one can only come from a `\uD800`-`\uDFFF` escape.
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

/**
 * Refuses a body nesting deeper than JSON_BODY_MAX_DEPTH or holding more than JSON_BODY_MAX_VALUES values, in one pass
 * over its text (each value but a container's first follows a comma; each container opens with a bracket). Text that
 * is not JSON may pass: JSON.parse refuses it next.
 */
function refuseShape(text: string): void {
  let depth = 0;
  let values = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = closingQuote(text, i);
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      values += 1;
      if (depth > JSON_BODY_MAX_DEPTH) throw refused(`The request body nests deeper than ${JSON_BODY_MAX_DEPTH} levels`);
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
    } else if (code === COMMA) {
      values += 1;
    }
    if (values > JSON_BODY_MAX_VALUES) throw refused(`The request body holds more than ${JSON_BODY_MAX_VALUES} values`);
  }
}

/**
 * Where the string opened at `open` ends (the text's end if it never does), found by searching for quotes rather than
 * reading every character: a megabyte of string is most of what a large body can be. A quote after an odd run of
 * backslashes is escaped; each run is read once, so the search stays linear.
 */
function closingQuote(text: string, open: number): number {
  for (let quote = text.indexOf('"', open + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
  }
  return text.length;
}

/** Walks the strings of a parsed body, names included, iteratively (its depth is bounded, its breadth is not). */
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
