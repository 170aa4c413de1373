import { ErrorMessage } from '../components/status.tsx';
import { useDocumentTitle } from '../hooks/use-document-title.ts';
import type { ManagedApplication, NamedTenant } from '../operations.ts';
import { routeHash, type ApplicationsRoute } from '../route.ts';
import { TenantUsers } from './users.tsx';

/** The one tab a tenant offers such an operator, in the tenant's scope. */
const USERS_TAB = 'users';

interface TenantOperatorProps {
  readonly application: ManagedApplication;
  /** The tenants in which the operator holds a role, by name. */
  readonly tenants: readonly NamedTenant[];
  /** `#/{appId}/users/{tenantId}` opens that tenant's users. */
  readonly route: ApplicationsRoute;
  readonly onBack: () => void;
}

/** The tenants in which the operator holds a role, each leading to its users, and where the rest is managed. */
function YourTenants({ application, tenants, unknownTenant }: { application: ManagedApplication; tenants: readonly NamedTenant[]; unknownTenant: boolean }) {
  useDocumentTitle('Your tenants', application.name);
  return (
    <section aria-labelledby="tenant-operator-heading">
      <h2 id="tenant-operator-heading">Your tenants</h2>
      {unknownTenant && <ErrorMessage message="The address names a tenant in which you hold no role, or one that no longer exists." />}
      <ul aria-label="Tenants in which you hold a role">
        {tenants.map((tenant) => (
          <li key={tenant.id}>
            <a href={routeHash({ appId: application.id, tab: USERS_TAB, tenantId: tenant.id })}>{`Users of ${tenant.name}`}</a> <code>{tenant.id}</code>
          </li>
        ))}
      </ul>
      <p>
        The dashboard manages an application as a whole, which takes a role held application-wide; in your tenants it
        manages their users and invitations. The rest of your tenants is managed through the API&apos;s tenant paths,{' '}
        <code>{`/applications/${application.id}/tenants/{tenantId}/…`}</code>.
      </p>
    </section>
  );
}

function TenantUsersPage({ application, tenant }: { application: ManagedApplication; tenant: NamedTenant }) {
  useDocumentTitle(`Users of ${tenant.name}`, application.name);
  return (
    <>
      <a className="back" href={routeHash({ appId: application.id })}>Your tenants</a>
      <TenantUsers appId={application.id} tenant={tenant} />
    </>
  );
}

/**
 * An application in which the operator holds roles in some tenants only: those tenants, and each one's users in its
 * scope (the application's tabs would each be refused).
 */
export function TenantOperator({ application, tenants, route, onBack }: TenantOperatorProps) {
  const tenant = route.tab === USERS_TAB ? tenants.find((candidate) => candidate.id === route.tenantId?.toLowerCase()) : undefined;
  return (
    <>
      <button type="button" className="link back" onClick={onBack}>All applications</button>
      <h1>{application.name}</h1>
      {tenant === undefined ? (
        <YourTenants application={application} tenants={tenants} unknownTenant={route.tenantId !== undefined} />
      ) : (
        <TenantUsersPage key={tenant.id} application={application} tenant={tenant} />
      )}
    </>
  );
}
