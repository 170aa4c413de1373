import { isIP } from 'node:net';
import type { Scope } from '../../context.ts';
import type { Setting } from '../../db/entities/index.ts';
import { invalid } from '../../errors.ts';
import { overrideTenant } from '../tenancy/override-target.ts';
import {
  applicationValue,
  assertTenantMayCustomize,
  effectiveValue,
  putApplicationSetting,
  putTenantOverride,
  removeTenantOverride,
  type Effective,
  type SettingWrite,
  type Source,
} from '../tenancy/settings.ts';
import { displayName, email, isControlFree } from '../validate.ts';
import { mayName } from '../address-guard.ts';
import { requireHoldsWhatMailReaches } from './mailed-accounts.ts';

/**
 * One provider for the application and, while `emailProviderScope` = `tenant`, one per tenant that sets its own.
 * Secrets are write-only: sealed in the setting's `secrets` column (tenancy/settings.ts), shown only as `secretsSet`.
 */
export const EMAIL_PROVIDER_TYPES = ['gatehouse', 'smtp', 'sendgrid', 'ses', 'postmark', 'resend'] as const;
export type EmailProviderType = (typeof EMAIL_PROVIDER_TYPES)[number];

export const EMAIL_PROVIDER_SECRETS = ['password', 'apiKey', 'secretAccessKey'] as const;
export type EmailProviderSecret = (typeof EMAIL_PROVIDER_SECRETS)[number];

/** All required; SMTP's password only with a username (usedSecrets). */
const SECRETS_BY_TYPE: Record<EmailProviderType, readonly EmailProviderSecret[]> = {
  gatehouse: [],
  smtp: ['password'],
  sendgrid: ['apiKey'],
  ses: ['secretAccessKey'],
  postmark: ['apiKey'],
  resend: ['apiKey'],
};

export type SmtpSecurity = 'starttls' | 'tls' | 'none';

export interface SmtpSettings {
  host: string;
  port: number;
  username: string | null;
  security: SmtpSecurity;
}

export interface SesSettings {
  region: string;
  accessKeyId: string;
}

export interface EmailProviderValue {
  type: EmailProviderType;
  fromAddress: string;
  fromName: string | null;
  replyTo: string | null;
  smtp: SmtpSettings | null;
  ses: SesSettings | null;
}

/** Never a secret, only which ones are set. */
export interface EmailProvider extends EmailProviderValue {
  secretsSet: EmailProviderSecret[];
  /** Null for the application's own value. */
  source: Source | null;
  /** Null while the built-in sender applies. */
  updatedAt: Date | null;
}

export interface EmailProviderInput {
  type: EmailProviderType;
  fromAddress?: string | null;
  fromName?: string | null;
  replyTo?: string | null;
  smtp?: { host: string; port: number; username?: string | null; security?: SmtpSecurity | null } | null;
  ses?: { region: string; accessKeyId: string } | null;
  /** Null removes the secret, an omitted one keeps it. */
  secrets?: Partial<Record<EmailProviderSecret, string | null>> | null;
}

