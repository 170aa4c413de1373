import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../error-message.ts';

export type AsyncState<T> =
  | { readonly status: 'loading' }
  | { readonly status: 'failed'; readonly message: string }
  | { readonly status: 'done'; readonly data: T };

/** What was loaded, and `replace` to show newer data the caller already holds (a save's answer) without loading again. */
export type Async<T> = AsyncState<T> & { readonly replace: (data: T) => void };

/** Runs `load` (memoize it with useCallback) whenever it changes; an answer that arrives after a newer call is dropped. */
export function useAsync<T>(load: () => Promise<T>): Async<T> {
  const [state, setState] = useState<AsyncState<T>>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    load().then(
      (data) => current && setState({ status: 'done', data }),
      (error: unknown) => current && setState({ status: 'failed', message: errorMessage(error) }),
    );
    return () => {
      current = false;
    };
  }, [load]);
  const replace = useCallback((data: T) => setState({ status: 'done', data }), []);
  return { ...state, replace };
}
