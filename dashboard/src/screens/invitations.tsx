import { useCallback, useState } from 'react';
import { PageFooter } from '../components/page-footer.tsx';
import { usePages } from '../hooks/use-pages.ts';
import { INVITATION_STATUSES, listInvitations, type InvitationStatus } from '../operations-invitations.ts';
import { InvitationRow, STATUS_LABEL } from './invitation-row.tsx';
import { InviteForm } from './invite-form.tsx';

/** The invitations of the status chosen (null: all), page by page. */
function InvitationTable({ appId, status }: { appId: string; status: InvitationStatus | null }) {
  const invitations = usePages(useCallback((cursor: string | null) => listInvitations(appId, status, cursor), [appId, status]));
  if (!invitations.loading && invitations.error === null && invitations.items.length === 0) {
    return <p>{status === null ? 'No one has been invited yet.' : `No invitation is ${STATUS_LABEL[status].toLowerCase()}.`}</p>;
  }
  return (
    <>
      <table>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Tenant</th>
            <th scope="col">Roles</th>
            <th scope="col">Status</th>
            <th scope="col">Expires</th>
            <th scope="col">Invited by</th>
            <th scope="col"><span className="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {invitations.items.map((invitation) => (
            <InvitationRow
              key={invitation.id}
              appId={appId}
              invitation={invitation}
              onChanged={(changed) => invitations.update((row) => (row.id === changed.id ? { ...row, ...changed } : row))}
            />
          ))}
        </tbody>
      </table>
      <PageFooter pages={invitations} loadingLabel="Loading invitations…" />
    </>
  );
}

/** The application's invitations to its tenants, filtered by status, and inviting an address. */
export function Invitations({ appId }: { appId: string }) {
  const [status, setStatus] = useState<InvitationStatus | null>(null);
  const [sent, setSent] = useState(0);
  return (
    <>
      <section aria-labelledby="invitations-heading">
        <h2 id="invitations-heading">Invitations</h2>
        <div className="picker">
          <label htmlFor="invitation-status">Status</label>
          <select
            id="invitation-status"
            value={status ?? ''}
            onChange={(event) => setStatus(INVITATION_STATUSES.find((value) => value === event.target.value) ?? null)}
          >
            <option value="">All</option>
            {INVITATION_STATUSES.map((value) => <option key={value} value={value}>{STATUS_LABEL[value]}</option>)}
          </select>
        </div>
        {/* Read again after each invitation sent, which joins the list at its end. */}
        <InvitationTable key={sent} appId={appId} status={status} />
      </section>
      <InviteForm appId={appId} onSent={() => setSent((count) => count + 1)} />
    </>
  );
}
