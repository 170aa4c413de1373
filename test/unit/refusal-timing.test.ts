import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { RefusalTiming } from '../../src/domain/sign-in/refusal-timing.ts';

/** Resolves 'now' if `promise` settles within the current turn (microtasks), else 'later'. */
async function settlesAtOnce(promise: Promise<unknown>): Promise<'now' | 'later'> {
  return Promise.race([promise.then(() => 'now' as const), sleep(0).then(() => 'later' as const)]);
}

describe('RefusalTiming', () => {
  it('before any failed attempt was counted there is nothing to match: no wait', async () => {
    expect(await settlesAtOnce(new RefusalTiming().pad())).toBe('now');
  });

  it('a refusal waits as long as a counted attempt took', async () => {
    const timing = new RefusalTiming();
    expect(await timing.measure(async () => (await sleep(80), 'counted'))).toBe('counted');
    const started = performance.now();
    await timing.pad();
    // Timers may fire a little early (rounding to the millisecond), never much.
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
  });

  it('a write that fails still tells how long writes take', async () => {
    const timing = new RefusalTiming();
    await expect(timing.measure(async () => {
      await sleep(60);
      throw new Error('the database went away');
    })).rejects.toThrow('the database went away');
    expect(await settlesAtOnce(timing.pad())).toBe('later');
  });
});
