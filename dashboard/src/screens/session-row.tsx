import { Timestamp } from '../components/timestamp.tsx';
import { Outcome } from '../components/status.tsx';
import { useSubmission } from '../hooks/use-submission.ts';
import { revokeSession, type Session, type SessionsPlace } from '../operations-sessions.ts';

interface SessionRowProps {
  place: SessionsPlace;
  session: Session;
  /** Whether Revoke is offered (the operator holds `sessions:delete` in the place). */
  revocable: boolean;
  /** Told the sentence that says so, and whether the browser's other sign-ins (other rows) ended with it. */
  onRevoked: (notice: string, wholeBrowser: boolean) => void;
}

/** One live session: who, where they signed in (the tenant, unless the place is one) and how, from where, when, and Revoke once confirmed. */
export function SessionRow({ place, session, revocable, onRevoked }: SessionRowProps) {
  const action = useSubmission<string>();
  const revoke = () => {
    const wholeBrowser = session.tenantName === null;
    const question = wholeBrowser
      ? `Revoke ${session.userEmail}'s session in ${session.clientName}? Their browser is signed out of the application and every tenant, and the tokens stop working at once.`
      : `Revoke ${session.userEmail}'s sign-in to ${session.tenantName} (${session.clientName})? Its tokens stop working at once; the browser's sign-ins to other tenants stay.`;
    if (!window.confirm(question)) return;
    action.run(async () => {
      await revokeSession(place, session);
      const notice = wholeBrowser ? `${session.userEmail}'s session in ${session.clientName} is revoked.` : `${session.userEmail}'s sign-in to ${session.tenantName} is revoked.`;
      onRevoked(notice, wholeBrowser);
      return notice;
    });
  };

  return (
    <tr>
      <th scope="row">{session.userEmail}</th>
      {place.tenant === null && <td>{session.tenantName ?? 'Application'}</td>}
      <td>{session.clientName}</td>
      <td>{session.methods.length === 0 ? 'None' : session.methods.join(', ')}</td>
      <td>{session.ip ?? 'Unknown'}</td>
      <td className="user-agent">{session.userAgent ?? 'Unknown'}</td>
      <td><Timestamp value={session.createdAt} /></td>
      <td><Timestamp value={session.lastActiveAt} /></td>
      <td><Timestamp value={session.expiresAt} /></td>
      {revocable && (
        <td>
          <button type="button" className="small" disabled={action.busy} onClick={revoke}>Revoke</button>
          <Outcome outcome={action.outcome} />
        </td>
      )}
    </tr>
  );
}
