import { FULL_PAGE, readAllPages } from './all-pages.ts';
import { graphql } from './api.ts';
import { listTenantSummaries, type NamedTenant, type TenantSummary } from './operations.ts';
import { mayPickTenant, type MayDo } from './operations-own-permissions.ts';

export interface TenantChoices {
  readonly multiTenant: boolean;
  /** Every tenant (in a tenant's scope, that one); none in a single-tenant application, or without tenants:read. */
  readonly tenants: readonly NamedTenant[];
}

/** Every tenant, to name and offer them; none without tenants:read, whose list would be refused: a record then
 *  shows its tenant by id (placeName), and no choice of tenant is offered (TenantPicker). */
export function listAllTenants(appId: string, may: MayDo): Promise<readonly TenantSummary[]> {
  if (!mayPickTenant(may)) return Promise.resolve([]);
  return readAllPages((cursor) => listTenantSummaries(appId, cursor, { pageSize: FULL_PAGE }));
}

export async function getTenantChoices(appId: string, may: MayDo): Promise<TenantChoices> {
  const query = 'query TenantChoices($appId: UUID!) { application(appId: $appId) { multiTenant } }';
  const data = await graphql<{ application: { multiTenant: boolean } }>(query, { appId }, { applicationId: appId });
  const { multiTenant } = data.application;
  return { multiTenant, tenants: multiTenant ? await listAllTenants(appId, may) : [] };
}
