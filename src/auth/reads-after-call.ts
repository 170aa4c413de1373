/** Each call is answered by a read begun after it was made (what a check after a commit needs); a burst costs two reads. */
export function readsAfterCall<T>(): (key: string, read: () => Promise<T>) => Promise<T> {
  const running = new Map<string, Promise<T>>();
  const queued = new Map<string, Promise<T>>();
  const start = (key: string, read: () => Promise<T>): Promise<T> => {
    const current = read();
    running.set(key, current);
    const forget = () => {
      if (running.get(key) === current) running.delete(key);
    };
    current.then(forget, forget);
    return current;
  };
  return (key, read) => {
    const next = queued.get(key);
    if (next !== undefined) return next;
    const before = running.get(key);
    if (before === undefined) return start(key, read);
    const begin = () => {
      queued.delete(key);
      return start(key, read);
    };
    const run = before.then(begin, begin);
    queued.set(key, run);
    return run;
  };
}
