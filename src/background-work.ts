import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The service's own jobs (the e-mail outbox, the token events' writer, the audit retention and stream watchers):
 * what they do, started from their timers, belongs to no request. Code that counts a request's statements (the
 * tests' and the bench's `onQuery`) asks `currentBackgroundWork` to leave theirs out.
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
