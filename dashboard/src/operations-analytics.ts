import { graphql } from './api.ts';

export type AnalyticsInterval = 'day' | 'week' | 'month';

/** The days asked for, YYYY-MM-DD (UTC days, inclusive), and their grouping. */
export interface AnalyticsRange {
  readonly from: string;
  readonly to: string;
  readonly interval: AnalyticsInterval;
}

/** A range, of the whole application (`tenantId` null) or of one tenant. */
export interface AnalyticsQuery extends AnalyticsRange {
  readonly tenantId: string | null;
}

export interface SignInsPoint {
  readonly period: string;
  readonly succeeded: number;
  readonly failed: number;
  readonly byMethod: Readonly<Record<string, number>>;
}

export interface Analytics {
  readonly activeUsers: readonly { readonly period: string; readonly count: number }[];
  readonly signIns: readonly SignInsPoint[];
  readonly mfaAdoption: {
    readonly users: number;
    readonly usersWithMfa: number;
    readonly ratio: number;
    readonly byFactor: Readonly<Record<string, number>>;
  };
}

/** The three analytics of the application (or a tenant) in one request. */
export async function getAnalytics(appId: string, { tenantId, from, to, interval }: AnalyticsQuery): Promise<Analytics> {
  const query = `query Analytics($appId: UUID!, $tenantId: UUID, $from: String, $to: String, $interval: AnalyticsInterval) {
    activeUsers(appId: $appId, tenantId: $tenantId, from: $from, to: $to, interval: $interval) { data { period count } }
    signIns(appId: $appId, tenantId: $tenantId, from: $from, to: $to, interval: $interval) { data { period succeeded failed byMethod } }
    mfaAdoption(appId: $appId, tenantId: $tenantId) { users usersWithMfa ratio byFactor }
  }`;
  const data = await graphql<{
    activeUsers: { data: Analytics['activeUsers'] };
    signIns: { data: Analytics['signIns'] };
    mfaAdoption: Analytics['mfaAdoption'];
  }>(query, { appId, tenantId, from, to, interval }, { applicationId: appId });
  return { activeUsers: data.activeUsers.data, signIns: data.signIns.data, mfaAdoption: data.mfaAdoption };
}
