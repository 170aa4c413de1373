import { useId } from 'react';
import { useUnsavedChanges } from '../hooks/use-unsaved-changes.ts';

interface SecretOnceProps {
  label: string;
  secret: string;
  /** Called once the user says they have kept it: the secret leaves the page for good. */
  onDismiss: () => void;
}

/** A secret the server hands out once (a new key's or client's, a rotated one's): read-only to copy, with that warning. */
export function SecretOnce({ label, secret, onDismiss }: SecretOnceProps) {
  const id = useId();
  // Lost for good once it leaves the page: until "I have copied it", leaving asks first, as unsaved edits do.
  useUnsavedChanges(true);
  return (
    <div className="secret-once">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        readOnly
        autoFocus
        spellCheck={false}
        autoComplete="off"
        value={secret}
        aria-describedby={`${id}-warning`}
        onFocus={(event) => event.currentTarget.select()}
      />
      <p id={`${id}-warning`} className="warning">
        Copy it now and keep it somewhere safe: it is not stored and will not be shown again.
      </p>
      <button type="button" onClick={onDismiss}>I have copied it</button>
    </div>
  );
}
