import { useCallback, useMemo } from 'react';
import { Header } from '../components/header.tsx';
import { KnownNames } from '../components/known-names.tsx';
import type { DashboardConfig } from '../config.ts';
import { useAsync } from '../hooks/use-async.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { listManagedApplications } from '../operations.ts';
import { findOrganization } from '../operations-organization.ts';
import { useRoute } from '../route.ts';
import type { Session } from '../session.ts';
import { Applications } from './applications.tsx';
import { Organization } from './organization.tsx';
import { OtherOrganization } from './other-organization.tsx';

/**
 * Signed in: the organization's console, named in the header, when the page is the dashboard of the organization
 * signed in to; on another organization's address, only the way to it.
 */
export function Console({ config, session }: { config: DashboardConfig; session: Session }) {
  const route = useRoute();
  const organization = useAsync(useCallback(() => findOrganization(session.organizationId), [session.organizationId]));
  // Read again on a return, so the Organization page's forms see changes made meanwhile (and the header its name).
  useReadOnReturn(organization);
  // Read again on leaving the Organization page, as the applications' page read them as it opened: a reactivation
  // there makes them readable again.
  const onOrganization = route.page === 'organization';
  const holdings = useAsync(useCallback(() => listManagedApplications(), [onOrganization]));
  useReadOnReturn(holdings);
  // Offered unless the operator is known to hold no read of it: a deactivated organization refuses every read but its page's.
  const organizationPage = holdings.status !== 'done' || holdings.data.consolePermissions.includes('organizations:read');
  const name = organization.status === 'done' ? (organization.data?.name ?? null) : null;
  const organizationId = session.organizationId;
  const named = useMemo(() => (name === null ? [] : [{ id: organizationId, name }]), [organizationId, name]);
  const page = () => {
    if (session.organizationId !== config.organizationId) return <OtherOrganization config={config} session={session} signedInTo={name} />;
    if (route.page === 'organization') return <Organization organizationId={session.organizationId} organization={organization} />;
    return <Applications route={route} holdings={holdings} />;
  };
  return (
    <>
      <Header config={config} session={session} organizationName={name} organizationPage={organizationPage} />
      <main>
        <KnownNames type="organization" items={named}>{page()}</KnownNames>
      </main>
    </>
  );
}
