import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { BUILT_IN_ROLES } from '../auth/permissions.ts';
import { lockForTransaction } from '../db/advisory-lock.ts';
import { Application, Organization } from '../db/entities/index.ts';
import { newId } from '../ids.ts';
import { issueApiKey } from './api-keys/issue.ts';
import { recordAudit } from './audit.ts';

export interface BootstrapResult {
  organizationId: string;
  applicationId: string;
  apiKey: string;
}

interface BootstrapOptions {
  apiKeySecret?: string | undefined;
  requestId: string;
}

/**
 * Creates an organization, a multi-tenant application in it and an `app_admin` API key with `*` (API.md,
 * Bootstrap). `apiKeySecret` fixes the key's secret (GATEHOUSE_BOOTSTRAP_API_KEY); otherwise one is generated.
 */
export async function bootstrap(orm: MikroORM, options: BootstrapOptions): Promise<BootstrapResult> {
  return orm.em.fork().transactional((em) => create(em, options));
}

/**
 * Bootstraps a database that has no organization yet, under an advisory lock so that instances starting together on
 * it bootstrap it once; undefined when it had one.
 */
export async function bootstrapIfEmpty(orm: MikroORM, options: BootstrapOptions): Promise<BootstrapResult | undefined> {
  return orm.em.fork().transactional(async (em) => {
    await lockForTransaction(em, 'gatehouse:bootstrap');
    return (await em.count(Organization, {})) === 0 ? create(em, options) : undefined;
  });
}

function create(em: EntityManager, options: BootstrapOptions): BootstrapResult {
  const organization = em.create(Organization, { id: newId(), name: 'My organization' });
  const application = em.create(Application, {
    id: newId(),
    organizationId: organization.id,
    name: 'My application',
    multiTenant: true,
    brandingScope: 'application',
    emailTemplatesScope: 'application',
    emailProviderScope: 'application',
    authIsolation: 'shared',
  });
  const { key, secret } = issueApiKey(em, {
    applicationId: application.id,
    tenantId: null,
    userId: null,
    name: 'Bootstrap app_admin key',
    permissions: [...BUILT_IN_ROLES.app_admin],
    expiresAt: null,
    ...(options.apiKeySecret === undefined ? {} : { secret: options.apiKeySecret }),
  });
  const system = {
    applicationId: application.id,
    tenantId: null,
    requestId: options.requestId,
    principal: { actor: { type: 'system', id: 'bootstrap' } },
  };
  recordAudit(em, system, { action: 'application.bootstrap', targetType: 'api_key', targetId: key.id });
  return { organizationId: organization.id, applicationId: application.id, apiKey: secret };
}
