import { describe, expect, it } from 'vitest';
import { boundedConcurrency } from '../../src/bounded-concurrency.ts';

/** A job that runs until the test settles it. */
function held() {
  let settle!: (outcome: 'resolve' | 'reject') => void;
  const promise = new Promise<string>((resolve, reject) => (settle = (outcome) => (outcome === 'resolve' ? resolve('done') : reject(new Error('failed')))));
  return { promise, settle };
}

describe('boundedConcurrency', () => {
  it('runs at most its limit of jobs at once, the others in the order they came; a failed job gives its place too', async () => {
    const bounded = boundedConcurrency(() => 2);
    const jobs = Array.from({ length: 4 }, () => held());
    const started: number[] = [];
    const answers = jobs.map((job, index) =>
      bounded(() => {
        started.push(index);
        return job.promise;
      }).catch((error: unknown) => (error as Error).message),
    );
    expect(started).toEqual([0, 1]);
    expect({ running: bounded.running, waiting: bounded.waiting }).toEqual({ running: 2, waiting: 2 });
    jobs[1]!.settle('reject');
    await expect(answers[1]).resolves.toBe('failed');
    expect(started).toEqual([0, 1, 2]);
    jobs[0]!.settle('resolve');
    await expect(answers[0]).resolves.toBe('done');
    expect(started).toEqual([0, 1, 2, 3]);
    jobs[2]!.settle('resolve');
    jobs[3]!.settle('resolve');
    expect(await Promise.all(answers)).toEqual(['done', 'failed', 'done', 'done']);
    expect({ running: bounded.running, waiting: bounded.waiting }).toEqual({ running: 0, waiting: 0 });
  });
});
