import { Timestamp } from '../components/timestamp.tsx';
import { Outcome } from '../components/status.tsx';
import { useSubmission } from '../hooks/use-submission.ts';
import { revokeSession, type Session } from '../operations-sessions.ts';

interface SessionRowProps {
  appId: string;
  session: Session;
  /** Told the sentence that says so, since the row leaves the list. */
  onRevoked: (notice: string) => void;
}

/** One live session: who, where they signed in and how, from where, when, and Revoke once confirmed. */
export function SessionRow({ appId, session, onRevoked }: SessionRowProps) {
  const action = useSubmission<string>();
  const revoke = () => {
    const question = `Revoke ${session.userEmail}'s session in ${session.clientName}? They are signed out there, and its tokens stop working at once.`;
    if (!window.confirm(question)) return;
    action.run(async () => {
      await revokeSession(appId, session.id);
      const notice = `${session.userEmail}'s session in ${session.clientName} is revoked.`;
      onRevoked(notice);
      return notice;
    });
  };

  return (
    <tr>
      <th scope="row">{session.userEmail}</th>
      <td>{session.tenantName ?? 'Application'}</td>
      <td>{session.clientName}</td>
      <td>{session.methods.length === 0 ? 'None' : session.methods.join(', ')}</td>
      <td>{session.ip ?? 'Unknown'}</td>
      <td className="user-agent">{session.userAgent ?? 'Unknown'}</td>
      <td><Timestamp value={session.createdAt} /></td>
      <td><Timestamp value={session.lastActiveAt} /></td>
      <td><Timestamp value={session.expiresAt} /></td>
      <td>
        <button type="button" className="small" disabled={action.busy} onClick={revoke}>Revoke</button>
        <Outcome outcome={action.outcome} />
      </td>
    </tr>
  );
}
