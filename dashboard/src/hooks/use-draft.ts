import { useCallback, useState, type Dispatch, type SetStateAction } from 'react';
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
}

/** Unsaved (leaving asks) while it differs from `stored`. A newer `stored` replaces a draft without edits; one with edits
 *  is kept and `outdated`, so a change made elsewhere never drops the operator's work unseen. */
export function useDraft<T>(stored: T, same: (one: T, other: T) => boolean = sameValues): [T, Dispatch<SetStateAction<T>>, DraftSync] {
  // The stored value the draft was made from, and whether the next newer one answers a save.
  const [base, setBase] = useState(stored);
  const [draft, setDraft] = useState(stored);
  const [answering, setAnswering] = useState(false);
  const edited = !same(draft, base);
  if (!same(base, stored) && (answering || !edited || same(draft, stored))) {
    setBase(stored);
    setDraft(stored);
    setAnswering(false);
  }
  useUnsavedChanges(!same(draft, stored));
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
