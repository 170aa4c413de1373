import { graphql } from './api.ts';
import type { PolicyKind } from './operations-email-auth.ts';

// The dashboard's calls of the management API, with the shapes they answer (field names as in schema/*.graphql).

export type Source = 'inherited' | 'customized';
export type CustomizationScope = 'application' | 'tenant';
export type AuthIsolation = 'shared' | 'isolated';
export type UserStatus = 'active' | 'suspended' | 'locked';

/**
 * Where the dashboard reads or acts: the application's own (`tenantId` null), or one tenant's (a setting's override, the
 * tenant's users), as the API's tenant paths are.
 */
export interface SettingsScope {
  readonly appId: string;
  readonly tenantId: string | null;
}

export interface Page<T> {
  readonly data: readonly T[];
  readonly next: string | null;
}

export interface ManagedApplication {
  readonly id: string;
  readonly name: string;
  readonly multiTenant: boolean;
}

/** A tenant in which the operator holds roles, and the management API's permissions they hold there (spelled out). */
export interface ManagedTenant {
  readonly id: string;
  readonly name: string;
  readonly permissions: readonly string[];
}

/** `tenants`: null when the operator holds a role application-wide. */
export interface OperatorApplication extends ManagedApplication {
  readonly permissions: readonly string[];
  readonly tenants: readonly ManagedTenant[] | null;
}

/** What the signed-in operator holds: the applications they manage, and their permissions in the console. */
export interface OperatorHoldings {
  readonly applications: readonly OperatorApplication[];
  /** The Organization page and the creation of applications act on the console. */
  readonly consolePermissions: readonly string[];
}

export interface TenancyConfig {
  readonly brandingScope: CustomizationScope;
  readonly emailTemplatesScope: CustomizationScope;
  readonly emailProviderScope: CustomizationScope;
  readonly authIsolation: AuthIsolation;
}

/** Where each of a tenant's features comes from (`source` is null only at application scope, never here). */
export interface ConfigurationSources {
  readonly branding: { readonly source: Source | null };
  readonly emailTemplates: readonly { readonly key: string; readonly source: Source | null }[];
  readonly emailProvider: { readonly source: Source | null };
  /** What the tenant holds of its authentication: its providers (`m2m` and `api_keys` too), policies and domains. */
  readonly auth: {
    readonly providers: readonly { readonly source: Source | null }[];
    readonly policies: Readonly<Record<PolicyKind, { readonly source: Source | null }>>;
    readonly domains: readonly { readonly id: string }[];
  };
}

export interface TenantSummary {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
}

/** A tenant as a choice or a label names it: what an operator of some tenants only is told of theirs. */
export type NamedTenant = Pick<TenantSummary, 'id' | 'name'>;

/** The application's scope, or (with a tenant) that tenant's. */
export const scopeIn = (appId: string, tenant: NamedTenant | null): SettingsScope => ({ appId, tenantId: tenant?.id ?? null });

export interface Tenant extends TenantSummary {
  readonly configuration: ConfigurationSources;
}

/** The branding of the hosted sign-in pages; `copy` maps text keys (e.g. `login.title`) to the text shown. */
export interface Branding {
  readonly logoUrl: string | null;
  readonly faviconUrl: string | null;
  readonly colors: { readonly primary: string; readonly background: string; readonly text: string };
  readonly copy: Readonly<Record<string, string>>;
}

export interface TenantBranding extends ConfigurationSources {
  readonly branding: Branding & { readonly source: Source | null };
}

/** What `putBranding` takes: the whole branding, which it replaces (a value left out takes its built-in default). */
export interface BrandingInput {
  readonly logoUrl: string | null;
  readonly faviconUrl: string | null;
  readonly colors: Branding['colors'];
  readonly copy: Readonly<Record<string, string>>;
}

