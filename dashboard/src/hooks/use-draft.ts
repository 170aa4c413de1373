import { createContext, useCallback, useContext, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { findKeptDraft, liveDraft, takeKeptDraft, type KeepAs, type KeptDraft } from '../kept-drafts.ts';
import { getSession } from '../session.ts';
import { useUnsavedChanges } from './use-unsaved-changes.ts';

/** Whether two drafts (plain data: texts, numbers, booleans, arrays, records) hold the same values. */
export function sameValues(one: unknown, other: unknown): boolean {
  if (one === other) return true;
  if (typeof one !== 'object' || typeof other !== 'object' || one === null || other === null) return false;
  if (Array.isArray(one) !== Array.isArray(other)) return false;
  const keys = Object.keys(one);
  if (keys.length !== Object.keys(other).length) return false;
  return keys.every((key) => Object.hasOwn(other, key) && sameValues((one as Record<string, unknown>)[key], (other as Record<string, unknown>)[key]));
}

export interface DraftSync {
  /** The stored thing changed while the draft held edits, which are kept. */
  readonly outdated: boolean;
  takeStored: () => void;
  /** Call once the server took the draft: its answer then replaces the draft unasked. */
  saved: () => void;
  /** The draft holds edits kept from a session that ended unasked (kept-drafts.ts); `takeStored` discards them. */
  readonly restored: { readonly secretsDropped: boolean } | null;
}

/** Where on its page a form is (a tenant's view), beside the page's fragment: a kept draft's key. */
export const DraftPlace = createContext('');

export interface DraftOptions<T> {
  same?: (one: T, other: T) => boolean;
  /** Kept when the session ends unasked, and restored after the operator signs in again. */
  keep?: KeepAs<T>;
}

/** The kept draft of the form `key`, restored over `stored` (its base stays the stored value it was made from, so a
 *  change since makes it outdated). */
function restoredDraft<T>(stored: T, key: string | null): (KeptDraft & { base: T; draft: T }) | null {
  const session = getSession();
  const kept = key === null || session === null ? null : findKeptDraft(session, key);
  if (kept === null) return null;
  // Compared as stored: JSON leaves out what is undefined.
  const base = JSON.stringify(stored) === JSON.stringify(kept.base) ? stored : (kept.base as T);
  return { ...kept, base, draft: kept.draft as T };
}

/** Unsaved (leaving asks) while it differs from `stored`. A newer `stored` replaces a draft without edits; one with edits
 *  is kept and `outdated`, so a change made elsewhere never drops the operator's work unseen. */
export function useDraft<T>(stored: T, { same = sameValues, keep }: DraftOptions<T> = {}): [T, Dispatch<SetStateAction<T>>, DraftSync] {
  const place = useContext(DraftPlace);
  // The page (application and tab) the form is on, its part of the page and its own name.
  const [key] = useState(() => (keep === undefined ? null : `${location.hash}|${place}|${keep.name}`));
  const [restored, setRestored] = useState(() => restoredDraft(stored, key));
  // The stored value the draft was made from, and whether the next newer one answers a save.
  const [base, setBase] = useState(restored?.base ?? stored);
  const [draft, setDraft] = useState(restored?.draft ?? stored);
  const [answering, setAnswering] = useState(false);
  const edited = !same(draft, base);
  if (!same(base, stored) && (answering || !edited || same(draft, stored))) {
    setBase(stored);
    setDraft(stored);
    setAnswering(false);
  }
  const unsaved = !same(draft, stored);
  // Saved or discarded, the restored edits are the operator's like any.
  if (restored !== null && !unsaved) setRestored(null);
  useUnsavedChanges(unsaved);
  useEffect(() => {
    const session = getSession();
    if (key !== null && session !== null) takeKeptDraft(session, key);
  }, [key]);
  // Read as the session ends: the draft then, never a secret in it.
  const latest = useRef({ base, draft, keep, same });
  latest.current = { base, draft, keep, same };
  useEffect(() => {
    if (!unsaved || key === null) return undefined;
    return liveDraft(() => {
      const { base: from, draft: now, keep: keepAs, same: sameAs } = latest.current;
      const kept = keepAs?.withoutSecrets?.(now) ?? now;
      return [key, { base: from, draft: kept, secretsDropped: !sameAs(kept, now) }];
    });
  }, [unsaved, key]);
  const edit = useCallback((next: SetStateAction<T>) => {
    // An edit after a save is not the save's: a newer stored value no longer replaces it.
    setAnswering(false);
    setDraft(next);
  }, []);
  const sync: DraftSync = {
    outdated: !same(base, stored),
    takeStored: () => {
      setBase(stored);
      setDraft(stored);
    },
    saved: () => setAnswering(edited),
    restored: restored === null ? null : { secretsDropped: restored.secretsDropped },
  };
  return [draft, edit, sync];
}

/** A create form's draft; `startAgain(next)`, once its thing is made, starts the form from `next` unasked. */
export function useNewDraft<T>(blank: T): [T, Dispatch<SetStateAction<T>>, (next: T) => void] {
  const [start, setStart] = useState(blank);
  const [draft, setDraft] = useDraft(start);
  const startAgain = (next: T) => {
    setStart(next);
    setDraft(next);
  };
  return [draft, setDraft, startAgain];
}
