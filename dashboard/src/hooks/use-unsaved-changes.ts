import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';

// The forms holding edits not saved yet: leaving them asks first, rather than dropping the edits unseen.
const unsaved = new Set<symbol>();

const QUESTION = 'Discard the changes you have not saved?';

const mayDiscard = (forms: ReadonlySet<symbol>) => forms.size === 0 || window.confirm(QUESTION);

/** Whether the operator may leave what the page shows: nothing is unsaved, or they agree to lose it. */
export function mayDiscardChanges(): boolean {
  return mayDiscard(unsaved);
}

/** The unsaved forms of each part (useUnsavedPart) around a form, outermost first. */
export const UnsavedParts = createContext<readonly Set<symbol>[]>([]);

export interface UnsavedPart {
  /** The value of the `UnsavedParts` provider around the part. */
  readonly parts: readonly Set<symbol>[];
  /** `move` that runs only if the part's forms may lose their edits: it asks only when one of them holds some. */
  guard: <A extends unknown[]>(move: (...args: A) => void) => (...args: A) => void;
  /** Whether one of the part's forms holds edits, as their last commit left them (stable, for effects). */
  holdsEdits: () => boolean;
}

/**
 * A part of a page whose own moves (another policy chosen, another row's Edit, Cancel) drop the forms in it: they ask
 * about those forms alone, not about an unsaved form elsewhere on the page, which they leave as it is.
 */
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

/** While `dirty`: in-page moves ask through mayDiscardChanges (or their part's guard), closing or reloading through `beforeunload`. */
export function useUnsavedChanges(dirty: boolean): void {
  const parts = useContext(UnsavedParts);
  useEffect(() => {
    if (!dirty) return undefined;
    const form = Symbol('unsaved form');
    const onUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    const registers = [unsaved, ...parts];
    for (const forms of registers) forms.add(form);
    addEventListener('beforeunload', onUnload);
    return () => {
      for (const forms of registers) forms.delete(form);
      removeEventListener('beforeunload', onUnload);
    };
  }, [dirty, parts]);
}
