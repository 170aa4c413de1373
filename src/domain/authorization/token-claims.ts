import type { PostgreSqlConnection } from '@mikro-orm/postgresql';
import { PermissionSet } from '../../auth/permissions.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { readHeldGrants, subjectKey, type RoleSubject } from './held-roles.ts';

/** What a token says a subject holds in one tenant (or application-wide): role keys and permissions. */
export interface HeldClaims {
  readonly roles: string[];
  readonly permissions: string[];
}

/** The subject's role keys and the set of grants it holds there (its own list ∪ its roles'); nothing for one that cannot act. */
async function heldSet(connection: PostgreSqlConnection, applicationId: string, tenantId: string | null, subject: RoleSubject) {
  const held = (await readHeldGrants(connection, applicationId, tenantId, [subject])).get(subjectKey(subject));
  const roles = [...new Set(held?.roles.map((role) => role.key) ?? [])].sort();
  const grants = new PermissionSet([...(held?.own ?? []), ...(held?.roles.flatMap((role) => role.permissions) ?? [])]);
  return { roles, grants };
}

/**
 * A token for an API resource: the subject's roles there, and those of the resource's permissions they allow
 * (wildcards included: `*` or `invoices:*` allow `invoices:approve`), in the resource's order.
 */
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

/**
 * A sign-in's `roles` claims (scope `roles`): the user's roles there, and every permission they hold there, the
 * management API's built-in ones and the application's own (its application-wide ones and the tenant's), wildcards
 * expanded, sorted.
 */
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
