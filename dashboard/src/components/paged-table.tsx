import type { ReactNode } from 'react';
import type { Pages } from '../hooks/use-pages.ts';
import { PagedList } from './paged-list.tsx';

interface PagedTableProps<T> {
  pages: Pages<T>;
  columns: readonly string[];
  /** The visually hidden heading of a last column of buttons; no such column without it. */
  actionsHeading?: string;
  emptyMessage: string;
  loadingLabel: string;
  /** One item's row, with its key. */
  row: (item: T) => ReactNode;
}

export function PagedTable<T>({ pages, columns, actionsHeading, emptyMessage, loadingLabel, row }: PagedTableProps<T>) {
  return (
    <PagedList pages={pages} emptyMessage={emptyMessage} loadingLabel={loadingLabel}>
      <table>
        <thead>
          <tr>
            {columns.map((heading) => <th scope="col" key={heading}>{heading}</th>)}
            {actionsHeading !== undefined && <th scope="col"><span className="visually-hidden">{actionsHeading}</span></th>}
          </tr>
        </thead>
        <tbody>{pages.items.map(row)}</tbody>
      </table>
    </PagedList>
  );
}
