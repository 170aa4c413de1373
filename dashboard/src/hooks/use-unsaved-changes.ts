import { useEffect } from 'react';

// The forms holding edits not saved yet: leaving them asks first, rather than dropping the edits unseen.
const unsaved = new Set<symbol>();

const QUESTION = 'Discard the changes you have not saved?';

/** Whether the operator may leave what the page shows: nothing is unsaved, or they agree to lose it. */
export function mayDiscardChanges(): boolean {
  return unsaved.size === 0 || window.confirm(QUESTION);
}

/** While `dirty`: in-page moves ask through mayDiscardChanges, closing or reloading through `beforeunload`. */
export function useUnsavedChanges(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return undefined;
    const form = Symbol('unsaved form');
    const onUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    unsaved.add(form);
    addEventListener('beforeunload', onUnload);
    return () => {
      unsaved.delete(form);
      removeEventListener('beforeunload', onUnload);
    };
  }, [dirty]);
}
