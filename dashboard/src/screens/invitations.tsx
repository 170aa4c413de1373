import { useCallback, useState } from 'react';
import { PagedTable } from '../components/paged-table.tsx';
import { usePages, type Pages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { INVITATION_STATUSES, listInvitations, type Invitation, type InvitationStatus } from '../operations-invitations.ts';
import { InvitationRow, STATUS_LABEL } from './invitation-row.tsx';
import { InviteForm } from './invite-form.tsx';

interface InvitationTableProps {
  appId: string;
  invitations: Pages<Invitation>;
  status: InvitationStatus | null;
  onChanged: () => void;
}

/** The invitations of the status chosen (null: all), page by page. */
function InvitationTable({ appId, invitations, status, onChanged }: InvitationTableProps) {
  return (
    <PagedTable
      pages={invitations}
      columns={['E-mail', 'Tenant', 'Roles', 'Status', 'Expires', 'Invited by']}
      actionsHeading="Actions"
      emptyMessage={status === null ? 'No one has been invited yet.' : `No invitation is ${STATUS_LABEL[status].toLowerCase()}.`}
      loadingLabel="Loading invitations…"
      row={(invitation) => (
        <InvitationRow
          key={invitation.id}
          appId={appId}
          invitation={invitation}
          onChanged={(changed) => {
            invitations.replace(changed.id, changed);
            onChanged();
          }}
        />
      )}
    />
  );
}

/** The application's invitations to its tenants, filtered by status, and inviting an address. */
export function Invitations({ appId }: { appId: string }) {
  const [status, setStatus] = useState<InvitationStatus | null>(null);
  const invitations = usePages(useCallback((cursor: string | null) => listInvitations(appId, status, cursor), [appId, status]));
  useReadOnReturn(invitations);
  const [rowChanges, setRowChanges] = useState(0);
  // A new invitation is pending: shown unless another status is chosen.
  const sent = (invitation: Invitation) => {
    if (status === null || status === invitation.status) invitations.add(invitation);
  };
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
        <InvitationTable appId={appId} invitations={invitations} status={status} onChanged={() => setRowChanges((count) => count + 1)} />
      </section>
      <InviteForm appId={appId} listChanges={rowChanges} onSent={sent} />
    </>
  );
}
