import { useState } from 'react';
import { ErrorMessage } from '../components/status.tsx';
import { errorMessage } from '../error-message.ts';
import { deleteRole, type Role, type RoleChoices } from '../operations-roles.ts';
import { placeName } from '../role-choices.ts';

/** Up to this many permissions show in the row; more fold under their count. */
const SHOWN_PERMISSIONS = 5;

function Permissions({ permissions }: { permissions: readonly string[] }) {
  if (permissions.length === 0) return <>None</>;
  const list = permissions.map((key) => <code key={key}>{key}</code>);
  if (permissions.length <= SHOWN_PERMISSIONS) return <span className="permission-list">{list}</span>;
  return (
    <details>
      <summary>{`${permissions.length} permissions`}</summary>
      <span className="permission-list">{list}</span>
    </details>
  );
}

interface RoleRowProps {
  appId: string;
  role: Role;
  choices: RoleChoices;
  onEdit: (role: Role) => void;
  onDeleted: (role: Role) => void;
}

/** One role; a custom one with Edit and Delete (once confirmed), a built-in one read-only. */
export function RoleRow({ appId, role, choices, onEdit, onDeleted }: RoleRowProps) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const remove = async () => {
    const question = `Delete the role ${role.name}? Its assignments are deleted with it: every user, operator, API key and M2M credential holding it loses its permissions.`;
    if (!window.confirm(question)) return;
    setBusy(true);
    setFailure(null);
    try {
      await deleteRole(appId, role.id);
    } catch (error) {
      setFailure(errorMessage(error));
      setBusy(false);
      return;
    }
    onDeleted(role);
  };

  return (
    <tr>
      <th scope="row">{role.name}</th>
      <td><code>{role.key}</code></td>
      <td>{role.description}</td>
      <td><Permissions permissions={role.permissions} /></td>
      <td>{role.builtIn ? 'Built-in' : 'Custom'}</td>
      {choices.multiTenant && <td>{placeName(choices, role.tenantId)}</td>}
      <td>
        {!role.builtIn && (
          <>
            <button type="button" className="small" onClick={() => onEdit(role)}>
              Edit<span className="visually-hidden">{` ${role.name}`}</span>
            </button>
            <button type="button" className="small" disabled={busy} onClick={() => void remove()}>
              Delete<span className="visually-hidden">{` ${role.name}`}</span>
            </button>
          </>
        )}
        {failure !== null && <ErrorMessage message={failure} />}
      </td>
    </tr>
  );
}
