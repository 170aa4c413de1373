import { describe, expect, it } from 'vitest';
import { JSON_BODY_MAX_DEPTH, JSON_BODY_MAX_VALUES, parseJsonBody } from '../../src/http/json-body.ts';

const parse = (text: string) => parseJsonBody(new TextEncoder().encode(text));
const refusal = (text: string) => {
  try {
    parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
};

/** The shape limits are read from the text before parsing: what is inside strings must not count. */
describe('parseJsonBody', () => {
  it('does not count brackets and commas inside strings, escaped quotes and backslash runs included', () => {
    const inside = `${'[{,'.repeat(JSON_BODY_MAX_VALUES)}\\"${'[{,'.repeat(JSON_BODY_MAX_DEPTH)}\\\\`;
    expect(parse(JSON.stringify({ a: inside, b: '\\', c: '"', d: '\\"' }))).toEqual({ a: inside, b: '\\', c: '"', d: '\\"' });
  });

  it('counts what follows a string that ends in an escaped backslash', () => {
    const deep = `${'['.repeat(JSON_BODY_MAX_DEPTH - 1)}${']'.repeat(JSON_BODY_MAX_DEPTH - 1)}`;
    expect(refusal(`{"a": "x\\\\", "b": [${deep}]}`)).toMatch(/deeper than/);
    expect(refusal(`{"a": "x\\\\", "b": ${deep}}`)).toBeUndefined();
  });

  it('refuses one value too many, and takes the most allowed', () => {
    const values = (count: number) => `[${Array.from({ length: count }, () => '"a,b"').join(',')}]`;
    expect(refusal(values(JSON_BODY_MAX_VALUES - 1))).toBeUndefined();
    expect(refusal(values(JSON_BODY_MAX_VALUES + 1))).toMatch(/more than/);
  });

  it('leaves an unterminated string to JSON.parse', () => {
    expect(refusal('{"a": "x\\"}')).toMatch(/not valid JSON/);
  });
});
