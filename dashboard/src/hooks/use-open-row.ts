import { useEffect, useState } from 'react';
import type { UnsavedPart } from './use-unsaved-changes.ts';

interface Opened<T, V> {
  readonly key: string;
  readonly view: V | undefined;
  readonly last: T;
  /** Closed on its own: the row left the list while its panel held no edits. */
  readonly closed: boolean;
}

export interface OpenRow<T, V> {
  /** As the list holds it now, so a newer version read reaches the panel's draft; once the row left the list, as last
   *  listed while the panel is kept for its edits. */
  readonly row: T | undefined;
  /** For a row with several panels (a user's details or roles). */
  readonly view: V | undefined;
  /** The row of the panel, as last listed, once the list no longer holds it (deleted elsewhere). */
  readonly unlisted: T | undefined;
  isOpen: (row: T, view?: V) => boolean;
  /** Asks first about the edits of the panel it replaces; the one open asks nothing. */
  open: (row: T, view?: V) => void;
  close: () => void;
  /** Closes the panel unasked, as what it held is saved or deleted; given a row, only if the panel is that row's. */
  forget: (row?: T) => void;
}

/** Looked up in `items` by `keyOf` at each render, not held as a copy, so a list read again hands the panel the row as
 *  stored now. A row leaving the list keeps its panel only for its edits, to be read before Close drops them; a panel
 *  without edits closes, `unlisted` saying why. */
export function useOpenRow<T, V = undefined>(items: readonly T[], keyOf: (row: T) => string, part: UnsavedPart): OpenRow<T, V> {
  const [opened, setOpened] = useState<Opened<T, V> | null>(null);
  const listed = opened === null ? undefined : items.find((row) => keyOf(row) === opened.key);
  if (opened !== null && listed !== undefined && listed !== opened.last) setOpened({ ...opened, last: listed, closed: false });
  const unlisted = opened !== null && listed === undefined ? opened.last : undefined;
  const gone = unlisted !== undefined;
  const { holdsEdits } = part;
  useEffect(() => {
    // Decided once, as the row leaves: the panel's edits as they stand then.
    if (gone && !holdsEdits()) setOpened((current) => current && { ...current, closed: true });
  }, [gone, holdsEdits]);

  const isOpen = (row: T, view?: V) => opened !== null && !opened.closed && opened.key === keyOf(row) && opened.view === view;
  const show = part.guard(setOpened);
  return {
    row: opened === null || opened.closed ? undefined : (listed ?? opened.last),
    view: opened?.view,
    unlisted,
    isOpen,
    open: (row, view) => {
      if (!isOpen(row, view)) show({ key: keyOf(row), view, last: row, closed: false });
    },
    close: () => show(null),
    forget: (row) => setOpened((current) => (row === undefined || current?.key === keyOf(row) ? null : current)),
  };
}
