import type { Scope } from '../../context.ts';
import { Organization } from '../../db/entities/index.ts';
import { notFound } from '../../errors.ts';

/** The organization owning the scope's application; any other id reads as absent. */
export async function getOrganization(scope: Scope, organizationId: string): Promise<Organization> {
  const application = await scope.application();
  if (application.organizationId !== organizationId) throw notFound('Organization', 'orgId');
  return scope.em.findOneOrFail(Organization, { id: organizationId });
}
