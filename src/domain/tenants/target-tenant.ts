import type { Scope } from '../../context.ts';
import { Tenant } from '../../db/entities/index.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { GatehouseError, invalid, notFound } from '../../errors.ts';

/**
 * The tenant a new tenant-owned thing (a user, an API key) goes to: the scope's tenant, else the one the body
 * names. A body naming another tenant than a tenant-scoped credential's own is 403 (spec: wrong tenant); another
 * tenant than the path's, with application-wide credentials, is a contradiction in the request: 422. The tenant
 * must exist in the application (a Bearer `tenant_id` is not checked when the scope is settled): 404.
 *
 * Reads through the scope's EntityManager: call it before opening the write transaction.
 */
export async function targetTenant(scope: Scope, requested: string | null | undefined): Promise<string | null> {
  if (requested != null && scope.tenantId !== null && requested !== scope.tenantId) {
    if (scope.principal.tenantId !== null) throw new GatehouseError('forbidden', 'The credentials are for another tenant');
    throw invalid('tenantId', 'tenantId differs from the tenant of the path');
  }
  const tenantId = scope.tenantId ?? requested ?? null;
  if (tenantId !== null && (await scope.em.findOne(Tenant, { id: tenantId })) === null) {
    throw notFound('Tenant', 'tenantId');
  }
  return tenantId;
}

/**
 * The tenants of `tenantIds` that still exist, held FOR SHARE until the caller's transaction (`tx`'s) ends: a user
 * about to join them (a membership, an isolated pool) commits before a deletion of one of them starts, which then
 * takes the user with the tenant, or after it, and finds it gone. `tenant_ids` and `pool_id` have no foreign key to
 * do this (deleteTenant holds the tenant FOR UPDATE). Read in the transaction: a check made before it could be stale.
 * Call it before locking any of their users: deleteTenant takes the tenant, then its members.
 *
 * Plain rows, not entities: a Tenant the request has already loaded (targetTenant) stays as it is, so the flush has
 * nothing of it to write back over a concurrent rename, nor an update that would deadlock with other holders of the
 * share lock. A tenant scope reaches its own tenant only, as the `tenant` filter would have it.
 */
export async function lockTenants(tx: Scope, tenantIds: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(tenantIds)].filter((id) => tx.tenantId === null || id === tx.tenantId);
  if (wanted.length === 0) return [];
  const rows = await executeOwned<{ id: string }[]>(tx.em, tx.applicationId, 'select id from tenant where @owner and id in (?) for share', [wanted]);
  return rows.map((row) => row.id);
}
