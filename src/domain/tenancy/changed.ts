import type { Scope } from '../../context.ts';
import { clearTenant } from '../loaders.ts';

/** The request's loaders and every instance's caches forget what the configuration governs, in every inheriting tenant too. */
export async function configurationChanged(scope: Scope, tenantId: string | null): Promise<void> {
  clearTenant(scope.loaders, tenantId);
  await scope.services.invalidations.publish(tenantId === null ? { kind: 'application', id: scope.applicationId } : { kind: 'tenant', id: tenantId });
}
