import { useEffect, useState } from 'react';
import { errorMessage } from '../error-message.ts';

export type AsyncState<T> =
  | { readonly status: 'loading' }
  | { readonly status: 'failed'; readonly message: string }
  | { readonly status: 'done'; readonly data: T };

/** Runs `load` (memoize it with useCallback) whenever it changes; an answer that arrives after a newer call is dropped. */
export function useAsync<T>(load: () => Promise<T>): AsyncState<T> {
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
  return state;
}
