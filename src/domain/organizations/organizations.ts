import type { Scope } from '../../context.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Organization, type Application } from '../../db/entities/index.ts';
import type { AuditAction } from '../audit/actions.ts';
import type { OrganizationStatus } from '../../db/entities/organization.entity.ts';
import { HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { GatehouseError, invalid, notFound } from '../../errors.ts';
import { changed } from '../../events/changes.ts';
import { recordAudit } from '../audit/audit.ts';
import { displayName } from '../validate.ts';
import { billingOf, validBilling, type BillingInput } from './billing.ts';

export interface UpdateOrganizationInput {
  name?: string | null;
}

const snapshot = (organization: Organization) => ({ name: organization.name, status: organization.status, billing: billingOf(organization.billing) });

/** Any other id reads as absent. */
export async function getOrganization(scope: Scope, organizationId: string): Promise<Organization> {
  const application = await scope.application();
  if (application.organizationId !== organizationId) throw notFound('Organization', 'orgId');
  return scope.em.findOneOrFail(Organization, { id: organizationId });
}

/**
 * The organization is changed by credentials that cover all of it: its console's (the operators'), or an application's
 * while it is the only one. Else an application's administrator could deactivate the others' applications.
 */
async function requireWholeOrganization(em: EntityManager, application: Application): Promise<void> {
  if (application.console) return;
  // In the transaction's connection: the embedded database has one.
  const [other] = await em.execute<{ id: string }[]>(
    'select id from application where organization_id = ? and not console and id <> ? limit 1',
    [application.organizationId, application.id],
  );
  if (other !== undefined) {
    throw new GatehouseError('forbidden', 'The organization has other applications: it is managed with its console’s credentials (the dashboard’s operators)');
  }
}

/**
 * Recorded under the scope's application (the audit log is an application's), changed or not, as every write is; but
 * `change` answers false for a repeated deactivation or reactivation, which writes and records nothing.
 */
async function changeOrganization(
  scope: Scope,
  organizationId: string,
  action: AuditAction,
  change: (organization: Organization) => boolean,
): Promise<Organization> {
  const application = await scope.application();
  if (application.organizationId !== organizationId) throw notFound('Organization', 'orgId');
  return scope.transactional(async (em) => {
    const organization = await em.findOneOrFail(Organization, { id: organizationId }, HOLD_FOR_UPDATE);
    await requireWholeOrganization(em, application);
    const before = snapshot(organization);
    if (!change(organization)) return organization;
    recordAudit(em, scope, { action, targetType: 'organization', targetId: organization.id, tenantId: null, before, after: snapshot(organization) });
    changed(em, { kind: 'organization', id: organization.id });
    return organization;
  });
}

export async function updateOrganization(scope: Scope, organizationId: string, input: UpdateOrganizationInput): Promise<Organization> {
  if (input.name === null) throw invalid('name', 'name may not be null');
  const name = input.name === undefined ? undefined : displayName('name', input.name);
  return changeOrganization(scope, organizationId, 'organization.updated', (organization) => {
    if (name !== undefined) organization.name = name;
    return true;
  });
}

/** Validated before anything is read. No payment provider is told. */
export async function putOrganizationBilling(scope: Scope, organizationId: string, input: BillingInput): Promise<Organization> {
  const billing = validBilling(input);
  return changeOrganization(scope, organizationId, 'organization.billing.updated', (organization) => {
    organization.billing = billing;
    return true;
  });
}

/**
 * While deactivated, its applications' management requests but these two (authorize-operation.ts) and OAuth clients
 * (src/oidc/adapter.ts) are refused; nothing is deleted. Every instance forgets the status once this commits.
 */
export async function setOrganizationStatus(scope: Scope, organizationId: string, status: OrganizationStatus): Promise<Organization> {
  const action = status === 'deactivated' ? 'organization.deactivated' : 'organization.reactivated';
  return changeOrganization(scope, organizationId, action, (organization) => {
    if (organization.status === status) return false;
    organization.status = status;
    return true;
  });
}
