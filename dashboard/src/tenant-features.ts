import {
  removeBrandingOverride,
  removeEmailProviderOverride,
  removeEmailTemplateOverride,
  type ConfigurationSources,
  type Source,
  type TenancyConfig,
} from './operations.ts';
import { deleteAuthProvider } from './operations-auth.ts';
import { removePolicyOverride, type AuthProvider, type PolicyKind } from './operations-email-auth.ts';

export type TenancySwitch = keyof TenancyConfig;
export type TenancySwitchValue = TenancyConfig[TenancySwitch];

export interface SwitchChoice {
  readonly value: TenancySwitchValue;
  readonly label: string;
}

/** Something a tenant holds of its own, and how "Remove tenant override" takes it away so the tenant inherits again. */
export interface TenantOverride {
  /** What it is, in lower case, as the confirmation names it ("Remove Acme's own {label}?"). */
  readonly label: string;
  remove: (appId: string, tenantId: string) => Promise<void>;
}

/** One of the four tenancy features: its switch, whether tenants may customize it, and how to undo a tenant's override. */
export interface TenantFeature {
  readonly label: string;
  readonly setting: TenancySwitch;
  /** The switch's values in the spec's words: the application-wide one, then the one that lets each tenant have its own. */
  readonly choices: readonly [applicationWide: SwitchChoice, perTenant: SwitchChoice];
  /** What saving each choice does, said while it is chosen and not saved yet. */
  readonly effects: readonly [applicationWide: string, perTenant: string];
  /** Asked before the switch goes per tenant, where that changes more than where the settings live. */
  readonly confirmPerTenant?: string;
  source: (configuration: ConfigurationSources) => Source;
  /** What "Remove tenant override" removes of a tenant's; absent where the tenants table offers no removal. */
  override?: (configuration: ConfigurationSources) => TenantOverride;
  /** The permission that removal takes (besides `tenant_overrides:write`): none is offered to an operator without it. */
  readonly overrideRemoval?: string;
}

const SCOPE_CHOICES: TenantFeature['choices'] = [
  { value: 'application', label: 'Application' },
  { value: 'tenant', label: 'Per tenant' },
];

/** A scope's effects: back at the application's, the tenants' overrides are kept but unused (and shown again later). */
const scopeEffects = (noun: string): TenantFeature['effects'] => [
  `Every tenant then uses the application's ${noun}; the tenants' own are kept, unused and hidden, until this is per tenant again.`,
  `Each tenant may then have its own ${noun}.`,
];

export const SOURCE_LABEL: Record<Source, string> = { inherited: 'Inherited', customized: 'Customized' };

export const BRANDING: TenantFeature = {
  label: 'Branding',
  setting: 'brandingScope',
  choices: SCOPE_CHOICES,
  effects: scopeEffects('branding'),
  source: (configuration) => configuration.branding.source ?? 'inherited',
  override: () => ({ label: 'branding', remove: removeBrandingOverride }),
  overrideRemoval: 'branding:delete',
};

export const EMAIL_TEMPLATES: TenantFeature = {
  label: 'E-mail templates',
  setting: 'emailTemplatesScope',
  choices: SCOPE_CHOICES,
  effects: scopeEffects('e-mail templates'),
  source: (configuration) => (customizedTemplateKeys(configuration).length > 0 ? 'customized' : 'inherited'),
  // A tenant overrides templates one by one: removing its override is removing each of them.
  override: (configuration) => ({
    label: 'e-mail templates',
    remove: async (appId, tenantId) => {
      for (const key of customizedTemplateKeys(configuration)) await removeEmailTemplateOverride(appId, tenantId, key);
    },
  }),
  overrideRemoval: 'email:delete',
};

export const EMAIL_PROVIDER_OVERRIDE: TenantOverride = { label: 'e-mail provider', remove: removeEmailProviderOverride };

export const EMAIL_PROVIDER: TenantFeature = {
  label: 'E-mail provider',
  setting: 'emailProviderScope',
  choices: SCOPE_CHOICES,
  effects: scopeEffects('e-mail provider'),
  source: (configuration) => configuration.emailProvider.source ?? 'inherited',
  override: () => EMAIL_PROVIDER_OVERRIDE,
  overrideRemoval: 'email:delete',
};

export const AUTHENTICATION: TenantFeature = {
  // Its removals (own providers, each policy) need more than the tenants table reads: the Authentication tab offers them.
  label: 'Authentication',
  setting: 'authIsolation',
  choices: [
    { value: 'shared', label: 'Shared' },
    { value: 'isolated', label: 'Isolated' },
  ],
  effects: [
    "Every tenant then signs in with the application's providers, policies and user pool; refused while a tenant still holds its own.",
    'Each tenant then has its own providers, policies and user pool.',
  ],
  // Isolating splits the user pool: the spec asks the dashboard to confirm it; sharing again is checked by the server.
  confirmPerTenant:
    'Isolate authentication per tenant? Each tenant gets its own auth providers, password policy, MFA and custom domains, ' +
    'and users are split into per-tenant pools: an identity no longer works across tenants.',
  // Customized by whatever keeps sharing again refused (tenant_auth_data_remains): own providers of any type, policies, domains.
  source: ({ auth }) =>
    auth.providers.some(isCustomized) || Object.values(auth.policies).some(isCustomized) || auth.domains.length > 0 ? 'customized' : 'inherited',
};

/** The table the tenancy switches, the tenant badges and their removal buttons are all drawn from, in display order. */
export const TENANT_FEATURES: readonly TenantFeature[] = [BRANDING, EMAIL_TEMPLATES, EMAIL_PROVIDER, AUTHENTICATION];

export function isPerTenant(feature: TenantFeature, config: TenancyConfig): boolean {
  return config[feature.setting] === feature.choices[1].value;
}

/** One e-mail template of a tenant's, which falls back to the application's on its own. */
export function emailTemplateOverride(key: string): TenantOverride {
  return { label: `${key} template`, remove: (appId, tenantId) => removeEmailTemplateOverride(appId, tenantId, key) };
}

export function policyOverride(kind: PolicyKind): TenantOverride {
  return { label: `${kind} policy`, remove: (appId, tenantId) => removePolicyOverride(appId, tenantId, kind) };
}

/** An isolated tenant's own providers: it uses exactly those, so deleting them all gives it the application's again. */
export function ownProvidersOverride(providers: readonly AuthProvider[]): TenantOverride {
  const own = providers.filter((provider) => provider.source === 'customized');
  return {
    label: 'auth providers',
    remove: async (appId, tenantId) => {
      for (const provider of own) await deleteAuthProvider({ appId, tenantId }, provider.id);
    },
  };
}

function isCustomized(setting: { readonly source: Source | null }): boolean {
  return setting.source === 'customized';
}

function customizedTemplateKeys(configuration: ConfigurationSources): string[] {
  return configuration.emailTemplates.filter(isCustomized).map((template) => template.key);
}
