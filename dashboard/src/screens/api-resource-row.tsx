import { CopyableValue } from '../components/copyable-value.tsx';
import { IdentifierHeldElsewhere } from '../components/identifier-held-elsewhere.tsx';
import { PermissionList } from '../components/permission-list.tsx';
import { ErrorMessage } from '../components/status.tsx';
import { Timestamp } from '../components/timestamp.tsx';
import { useConfirmedAction } from '../hooks/use-confirmed-action.ts';
import { deleteApiResource, type ApiResource } from '../operations-api-resources.ts';

interface ApiResourceRowProps {
  appId: string;
  resource: ApiResource;
  onEdit: (resource: ApiResource) => void;
  onDeleted: (resource: ApiResource) => void;
}

/** One API resource: name, identifier to copy (and why its grants are refused, if held elsewhere), permissions, last change; Edit, and Delete once confirmed. */
export function ApiResourceRow({ appId, resource, onEdit, onDeleted }: ApiResourceRowProps) {
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
      <td className="actions">
        <button type="button" className="small" onClick={() => onEdit(resource)}>
          Edit<span className="visually-hidden">{` ${resource.name}`}</span>
        </button>
        <button type="button" className="small" disabled={action.busy} onClick={remove}>
          Delete<span className="visually-hidden">{` ${resource.name}`}</span>
        </button>
        {action.failure !== null && <ErrorMessage message={action.failure} />}
      </td>
    </tr>
  );
}
