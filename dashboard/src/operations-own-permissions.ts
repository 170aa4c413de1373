/** Whether the signed-in operator holds a built-in permission (`users:write`) where a screen acts: what it offers. */
export type MayDo = (permission: string) => boolean;

/**
 * What the operator may do where they hold `permissions`, as `managedApplications` returned them (an application's,
 * for its tabs; a tenant's, for its screens; wildcards spelled out). An action offered is still judged by the server.
 */
export function mayDoFrom(permissions: readonly string[]): MayDo {
  const held = new Set(permissions);
  return (permission) => held.has(permission);
}

/** Whether a tenant's override may be written with `permission` there: it also takes `tenant_overrides:write` (spec: Authentication, rule 6). */
export const mayOverride = (may: MayDo, permission: string): boolean => may(permission) && may('tenant_overrides:write');
