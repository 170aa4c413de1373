import { useCallback, useState } from 'react';
import { clientIssuer } from '../client-issuer.ts';
import { CredentialRoles } from '../components/credential-roles.tsx';
import { PagedTable } from '../components/paged-table.tsx';
import { RotatedSecret } from '../components/rotated-secret.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { readConfig } from '../config.ts';
import { useAsync } from '../hooks/use-async.ts';
import { usePages, type Pages } from '../hooks/use-pages.ts';
import { UnsavedParts, useUnsavedPart } from '../hooks/use-unsaved-changes.ts';
import { getGrantChoices, type GrantChoices } from '../operations-grants.ts';
import { listM2MCredentials, type M2MCredential, type M2MCredentialWithSecret } from '../operations-m2m-credentials.ts';
import { getClientsContext, withoutSecret, type ClientsContext } from '../operations-oauth-clients.ts';
import { placeName } from '../role-choices.ts';
import { CreateM2MCredentialForm } from './create-m2m-credential-form.tsx';
import { CreatedOAuthClient } from './created-oauth-client.tsx';
import { M2MCredentialRow } from './m2m-credential-row.tsx';
import { M2MJwksForm } from './m2m-jwks-form.tsx';

interface CredentialTableProps {
  appId: string;
  credentials: Pages<M2MCredential>;
  context: ClientsContext;
  onRotated: (rotated: M2MCredentialWithSecret) => void;
  onEditKeys: (credential: M2MCredential) => void;
  /** The credential whose roles panel is open, if any. */
  rolesOf: M2MCredential | null;
  onRoles: (credential: M2MCredential) => void;
}

function CredentialTable({ appId, credentials, context, onRotated, onEditKeys, rolesOf, onRoles }: CredentialTableProps) {
  const replace = (changed: M2MCredential) => credentials.replace(changed.clientId, changed);
  return (
    <PagedTable
      pages={credentials}
      columns={['Name', 'client_id', 'Tenant', 'Permissions', 'Authentication', 'Created', 'Status']}
      actionsHeading="Actions"
      emptyMessage="This application has no M2M credentials yet."
      loadingLabel="Loading M2M credentials…"
      row={(credential) => (
        <M2MCredentialRow
          key={credential.clientId}
          appId={appId}
          credential={credential}
          placeName={placeName(context, credential.tenantId)}
          onRotated={(rotated) => {
            replace(withoutSecret(rotated));
            onRotated(rotated);
          }}
          onRevoked={replace}
          onEditKeys={onEditKeys}
          rolesOpen={rolesOf?.clientId === credential.clientId}
          onRoles={onRoles}
        />
      )}
    />
  );
}

async function loadSetup(appId: string): Promise<{ choices: GrantChoices; context: ClientsContext }> {
  const [choices, context] = await Promise.all([getGrantChoices(appId), getClientsContext(appId)]);
  return { choices, context };
}

/**
 * Machine-to-machine credentials (the client credentials grant), every one of the application, its tenants' included:
 * Create credential, Roles, Rotate, Revoke, and Replace keys of a private_key_jwt one. A secret is shown once.
 */
export function M2MCredentials({ appId }: { appId: string }) {
  const [{ issuer }] = useState(readConfig);
  const setup = useAsync(useCallback(() => loadSetup(appId), [appId]));
  const credentials = usePages(
    useCallback((cursor: string | null) => listM2MCredentials(appId, cursor), [appId]),
    (credential) => credential.clientId,
  );
  const [created, setCreated] = useState<M2MCredentialWithSecret | null>(null);
  const [rotated, setRotated] = useState<M2MCredentialWithSecret | null>(null);
  const [editingKeys, setEditingKeys] = useState<M2MCredential | null>(null);
  const unsaved = useUnsavedPart();
  const [rolesOf, setRolesOf] = useState<M2MCredential | null>(null);
  const rolesPanel = useUnsavedPart();

  if (setup.status === 'loading') return <Loading>Loading the permissions…</Loading>;
  if (setup.status === 'failed') return <ErrorMessage message={setup.message} />;
  const { choices, context } = setup.data;
  const create = (credential: M2MCredentialWithSecret) => {
    setCreated(credential);
    credentials.add(withoutSecret(credential));
  };
  const keysSaved = (credential: M2MCredential) => {
    setEditingKeys(null);
    credentials.replace(credential.clientId, credential);
  };

  return (
    <>
      <section aria-labelledby="m2m-credentials-heading">
        <h2 id="m2m-credentials-heading">M2M credentials</h2>
        <p className="hint">For services that call the management API on their own: they get tokens with the client credentials grant.</p>
        {created !== null && (
          <CreatedOAuthClient
            client={created}
            issuer={clientIssuer(issuer, created.tenantId, context.isolated)}
            instructions="Your service requests its tokens at this issuer's token endpoint (see its discovery URL) with these values."
            onDismissSecret={() => setCreated({ ...created, clientSecret: null })}
          />
        )}
        {rotated !== null && <RotatedSecret rotation={rotated} onDismiss={() => setRotated(null)} />}
        <CredentialTable
          appId={appId}
          credentials={credentials}
          context={context}
          onRotated={setRotated}
          onEditKeys={unsaved.guard(setEditingKeys)}
          rolesOf={rolesOf}
          onRoles={rolesPanel.guard(setRolesOf)}
        />
      </section>
      {rolesOf !== null && (
        <UnsavedParts value={rolesPanel.parts}>
          <CredentialRoles
            key={rolesOf.clientId}
            appId={appId}
            type="m2m_credential"
            credential={{ ...rolesOf, id: rolesOf.clientId }}
            onClose={rolesPanel.guard(() => setRolesOf(null))}
          />
        </UnsavedParts>
      )}
      {editingKeys !== null && (
        <UnsavedParts value={unsaved.parts}>
          <M2MJwksForm key={editingKeys.clientId} appId={appId} credential={editingKeys} onSaved={keysSaved} onCancel={unsaved.guard(() => setEditingKeys(null))} />
        </UnsavedParts>
      )}
      <CreateM2MCredentialForm appId={appId} choices={choices} onCreated={create} />
    </>
  );
}
