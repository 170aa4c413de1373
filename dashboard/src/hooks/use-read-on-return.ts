import { useEffect, useRef } from 'react';

// A return fires visibilitychange and focus together, and a window switched to and fro fires them again and again.
const MIN_INTERVAL_MS = 5_000;

/** What can be read again: a list's pages (usePages), or data read whole (useAsync). */
export interface Rereadable {
  /** Whether a read is under way, which a return does not start again. */
  readonly loading: boolean;
  /** Reads again, keeping what is shown until the answer replaces it. */
  refresh: () => void;
}

/**
 * Reads `shown` again when the operator comes back to the page (shown again, or its window focused), at most once per
 * MIN_INTERVAL_MS and not over a read under way; not while `active` is false (something else keeps it current). An
 * open panel keeps its edits, as through any refresh.
 */
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
