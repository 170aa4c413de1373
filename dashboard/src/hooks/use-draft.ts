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

/** How a draft stands against the stored thing it edits. */
export interface DraftSync {
  /** The stored thing changed on the server while the draft held edits: the draft is kept, made from the older one. */
  readonly outdated: boolean;
  /** Drops the edits for the stored thing as the server holds it now. */
  takeStored: () => void;
  /** The draft as it stands was saved: the server's answer, when it comes as `stored`, replaces it without a word. */
  saved: () => void;
}

/**
 * A form's draft of `stored`, the draft of what the server holds now (an empty draft for a thing to create): unsaved,
 * so leaving asks first, while the two differ. A newer `stored` replaces a draft without edits, or one just saved (the
 * save's answer); a draft with edits is kept, `outdated`, until the operator takes the stored one or saves theirs.
 */
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

/**
 * A create form's draft, unsaved while it differs from the form as it starts (`blank` at first). Once its thing is
 * made, `startAgain(next)` starts the form from `next` (what it keeps for the next one), which asks nothing.
 */
export function useNewDraft<T>(blank: T): [T, Dispatch<SetStateAction<T>>, (next: T) => void] {
  const [start, setStart] = useState(blank);
  const [draft, setDraft] = useDraft(start);
  const startAgain = (next: T) => {
    setStart(next);
    setDraft(next);
  };
  return [draft, setDraft, startAgain];
}
