import type { EmailProviderSecret, EmailProviderType } from './operations-email-auth.ts';

/** A sending service as the dashboard offers it: its name, and the write-only credential it takes. */
export interface EmailProviderKind {
  readonly label: string;
  readonly secret: { readonly name: EmailProviderSecret; readonly label: string } | null;
}

/** The kinds putEmailProvider accepts, in the schema's order (schema/email.graphql, EmailProviderType). */
export const EMAIL_PROVIDER_KINDS: Readonly<Record<EmailProviderType, EmailProviderKind>> = {
  gatehouse: { label: 'Gatehouse (built-in)', secret: null },
  smtp: { label: 'SMTP', secret: { name: 'password', label: 'Password' } },
  sendgrid: { label: 'SendGrid', secret: { name: 'apiKey', label: 'API key' } },
  ses: { label: 'Amazon SES', secret: { name: 'secretAccessKey', label: 'Secret access key' } },
  postmark: { label: 'Postmark', secret: { name: 'apiKey', label: 'Server token' } },
  resend: { label: 'Resend', secret: { name: 'apiKey', label: 'API key' } },
};

export const EMAIL_PROVIDER_TYPES = Object.keys(EMAIL_PROVIDER_KINDS) as EmailProviderType[];
