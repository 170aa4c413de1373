import { graphql } from './api.ts';
import type { TenantSummary } from './operations.ts';

export interface TenantInput {
  readonly name: string;
  /** Null: derived from the name by the server (`Crème Brûlée` → `creme-brulee`, numbered when taken). */
  readonly slug: string | null;
}

const TENANT_FIELDS = 'id name slug';

const asInput = ({ name, slug }: TenantInput) => ({ name, ...(slug === null ? {} : { slug }) });

/** The server refuses a slug another tenant has (409). */
export async function createTenant(appId: string, tenant: TenantInput): Promise<TenantSummary> {
  const mutation = `mutation CreateTenant($appId: UUID!, $input: CreateTenantInput!) { createTenant(appId: $appId, input: $input) { ${TENANT_FIELDS} } }`;
  const data = await graphql<{ createTenant: TenantSummary }>(mutation, { appId, input: asInput(tenant) }, { applicationId: appId });
  return data.createTenant;
}

/** A null slug keeps the tenant's. */
export async function updateTenant(appId: string, tenantId: string, tenant: TenantInput): Promise<TenantSummary> {
  const mutation = `mutation UpdateTenant($appId: UUID!, $tenantId: UUID!, $input: UpdateTenantInput!) {
    updateTenant(appId: $appId, tenantId: $tenantId, input: $input) { ${TENANT_FIELDS} }
  }`;
  const data = await graphql<{ updateTenant: TenantSummary }>(mutation, { appId, tenantId, input: asInput(tenant) }, { applicationId: appId });
  return data.updateTenant;
}

export async function deleteTenant(appId: string, tenantId: string): Promise<void> {
  const mutation = 'mutation DeleteTenant($appId: UUID!, $tenantId: UUID!) { deleteTenant(appId: $appId, tenantId: $tenantId) }';
  await graphql<{ deleteTenant: boolean }>(mutation, { appId, tenantId }, { applicationId: appId });
}
