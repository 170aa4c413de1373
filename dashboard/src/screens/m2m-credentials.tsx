import { useCallback, useState } from 'react';
import { clientIssuer } from '../client-issuer.ts';
import { CredentialRoles } from '../components/credential-roles.tsx';
import { PagedTable } from '../components/paged-table.tsx';
import { RotatedSecret } from '../components/rotated-secret.tsx';
import { CatalogueNeeded } from '../components/catalogue-needed.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { UnlistedRow } from '../components/unlisted-row.tsx';
import { readConfig } from '../config.ts';
import { useAsync } from '../hooks/use-async.ts';
import { useOpenRow } from '../hooks/use-open-row.ts';
import { usePages, type Pages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { UnsavedParts, useUnsavedPart } from '../hooks/use-unsaved-changes.ts';
import { getGrantChoices, type GrantChoices } from '../operations-grants.ts';
import { listM2MCredentials, type M2MCredential, type M2MCredentialWithSecret } from '../operations-m2m-credentials.ts';
import { getClientsContext, withoutSecret, type ClientsContext } from '../operations-oauth-clients.ts';
import { mayChoosePermissions, offersAny, type MayDo } from '../operations-own-permissions.ts';
import { placeName } from '../role-choices.ts';
import type { ApplicationScreenProps } from './application.tsx';
import { CreateM2MCredentialForm } from './create-m2m-credential-form.tsx';
import { CreatedOAuthClient } from './created-oauth-client.tsx';
import { M2MCredentialRow, type CredentialActions } from './m2m-credential-row.tsx';
import { M2MJwksForm } from './m2m-jwks-form.tsx';

interface CredentialTableProps {
  appId: string;
  credentials: Pages<M2MCredential>;
  context: ClientsContext;
  onRotated: (rotated: M2MCredentialWithSecret) => void;
  onEditKeys: (credential: M2MCredential) => void;
  offers: CredentialActions;
  /** Whether a credential's roles panel is the one open. */
  rolesOpen: (credential: M2MCredential) => boolean;
  onRoles: (credential: M2MCredential) => void;
}

function CredentialTable({ appId, credentials, context, onRotated, onEditKeys, offers, rolesOpen, onRoles }: CredentialTableProps) {
  const replace = (changed: M2MCredential) => credentials.replace(changed.clientId, changed);
  return (
    <PagedTable
      pages={credentials}
      columns={['Name', 'client_id', 'Tenant', 'Permissions', 'Authentication', 'Created', 'Status']}
      actionsHeading={offersAny(offers) ? 'Actions' : undefined}
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
          offers={offers}
          rolesOpen={rolesOpen(credential)}
          onRoles={onRoles}
        />
      )}
    />
  );
}

async function loadSetup(appId: string, may: MayDo, creating: boolean): Promise<{ choices: GrantChoices; context: ClientsContext }> {
  const [choices, context] = await Promise.all([getGrantChoices(appId, creating), getClientsContext(appId, may)]);
  return { choices, context };
}

/**
 * Machine-to-machine credentials (the client credentials grant), every one of the application, its tenants' included:
 * Create credential, Roles, Rotate, Revoke, and Replace keys of a private_key_jwt one, as the operator's permissions
 * allow. A secret is shown once.
 */
