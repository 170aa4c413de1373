import { FULL_PAGE, readAllPages } from './all-pages.ts';
import { graphql } from './api.ts';
import { listTenantSummaries, type NamedTenant, type TenantSummary } from './operations.ts';

export interface TenantChoices {
  readonly multiTenant: boolean;
  /** Every tenant (in a tenant's scope, that one); none in a single-tenant application. */
  readonly tenants: readonly NamedTenant[];
}

export function listAllTenants(appId: string): Promise<readonly TenantSummary[]> {
  return readAllPages((cursor) => listTenantSummaries(appId, cursor, { pageSize: FULL_PAGE }));
}

export async function getTenantChoices(appId: string): Promise<TenantChoices> {
  const query = 'query TenantChoices($appId: UUID!) { application(appId: $appId) { multiTenant } }';
  const data = await graphql<{ application: { multiTenant: boolean } }>(query, { appId }, { applicationId: appId });
  const { multiTenant } = data.application;
  return { multiTenant, tenants: multiTenant ? await listAllTenants(appId) : [] };
}
