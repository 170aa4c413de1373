import type { Scope } from '../../context.ts';
import { clearTenant } from '../loaders.ts';

/**
 * This request's loaders forget what they read, and every instance evicts its caches of what the configuration
 * governs; an application's change reaches every tenant, which inherits from it.
 */
export async function configurationChanged(scope: Scope, tenantId: string | null): Promise<void> {
  clearTenant(scope.loaders, tenantId);
  await scope.services.invalidations.publish(tenantId === null ? { kind: 'application', id: scope.applicationId } : { kind: 'tenant', id: tenantId });
}