const HOSTNAME = /^(?=.{1,253}$)([a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const AWS_REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;
const AWS_ACCESS_KEY_ID = /^[A-Z0-9]{16,128}$/;
const SECRET_MAX_LENGTH = 4_096;

export function builtInFromAddress(publicUrl: string): string {
  return `no-reply@${new URL(publicUrl).hostname}`;
}

export function defaultEmailProvider(publicUrl: string): EmailProviderValue {
  return { type: 'gatehouse', fromAddress: builtInFromAddress(publicUrl), fromName: null, replyTo: null, smtp: null, ses: null };
}

/** No line break (header injection) or other control character. */
const headerName = (field: string, value: string | null | undefined): string | null => (value == null ? null : displayName(field, value));

function smtpSettings(input: EmailProviderInput['smtp'], allowPrivateHosts: boolean): SmtpSettings {
  if (input == null) throw invalid('smtp', 'smtp (host, port) is required for type smtp');
  const host = smtpHost(input.host);
  // What a name resolves to is checked again at each send (publicAddressOf); what is internal already is refused here.
  if (!allowPrivateHosts && !mayName(host, 'none')) {
    throw invalid('smtp.host', 'smtp.host may not be a loopback, private, link-local or other internal address');
  }
  if (!Number.isInteger(input.port) || input.port < 1 || input.port > 65_535) throw invalid('smtp.port', 'smtp.port must be 1 to 65535');
  const username = input.username ?? null;
  if (username !== null && (username.length === 0 || username.length > 256 || !isControlFree(username))) {
    throw invalid('smtp.username', 'smtp.username must be 1 to 256 characters on one line, without control characters');
  }
  return { host, port: input.port, username, security: input.security ?? 'starttls' };
}

/** A name, an IPv4 address, or an IPv6 one bare or in brackets, stored bare in its RFC 5952 form (as a connection takes
 *  it, and as SMTP_URL's is read), lower-cased. No zone: a zone names one of this machine's interfaces. */
function smtpHost(given: string): string {
  if (HOSTNAME.test(given)) return given.toLowerCase();
  const bare = /^\[([^[\]]*)\]$/.exec(given)?.[1] ?? given;
  if (isIP(bare) !== 6 || bare.includes('%')) throw invalid('smtp.host', 'smtp.host must be a host name or an IP address (IPv6 bare or in brackets)');
  return new URL(`smtp://[${bare}]`).hostname.slice(1, -1);
}

function sesSettings(input: EmailProviderInput['ses']): SesSettings {
  if (input == null) throw invalid('ses', 'ses (region, accessKeyId) is required for type ses');
  if (!AWS_REGION.test(input.region)) throw invalid('ses.region', 'ses.region must be an AWS region such as eu-west-1');
  if (!AWS_ACCESS_KEY_ID.test(input.accessKeyId)) throw invalid('ses.accessKeyId', 'ses.accessKeyId must be an AWS access key id');
  return { region: input.region, accessKeyId: input.accessKeyId };
}

/** Without a username nodemailer never logs in (deliver.ts): a password would be stored, and shown set, for nothing. */
const usedSecrets = (type: EmailProviderType, smtp: SmtpSettings | null): readonly EmailProviderSecret[] =>
  type === 'smtp' && smtp?.username == null ? [] : SECRETS_BY_TYPE[type];

/** The SMTP server a stored password was given for: another one must be given it again, or it would be sent there. */
const sameServer = (a: SmtpSettings | null | undefined, b: SmtpSettings | null) =>
  a != null && b !== null && a.host === b.host && a.port === b.port && a.username === b.username && a.security === b.security;

/**
 * PUT replaces every non-secret setting; a secret left out is kept while the type stays the same (for SMTP, the same
 * server: host, port, username and security), and secrets the new type does not use are removed. `stored` decides
 * whether a required secret is already set.
 */
export function parseEmailProvider(
  input: EmailProviderInput,
  stored: { type: string | undefined; smtp?: SmtpSettings | null; secrets: Record<string, string> | null } | null,
  publicUrl: string,
  allowPrivateHosts = false,
): { value: EmailProviderValue; secrets: Record<string, string | null> } {
  const type = input.type;
  if (!EMAIL_PROVIDER_TYPES.includes(type)) throw invalid('type', `type must be one of ${EMAIL_PROVIDER_TYPES.join(', ')}`);
  const builtIn = builtInFromAddress(publicUrl);
  let fromAddress: string;
  if (type === 'gatehouse') {
    if (input.fromAddress != null && input.fromAddress.trim().toLowerCase() !== builtIn) {
      throw invalid('fromAddress', `The built-in sender sends from ${builtIn}; configure a provider to use your own domain`);
    }
    fromAddress = builtIn;
  } else {
    if (input.fromAddress == null) throw invalid('fromAddress', `fromAddress is required for type ${type}`);
    fromAddress = email('fromAddress', input.fromAddress);
  }
  if (type !== 'smtp' && input.smtp != null) throw invalid('smtp', 'smtp settings are only for type smtp');
  if (type !== 'ses' && input.ses != null) throw invalid('ses', 'ses settings are only for type ses');
  const smtp = type === 'smtp' ? smtpSettings(input.smtp, allowPrivateHosts) : null;
  const value: EmailProviderValue = {
    type,
    fromAddress,
    fromName: headerName('fromName', input.fromName),
    replyTo: input.replyTo == null ? null : email('replyTo', input.replyTo),
    smtp,
    ses: type === 'ses' ? sesSettings(input.ses) : null,
  };

  const uses = usedSecrets(type, smtp);
  const given = input.secrets ?? {};
  const keepsSecrets = stored?.type === type && (type !== 'smtp' || sameServer(stored.smtp, smtp));
  const secrets: Record<string, string | null> = {};
  for (const name of EMAIL_PROVIDER_SECRETS) {
    const field = `secrets.${name}`;
    const provided = given[name];
    if (!uses.includes(name)) {
      if (provided != null) throw invalid(field, `${field} is not used by type ${type}${type === 'smtp' ? ' without smtp.username' : ''}`);
      secrets[name] = null;
      continue;
    }
    if (provided === null) secrets[name] = null;
    else if (provided !== undefined) {
      // A line break in a credential would forge SMTP commands or HTTP headers; PostgreSQL stores no NUL.
      if (provided.length === 0 || provided.length > SECRET_MAX_LENGTH || !isControlFree(provided)) {
        throw invalid(field, `${field} must be 1 to ${SECRET_MAX_LENGTH} characters, without control characters`);
      }
      secrets[name] = provided;
    } else if (!keepsSecrets) secrets[name] = null;
    const willBeSet = secrets[name] !== undefined ? secrets[name] !== null : stored?.secrets?.[name] !== undefined;
    if (!willBeSet) {
      const why = type !== 'smtp' ? '' : stored?.type === 'smtp' && stored.secrets?.[name] !== undefined ? ' with a username, again for another server' : ' with a username';
      throw invalid(field, `${field} is required for type ${type}${why}`);
    }
  }
  return { value, secrets };
}

function present(row: Setting | undefined, source: Source | null, publicUrl: string): EmailProvider {
  const fallback = defaultEmailProvider(publicUrl);
  const stored = (row?.value ?? {}) as Partial<EmailProviderValue>;
  const value: EmailProviderValue = { ...fallback, ...stored };
  // The built-in sender's address follows PUBLIC_URL rather than what was current when it was stored.
  if (value.type === 'gatehouse') value.fromAddress = fallback.fromAddress;
  const uses = EMAIL_PROVIDER_TYPES.includes(value.type) ? usedSecrets(value.type, value.smtp) : [];
  return {
    ...value,
    secretsSet: EMAIL_PROVIDER_SECRETS.filter((name) => uses.includes(name) && row?.secrets?.[name] !== undefined),
    source,
    updatedAt: row?.updatedAt ?? null,
  };
}

async function current(scope: Scope): Promise<Effective<null>> {
  return scope.tenantId === null
    ? applicationValue(scope, 'email_provider', '', null)
    : effectiveValue(scope, scope.tenantId, 'email_provider', '', null);
}

export async function getEmailProvider(scope: Scope): Promise<EmailProvider> {
  const effective = await current(scope);
  return present(effective.row, scope.tenantId === null ? null : effective.source, scope.services.config.publicUrl);
}

/** 409 `tenant_customization_disabled` for a tenant while `emailProviderScope` = `application`. */
export async function putEmailProvider(scope: Scope, input: EmailProviderInput): Promise<EmailProvider> {
  if (scope.tenantId !== null) assertTenantMayCustomize(await scope.application(), 'email_provider');
  await requireHoldsWhatMailReaches(scope);
  const publicUrl = scope.services.config.publicUrl;
  // Decided against the row being replaced, locked (a tenant that inherits has none of its own): a concurrent PUT
  // cannot switch the type, or remove a secret this one counts on keeping, between the decision and the write.
  const compose = (own: Setting | null) => {
    const ownValue = own?.value as Partial<EmailProviderValue> | undefined;
    const stored = own === null ? null : { type: ownValue?.type, smtp: ownValue?.smtp ?? null, secrets: own.secrets ?? null };
    const { value, secrets } = parseEmailProvider(input, stored, publicUrl, scope.services.config.email.allowPrivateHosts);
    return { value: { ...value }, secrets };
  };
  const write: SettingWrite = { feature: 'email_provider', key: '', compose, action: 'email_provider.updated' };
  if (scope.tenantId === null) return present(await putApplicationSetting(scope, write), null, publicUrl);
  return present(await putTenantOverride(scope, scope.tenantId, write), 'customized', publicUrl);
}

/** The tenant's secrets go too. */
export async function removeEmailProviderOverride(scope: Scope): Promise<boolean> {
  return removeTenantOverride(scope, overrideTenant(scope), 'email_provider', '', 'email_provider.override.removed');
}
