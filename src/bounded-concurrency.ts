/** A function that runs at most `limit()` jobs at once; `running` and `waiting` count them. */
export interface Bounded {
  <T>(job: () => Promise<T>): Promise<T>;
  readonly running: number;
  readonly waiting: number;
}

/** The others wait in the order they came; a job's end, failed or not, passes its place straight to the next. */
export function boundedConcurrency(limit: () => number): Bounded {
  let running = 0;
  const waiting: (() => void)[] = [];
  const run = async <T>(job: () => Promise<T>): Promise<T> => {
    if (running >= limit()) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await job();
    } finally {
      const next = waiting.shift();
      if (next === undefined) running -= 1;
      else next();
    }
  };
  return Object.defineProperties(run, { running: { get: () => running }, waiting: { get: () => waiting.length } }) as Bounded;
}
