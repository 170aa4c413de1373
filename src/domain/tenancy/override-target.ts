import type { Scope } from '../../context.ts';
import { invalid } from '../../errors.ts';

/** An application-wide scope has no override to remove: 422 on `tenantId`, pointing at the tenant form of the path. */
export function overrideTenant(scope: Scope): string {
  if (scope.tenantId === null) {
    throw invalid('tenantId', 'Only a tenant override can be removed: use /applications/{appId}/tenants/{tenantId}/…');
  }
  return scope.tenantId;
}
