/** Whether the signed-in operator holds a built-in permission (`users:write`) where a screen acts: what it offers. */
export type MayDo = (permission: string) => boolean;

/** From `managedApplications`' permissions (wildcards spelled out); the server still judges each action. */
export function mayDoFrom(permissions: readonly string[]): MayDo {
  const held = new Set(permissions);
  return (permission) => held.has(permission);
}

/** Whether a tenant's override may be written with `permission` there: it also takes `tenant_overrides:write` (spec: Authentication, rule 6). */
export const mayOverride = (may: MayDo, permission: string): boolean => may(permission) && may('tenant_overrides:write');

/** Whether a row offers any of its actions: a table without one has no Actions column. */
export const offersAny = <K extends string>(offers: Readonly<Record<K, boolean>>): boolean => Object.values<boolean>(offers).includes(true);

/** The permission a form choosing among the permissions needs besides its own: it reads their catalogue. */
export const CATALOGUE_READ = 'permissions:read';

/** Whether a form that chooses among the permissions (a role's, a key's, a credential's, an API resource's) may be
 *  offered with `permission`: without the catalogue it could offer none, and its read would be refused. */
export const mayChoosePermissions = (may: MayDo, permission: string): boolean => may(permission) && may(CATALOGUE_READ);

/** What listing the application's tenants takes: a tenant picker's, or a form's choice of tenant. */
export const TENANTS_READ = 'tenants:read';

/** Whether a control choosing among the tenants (a picker, a filter, a form's tenant) may be offered: without the
 *  tenants' list it could offer none, and its read would be refused. */
export const mayPickTenant = (may: MayDo): boolean => may(TENANTS_READ);
