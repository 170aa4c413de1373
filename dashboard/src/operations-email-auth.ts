import { graphql } from './api.ts';
import { callInScope, type Page, type SettingsScope, type Source } from './operations.ts';

// The E-mail and Authentication tabs' calls of the management API (field names as in schema/email.graphql,
// auth-providers.graphql, policies.graphql and tenant-configuration.graphql). `source` is null at application scope.

export type EmailProviderType = 'gatehouse' | 'smtp' | 'sendgrid' | 'ses' | 'postmark' | 'resend';
export type EmailProviderSecret = 'password' | 'apiKey' | 'secretAccessKey';
export type SmtpSecurity = 'starttls' | 'tls' | 'none';
export type AuthProviderType = 'password' | 'magic_link' | 'oauth' | 'passkey' | 'saml' | 'm2m' | 'api_keys';
export type PolicyKind = 'password' | 'mfa' | 'session' | 'lockout';

/** One template (Liquid) as it applies in the scope, with the variables it is rendered with. */
export interface EmailTemplate {
  readonly key: string;
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  readonly variables: readonly string[];
  readonly source: Source | null;
  /** Null while the built-in default applies. */
  readonly updatedAt: string | null;
}

/** The provider's stored settings; secrets are write-only, so only the names of those set are known. */
export interface EmailProvider {
  readonly type: EmailProviderType;
  readonly fromAddress: string;
  readonly fromName: string | null;
  readonly replyTo: string | null;
  readonly smtp: { readonly host: string; readonly port: number; readonly username: string | null; readonly security: SmtpSecurity } | null;
  readonly ses: { readonly region: string; readonly accessKeyId: string } | null;
  readonly secretsSet: readonly EmailProviderSecret[];
  readonly source: Source | null;
  /** Null while the built-in sender applies. */
  readonly updatedAt: string | null;
}

export interface EmailSettings {
  readonly emailTemplates: readonly EmailTemplate[];
  readonly emailProvider: EmailProvider;
}

export interface AuthProvider {
  readonly id: string;
  readonly type: AuthProviderType;
  readonly name: string;
  readonly enabled: boolean;
  /** The type's settings, every field present (defaults filled in). */
  readonly config: Readonly<Record<string, unknown>>;
  /** Secrets are write-only: only the names of those set are known. */
  readonly secretsSet: readonly string[];
  /** oauth: the redirect URI to register at the upstream provider. */
  readonly callbackUrl: string | null;
  /** saml: where the IdP posts its responses, and the service provider's metadata. */
  readonly acsUrl: string | null;
  readonly metadataUrl: string | null;
  readonly source: Source | null;
}

interface PolicyBase<K extends PolicyKind> {
  readonly kind: K;
  readonly source: Source | null;
  /** Null while the built-in default applies. */
  readonly updatedAt: string | null;
}

export interface PasswordPolicy extends PolicyBase<'password'> {
  readonly minLength: number;
  readonly requireUppercase: boolean;
  readonly requireLowercase: boolean;
  readonly requireDigit: boolean;
  readonly requireSymbol: boolean;
  readonly maxAge: number | null;
  readonly disallowCommon: boolean;
  readonly historyCount: number;
}

export interface MfaPolicy extends PolicyBase<'mfa'> {
  readonly enforcement: 'off' | 'optional' | 'required';
  readonly factors: readonly string[];
  readonly rememberDeviceDays: number;
}

export interface SessionPolicy extends PolicyBase<'session'> {
  readonly idleTimeoutMinutes: number;
  readonly absoluteTimeoutMinutes: number;
  readonly singleSession: boolean;
  readonly notifyNewBrowser: boolean;
}

export interface LockoutPolicy extends PolicyBase<'lockout'> {
  readonly enabled: boolean;
  readonly maxAttempts: number;
  readonly lockoutMinutes: number | null;
  readonly resetAfterMinutes: number;
  readonly accountLockAddresses: number | null;
}

export interface Policies {
  readonly password: PasswordPolicy;
  readonly mfa: MfaPolicy;
  readonly session: SessionPolicy;
  readonly lockout: LockoutPolicy;
}

export interface TenantAuth {
  readonly providersSource: Source;
  readonly providers: readonly AuthProvider[];
  readonly policies: Policies;
}

// Every template fits one page: there are 13.
const TEMPLATE_COUNT = 13;
const PROVIDER_PAGE_SIZE = 25;

const EMAIL_FIELDS = `fragment TemplateFields on EmailTemplate { key subject html text variables source updatedAt }
fragment ProviderFields on EmailProvider {
  type fromAddress fromName replyTo
  smtp { host port username security }
  ses { region accessKeyId }
  secretsSet source updatedAt
}`;

