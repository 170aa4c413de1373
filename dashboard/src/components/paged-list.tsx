import { useCallback, useRef, type ReactNode } from 'react';
import type { Pages } from '../hooks/use-pages.ts';
import { PageFooter } from './page-footer.tsx';

interface PagedListProps<T> {
  pages: Pages<T>;
  /** Shown instead of the list when the first page came back empty. */
  emptyMessage: string;
  loadingLabel: string;
  /** The list of `pages.items`, a table's body row or a list's item each. */
  children: ReactNode;
}

export function PagedList<T>({ pages, emptyMessage, loadingLabel, children }: PagedListProps<T>) {
  const list = useRef<HTMLDivElement>(null);
  // A page loaded with "More" is read from its first row on.
  const focusFrom = useCallback((firstNew: number) => {
    const row = list.current?.querySelectorAll<HTMLElement>('tbody > tr, li')[firstNew];
    if (row === undefined) return;
    row.tabIndex = -1;
    row.focus();
  }, []);
  const empty = !pages.loading && pages.error === null && pages.items.length === 0;
  // Refused its first page, the list has nothing to show: its empty table would pass for one with no rows.
  const refusedOutright = !pages.loading && pages.refused && pages.items.length === 0;
  return (
    <>
      <div ref={list}>{empty ? <p>{emptyMessage}</p> : !refusedOutright && children}</div>
      <PageFooter pages={pages} loadingLabel={loadingLabel} focusFrom={focusFrom} />
    </>
  );
}
