import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { CustomPermission } from '../../db/entities/index.ts';
import { newId } from '../../ids.ts';
import { recordAudit } from '../audit/audit.ts';
import { auditedFieldsOf, auditedSnapshot } from '../audit/audited-fields.ts';
import { authorizationChanged, description, keyClashes, keyTaken, permissionKey } from './writes.ts';

export interface CreatePermissionInput {
  key: string;
  description?: string | null;
}

const field = auditedFieldsOf<CustomPermission>();
const PERMISSION_SNAPSHOT = auditedSnapshot([field.value('key'), field.value('description'), field.value('tenantId')]);
export const permissionSnapshot = (permission: CustomPermission) => PERMISSION_SNAPSHOT.of(permission);
export const permissionSnapshotSql = PERMISSION_SNAPSHOT.sql;

/** A permission's key and description, each checked (422 naming `field`'s parts). */
export interface PermissionDefinition {
  readonly key: string;
  readonly description: string;
}

export function permissionDefinition(input: CreatePermissionInput, field?: string): PermissionDefinition {
  return {
    key: permissionKey(input.key, field === undefined ? undefined : `${field}.key`),
    description: description(input.description, field === undefined ? undefined : `${field}.description`),
  };
}

/** In the caller's transaction holding authorizationLock: its key may be taken at neither level (tenant, application-wide),
 *  else 409 on `field`. The caller announces the change once committed. */
export async function definePermission(em: EntityManager, scope: Scope, definition: PermissionDefinition, field = 'key'): Promise<CustomPermission> {
  const { key } = definition;
  if ((await em.count(CustomPermission, { key, ...keyClashes(scope.tenantId) })) > 0) throw keyTaken('Permission', key, field);
  const permission = em.create(CustomPermission, { applicationId: scope.applicationId, id: newId(), tenantId: scope.tenantId, key, description: definition.description });
  recordAudit(em, scope, { action: 'permission.created', targetType: 'permission', targetId: permission.id, after: permissionSnapshot(permission) });
  authorizationChanged(em, scope.applicationId);
  return permission;
}
