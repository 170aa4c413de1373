import type { MikroORM } from '@mikro-orm/postgresql';
import { BUILT_IN_ROLES } from '../auth/permissions.ts';
import { Application, Organization } from '../db/entities/index.ts';
import { newId } from '../ids.ts';
import { issueApiKey } from './api-keys/issue.ts';
import { recordAudit } from './audit.ts';

export interface BootstrapResult {
  organizationId: string;
  applicationId: string;
  apiKey: string;
}

/** Whether the database has never been bootstrapped. */
export async function isEmpty(orm: MikroORM): Promise<boolean> {
  return (await orm.em.fork().count(Organization, {})) === 0;
}

/**
 * Creates an organization, a multi-tenant application in it and an `app_admin` API key with `*` (API.md,
 * Bootstrap). `apiKeySecret` fixes the key's secret (GATEHOUSE_BOOTSTRAP_API_KEY); otherwise one is generated.
 */
export async function bootstrap(orm: MikroORM, options: { apiKeySecret?: string | undefined; requestId: string }): Promise<BootstrapResult> {
  return orm.em.fork().transactional(async (em) => {
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
  });
}
