import { useEffect, useState } from 'react';
import { useKeptPlace } from './use-kept.ts';
import type { UnsavedPart } from './use-unsaved-changes.ts';

interface Opened<V> {
  readonly key: string;
  readonly view: V | undefined;
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
 *  without edits closes, `unlisted` saying why. The panel open is kept under `name` when the session ends unasked:
 *  after signing in again, it opens once the list holds its row. */
export function useOpenRow<T, V = undefined>(name: string, items: readonly T[], keyOf: (row: T) => string, part: UnsavedPart): OpenRow<T, V> {
  const [opened, setOpened] = useKeptPlace<Opened<V> | null>(`panel:${name}`, null);
  // The panel's row as last listed; none yet for a panel restored, which waits for the list to hold it.
  const [last, setLast] = useState<T | undefined>(undefined);
  const listed = opened === null ? undefined : items.find((row) => keyOf(row) === opened.key);
  if (opened !== null && listed !== undefined && listed !== last) {
    setLast(listed);
    if (opened.closed) setOpened({ ...opened, closed: false });
  }
  const unlisted = opened !== null && listed === undefined ? last : undefined;
  const gone = unlisted !== undefined;
  const { holdsEdits } = part;
  useEffect(() => {
    // Decided once, as the row leaves: the panel's edits as they stand then.
    if (gone && !holdsEdits()) setOpened((current) => current && { ...current, closed: true });
  }, [gone, holdsEdits, setOpened]);

  const isOpen = (row: T, view?: V) => opened !== null && !opened.closed && opened.key === keyOf(row) && opened.view === view;
  const show = part.guard((next: Opened<V> | null, row?: T) => {
    setOpened(next);
    setLast(row);
  });
  return {
    row: opened === null || opened.closed ? undefined : (listed ?? last),
    view: opened?.view,
    unlisted,
    isOpen,
    open: (row, view) => {
      if (!isOpen(row, view)) show({ key: keyOf(row), view, closed: false }, row);
    },
    close: () => show(null),
    forget: (row) => setOpened((current) => (row === undefined || current?.key === keyOf(row) ? null : current)),
  };
}
