import { useId } from 'react';

interface SecretRevealProps {
  /** What the secret is for, as the heading says it ("New API key “CI”"). */
  heading: string;
  secret: string;
  onDismiss: () => void;
}

/** A secret the server hands out once (a new key's, a rotated key's): shown read-only until dismissed, with that warning. */
export function SecretReveal({ heading, secret, onDismiss }: SecretRevealProps) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-heading`} className="secret-reveal">
      <h3 id={`${id}-heading`}>{heading}</h3>
      <p id={`${id}-warning`} className="warning">Copy the secret now: it is not stored and will not be shown again.</p>
      <label htmlFor={`${id}-secret`}>Secret</label>
      <input
        id={`${id}-secret`}
        type="text"
        readOnly
        autoFocus
        value={secret}
        aria-describedby={`${id}-warning`}
        spellCheck={false}
        autoComplete="off"
        onFocus={(event) => event.target.select()}
      />
      <button type="button" onClick={onDismiss}>Dismiss</button>
    </section>
  );
}
