import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { BUILT_IN_ROLES } from '../auth/permissions.ts';
import { lockForTransaction } from '../db/advisory-lock.ts';
import { Organization } from '../db/entities/index.ts';
import { GatehouseError, invalid } from '../errors.ts';
import { isUuid, newId } from '../ids.ts';
import { issueApiKey, recordKeyIssued } from './api-keys/issue.ts';
import { insertApplication, newApplicationRow } from './applications/applications.ts';
import { recordAudit, type AuditActor } from './audit.ts';
import { permissionGrants } from './grants.ts';

export interface BootstrapResult {
  organizationId: string;
  applicationId: string;
  apiKey: string;
}

interface BootstrapOptions {
  apiKeySecret?: string | undefined;
  requestId: string;
}

/** Who bootstraps, for the audit records: an operator's `gatehouse bootstrap` or `create-api-key`, or the first start. */
export const BOOTSTRAP_ACTORS = {
  command: { type: 'cli', id: 'bootstrap' },
  firstStart: { type: 'system', id: 'bootstrap' },
  recovery: { type: 'cli', id: 'create-api-key' },
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

export interface RecoveryKey {
  readonly applicationId: string;
  readonly apiKeyId: string;
  readonly apiKey: string;
  readonly permissions: readonly string[];
}

/**
 * A new application-wide API key for an existing application (`gatehouse create-api-key`): access back for an
 * operator who lost the bootstrap key, which is shown once. `permissions` default to app_admin's; audited
 * `api_key.create` by the command.
 */
export async function createRecoveryKey(orm: MikroORM, input: { applicationId: string; permissions?: string[]; requestId: string }): Promise<RecoveryKey> {
  if (!isUuid(input.applicationId)) throw invalid('application', 'application must be a UUID');
  const permissions = permissionGrants(input.permissions ?? [...BUILT_IN_ROLES.app_admin.permissions]);
  return orm.em.fork().transactional(async (em) => {
    // In the transaction's own connection: the command's pool has one (src/cli.ts), and another would wait for it.
    const [found] = await em.getConnection().execute<{ id: string }[]>('select id from application where id = ?', [input.applicationId], 'all', em.getTransactionContext());
    if (found === undefined) throw new GatehouseError('not_found', `No application ${input.applicationId}`, { field: 'application' });
    const issued = issueApiKey(em, { applicationId: input.applicationId, tenantId: null, userId: null, name: 'Recovery key (gatehouse create-api-key)', permissions, expiresAt: null });
    recordKeyIssued(em, { applicationId: input.applicationId, tenantId: null, requestId: input.requestId, principal: { actor: BOOTSTRAP_ACTORS.recovery } }, issued.key);
    return { applicationId: input.applicationId, apiKeyId: issued.key.id, apiKey: issued.secret, permissions };
  });
}
