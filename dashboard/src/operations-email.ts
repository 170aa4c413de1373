import { callInScope, type Page, type SettingsScope } from './operations.ts';
import type { EmailProviderSecret, EmailProviderType, SmtpSecurity } from './operations-email-auth.ts';

// `tenantId` null acts on the application's value; a tenant's writes its override, refused (409) while the feature's
// switch is application-wide.

export interface EmailTemplateInput {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
}

/** A template rendered with the server's sample variables; nothing is stored or sent. */
export interface RenderedEmail {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
}

/** The whole provider as PUT replaces it: a secret left out keeps its stored value while the type stays the same. */
export interface EmailProviderInput {
  readonly type: EmailProviderType;
  readonly fromAddress: string | null;
  readonly fromName: string | null;
  readonly replyTo: string | null;
  readonly smtp: { readonly host: string; readonly port: number; readonly username: string | null; readonly security: SmtpSecurity } | null;
  readonly ses: { readonly region: string; readonly accessKeyId: string } | null;
  readonly secrets: Partial<Record<EmailProviderSecret, string>>;
}

export type EmailDeliveryStatus = 'queued' | 'sent' | 'failed';

export interface EmailDeliverySummary {
  readonly id: string;
  /** One of the 13 template keys, or `test`. */
  readonly templateKey: string;
  readonly to: string;
  readonly status: EmailDeliveryStatus;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly createdAt: string;
}

export interface EmailDelivery extends EmailDeliverySummary {
  /** Why nothing left the service although it is `sent` (the built-in sender without an SMTP server). */
  readonly note: string | null;
  readonly subject: string;
  /** The bodies where the outbox keeps them (a test mail, the built-in sender without an SMTP server), else a sentence saying they are not shown. */
  readonly text: string;
  readonly html: string;
  readonly sentAt: string | null;
}

const SUMMARY_FIELDS = 'id templateKey to status attempts lastError createdAt';
const DELIVERY_FIELDS = `${SUMMARY_FIELDS} note subject text html sentAt`;
const DELIVERIES_PAGE_SIZE = 25;

export async function putEmailTemplate(scope: SettingsScope, templateKey: string, input: EmailTemplateInput): Promise<void> {
  const mutation = `mutation PutEmailTemplate($appId: UUID!, $tenantId: UUID, $templateKey: EmailTemplateKey!, $input: EmailTemplateInput!) {
    putEmailTemplate(appId: $appId, tenantId: $tenantId, templateKey: $templateKey, input: $input) { key }
  }`;
  await callInScope<{ putEmailTemplate: { key: string } }>(mutation, scope, { templateKey, input });
}

export async function previewEmailTemplate(scope: SettingsScope, templateKey: string, draft: EmailTemplateInput): Promise<RenderedEmail> {
  const mutation = `mutation PreviewEmailTemplate($appId: UUID!, $tenantId: UUID, $templateKey: EmailTemplateKey!, $input: EmailTemplatePreviewInput) {
    previewEmailTemplate(appId: $appId, tenantId: $tenantId, templateKey: $templateKey, input: $input) { subject html text }
  }`;
  const data = await callInScope<{ previewEmailTemplate: RenderedEmail }>(mutation, scope, { templateKey, input: draft });
  return data.previewEmailTemplate;
}

export async function putEmailProvider(scope: SettingsScope, input: EmailProviderInput): Promise<void> {
  const mutation = `mutation PutEmailProvider($appId: UUID!, $tenantId: UUID, $input: EmailProviderInput!) {
    putEmailProvider(appId: $appId, tenantId: $tenantId, input: $input) { type }
  }`;
  await callInScope<{ putEmailProvider: { type: string } }>(mutation, scope, { input });
}

/** Queues a test mail through the scope's effective provider. */
export async function sendTestEmail(scope: SettingsScope, to: string): Promise<EmailDelivery> {
  const mutation = `mutation SendTestEmail($appId: UUID!, $tenantId: UUID, $input: SendTestEmailInput!) {
    sendTestEmail(appId: $appId, tenantId: $tenantId, input: $input) { ${DELIVERY_FIELDS} }
  }`;
  const data = await callInScope<{ sendTestEmail: EmailDelivery }>(mutation, scope, { input: { to } });
  return data.sendTestEmail;
}

export async function getEmailDelivery(scope: SettingsScope, deliveryId: string): Promise<EmailDelivery> {
  const query = `query EmailDelivery($appId: UUID!, $tenantId: UUID, $deliveryId: UUID!) {
    emailDelivery(appId: $appId, tenantId: $tenantId, deliveryId: $deliveryId) { ${DELIVERY_FIELDS} }
  }`;
  const data = await callInScope<{ emailDelivery: EmailDelivery }>(query, scope, { deliveryId });
  return data.emailDelivery;
}

/** The scope's mails (a tenant's: its own; the application's: every one), newest first. */
export async function listEmailDeliveries(scope: SettingsScope, cursor: string | null): Promise<Page<EmailDeliverySummary>> {
  const query = `query EmailDeliveries($appId: UUID!, $tenantId: UUID, $pageSize: Int, $cursor: String) {
    emailDeliveries(appId: $appId, tenantId: $tenantId, order: newest, pageSize: $pageSize, cursor: $cursor) { data { ${SUMMARY_FIELDS} } next }
  }`;
  const data = await callInScope<{ emailDeliveries: Page<EmailDeliverySummary> }>(query, scope, { pageSize: DELIVERIES_PAGE_SIZE, cursor });
  return data.emailDeliveries;
}
