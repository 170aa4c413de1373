import { LRUCache } from 'lru-cache';
import type { Scope } from '../../context.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { APPLICATION_SERIES, utcDay } from '../analytics.ts';

/** API.md, "Application stats". */
export interface ApplicationStatsView {
  readonly users: number;
  readonly tenants: number;
  readonly activeUsers: { readonly day: number; readonly week: number; readonly month: number };
  readonly signIns: { readonly succeeded: number; readonly failed: number };
  readonly computedAt: Date;
}

/** The lag the answer's `computedAt` states. */
const STATS_MAX_AGE_MS = 60_000;
const computed = new LRUCache<string, ApplicationStatsView>({ max: 10_000, ttl: STATS_MAX_AGE_MS });

const DAY_MS = 24 * 3600 * 1000;
const WEEK_DAYS = 7;
const MONTH_DAYS = 30;

const daysBack = (today: Date, days: number): string => utcDay(new Date(today.getTime() - (days - 1) * DAY_MS));

/**
 * From the analytics rollups of the application series (as /analytics reads them), which audit retention leaves alone:
 * windows of UTC days ending today. One statement of index ranges, kept a minute per instance (`computedAt` says when).
 */
export async function applicationStats(scope: Scope): Promise<ApplicationStatsView> {
  scope.requireApplicationWide();
  const { applicationId } = scope;
  const cached = computed.get(applicationId);
  if (cached !== undefined) return cached;
  const now = scope.services.clock();
  const [today, weekFrom, monthFrom] = [utcDay(now), daysBack(now, WEEK_DAYS), daysBack(now, MONTH_DAYS)];
  const [row] = await executeOwned<{ users: number; tenants: number; day: number; week: number; month: number; succeeded: number; failed: number }[]>(
    scope.em,
    applicationId,
    `with marks as (
       select user_id, period_start from analytics_active_user
        where @owner and scope_tenant_id = ? and period = 'day' and period_start between ?::date and ?::date),
     attempts as (
       select coalesce(sum(succeeded), 0)::int as succeeded, coalesce(sum(failed), 0)::int as failed from analytics_sign_ins
        where @owner and scope_tenant_id = ? and day between ?::date and ?::date)
     select (select count(*) from app_user where @owner)::int as users,
            (select count(*) from tenant where @owner)::int as tenants,
            (select count(distinct user_id) from marks where period_start = ?::date)::int as day,
            (select count(distinct user_id) from marks where period_start >= ?::date)::int as week,
            (select count(distinct user_id) from marks)::int as month,
            attempts.succeeded, attempts.failed
       from attempts`,
    [APPLICATION_SERIES, monthFrom, today, APPLICATION_SERIES, monthFrom, today, today, weekFrom],
  );
  const stats: ApplicationStatsView = {
    users: row?.users ?? 0,
    tenants: row?.tenants ?? 0,
    activeUsers: { day: row?.day ?? 0, week: row?.week ?? 0, month: row?.month ?? 0 },
    signIns: { succeeded: row?.succeeded ?? 0, failed: row?.failed ?? 0 },
    computedAt: now,
  };
  computed.set(applicationId, stats);
  return stats;
}
