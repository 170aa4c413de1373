import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import { issueTestKey } from './keys.ts';

export interface TenantReading {
  readonly applicationId?: string;
  /** The records' target. */
  readonly userId: string;
  /** The records, oldest first. */
  readonly ids: readonly string[];
  /** Narrows each tenant's search (`&action=…`). */
  readonly search: string;
  /** Tenants whose scopes read every record, in search and by id. */
  readonly tenants: readonly string[];
  /** A tenant whose scope reads nothing of the user. */
  readonly outsider: string;
}

/** The audit records of a user's change are read by their tenants' scopes, and by no other tenant's. */
export async function expectReadByTenantsOnly(app: TestApp, { applicationId, userId, ids, search, tenants, outsider }: TenantReading): Promise<void> {
  const readerOf = (tenantId: string) => issueTestKey(app, { ...(applicationId === undefined ? {} : { applicationId }), tenantId, permissions: ['users:read', 'audit_logs:read'] });
  for (const tenantId of tenants) {
    const reader = await readerOf(tenantId);
    expect((await reader.get(`/audit-logs?target=${userId}${search}`)).body.data.map((seen: { id: string }) => seen.id)).toEqual([...ids].reverse());
    for (const id of ids) expect((await reader.get(`/audit-logs/${id}`)).status).toBe(200);
  }
  const other = await readerOf(outsider);
  expect((await other.get(`/audit-logs?target=${userId}`)).body.data).toEqual([]);
  for (const id of ids) expect((await other.get(`/audit-logs/${id}`)).status).toBe(404);
}
