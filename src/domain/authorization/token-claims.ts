import type { PostgreSqlConnection } from '@mikro-orm/postgresql';
import { PermissionSet } from '../../auth/permissions.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { readHeldGrants, subjectKey, type RoleSubject } from './held-roles.ts';

export interface HeldClaims {
  readonly roles: string[];
  readonly permissions: string[];
}

/** Nothing for a subject that cannot act. */
async function heldSet(connection: PostgreSqlConnection, applicationId: string, tenantId: string | null, subject: RoleSubject) {
  const held = (await readHeldGrants(connection, applicationId, tenantId, [subject])).get(subjectKey(subject));
  const roles = [...new Set(held?.roles.map((role) => role.key) ?? [])].sort();
  const grants = new PermissionSet([...(held?.own ?? []), ...(held?.roles.flatMap((role) => role.permissions) ?? [])]);
  return { roles, grants };
}

/** Wildcards included (`invoices:*` allows `invoices:approve`), in the resource's order. */
export async function resourceClaims(
  connection: PostgreSqlConnection,
  applicationId: string,
  tenantId: string | null,
  subject: RoleSubject,
  resourcePermissions: readonly string[],
): Promise<HeldClaims> {
  const { roles, grants } = await heldSet(connection, applicationId, tenantId, subject);
  return { roles, permissions: resourcePermissions.filter((permission) => grants.allows(permission)) };
}

/** Scope `roles`: the user's roles and every permission they hold there, wildcards expanded, sorted. */
export async function signInClaims(connection: PostgreSqlConnection, applicationId: string, tenantId: string | null, userId: string): Promise<HeldClaims> {
  const [{ roles, grants }, custom] = await Promise.all([
    heldSet(connection, applicationId, tenantId, { type: 'user', id: userId }),
    executeOwned<{ key: string }[]>(
      connection,
      applicationId,
      `select key from permission where @owner and (tenant_id is null${tenantId === null ? '' : ' or tenant_id = ?'})`,
      tenantId === null ? [] : [tenantId],
    ),
  ]);
  const permissions = new Set<string>([...grants.allowed(), ...custom.map((row) => row.key).filter((key) => grants.allows(key))]);
  return { roles, permissions: [...permissions].sort() };
}
