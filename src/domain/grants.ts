import type { Scope } from '../context.ts';
import { isPermissionGrant } from '../auth/permissions.ts';
import { GatehouseError, invalid } from '../errors.ts';

/** At least one grant, each from the permission table, duplicates dropped, order kept. */
export function permissionGrants(grants: string[]): string[] {
  if (grants.length === 0) throw invalid('permissions', 'permissions must name at least one permission');
  const invalidGrant = grants.find((grant) => !isPermissionGrant(grant));
  if (invalidGrant !== undefined) {
    throw invalid('permissions', `Unknown permission ${JSON.stringify(invalidGrant)}: use resource:action, resource:* or *`);
  }
  return [...new Set(grants)];
}

/** A credential may hand out only what it holds itself, or issuing one would be a way to widen one's own rights. */
export function requireCovered(scope: Scope, grants: string[]): void {
  if (!scope.permissions.covers(grants)) {
    throw new GatehouseError('forbidden', 'The credentials may not grant permissions they do not hold');
  }
}
