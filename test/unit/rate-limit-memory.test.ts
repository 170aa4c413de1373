import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRateLimitStore } from '../../src/http/rate-limit-memory.ts';

const WINDOW_MS = 60_000;
const MAX = 5;

function count(store: MemoryRateLimitStore, key: string): { current: number; ttl: number } {
  let counted: { current: number; ttl: number } | undefined;
  store.incr(key, (error, result) => {
    if (error !== null || result === undefined) throw error ?? new Error('no result');
    counted = result;
  }, WINDOW_MS, MAX);
  return counted!;
}

describe('rate-limit counts in memory', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('keeps every bucket for its whole window, credentials apart from addresses, and refuses new addresses while full', () => {
    const store = new MemoryRateLimitStore(3);
    for (let i = 0; i < 6; i += 1) count(store, 'cred:key');
    count(store, 'sign-in:198.51.100.1');
    vi.advanceTimersByTime(10_000);
    count(store, 'ip:198.51.100.2');
    count(store, 'ip:198.51.100.3');
    // The pool of addresses is full of live buckets: a new address is over its limit until the first window ends.
    for (let i = 0; i < 1000; i += 1) expect(count(store, `ip:2001:db8:0:${i.toString(16)}::/64`)).toEqual({ current: MAX + 1, ttl: 50_000 });
    expect(store.size).toBe(4);
    expect(count(store, 'cred:key')).toEqual({ current: 7, ttl: 50_000 });
    expect(count(store, 'sign-in:198.51.100.1')).toEqual({ current: 2, ttl: 50_000 });
    // Only valid credentials make credential buckets; a second one still has room.
    expect(count(store, 'cred:other')).toEqual({ current: 1, ttl: WINDOW_MS });

    // Once the first window ends its bucket gives way: that address starts afresh and fills the pool again.
    vi.advanceTimersByTime(50_000);
    expect(count(store, 'sign-in:198.51.100.1')).toEqual({ current: 1, ttl: WINDOW_MS });
    expect(count(store, 'ip:2001:db8:0:1::/64')).toEqual({ current: MAX + 1, ttl: 10_000 });
    expect(count(store, 'ip:198.51.100.2')).toEqual({ current: 2, ttl: 10_000 });
    expect(store.size).toBe(5);
  });

  it('gives another limit (the sign-in throttle’s) pools of its own', () => {
    const store = new MemoryRateLimitStore(1);
    const child = store.child();
    count(store, 'ip:198.51.100.1');
    expect(count(child, 'sign-in:198.51.100.2')).toEqual({ current: 1, ttl: WINDOW_MS });
    expect(count(store, 'ip:198.51.100.2').current).toBe(MAX + 1);
  });
});
