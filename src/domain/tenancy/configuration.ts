import type { Scope } from '../../context.ts';
import { tenancyConfigOf } from '../applications/applications.ts';
import { effectiveAuthProviders, presentAuthProvider, sourceIn, type AuthProviderView } from '../auth-providers/auth-providers.ts';
import { getBranding, type Branding } from '../branding/branding.ts';
import { presentDomain, type DomainView } from '../domains/domains.ts';
import { getEmailProvider, type EmailProvider } from '../email/provider.ts';
import { TEMPLATE_KEYS } from '../email/template-defaults.ts';
import { listEmailTemplates, type EmailTemplate } from '../email/templates.ts';
import { getPolicies, type PoliciesView } from '../policies/policies.ts';
import type { Source } from './settings.ts';

export interface TenantConfiguration {
  tenantId: string;
  tenancyConfig: ReturnType<typeof tenancyConfigOf>;
  branding: Branding;
  emailTemplates: EmailTemplate[];
  emailProvider: EmailProvider;
  auth: {
    authIsolation: 'shared' | 'isolated';
    providersSource: Source;
    providers: AuthProviderView[];
    policies: PoliciesView;
    domains: DomainView[];
  };
}

/** API.md: tenants, `configuration`. Reads go through the request's loaders, so N tenants cost what one does. */
export async function tenantConfiguration(scope: Scope): Promise<TenantConfiguration> {
  const tenantId = scope.tenantId;
  if (tenantId === null) throw new Error('tenantConfiguration needs a tenant scope');
  const application = await scope.application();
  const [branding, templates, emailProvider, policies, providers, domains] = await Promise.all([
    getBranding(scope),
    listEmailTemplates(scope, { pageSize: TEMPLATE_KEYS.length }),
    getEmailProvider(scope),
    getPolicies(scope),
    effectiveAuthProviders(scope, tenantId),
    scope.loaders.domains.load(tenantId),
  ]);
  const providersSource = providers.source ?? 'inherited';
  return {
    tenantId,
    tenancyConfig: tenancyConfigOf(application),
    branding,
    emailTemplates: templates.data,
    emailProvider,
    auth: {
      authIsolation: application.authIsolation,
      providersSource,
      providers: providers.providers.map((provider) => presentAuthProvider(provider, sourceIn(tenantId, provider))),
      policies,
      domains: domains.map(presentDomain),
    },
  };
}
