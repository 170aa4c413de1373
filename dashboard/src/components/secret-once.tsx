import { useId } from 'react';

interface SecretOnceProps {
  label: string;
  secret: string;
  /** Called once the user says they have kept it: the secret leaves the page for good. */
  onDismiss: () => void;
}

/** A secret the server shows this once: in a read-only field to copy, with the warning that it cannot be shown again. */
export function SecretOnce({ label, secret, onDismiss }: SecretOnceProps) {
  const id = useId();
  return (
    <div className="secret-once">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="text" readOnly value={secret} aria-describedby={`${id}-warning`} onFocus={(event) => event.currentTarget.select()} />
      <p id={`${id}-warning`} className="warning">
        Copy it now and keep it somewhere safe: it is shown this once and cannot be shown again.
      </p>
      <button type="button" onClick={onDismiss}>I have copied it</button>
    </div>
  );
}
