import { graphql } from './api.ts';
import type { Source } from './operations.ts';

// The E-mail tab's calls of the management API (field names as in schema/email.graphql and
// tenant-configuration.graphql). `source` is null at application scope.

export type EmailProviderType = 'gatehouse' | 'smtp' | 'sendgrid' | 'ses' | 'postmark' | 'resend';

export interface EmailTemplateSummary {
  readonly key: string;
  readonly subject: string;
  readonly source: Source | null;
}

/** The provider's stored settings; secrets are write-only, so only the names of those set are known. */
export interface EmailProvider {
  readonly type: EmailProviderType;
  readonly fromAddress: string;
  readonly fromName: string | null;
  readonly replyTo: string | null;
  readonly smtp: { readonly host: string; readonly port: number; readonly username: string | null; readonly security: string } | null;
  readonly ses: { readonly region: string; readonly accessKeyId: string } | null;
  readonly secretsSet: readonly string[];
  readonly source: Source | null;
}

/** The 12 templates and the provider, as they apply in one scope. */
export interface EmailSettings {
  readonly emailTemplates: readonly EmailTemplateSummary[];
  readonly emailProvider: EmailProvider;
}

// Every template fits one page: there are 12.
const TEMPLATE_COUNT = 12;

const EMAIL_FIELDS = `fragment TemplateFields on EmailTemplate { key subject source }
fragment ProviderFields on EmailProvider {
  type fromAddress fromName replyTo
  smtp { host port username security }
  ses { region accessKeyId }
  secretsSet source
}`;

/** The application's own templates and provider (asked without a tenant). */
export async function getApplicationEmail(appId: string): Promise<EmailSettings> {
  const query = `query ApplicationEmail($appId: UUID!, $pageSize: Int) {
    emailTemplates(appId: $appId, pageSize: $pageSize) { data { ...TemplateFields } }
    emailProvider(appId: $appId) { ...ProviderFields }
  }
  ${EMAIL_FIELDS}`;
  type Answer = { emailTemplates: { data: EmailTemplateSummary[] }; emailProvider: EmailProvider };
  const data = await graphql<Answer>(query, { appId, pageSize: TEMPLATE_COUNT }, { applicationId: appId });
  return { emailTemplates: data.emailTemplates.data, emailProvider: data.emailProvider };
}

/** A tenant's effective templates and provider, each with `source`. */
export async function getTenantEmail(appId: string, tenantId: string): Promise<EmailSettings> {
  const query = `query TenantEmail($appId: UUID!, $tenantId: UUID!) {
    tenantConfiguration(appId: $appId, tenantId: $tenantId) { emailTemplates { ...TemplateFields } emailProvider { ...ProviderFields } }
  }
  ${EMAIL_FIELDS}`;
  const data = await graphql<{ tenantConfiguration: EmailSettings }>(query, { appId, tenantId }, { applicationId: appId });
  return data.tenantConfiguration;
}
