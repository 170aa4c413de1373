import { callInScope, type SettingsScope, type Source } from './operations.ts';
import type { EmailProviderType } from './operations-email-auth.ts';

// The From domain of a scope's effective provider and the DNS records that authenticate its mail (schema/email.graphql).

export type SenderDomainStatus = 'unverified' | 'verified' | 'managed';

export interface SenderDnsRecord {
  readonly purpose: 'spf' | 'dkim' | 'return_path';
  readonly type: string;
  readonly name: string;
  readonly value: string;
  /** Null before a check of this value. */
  readonly found: boolean | null;
  readonly reason: string | null;
}

export interface SenderDomain {
  readonly domain: string;
  readonly providerType: EmailProviderType;
  /** A tenant's: whether its own provider applies; null at the application's scope. */
  readonly source: Source | null;
  readonly status: SenderDomainStatus;
  readonly verifiedAt: string | null;
  readonly checkedAt: string | null;
  readonly failingSince: string | null;
  readonly records: readonly SenderDnsRecord[];
}

const FIELDS = 'domain providerType source status verifiedAt checkedAt failingSince records { purpose type name value found reason }';

/** The first read of an SMTP provider's domain makes its DKIM key (audited): the records are then stable. */
export async function getSenderDomain(scope: SettingsScope): Promise<SenderDomain> {
  const query = `query EmailSenderDomain($appId: UUID!, $tenantId: UUID) { emailSenderDomain(appId: $appId, tenantId: $tenantId) { ${FIELDS} } }`;
  const data = await callInScope<{ emailSenderDomain: SenderDomain }>(query, scope, {});
  return data.emailSenderDomain;
}

/** Looks every record up in DNS; the answer says what was found (a tenant inheriting the application's provider: 403). */
export async function verifySenderDomain(scope: SettingsScope): Promise<SenderDomain> {
  const mutation = `mutation VerifyEmailSenderDomain($appId: UUID!, $tenantId: UUID) { verifyEmailSenderDomain(appId: $appId, tenantId: $tenantId) { ${FIELDS} } }`;
  const data = await callInScope<{ verifyEmailSenderDomain: SenderDomain }>(mutation, scope, {});
  return data.verifyEmailSenderDomain;
}
