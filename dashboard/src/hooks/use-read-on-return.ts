import { useEffect, useRef } from 'react';

// A return fires visibilitychange and focus together, and a window switched to and fro fires them again and again.
const MIN_INTERVAL_MS = 5_000;

export interface Rereadable {
  readonly loading: boolean;
  refresh: () => void;
}

/** When the operator comes back (page shown again, window focused), at most once per MIN_INTERVAL_MS and not over a read
 *  under way; not while `active` is false. An open panel keeps its edits, as through any refresh. */
export function useReadOnReturn(shown: Rereadable, active = true): void {
  const latest = useRef({ shown, active });
  useEffect(() => {
    latest.current = { shown, active };
  });
  useEffect(() => {
    let last = -Infinity;
    const returned = () => {
      const { shown: current, active: reading } = latest.current;
      if (!reading || document.visibilityState !== 'visible' || current.loading || Date.now() - last < MIN_INTERVAL_MS) return;
      last = Date.now();
      current.refresh();
    };
    document.addEventListener('visibilitychange', returned);
    addEventListener('focus', returned);
    return () => {
      document.removeEventListener('visibilitychange', returned);
      removeEventListener('focus', returned);
    };
  }, []);
}
