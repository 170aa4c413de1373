import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../context.ts';
import { executeOwned } from '../db/owned-sql.ts';
import { invalid } from '../errors.ts';
import { EARLIEST_ID_TIME } from '../ids.ts';

/**
 * Read from daily rollups that the authentication events keep up to date (audit/auth-events.ts): each series is one range of
 * a primary key, whatever the number of users. Days are UTC dates; weeks start on Monday (ISO), months on the 1st.
 */

export type AnalyticsInterval = 'day' | 'week' | 'month';

/** The rollups' `scope_tenant_id` for "every tenant and none". */
export const APPLICATION_SERIES = '00000000-0000-0000-0000-000000000000';

export interface ActivityRow {
  readonly applicationId: string;
  readonly tenantId: string | null;
  readonly userId: string;
  readonly day: string;
}

export interface SignInRow {
  readonly applicationId: string;
  readonly tenantId: string | null;
  readonly day: string;
  readonly method: string;
  readonly succeeded: boolean;
}

/** As the rollups key their days. */
export const utcDay = (time: Date): string => time.toISOString().slice(0, 10);

/** For a `with` clause of one statement. */
export interface RollupCtes {
  readonly ctes: string;
  readonly params: readonly unknown[];
}

/**
 * A first sighting in a period inserts its marker and adds one to the count; a user deleted meanwhile (a buffered
 * token event) is not marked again. Counters are taken in key order, so concurrent writers wait for each other rather
 * than deadlock. CTEs, so that an event's other writes share its statement (PostgreSQL nests no data-modifying statement).
 */
export function activeUsersCtes(rows: readonly ActivityRow[]): RollupCtes {
  return {
    ctes: `active_events as (
       select e.application_id, e.tenant_id, e.user_id, e.day
         from jsonb_to_recordset(?::jsonb) as e(application_id uuid, tenant_id uuid, user_id uuid, day date)
         join app_user as u on u.application_id = e.application_id and u.id = e.user_id),
     active_scoped as (
       select distinct e.application_id, s.scope_tenant_id, e.user_id, p.period, p.period_start
         from active_events as e
         cross join lateral (values (?::uuid), (e.tenant_id)) as s(scope_tenant_id)
         cross join lateral (values ('day', e.day), ('week', date_trunc('week', e.day)::date), ('month', date_trunc('month', e.day)::date))
           as p(period, period_start)
        where s.scope_tenant_id is not null),
     active_fresh as (
       insert into analytics_active_user (application_id, scope_tenant_id, period, period_start, user_id)
       select application_id, scope_tenant_id, period, period_start, user_id from active_scoped
       on conflict do nothing
       returning application_id, scope_tenant_id, period, period_start),
     active_counted as (
       insert into analytics_active_users (application_id, scope_tenant_id, period, period_start, users)
       select application_id, scope_tenant_id, period, period_start, count(*) from active_fresh
        group by application_id, scope_tenant_id, period, period_start
        order by application_id, scope_tenant_id, period, period_start
       on conflict (application_id, scope_tenant_id, period, period_start) do update set users = analytics_active_users.users + excluded.users)`,
    params: [JSON.stringify(rows.map((row) => ({ application_id: row.applicationId, tenant_id: row.tenantId, user_id: row.userId, day: row.day }))), APPLICATION_SERIES],
  };
}

export async function countActiveUsers(em: EntityManager, rows: readonly ActivityRow[]): Promise<void> {
  if (rows.length === 0) return;
  const { ctes, params } = activeUsersCtes(rows);
  await em.execute(`with ${ctes} select 1`, [...params]);
}

/**
 * The marks of the users `where` selects (as `u` of app_user), deleted with them: they are the users' own (API.md: a
 * deletion removes everything bound to the user). The counts stay, as what happened.
 */
export async function removeActivityOfUsers(em: EntityManager, applicationId: string, where: string, params: readonly unknown[]): Promise<void> {
  await executeOwned(
    em,
    applicationId,
    `delete from analytics_active_user as m
      where @owner(m) and m.user_id in (select u.id from app_user as u where u.application_id = m.application_id and ${where})`,
    params,
  );
}

/** A split's copies take over the original's marks in their tenant's series, so one person is not counted twice in a
 *  period. Run after the copies exist, before the originals leave the shared pool. */
export async function markCopiesActiveAsTheirOriginals(em: EntityManager, applicationId: string, sharedPool: string): Promise<void> {
  await executeOwned(
    em,
    applicationId,
    `insert into analytics_active_user (application_id, scope_tenant_id, period, period_start, user_id)
     select m.application_id, m.scope_tenant_id, m.period, m.period_start, copy.id
       from analytics_active_user as m
       join app_user as original on original.application_id = m.application_id and original.id = m.user_id and original.pool_id = ?
       join app_user as copy on copy.application_id = m.application_id and copy.pool_id = m.scope_tenant_id and copy.email_normalized = original.email_normalized
      where @owner(m)
     on conflict do nothing`,
    [sharedPool],
  );
}

