import { ErrorMessage, Loading } from '../components/status.tsx';
import type { Async } from '../hooks/use-async.ts';
import { useDocumentTitle } from '../hooks/use-document-title.ts';
import type { Organization as OrganizationData } from '../operations-organization.ts';
import { navigate } from '../route.ts';
import { BillingForm } from './billing-form.tsx';
import { OrganizationNameForm } from './organization-name-form.tsx';
import { OrganizationStatus } from './organization-status.tsx';

interface OrganizationProps {
  organizationId: string;
  /** As read for the whole console (its header names it); null while it is deactivated. */
  organization: Async<OrganizationData | null>;
}

/** The operators' organization: its name and billing while active, and its deactivation or reactivation. */
export function Organization({ organizationId, organization }: OrganizationProps) {
  const active = organization.status === 'done' && organization.data?.status === 'active' ? organization.data : null;
  useDocumentTitle('Organization', ...(organization.status === 'done' && organization.data !== null ? [organization.data.name] : []));

  return (
    <>
      <button type="button" className="link back" onClick={() => navigate({})}>All applications</button>
      <h1>Organization</h1>
      {organization.status === 'loading' && <Loading>Loading the organization…</Loading>}
      {organization.status === 'failed' && <ErrorMessage message={organization.message} />}
      {organization.status === 'done' && (
        <>
          {active !== null && (
            <>
              <OrganizationNameForm organization={active} onSaved={organization.replace} />
              <BillingForm organization={active} onSaved={organization.replace} />
            </>
          )}
          <OrganizationStatus organizationId={organizationId} organization={organization.data} onChanged={organization.replace} />
        </>
      )}
    </>
  );
}