export const AUTH_PROVIDER_FIELDS = `fragment AuthProviderFields on AuthProvider {
  id type name enabled config secretsSet callbackUrl acsUrl metadataUrl source
}`;

const POLICY_FIELDS = `fragment PolicyFields on Policies {
  password { kind source updatedAt minLength requireUppercase requireLowercase requireDigit requireSymbol maxAge disallowCommon historyCount }
  mfa { kind source updatedAt enforcement factors rememberDeviceDays }
  session { kind source updatedAt idleTimeoutMinutes absoluteTimeoutMinutes singleSession notifyNewBrowser }
  lockout { kind source updatedAt enabled maxAttempts lockoutMinutes resetAfterMinutes accountLockAddresses }
}`;

export async function getApplicationEmail(appId: string): Promise<EmailSettings> {
  const query = `query ApplicationEmail($appId: UUID!, $pageSize: Int) {
    emailTemplates(appId: $appId, pageSize: $pageSize) { data { ...TemplateFields } }
    emailProvider(appId: $appId) { ...ProviderFields }
  }
  ${EMAIL_FIELDS}`;
  type Answer = { emailTemplates: { data: EmailTemplate[] }; emailProvider: EmailProvider };
  const data = await graphql<Answer>(query, { appId, pageSize: TEMPLATE_COUNT }, { applicationId: appId });
  return { emailTemplates: data.emailTemplates.data, emailProvider: data.emailProvider };
}

export async function getTenantEmail(appId: string, tenantId: string): Promise<EmailSettings> {
  const query = `query TenantEmail($appId: UUID!, $tenantId: UUID!) {
    tenantConfiguration(appId: $appId, tenantId: $tenantId) { emailTemplates { ...TemplateFields } emailProvider { ...ProviderFields } }
  }
  ${EMAIL_FIELDS}`;
  const data = await graphql<{ tenantConfiguration: EmailSettings }>(query, { appId, tenantId }, { applicationId: appId });
  return data.tenantConfiguration;
}

/** The providers in force in the scope: the application's, or a tenant's (its own, else the application's). */
export async function listAuthProviders(scope: SettingsScope, cursor: string | null): Promise<Page<AuthProvider>> {
  const query = `query AuthProviders($appId: UUID!, $tenantId: UUID, $pageSize: Int, $cursor: String) {
    authProviders(appId: $appId, tenantId: $tenantId, pageSize: $pageSize, cursor: $cursor) { data { ...AuthProviderFields } next }
  }
  ${AUTH_PROVIDER_FIELDS}`;
  const data = await callInScope<{ authProviders: Page<AuthProvider> }>(query, scope, { pageSize: PROVIDER_PAGE_SIZE, cursor });
  return data.authProviders;
}

export function listApplicationAuthProviders(appId: string, cursor: string | null): Promise<Page<AuthProvider>> {
  return listAuthProviders({ appId, tenantId: null }, cursor);
}

export async function getApplicationPolicies(appId: string): Promise<Policies> {
  const query = `query ApplicationPolicies($appId: UUID!) { policies(appId: $appId) { ...PolicyFields } }
  ${POLICY_FIELDS}`;
  const data = await graphql<{ policies: Policies }>(query, { appId }, { applicationId: appId });
  return data.policies;
}

export async function getTenantAuth(appId: string, tenantId: string): Promise<TenantAuth> {
  const query = `query TenantAuth($appId: UUID!, $tenantId: UUID!) {
    tenantConfiguration(appId: $appId, tenantId: $tenantId) {
      auth { providersSource providers { ...AuthProviderFields } policies { ...PolicyFields } }
    }
  }
  ${AUTH_PROVIDER_FIELDS}
  ${POLICY_FIELDS}`;
  const data = await graphql<{ tenantConfiguration: { auth: TenantAuth } }>(query, { appId, tenantId }, { applicationId: appId });
  return data.tenantConfiguration.auth;
}

/** "Remove tenant override" of one policy: the tenant inherits the application's again. */
export async function removePolicyOverride(appId: string, tenantId: string, kind: PolicyKind): Promise<void> {
  const mutation = `mutation RemovePolicy($appId: UUID!, $tenantId: UUID!, $kind: PolicyKind!) {
    removePolicy(appId: $appId, tenantId: $tenantId, kind: $kind)
  }`;
  await graphql<{ removePolicy: boolean }>(mutation, { appId, tenantId, kind }, { applicationId: appId });
}
