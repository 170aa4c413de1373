import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { BUILT_IN_ROLES } from '../auth/permissions.ts';
import { lockedTransaction } from '../db/advisory-lock.ts';
import { Organization } from '../db/entities/index.ts';
import { executeOwned } from '../db/owned-sql.ts';
import { GatehouseError, invalid } from '../errors.ts';
import { isUuid, newId } from '../ids.ts';
import { issueApiKey, latestKeyExpiry, recordKeyIssued } from './api-keys/issue.ts';
import { insertApplication, newApplicationRow } from './applications/applications.ts';
import { recordAudit, type AuditActor } from './audit/audit.ts';
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

export const BOOTSTRAP_ACTORS = {
  command: { type: 'cli', id: 'bootstrap' },
  firstStart: { type: 'system', id: 'bootstrap' },
  recovery: { type: 'cli', id: 'create-api-key' },
} as const;

/** API.md, Bootstrap. `apiKeySecret` (GATEHOUSE_BOOTSTRAP_API_KEY) fixes the key's secret; else one is generated. */
export async function bootstrap(orm: MikroORM, options: BootstrapOptions): Promise<BootstrapResult> {
  return orm.em.fork().transactional((em) => create(em, options, BOOTSTRAP_ACTORS.command));
}

/** Under an advisory lock, so instances starting together bootstrap once; undefined when it had an organization. */
export async function bootstrapIfEmpty(orm: MikroORM, options: BootstrapOptions): Promise<BootstrapResult | undefined> {
  return lockedTransaction(orm.em.fork(), 'gatehouse:bootstrap', async (em) =>
    (await em.count(Organization, {})) === 0 ? create(em, options, BOOTSTRAP_ACTORS.firstStart) : undefined,
  );
}

/** Each with the record its creation writes through the API; no API creates organizations, so its record names it. */
function create(em: EntityManager, options: BootstrapOptions, actor: AuditActor['principal']['actor']): BootstrapResult {
  const organization = em.create(Organization, { id: newId(), name: 'My organization' });
  const row = newApplicationRow(organization.id, { name: 'My application', multiTenant: true });
  const system: AuditActor = { applicationId: row.id, tenantId: null, requestId: options.requestId, principal: { actor } };
  recordAudit(em, system, { action: 'organization.created', targetType: 'organization', targetId: organization.id, after: { name: organization.name } });
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

/** Access back for an operator who lost the bootstrap key, which is shown once. Defaults to app_admin's permissions. */
export async function createRecoveryKey(orm: MikroORM, input: { applicationId: string; permissions?: string[]; requestId: string }): Promise<RecoveryKey> {
  if (!isUuid(input.applicationId)) throw invalid('application', 'application must be a UUID');
  const permissions = permissionGrants(input.permissions ?? [...BUILT_IN_ROLES.app_admin.permissions]);
  return orm.em.fork().transactional(async (em) => {
    // In the transaction's own connection: the command's pool has one (src/process/cli.ts), and another would wait for it.
    const [found] = await em.getConnection().execute<{ id: string }[]>('select id from application where id = ?', [input.applicationId], 'all', em.getTransactionContext());
    if (found === undefined) throw new GatehouseError('not_found', `No application ${input.applicationId}`, { field: 'application' });
    // Bound by the application's key lifetime limit as any new key of its scope (withinProviderLimit).
    const [limiting] = await executeOwned<{ days: unknown }[]>(
      em,
      input.applicationId,
      `select config->'maxLifetimeDays' as days from auth_provider where @owner and tenant_id is null and type = 'api_keys' and enabled`,
    );
    const expiresAt = latestKeyExpiry(limiting?.days);
    const issued = issueApiKey(em, { applicationId: input.applicationId, tenantId: null, userId: null, name: 'Recovery key (gatehouse create-api-key)', permissions, expiresAt });
    recordKeyIssued(em, { applicationId: input.applicationId, tenantId: null, requestId: input.requestId, principal: { actor: BOOTSTRAP_ACTORS.recovery } }, issued.key);
    return { applicationId: input.applicationId, apiKeyId: issued.key.id, apiKey: issued.secret, permissions };
  });
}
