import { ApiError, graphql } from './api.ts';

// The organization's calls, sent without an application header: the operator acts on the console, an application of
// the organization where they are app_admin, and the organization's operations answer its application-wide credentials.

export type OrganizationPlan = 'free' | 'starter' | 'pro' | 'enterprise';
export type OrganizationStatus = 'active' | 'deactivated';

/** The plans as the API names them (`OrganizationPlan`), with their labels. */
export const ORGANIZATION_PLANS: readonly { readonly value: OrganizationPlan; readonly label: string }[] = [
  { value: 'free', label: 'Free' },
  { value: 'starter', label: 'Starter' },
  { value: 'pro', label: 'Pro' },
  { value: 'enterprise', label: 'Enterprise' },
];

export interface BillingAddress {
  readonly line1: string;
  readonly line2: string | null;
  readonly city: string;
  readonly postalCode: string | null;
  readonly region: string | null;
  readonly country: string;
}

export interface OrganizationBilling {
  readonly plan: OrganizationPlan;
  readonly billingEmail: string | null;
  readonly address: BillingAddress | null;
  readonly taxId: string | null;
}

export interface Organization {
  readonly id: string;
  readonly name: string;
  readonly status: OrganizationStatus;
  readonly billing: OrganizationBilling;
}

const ORGANIZATION_FIELDS = `fragment OrganizationFields on Organization {
  id
  name
  status
  billing { plan billingEmail address { line1 line2 city postalCode region country } taxId }
}`;

/** The organization, or null while it is deactivated: reading it is refused then, as all but its reactivation. */
export async function findOrganization(orgId: string): Promise<Organization | null> {
  const query = `query Organization($orgId: UUID!) { organization(orgId: $orgId) { ...OrganizationFields } }
  ${ORGANIZATION_FIELDS}`;
  try {
    return (await graphql<{ organization: Organization }>(query, { orgId })).organization;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'organization_deactivated') return null;
    throw error;
  }
}

export async function renameOrganization(orgId: string, name: string): Promise<Organization> {
  const mutation = `mutation RenameOrganization($orgId: UUID!, $input: UpdateOrganizationInput!) {
    updateOrganization(orgId: $orgId, input: $input) { ...OrganizationFields }
  }
  ${ORGANIZATION_FIELDS}`;
  return (await graphql<{ updateOrganization: Organization }>(mutation, { orgId, input: { name } })).updateOrganization;
}

/** Replaces the whole billing: what `billing` leaves null is cleared. */
export async function putOrganizationBilling(orgId: string, billing: OrganizationBilling): Promise<Organization> {
  const mutation = `mutation PutOrganizationBilling($orgId: UUID!, $input: OrganizationBillingInput!) {
    putOrganizationBilling(orgId: $orgId, input: $input) { ...OrganizationFields }
  }
  ${ORGANIZATION_FIELDS}`;
  return (await graphql<{ putOrganizationBilling: Organization }>(mutation, { orgId, input: billing })).putOrganizationBilling;
}

export async function deactivateOrganization(orgId: string): Promise<Organization> {
  const mutation = `mutation DeactivateOrganization($orgId: UUID!) { deactivateOrganization(orgId: $orgId) { ...OrganizationFields } }
  ${ORGANIZATION_FIELDS}`;
  return (await graphql<{ deactivateOrganization: Organization }>(mutation, { orgId })).deactivateOrganization;
}

export async function reactivateOrganization(orgId: string): Promise<Organization> {
  const mutation = `mutation ReactivateOrganization($orgId: UUID!) { reactivateOrganization(orgId: $orgId) { ...OrganizationFields } }
  ${ORGANIZATION_FIELDS}`;
  return (await graphql<{ reactivateOrganization: Organization }>(mutation, { orgId })).reactivateOrganization;
}
