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

  it('refuses a key repeated in one object, at any depth, however it is escaped, naming it', () => {
    expect(refusal('{"email":"a@x.com","email":"b@x.com"}')).toBe('The request body repeats the key "email"');
    expect(refusal('{"input": {"a": 1, "b": [{"c": 1, "c": 2}]}}')).toBe('The request body repeats the key "c"');
    expect(refusal('{"email": 1, "\\u0065mail": 2}')).toBe('The request body repeats the key "email"');
    expect(refusal(`{"${'k'.repeat(1_000)}": 1, "${'k'.repeat(1_000)}": 2}`)).toBe(`The request body repeats the key "${'k'.repeat(64)}…"`);
  });

  it('takes the same key in sibling and nested objects, and key-like strings among values and in lists', () => {
    const body = { a: { id: 1 }, b: { id: 2, a: { id: 3 } }, list: ['id', 'id', { id: 4 }, { id: 5 }], id: 'id', s: '{"id":1,"id":2}' };
    expect(parse(JSON.stringify(body))).toEqual(body);
    expect(parse('{"a": "x" , "b" : "a", "c": {}, "d": [], "e": "e"}')).toEqual({ a: 'x', b: 'a', c: {}, d: [], e: 'e' });
  });

  it('leaves an unterminated string to JSON.parse', () => {
    expect(refusal('{"a": "x\\"}')).toMatch(/not valid JSON/);
  });
});
