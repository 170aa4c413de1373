import type { Scope } from '../../context.ts';
import { Tenant } from '../../db/entities/index.ts';
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
