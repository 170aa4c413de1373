import { useId } from 'react';
import { discoveryUrl } from '../client-issuer.ts';

/** What an app is configured with to sign in through Gatehouse: its client_id (when one is named), the issuer and its discovery URL. */
export function ClientSetup({ issuer, clientId }: { issuer: string; clientId?: string }) {
  const id = useId();
  return (
    <dl className="details">
      {clientId !== undefined && (
        <div>
          <dt><label htmlFor={id}>client_id</label></dt>
          <dd><input id={id} type="text" readOnly className="client-id" value={clientId} onFocus={(event) => event.currentTarget.select()} /></dd>
        </div>
      )}
      <div>
        <dt>Issuer</dt>
        <dd><code>{issuer}</code></dd>
      </div>
      <div>
        <dt>Discovery URL</dt>
        <dd><code>{discoveryUrl(issuer)}</code></dd>
      </div>
    </dl>
  );
}