/** As CTEs (`sign_in_*`), for the same reason as activeUsersCtes. */
export function signInCountCtes(rows: readonly SignInRow[]): RollupCtes {
  return {
    ctes: `sign_in_events as (
       select e.* from jsonb_to_recordset(?::jsonb) as e(application_id uuid, tenant_id uuid, day date, method text, succeeded boolean)
         join application as a on a.id = e.application_id),
     sign_in_counted as (
       insert into analytics_sign_ins (application_id, scope_tenant_id, day, method, succeeded, failed)
       select e.application_id, s.scope_tenant_id, e.day, e.method, count(*) filter (where e.succeeded), count(*) filter (where not e.succeeded)
         from sign_in_events as e cross join lateral (values (?::uuid), (e.tenant_id)) as s(scope_tenant_id)
        where s.scope_tenant_id is not null
        group by e.application_id, s.scope_tenant_id, e.day, e.method
        order by e.application_id, s.scope_tenant_id, e.day, e.method
       on conflict (application_id, scope_tenant_id, day, method) do update
         set succeeded = analytics_sign_ins.succeeded + excluded.succeeded, failed = analytics_sign_ins.failed + excluded.failed)`,
    params: [
      JSON.stringify(rows.map((row) => ({ application_id: row.applicationId, tenant_id: row.tenantId, day: row.day, method: row.method, succeeded: row.succeeded }))),
      APPLICATION_SERIES,
    ],
  };
}

