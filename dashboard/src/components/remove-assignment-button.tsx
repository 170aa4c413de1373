import { useState } from 'react';
import { errorMessage } from '../error-message.ts';
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
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const remove = async () => {
    if (!window.confirm(question)) return;
    setBusy(true);
    setFailure(null);
    try {
      await removeRoleAssignment(appId, assignmentId);
    } catch (error) {
      setFailure(errorMessage(error));
      setBusy(false);
      return;
    }
    onRemoved();
  };

  return (
    <>
      <button type="button" className="small" disabled={busy} onClick={() => void remove()}>Remove</button>
      {failure !== null && <ErrorMessage message={failure} />}
    </>
  );
}
