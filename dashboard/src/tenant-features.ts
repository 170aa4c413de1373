import {
  removeBrandingOverride,
  removeEmailProviderOverride,
  removeEmailTemplateOverride,
  type ConfigurationSources,
  type CustomizationScope,
  type Source,
  type TenancyConfig,
} from './operations.ts';

/** One of the four tenancy features: its switch, whether tenants may customize it, and how to undo a tenant's override. */
export interface TenantFeature {
  readonly label: string;
  /** The switch's value in the spec's words. */
  setting: (config: TenancyConfig) => string;
  /** Whether tenants may hold their own configuration of it (so the tenant table shows its badge). */
  perTenant: (config: TenancyConfig) => boolean;
  source: (configuration: ConfigurationSources) => Source;
  /** "Remove tenant override"; absent where the API has no such mutation. */
  removeOverride?: (appId: string, tenantId: string, configuration: ConfigurationSources) => Promise<void>;
}

const SCOPE_LABEL: Record<CustomizationScope, string> = { application: 'Application', tenant: 'Per tenant' };

export const SOURCE_LABEL: Record<Source, string> = { inherited: 'Inherited', customized: 'Customized' };

/** The table the tenancy switches, the tenant badges and their removal buttons are all drawn from, in display order. */
export const TENANT_FEATURES: readonly TenantFeature[] = [
  {
    label: 'Branding',
    setting: (config) => SCOPE_LABEL[config.brandingScope],
    perTenant: (config) => config.brandingScope === 'tenant',
    source: (configuration) => configuration.branding.source ?? 'inherited',
    removeOverride: (appId, tenantId) => removeBrandingOverride(appId, tenantId),
  },
  {
    label: 'E-mail templates',
    setting: (config) => SCOPE_LABEL[config.emailTemplatesScope],
    perTenant: (config) => config.emailTemplatesScope === 'tenant',
    source: (configuration) => (customizedTemplateKeys(configuration).length > 0 ? 'customized' : 'inherited'),
    // A tenant overrides templates one by one: removing its override is removing each of them.
    removeOverride: async (appId, tenantId, configuration) => {
      for (const key of customizedTemplateKeys(configuration)) await removeEmailTemplateOverride(appId, tenantId, key);
    },
  },
  {
    label: 'E-mail provider',
    setting: (config) => SCOPE_LABEL[config.emailProviderScope],
    perTenant: (config) => config.emailProviderScope === 'tenant',
    source: (configuration) => configuration.emailProvider.source ?? 'inherited',
    removeOverride: (appId, tenantId) => removeEmailProviderOverride(appId, tenantId),
  },
  {
    // An isolated tenant's own auth providers are deleted one by one (deleteAuthProvider), not removed as an override.
    label: 'Authentication',
    setting: (config) => (config.authIsolation === 'isolated' ? 'Isolated' : 'Shared'),
    perTenant: (config) => config.authIsolation === 'isolated',
    source: (configuration) => configuration.auth.providersSource,
  },
];

function customizedTemplateKeys(configuration: ConfigurationSources): string[] {
  return configuration.emailTemplates.filter((template) => template.source === 'customized').map((template) => template.key);
}
