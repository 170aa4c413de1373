import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../context.ts';
import { ALL_PERMISSIONS, isBuiltInResource, isPermissionGrant, PermissionSet } from '../auth/permissions.ts';
import { executeOwned } from '../db/owned-sql.ts';
import { GatehouseError, invalid } from '../errors.ts';
import { grantsOf, readHeldGrants, subjectKey, type RoleSubject } from './authorization/held-roles.ts';

export function permissionGrants(grants: string[]): string[] {
  if (grants.length === 0) throw invalid('permissions', 'permissions must name at least one permission');
  const invalidGrant = grants.find((grant) => !isPermissionGrant(grant));
  if (invalidGrant !== undefined) throw invalid('permissions', unknownGrant(invalidGrant));
  return [...new Set(grants)];
}

function unknownGrant(grant: string): string {
  const unknown = `Unknown permission ${JSON.stringify(grant.slice(0, 200))}: there is no such permission`;
  const resource = grant.split(':')[0] ?? '';
  if (!isBuiltInResource(resource)) {
    return `${unknown}; a credential carries the management API's own permissions (GET /api/v1/permissions lists them as builtIn), a resource:* of one of their resources, or *`;
  }
  const own = ALL_PERMISSIONS.filter((permission) => permission.startsWith(`${resource}:`));
  return `${unknown}; those of ${resource} are ${own.join(', ')}, and ${resource}:* for all of them`;
}

/** A credential may hand out only what it holds (`caller`: in another tenant than the scope's). */
export function requireCovered(scope: Scope, grants: readonly string[], caller: PermissionSet = scope.permissions): void {
  if (!caller.covers(grants)) {
    throw new GatehouseError('forbidden', 'The credentials may not grant permissions they do not hold');
  }
}

const NO_PERMISSIONS = new PermissionSet([]);

export interface HeldCredential extends RoleSubject {
  readonly tenantId: string | null;
  readonly permissions: readonly string[];
}

/** Rotating hands out all it acts with: its own list ∪ its roles' (API.md), application-wide and per tenant. Read in the
 *  transaction `em` that locked it, so no assignment slips in. */
export async function requireCoveredCredential(scope: Scope, em: EntityManager, credential: HeldCredential, callers: CallerHoldings): Promise<void> {
  const subject: RoleSubject = { type: credential.type, id: credential.id };
  const covered = async (tenantId: string | null, caller: PermissionSet) => {
    const held = await readHeldGrants(em, scope.applicationId, tenantId, [subject], { anyStatus: true });
    // Its own list from the row too: a subject readHeldGrants finds unable to act would otherwise ask for nothing.
    requireCovered(scope, [...credential.permissions, ...grantsOf(held.get(subjectKey(subject))).allowed()], caller);
  };
  if (credential.tenantId !== null) return covered(credential.tenantId, scope.permissions);
  // A tenant's every permission is not the application's.
  await covered(null, callers.applicationWide);
  for (const tenantId of await assignedTenants(em, scope.applicationId, subject)) {
    const caller = callers.inTenants.get(tenantId);
    // Assigned since callerHoldings read them: withCallerHoldings reads them again.
    if (caller === undefined) throw new CallerHoldingsChanged();
    await covered(tenantId, caller);
  }
}

/** What the caller holds application-wide (nothing, bound to a tenant), and in each tenant where a role is assigned to a
 *  subject on that tenant's path. */
export interface CallerHoldings {
  readonly applicationWide: PermissionSet;
  readonly inTenants: ReadonlyMap<string, PermissionSet>;
}

class CallerHoldingsChanged extends Error {}

/** With what the caller holds application-wide and in each of the subject's tenants, read before its transaction; run
 *  again with them read anew when the subject was assigned a role in another tenant meanwhile. */
export async function withCallerHoldings<T>(scope: Scope, subject: RoleSubject, change: (callers: CallerHoldings) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await change(await callerHoldings(scope, subject));
    } catch (error) {
      if (!(error instanceof CallerHoldingsChanged) || attempt === 3) throw error;
    }
  }
}

/** Read before the subject's transaction: through another connection, which the embedded database would block. */
async function callerHoldings(scope: Scope, subject: RoleSubject): Promise<CallerHoldings> {
  const { principal } = scope;
  const tenants = await assignedTenants(scope.em, scope.applicationId, subject);
  return {
    applicationWide: principal.tenantId === null ? await principal.permissionsIn(null) : NO_PERMISSIONS,
    inTenants: new Map(await Promise.all(tenants.map(async (tenantId) => [tenantId, await principal.permissionsIn(tenantId)] as const))),
  };
}

/** The tenants where a role is assigned to the subject on that tenant's path. */
export async function assignedTenants(em: EntityManager, applicationId: string, subject: RoleSubject): Promise<string[]> {
  const rows = await executeOwned<{ tenant_id: string }[]>(
    em,
    applicationId,
    'select distinct a.tenant_id from role_assignment as a where @owner(a) and a.subject_type = ? and a.subject_id = ? and a.tenant_id is not null',
    [subject.type, subject.id],
  );
  return rows.map((row) => row.tenant_id);
}
