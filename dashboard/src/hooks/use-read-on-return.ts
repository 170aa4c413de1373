import { useEffect, useRef } from 'react';

// A return fires visibilitychange and focus together, and a window switched to and fro fires them again and again.
const MIN_INTERVAL_MS = 5_000;

export interface Rereadable {
  readonly loading: boolean;
  refresh: () => void;
}

/** When the operator comes back (page shown again, window focused), at most once per MIN_INTERVAL_MS; not while `active`
 *  is false. A return during a read under way reads again once it ends. An open panel keeps its edits, as through any refresh. */
export function useReadOnReturn(shown: Rereadable, active = true): void {
  const latest = useRef({ shown, active });
  const lastRead = useRef(-Infinity);
  // The read under way at a return may have been answered before what changed meanwhile.
  const owed = useRef(false);
  useEffect(() => {
    latest.current = { shown, active };
    if (!owed.current || shown.loading) return;
    owed.current = false;
    // Made inactive meanwhile (the audit log now following live): the read owed to the return is dropped with it.
    if (active) shown.refresh();
  });
  useEffect(() => {
    const returned = () => {
      const { shown: current, active: reading } = latest.current;
      if (!reading || document.visibilityState !== 'visible' || Date.now() - lastRead.current < MIN_INTERVAL_MS) return;
      lastRead.current = Date.now();
      if (current.loading) owed.current = true;
      else current.refresh();
    };
    document.addEventListener('visibilitychange', returned);
    addEventListener('focus', returned);
    return () => {
      document.removeEventListener('visibilitychange', returned);
      removeEventListener('focus', returned);
    };
  }, []);
}
