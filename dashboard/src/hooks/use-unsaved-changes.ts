import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';

// The forms holding edits not saved yet: leaving them asks first, rather than dropping the edits unseen.
const unsaved = new Set<symbol>();

const QUESTION = 'Discard the changes you have not saved?';

const mayDiscard = (forms: ReadonlySet<symbol>) => forms.size === 0 || window.confirm(QUESTION);

export function mayDiscardChanges(): boolean {
  return mayDiscard(unsaved);
}

// Set while the page is being left on purpose, the operator having agreed: beforeunload does not ask them again.
let leaving = false;

/** Leaves the page through `leave` (signing out) once unsaved edits may be dropped; if it fails, closing asks again. */
export async function leavePage(leave: () => Promise<void>): Promise<void> {
  if (!mayDiscardChanges()) return;
  leaving = true;
  try {
    await leave();
  } catch (error) {
    leaving = false;
    throw error;
  }
}

/** The unsaved forms of each part (useUnsavedPart) around a form. */
export const UnsavedParts = createContext<readonly Set<symbol>[]>([]);

export interface UnsavedPart {
  readonly parts: readonly Set<symbol>[];
  /** `move`, run once the part's edits, if any, may be dropped. */
  guard: <A extends unknown[]>(move: (...args: A) => void) => (...args: A) => void;
  /** Whether one of the part's forms holds edits (stable, for effects). */
  holdsEdits: () => boolean;
}

/** A part of a page whose own moves (another row's Edit, Cancel) ask about its forms alone: they leave the others as they are. */
export function useUnsavedPart(): UnsavedPart {
  const outer = useContext(UnsavedParts);
  const [forms] = useState(() => new Set<symbol>());
  const parts = useMemo(() => [...outer, forms], [outer, forms]);
  const holdsEdits = useCallback(() => forms.size > 0, [forms]);
  return {
    parts,
    guard:
      (move) =>
      (...args) => {
        if (mayDiscard(forms)) move(...args);
      },
    holdsEdits,
  };
}

/** While `dirty`, leaving asks first: in-page moves through mayDiscardChanges or a part's guard, closing the page through `beforeunload`. */
export function useUnsavedChanges(dirty: boolean): void {
  const parts = useContext(UnsavedParts);
  useEffect(() => {
    if (!dirty) return undefined;
    const form = Symbol('unsaved form');
    const onUnload = (event: BeforeUnloadEvent) => {
      if (!leaving) event.preventDefault();
    };
    const registers = [unsaved, ...parts];
    for (const forms of registers) forms.add(form);
    addEventListener('beforeunload', onUnload);
    return () => {
      for (const forms of registers) forms.delete(form);
      removeEventListener('beforeunload', onUnload);
    };
  }, [dirty, parts]);
}
