import { RemoveAssignmentButton } from '../components/remove-assignment-button.tsx';
import type { OperatorAssignment } from '../operations-operators.ts';
import type { RoleChoices } from '../operations-roles.ts';
import { placeName, roleName } from '../role-choices.ts';
import { getSession } from '../session.ts';

interface OperatorRowProps {
  appId: string;
  assignment: OperatorAssignment;
  choices: RoleChoices;
  /** Whether Remove is offered. */
  removable: boolean;
  onRemoved: () => void;
}

/** Whether the assignment is the signed-in operator's own (e-mails are unique among the console's users). */
const isSignedInOperator = (email: string | null): boolean => email !== null && email.toLowerCase() === getSession()?.email.toLowerCase();

/** One role an operator holds: who, which role, where, and Remove once confirmed (where offered). */
export function OperatorRow({ appId, assignment, choices, removable, onRemoved }: OperatorRowProps) {
  const who = assignment.email ?? assignment.operatorId;
  const role = roleName(choices, assignment.roleId);
  const place = placeName(choices, assignment.tenantId);
  const consequence = isSignedInOperator(assignment.email)
    ? 'This is you: you will no longer manage this application through it.'
    : 'They can no longer manage this application through it.';
  return (
    <tr>
      <th scope="row">{who}</th>
      <td>{role}</td>
      <td>{place}</td>
      {removable && (
        <td>
          <RemoveAssignmentButton
            scope={{ appId, tenantId: null }}
            assignmentId={assignment.id}
            question={`Remove ${who}'s role ${role} (${place})? ${consequence}`}
            onRemoved={onRemoved}
          />
        </td>
      )}
    </tr>
  );
}
