import { useId } from 'react';
import { ClientSetup } from '../components/client-setup.tsx';
import { SecretOnce } from '../components/secret-once.tsx';
import type { OAuthClientWithSecret } from '../operations-oauth-clients.ts';

interface CreatedOAuthClientProps {
  client: OAuthClientWithSecret;
  issuer: string;
  onDismissSecret: () => void;
}

/** What the app of a client just created is configured with, its secret (a web client's) shown this once. */
export function CreatedOAuthClient({ client, issuer, onDismissSecret }: CreatedOAuthClientProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="created">
      <h3 id={headingId}>{`${client.name} is created`}</h3>
      <p>Configure your app with these values to sign its users in through Gatehouse.</p>
      <ClientSetup issuer={issuer} clientId={client.clientId} />
      {client.clientSecret !== null && <SecretOnce label="Client secret" secret={client.clientSecret} onDismiss={onDismissSecret} />}
    </section>
  );
}
