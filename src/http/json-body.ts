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

/** A key this long is named by its start. */
const NAMED_KEY_MAX = 64;
const quotedKey = (key: string) => (key.length > NAMED_KEY_MAX ? `${JSON.stringify(key.slice(0, NAMED_KEY_MAX)).slice(0, -1)}…"` : JSON.stringify(key));

/** Why JSON.parse should not be given the text (a request body, a WebSocket message), in one pass over it; text that
 *  is not JSON may pass: JSON.parse refuses it next. A key repeated in one object is refused: parsers differ on which
 *  value counts (JSON.parse takes the last, others the first), so a proxy in front may have judged another request. */
export function jsonShapeProblem(text: string): string | undefined {
  let depth = 0;
  let values = 0;
  // Per open container, innermost last: an object's keys so far, or undefined for an array.
  const open: Array<Set<string> | undefined> = [];
  let atKey = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      const close = closingQuote(text, i);
      if (atKey) {
        const key = keyText(text, i, close);
        const keys = open[open.length - 1]!;
        if (keys.has(key)) return `repeats the key ${quotedKey(key)}`;
        keys.add(key);
        atKey = false;
      }
      i = close;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      values += 1;
      if (depth > JSON_BODY_MAX_DEPTH) return `nests deeper than ${JSON_BODY_MAX_DEPTH} levels`;
      atKey = code === OPEN_BRACE;
      open.push(atKey ? new Set() : undefined);
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
      open.pop();
      atKey = false;
    } else if (code === COMMA) {
      values += 1;
      atKey = open[open.length - 1] !== undefined;
    }
    if (values > JSON_BODY_MAX_VALUES) return `holds more than ${JSON_BODY_MAX_VALUES} values`;
  }
  return undefined;
}

/** The key as JSON.parse reads it (`"\u0065mail"` is `"email"`); read as written when it is not JSON, which JSON.parse refuses next. */
function keyText(text: string, open: number, close: number): string {
  const written = text.slice(open + 1, close);
  if (!written.includes('\\')) return written;
  try {
    return JSON.parse(text.slice(open, close + 1)) as string;
  } catch {
    return written;
  }
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
