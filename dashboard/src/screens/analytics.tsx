import { useCallback, useId, useRef, useState, type FormEvent } from 'react';
import { BarChart } from '../components/bar-chart.tsx';
import { ErrorMessage, Loading, Refusal } from '../components/status.tsx';
import { TenantPicker } from '../components/tenant-picker.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { refusalMarks } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { getAnalytics, type Analytics as AnalyticsData, type AnalyticsInterval, type AnalyticsRange } from '../operations-analytics.ts';
import type { MayDo } from '../operations-own-permissions.ts';
import type { TenantSummary } from '../operations.ts';

const DAY_MS = 86_400_000;
const utcDate = (time: number) => new Date(time).toISOString().slice(0, 10);
const INTERVALS: readonly [AnalyticsInterval, string][] = [['day', 'Day'], ['week', 'Week'], ['month', 'Month']];

const counts = (record: Readonly<Record<string, number>>) =>
  Object.entries(record).map(([name, count]) => `${name} ${count}`).join(', ') || '—';

/**
 * The range form: dates and grouping, read as it is submitted, so that the server's refusal of a date marks its input;
 * a refused range shows no figures, as the earlier range's would pass for its answer.
 */
function RangeForm({ range, onSubmit }: { range: AnalyticsRange; onSubmit: (range: AnalyticsRange) => Promise<void> }) {
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const [interval, setInterval] = useState(range.interval);
  const showing = useSubmission<string>();
  const hintId = `${useId()}-hint`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    showing.run(async () => {
      await onSubmit({ from, to, interval });
      return '';
    });
  };
  return (
    <>
      <form className="range" onSubmit={submit}>
        <label>From <input type="date" required {...refusalMarks(showing.refusal, 'from', hintId)} value={from} onChange={(event) => setFrom(event.target.value)} /></label>
        <label>To <input type="date" required {...refusalMarks(showing.refusal, 'to', hintId)} value={to} onChange={(event) => setTo(event.target.value)} /></label>
        <label>
          By{' '}
          <select value={interval} onChange={(event) => setInterval(event.target.value as AnalyticsInterval)}>
            {INTERVALS.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </label>
        <button type="submit" disabled={showing.busy}>Show</button>
      </form>
      <p id={hintId} className="hint">UTC days, both included; a week or month the range cuts is counted whole.</p>
      <Refusal outcome={showing.outcome} />
    </>
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
export function Analytics({ appId, multiTenant, may }: { appId: string; multiTenant: boolean; may: MayDo }) {
  const [tenant, setTenant] = useState<TenantSummary | null>(null);
  // The range last accepted, which a tenant's read uses; a submitted one is read by the form, which marks its refusal.
  const [lastThirtyDays] = useState<AnalyticsRange>(() => ({ from: utcDate(Date.now() - 29 * DAY_MS), to: utcDate(Date.now()), interval: 'day' }));
  const range = useRef(lastThirtyDays);
  // From a range's submission until it is read: what is shown is another range's.
  const [hidden, setHidden] = useState(false);
  const tenantId = tenant?.id ?? null;
  const analytics = useAsync(useCallback(() => getAnalytics(appId, { ...range.current, tenantId }), [appId, tenantId]));
  const show = async (next: AnalyticsRange) => {
    setHidden(true);
    analytics.replace(await getAnalytics(appId, { ...next, tenantId }));
    range.current = next;
    setHidden(false);
  };

  return (
    <section aria-labelledby="analytics-heading">
      <h2 id="analytics-heading">Analytics</h2>
      {multiTenant && <TenantPicker may={may} action="Showing a tenant's figures" appId={appId} selected={tenant} onSelect={setTenant} />}
      <RangeForm range={lastThirtyDays} onSubmit={show} />
      {analytics.status === 'loading' && <Loading>Loading the figures…</Loading>}
      {analytics.status === 'failed' && <ErrorMessage message={analytics.message} />}
      {analytics.status === 'done' && !hidden && <Figures data={analytics.data} />}
    </section>
  );
}
