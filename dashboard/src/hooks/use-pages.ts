import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../api.ts';
import { errorMessage } from '../error-message.ts';
import type { Page } from '../operations.ts';

export interface Pages<T> {
  readonly items: readonly T[];
  readonly loading: boolean;
  /** The message of the last failed load, null once one succeeds. */
  readonly error: string | null;
  /** Whether that load was refused for a permission the operator lacks, which reading again would be refused too. */
  readonly refused: boolean;
  readonly hasMore: boolean;
  /** Loads the next page, or makes again the read that failed (a refresh's too). */
  loadMore: () => void;
  /** Merges the server's answer about one row into it (a partial answer keeps the fields it leaves out). */
  replace: (key: string, changed: Partial<T>) => void;
  /** At its place in the id order, last, once the end is loaded; before that, first, until its page comes (not shown twice). */
  add: (item: T) => void;
  /** Puts `item` first (in a newest-first list, one made after the first page was read). */
  prepend: (item: T) => void;
  drop: (key: string) => void;
  /** Reads the pages shown again, keeping them on screen until the answer replaces them (a change the client cannot compute). */
  refresh: () => void;
}

const byId = (item: { readonly id: string }) => item.id;

/** A list read page by page with `next` cursors: the first page on mount (and when `loadPage` changes), then on demand. */
export function usePages<T extends { readonly id: string }>(loadPage: (cursor: string | null) => Promise<Page<T>>): Pages<T>;
export function usePages<T>(loadPage: (cursor: string | null) => Promise<Page<T>>, keyOf: (item: T) => string): Pages<T>;
export function usePages<T>(loadPage: (cursor: string | null) => Promise<Page<T>>, keyOf: (item: T) => string = byId as never): Pages<T> {
  const [items, setItems] = useState<readonly T[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [refused, setRefused] = useState(false);
  // Counts loads, so the answer of one started before `loadPage` changed (another application) is dropped.
  const generation = useRef(0);
  const pagesShown = useRef(0);
  // The read that failed, which loadMore tries again (a refresh's is not the next page's).
  const failed = useRef<(() => void) | undefined>(undefined);

  const read = useCallback(
    (cursor: string | null, count: number, settle: (rows: readonly T[]) => void) => {
      const mine = ++generation.current;
      failed.current = undefined;
      setLoading(true);
      const readPages = async () => {
        const rows: T[] = [];
        let page: Page<T> = { data: [], next: cursor };
        for (let pagesRead = 0; pagesRead < count && (pagesRead === 0 || page.next !== null); pagesRead += 1) {
          page = await loadPage(page.next);
          rows.push(...page.data);
        }
        return { rows, next: page.next };
      };
      readPages().then(
        (answer) => {
          if (mine !== generation.current) return;
          settle(answer.rows);
          setNext(answer.next);
          setError(null);
          setRefused(false);
          setLoading(false);
        },
        (failure: unknown) => {
          if (mine !== generation.current) return;
          failed.current = () => read(cursor, count, settle);
          setError(errorMessage(failure));
          setRefused(failure instanceof ApiError && failure.code === 'forbidden');
          setLoading(false);
        },
      );
    },
    [loadPage],
  );

  useEffect(() => {
    setItems([]);
    setNext(null);
    pagesShown.current = 0;
    read(null, 1, (rows) => {
      pagesShown.current = 1;
      setItems(rows);
    });
  }, [read]);

  const keyed = (key: string) => (item: T) => keyOf(item) === key;
  // Stable, so a subscription handing it records need not restart at each render.
  const prepend = useCallback((item: T) => setItems((current) => [item, ...current]), []);

  return {
    items,
    loading,
    error,
    refused,
    hasMore: next !== null,
    loadMore: () => {
      if (failed.current !== undefined) return failed.current();
      read(next, 1, (rows) => {
        pagesShown.current += 1;
        // Rows added first while this page was still to come are dropped from it.
        setItems((current) => {
          const shown = new Set(current.map(keyOf));
          return [...current, ...rows.filter((row) => !shown.has(keyOf(row)))];
        });
      });
    },
    replace: (key, changed) => setItems((current) => current.map((item) => (keyed(key)(item) ? { ...item, ...changed } : item))),
    add: (item) => setItems((current) => (next === null && !loading ? [...current, item] : [item, ...current])),
    prepend,
    drop: (key) => setItems((current) => current.filter((item) => !keyed(key)(item))),
    refresh: () =>
      read(null, Math.max(1, pagesShown.current), (rows) => {
        pagesShown.current = Math.max(1, pagesShown.current);
        setItems(rows);
      }),
  };
}
