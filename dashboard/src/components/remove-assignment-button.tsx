import { useConfirmedAction } from '../hooks/use-confirmed-action.ts';
import { removeRoleAssignment } from '../operations-roles.ts';
import { ErrorMessage } from './status.tsx';

interface RemoveAssignmentButtonProps {
  appId: string;
  assignmentId: string;
  /** The confirmation asked first. */
  question: string;
  onRemoved: () => void;
}

/** "Remove" for one role assignment, once confirmed, and a refused removal's message. */
export function RemoveAssignmentButton({ appId, assignmentId, question, onRemoved }: RemoveAssignmentButtonProps) {
  const removal = useConfirmedAction();
  const remove = () =>
    removal.run(question, async () => {
      await removeRoleAssignment(appId, assignmentId);
      onRemoved();
    });
  return (
    <>
      <button type="button" className="small" disabled={removal.busy} onClick={remove}>Remove</button>
      {removal.failure !== null && <ErrorMessage message={removal.failure} />}
    </>
  );
}
