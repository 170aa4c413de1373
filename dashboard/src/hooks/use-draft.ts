import { useCallback, useState, type Dispatch, type SetStateAction } from 'react';
import type { KeepAs, KeptDraft } from '../kept-drafts.ts';
import { useKeptOnEnd, useRestoredKept } from './use-kept.ts';
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

export interface DraftOptions<T> {
  same?: (one: T, other: T) => boolean;
  /** Kept when the session ends unasked, and restored after the operator signs in again. */
  keep?: KeepAs<T>;
  /** A create form's: no stored thing to fall behind, so a kept draft is restored over the form's start. */
  creates?: boolean;
}

/** The kept draft restored over `stored`; its base stays the stored value it was made from, so a change since makes it
 *  outdated (a create form's is `stored`: its start). */
function restoredDraft<T>(stored: T, kept: KeptDraft | undefined, creates: boolean): (KeptDraft & { base: T; draft: T }) | null {
  if (kept === undefined) return null;
  // Compared as stored: JSON leaves out what is undefined.
  const base = creates || JSON.stringify(stored) === JSON.stringify(kept.base) ? stored : (kept.base as T);
  return { ...kept, base, draft: kept.draft as T };
}

/** Unsaved (leaving asks) while it differs from `stored`. A newer `stored` replaces a draft without edits; one with edits
 *  is kept and `outdated`, so a change made elsewhere never drops the operator's work unseen. */
export function useDraft<T>(stored: T, { same = sameValues, keep, creates = false }: DraftOptions<T> = {}): [T, Dispatch<SetStateAction<T>>, DraftSync] {
  const { key, kept } = useRestoredKept(keep?.name ?? null);
  const [restored, setRestored] = useState(() => restoredDraft(stored, kept as KeptDraft | undefined, creates));
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
  // Read as the session ends: the draft then, never a secret in it; one dropped before and not typed again is still owed.
  useKeptOnEnd(key, unsaved, (): KeptDraft => {
    const safe = keep?.withoutSecrets?.(draft) ?? draft;
    return { base, draft: safe, secretsDropped: (restored?.secretsDropped ?? false) || !same(safe, draft) };
  });
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
export function useNewDraft<T>(blank: T, keep?: KeepAs<T>): [T, Dispatch<SetStateAction<T>>, (next: T) => void, DraftSync] {
  const [start, setStart] = useState(blank);
  const [draft, setDraft, sync] = useDraft(start, { keep, creates: true });
  const startAgain = (next: T) => {
    setStart(next);
    setDraft(next);
  };
  return [draft, setDraft, startAgain, sync];
}
