import { useState } from 'react';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { listManagedApplications, type ManagedApplication } from '../operations.ts';
import { Application } from './application.tsx';

/** The applications the operator manages; one of them opened, or the only one opened at once. */
export function Applications() {
  const applications = useAsync(listManagedApplications);
  const [opened, setOpened] = useState<ManagedApplication | null>(null);

  if (applications.status === 'loading') return <Loading>Loading your applications…</Loading>;
  if (applications.status === 'failed') return <ErrorMessage message={applications.message} />;
  const [only, ...others] = applications.data;
  if (only !== undefined && others.length === 0) return <Application application={only} />;
  if (opened !== null) return <Application application={opened} onBack={() => setOpened(null)} />;

  return (
    <>
      <h1>Applications</h1>
      {applications.data.length === 0 ? (
        <p>You manage no application yet.</p>
      ) : (
        <ul className="applications">
          {applications.data.map((application) => (
            <li key={application.id}>
              <button type="button" className="link" onClick={() => setOpened(application)}>{application.name}</button>
              <span className="kind">{application.multiTenant ? 'Multi-tenant' : 'Single-tenant'}</span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