export interface User {
  readonly id: string;
  readonly email: string;
  readonly name: string | null;
  readonly status: UserStatus;
  /** The tenants the user is a member of. */
  readonly tenantIds: readonly string[];
  readonly emailVerified: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The fields of `User` the dashboard reads, in lists and in the answers of the users' mutations. */
export const USER_FIELDS = 'id email name status tenantIds emailVerified createdAt updatedAt';

const PAGE_SIZE = 25;

const CONFIGURATION_SOURCES = `fragment ConfigurationSources on TenantConfiguration {
  branding { source }
  emailTemplates { key source }
  emailProvider { source }
  auth {
    providers { source }
    policies { password { source } mfa { source } session { source } lockout { source } }
    domains { id }
  }
}`;

const BRANDING_FIELDS = `fragment BrandingFields on Branding {
  logoUrl
  faviconUrl
  colors { primary background text }
  copy
}`;

/** Asked without an application header; it takes no permission, so every operator learns what to be offered. */
export async function listManagedApplications(): Promise<OperatorHoldings> {
  const query = `query ManagedApplications {
    managedApplications { data { id name multiTenant permissions tenants { id name permissions } } consolePermissions }
  }`;
  const data = await graphql<{ managedApplications: { data: OperatorApplication[]; consolePermissions: string[] } }>(query, {});
  return { applications: data.managedApplications.data, consolePermissions: data.managedApplications.consolePermissions };
}

export async function getTenancyConfig(appId: string): Promise<TenancyConfig | null> {
  const query = `query TenancyConfig($appId: UUID!) {
    application(appId: $appId) { tenancyConfig { brandingScope emailTemplatesScope emailProviderScope authIsolation } }
  }`;
  const data = await graphql<{ application: { tenancyConfig: TenancyConfig | null } }>(query, { appId }, { applicationId: appId });
  return data.application.tenancyConfig;
}

/** Changes one tenancy switch (`updateApplication`) and answers all four as saved. */
export async function updateTenancySwitch(appId: string, setting: keyof TenancyConfig, value: TenancyConfig[keyof TenancyConfig]): Promise<TenancyConfig> {
  const mutation = `mutation UpdateTenancySwitch($appId: UUID!, $input: UpdateApplicationInput!) {
    updateApplication(appId: $appId, input: $input) { tenancyConfig { brandingScope emailTemplatesScope emailProviderScope authIsolation } }
  }`;
  const input = { tenancyConfig: { [setting]: value } };
  const data = await graphql<{ updateApplication: { tenancyConfig: TenancyConfig } }>(mutation, { appId, input }, { applicationId: appId });
  return data.updateApplication.tenancyConfig;
}

export async function listTenants(appId: string, cursor: string | null): Promise<Page<Tenant>> {
  const query = `query Tenants($appId: UUID!, $pageSize: Int, $cursor: String) {
    tenants(appId: $appId, pageSize: $pageSize, cursor: $cursor) { data { id name slug configuration { ...ConfigurationSources } } next }
  }
  ${CONFIGURATION_SOURCES}`;
  const data = await graphql<{ tenants: Page<Tenant> }>(query, { appId, pageSize: PAGE_SIZE, cursor }, { applicationId: appId });
  return data.tenants;
}

/** The tenants, or with `search` those whose name (any case) or slug starts with it. */
export async function listTenantSummaries(
  appId: string,
  cursor: string | null,
  { pageSize = PAGE_SIZE, search = null }: { pageSize?: number; search?: string | null } = {},
): Promise<Page<TenantSummary>> {
  const query = `query TenantSummaries($appId: UUID!, $pageSize: Int, $cursor: String, $search: String) {
    tenants(appId: $appId, pageSize: $pageSize, cursor: $cursor, search: $search) { data { id name slug } next }
  }`;
  const data = await graphql<{ tenants: Page<TenantSummary> }>(query, { appId, pageSize, cursor, search }, { applicationId: appId });
  return data.tenants;
}

/** What reading a tenant's configuration (`tenantConfiguration`) takes there: the read permission of each of its sections. */
export const TENANT_CONFIGURATION_READS = ['tenants:read', 'branding:read', 'email:read', 'policies:read', 'auth_providers:read', 'domains:read'] as const;

/** The switches a tenant's screens follow, read in its scope (`tenantConfiguration`), as an operator of that tenant may. */
export async function getTenantTenancyConfig(appId: string, tenantId: string): Promise<TenancyConfig> {
  const query = `query TenantTenancyConfig($appId: UUID!, $tenantId: UUID!) {
    tenantConfiguration(appId: $appId, tenantId: $tenantId) { tenancyConfig { brandingScope emailTemplatesScope emailProviderScope authIsolation } }
  }`;
  const data = await callInScope<{ tenantConfiguration: { tenancyConfig: TenancyConfig | null } }>(query, { appId, tenantId }, {});
  // Null only for a single-tenant application, whose every setting is the application's.
  return data.tenantConfiguration.tenancyConfig ?? APPLICATION_WIDE;
}

const APPLICATION_WIDE: TenancyConfig = { brandingScope: 'application', emailTemplatesScope: 'application', emailProviderScope: 'application', authIsolation: 'shared' };

export async function getConfigurationSources(appId: string, tenantId: string): Promise<ConfigurationSources> {
  const query = `query TenantConfiguration($appId: UUID!, $tenantId: UUID!) {
    tenantConfiguration(appId: $appId, tenantId: $tenantId) { ...ConfigurationSources }
  }
  ${CONFIGURATION_SOURCES}`;
  const data = await graphql<{ tenantConfiguration: ConfigurationSources }>(query, { appId, tenantId }, { applicationId: appId });
  return data.tenantConfiguration;
}

/** The application-wide branding (asked at application scope, so without a tenant). */
export async function getApplicationBranding(appId: string): Promise<Branding> {
  const query = `query ApplicationBranding($appId: UUID!) { branding(appId: $appId) { ...BrandingFields } }
  ${BRANDING_FIELDS}`;
  const data = await graphql<{ branding: Branding }>(query, { appId }, { applicationId: appId });
  return data.branding;
}

export async function getTenantBranding(appId: string, tenantId: string): Promise<TenantBranding> {
  const query = `query TenantBranding($appId: UUID!, $tenantId: UUID!) {
    tenantConfiguration(appId: $appId, tenantId: $tenantId) { ...ConfigurationSources branding { ...BrandingFields } }
  }
  ${CONFIGURATION_SOURCES}
  ${BRANDING_FIELDS}`;
  const data = await graphql<{ tenantConfiguration: TenantBranding }>(query, { appId, tenantId }, { applicationId: appId });
  return data.tenantConfiguration;
}

/** Replaces the application's branding or, with a tenant, that tenant's override; answers it as saved. */
export async function putBranding(appId: string, tenantId: string | null, input: BrandingInput): Promise<Branding & { readonly source: Source | null }> {
  const mutation = `mutation PutBranding($appId: UUID!, $tenantId: UUID, $input: BrandingInput!) {
    putBranding(appId: $appId, tenantId: $tenantId, input: $input) { ...BrandingFields source }
  }
  ${BRANDING_FIELDS}`;
  const data = await graphql<{ putBranding: Branding & { source: Source | null } }>(mutation, { appId, tenantId, input }, { applicationId: appId });
  return data.putBranding;
}

/**
 * Every user of the scope (a tenant's: its members), or with `emailPrefix` those whose address starts with it (compared
 * as sign-in compares addresses); with `ids`, only those of them.
 */
export async function listUsers(scope: SettingsScope, emailPrefix: string | null, cursor: string | null, ids: readonly string[] | null = null): Promise<Page<User>> {
  const query = `query Users($appId: UUID!, $tenantId: UUID, $emailPrefix: String, $ids: [UUID!], $pageSize: Int, $cursor: String) {
    users(appId: $appId, tenantId: $tenantId, emailPrefix: $emailPrefix, ids: $ids, pageSize: $pageSize, cursor: $cursor) { data { ${USER_FIELDS} } next }
  }`;
  const data = await callInScope<{ users: Page<User> }>(query, scope, { emailPrefix, ids, pageSize: PAGE_SIZE, cursor });
  return data.users;
}

/** A call with the scope's `appId` and `tenantId` as variables, on behalf of its application. */
export function callInScope<T>(document: string, { appId, tenantId }: SettingsScope, variables: Record<string, unknown>): Promise<T> {
  return graphql<T>(document, { appId, tenantId, ...variables }, { applicationId: appId });
}

/** Runs one of the "Remove tenant override" mutations, which all take the tenant and answer a Boolean. */
async function removeOverride(mutation: string, appId: string, tenantId: string, extra = {}): Promise<void> {
  await graphql<Record<string, boolean>>(mutation, { appId, tenantId, ...extra }, { applicationId: appId });
}

export async function removeBrandingOverride(appId: string, tenantId: string): Promise<void> {
  const mutation = `mutation RemoveBrandingOverride($appId: UUID!, $tenantId: UUID!) {
    removeBrandingOverride(appId: $appId, tenantId: $tenantId)
  }`;
  await removeOverride(mutation, appId, tenantId);
}

export async function removeEmailProviderOverride(appId: string, tenantId: string): Promise<void> {
  const mutation = `mutation RemoveEmailProviderOverride($appId: UUID!, $tenantId: UUID!) {
    removeEmailProviderOverride(appId: $appId, tenantId: $tenantId)
  }`;
  await removeOverride(mutation, appId, tenantId);
}

export async function removeEmailTemplateOverride(appId: string, tenantId: string, templateKey: string): Promise<void> {
  const mutation = `mutation RemoveEmailTemplateOverride($appId: UUID!, $tenantId: UUID!, $templateKey: EmailTemplateKey!) {
    removeEmailTemplateOverride(appId: $appId, tenantId: $tenantId, templateKey: $templateKey)
  }`;
  await removeOverride(mutation, appId, tenantId, { templateKey });
}