export function M2MCredentials({ appId, may }: ApplicationScreenProps) {
  const offers: CredentialActions = {
    roles: may('role_assignments:read') && may('roles:read'),
    rotate: may('m2m_credentials:write'),
    revoke: may('m2m_credentials:delete'),
  };
  const [{ issuer }] = useState(readConfig);
  const creating = mayChoosePermissions(may, 'm2m_credentials:write');
  const setup = useAsync(useCallback(() => loadSetup(appId, may, creating), [appId, may, creating]));
  useReadOnReturn(setup);
  const credentials = usePages(
    useCallback((cursor: string | null) => listM2MCredentials(appId, cursor), [appId]),
    (credential) => credential.clientId,
  );
  useReadOnReturn(credentials);
  // Secrets are shown once, so each stays until its own dismissal: the newest credential's setup and any earlier one's
  // secret still owed; a credential's newest rotation.
  const [created, setCreated] = useState<readonly M2MCredentialWithSecret[]>([]);
  const [rotated, setRotated] = useState<readonly M2MCredentialWithSecret[]>([]);
  const rotate = (credential: M2MCredentialWithSecret) => setRotated((shown) => [...shown.filter((each) => each.clientId !== credential.clientId), credential]);
  const unsaved = useUnsavedPart();
  const editingKeys = useOpenRow('m2m-keys', credentials.items, (credential) => credential.clientId, unsaved);
  const rolesPanel = useUnsavedPart();
  const rolesOf = useOpenRow('m2m-roles', credentials.items, (credential) => credential.clientId, rolesPanel);

  if (setup.status === 'loading') return <Loading>Loading the permissions…</Loading>;
  if (setup.status === 'failed') return <ErrorMessage message={setup.message} />;
  const { choices, context } = setup.data;
  const create = (credential: M2MCredentialWithSecret) => {
    setCreated((shown) => [...shown.filter((earlier) => earlier.clientSecret !== null), credential]);
    credentials.add(withoutSecret(credential));
  };
  const keysSaved = (credential: M2MCredential) => {
    editingKeys.forget();
    credentials.replace(credential.clientId, credential);
  };

  return (
    <>
      <section aria-labelledby="m2m-credentials-heading">
        <h2 id="m2m-credentials-heading">M2M credentials</h2>
        <p className="hint">For services that call the management API on their own: they get tokens with the client credentials grant.</p>
        {created.map((credential) => (
          <CreatedOAuthClient
            key={credential.clientId}
            client={credential}
            issuer={clientIssuer(issuer, credential.tenantId, context.isolated)}
            instructions="Your service requests its tokens at this issuer's token endpoint (see its discovery URL) with these values."
            onDismissSecret={() => setCreated((shown) => shown.map((each) => (each.clientId === credential.clientId ? { ...each, clientSecret: null } : each)))}
          />
        ))}
        {rotated.map((rotation) => (
          <RotatedSecret key={rotation.clientId} rotation={rotation} onDismiss={() => setRotated((shown) => shown.filter((each) => each.clientId !== rotation.clientId))} />
        ))}
        <CredentialTable
          appId={appId}
          credentials={credentials}
          context={context}
          onRotated={rotate}
          onEditKeys={editingKeys.open}
          offers={offers}
          rolesOpen={rolesOf.isOpen}
          onRoles={rolesOf.open}
        />
      </section>
      <UnlistedRow panel={rolesOf} gone={(credential) => `The M2M credential ${credential.name} was deleted elsewhere.`} />
      {rolesOf.row !== undefined && (
        <UnsavedParts value={rolesPanel.parts}>
          <CredentialRoles
            key={rolesOf.row.clientId}
            appId={appId}
            type="m2m_credential"
            credential={{ ...rolesOf.row, id: rolesOf.row.clientId }}
            may={may}
            onClose={rolesOf.close}
          />
        </UnsavedParts>
      )}
      <UnlistedRow panel={editingKeys} gone={(credential) => `The M2M credential ${credential.name} was deleted elsewhere.`} />
      {editingKeys.row !== undefined && offers.rotate && (
        <UnsavedParts value={unsaved.parts}>
          <M2MJwksForm key={editingKeys.row.clientId} appId={appId} credential={editingKeys.row} onSaved={keysSaved} onCancel={editingKeys.close} />
        </UnsavedParts>
      )}
      {creating && <CreateM2MCredentialForm appId={appId} choices={choices} onCreated={create} may={may} />}
      <CatalogueNeeded may={may} permission="m2m_credentials:write" action="Creating a credential" />
    </>
  );
}
