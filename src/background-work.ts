import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The service's own jobs (the e-mail outbox, the token events' writer, the audit retention, the OP storage's sweep, the
 * stream watchers): what they do, started from their timers, belongs to no request. Code that counts a request's
 * statements (the tests' and the bench's `onQuery`) asks `currentBackgroundWork` to leave theirs out.
 */
const running = new AsyncLocalStorage<string>();

/** Runs `work` (and whatever it schedules) as the job `name`'s. */
export function asBackgroundWork<T>(name: string, work: () => T): T {
  return running.run(name, work);
}

/** The job the running code belongs to; undefined in a request, or at start-up. */
export function currentBackgroundWork(): string | undefined {
  return running.getStore();
}

export interface JobLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * Job `name`'s `run` every `everyMs` on this instance (0: never), one run at a time. A failed run (the database down)
 * is logged and the next tries again.
 */
export class PeriodicJob {
  readonly #name: string;
  readonly #everyMs: number;
  readonly #run: (log: JobLog) => Promise<void>;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(name: string, everyMs: number, run: (log: JobLog) => Promise<void>) {
    this.#name = name;
    this.#everyMs = everyMs;
    this.#run = run;
  }

  start(log: JobLog): void {
    if (this.#everyMs === 0 || this.#timer !== undefined) return;
    const tick = () => {
      // A run longer than the interval: the ticks meanwhile have nothing to add.
      this.#running ??= (async () => {
        try {
          await this.#run(log);
        } catch (error) {
          log.error({ err: error }, `${this.#name} failed; the next run tries again`);
        } finally {
          this.#running = undefined;
        }
      })();
    };
    this.#timer = asBackgroundWork(this.#name, () => setInterval(tick, this.#everyMs).unref());
  }

  /** Stops the timer and waits for the run under way. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }
}
