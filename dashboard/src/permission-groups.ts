import type { Permission } from './operations-roles.ts';

/** The grant of every permission the credential's creator holds, shown as "All permissions". */
export const ALL_PERMISSIONS = '*';

export interface PermissionGroup {
  /** The part before the colon (`users`), or the whole grant (`*`). */
  readonly resource: string;
  readonly permissions: readonly Permission[];
}

export function resourceOf(key: string): string {
  const colon = key.indexOf(':');
  return colon === -1 ? key : key.slice(0, colon);
}

export function actionOf(key: string): string {
  return key.slice(key.indexOf(':') + 1);
}

/** The built-in and application-wide permissions, the tenant's own, and any grant held beyond the catalogue (`users:*`),
 *  so that saving keeps it unless unchecked. */
export function permissionOptions(catalogue: readonly Permission[], tenantId: string | null, held: readonly string[]): readonly Permission[] {
  const visible = catalogue.filter((permission) => permission.tenantId === null || permission.tenantId === tenantId);
  const beyond = held.filter((key) => !visible.some((permission) => permission.key === key));
  return [...visible, ...beyond.map((key) => ({ key, description: '', tenantId, builtIn: false }))];
}

export function groupByResource(permissions: readonly Permission[]): readonly PermissionGroup[] {
  const groups = new Map<string, Permission[]>();
  for (const permission of permissions) {
    const resource = resourceOf(permission.key);
    groups.set(resource, [...(groups.get(resource) ?? []), permission]);
  }
  return [...groups].map(([resource, members]) => ({ resource, permissions: members }));
}

/** A credential's grants: "All permissions" for `*`, else as the API spells them. */
export function permissionsLabel(permissions: readonly string[]): string {
  return permissions.includes(ALL_PERMISSIONS) ? 'All permissions' : permissions.join(', ');
}
