import { RemoveAssignmentButton } from '../components/remove-assignment-button.tsx';
import type { OperatorAssignment } from '../operations-operators.ts';
import type { RoleChoices } from '../operations-roles.ts';
import { placeName, roleName } from '../role-choices.ts';

interface OperatorRowProps {
  appId: string;
  assignment: OperatorAssignment;
  choices: RoleChoices;
  onRemoved: () => void;
}

/** One role an operator holds: who, which role, where, and Remove once confirmed. */
export function OperatorRow({ appId, assignment, choices, onRemoved }: OperatorRowProps) {
  const who = assignment.email ?? assignment.operatorId;
  const role = roleName(choices, assignment.roleId);
  const place = placeName(choices, assignment.tenantId);
  return (
    <tr>
      <th scope="row">{who}</th>
      <td>{role}</td>
      <td>{place}</td>
      <td>
        <RemoveAssignmentButton
          appId={appId}
          assignmentId={assignment.id}
          question={`Remove ${who}'s role ${role} (${place})? They can no longer manage this application through it.`}
          onRemoved={onRemoved}
        />
      </td>
    </tr>
  );
}
