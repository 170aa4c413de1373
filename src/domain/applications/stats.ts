import { LRUCache } from 'lru-cache';
import type { Scope } from '../../context.ts';
import { executeOwned } from '../../db/owned-sql.ts';

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
const MONTH_DAYS = 30;

/** Audit ids sort by creation time, so `id >=` it is an index range, never a scan of every record. */
export function uuidV7Floor(at: Date): string {
  const hex = at.getTime().toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}

/** One statement of index ranges. Kept a minute per instance (`computedAt` says when). */
export async function applicationStats(scope: Scope): Promise<ApplicationStatsView> {
  scope.requireApplicationWide();
  const { applicationId } = scope;
  const cached = computed.get(applicationId);
  if (cached !== undefined) return cached;
  const now = new Date();
  const since = uuidV7Floor(new Date(now.getTime() - MONTH_DAYS * DAY_MS));
  const [row] = await executeOwned<{ users: number; tenants: number; day: number; week: number; month: number; succeeded: number; failed: number }[]>(
    scope.em,
    applicationId,
    `with activity as (
       select target_id as user_id, created_at as at from audit_log where @owner and action = 'user.signed_in' and id >= ?
       union all
       select user_id::text, last_active_at from user_session where @owner and last_active_at >= ?::timestamptz - interval '${MONTH_DAYS} days'),
     latest as (select user_id, max(at) as at from activity group by user_id)
     select (select count(*) from app_user where @owner)::int as users,
            (select count(*) from tenant where @owner)::int as tenants,
            (select count(*) from latest where at >= ?::timestamptz - interval '1 day')::int as day,
            (select count(*) from latest where at >= ?::timestamptz - interval '7 days')::int as week,
            (select count(*) from latest where at >= ?::timestamptz - interval '${MONTH_DAYS} days')::int as month,
            (select count(*) from audit_log where @owner and action = 'user.signed_in' and id >= ?)::int as succeeded,
            (select count(*) from audit_log where @owner and action = 'user.sign_in_failed' and id >= ?)::int as failed`,
    [since, now, now, now, now, since, since],
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
