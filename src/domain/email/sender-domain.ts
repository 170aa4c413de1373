import { generateKeyPair, randomBytes } from 'node:crypto';
import type { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { promisify } from 'node:util';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { EmailSenderDomain } from '../../db/entities/index.ts';
import { HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { GatehouseError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { type AuditActor, recordAudit } from '../audit/audit.ts';
import { judgeRecheck, type RecheckOutcome } from '../domains/domains.ts';
import type { VerificationCheck } from '../domains/verification.ts';
import { dnsResolver } from '../dns-resolver.ts';
import type { Source } from '../tenancy/settings.ts';
import { getEmailProvider, type EmailProviderType, type SmtpSettings } from './provider.ts';

/**
 * The DNS records for an `smtp` provider's From domain: SPF for the SMTP server, a DKIM key per owner and domain (so no
 * other application or tenant can sign as it), and a return path CNAME that becomes the envelope sender once every
 * record is found. The built-in sender and the HTTP providers need none: `managed`.
 */
export type SenderDomainStatus = 'unverified' | 'verified' | 'managed';
export type DnsRecordPurpose = 'spf' | 'dkim' | 'return_path';

export interface ExpectedRecord {
  readonly purpose: DnsRecordPurpose;
  readonly type: 'TXT' | 'CNAME';
  readonly name: string;
  readonly value: string;
}

export interface CheckedRecord {
  name: string;
  value: string;
  found: boolean;
  reason: string | null;
}

export interface SenderDnsRecord extends ExpectedRecord {
  /** Null before any check (or since the record changed). */
  readonly found: boolean | null;
  readonly reason: string | null;
}

export interface SenderDomainView {
  domain: string;
  fromAddress: string;
  providerType: EmailProviderType;
  source: Source | null;
  status: SenderDomainStatus;
  verifiedAt: Date | null;
  checkedAt: Date | null;
  /** Since when daily re-checks have found the return path missing (its mail leaves with the From address meanwhile). */
  failingSince: Date | null;
  records: SenderDnsRecord[];
}

export const RETURN_PATH_LABEL = 'bounces';
const DKIM_BITS = 2048;

/** In Punycode, its name in the DNS: the records' names, their lookups and DKIM's `d=` (domainToASCII lower-cases too). */
export const domainOf = (address: string): string => {
  const domain = address.slice(address.lastIndexOf('@') + 1);
  return domainToASCII(domain) || domain.toLowerCase();
};

/** Its address, or the addresses its name has. */
function spfMechanism(host: string): string {
  const family = isIP(host);
  return family === 4 ? `ip4:${host}` : family === 6 ? `ip6:${host}` : `a:${host}`;
}

export function expectedRecords(domain: string, smtp: SmtpSettings, row: Pick<EmailSenderDomain, 'dkimSelector' | 'dkimPublicKey'>): ExpectedRecord[] {
  const records: ExpectedRecord[] = [
    { purpose: 'spf', type: 'TXT', name: domain, value: `v=spf1 ${spfMechanism(smtp.host)} ~all` },
    { purpose: 'dkim', type: 'TXT', name: `${row.dkimSelector}._domainkey.${domain}`, value: `v=DKIM1; k=rsa; p=${row.dkimPublicKey}` },
  ];
  // A CNAME names a host: a server given as an address has no return path of its own.
  if (isIP(smtp.host) === 0) records.push({ purpose: 'return_path', type: 'CNAME', name: `${RETURN_PATH_LABEL}.${domain}`, value: smtp.host });
  return records;
}

/** A changed SMTP server or key wants a new check. */
export function isVerified(row: Pick<EmailSenderDomain, 'lastCheck'>, expected: readonly ExpectedRecord[]): boolean {
  const found = row.lastCheck ?? [];
  return expected.every((record) => found.some((checked) => checked.found && checked.name === record.name && checked.value === record.value));
}

/** Bounces go to the return path, which SPF and DMARC align with. */
export const returnPathAddress = (domain: string): string => `${RETURN_PATH_LABEL}@${RETURN_PATH_LABEL}.${domain}`;

/** Null until a GET or verify asks for it: its mail is not signed. */
export async function findSenderDomain(em: EntityManager, applicationId: string, owner: string | null, domain: string): Promise<EmailSenderDomain | null> {
  // filters off: the worker reads the row of the mail's owner, outside any request scope.
  return em.findOne(EmailSenderDomain, { applicationId, tenantId: owner, domain }, { filters: false });
}

const keyPair = promisify(generateKeyPair);

/** With a fresh DKIM key the first time it is asked for (audited). */
async function senderDomainRow(scope: Scope, owner: string | null, domain: string): Promise<EmailSenderDomain> {
  const found = await findSenderDomain(scope.em, scope.applicationId, owner, domain);
  if (found !== null) return found;
  const { publicKey, privateKey } = await keyPair('rsa', { modulusLength: DKIM_BITS });
  const id = newId();
  const selector = `gatehouse-${randomBytes(4).toString('hex')}`;
  await scope.transactional(async (em) => {
    // A concurrent first GET may have made it: its key stands, this one is dropped.
    const inserted = await em.execute<{ id: string }[]>(
      `insert into email_sender_domain (application_id, id, tenant_id, domain, dkim_selector, dkim_public_key, dkim_private_key, created_at)
       values (?, ?, ?, ?, ?, ?, ?, now())
       on conflict (application_id, tenant_id, domain) do nothing returning id`,
      [
        scope.applicationId,
        id,
        owner,
        domain,
        selector,
        publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
        scope.services.storedSecrets.encrypt(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
      ],
    );
    if (inserted.length > 0) {
      recordAudit(em, scope, { action: 'email_sender_domain.created', targetType: 'email_sender_domain', targetId: id, tenantId: owner, after: { domain, dkimSelector: selector } });
    }
  });
  return (await findSenderDomain(scope.em.fork(), scope.applicationId, owner, domain))!;
}

interface Subject {
  provider: Awaited<ReturnType<typeof getEmailProvider>>;
  domain: string;
  /** Null for the application's. */
  owner: string | null;
}

async function subjectOf(scope: Scope): Promise<Subject> {
  const provider = await getEmailProvider(scope);
  const owner = scope.tenantId !== null && provider.source === 'customized' ? scope.tenantId : null;
  return { provider, domain: domainOf(provider.fromAddress), owner };
}

function present(subject: Subject, row: EmailSenderDomain | null): SenderDomainView {
  const { provider, domain } = subject;
  const base = { domain, fromAddress: provider.fromAddress, providerType: provider.type, source: provider.source };
  if (row === null || provider.smtp === null) return { ...base, status: 'managed', verifiedAt: null, checkedAt: null, failingSince: null, records: [] };
  const expected = expectedRecords(domain, provider.smtp, row);
  const verified = isVerified(row, expected);
  const records = expected.map((record) => {
    const checked = row.lastCheck?.find((candidate) => candidate.name === record.name && candidate.value === record.value);
    return { ...record, found: checked?.found ?? null, reason: checked?.reason ?? null };
  });
  return { ...base, status: verified ? 'verified' : 'unverified', verifiedAt: verified ? (row.verifiedAt ?? null) : null, checkedAt: row.checkedAt ?? null, failingSince: row.failingSince ?? null, records };
}

/** A tenant scope: its effective provider's From domain. */
export async function getSenderDomain(scope: Scope): Promise<SenderDomainView> {
  const subject = await subjectOf(scope);
  if (subject.provider.type !== 'smtp') return present(subject, null);
  return present(subject, await senderDomainRow(scope, subject.owner, subject.domain));
}

const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

function lookupFailure(name: string, type: string, error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && ABSENT.has(code)) return `No ${type} record at ${name}`;
  return `The DNS lookup of ${name} failed (${typeof code === 'string' ? code : 'error'}); try again later`;
}

type Looked = CheckedRecord & { answered: boolean };
type Verdict = { found: boolean; reason: string | null };
const found: Verdict = { found: true, reason: null };
const missing = (reason: string): Verdict => ({ found: false, reason });

/** `answered` false when the lookup itself failed (a timeout, SERVFAIL): no evidence either way. */
async function lookedUp(record: ExpectedRecord, lookUp: () => Promise<Verdict>): Promise<Looked> {
  try {
    return { name: record.name, value: record.value, ...(await lookUp()), answered: true };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { name: record.name, value: record.value, ...missing(lookupFailure(record.name, record.type, error)), answered: typeof code === 'string' && ABSENT.has(code) };
  }
}

async function cnameVerdict(resolveCname: (name: string) => Promise<string[]>, record: ExpectedRecord): Promise<Verdict> {
  const targets = (await resolveCname(record.name)).map((target) => target.toLowerCase().replace(/\.$/, ''));
  return targets.includes(record.value) ? found : missing(`The CNAME at ${record.name} points to ${targets.join(', ')}, not ${record.value}`);
}

async function txtVerdict(resolver: Resolver, record: ExpectedRecord, smtpHost: string): Promise<Verdict> {
  // A TXT value longer than 255 bytes arrives in chunks: the value is their concatenation.
  const texts = (await resolver.resolveTxt(record.name)).map((chunks) => chunks.join(''));
  if (record.purpose === 'spf') {
    const spf = texts.filter((text) => /^v=spf1(\s|$)/i.test(text));
    if (spf.length === 0) return missing(`No SPF record (v=spf1) at ${record.name}`);
    const mechanism = spfMechanism(smtpHost).toLowerCase();
    const allows = spf.some((text) => text.toLowerCase().split(/\s+/).some((term) => term.replace(/^\+/, '') === mechanism));
    return allows ? found : missing(`The SPF record at ${record.name} does not name ${mechanism}`);
  }
  const key = record.value.slice(record.value.indexOf('p=') + 2);
  const holds = texts.some((text) => text.replace(/\s+/g, '').split(';').includes(`p=${key}`));
  return holds ? found : missing(`The TXT record at ${record.name} does not hold this domain's DKIM public key`);
}

function checkRecord(resolver: Resolver, record: ExpectedRecord, smtpHost: string): Promise<Looked> {
  return lookedUp(record, () => (record.type === 'CNAME' ? cnameVerdict((name) => resolver.resolveCname(name), record) : txtVerdict(resolver, record, smtpHost)));
}

/** 200 whatever DNS says: a record not yet visible is an expected state, not a malformed request. A tenant that inherits
 *  the provider may read its domain but not verify it: 403, as for the application's auth providers it inherits. */
export async function verifySenderDomain(scope: Scope): Promise<SenderDomainView> {
  const subject = await subjectOf(scope);
  if (scope.tenantId !== null && subject.owner === null) {
    throw new GatehouseError('forbidden', "A tenant scope may not verify the application's sender domain it inherits");
  }
  const smtp = subject.provider.smtp;
  if (subject.provider.type !== 'smtp' || smtp === null) return present(subject, null);
  const row = await senderDomainRow(scope, subject.owner, subject.domain);
  const expected = expectedRecords(subject.domain, smtp, row);
  // The lookups may take seconds: outside any transaction.
  const resolver = dnsResolver(scope.services.config.email.dnsServers);
  const checked = (await Promise.all(expected.map((record) => checkRecord(resolver, record, smtp.host)))).map(({ answered: _, ...record }) => record);
  const updated = await scope.transactional(async (em) => {
    // Held: a re-check recording at once (recheck.ts) waits, and decides on what this check left.
    const current = await em.findOneOrFail(EmailSenderDomain, { applicationId: scope.applicationId, id: row.id }, { ...HOLD_FOR_UPDATE, filters: false });
    const wasVerified = isVerified(current, expected);
    const before = { verified: wasVerified, verifiedAt: current.verifiedAt ?? null };
    current.lastCheck = checked;
    current.checkedAt = scope.services.clock();
    // Checked by its owner: verified or not as found now, no longer failing re-checks.
    current.failingSince = null;
    const verified = isVerified(current, expected);
    current.verifiedAt = verified ? (wasVerified ? (current.verifiedAt ?? new Date()) : new Date()) : null;
    recordAudit(em, scope, {
      action: 'email_sender_domain.verified',
      targetType: 'email_sender_domain',
      targetId: current.id,
      tenantId: subject.owner,
      before,
      after: { verified, verifiedAt: current.verifiedAt, records: checked.map(({ name, found }) => ({ name, found })) },
    });
    return current;
  });
  return present(subject, updated);
}

/** The return-path record its last check found or its re-checks look for; none when the SMTP server is an address. */
export const returnPathRecord = (row: Pick<EmailSenderDomain, 'domain' | 'lastCheck'>): CheckedRecord | undefined =>
  row.lastCheck?.find((record) => record.name === `${RETURN_PATH_LABEL}.${row.domain}`);

/** The daily re-check's lookup (recheck.ts) of the return path a verified sender domain's envelope sender depends on. */
export async function checkReturnPath(resolveCname: (name: string) => Promise<string[]>, returnPath: Pick<CheckedRecord, 'name' | 'value'>): Promise<VerificationCheck> {
  const record: ExpectedRecord = { purpose: 'return_path', type: 'CNAME', name: returnPath.name, value: returnPath.value };
  const looked = await lookedUp(record, () => cnameVerdict(resolveCname, record));
  return { verified: looked.found, reason: looked.reason, answered: looked.answered };
}

/** `row` held FOR UPDATE. The return path stops serving at the first miss, not after the grace: receivers refuse MAIL
 *  FROM a domain that does not resolve for good (550 5.1.8), while the From address loses only bounce alignment. */
export function recordSenderRecheck(em: EntityManager, actor: AuditActor, row: EmailSenderDomain, check: VerificationCheck, now: Date): RecheckOutcome {
  const returnPath = returnPathRecord(row);
  if (row.verifiedAt == null || returnPath === undefined) return 'inconclusive';
  const { outcome, firstFailure } = judgeRecheck(row, check, now);
  if (outcome === 'inconclusive') return outcome;
  // A new array: the JSON column is written only when it changes as a whole.
  row.lastCheck = row.lastCheck!.map((record) => (record === returnPath ? { ...record, found: check.verified, reason: check.reason } : record));
  const audit = { targetType: 'email_sender_domain', targetId: row.id, tenantId: row.tenantId ?? null } as const;
  if (firstFailure) recordAudit(em, actor, { ...audit, action: 'email_sender_domain.check_failed', after: { failingSince: row.failingSince, reason: check.reason } });
  if (outcome !== 'unverified') return outcome;
  const before = { verifiedAt: row.verifiedAt };
  row.verifiedAt = null;
  recordAudit(em, actor, { ...audit, action: 'email_sender_domain.unverified', before, after: { verifiedAt: null, failingSince: row.failingSince, reason: check.reason } });
  return 'unverified';
}

/** Of a sender domain deleted with its tenant (owned-rows.ts): never its key. */
export const senderDomainSnapshotSql = (r: string) => `jsonb_build_object('domain', ${r}.domain, 'dkimSelector', ${r}.dkim_selector)`;
