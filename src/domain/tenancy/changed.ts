import type { EntityManager } from '@mikro-orm/postgresql';
import { changed } from '../../events/changes.ts';

/** The request's loaders and every instance's caches forget what the configuration governs, in every inheriting tenant too. */
export function configurationChanged(em: EntityManager, applicationId: string, tenantId: string | null): void {
  changed(em, tenantId === null ? { kind: 'application', id: applicationId } : { kind: 'tenant', id: tenantId });
}
