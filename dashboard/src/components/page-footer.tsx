import type { Pages } from '../hooks/use-pages.ts';
import { ErrorMessage, Loading } from './status.tsx';

/** Under a paged table: the loading line, a failed load with its retry, or the "More" button. */
export function PageFooter<T>({ pages, loadingLabel }: { pages: Pages<T>; loadingLabel: string }) {
  if (pages.loading) return <Loading>{loadingLabel}</Loading>;
  if (pages.error !== null) {
    return (
      <>
        <ErrorMessage message={pages.error} />
        <button type="button" onClick={pages.loadMore}>Try again</button>
      </>
    );
  }
  return pages.hasMore ? <button type="button" onClick={pages.loadMore}>More</button> : null;
}
