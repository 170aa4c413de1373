import { useCallback } from 'react';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { Subsection } from '../components/subsection.tsx';
import { Timestamp } from '../components/timestamp.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { getApplicationStats } from '../operations-applications.ts';

/** The application's figures at a glance (the Analytics tab has them by period). */
export function ApplicationStatsSection({ appId, multiTenant }: { appId: string; multiTenant: boolean }) {
  const stats = useAsync(useCallback(() => getApplicationStats(appId), [appId]));
  useReadOnReturn(stats);
  return (
    <Subsection title="Figures">
      {stats.status === 'loading' && <Loading>Loading the figures…</Loading>}
      {stats.status === 'failed' && <ErrorMessage message={stats.message} />}
      {stats.status === 'done' && (
        <>
          <dl className="details">
            <div><dt>Users</dt><dd>{stats.data.users}</dd></div>
            {multiTenant && <div><dt>Tenants</dt><dd>{stats.data.tenants}</dd></div>}
            <div><dt>Active users (day, week, 30 days)</dt><dd>{`${stats.data.activeUsers.day}, ${stats.data.activeUsers.week}, ${stats.data.activeUsers.month}`}</dd></div>
            <div><dt>Sign-ins in 30 days</dt><dd>{`${stats.data.signIns.succeeded} succeeded, ${stats.data.signIns.failed} failed`}</dd></div>
          </dl>
          <p className="hint">As of <Timestamp value={stats.data.computedAt} />: the server keeps them up to a minute.</p>
        </>
      )}
    </Subsection>
  );
}
