import type { OpenRow } from '../hooks/use-open-row.ts';

interface UnlistedRowProps<T> {
  panel: Pick<OpenRow<T, unknown>, 'row' | 'unlisted' | 'close'>;
  /** Why the row left the list, as a sentence naming it: "The role Auditor was deleted elsewhere." */
  gone: (row: T) => string;
}

/** Where a panel's row left the list: says so above the panel kept for its edits, or instead of the panel closed. */
export function UnlistedRow<T>({ panel, gone }: UnlistedRowProps<T>) {
  if (panel.unlisted === undefined) return null;
  return (
    <p role="status" className="warning">
      {gone(panel.unlisted)}
      {panel.row === undefined ? (
        <>
          {' '}
          <button type="button" className="link" onClick={panel.close}>Dismiss</button>
        </>
      ) : (
        ' Your edits are kept below until you close them.'
      )}
    </p>
  );
}
