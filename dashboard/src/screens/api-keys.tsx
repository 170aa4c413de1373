import { useCallback, useState } from 'react';
import { PagedTable } from '../components/paged-table.tsx';
import { CredentialRoles } from '../components/credential-roles.tsx';
import { SecretOnce } from '../components/secret-once.tsx';
import { CatalogueNeeded } from '../components/catalogue-needed.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { TenantPicker } from '../components/tenant-picker.tsx';
import { UnlistedRow } from '../components/unlisted-row.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useOpenRow } from '../hooks/use-open-row.ts';
import { usePages, type Pages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { UnsavedParts, useUnsavedPart } from '../hooks/use-unsaved-changes.ts';
import { listApiKeys, type ApiKey, type ApiKeyWithSecret, type ListedApiKey } from '../operations-api-keys.ts';
import { getGrantChoices } from '../operations-grants.ts';
import { mayChoosePermissions, offersAny } from '../operations-own-permissions.ts';
import type { TenantSummary } from '../operations.ts';
import { ApiKeyRow, type KeyActions } from './api-key-row.tsx';
import type { ApplicationScreenProps } from './application.tsx';
import { CreateApiKeyForm } from './create-api-key-form.tsx';

interface ApiKeyTableProps {
  appId: string;
  keys: Pages<ListedApiKey>;
  /** Null: every key of the application, its tenants' included. */
  tenant: TenantSummary | null;
  onRotated: (rotated: ApiKeyWithSecret) => void;
  offers: KeyActions;
  /** Whether a key's roles panel is the one open. */
  rolesOpen: (apiKey: ListedApiKey) => boolean;
  onRoles: (apiKey: ListedApiKey) => void;
}

function ApiKeyTable({ appId, keys, tenant, onRotated, offers, rolesOpen, onRoles }: ApiKeyTableProps) {
  const replace = (changed: ApiKey) => keys.replace(changed.id, changed);
  return (
    <PagedTable
      pages={keys}
      columns={['Name', 'Tenant', 'Permissions', 'Created', 'Expires', 'Last rotated', 'Status']}
      actionsHeading={offersAny(offers) ? 'Actions' : undefined}
      emptyMessage={tenant === null ? 'This application has no API keys yet.' : `${tenant.name} has no API keys yet.`}
      loadingLabel="Loading API keys…"
      row={(key) => (
        <ApiKeyRow
          key={key.id}
          appId={appId}
          apiKey={key}
          onRotated={(rotated) => {
            replace(rotated.key);
            onRotated(rotated);
          }}
          onRevoked={replace}
          offers={offers}
          rolesOpen={rolesOpen(key)}
          onRoles={onRoles}
        />
      )}
    />
  );
}

/**
 * The management API keys: every key of the application (a multi-tenant one's tenants' too, or one tenant's through
 * the picker), Roles, Rotate and Revoke, and Create API key, as the operator's permissions allow; a new secret is shown
 * once, above the table.
 */
export function ApiKeys({ appId, may }: ApplicationScreenProps) {
  const offers: KeyActions = {
    roles: may('role_assignments:read') && may('roles:read'),
    rotate: may('api_keys:write'),
    revoke: may('api_keys:delete'),
  };
  const creating = mayChoosePermissions(may, 'api_keys:write');
  const choices = useAsync(useCallback(() => getGrantChoices(appId, creating), [appId, creating]));
  useReadOnReturn(choices);
  const [viewed, setViewed] = useState<TenantSummary | null>(null);
  const viewedId = viewed?.id ?? null;
  const keys = usePages(useCallback((cursor: string | null) => listApiKeys(appId, viewedId, cursor), [appId, viewedId]));
  useReadOnReturn(keys);
  // One per key, each until its own dismissal: another key made meanwhile must not take a secret off the page unasked;
  // a key's newer secret replaces its older, which stopped working.
  const [revealed, setRevealed] = useState<readonly { keyId: string; heading: string; secret: string }[]>([]);
  const reveal = (keyId: string, heading: string, secret: string) =>
    setRevealed((shown) => [...shown.filter((each) => each.keyId !== keyId), { keyId, heading, secret }]);
  const rolesPanel = useUnsavedPart();
  const rolesOf = useOpenRow('api-key-roles', keys.items, (key) => key.id, rolesPanel);
  // Another view is another list, read from its start: it closes the roles panel, asking first about its edits.
  const view = rolesPanel.guard((tenant: TenantSummary | null) => {
    rolesOf.forget();
    setViewed(tenant);
  });

  if (choices.status === 'loading') return <Loading>Loading the permissions…</Loading>;
  if (choices.status === 'failed') return <ErrorMessage message={choices.message} />;
  const created = ({ key, secret }: ApiKeyWithSecret, tenant: TenantSummary | null) => {
    reveal(key.id, `New API key “${key.name}”`, secret);
    // The table shows the new key: on another tenant's view, the view of the key's tenant, read anew (if the roles panel may go).
    if (viewed !== null && viewed.id !== tenant?.id) view(tenant);
    // Keys made here act as no user.
    else keys.add({ ...key, tenantName: tenant?.name ?? null, userEmail: null });
  };
  const rotated = ({ key, secret }: ApiKeyWithSecret) => reveal(key.id, `New secret of “${key.name}”`, secret);

  return (
    <>
      <section aria-labelledby="api-keys-heading">
        <h2 id="api-keys-heading">API keys</h2>
        <p className="hint">Long-lived keys for backend services and CI, sent as the X-API-Key header.</p>
        {choices.data.multiTenant && <TenantPicker may={may} action="Showing one tenant's keys" appId={appId} selected={viewed} onSelect={view} label="Show keys of" noTenantLabel="All keys" />}
        {revealed.map(({ keyId, heading, secret }) => (
          <section key={keyId} aria-labelledby={`revealed-${keyId}`} className="created">
            <h3 id={`revealed-${keyId}`}>{heading}</h3>
            <SecretOnce label="Secret" secret={secret} onDismiss={() => setRevealed((shown) => shown.filter((each) => each.keyId !== keyId))} />
          </section>
        ))}
        <ApiKeyTable appId={appId} keys={keys} tenant={viewed} onRotated={rotated} offers={offers} rolesOpen={rolesOf.isOpen} onRoles={rolesOf.open} />
      </section>
      <UnlistedRow panel={rolesOf} gone={(key) => `The API key ${key.name} was deleted elsewhere.`} />
      {rolesOf.row !== undefined && (
        <UnsavedParts value={rolesPanel.parts}>
          <CredentialRoles key={rolesOf.row.id} appId={appId} type="api_key" credential={rolesOf.row} may={may} onClose={rolesOf.close} />
        </UnsavedParts>
      )}
      {creating && <CreateApiKeyForm appId={appId} choices={choices.data} onCreated={created} may={may} />}
      <CatalogueNeeded may={may} permission="api_keys:write" action="Creating an API key" />
    </>
  );
}
