import { useEffect, useRef } from 'react';
import type { Pages } from '../hooks/use-pages.ts';
import { ErrorMessage, Loading } from './status.tsx';

interface PageFooterProps<T> {
  pages: Pages<T>;
  loadingLabel: string;
  /** Takes the focus once a page asked with "More" has come, given the index of its first item. */
  focusFrom: (firstNew: number) => void;
}

/** Under a paged list: the loading line, a failed load with its retry (none for a refusal), or the "More" button. */
export function PageFooter<T>({ pages, loadingLabel, focusFrom }: PageFooterProps<T>) {
  // The button pressed unmounts while its page loads, so the focus is given where the reader goes on from.
  const asked = useRef<number | null>(null);
  const retry = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (pages.loading || asked.current === null) return;
    const firstNew = asked.current;
    asked.current = null;
    if (pages.error !== null) retry.current?.focus();
    else if (pages.items.length > firstNew) focusFrom(firstNew);
  }, [pages.loading, pages.error, pages.items.length, focusFrom]);
  const loadMore = () => {
    asked.current = pages.items.length;
    pages.loadMore();
  };

  if (pages.loading) return <Loading>{loadingLabel}</Loading>;
  if (pages.error !== null) {
    return (
      <>
        <ErrorMessage message={pages.error} />
        {!pages.refused && <button type="button" ref={retry} onClick={loadMore}>Try again</button>}
      </>
    );
  }
  return pages.hasMore ? <button type="button" onClick={loadMore}>More</button> : null;
}
