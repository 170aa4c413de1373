import { setTimeout as sleep } from 'node:timers/promises';

/** How many recent failed-attempt writes a refusal's wait is drawn from. */
const SAMPLES = 64;
/** A write that hung (a database stall) stands for at most this long: a refusal never waits more. */
const MAX_SAMPLE_MS = 1_000;

/**
 * Keeps a refusal that writes nothing as long as one that counts a failed attempt: the failure count's write would
 * otherwise tell an attacker, over enough tries, which e-mails have accounts. The wait is drawn at random from recent
 * writes (the same spread, not only the same mean), and holds no thread or connection.
 */
export class RefusalTiming {
  private readonly samples: number[] = [];
  private next = 0;

  async measure<T>(write: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await write();
    } finally {
      this.remember(performance.now() - started);
    }
  }

  async pad(): Promise<void> {
    if (this.samples.length === 0) return;
    await sleep(this.samples[Math.floor(Math.random() * this.samples.length)]);
  }

  private remember(ms: number): void {
    this.samples[this.next] = Math.min(ms, MAX_SAMPLE_MS);
    this.next = (this.next + 1) % SAMPLES;
  }
}
