import { useState, type Dispatch, type SetStateAction } from 'react';
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

/**
 * A form's draft of `stored`, the draft of what the server holds now (an empty draft for a thing to create): unsaved,
 * so leaving asks first, while the two differ; a newer `stored` (a save's answer, a removed override) replaces it.
 */
export function useDraft<T>(stored: T, same: (one: T, other: T) => boolean = sameValues): [T, Dispatch<SetStateAction<T>>] {
  const [from, setFrom] = useState(stored);
  const [draft, setDraft] = useState(stored);
  if (!same(from, stored)) {
    setFrom(stored);
    setDraft(stored);
  }
  useUnsavedChanges(!same(draft, stored));
  return [draft, setDraft];
}
