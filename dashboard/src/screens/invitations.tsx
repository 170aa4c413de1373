import { useCallback, useMemo, useState } from 'react';
import { PagedTable } from '../components/paged-table.tsx';
import { TenantsNeeded } from '../components/tenants-needed.tsx';
import { usePages, type Pages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import type { NamedTenant } from '../operations.ts';
import { INVITATION_STATUSES, listInvitations, type Invitation, type InvitationPlace, type InvitationStatus } from '../operations-invitations.ts';
import { mayPickTenant, type MayDo } from '../operations-own-permissions.ts';
import { InvitationRow, STATUS_LABEL } from './invitation-row.tsx';
import { InviteForm } from './invite-form.tsx';

interface InvitationTableProps {
  place: InvitationPlace;
  may: MayDo;
  invitations: Pages<Invitation>;
  status: InvitationStatus | null;
  onChanged: () => void;
}

/** The invitations of the status chosen (null: all), page by page. */
function InvitationTable({ place, may, invitations, status, onChanged }: InvitationTableProps) {
  return (
    <PagedTable
      pages={invitations}
      columns={['E-mail', ...(place.tenant === null ? ['Tenant'] : []), 'Roles', 'Status', 'Expires', 'Invited by']}
      actionsHeading="Actions"
      emptyMessage={status === null ? 'No one has been invited yet.' : `No invitation is ${STATUS_LABEL[status].toLowerCase()}.`}
      loadingLabel="Loading invitations…"
      row={(invitation) => (
        <InvitationRow
          key={invitation.id}
          place={place}
          actions={may('users:write')}
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

interface InvitationsSectionProps {
  place: InvitationPlace;
  /** What the operator holds there: sending, resending and revoking take `users:write`. */
  may: MayDo;
}

/** The place's invitations, filtered by status, and (if offered) inviting an address. */
function InvitationsSection({ place, may }: InvitationsSectionProps) {
  const [status, setStatus] = useState<InvitationStatus | null>(null);
  const invitations = usePages(useCallback((cursor: string | null) => listInvitations(place, status, cursor), [place, status]));
  useReadOnReturn(invitations);
  const [rowChanges, setRowChanges] = useState(0);
  // A new invitation is pending: shown unless another status is chosen.
  const sent = (invitation: Invitation) => {
    if (status === null || status === invitation.status) invitations.add(invitation);
  };
  return (
    <>
      <section aria-labelledby="invitations-heading">
        <h2 id="invitations-heading">{place.tenant === null ? 'Invitations' : `Invitations to ${place.tenant.name}`}</h2>
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
        <InvitationTable place={place} may={may} invitations={invitations} status={status} onChanged={() => setRowChanges((count) => count + 1)} />
      </section>
      {/* On the application's tab, inviting picks the tenant, from their list. */}
      {may('users:write') && (place.tenant !== null || mayPickTenant(may)) && <InviteForm place={place} may={may} listChanges={rowChanges} onSent={sent} />}
      {may('users:write') && place.tenant === null && <TenantsNeeded may={may} action="Inviting to a tenant" />}
    </>
  );
}

/** The application's invitations to its tenants (Invitations tab), for an operator holding a role application-wide. */
export function Invitations({ appId, may }: { appId: string; may: MayDo }) {
  const place = useMemo(() => ({ appId, tenant: null }), [appId]);
  return <InvitationsSection place={place} may={may} />;
}

/**
 * One tenant's invitations in its scope, on its Users screen for an operator of some tenants only: Invite, Resend and
 * Revoke offered as `may` (what they hold there) allows.
 */
export function TenantInvitations({ appId, tenant, may }: { appId: string; tenant: NamedTenant; may: MayDo }) {
  const place = useMemo(() => ({ appId, tenant }), [appId, tenant]);
  return <InvitationsSection place={place} may={may} />;
}
