import type { EntityManager } from '@mikro-orm/postgresql';
import { isPermissionGrant, PermissionSet } from '../../auth/permissions.ts';
import type { Scope } from '../../context.ts';
import { CustomPermission, Role } from '../../db/entities/index.ts';
import { HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { GatehouseError, invalid, notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { recordAudit } from '../audit/audit.ts';
import { auditedFieldsOf, auditedSnapshot } from '../audit/audited-fields.ts';
import { uniquely } from '../db-errors.ts';
import { requireCovered } from '../grants.ts';
import { paginate, scopedList, type Page, type PageArgs, type Row } from '../pagination.ts';
import { displayName } from '../validate.ts';
import { withdrawDeletedRole } from '../invitations/invitations.ts';
import { FIXED_ROLES } from './built-in-roles.ts';
import { removeAssignments } from './role-assignments.ts';
import { authorizationChanged, description, isPermissionKeyShaped, keyClashes, keyTaken, authorizationLock, roleKey, visibleIn } from './writes.ts';

/** The GraphQL `Role` type's codegen mapper. */
export type RoleRow = Row<Role>;

export interface CreateRoleInput {
  key: string;
  name: string;
  description?: string | null;
  permissions: string[];
}

export interface UpdateRoleInput {
  key?: string | null;
  name?: string | null;
  description?: string | null;
  permissions?: string[] | null;
}

const field = auditedFieldsOf<Role>();
const ROLE_SNAPSHOT = auditedSnapshot([
  field.value('key'),
  field.value('name'),
  field.value('description'),
  field.list('permissions'),
  field.value('tenantId'),
  field.value('builtIn'),
]);
export const roleSnapshot = (role: Role) => ROLE_SNAPSHOT.of(role);
export const roleSnapshotSql = ROLE_SNAPSHOT.sql;

/** Application-wide ones (built-in first, as the oldest) and, in a tenant scope, its own. */
export async function listRoles(scope: Scope, args: PageArgs): Promise<Page<RoleRow>> {
  return paginate(scope.em, Role, {}, args, scope.services.cursors, scopedList(scope, 'roles'));
}

export async function getRole(scope: Scope, roleId: string): Promise<Role> {
  const role = await scope.em.findOne(Role, { id: roleId });
  if (role === null) throw notFound('Role', 'roleId');
  return role;
}

/** Each a management API grant or a custom permission the role sees, else 422 naming it; duplicates dropped. */
async function grantsOfRole(em: EntityManager, tenantId: string | null, grants: readonly string[]): Promise<string[]> {
  const unique = [...new Set(grants)];
  const custom = unique.filter((grant) => !isPermissionGrant(grant));
  // Only a key's shape is looked up: anything else (a NUL, which PostgreSQL cannot take) is unknown as it stands.
  const lookedUp = custom.filter(isPermissionKeyShaped);
  const known = lookedUp.length === 0 ? new Set<string>() : new Set((await em.find(CustomPermission, { key: { $in: lookedUp }, ...visibleIn(tenantId) })).map((permission) => permission.key));
  const unknown = custom.find((grant) => !known.has(grant));
  if (unknown !== undefined) {
    throw invalid('permissions', `Unknown permission ${JSON.stringify(unknown)}: a built-in one, resource:*, * or a custom permission the role sees`);
  }
  return unique;
}

/** The caller must hold every built-in permission it puts in the role (403): a role is a way to hand rights out. */
export async function createRole(scope: Scope, input: CreateRoleInput): Promise<Role> {
  const key = roleKey(input.key);
  const name = displayName('name', input.name);
  const text = description(input.description);
  const role = await uniquely('key', `Role ${JSON.stringify(key)}`, () =>
    scope.transactional(async (em) => {
      const permissions = await grantsOfRole(em, scope.tenantId, input.permissions);
      requireCovered(scope, permissions);
      if ((await em.count(Role, { key, ...keyClashes(scope.tenantId) })) > 0) throw keyTaken('Role', key);
      const created = em.create(Role, {
        applicationId: scope.applicationId,
        id: newId(),
        tenantId: scope.tenantId,
        key,
        name,
        description: text,
        permissions,
        builtIn: false,
      });
      recordAudit(em, scope, { action: 'role.created', targetType: 'role', targetId: created.id, after: roleSnapshot(created) });
      authorizationChanged(em, scope.applicationId);
      return created;
    }, authorizationLock(scope.applicationId)),
  );
  return role;
}

/**
 * Held FOR UPDATE until `em`'s transaction ends. An application-wide role, built-ins included, is changed only in the
 * application's scope (a tenant scope, which reads it, gets 403).
 */
async function writableRole(scope: Scope, em: EntityManager, roleId: string): Promise<Role> {
  const role = await em.findOne(Role, { id: roleId }, HOLD_FOR_UPDATE);
  if (role === null) throw notFound('Role', 'roleId');
  if (scope.tenantId !== null && role.tenantId == null) {
    throw new GatehouseError('forbidden', 'An application-wide role is changed with application-wide credentials on the application’s path');
  }
  return role;
}

const sameGrants = (a: readonly string[], b: readonly string[]) => a.length === new Set(b).size && a.every((grant) => b.includes(grant));

/** By what they allow, not how spelled: a built-in permission, a custom key, or what only `*` allows (custom ones to come). */
function narrows(before: readonly string[], after: readonly string[]): boolean {
  const next = new PermissionSet(after);
  return !next.covers(before) || before.some((grant) => (grant === '*' || !isPermissionGrant(grant)) && !next.allows(grant));
}

/** Taking from every holder of the role what the caller could not give them is demoting them: the caller must hold the
 *  role's built-in permissions (403), as to remove one assignment of it (deleteRoleAssignment). */
export const requireMayTakeAway = (scope: Scope, role: Pick<Role, 'permissions'>) => requireCovered(scope, role.permissions);

const nonNull = <T>(value: T | null | undefined, field: string): T | undefined => {
  if (value === null) throw invalid(field, `${field} may not be null`);
  return value;
};

/**
 * A built-in role keeps its key, and `app_admin` and `tenant_admin` their permissions (422). Permissions added must be
 * held by the caller (403); dropping any, or changing the key (what `/roles/check` and the `roles` claim name), takes
 * holding all the role's built-in ones (requireMayTakeAway). A name or description alone needs neither.
 */
export async function updateRole(scope: Scope, roleId: string, input: UpdateRoleInput): Promise<Role> {
  const requestedKey = nonNull(input.key, 'key');
  const key = requestedKey === undefined ? undefined : roleKey(requestedKey);
  const requestedName = nonNull(input.name, 'name');
  const name = requestedName === undefined ? undefined : displayName('name', requestedName);
  const text = input.description === undefined ? undefined : description(input.description);
  const grants = nonNull(input.permissions, 'permissions');
  const updated = await uniquely('key', `Role ${JSON.stringify(key)}`, () =>
    scope.transactional(async (em) => {
      const role = await writableRole(scope, em, roleId);
      const tenantId = role.tenantId ?? null;
      const before = roleSnapshot(role);
      const rekeyed = key !== undefined && key !== role.key;
      if (rekeyed) {
        if (role.builtIn) throw invalid('key', 'A built-in role keeps its key');
        if ((await em.count(Role, { key, id: { $ne: role.id }, ...keyClashes(tenantId) })) > 0) throw keyTaken('Role', key);
      }
      let permissions: string[] | undefined;
      if (grants !== undefined) {
        const next = await grantsOfRole(em, tenantId, grants);
        const fixed = role.builtIn ? FIXED_ROLES[role.key] : undefined;
        if (fixed !== undefined) {
          if (!sameGrants(next, role.permissions)) throw invalid('permissions', `The permissions of ${role.key} are fixed: ${fixed}`);
        } else {
          // By what they allow, not how spelled: `*` narrowed to `users:read` adds nothing.
          const held = new PermissionSet(role.permissions);
          requireCovered(scope, next.filter((grant) => !held.covers([grant])));
          permissions = next;
        }
      }
      if (rekeyed || (permissions !== undefined && narrows(role.permissions, permissions))) requireMayTakeAway(scope, role);
      if (rekeyed) role.key = key;
      if (permissions !== undefined) role.permissions = permissions;
      if (name !== undefined) role.name = name;
      if (text !== undefined) role.description = text;
      recordAudit(em, scope, { action: 'role.updated', targetType: 'role', targetId: role.id, tenantId, before, after: roleSnapshot(role) });
      authorizationChanged(em, scope.applicationId);
      return role;
    }, authorizationLock(scope.applicationId)),
  );
  return updated;
}

/** Its assignments go in the same transaction, each audited. A built-in role: 422; the caller must hold its built-in
 *  permissions (requireMayTakeAway). */
export async function deleteRole(scope: Scope, roleId: string): Promise<boolean> {
  await scope.transactional(async (em) => {
    const role = await writableRole(scope, em, roleId);
    if (role.builtIn) throw invalid('roleId', 'A built-in role cannot be deleted');
    requireMayTakeAway(scope, role);
    await removeAssignments(em, scope, 'a.role_id = ?', [role.id]);
    await withdrawDeletedRole(em, scope, role.id);
    recordAudit(em, scope, { action: 'role.deleted', targetType: 'role', targetId: role.id, tenantId: role.tenantId ?? null, before: roleSnapshot(role) });
    em.remove(role);
    authorizationChanged(em, scope.applicationId);
  }, authorizationLock(scope.applicationId));
  return true;
}
