import type { OperatorChoices } from './operations-operators.ts';

/** The role's name; its id for a role not among the choices (a tenant's own, given on that tenant's path). */
export function roleName(choices: OperatorChoices, roleId: string): string {
  return choices.roles.find((role) => role.id === roleId)?.name ?? roleId;
}

/** Where a role is held: "Application-wide", or the tenant's name (its id beyond the one page of tenants read). */
export function placeName(choices: OperatorChoices, tenantId: string | null): string {
  if (tenantId === null) return 'Application-wide';
  return choices.tenants.find((tenant) => tenant.id === tenantId)?.name ?? tenantId;
}
