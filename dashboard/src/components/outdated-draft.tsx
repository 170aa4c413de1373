import type { DraftSync } from '../hooks/use-draft.ts';

/** Under a form whose stored thing changed on the server while it held edits: says so, and offers the new version. */
export function OutdatedDraft({ sync, what }: { sync: DraftSync; what: string }) {
  if (!sync.outdated) return null;
  return (
    <p role="status" className="warning">
      {`This ${what} was changed elsewhere: your edits are kept, and saving them replaces that change. `}
      <button type="button" className="link" onClick={sync.takeStored}>Load the new version</button>
    </p>
  );
}
