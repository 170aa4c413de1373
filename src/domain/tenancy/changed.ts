import type { Scope } from '../../context.ts';
import { clearTenant } from '../loaders.ts';

/**
 * After a committed change to what the tenancy engine resolves: the application's own configuration (`tenantId`
 * null: its name, tenancy switches, settings, auth providers, domains) or one tenant's (its name and slug, overrides,
 * providers, domains). This request's loaders forget what they read, and every instance's caches of what that
 * configuration governs (the sign-in surfaces' settings) are evicted; an application's change reaches every tenant,
 * which inherits from it.
 */
export async function configurationChanged(scope: Scope, tenantId: string | null): Promise<void> {
  clearTenant(scope.loaders, tenantId);
  await scope.services.invalidations.publish(tenantId === null ? { kind: 'application', id: scope.applicationId } : { kind: 'tenant', id: tenantId });
}
