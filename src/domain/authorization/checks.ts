import type { OperationCoordinate } from '../../auth/operation-permissions.ts';
import { PermissionSet } from '../../auth/permissions.ts';
import type { Scope } from '../../context.ts';
import { invalid } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { holdsPermission, subjectKey, type HeldGrants, type RoleSubject } from './held-roles.ts';
import { ownsApplicationWideCredentials } from './role-assignments.ts';

export const MAX_BULK_CHECKS = 100;

const PERMISSION_KEY = /^[a-z0-9_-]{1,100}:[a-z0-9_-]{1,100}$/;
/** A role may also be named by its id. */
const ROLE_KEY = /^[a-z0-9_-]{1,100}$/;

export interface PermissionCheck {
  readonly subject: RoleSubject;
  readonly permission: string;
}

export interface PermissionAnswer {
  readonly allowed: boolean;
  readonly roles: string[];
}

function permissionKey(field: string, permission: string): string {
  if (!PERMISSION_KEY.test(permission)) {
    throw invalid(field, 'A permission to check is a key resource:action (lower case letters, digits, _ and -), not a wildcard');
  }
  return permission;
}

/** Through enforcement's cache (held-roles.ts), on the ORM's connection. A user not a member of the scope's tenant is of
 *  another tenant (API.md) whatever application-wide roles they hold: a check must not tell the tenant they exist; nor
 *  anyone but their owner what the application's own keys and credentials hold (`operation`: the check's own). */
async function holdings(scope: Scope, subjects: readonly RoleSubject[], operation: OperationCoordinate): Promise<Map<string, HeldGrants>> {
  const held = await scope.services.apiKeys.heldGrants.read(scope.services.orm.em.getConnection(), scope.applicationId, scope.tenantId, subjects);
  const ownsWide = [...held.values()].some((grants) => grants.applicationWide) && (await ownsApplicationWideCredentials(scope, operation));
  return new Map([...held].filter(([, grants]) => grants.member && (ownsWide || !grants.applicationWide)));
}

/** A subject that cannot act in the scope is refused, never a 404, so a check tells nothing of what exists elsewhere.
 *  Wildcards grant what they cover, defined yet or not. */
function answer(held: HeldGrants | undefined, permission: string): PermissionAnswer {
  if (held === undefined || !holdsPermission(held, permission)) return { allowed: false, roles: [] };
  return { allowed: true, roles: [...new Set(held.roles.filter((role) => new PermissionSet(role.permissions).allows(permission)).map((role) => role.key))] };
}

/** POST /permissions/check. */
export async function checkPermission(scope: Scope, check: PermissionCheck): Promise<PermissionAnswer> {
  const permission = permissionKey('permission', check.permission);
  const held = await holdings(scope, [check.subject], 'Mutation.checkPermission');
  return answer(held.get(subjectKey(check.subject)), permission);
}

/** POST /permissions/bulk-check: answered in order; every subject's holdings come from one statement. */
export async function bulkCheckPermissions(scope: Scope, checks: readonly PermissionCheck[]): Promise<{ results: { allowed: boolean }[] }> {
  if (checks.length === 0 || checks.length > MAX_BULK_CHECKS) throw invalid('checks', `Ask 1 to ${MAX_BULK_CHECKS} checks`);
  const permissions = checks.map((check, index) => permissionKey(`checks[${index}].permission`, check.permission));
  const held = await holdings(scope, checks.map((check) => check.subject), 'Mutation.bulkCheckPermissions');
  return { results: checks.map((check, index) => ({ allowed: answer(held.get(subjectKey(check.subject)), permissions[index]!).allowed })) };
}

/** POST /roles/check. */
export async function checkRole(scope: Scope, check: { subject: RoleSubject; role: string }): Promise<{ allowed: boolean }> {
  const role = isUuid(check.role) ? check.role.toLowerCase() : check.role;
  if (!isUuid(role) && !ROLE_KEY.test(role)) throw invalid('role', 'A role is named by its key (lower case letters, digits, _ and -) or its id');
  const held = (await holdings(scope, [check.subject], 'Mutation.checkRole')).get(subjectKey(check.subject));
  return { allowed: held?.roles.some((granted) => granted.id === role || granted.key === role) ?? false };
}
