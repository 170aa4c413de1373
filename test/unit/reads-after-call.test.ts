import { describe, expect, it } from 'vitest';
import { readsAfterCall } from '../../src/auth/reads-after-call.ts';

/** A read that ends when told, noting when it began. */
function reads() {
  const begun: number[] = [];
  const ends: (() => void)[] = [];
  let calls = 0;
  const read = () => {
    begun.push(calls);
    return new Promise<number>((resolve) => ends.push(() => resolve(begun.length)));
  };
  return { begun, ends, read, call: () => (calls += 1) };
}

describe('readsAfterCall', () => {
  it('answers each call with a read begun after it: calls during a read share the next one', async () => {
    const shared = readsAfterCall<number>();
    const r = reads();
    r.call();
    const first = shared('k', r.read);
    r.call();
    const second = shared('k', r.read);
    r.call();
    const third = shared('k', r.read);
    // One read so far, begun after the first call; the two later calls wait for the next.
    expect(r.begun).toEqual([1]);
    r.ends[0]!();
    expect(await first).toBe(1);
    await Promise.resolve();
    expect(r.begun).toEqual([1, 3]);
    r.ends[1]!();
    expect(await second).toBe(2);
    expect(await third).toBe(2);
  });

  it('keeps keys apart, and begins anew once nothing runs, after a failed read too', async () => {
    const shared = readsAfterCall<number>();
    const r = reads();
    const a = shared('a', r.read);
    const b = shared('b', r.read);
    expect(r.begun).toHaveLength(2);
    r.ends[0]!();
    r.ends[1]!();
    await Promise.all([a, b]);
    const failed = shared('a', () => Promise.reject(new Error('down')));
    const after = shared('a', r.read);
    await expect(failed).rejects.toThrow('down');
    await Promise.resolve();
    expect(r.begun).toHaveLength(3);
    r.ends[2]!();
    expect(await after).toBe(3);
  });
});
