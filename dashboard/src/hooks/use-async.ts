import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../error-message.ts';

export type AsyncState<T> =
  | { readonly status: 'loading' }
  | { readonly status: 'failed'; readonly message: string }
  | { readonly status: 'done'; readonly data: T };

export type Async<T> = AsyncState<T> & {
  /** Shows newer data the caller already holds (a save's answer) without loading again; a read under way is dropped. */
  readonly replace: (data: T) => void;
  readonly loading: boolean;
  /** What is shown stays until the answer replaces it; a failed refresh leaves it (the error would unmount the forms built
   *  on it, and their edits). */
  readonly refresh: () => void;
};

/** Runs `load` (memoize it with useCallback) whenever it changes; an answer that arrives after a newer call is dropped. */
export function useAsync<T>(load: () => Promise<T>): Async<T> {
  const [state, setState] = useState<AsyncState<T>>({ status: 'loading' });
  const [reading, setReading] = useState(true);
  // Counts reads and replacements, so that only the newest settles what is shown.
  const generation = useRef(0);
  // Whether something is shown, which a failed refresh keeps.
  const shown = useRef(false);

  const read = useCallback(() => {
    const mine = ++generation.current;
    setReading(true);
    load().then(
      (data) => {
        if (mine !== generation.current) return;
        shown.current = true;
        setState({ status: 'done', data });
        setReading(false);
      },
      (error: unknown) => {
        if (mine !== generation.current) return;
        if (!shown.current) setState({ status: 'failed', message: errorMessage(error) });
        setReading(false);
      },
    );
  }, [load]);

  useEffect(() => {
    shown.current = false;
    setState({ status: 'loading' });
    read();
    return () => {
      generation.current += 1;
    };
  }, [read]);
  const replace = useCallback((data: T) => {
    generation.current += 1;
    shown.current = true;
    setState({ status: 'done', data });
    setReading(false);
  }, []);
  return { ...state, replace, loading: reading, refresh: read };
}
