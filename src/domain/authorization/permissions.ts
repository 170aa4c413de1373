import { createHash } from 'node:crypto';
import { BUILT_IN_PERMISSIONS, type Permission } from '../../auth/permissions.ts';
import type { Scope } from '../../context.ts';
import { CustomPermission, Role } from '../../db/entities/index.ts';
import { selectPage } from '../../db/page-query.ts';
import { HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { GatehouseError, invalid, notFound } from '../../errors.ts';
import { recordAudit } from '../audit/audit.ts';
import { uniquely } from '../db-errors.ts';
import { narrowedList, pageSize, scopedList, type Page, type PageArgs, type Row } from '../pagination.ts';
import { requireMayTakeAway, roleSnapshot } from './roles.ts';
import { removePermissionFromApiResources } from '../api-resources/api-resources.ts';
import { definePermission, permissionDefinition, permissionSnapshot, type CreatePermissionInput } from './permission-definition.ts';
import { authorizationChanged, authorizationLock } from './writes.ts';

export interface PermissionView {
  id: string;
  key: string;
  description: string;
  builtIn: boolean;
  /** Null for an application-wide or built-in one. */
  tenantId: string | null;
  /** Null for a built-in permission. */
  createdAt: Date | null;
}

/** Stable in every application and release: SHA-256(`gatehouse:permission:` + key) shaped as a UUIDv7 (RFC 9562), its
 *  "timestamp" bits hash bits, so it never collides with a generated one. */
export function builtInPermissionId(key: string): string {
  const bytes = createHash('sha256').update(`gatehouse:permission:${key}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** In the order of the table, listed before the application's own. */
const BUILT_IN: readonly PermissionView[] = (Object.keys(BUILT_IN_PERMISSIONS) as Permission[]).map((key) => ({
  id: builtInPermissionId(key),
  key,
  description: BUILT_IN_PERMISSIONS[key],
  builtIn: true,
  tenantId: null,
  createdAt: null,
}));
const BUILT_IN_IDS: ReadonlySet<string> = new Set(BUILT_IN.map((permission) => permission.id));

const presentCustom = (permission: Row<CustomPermission>): PermissionView => ({
  id: permission.id,
  key: permission.key,
  description: permission.description,
  builtIn: false,
  tenantId: permission.tenantId ?? null,
  createdAt: permission.createdAt,
});

/** Built-ins, then the custom ones the scope sees, in one cursor sequence (a built-in id resumes among the built-ins).
 *  `args.ids` narrows both. */
export async function listPermissions(scope: Scope, args: PageArgs): Promise<Page<PermissionView>> {
  const size = pageSize(args);
  const { ids, list } = narrowedList(args, scopedList(scope, 'permissions'));
  const after = args.cursor == null ? undefined : scope.services.cursors.decode(list, args.cursor);
  const builtInAt = after === undefined ? -1 : BUILT_IN.findIndex((permission) => permission.id === after);
  // A custom row's cursor is past every built-in.
  const following = after === undefined ? BUILT_IN : builtInAt >= 0 ? BUILT_IN.slice(builtInAt + 1) : [];
  const asked = ids === undefined ? undefined : new Set(ids);
  const builtIns = asked === undefined ? following : following.filter((permission) => asked.has(permission.id));
  const customAfter = builtInAt >= 0 ? undefined : after;
  const wanted = size + 1 - Math.min(builtIns.length, size + 1);
  const custom = wanted === 0 ? [] : ((await selectPage(scope.em, CustomPermission, {}, { after: customAfter, ids, limit: wanted })) as unknown as Row<CustomPermission>[]);
  const rows = [...builtIns.slice(0, size + 1), ...custom.map(presentCustom)];
  const data = rows.slice(0, size);
  const last = data.at(-1);
  return { data, next: rows.length > size && last !== undefined ? scope.services.cursors.encode(list, last.id) : null };
}

export async function createPermission(scope: Scope, input: CreatePermissionInput): Promise<PermissionView> {
  const definition = permissionDefinition(input);
  const created = await uniquely('key', `Permission ${JSON.stringify(definition.key)}`, () => scope.transactional((em) => definePermission(em, scope, definition), authorizationLock(scope.applicationId)));
  return presentCustom(created);
}

/** Roles holding it leave it in the same transaction (`role.updated`). Built-in: 422; an application-wide one in a tenant
 *  scope: 403. */
export async function deletePermission(scope: Scope, permissionId: string): Promise<boolean> {
  if (BUILT_IN_IDS.has(permissionId)) throw invalid('permissionId', 'A built-in permission cannot be deleted');
  await scope.transactional(async (em) => {
    const permission = await em.findOne(CustomPermission, { id: permissionId }, HOLD_FOR_UPDATE);
    if (permission === null) throw notFound('Permission', 'permissionId');
    const tenantId = permission.tenantId ?? null;
    if (scope.tenantId !== null && tenantId === null) {
      throw new GatehouseError('forbidden', 'An application-wide permission is deleted with application-wide credentials on the application’s path');
    }
    // Only roles that see the permission can hold it: every role for an application-wide one, its tenant's for a tenant's.
    const holders = await em.find(Role, { permissions: { $contains: [permission.key] }, ...(tenantId === null ? {} : { tenantId }) });
    // Each holder is narrowed, as a PATCH dropping the key would narrow it.
    for (const role of holders) requireMayTakeAway(scope, role);
    for (const role of holders) {
      const before = roleSnapshot(role);
      role.permissions = role.permissions.filter((grant) => grant !== permission.key);
      recordAudit(em, scope, { action: 'role.updated', targetType: 'role', targetId: role.id, tenantId: role.tenantId ?? null, before, after: roleSnapshot(role) });
    }
    if (tenantId === null) await removePermissionFromApiResources(em, scope, permission.key);
    recordAudit(em, scope, { action: 'permission.deleted', targetType: 'permission', targetId: permission.id, tenantId, before: permissionSnapshot(permission) });
    em.remove(permission);
    authorizationChanged(em, scope.applicationId);
  }, authorizationLock(scope.applicationId));
  return true;
}
