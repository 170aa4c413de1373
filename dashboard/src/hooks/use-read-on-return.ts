import { useEffect, useRef } from 'react';
import type { Pages } from './use-pages.ts';

// A return fires visibilitychange and focus together, and a window switched to and fro fires them again and again.
const MIN_INTERVAL_MS = 5_000;

/**
 * Reads a list tab's pages shown again when the operator comes back to the page (shown again, or its window focused),
 * at most once per MIN_INTERVAL_MS and not over a read under way. An open panel keeps its edits, as through any refresh.
 */
export function useReadOnReturn(pages: Pick<Pages<unknown>, 'loading' | 'refresh'>): void {
  const latest = useRef(pages);
  useEffect(() => {
    latest.current = pages;
  });
  useEffect(() => {
    let last = -Infinity;
    const returned = () => {
      if (document.visibilityState !== 'visible' || latest.current.loading || Date.now() - last < MIN_INTERVAL_MS) return;
      last = Date.now();
      latest.current.refresh();
    };
    document.addEventListener('visibilitychange', returned);
    addEventListener('focus', returned);
    return () => {
      document.removeEventListener('visibilitychange', returned);
      removeEventListener('focus', returned);
    };
  }, []);
}
