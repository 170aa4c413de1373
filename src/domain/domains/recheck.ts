import { PeriodicJob } from '../../background-work.ts';
import type { Clock } from '../../clock.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Domain, EmailSenderDomain } from '../../db/entities/index.ts';
import { HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { collectChanges } from '../../events/changes.ts';
import type { Invalidation } from '../../events/invalidations.ts';
import { newId } from '../../ids.ts';
import { inJobSpan } from '../../observability/spans.ts';
import type { DomainServices } from '../../services.ts';
import { dnsResolver } from '../dns-resolver.ts';
import type { AuditActor } from '../audit/audit.ts';
import { checkReturnPath, recordSenderRecheck, RETURN_PATH_LABEL, returnPathRecord } from '../email/sender-domain.ts';
import type { PolicyCutoffs } from '../sessions/grant-sign-ins.ts';
import { grantHoldersCutoffs } from '../sessions/policy-cutoffs.ts';
import { recordRecheck, type RecheckOutcome } from './domains.ts';
import { checkVerificationRecord, type ResolveTxt, type VerificationCheck } from './verification.ts';

/**
 * Verified custom and sender domains are looked up again daily: a record removed or a hostname that changed hands stops
 * serving. Claims are leased (SKIP LOCKED), so instances check different rows; lookups run outside any transaction.
 */

export const RECHECK_AFTER_MS = 86_400_000;
export const RECHECK_EVERY_MS = 10 * 60_000;
const BATCH = 100;
/** Lookups at once: each takes at most 2 s × 2 tries (dns-resolver.ts), so a batch ends well within its lease. */
const PARALLEL = 10;
/** Past it, another instance may claim a row whose check never recorded (its instance stopped). */
const LEASE_MS = 10 * 60_000;
/** A lookup that failed (no evidence) is tried again this much later, not at every run. */
const INCONCLUSIVE_RETRY_MS = 60 * 60_000;

export type RecheckRun = Record<RecheckOutcome, number>;
export type ResolveCname = (name: string) => Promise<string[]>;

/** A claimed row's key, with what its kind returns besides. */
interface Claimed {
  application_id: string;
  id: string;
}

/** What a row's recording changed; null when the row is gone (deleted since the claim). */
type Recorded = { outcome: RecheckOutcome; row: { recheckClaimedUntil?: Date | null } } | null;

/** One kind of row a run re-checks. */
interface RecheckKind<Row extends Claimed, Looked> {
  table: 'domain' | 'email_sender_domain';
  /** SQL, beyond being verified and due. */
  claimable: string;
  returning: string;
  /** The audit records' actor. */
  actorId: string;
  /** Outside any transaction: a DNS lookup may take seconds. */
  lookUp(row: Row, requestId: string): Promise<Looked>;
  /** In the transaction, the row held FOR UPDATE; the lease is set after. */
  record(em: EntityManager, actor: AuditActor, row: Row, looked: Looked, now: Date): Promise<Recorded>;
}

async function recheckKind<Row extends Claimed, Looked>(
  services: DomainServices,
  clock: Clock,
  kind: RecheckKind<Row, Looked>,
  batch: number,
  run: RecheckRun,
): Promise<void> {
  const now = clock();
  // Across applications: the job belongs to none, as surfaces.ts reads verified hostnames.
  const claimed = await services.orm.em.getConnection().execute<Row[]>(
    `update ${kind.table} set recheck_claimed_until = ? where (application_id, id) in (
       select application_id, id from ${kind.table}
        where verified_at is not null and (checked_at is null or checked_at <= ?) and (recheck_claimed_until is null or recheck_claimed_until <= ?)
          and ${kind.claimable}
        order by checked_at nulls first limit ? for update skip locked)
     returning ${kind.returning}`,
    [new Date(now.getTime() + LEASE_MS), new Date(now.getTime() - RECHECK_AFTER_MS), now, batch],
  );
  for (let from = 0; from < claimed.length; from += PARALLEL) {
    await Promise.all(
      claimed.slice(from, from + PARALLEL).map(async (row) => {
        const requestId = newId();
        const looked = await kind.lookUp(row, requestId);
        // What caches must forget (a surface no longer served, the grants ended): published once committed.
        const changes = new Map<string, Invalidation>();
        const outcome = await services.orm.em.fork().transactional(async (em) => {
          collectChanges(em, changes);
          const actor = { applicationId: row.application_id, tenantId: null, requestId, principal: { actor: { type: 'system', id: kind.actorId } } };
          const recorded = await kind.record(em, actor, row, looked, clock());
          if (recorded === null) return 'inconclusive';
          recorded.row.recheckClaimedUntil = recorded.outcome === 'inconclusive' ? new Date(clock().getTime() + INCONCLUSIVE_RETRY_MS) : null;
          return recorded.outcome;
        });
        for (const change of changes.values()) await services.invalidations.publish(change);
        run[outcome] += 1;
      }),
    );
  }
}

interface ClaimedDomain extends Claimed {
  hostname: string;
  verification_token: string;
}

function customDomains(services: DomainServices, resolveTxt: ResolveTxt): RecheckKind<ClaimedDomain, { check: VerificationCheck; cutoffs: PolicyCutoffs }> {
  return {
    table: 'domain',
    claimable: 'true',
    returning: 'application_id, id, hostname, verification_token',
    actorId: 'domain-recheck',
    async lookUp(domain, requestId) {
      const check = await checkVerificationRecord(domain.hostname, domain.verification_token, resolveTxt);
      // A record not found may un-verify the domain and end its sign-ins, recorded as the lists judge them: the policy
      // read before the transaction.
      const reader = { services, requestId, applicationId: domain.application_id };
      const cutoffs = check.answered && !check.verified ? await grantHoldersCutoffs(reader, services.orm.em.fork(), new Date()) : {};
      return { check, cutoffs };
    },
    async record(em, actor, domain, { check, cutoffs }, now) {
      const row = await em.findOne(Domain, { applicationId: domain.application_id, id: domain.id }, { ...HOLD_FOR_UPDATE, filters: false });
      if (row === null) return null;
      const outcome = await recordRecheck(em, { ...actor, tenantId: row.tenantId ?? null }, row, check, now, services.surfaces.domainIssuer(row.hostname), cutoffs);
      return { outcome, row };
    },
  };
}

interface ClaimedSenderDomain extends Claimed {
  domain: string;
  return_path: { name: string; value: string };
}

/** Only those whose SMTP server has a name: a return path (`bounces.<domain>`) was checked for theirs. */
function senderDomains(resolveCname: ResolveCname): RecheckKind<ClaimedSenderDomain, VerificationCheck> {
  return {
    table: 'email_sender_domain',
    claimable: `last_check @> jsonb_build_array(jsonb_build_object('name', '${RETURN_PATH_LABEL}.' || domain))`,
    returning: `application_id, id, domain, (select record from jsonb_array_elements(last_check) record where record->>'name' = '${RETURN_PATH_LABEL}.' || domain limit 1) as return_path`,
    actorId: 'sender-domain-recheck',
    lookUp: (sender) => checkReturnPath(resolveCname, sender.return_path),
    async record(em, actor, sender, check, now) {
      const row = await em.findOne(EmailSenderDomain, { applicationId: sender.application_id, id: sender.id }, { ...HOLD_FOR_UPDATE, filters: false });
      if (row === null) return null;
      // The record changed since the claim (its owner verified it again, with another SMTP server): checked another day.
      if (returnPathRecord(row)?.value !== sender.return_path.value) return { outcome: 'inconclusive', row };
      return { outcome: recordSenderRecheck(em, { ...actor, tenantId: row.tenantId ?? null }, row, check, now), row };
    },
  };
}

/** Both kinds, each its own batch; `resolveCname` for the sender domains' return paths, by default through `DNS_SERVERS`. */
export async function recheckDomains(
  services: DomainServices,
  clock: Clock,
  resolveTxt: ResolveTxt,
  batch = BATCH,
  resolveCname: ResolveCname = (name) => dnsResolver(services.config.email.dnsServers).resolveCname(name),
): Promise<RecheckRun> {
  const run: RecheckRun = { found: 0, failing: 0, unverified: 0, inconclusive: 0 };
  await recheckKind(services, clock, customDomains(services, resolveTxt), batch, run);
  await recheckKind(services, clock, senderDomains(resolveCname), batch, run);
  return run;
}

/** `everyMs` 0: never on this instance. A first run as it starts, as the other periodic jobs. */
export class DomainRecheckJob extends PeriodicJob {
  constructor(services: DomainServices, everyMs: number) {
    super(
      'domain-recheck',
      everyMs,
      async (log) => {
        const resolveTxt: ResolveTxt = (name) => dnsResolver(services.config.email.dnsServers).resolveTxt(name);
        const run = await inJobSpan('domain-recheck run', () => recheckDomains(services, services.clock, resolveTxt));
        if (run.failing > 0 || run.unverified > 0) log.info({ run }, 'domain recheck: records missing');
      },
      { runsAtStart: true },
    );
  }
}
