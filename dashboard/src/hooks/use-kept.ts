import { createContext, useContext, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { findKeptDraft, liveDraft, takeKeptDraft } from '../kept-drafts.ts';
import { getSession } from '../session.ts';

/** Where on its page a form is (a tenant's view), beside the page's fragment: part of a kept value's key. */
export const DraftPlace = createContext('');

/**
 * What a session that ended unasked kept under `name` (kept-drafts.ts) for the component mounting now, with the key it
 * is kept under: the page (application and tab), its part of the page and the name. Taken out of storage once the
 * component mounted: the component's from then on. A null name keeps nothing.
 */
export function useRestoredKept(name: string | null): { key: string | null; kept: unknown } {
  const place = useContext(DraftPlace);
  const [found] = useState(() => {
    const key = name === null ? null : `${location.hash}|${place}|${name}`;
    const session = getSession();
    return { key, kept: key === null || session === null ? undefined : findKeptDraft(session, key) };
  });
  useEffect(() => {
    const session = getSession();
    if (found.key !== null && session !== null) takeKeptDraft(session, found.key);
  }, [found.key]);
  return found;
}

/** While `live`, what `read` gives as the session ends unasked is kept under `key`. */
export function useKeptOnEnd(key: string | null, live: boolean, read: () => unknown): void {
  const latest = useRef(read);
  latest.current = read;
  useEffect(() => (live && key !== null ? liveDraft(() => [key, latest.current()]) : undefined), [live, key]);
}

/** State of where the operator is on a page (the tenant viewed, the panel open, the form chosen), as `useState`: kept
 *  while not `initial` (a text, or null) when the session ends unasked, so signing in again returns to it and its drafts. */
export function useKeptPlace<T>(name: string, initial: T): [T, Dispatch<SetStateAction<T>>] {
  const { key, kept } = useRestoredKept(`where:${name}`);
  const [start] = useState(initial);
  const [value, setValue] = useState(kept === undefined ? start : (kept as T));
  useKeptOnEnd(key, value !== start, () => value);
  return [value, setValue];
}
