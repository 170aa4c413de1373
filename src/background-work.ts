import { AsyncLocalStorage } from 'node:async_hooks';

/** Jobs' work belongs to no request: code counting a request's statements (tests', bench's `onQuery`) leaves theirs out. */
const running = new AsyncLocalStorage<string>();

export function asBackgroundWork<T>(name: string, work: () => T): T {
  return running.run(name, work);
}

/** Undefined in a request, or at start-up. */
export function currentBackgroundWork(): string | undefined {
  return running.getStore();
}

export interface JobLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** One run at a time (everyMs 0: never); a failed run is logged and the next tries again. `runsAtStart`: a first run
 *  as it starts, for a job an instance restarted more often than `everyMs` would otherwise never run. */
export class PeriodicJob {
  readonly #name: string;
  readonly #everyMs: number;
  readonly #run: (log: JobLog) => Promise<void>;
  readonly #runsAtStart: boolean;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(name: string, everyMs: number, run: (log: JobLog) => Promise<void>, options: { runsAtStart?: boolean } = {}) {
    this.#name = name;
    this.#everyMs = everyMs;
    this.#run = run;
    this.#runsAtStart = options.runsAtStart ?? false;
  }

  start(log: JobLog): void {
    if (this.#everyMs === 0 || this.#timer !== undefined) return;
    const tick = () => {
      // The ticks during a long run have nothing to add.
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
    if (this.#runsAtStart) asBackgroundWork(this.#name, tick);
  }

  /** Once the run under way, if any, has ended. */
  async settled(): Promise<void> {
    await this.#running;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.settled();
  }
}
