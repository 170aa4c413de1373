import { useState } from 'react';
import { PermissionList } from '../components/permission-list.tsx';
import { ErrorMessage } from '../components/status.tsx';
import { errorMessage } from '../error-message.ts';
import { offersAny } from '../operations-own-permissions.ts';
import { deleteRole, type Role, type RoleChoices } from '../operations-roles.ts';
import { placeName } from '../role-choices.ts';

/** The row actions the operator's permissions open, on a custom role. */
export interface RoleActions {
  readonly edit: boolean;
  readonly delete: boolean;
}

interface RoleRowProps {
  appId: string;
  role: Role;
  choices: RoleChoices;
  offers: RoleActions;
  onEdit: (role: Role) => void;
  onDeleted: (role: Role) => void;
}

/** One role; a custom one with Edit and Delete (once confirmed) where offered, a built-in one read-only. */
export function RoleRow({ appId, role, choices, offers, onEdit, onDeleted }: RoleRowProps) {
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
      <td><PermissionList permissions={role.permissions} /></td>
      <td>{role.builtIn ? 'Built-in' : 'Custom'}</td>
      {choices.multiTenant && <td>{placeName(choices, role.tenantId)}</td>}
      {offersAny(offers) && (
        <td>
          {!role.builtIn && offers.edit && (
            <button type="button" className="small" onClick={() => onEdit(role)}>
              Edit<span className="visually-hidden">{` ${role.name}`}</span>
            </button>
          )}
          {!role.builtIn && offers.delete && (
            <button type="button" className="small" disabled={busy} onClick={() => void remove()}>
              Delete<span className="visually-hidden">{` ${role.name}`}</span>
            </button>
          )}
          {failure !== null && <ErrorMessage message={failure} />}
        </td>
      )}
    </tr>
  );
}
