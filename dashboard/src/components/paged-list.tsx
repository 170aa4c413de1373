import type { ReactNode } from 'react';
import type { Pages } from '../hooks/use-pages.ts';
import { PageFooter } from './page-footer.tsx';

interface PagedListProps<T> {
  pages: Pages<T>;
  /** Shown instead of the list when the first page came back empty. */
  emptyMessage: string;
  loadingLabel: string;
  /** The list of `pages.items`. */
  children: ReactNode;
}

/** A list read page by page: its empty message or the list, then the page footer. */
export function PagedList<T>({ pages, emptyMessage, loadingLabel, children }: PagedListProps<T>) {
  const empty = !pages.loading && pages.error === null && pages.items.length === 0;
  return (
    <>
      {empty ? <p>{emptyMessage}</p> : children}
      <PageFooter pages={pages} loadingLabel={loadingLabel} />
    </>
  );
}
