import type { NamedTenant } from './operations.ts';
import type { RoleChoices, RoleSummary } from './operations-roles.ts';

/** The role's name; its id for a role not among the choices (deleted since they were read). */
export function roleName(choices: RoleChoices, roleId: string): string {
  return choices.roles.find((role) => role.id === roleId)?.name ?? roleId;
}

/** Where a role is held or a client belongs: "Application-wide", or the tenant's name (its id for one deleted since the tenants were read). */
export function placeName(choices: { readonly tenants: readonly NamedTenant[] }, tenantId: string | null): string {
  if (tenantId === null) return 'Application-wide';
  return choices.tenants.find((tenant) => tenant.id === tenantId)?.name ?? tenantId;
}

export function membershipLabel(tenants: readonly NamedTenant[], tenantIds: readonly string[]): string {
  return tenantIds.length === 0 ? 'No tenant' : tenantIds.map((tenantId) => placeName({ tenants }, tenantId)).join(', ');
}

/** The roles that can be given in a tenant (the application-wide ones and its own), or in every tenant (the former). */
export function assignableRoles(choices: RoleChoices, tenantId: string | null): readonly RoleSummary[] {
  return choices.roles.filter((role) => role.tenantId === null || role.tenantId === tenantId);
}

/** The tenants a grant may name: every tenant read, or the subject's own, by id where the tenants may not be read. */
export function grantTenants(choices: RoleChoices, memberOf?: readonly string[]): readonly NamedTenant[] {
  return memberOf === undefined ? choices.tenants : memberOf.map((id) => ({ id, name: placeName(choices, id) }));
}
