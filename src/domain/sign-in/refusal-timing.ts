import { setTimeout as sleep } from 'node:timers/promises';

/** How many recent failed-attempt writes a refusal's wait is drawn from. */
const SAMPLES = 64;
/** A write that hung (a database stall) stands for at most this long: a refusal never waits more. */
const MAX_SAMPLE_MS = 1_000;

/**
 * Keeps a refusal that writes nothing as long as one that counts a failed attempt. With the lockout policy on, a
 * wrong password for a known user costs a write (the failure count) that an unknown e-mail, a locked or a suspended
 * user does not: a few milliseconds that would tell an attacker, over enough tries, which e-mails have accounts. This
 * instance remembers how long its last failed-attempt writes took, and a refusal without a write waits as long as
 * one of them, drawn at random: the same spread of durations, not only the same mean. The wait holds no thread and no
 * connection; before the first failed attempt there is nothing to match, and no wait.
 */
export class RefusalTiming {
  private readonly samples: number[] = [];
  private next = 0;

  /** Runs a failed attempt's write, and keeps how long it took. */
  async measure<T>(write: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await write();
    } finally {
      this.remember(performance.now() - started);
    }
  }

  /** Waits about as long as a failed attempt's write takes on this instance now. */
  async pad(): Promise<void> {
    if (this.samples.length === 0) return;
    await sleep(this.samples[Math.floor(Math.random() * this.samples.length)]);
  }

  private remember(ms: number): void {
    this.samples[this.next] = Math.min(ms, MAX_SAMPLE_MS);
    this.next = (this.next + 1) % SAMPLES;
  }
}
