import { Timestamp } from '../components/timestamp.tsx';
import { Outcome } from '../components/status.tsx';
import { useSubmission } from '../hooks/use-submission.ts';
import { resendInvitation, revokeInvitation, type Invitation, type InvitationFields, type InvitationPlace, type InvitationStatus } from '../operations-invitations.ts';

export const STATUS_LABEL: Record<InvitationStatus, string> = { pending: 'Pending', accepted: 'Accepted', revoked: 'Revoked', expired: 'Expired' };

interface InvitationRowProps {
  place: InvitationPlace;
  /** Whether Resend and Revoke are offered: the operator may act on invitations there (`users:write`). */
  actions: boolean;
  invitation: Invitation;
  /** The invitation as the server answered a resend or a revocation. */
  onChanged: (invitation: InvitationFields) => void;
}

/**
 * One invitation, with Resend and Revoke (once confirmed) while its link may still be used (pending or expired); its
 * tenant unless listed in a tenant's scope.
 */
export function InvitationRow({ place, actions, invitation, onChanged }: InvitationRowProps) {
  const action = useSubmission<string>();
  const open = actions && (invitation.status === 'pending' || invitation.status === 'expired');

  const resend = () =>
    action.run(async () => {
      onChanged(await resendInvitation(place, invitation.id));
      return `A new link was queued for ${invitation.email}; the previous one no longer works.`;
    });
  const revoke = () => {
    if (!window.confirm(`Revoke the invitation of ${invitation.email} to ${invitation.tenantName}? Its link will no longer work.`)) return;
    action.run(async () => {
      onChanged(await revokeInvitation(place, invitation.id));
      return `The invitation of ${invitation.email} is revoked.`;
    });
  };

  return (
    <tr>
      <th scope="row">{invitation.email}</th>
      {place.tenant === null && <td>{invitation.tenantName}</td>}
      <td>{invitation.roleNames.length === 0 ? 'None' : invitation.roleNames.join(', ')}</td>
      <td>{STATUS_LABEL[invitation.status]}</td>
      <td><Timestamp value={invitation.expiresAt} /></td>
      <td>{invitation.inviter}</td>
      <td>
        {open && (
          <>
            <button type="button" className="small" disabled={action.busy} onClick={resend}>Resend</button>
            <button type="button" className="small" disabled={action.busy} onClick={revoke}>Revoke</button>
          </>
        )}
        <Outcome outcome={action.outcome} />
      </td>
    </tr>
  );
}
