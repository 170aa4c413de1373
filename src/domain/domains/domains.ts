import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { Domain, Tenant } from '../../db/entities/index.ts';
import { HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { GatehouseError, invalid, notFound } from '../../errors.ts';
import { changed } from '../../events/changes.ts';
import { grantsEnded } from '../../events/invalidations.ts';
import { newId } from '../../ids.ts';
import { assertAuthIsolated } from '../auth-providers/auth-providers.ts';
import { type AuditActor, recordAudit } from '../audit/audit.ts';
import { endSurfaceSignIns } from '../sessions/end-sessions.ts';
import type { PolicyCutoffs } from '../sessions/grant-sign-ins.ts';
import { grantHoldersCutoffs } from '../sessions/policy-cutoffs.ts';
import { auditedFieldsOf, auditedSnapshot } from '../audit/audited-fields.ts';
import { isLocalName } from '../address-guard.ts';
import { uniquely } from '../db-errors.ts';
import { dnsResolver } from '../dns-resolver.ts';
import { configurationChanged } from '../tenancy/changed.ts';
import { underTenancyConfig } from '../tenancy/config-lock.ts';
import { paginate, type Page, type PageArgs, type Row, scopedList } from '../pagination.ts';
import { hostname, MAX_DNS_NAME } from './hostname.ts';
import { challengeRecordName, checkVerificationRecord, newVerificationToken, type ResolveTxt, type VerificationCheck } from './verification.ts';
import { requireHoldsWhatMailReaches } from '../email/mailed-accounts.ts';

/** A tenant's own domains only while `isolated` (spec, tenancy rule 7); a hostname is unique in the application. */
export interface DomainView {
  id: string;
  applicationId: string;
  tenantId: string | null;
  hostname: string;
  verified: boolean;
  verifiedAt: Date | null;
  verificationToken: string;
  verificationRecord: { type: 'TXT'; name: string; value: string };
  /** The last lookup that answered: the verification's, then each daily re-check's (recheck.ts). */
  checkedAt: Date | null;
  /** Since when re-checks have found no record; null while it is found. */
  failingSince: Date | null;
  createdAt: Date;
}

export interface DomainVerificationView {
  verified: boolean;
  reason: string | null;
  domain: DomainView;
}

export function presentDomain(domain: Row<Domain>): DomainView {
  return {
    id: domain.id,
    applicationId: domain.applicationId,
    tenantId: domain.tenantId ?? null,
    hostname: domain.hostname,
    verified: domain.verifiedAt != null,
    verifiedAt: domain.verifiedAt ?? null,
    verificationToken: domain.verificationToken,
    verificationRecord: { type: 'TXT', name: challengeRecordName(domain.hostname), value: domain.verificationToken },
    checkedAt: domain.checkedAt ?? null,
    failingSince: domain.failingSince ?? null,
    createdAt: domain.createdAt,
  };
}

const field = auditedFieldsOf<Domain>();
const DOMAIN_SNAPSHOT = auditedSnapshot([field.value('hostname'), field.value('tenantId'), field.instant('verifiedAt')]);
const snapshot = (domain: Domain) => DOMAIN_SNAPSHOT.of(domain);
export const domainSnapshotSql = DOMAIN_SNAPSHOT.sql;

export async function listDomains(scope: Scope, args: PageArgs): Promise<Page<DomainView>> {
  const list = scopedList(scope, 'domains');
  const page = await paginate(scope.em, Domain, { tenantId: scope.tenantId }, args, scope.services.cursors, list);
  return { data: page.data.map(presentDomain), next: page.next };
}

/** Of the scope's own level, else 404. `lock`: FOR UPDATE and refreshed, so a write decides on what a concurrent one left
 *  (a second deletion: 404). */
async function findDomain(em: Scope['em'], scope: Scope, domainId: string, lock = false): Promise<Domain> {
  const options = lock ? HOLD_FOR_UPDATE : {};
  const domain = await em.findOne(Domain, { id: domainId, tenantId: scope.tenantId }, options);
  if (domain === null) throw notFound('Domain', 'domainId');
  return domain;
}

/** Neither PUBLIC_URL's host nor a name under it (the service's own), nor one under `localhost` (each browser's own machine, RFC 6761). */
function customHostname(scope: Scope, value: string): string {
  const name = hostname('hostname', value);
  const service = new URL(scope.services.config.publicUrl).hostname;
  if (name === service || name.endsWith(`.${service}`)) {
    throw invalid('hostname', `hostname may not be the service's own host (${service}) or a name under it`);
  }
  if (isLocalName(name)) throw invalid('hostname', 'hostname may not be a name under localhost, which names the browser’s own machine');
  // Longer, the lookup fails (EBADNAME) on every try: a claim that could never be verified.
  const longest = MAX_DNS_NAME - challengeRecordName('').length;
  if (name.length > longest) {
    throw invalid('hostname', `hostname may have at most ${longest} characters, so that its verification record ${challengeRecordName('<hostname>')} is a DNS name`);
  }
  return name;
}

export async function createDomain(scope: Scope, input: { hostname: string }): Promise<DomainView> {
  if (scope.tenantId !== null && (await scope.em.count(Tenant, { id: scope.tenantId })) === 0) throw notFound('Tenant', 'tenantId');
  const name = customHostname(scope, input.hostname);
  // Once verified it is where mailed links lead, the first by name (pagesOf).
  await requireHoldsWhatMailReaches(scope);
  const domain = await uniquely('hostname', 'A domain with this hostname', () =>
    underTenancyConfig(scope, async ({ em, application }) => {
      if (scope.tenantId !== null) assertAuthIsolated(await application(), 'custom domains');
      // An unverified claim of the application's or another tenant's blocks nothing: the first to verify holds it.
      const verified = { applicationId: scope.applicationId, hostname: name, verifiedAt: { $ne: null } };
      if ((await em.count(Domain, verified, { filters: false })) > 0) throw verifiedElsewhere();
      const created = em.create(Domain, {
        applicationId: scope.applicationId,
        id: newId(),
        tenantId: scope.tenantId,
        hostname: name,
        verificationToken: newVerificationToken(),
        verifiedAt: null,
        checkedAt: null,
        failingSince: null,
        recheckClaimedUntil: null,
      });
      recordAudit(em, scope, { action: 'domain.created', targetType: 'domain', targetId: created.id, after: snapshot(created) });
      configurationChanged(em, scope.applicationId, scope.tenantId);
      return created;
    }),
  );
  return presentDomain(domain);
}

/** Allowed whatever `authIsolation` says. A verified domain's sign-ins end with it; an unverified claim had none (its
 *  hostname may be verified by another owner, whose stay). */
export async function deleteDomain(scope: Scope, domainId: string): Promise<boolean> {
  const cutoffs = await grantHoldersCutoffs(scope, scope.em, new Date());
  await scope.transactional(async (em) => {
    const domain = await findDomain(em, scope, domainId, true);
    recordAudit(em, scope, { action: 'domain.deleted', targetType: 'domain', targetId: domain.id, before: snapshot(domain) });
    if (domain.verifiedAt != null) {
      changed(em, ...grantsEnded(await endSurfaceSignIns(em, scope, { exactly: scope.services.surfaces.domainIssuer(domain.hostname) }, 'domain_deleted', cutoffs)));
    }
    em.remove(domain);
    configurationChanged(em, scope.applicationId, scope.tenantId);
  });
  return true;
}

const verifiedElsewhere = () =>
  new GatehouseError('already_exists', 'This hostname is already verified by another application or tenant', { field: 'hostname' });

/** Not found or lookup failed: 200 `verified: false` with the reason (a record not yet in DNS is expected). A hostname
 *  another application verified: 409, so it routes to one only. A verified domain answers without a lookup unless its
 *  re-checks are failing: then it is looked up again, as a re-check, and `reason` says why it still fails. */
export async function verifyDomain(
  scope: Scope,
  domainId: string,
  resolveTxt: ResolveTxt = (name) => dnsResolver(scope.services.config.email.dnsServers).resolveTxt(name),
): Promise<DomainVerificationView> {
  const domain = await findDomain(scope.em, scope, domainId);
  if (domain.verifiedAt != null && domain.failingSince == null) return { verified: true, reason: null, domain: presentDomain(domain) };
  // The lookup may take seconds: outside any transaction.
  const check = await checkVerificationRecord(domain.hostname, domain.verificationToken, resolveTxt);
  if (domain.verifiedAt != null) {
    const now = scope.services.clock();
    const cutoffs = await grantHoldersCutoffs(scope, scope.em, new Date());
    const row = await scope.transactional(async (em) => {
      const current = await findDomain(em, scope, domainId, true);
      await recordRecheck(em, scope, current, check, now, scope.services.surfaces.domainIssuer(current.hostname), cutoffs);
      return current;
    });
    return { verified: row.verifiedAt != null, reason: check.reason, domain: presentDomain(row) };
  }
  if (!check.verified) return { verified: false, reason: check.reason, domain: presentDomain(domain) };
  // Verifications of one hostname take turns (every instance): two applications cannot both pass the check below.
  const verified = await scope.transactional(async (em) => {
    // Across applications and tenants on purpose: the hostname routes to one surface only. Reveals no more than DNS does.
    const elsewhere = await em.count(Domain, { hostname: domain.hostname, verifiedAt: { $ne: null }, id: { $ne: domain.id } }, { filters: false });
    if (elsewhere > 0) throw verifiedElsewhere();
    const row = await findDomain(em, scope, domainId, true);
    // A concurrent verification committed first: its record stands for both.
    if (row.verifiedAt != null) return row;
    const before = snapshot(row);
    row.verifiedAt = new Date();
    row.checkedAt = scope.services.clock();
    row.failingSince = null;
    recordAudit(em, scope, { action: 'domain.verified', targetType: 'domain', targetId: row.id, before, after: snapshot(row) });
    configurationChanged(em, scope.applicationId, scope.tenantId);
    return row;
  }, `domain-verification:${domain.hostname}`);
  return { verified: true, reason: null, domain: presentDomain(verified) };
}

/** How long re-checks may find no record before the domain is no longer verified: a DNS mistake gets three days to be
 *  noticed (the first failure is audited) and fixed. */
export const RECHECK_GRACE_MS = 72 * 3_600_000;

export type RecheckOutcome = 'found' | 'failing' | 'unverified' | 'inconclusive';

/** The grace both kinds of domain share: a failed lookup is no evidence; missing past RECHECK_GRACE_MS is `unverified`. */
export function judgeRecheck(
  row: { checkedAt?: Date | null; failingSince?: Date | null },
  check: VerificationCheck,
  now: Date,
): { outcome: RecheckOutcome; firstFailure: boolean } {
  if (!check.answered) return { outcome: 'inconclusive', firstFailure: false };
  row.checkedAt = now;
  if (check.verified) {
    row.failingSince = null;
    return { outcome: 'found', firstFailure: false };
  }
  const firstFailure = row.failingSince == null;
  row.failingSince ??= now;
  return { outcome: now.getTime() - row.failingSince.getTime() < RECHECK_GRACE_MS ? 'failing' : 'unverified', firstFailure };
}

/** `row` held FOR UPDATE. An unverified domain's sign-ins end as at its deletion, as the session policy's `cutoffs` list them. */
export async function recordRecheck(
  em: EntityManager,
  actor: AuditActor,
  row: Domain,
  check: VerificationCheck,
  now: Date,
  issuer: string,
  cutoffs: PolicyCutoffs,
): Promise<RecheckOutcome> {
  if (row.verifiedAt == null) return 'inconclusive';
  const { outcome, firstFailure } = judgeRecheck(row, check, now);
  const audit = { targetType: 'domain', targetId: row.id, tenantId: row.tenantId ?? null } as const;
  if (firstFailure) recordAudit(em, actor, { ...audit, action: 'domain.check_failed', after: { failingSince: row.failingSince, reason: check.reason } });
  if (outcome !== 'unverified') return outcome;
  const before = snapshot(row);
  row.verifiedAt = null;
  recordAudit(em, actor, { ...audit, action: 'domain.unverified', before, after: { ...snapshot(row), failingSince: row.failingSince, reason: check.reason } });
  changed(em, ...grantsEnded(await endSurfaceSignIns(em, { ...actor, tenantId: row.tenantId ?? null }, { exactly: issuer }, 'domain_unverified', cutoffs)));
  configurationChanged(em, row.applicationId, row.tenantId ?? null);
  return 'unverified';
}
