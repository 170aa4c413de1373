import { CopyableValue } from '../components/copyable-value.tsx';
import { IdentifierHeldElsewhere } from '../components/identifier-held-elsewhere.tsx';
import { PermissionList } from '../components/permission-list.tsx';
import { ErrorMessage } from '../components/status.tsx';
import { Timestamp } from '../components/timestamp.tsx';
import { useConfirmedAction } from '../hooks/use-confirmed-action.ts';
import { deleteApiResource, type ApiResource } from '../operations-api-resources.ts';
import { offersAny } from '../operations-own-permissions.ts';

/** The row actions the operator's permissions open. */
export interface ResourceActions {
  readonly edit: boolean;
  readonly delete: boolean;
}

interface ApiResourceRowProps {
  appId: string;
  resource: ApiResource;
  offers: ResourceActions;
  onEdit: (resource: ApiResource) => void;
  onDeleted: (resource: ApiResource) => void;
}

/** One API resource: name, identifier to copy (and why its grants are refused, if held elsewhere), permissions, last change; Edit, and Delete once confirmed, as offered. */
export function ApiResourceRow({ appId, resource, offers, onEdit, onDeleted }: ApiResourceRowProps) {
  const action = useConfirmedAction();
  const remove = () =>
    action.run(
      `Delete ${resource.name}? A grant naming ${resource.identifier} as its resource is refused from now on (invalid_target); tokens already issued for it work until they expire. Its permissions stay the application's.`,
      async () => {
        await deleteApiResource(appId, resource.id);
        onDeleted(resource);
      },
    );

  return (
    <tr>
      <th scope="row">{resource.name}</th>
      <td>
        <CopyableValue label={`Identifier of ${resource.name}`} value={resource.identifier} />
        <IdentifierHeldElsewhere resource={resource} />
      </td>
      <td><PermissionList permissions={resource.permissions} /></td>
      <td><Timestamp value={resource.updatedAt} /></td>
      {offersAny(offers) && (
        <td className="actions">
          {offers.edit && (
            <button type="button" className="small" onClick={() => onEdit(resource)}>
              Edit<span className="visually-hidden">{` ${resource.name}`}</span>
            </button>
          )}
          {offers.delete && (
            <button type="button" className="small" disabled={action.busy} onClick={remove}>
              Delete<span className="visually-hidden">{` ${resource.name}`}</span>
            </button>
          )}
          {action.failure !== null && <ErrorMessage message={action.failure} />}
        </td>
      )}
    </tr>
  );
}
