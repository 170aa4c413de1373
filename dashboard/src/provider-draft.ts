import { EMAIL_PROVIDER_KINDS } from './email-providers.ts';
import type { EmailProvider, EmailProviderType, SmtpSecurity } from './operations-email-auth.ts';
import type { EmailProviderInput } from './operations-email.ts';

/** The provider form's fields as typed; the secret field starts empty, since secrets are never read back. */
export interface ProviderDraft {
  readonly type: EmailProviderType;
  readonly fromAddress: string;
  readonly fromName: string;
  readonly replyTo: string;
  readonly host: string;
  readonly port: string;
  readonly username: string;
  readonly security: SmtpSecurity;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secret: string;
}

export function draftOf(provider: EmailProvider): ProviderDraft {
  return {
    type: provider.type,
    // The built-in sender's address is the service's own: another kind starts without one.
    fromAddress: provider.type === 'gatehouse' ? '' : provider.fromAddress,
    fromName: provider.fromName ?? '',
    replyTo: provider.replyTo ?? '',
    host: provider.smtp?.host ?? '',
    port: String(provider.smtp?.port ?? 587),
    username: provider.smtp?.username ?? '',
    security: provider.smtp?.security ?? 'starttls',
    region: provider.ses?.region ?? '',
    accessKeyId: provider.ses?.accessKeyId ?? '',
    secret: '',
  };
}

const orNull = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/** The PUT's input: only the settings of the chosen kind, and its secret only when one was typed (else it is kept). */
export function inputOf(draft: ProviderDraft): EmailProviderInput {
  const secret = EMAIL_PROVIDER_KINDS[draft.type].secret;
  return {
    type: draft.type,
    fromAddress: draft.type === 'gatehouse' ? null : draft.fromAddress.trim(),
    fromName: orNull(draft.fromName),
    replyTo: orNull(draft.replyTo),
    smtp: draft.type === 'smtp' ? { host: draft.host.trim(), port: Number(draft.port), username: orNull(draft.username), security: draft.security } : null,
    ses: draft.type === 'ses' ? { region: draft.region.trim(), accessKeyId: draft.accessKeyId.trim() } : null,
    secrets: secret === null || draft.secret === '' ? {} : { [secret.name]: draft.secret },
  };
}

/** The server keeps a secret while the type stays (an SMTP password, while host, port, username and security do); a
 *  tenant inheriting its provider has no secret of its own to keep. */
export function keepsStoredSecret(provider: EmailProvider, draft: ProviderDraft): boolean {
  const secret = EMAIL_PROVIDER_KINDS[draft.type].secret;
  if (secret === null || draft.type !== provider.type || provider.source === 'inherited' || !provider.secretsSet.includes(secret.name)) return false;
  const smtp = inputOf(draft).smtp;
  const stored = provider.smtp;
  return smtp === null || (stored !== null && smtp.host.toLowerCase() === stored.host && smtp.port === stored.port && smtp.username === stored.username && smtp.security === stored.security);
}
