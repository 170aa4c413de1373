import { useId } from 'react';
import { SecretOnce } from './secret-once.tsx';
import { Timestamp } from './timestamp.tsx';

/** What a rotation answers (an OAuth client's, an M2M credential's): the new secret, and until when the previous one works. */
export interface Rotation {
  readonly name: string;
  readonly clientSecret: string | null;
  readonly previousSecretExpiresAt: string | null;
}

/** A rotated client's new secret, shown this once, and until when the previous one keeps working. */
export function RotatedSecret({ rotation, onDismiss }: { rotation: Rotation; onDismiss: () => void }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="created">
      <h3 id={headingId}>{`New secret of ${rotation.name}`}</h3>
      {rotation.previousSecretExpiresAt !== null && (
        <p>
          The previous secret keeps working until <Timestamp value={rotation.previousSecretExpiresAt} />, then stops.
        </p>
      )}
      {rotation.clientSecret !== null && <SecretOnce label="New client secret" secret={rotation.clientSecret} onDismiss={onDismiss} />}
    </section>
  );
}
