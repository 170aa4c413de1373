import { useConfirmedAction } from '../hooks/use-confirmed-action.ts';
import type { SettingsScope } from '../operations.ts';
import { removeRoleAssignment } from '../operations-roles.ts';
import { ErrorMessage } from './status.tsx';

interface RemoveAssignmentButtonProps {
  /** Where it is removed: a tenant's scope removes only an assignment made there (the server refuses an application-wide one). */
  scope: SettingsScope;
  assignmentId: string;
  /** The confirmation asked first. */
  question: string;
  onRemoved: () => void;
}

/** "Remove" for one role assignment, once confirmed, and a refused removal's message. */
export function RemoveAssignmentButton({ scope, assignmentId, question, onRemoved }: RemoveAssignmentButtonProps) {
  const removal = useConfirmedAction();
  const remove = () =>
    removal.run(question, async () => {
      await removeRoleAssignment(scope, assignmentId);
      onRemoved();
    });
  return (
    <>
      <button type="button" className="small" disabled={removal.busy} onClick={remove}>Remove</button>
      {removal.failure !== null && <ErrorMessage message={removal.failure} />}
    </>
  );
}
