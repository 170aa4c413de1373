import { useCallback, useState, type FormEvent } from 'react';
import { BarChart } from '../components/bar-chart.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { TenantPicker } from '../components/tenant-picker.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { getAnalytics, type Analytics as AnalyticsData, type AnalyticsInterval, type AnalyticsRange } from '../operations-analytics.ts';
import { getTenancyConfig, type TenantSummary } from '../operations.ts';

const DAY_MS = 86_400_000;
const utcDate = (time: number) => new Date(time).toISOString().slice(0, 10);
const INTERVALS: readonly [AnalyticsInterval, string][] = [['day', 'Day'], ['week', 'Week'], ['month', 'Month']];

const counts = (record: Readonly<Record<string, number>>) =>
  Object.entries(record).map(([name, count]) => `${name} ${count}`).join(', ') || '—';

/** The range form: dates and grouping, applied when submitted (the server's defaults: the last 30 days, by day). */
function RangeForm({ range, onSubmit }: { range: AnalyticsRange; onSubmit: (range: AnalyticsRange) => void }) {
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const [interval, setInterval] = useState(range.interval);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ from, to, interval });
  };
  return (
    <form className="range" onSubmit={submit}>
      <label>From <input type="date" required value={from} onChange={(event) => setFrom(event.target.value)} /></label>
      <label>To <input type="date" required value={to} onChange={(event) => setTo(event.target.value)} /></label>
      <label>
        By{' '}
        <select value={interval} onChange={(event) => setInterval(event.target.value as AnalyticsInterval)}>
          {INTERVALS.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
        </select>
      </label>
      <button type="submit">Show</button>
    </form>
  );
}

function Figures({ data }: { data: AnalyticsData }) {
  const { mfaAdoption } = data;
  return (
    <>
      <h3>Second factors</h3>
      <dl className="details">
        <div><dt>Users</dt><dd>{mfaAdoption.users}</dd></div>
        <div><dt>With a second factor</dt><dd>{`${mfaAdoption.usersWithMfa} (${Math.round(mfaAdoption.ratio * 100)}%)`}</dd></div>
        <div><dt>By factor</dt><dd>{counts(mfaAdoption.byFactor)}</dd></div>
      </dl>

      <h3 id="active-users-heading">Active users</h3>
      <BarChart values={data.activeUsers.map((point) => point.count)} />
      <table aria-labelledby="active-users-heading">
        <thead><tr><th scope="col">Period</th><th scope="col">Active users</th></tr></thead>
        <tbody>
          {data.activeUsers.map((point) => (
            <tr key={point.period}><th scope="row">{point.period}</th><td>{point.count}</td></tr>
          ))}
        </tbody>
      </table>

      <h3 id="sign-ins-heading">Sign-ins</h3>
      <BarChart values={data.signIns.map((point) => point.succeeded + point.failed)} />
      <table aria-labelledby="sign-ins-heading">
        <thead><tr><th scope="col">Period</th><th scope="col">Succeeded</th><th scope="col">Failed</th><th scope="col">By method</th></tr></thead>
        <tbody>
          {data.signIns.map((point) => (
            <tr key={point.period}>
              <th scope="row">{point.period}</th>
              <td>{point.succeeded}</td>
              <td>{point.failed}</td>
              <td>{counts(point.byMethod)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** Active users, sign-ins and second-factor adoption of the application or, for a multi-tenant one, of a tenant. */
export function Analytics({ appId }: { appId: string }) {
  const tenancy = useAsync(useCallback(() => getTenancyConfig(appId), [appId]));
  const [tenant, setTenant] = useState<TenantSummary | null>(null);
  const [range, setRange] = useState<AnalyticsRange>(() => ({ from: utcDate(Date.now() - 29 * DAY_MS), to: utcDate(Date.now()), interval: 'day' }));
  const tenantId = tenant?.id ?? null;
  const analytics = useAsync(useCallback(() => getAnalytics(appId, { ...range, tenantId }), [appId, range, tenantId]));

  return (
    <section aria-labelledby="analytics-heading">
      <h2 id="analytics-heading">Analytics</h2>
      {tenancy.status === 'done' && tenancy.data !== null && <TenantPicker appId={appId} selected={tenant} onSelect={setTenant} />}
      <RangeForm range={range} onSubmit={setRange} />
      {analytics.status === 'loading' && <Loading>Loading the figures…</Loading>}
      {analytics.status === 'failed' && <ErrorMessage message={analytics.message} />}
      {analytics.status === 'done' && <Figures data={analytics.data} />}
    </section>
  );
}
