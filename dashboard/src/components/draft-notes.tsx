import type { DraftSync } from '../hooks/use-draft.ts';

/** Atop a form: that its edits were kept from a session that ended (save or discard them), and that its stored thing
 *  changed on the server while it held edits (with the new version to load). */
export function DraftNotes({ sync, what }: { sync: DraftSync; what: string }) {
  return (
    <>
      {sync.restored !== null && (
        <p role="status" className="warning">
          {`Your unsaved edits to this ${what} were kept when your session ended: save them, or discard them. `}
          {sync.restored.secretsDropped && 'Secrets are never kept: type them again. '}
          <button type="button" className="link" onClick={sync.takeStored}>Discard the kept edits</button>
        </p>
      )}
      {sync.outdated && (
        <p role="status" className="warning">
          {`This ${what} was changed elsewhere: your edits are kept, and saving them replaces that change. `}
          <button type="button" className="link" onClick={sync.takeStored}>Load the new version</button>
        </p>
      )}
    </>
  );
}
