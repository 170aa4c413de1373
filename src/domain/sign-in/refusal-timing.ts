import { setTimeout as sleep } from 'node:timers/promises';

const SAMPLES = 64;
/** A write that hung (a database stall) stands for at most this long: a refusal never waits more. */
const MAX_SAMPLE_MS = 1_000;

/** A refusal that writes nothing takes as long as one counting a failure, which would otherwise tell, over enough tries,
 *  which e-mails have accounts. Drawn at random from recent writes (same spread, not only mean); holds no connection. */
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
