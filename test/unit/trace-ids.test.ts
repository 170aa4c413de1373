import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PooledIdGenerator } from '../../src/observability/trace-ids.ts';

/** A random source that counts its draws, giving `first` (then random bytes) on the first. */
function counting(first?: (bytes: number) => Buffer) {
  const source = {
    draws: 0,
    draw: (bytes: number) => {
      source.draws += 1;
      return source.draws === 1 && first !== undefined ? first(bytes) : randomBytes(bytes);
    },
  };
  return source;
}

describe('PooledIdGenerator', () => {
  it('gives lowercase hex trace and span ids of 16 and 8 bytes, none repeated, across pools', () => {
    const source = counting();
    const ids = new PooledIdGenerator(source.draw);
    const traces = Array.from({ length: 1000 }, () => ids.generateTraceId());
    const spans = Array.from({ length: 1000 }, () => ids.generateSpanId());
    expect(traces.every((id) => /^[0-9a-f]{32}$/.test(id))).toBe(true);
    expect(spans.every((id) => /^[0-9a-f]{16}$/.test(id))).toBe(true);
    expect(new Set([...traces, ...spans]).size).toBe(2000);
    // 24,000 bytes of ids: four draws of a pool, not one an id.
    expect(source.draws).toBe(4);
  });

  it('skips an all-zero span or trace id, which would mean none', () => {
    const zerosThenOnes = (bytes: number) => Buffer.concat([Buffer.alloc(32), Buffer.alloc(bytes - 32, 0x11)]);
    const ids = new PooledIdGenerator(counting(zerosThenOnes).draw);
    expect(ids.generateSpanId()).toBe('1'.repeat(16));
    const again = new PooledIdGenerator(counting(zerosThenOnes).draw);
    expect(again.generateTraceId()).toBe('1'.repeat(32));
  });

  it('draws a new pool when the rest of one is all zeros', () => {
    const source = counting((bytes) => Buffer.alloc(bytes));
    const ids = new PooledIdGenerator(source.draw);
    expect(ids.generateSpanId()).toMatch(/^[0-9a-f]{16}$/);
    expect(ids.generateSpanId()).not.toBe('0'.repeat(16));
    expect(source.draws).toBe(2);
  });
});
