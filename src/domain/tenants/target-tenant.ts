import type { Scope } from '../../context.ts';
import { Tenant } from '../../db/entities/index.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { GatehouseError, invalid, notFound } from '../../errors.ts';

/** The scope's tenant, else the body's: another than a tenant credential's own is 403 (spec), another than the path's is
 *  422, an unknown one 404 (a Bearer `tenant_id` is not checked earlier). Call before the write transaction. */
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

/** Held FOR SHARE until `tx` ends, as `tenant_ids` and `pool_id` have no foreign key: a user about to join commits before
 *  a deletion starts (which takes the user) or after it, and finds it gone. Call before locking their users (deleteTenant
 *  takes the tenant, then its members). Plain rows: a loaded Tenant stays untouched, so the flush writes nothing back
 *  over a concurrent rename, nor an update that would deadlock with other share holders. */
export async function lockTenants(tx: Scope, tenantIds: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(tenantIds)].filter((id) => tx.tenantId === null || id === tx.tenantId);
  if (wanted.length === 0) return [];
  const rows = await executeOwned<{ id: string }[]>(tx.em, tx.applicationId, 'select id from tenant where @owner and id in (?) for share', [wanted]);
  return rows.map((row) => row.id);
}
