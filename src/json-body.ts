import { GatehouseError } from './errors.ts';

/** Deeper than any input of the API (its JSON objects included); a deeper body only exhausts whatever walks it. */
export const JSON_BODY_MAX_DEPTH = 32;

const refused = (message: string) => new GatehouseError('validation_error', message, { field: 'body' });

/** JSON is UTF-8 (RFC 8259 8.1): bytes that are not (latin-1 text, an overlong form, a surrogate's bytes) are refused. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A JSON escape of a UTF-16 surrogate, the start of a lone one unless its pair follows. */
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;

/**
 * A request body's JSON, for REST and GraphQL alike; an empty body (whitespace, a byte order mark) is no body. Refused
 * with 422 on `body`: bytes that are not UTF-8 (a lenient decoding stored U+FFFD in their place), text that is not
 * JSON, nesting deeper than JSON_BODY_MAX_DEPTH (a reply echoing it overflowed the stack: a 500), and strings, names
 * included, that are not well-formed Unicode (a lone surrogate escaped as `\ud800`: valid JSON, but no text
 * PostgreSQL stores, so a 500 at the first write).
 */
export function parseJsonBody(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes).trim();
  } catch {
    throw refused('The request body is not UTF-8 text');
  }
  if (text === '') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw refused('The request body is not valid JSON');
  }
  // Raw lone surrogates are not UTF-8, so the decoder refused them: one can only come from a `\uD800`-`\uDFFF` escape.
  const mayHoldLoneSurrogates = ESCAPED_SURROGATE.test(text);
  // Iterative, on two stacks (values, depths), visiting only what may be refused: the walk must not recurse as deep as
  // the body does, and must cost little per member of a body holding hundreds of thousands.
  const values: unknown[] = [body];
  const depths: number[] = [0];
  const visit = (member: unknown, depth: number) => {
    if ((typeof member === 'string' && mayHoldLoneSurrogates) || (typeof member === 'object' && member !== null)) {
      values.push(member);
      depths.push(depth);
    }
  };
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (typeof value === 'string') {
      if (!value.isWellFormed()) throw refused('The request body holds a string that is not well-formed Unicode');
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= JSON_BODY_MAX_DEPTH) throw refused(`The request body nests deeper than ${JSON_BODY_MAX_DEPTH} levels`);
    if (Array.isArray(value)) {
      for (const member of value) visit(member, depth + 1);
    } else {
      for (const name in value) {
        if (mayHoldLoneSurrogates) visit(name, depth + 1);
        visit((value as Record<string, unknown>)[name], depth + 1);
      }
    }
  }
  return body;
}
