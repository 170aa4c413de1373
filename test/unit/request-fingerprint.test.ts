import { describe, expect, it } from 'vitest';
import { requestFingerprint } from '../../src/idempotency.ts';

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
