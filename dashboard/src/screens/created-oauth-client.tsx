import { useId } from 'react';
import { ClientSetup } from '../components/client-setup.tsx';
import { SecretOnce } from '../components/secret-once.tsx';

interface CreatedOAuthClientProps {
  /** An OAuth client or an M2M credential, as its creation answered. */
  client: { readonly name: string; readonly clientId: string; readonly clientSecret: string | null };
  issuer: string;
  /** What the values are for. */
  instructions: string;
  onDismissSecret: () => void;
}

/** What the app of a client just created is configured with, its secret (if it has one) shown this once. */
export function CreatedOAuthClient({ client, issuer, instructions, onDismissSecret }: CreatedOAuthClientProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="created">
      <h3 id={headingId}>{`${client.name} is created`}</h3>
      <p>{instructions}</p>
      <ClientSetup issuer={issuer} clientId={client.clientId} />
      {client.clientSecret !== null && <SecretOnce label="Client secret" secret={client.clientSecret} onDismiss={onDismissSecret} />}
    </section>
  );
}
