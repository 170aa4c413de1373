import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../error-message.ts';
import type { Page } from '../operations.ts';

export interface Pages<T> {
  readonly items: readonly T[];
  /** Whether a page is being loaded. */
  readonly loading: boolean;
  /** The message of the last failed load, null once one succeeds. */
  readonly error: string | null;
  /** Whether the server has more after the items shown. */
  readonly hasMore: boolean;
  /** Loads the next page, or again the one whose load failed. */
  loadMore: () => void;
  /** Replaces the item `update` returns a new value for (after a row changed on the server). */
  update: (update: (item: T) => T) => void;
  /** Puts `item` first (one made on the server after the first page was read). */
  prepend: (item: T) => void;
  /** Drops the items `gone` picks (deleted on the server). */
  remove: (gone: (item: T) => boolean) => void;
}

/** A list read page by page with `next` cursors: the first page on mount (and when `loadPage` changes), then on demand. */
export function usePages<T>(loadPage: (cursor: string | null) => Promise<Page<T>>): Pages<T> {
  const [items, setItems] = useState<readonly T[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  // Counts loads, so the answer of one started before `loadPage` changed (another application) is dropped.
  const generation = useRef(0);

  const load = useCallback(
    (cursor: string | null, previous: readonly T[]) => {
      const mine = ++generation.current;
      setLoading(true);
      loadPage(cursor).then(
        (page) => {
          if (mine !== generation.current) return;
          setItems([...previous, ...page.data]);
          setNext(page.next);
          setError(null);
          setLoading(false);
        },
        (failure: unknown) => {
          if (mine !== generation.current) return;
          setError(errorMessage(failure));
          setLoading(false);
        },
      );
    },
    [loadPage],
  );

  // Stable, so a subscription handing it records need not restart at each render.
  const prepend = useCallback((item: T) => setItems((current) => [item, ...current]), []);

  useEffect(() => {
    setItems([]);
    setNext(null);
    load(null, []);
  }, [load]);

  return {
    items,
    loading,
    error,
    hasMore: next !== null,
    loadMore: () => load(next, items),
    update: (update) => setItems((current) => current.map(update)),
    prepend,
    remove: (gone) => setItems((current) => current.filter((item) => !gone(item))),
  };
}
