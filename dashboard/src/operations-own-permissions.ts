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
