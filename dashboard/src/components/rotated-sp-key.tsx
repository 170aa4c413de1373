import { useId } from 'react';
import type { SamlSpKey } from '../operations-auth.ts';
import { Timestamp } from './timestamp.tsx';

/** A SAML provider's new SP certificate (public: shown as long as wanted), and until when the previous key works. */
export function RotatedSpKey({ name, spKey, onDismiss }: { name: string; spKey: SamlSpKey; onDismiss: () => void }) {
  const headingId = useId();
  const certificateId = useId();
  return (
    <section aria-labelledby={headingId} className="created">
      <h3 id={headingId}>{`New SP key of ${name}`}</h3>
      <p>
        It signs the sign-in requests from now on. Register its certificate at the identity provider, or let it read the
        SP metadata at <code>{spKey.metadataUrl}</code>.
      </p>
      {spKey.previousCertificateExpiresAt !== null && (
        <p>
          The previous key keeps decrypting assertions until <Timestamp value={spKey.previousCertificateExpiresAt} />, then leaves the metadata.
        </p>
      )}
      <label htmlFor={certificateId}>SP certificate (PEM)</label>
      <textarea id={certificateId} readOnly rows={8} spellCheck={false} value={spKey.certificate} onFocus={(event) => event.currentTarget.select()} />
      <button type="button" onClick={onDismiss}>Done</button>
    </section>
  );
}
