import { useCallback } from 'react';
import { PagedTable } from '../components/paged-table.tsx';
import { CatalogueNeeded } from '../components/catalogue-needed.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { UnlistedRow } from '../components/unlisted-row.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useOpenRow } from '../hooks/use-open-row.ts';
import { usePages, type Pages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { UnsavedParts, useUnsavedPart } from '../hooks/use-unsaved-changes.ts';
import { listApiResources, listDefinedPermissions, type ApiResource, type DefinedPermissions } from '../operations-api-resources.ts';
import { mayChoosePermissions, offersAny } from '../operations-own-permissions.ts';
import { ApiResourceForm } from './api-resource-form.tsx';
import { ApiResourceRow, type ResourceActions } from './api-resource-row.tsx';
import type { ApplicationScreenProps } from './application.tsx';

interface ApiResourceTableProps {
  appId: string;
  resources: Pages<ApiResource>;
  offers: ResourceActions;
  onEdit: (resource: ApiResource) => void;
  onDeleted: (resource: ApiResource) => void;
}

function ApiResourceTable({ appId, resources, offers, onEdit, onDeleted }: ApiResourceTableProps) {
  return (
    <section aria-labelledby="api-resources-heading">
      <h2 id="api-resources-heading">API resources</h2>
      <p className="hint">
        Your own APIs. A client naming an API’s identifier as resource gets an ES256 JWT for it, valid for an hour: its
        audience is the identifier, and its permissions are those of the API’s that the subject’s roles hold (Roles tab).
      </p>
      <PagedTable
        pages={resources}
        columns={['Name', 'Identifier', 'Permissions', 'Last changed']}
        actionsHeading={offersAny(offers) ? 'Actions' : undefined}
        emptyMessage="This application has no API resources yet: create one below to issue tokens for your API."
        loadingLabel="Loading the API resources…"
        row={(resource) => <ApiResourceRow key={resource.id} appId={appId} resource={resource} offers={offers} onEdit={onEdit} onDeleted={onDeleted} />}
      />
    </section>
  );
}

const NO_FORM: DefinedPermissions = new Map();

/**
 * The application's API resources (Auth0's "APIs"): the customer's own APIs that access tokens are issued for;
 * creating, editing and deleting one as the operator's permissions allow.
 */
export function ApiResources({ appId, may }: ApplicationScreenProps) {
  const offers: ResourceActions = { edit: mayChoosePermissions(may, 'api_resources:write'), delete: may('api_resources:delete') };
  const writable = offers.edit;
  // The permissions the forms offer: read for an operator shown the forms alone.
  const defined = useAsync(useCallback(async () => (writable ? listDefinedPermissions(appId) : NO_FORM), [appId, writable]));
  useReadOnReturn(defined);
  const resources = usePages(useCallback((cursor: string | null) => listApiResources(appId, cursor), [appId]));
  useReadOnReturn(resources);
  const unsaved = useUnsavedPart();
  const editing = useOpenRow('api-resources', resources.items, (resource) => resource.id, unsaved);

  if (defined.status === 'loading') return <Loading>Loading the API resources…</Loading>;
  if (defined.status === 'failed') return <ErrorMessage message={defined.message} />;
  // A save may define permissions, which the forms offer: they are read again.
  const readDefined = async () => defined.replace(await listDefinedPermissions(appId));
  // An edit or deletion here reads the resources again, so changes made elsewhere meanwhile reach the rows and the open panel.
  const deleted = (resource: ApiResource) => {
    editing.forget(resource);
    resources.drop(resource.id);
    resources.refresh();
  };
  return (
    <>
      <ApiResourceTable appId={appId} resources={resources} offers={offers} onEdit={editing.open} onDeleted={deleted} />
      <UnlistedRow panel={editing} gone={(resource) => `The API resource ${resource.name} was deleted elsewhere.`} />
      {editing.row !== undefined && writable && (
        <UnsavedParts value={unsaved.parts}>
          <ApiResourceForm
            key={editing.row.id}
            appId={appId}
            defined={defined.data}
            resource={editing.row}
            onSaved={async (resource) => {
              resources.replace(resource.id, resource);
              resources.refresh();
              await readDefined();
              editing.forget();
            }}
            onClose={editing.close}
          />
        </UnsavedParts>
      )}
      {writable && (
        <ApiResourceForm
          appId={appId}
          defined={defined.data}
          onSaved={async (resource) => {
            resources.add(resource);
            await readDefined();
          }}
        />
      )}
      <CatalogueNeeded may={may} permission="api_resources:write" action="Creating or editing an API resource" />
    </>
  );
}
