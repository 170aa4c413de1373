import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { requestFingerprint } from '../../src/http/idempotency.ts';

describe('requestFingerprint', () => {
  const variables = { input: { name: 'Ådа', tenantIds: ['b', 'a'], metadata: { z: 1, a: [null, { y: true, x: 1.5 }], é: '\u2028' } }, userId: 'u' };

  it('is the hash of the JSON text with sorted keys, as stored keys were fingerprinted before', () => {
    expect(requestFingerprint('POST', '/users', variables)).toBe('2071b14608a1beeddd1cfab13b1a953796d3565bcc4b16b16422504f1a12b23a');
  });

  it('ignores key order at every depth, and no other difference', () => {
    const reordered = { userId: 'u', input: { metadata: { é: '\u2028', a: [null, { x: 1.5, y: true }], z: 1 }, tenantIds: ['b', 'a'], name: 'Ådа' } };
    expect(requestFingerprint('POST', '/users', reordered)).toBe(requestFingerprint('POST', '/users', variables));
    const otherOrderOfList = { ...variables, input: { ...variables.input, tenantIds: ['a', 'b'] } };
    expect(requestFingerprint('POST', '/users', otherOrderOfList)).not.toBe(requestFingerprint('POST', '/users', variables));
    expect(requestFingerprint('PATCH', '/users', variables)).not.toBe(requestFingerprint('POST', '/users', variables));
  });
});

describe('requestFingerprint of ids', () => {
  const id = '0190a2b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b';
  const upper = id.toUpperCase();

  it('reads a UUID in either letter case as the same value, wherever it is: the server takes both as one id', () => {
    const lower = requestFingerprint('PATCH', '/users/:userId', { userId: id, input: { tenantIds: [id], metadata: { ref: id } } });
    expect(requestFingerprint('PATCH', '/users/:userId', { userId: upper, input: { tenantIds: [upper], metadata: { ref: upper } } })).toBe(lower);
    expect(requestFingerprint('PATCH', '/users/:userId', { userId: `${id.slice(0, 9)}${upper.slice(9)}`, input: { tenantIds: [id], metadata: { ref: id } } })).toBe(lower);
  });

  it('tells apart another id, and text that only holds one', () => {
    const other = '0190a2b4-5c6d-7e8f-9a0b-1c2d3e4f5a6c';
    expect(requestFingerprint({ userId: other })).not.toBe(requestFingerprint({ userId: id }));
    expect(requestFingerprint({ name: `Ticket ${upper}` })).not.toBe(requestFingerprint({ name: `Ticket ${id}` }));
    expect(requestFingerprint({ name: `${upper}x` })).not.toBe(requestFingerprint({ name: `${id}x` }));
  });
});

describe('requestFingerprint of a large body', () => {
  // Keys already in sorted order: JSON.stringify's text is then the canonical text itself.
  const keys = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${String(i).padStart(4, '0')}`, i % 2 === 0 ? 'v' : [i, null]]));
  // Long strings with what JSON escapes (a quote, a control character), with surrogate pairs, and with neither.
  const variables = { input: { description: `"quoted"\n${'x'.repeat(300_000)}`, emoji: '😀'.repeat(10_000), keys, name: 'é'.repeat(40_000) }, userId: 'u' };
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

  it('hashes the same text, whatever the size of its pieces', () => {
    expect(requestFingerprint('POST', '/users', variables)).toBe(sha256(JSON.stringify(['POST', '/users', variables])));
    const { description, emoji, name } = variables.input;
    const reordered = { userId: 'u', input: { name, keys: Object.fromEntries(Object.entries(keys).reverse()), emoji, description } };
    expect(requestFingerprint('POST', '/users', reordered)).toBe(requestFingerprint('POST', '/users', variables));
  });
});
