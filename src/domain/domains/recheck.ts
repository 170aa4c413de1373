import { PeriodicJob } from '../../background-work.ts';
import type { Clock } from '../../clock.ts';
import { Domain } from '../../db/entities/index.ts';
import { HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { collectChanges } from '../../events/changes.ts';
import type { Invalidation } from '../../events/invalidations.ts';
import { newId } from '../../ids.ts';
import { inJobSpan } from '../../observability/spans.ts';
import type { DomainServices } from '../../services.ts';
import { dnsResolver } from '../dns-resolver.ts';
import { grantHoldersCutoffs } from '../sessions/policy-cutoffs.ts';
import { recordRecheck, type RecheckOutcome } from './domains.ts';
import { checkVerificationRecord, type ResolveTxt } from './verification.ts';

/**
 * Verified custom domains are looked up again about daily, as Auth0 and Zitadel re-check theirs: a record removed, or
 * a hostname that changed hands, stops serving after the grace (domains.ts, `recordRecheck`). Each run claims a
 * bounded batch of the domains checked longest ago with a lease (`recheck_claimed_until`, FOR UPDATE SKIP LOCKED, as
 * the outbox claims mail), so instances running at once check different domains; the lookups run outside any
 * transaction.
 */

export const RECHECK_AFTER_MS = 86_400_000;
export const RECHECK_EVERY_MS = 10 * 60_000;
const BATCH = 100;
/** Lookups at once: each takes at most 2 s × 2 tries (dns-resolver.ts), so a batch ends well within its lease. */
const PARALLEL = 10;
/** Past it, another instance may claim a domain whose check never recorded (its instance stopped). */
const LEASE_MS = 10 * 60_000;
/** A lookup that failed (no evidence) is tried again this much later, not at every run. */
const INCONCLUSIVE_RETRY_MS = 60 * 60_000;

export type RecheckRun = Record<RecheckOutcome, number>;

interface Claimed {
  application_id: string;
  id: string;
  hostname: string;
  verification_token: string;
}

export async function recheckDomains(services: DomainServices, clock: Clock, resolveTxt: ResolveTxt, batch = BATCH): Promise<RecheckRun> {
  const { orm, invalidations, surfaces } = services;
  const now = clock();
  // Across applications: the job belongs to none, as surfaces.ts reads verified hostnames.
  const claimed = await orm.em.getConnection().execute<Claimed[]>(
    `update domain set recheck_claimed_until = ? where (application_id, id) in (
       select application_id, id from domain
        where verified_at is not null and (checked_at is null or checked_at <= ?) and (recheck_claimed_until is null or recheck_claimed_until <= ?)
        order by checked_at nulls first limit ? for update skip locked)
     returning application_id, id, hostname, verification_token`,
    [new Date(now.getTime() + LEASE_MS), new Date(now.getTime() - RECHECK_AFTER_MS), now, batch],
  );
  const run: RecheckRun = { found: 0, failing: 0, unverified: 0, inconclusive: 0 };
  for (let from = 0; from < claimed.length; from += PARALLEL) {
    await Promise.all(
      claimed.slice(from, from + PARALLEL).map(async (domain) => {
        const check = await checkVerificationRecord(domain.hostname, domain.verification_token, resolveTxt);
        const requestId = newId();
        // A record not found may un-verify the domain and end its sign-ins, recorded as the lists judge them: the policy
        // read before the transaction.
        const reader = { services, requestId, applicationId: domain.application_id };
        const cutoffs = check.answered && !check.verified ? await grantHoldersCutoffs(reader, orm.em.fork(), new Date()) : {};
        // An un-verification announces what caches must forget (the surface, the grants ended): published once committed.
        const changes = new Map<string, Invalidation>();
        const outcome = await orm.em.fork().transactional(async (em) => {
          collectChanges(em, changes);
          const row = await em.findOne(Domain, { applicationId: domain.application_id, id: domain.id }, { ...HOLD_FOR_UPDATE, filters: false });
          // Deleted since the claim.
          if (row === null) return 'inconclusive';
          const actor = { applicationId: row.applicationId, tenantId: row.tenantId ?? null, requestId, principal: { actor: { type: 'system', id: 'domain-recheck' } } };
          const recorded = await recordRecheck(em, actor, row, check, clock(), surfaces.domainIssuer(row.hostname), cutoffs);
          row.recheckClaimedUntil = recorded === 'inconclusive' ? new Date(clock().getTime() + INCONCLUSIVE_RETRY_MS) : null;
          return recorded;
        });
        for (const change of changes.values()) await invalidations.publish(change);
        run[outcome] += 1;
      }),
    );
  }
  return run;
}

/** `everyMs` 0: never on this instance. */
export class DomainRecheckJob extends PeriodicJob {
  constructor(services: DomainServices, everyMs: number) {
    super('domain-recheck', everyMs, async (log) => {
      const resolveTxt: ResolveTxt = (name) => dnsResolver(services.config.email.dnsServers).resolveTxt(name);
      const run = await inJobSpan('domain-recheck run', () => recheckDomains(services, services.clock, resolveTxt));
      if (run.failing > 0 || run.unverified > 0) log.info({ run }, 'domain recheck: records missing');
    });
  }
}