/** `from` and `to` are ISO dates, inclusive. */
export interface AnalyticsArgs {
  from?: string | null;
  to?: string | null;
  interval?: AnalyticsInterval | null;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Ten years of days. */
const MAX_DAYS = 3660;
/** The last 30 days, today included. */
const DEFAULT_DAYS = 30;
const DAY_MS = 86_400_000;

/** Undefined unless `value` is an ISO date (YYYY-MM-DD) that exists. */
function dayOf(value: string): Date | undefined {
  const date = new Date(`${value}T00:00:00Z`);
  return DATE.test(value) && !Number.isNaN(date.getTime()) && utcDay(date) === value ? date : undefined;
}

/** No event predates the Unix epoch (its record's id is a UUIDv7), and PostgreSQL holds no year 0. */
const EARLIEST_DAY = utcDay(EARLIEST_ID_TIME);
/** The last day an ISO date (and the `dayOf` check) names. */
const LATEST_DAY = new Date('9999-12-31T00:00:00Z');

function isoDate(field: string, value: string): Date {
  const date = dayOf(value);
  if (date === undefined) throw invalid(field, `${field} must be an ISO date (YYYY-MM-DD)`);
  if (date < EARLIEST_ID_TIME) throw invalid(field, `${field} must not be before ${EARLIEST_DAY}`);
  return date;
}

function periodStart(day: Date, interval: AnalyticsInterval): Date {
  if (interval === 'day') return day;
  if (interval === 'month') return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
}

function nextPeriod(start: Date, interval: AnalyticsInterval): Date {
  if (interval === 'day') return new Date(start.getTime() + DAY_MS);
  if (interval === 'week') return new Date(start.getTime() + 7 * DAY_MS);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

interface Range {
  readonly interval: AnalyticsInterval;
  /** The first day of each period the range touches. */
  readonly periods: readonly string[];
  /** The last day of the last period, at most 9999-12-31 (the week of that day runs past it, where no ISO date is). */
  readonly last: string;
}

function range(scope: Scope, args: AnalyticsArgs): Range {
  const interval = args.interval ?? 'day';
  const to = args.to == null ? isoDate('to', utcDay(scope.services.clock())) : isoDate('to', args.to);
  const from = args.from == null ? new Date(Math.max(to.getTime() - (DEFAULT_DAYS - 1) * DAY_MS, EARLIEST_ID_TIME.getTime())) : isoDate('from', args.from);
  // The field named is one the caller gave: `to` left out is today.
  if (from > to) throw args.to == null ? invalid('from', 'from must not be after today, where to left out ends') : invalid('to', 'to must not be before from');
  if ((to.getTime() - from.getTime()) / DAY_MS >= MAX_DAYS) throw invalid('from', `A range spans at most ${MAX_DAYS} days`);
  const periods: string[] = [];
  let start = periodStart(from, interval);
  for (; start <= to; start = nextPeriod(start, interval)) periods.push(utcDay(start));
  const last = new Date(Math.min(start.getTime() - DAY_MS, LATEST_DAY.getTime()));
  return { interval, periods, last: utcDay(last) };
}

/** A series' arguments as known before it runs: a literal's value, null when left out, undefined when a variable. */
export interface SeriesArgsSeen {
  readonly from: string | null | undefined;
  readonly to: string | null | undefined;
  readonly interval: string | null | undefined;
}

/** The fewest days a period of each interval holds. */
const PERIOD_DAYS_MIN: Readonly<Record<AnalyticsInterval, number>> = { day: 1, week: 7, month: 28 };

/**
 * The most points a series answers (the operation cost estimate's): the days of a range whose ends are both given,
 * the default 30 when `from` is left out, else the most a range may span (`to` left out is today, unknown beforehand);
 * one point per day unless week or month is given, and a range may cut into its first and last period.
 */
export function seriesPointsAtMost(args: SeriesArgsSeen): number {
  const interval = args.interval === 'week' || args.interval === 'month' ? args.interval : 'day';
  return Math.floor((rangeDaysAtMost(args) - 2) / PERIOD_DAYS_MIN[interval]) + 2;
}

function rangeDaysAtMost({ from, to }: SeriesArgsSeen): number {
  if (from === null) return DEFAULT_DAYS;
  const [start, end] = [from === undefined ? undefined : dayOf(from), to == null ? undefined : dayOf(to)];
  if (start === undefined || end === undefined) return MAX_DAYS;
  return Math.min(Math.max((end.getTime() - start.getTime()) / DAY_MS + 1, 1), MAX_DAYS);
}

const seriesOf = (scope: Scope) => scope.tenantId ?? APPLICATION_SERIES;

/** A week or month the range cuts is counted whole: its users cannot be split by day without reading them. */
export async function activeUsers(scope: Scope, args: AnalyticsArgs): Promise<{ data: { period: string; count: number }[] }> {
  const { periods, interval } = range(scope, args);
  const rows = await executeOwned<{ period_start: string; users: number }[]>(
    scope.em,
    scope.applicationId,
    `select to_char(period_start, 'YYYY-MM-DD') as period_start, users from analytics_active_users
      where @owner and scope_tenant_id = ? and period = ? and period_start between ?::date and ?::date
      order by period_start`,
    [seriesOf(scope), interval, periods[0], periods.at(-1)],
  );
  const counts = new Map(rows.map((row) => [row.period_start, Number(row.users)]));
  return { data: periods.map((period) => ({ period, count: counts.get(period) ?? 0 })) };
}

export async function signIns(
  scope: Scope,
  args: AnalyticsArgs,
): Promise<{ data: { period: string; succeeded: number; failed: number; byMethod: Record<string, number> }[] }> {
  // Whole periods, as activeUsers counts them: a point is its period's, whatever days of it the range names.
  const { interval, periods, last } = range(scope, args);
  const rows = await executeOwned<{ day: string; method: string; succeeded: number; failed: number }[]>(
    scope.em,
    scope.applicationId,
    `select to_char(day, 'YYYY-MM-DD') as day, method, succeeded, failed from analytics_sign_ins
      where @owner and scope_tenant_id = ? and day between ?::date and ?::date order by day`,
    [seriesOf(scope), periods[0], last],
  );
  type Point = { period: string; succeeded: number; failed: number; byMethod: Record<string, number> };
  const byPeriod = new Map(periods.map((period): [string, Point] => [period, { period, succeeded: 0, failed: 0, byMethod: {} }]));
  for (const row of rows) {
    const point = byPeriod.get(utcDay(periodStart(new Date(`${row.day}T00:00:00Z`), interval)));
    if (point === undefined) continue;
    point.succeeded += Number(row.succeeded);
    point.failed += Number(row.failed);
    point.byMethod[row.method] = (point.byMethod[row.method] ?? 0) + Number(row.succeeded) + Number(row.failed);
  }
  return { data: [...byPeriod.values()] };
}

/**
 * Counted from the factors themselves, so a user's deletion or change of tenants leaves no stale count. Recovery
 * codes are not a factor: they stand in for one.
 */
export async function mfaAdoption(scope: Scope): Promise<{ users: number; usersWithMfa: number; ratio: number; byFactor: Record<string, number> }> {
  const { applicationId, tenantId } = scope;
  const inTenant = tenantId === null ? '' : ' and ?::uuid = any(u.tenant_ids)';
  const params = tenantId === null ? [] : [tenantId];
  const [counted] = await executeOwned<{ users: number }[]>(
    scope.em,
    applicationId,
    `select count(*)::int as users from app_user as u where @owner(u)${inTenant}`,
    params,
  );
  const factors = await executeOwned<{ factor: string | null; users: number }[]>(
    scope.em,
    applicationId,
    `select f.kind as factor, count(distinct f.user_id)::int as users
       from (select application_id, user_id, kind from mfa_factor
             union all select application_id, user_id, 'webauthn' from webauthn_credential) as f join app_user as u on u.application_id = f.application_id and u.id = f.user_id
      where @owner(f)${inTenant}
      group by grouping sets ((f.kind), ())`,
    params,
  );
  const users = counted?.users ?? 0;
  const byFactor: Record<string, number> = {};
  let usersWithMfa = 0;
  for (const row of factors) {
    if (row.factor === null) usersWithMfa = row.users;
    else byFactor[row.factor] = row.users;
  }
  return { users, usersWithMfa, ratio: users === 0 ? 0 : usersWithMfa / users, byFactor };
}
