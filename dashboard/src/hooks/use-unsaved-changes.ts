import { useEffect } from 'react';

// The forms holding edits not saved yet. Leaving them (another tab or page, Back, another tenant or template, closing
// or reloading the page) asks first, as Auth0's and Zitadel's consoles do, rather than dropping the edits unseen.
const unsaved = new Set<symbol>();

const QUESTION = 'Discard the changes you have not saved?';

/** Whether the operator may leave what the page shows: nothing is unsaved, or they agree to lose it. */
export function mayDiscardChanges(): boolean {
  return unsaved.size === 0 || window.confirm(QUESTION);
}

/**
 * While `dirty`, the form's edits are guarded: navigations within the page ask through mayDiscardChanges (route.ts,
 * the pickers), and closing or reloading the page asks through the browser's own `beforeunload` question.
 */
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
