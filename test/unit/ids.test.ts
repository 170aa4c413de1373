import { afterEach, describe, expect, it, vi } from 'vitest';
import { firstIdAt, isUuid, newId } from '../../src/ids.ts';

/** The time a UUIDv7 names (its first 48 bits), in milliseconds. */
const timeOf = (id: string) => parseInt(id.replaceAll('-', '').slice(0, 12), 16);

afterEach(() => {
  vi.useRealTimers();
});

describe('newId', () => {
  it('names the time it is made, and sorts after the ids made before it', () => {
    const before = Date.now();
    const ids = Array.from({ length: 1_000 }, () => newId());
    expect(ids.every(isUuid)).toBe(true);
    expect(timeOf(ids[0]!)).toBeGreaterThanOrEqual(before);
    expect(timeOf(ids.at(-1)!)).toBeLessThanOrEqual(Date.now());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('follows the clock back when it steps back, so an id never names a time long past its making', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const now = Date.now();
    vi.setSystemTime(now + 3_600_000);
    newId();
    vi.setSystemTime(now);
    const id = newId();
    expect(timeOf(id)).toBe(now);
    // The audit log's time ranges are id ranges too (firstIdAt): the id is within its own millisecond's.
    expect(id >= firstIdAt(new Date(now)) && id < firstIdAt(new Date(now + 1))).toBe(true);
  });

  it('keeps increasing through a small step back of the clock', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const now = Date.now();
    const first = newId();
    vi.setSystemTime(now - 5);
    const second = newId();
    expect(second > first).toBe(true);
  });
});
