import { useCallback, useState } from 'react';
import { PagedTable } from '../components/paged-table.tsx';
import { usePages } from '../hooks/use-pages.ts';
import { INVITATION_STATUSES, listInvitations, type InvitationStatus } from '../operations-invitations.ts';
import { InvitationRow, STATUS_LABEL } from './invitation-row.tsx';
import { InviteForm } from './invite-form.tsx';

/** The invitations of the status chosen (null: all), page by page. */
function InvitationTable({ appId, status, onChanged }: { appId: string; status: InvitationStatus | null; onChanged: () => void }) {
  const invitations = usePages(useCallback((cursor: string | null) => listInvitations(appId, status, cursor), [appId, status]));
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
            invitations.update((row) => (row.id === changed.id ? { ...row, ...changed } : row));
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
  const [sent, setSent] = useState(0);
  const [rowChanges, setRowChanges] = useState(0);
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
        <InvitationTable key={sent} appId={appId} status={status} onChanged={() => setRowChanges((count) => count + 1)} />
      </section>
      <InviteForm appId={appId} listChanges={rowChanges} onSent={() => setSent((count) => count + 1)} />
    </>
  );
}
