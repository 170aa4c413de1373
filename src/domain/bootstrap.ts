import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { BUILT_IN_ROLES } from '../auth/permissions.ts';
import { lockForTransaction } from '../db/advisory-lock.ts';
import { Organization } from '../db/entities/index.ts';
import { newId } from '../ids.ts';
import { insertApplication, newApplicationRow } from './applications/applications.ts';
import { recordAudit, type AuditActor } from './audit.ts';

export interface BootstrapResult {
  organizationId: string;
  applicationId: string;
  apiKey: string;
}

interface BootstrapOptions {
  apiKeySecret?: string | undefined;
  requestId: string;
}

/** Who bootstraps, for the audit records: an operator's `gatehouse bootstrap`, or the service's first start. */
export const BOOTSTRAP_ACTORS = {
  command: { type: 'cli', id: 'bootstrap' },
  firstStart: { type: 'system', id: 'bootstrap' },
} as const;

/**
 * Creates an organization, a multi-tenant application in it and an `app_admin` API key with `*` (API.md,
 * Bootstrap), on demand (`gatehouse bootstrap`, the tests). `apiKeySecret` fixes the key's secret
 * (GATEHOUSE_BOOTSTRAP_API_KEY); otherwise one is generated.
 */
export async function bootstrap(orm: MikroORM, options: BootstrapOptions): Promise<BootstrapResult> {
  return orm.em.fork().transactional((em) => create(em, options, BOOTSTRAP_ACTORS.command));
}

/**
 * Bootstraps a database that has no organization yet, under an advisory lock so that instances starting together on
 * it bootstrap it once; undefined when it had one.
 */
export async function bootstrapIfEmpty(orm: MikroORM, options: BootstrapOptions): Promise<BootstrapResult | undefined> {
  return orm.em.fork().transactional(async (em) => {
    await lockForTransaction(em, 'gatehouse:bootstrap');
    return (await em.count(Organization, {})) === 0 ? create(em, options, BOOTSTRAP_ACTORS.firstStart) : undefined;
  });
}

/**
 * The organization, the application and its key, each with the record its creation writes through the API
 * (insertApplication), in the new application's audit log, by `actor`. No API creates organizations: its record,
 * `organization.create`, shows its name.
 */
function create(em: EntityManager, options: BootstrapOptions, actor: AuditActor['principal']['actor']): BootstrapResult {
  const organization = em.create(Organization, { id: newId(), name: 'My organization' });
  const row = newApplicationRow(organization.id, { name: 'My application', multiTenant: true });
  const system: AuditActor = { applicationId: row.id, tenantId: null, requestId: options.requestId, principal: { actor } };
  recordAudit(em, system, { action: 'organization.create', targetType: 'organization', targetId: organization.id, after: { name: organization.name } });
  const application = insertApplication(em, system, row, {
    name: 'Bootstrap app_admin key',
    permissions: [...BUILT_IN_ROLES.app_admin.permissions],
    expiresAt: null,
    ...(options.apiKeySecret === undefined ? {} : { secret: options.apiKeySecret }),
  });
  return { organizationId: organization.id, applicationId: application.id, apiKey: application.initialApiKey.secret };
}
