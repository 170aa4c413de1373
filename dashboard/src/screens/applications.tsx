import { KnownNames } from '../components/known-names.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { listManagedApplications } from '../operations.ts';
import { navigate, routeHash, type ApplicationsRoute } from '../route.ts';
import { Application } from './application.tsx';

/** The applications the operator manages; the one the URL names opened, or the only one opened at once. */
export function Applications({ route }: { route: ApplicationsRoute }) {
  const applications = useAsync(listManagedApplications);

  if (applications.status === 'loading') return <Loading>Loading your applications…</Loading>;
  if (applications.status === 'failed') return <ErrorMessage message={applications.message} />;
  const [only, ...others] = applications.data;
  const opened = route.appId === undefined && others.length === 0 ? only : applications.data.find((application) => application.id === route.appId);
  if (opened !== undefined) {
    return (
      <KnownNames type="application" items={applications.data}>
        <Application application={opened} tab={route.tab} onBack={others.length > 0 ? () => navigate({}) : undefined} />
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
    </>
  );
}
