import { useCallback, useState } from 'react';
import { clientIssuer } from '../client-issuer.ts';
import { ClientSetup } from '../components/client-setup.tsx';
import { PagedTable } from '../components/paged-table.tsx';
import { RotatedSecret } from '../components/rotated-secret.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { UnlistedRow } from '../components/unlisted-row.tsx';
import { readConfig } from '../config.ts';
import { useAsync } from '../hooks/use-async.ts';
import { useOpenRow } from '../hooks/use-open-row.ts';
import { usePages, type Pages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { UnsavedParts, useUnsavedPart } from '../hooks/use-unsaved-changes.ts';
import {
  getClientsContext,
  listOAuthClients,
  withoutSecret,
  type ClientsContext,
  type OAuthClient,
  type OAuthClientWithSecret,
} from '../operations-oauth-clients.ts';
import { offersAny } from '../operations-own-permissions.ts';
import type { ApplicationScreenProps } from './application.tsx';
import { CreateOAuthClientForm } from './create-oauth-client-form.tsx';
import { EditOAuthClientForm } from './edit-oauth-client-form.tsx';
import { OAuthClientRow, type ClientActions } from './oauth-client-row.tsx';

interface ClientTableProps {
  appId: string;
  clients: Pages<OAuthClient>;
  context: ClientsContext;
  offers: ClientActions;
  onEdit: (client: OAuthClient) => void;
  onRotated: (client: OAuthClientWithSecret) => void;
  onDeleted: (client: OAuthClient) => void;
}

function ClientTable({ appId, clients, context, offers, ...actions }: ClientTableProps) {
  return (
    <section aria-labelledby="oauth-clients-heading">
      <h2 id="oauth-clients-heading">OAuth clients</h2>
      <PagedTable
        pages={clients}
        columns={['Name', 'Type', 'client_id', 'Redirect URIs', ...(context.multiTenant ? ['Tenant'] : [])]}
        actionsHeading={offersAny(offers) ? 'Actions' : undefined}
        emptyMessage="This application has no OAuth clients yet: create one below to add sign-in to your app."
        loadingLabel="Loading the OAuth clients…"
        row={(client) => <OAuthClientRow key={client.clientId} appId={appId} client={client} context={context} offers={offers} {...actions} />}
      />
    </section>
  );
}

/** The issuer every app of this application is configured with, and a tenant's own while authentication is isolated. */
function SignInSettings({ issuer, isolated }: { issuer: URL; isolated: boolean }) {
  return (
    <section aria-labelledby="sign-in-settings-heading">
      <h2 id="sign-in-settings-heading">Your app’s sign-in settings</h2>
      <ClientSetup issuer={clientIssuer(issuer, null, isolated)} />
      {isolated && (
        <p className="hint">
          {`Authentication is isolated per tenant: a tenant's client signs in at its tenant's issuer, ${clientIssuer(issuer, '{tenant id}', true)}.`}
        </p>
      )}
    </section>
  );
}

/**
 * The application's OAuth clients (Auth0's "Applications"): the apps that sign their users in through Gatehouse; Edit,
 * Rotate secret, Delete and Create client as the operator's permissions allow.
 */
export function OAuthClients({ appId, may }: ApplicationScreenProps) {
  const offers: ClientActions = { edit: may('oauth_clients:write'), delete: may('oauth_clients:delete') };
  const [{ issuer }] = useState(readConfig);
  const context = useAsync(useCallback(() => getClientsContext(appId, may), [appId, may]));
  useReadOnReturn(context);
  const clients = usePages(
    useCallback((cursor: string | null) => listOAuthClients(appId, cursor), [appId]),
    (client) => client.clientId,
  );
  useReadOnReturn(clients);
  const unsaved = useUnsavedPart();
  const editing = useOpenRow('oauth-clients', clients.items, (client) => client.clientId, unsaved);
  // Each client's newest secret, until its own dismissal: shown once, another rotation must not take it off the page.
  const [rotated, setRotated] = useState<readonly OAuthClientWithSecret[]>([]);

  if (context.status === 'loading') return <Loading>Loading the OAuth clients…</Loading>;
  if (context.status === 'failed') return <ErrorMessage message={context.message} />;
  const rotate = (client: OAuthClientWithSecret) => {
    clients.replace(client.clientId, withoutSecret(client));
    setRotated((shown) => [...shown.filter((each) => each.clientId !== client.clientId), client]);
  };
  const deleted = (client: OAuthClient) => {
    editing.forget(client);
    clients.drop(client.clientId);
  };
  return (
    <>
      <ClientTable appId={appId} clients={clients} context={context.data} offers={offers} onEdit={editing.open} onRotated={rotate} onDeleted={deleted} />
      {rotated.map((rotation) => (
        <RotatedSecret key={rotation.clientId} rotation={rotation} onDismiss={() => setRotated((shown) => shown.filter((each) => each.clientId !== rotation.clientId))} />
      ))}
      <UnlistedRow panel={editing} gone={(client) => `The OAuth client ${client.name} was deleted elsewhere.`} />
      {editing.row !== undefined && offers.edit && (
        <UnsavedParts value={unsaved.parts}>
          <EditOAuthClientForm
            key={editing.row.clientId}
            appId={appId}
            client={editing.row}
            onSaved={(client) => {
              editing.forget();
              clients.replace(client.clientId, client);
            }}
            onCancel={editing.close}
          />
        </UnsavedParts>
      )}
      {offers.edit && <CreateOAuthClientForm appId={appId} context={context.data} issuer={issuer} onCreated={clients.add} may={may} />}
      <SignInSettings issuer={issuer} isolated={context.data.isolated} />
    </>
  );
}
