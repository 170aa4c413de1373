import { useState } from 'react';
import { ErrorMessage } from '../components/status.tsx';
import { errorMessage } from '../error-message.ts';
import { placeName, roleName } from '../operator-names.ts';
import { removeOperatorAssignment, type OperatorAssignment, type OperatorChoices } from '../operations-operators.ts';

interface OperatorRowProps {
  appId: string;
  assignment: OperatorAssignment;
  choices: OperatorChoices;
  onRemoved: () => void;
}

/** One role an operator holds: who, which role, where, and Remove once confirmed. */
export function OperatorRow({ appId, assignment, choices, onRemoved }: OperatorRowProps) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const who = assignment.email ?? assignment.operatorId;
  const role = roleName(choices, assignment.roleId);
  const place = placeName(choices, assignment.tenantId);

  const remove = async () => {
    if (!window.confirm(`Remove ${who}'s role ${role} (${place})? They can no longer manage this application through it.`)) return;
    setBusy(true);
    setFailure(null);
    try {
      await removeOperatorAssignment(appId, assignment.id);
    } catch (error) {
      setFailure(errorMessage(error));
      setBusy(false);
      return;
    }
    onRemoved();
  };

  return (
    <tr>
      <th scope="row">{who}</th>
      <td>{role}</td>
      <td>{place}</td>
      <td>
        <button type="button" className="small" disabled={busy} onClick={() => void remove()}>Remove</button>
        {failure !== null && <ErrorMessage message={failure} />}
      </td>
    </tr>
  );
}
