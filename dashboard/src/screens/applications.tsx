import { KnownNames } from '../components/known-names.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { listManagedApplications, type ManagedApplication } from '../operations.ts';
import { navigate, routeHash, type ApplicationsRoute } from '../route.ts';
import { Application } from './application.tsx';
import { CreateApplicationForm } from './create-application-form.tsx';
import { TenantOperator } from './tenant-operator.tsx';

/**
 * The applications the operator manages and the creation of another; the one the URL names opened, or the only one
 * opened at once unless the URL asks for the list.
 */
export function Applications({ route }: { route: ApplicationsRoute }) {
  const applications = useAsync(listManagedApplications);
  useReadOnReturn(applications);

  if (applications.status === 'loading') return <Loading>Loading your applications…</Loading>;
  if (applications.status === 'failed') return <ErrorMessage message={applications.message} />;
  const [only, ...others] = applications.data;
  const onlyOpens = route.appId === undefined && route.page === undefined && others.length === 0;
  const opened = onlyOpens ? only : applications.data.find((application) => application.id === route.appId);
  if (opened !== undefined) {
    const toList = () => navigate({ page: 'applications' });
    // A rename shows at once in the heading and the list, a deletion leaves the list without it.
    const changed = (saved: ManagedApplication | null) => {
      if (saved !== null) return applications.replace(applications.data.map((application) => (application.id === saved.id ? { ...application, ...saved } : application)));
      applications.replace(applications.data.filter((application) => application.id !== opened.id));
      return toList();
    };
    // The tabs act application-wide: an operator holding roles in some tenants only would be refused on each.
    if (opened.tenants !== null) return <TenantOperator application={opened} tenants={opened.tenants} route={route} onBack={toList} />;
    return (
      <KnownNames type="application" items={applications.data}>
        <Application application={opened} tab={route.tab} onBack={toList} onChanged={changed} />
      </KnownNames>
    );
  }

  return (
    <>
      <h1>Applications</h1>
      {route.appId !== undefined && <ErrorMessage message="The address names an application you do not manage, or one that no longer exists." />}
      {applications.data.length === 0 ? (
        <p>You manage no application yet.</p>
      ) : (
        <ul className="applications">
          {applications.data.map((application) => (
            <li key={application.id}>
              <a href={routeHash({ appId: application.id })}>{application.name}</a>
              <span className="kind">{application.multiTenant ? 'Multi-tenant' : 'Single-tenant'}</span>
            </li>
          ))}
        </ul>
      )}
      <CreateApplicationForm onCreated={applications.refresh} />
    </>
  );
}
