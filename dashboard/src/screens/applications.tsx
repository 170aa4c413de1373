import { KnownNames } from '../components/known-names.tsx';
import { NoRole } from '../components/no-role.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import type { Async } from '../hooks/use-async.ts';
import type { ManagedApplication, OperatorApplication, OperatorHoldings } from '../operations.ts';
import { navigate, routeHash, type ApplicationsRoute } from '../route.ts';
import { Application } from './application.tsx';
import { CreateApplicationForm } from './create-application-form.tsx';
import { TenantOperator } from './tenant-operator.tsx';

interface ApplicationsProps {
  readonly route: ApplicationsRoute;
  /** What the operator holds, read by the console page (its header offers the Organization page by it too). */
  readonly holdings: Async<OperatorHoldings>;
}

/** The applications the operator manages; the only one opened at once unless the URL asks for the list. */
export function Applications({ route, holdings }: ApplicationsProps) {
  if (holdings.status === 'loading') return <Loading>Loading your applications…</Loading>;
  if (holdings.status === 'failed') return <ErrorMessage message={holdings.message} />;
  const { applications, consolePermissions } = holdings.data;
  const replaceApplications = (next: readonly OperatorApplication[]) => holdings.replace({ ...holdings.data, applications: next });
  const [only, ...others] = applications;
  const onlyOpens = route.appId === undefined && route.page === undefined && others.length === 0;
  const opened = onlyOpens ? only : applications.find((application) => application.id === route.appId);
  if (opened !== undefined) {
    const toList = () => navigate({ page: 'applications' });
    // A rename shows at once in the heading and the list, a deletion leaves the list without it.
    const changed = (saved: ManagedApplication | null) => {
      if (saved !== null) return replaceApplications(applications.map((application) => (application.id === saved.id ? { ...application, ...saved } : application)));
      replaceApplications(applications.filter((application) => application.id !== opened.id));
      return toList();
    };
    // Keyed by the application: an address naming another one starts its screens afresh, none keeping the tenant picked,
    // the panel opened or the edits made in the one left. The tabs act application-wide: an operator holding roles in
    // some tenants only would be refused on each.
    if (opened.tenants !== null) return <TenantOperator key={opened.id} application={opened} tenants={opened.tenants} route={route} onBack={toList} />;
    return (
      <KnownNames type="application" items={applications}>
        <Application key={opened.id} application={opened} consolePermissions={consolePermissions} tab={route.tab} onBack={toList} onChanged={changed} />
      </KnownNames>
    );
  }

  const mayCreate = consolePermissions.includes('applications:write');
  if (applications.length === 0 && !mayCreate && !consolePermissions.includes('organizations:read')) {
    return (
      <>
        <h1>Applications</h1>
        <NoRole />
      </>
    );
  }
  return (
    <>
      <h1>Applications</h1>
      {route.appId !== undefined && <ErrorMessage message="The address names an application you do not manage, or one that no longer exists." />}
      {applications.length === 0 ? (
        <p>You manage no application yet.</p>
      ) : (
        <ul className="applications">
          {applications.map((application) => (
            <li key={application.id}>
              <a href={routeHash({ appId: application.id })}>{application.name}</a>
              <span className="kind">{application.multiTenant ? 'Multi-tenant' : 'Single-tenant'}</span>
            </li>
          ))}
        </ul>
      )}
      {mayCreate && <CreateApplicationForm onCreated={holdings.refresh} />}
    </>
  );
}
