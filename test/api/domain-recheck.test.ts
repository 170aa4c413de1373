import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECHECK_GRACE_MS } from '../../src/domain/domains/domains.ts';
import { DomainRecheckJob, recheckDomains } from '../../src/domain/domains/recheck.ts';
import type { ResolveTxt } from '../../src/domain/domains/verification.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addDomain, publishing, verifyWith } from '../support/domains.ts';
import { fetchVia, type FetchLike } from '../support/host-fetch.ts';

/**
 * Verified custom domains are looked up again about daily (src/domain/domains/recheck.ts): a record missing for the
 * 72-hour grace un-verifies the domain (audited, no longer served); a failed lookup is no evidence; a record found again
 * ends the failure. The job is run directly, on the test's clock and a resolver of the test's.
 */
const HOUR_MS = 3_600_000;
let app: TestApp;
let now = new Date();
let via: FetchLike;
let domains: string;

/** What DNS publishes now, by record name. */
const zone: Record<string, string> = {};
const dns = publishing(zone);
const timingOut: ResolveTxt = async () => {
  throw Object.assign(new Error('timeout'), { code: 'ETIMEOUT' });
};

beforeAll(async () => {
  app = await startTestApp({}, { clock: () => now, reachablePublicUrl: true });
  via = fetchVia(app.baseUrl);
  domains = `/applications/${app.root.applicationId}/domains`;
});
afterAll(async () => app?.close());

const later = (hours: number) => {
  now = new Date(now.getTime() + hours * HOUR_MS);
};
const recheck = (resolveTxt: ResolveTxt) => recheckDomains(app.gatehouse.services, () => now, resolveTxt);
const domainOf = async (id: string) => ((await app.http.get(domains)).body.data as { id: string }[]).find((domain) => domain.id === id) as Record<string, unknown>;
const actionsOn = async (id: string) =>
  (await app.sql<{ action: string }>(`select action from audit_log where target_id = ? order by id`, [id])).map((row) => row.action);
const discoveryIssuer = async (host: string) => ((await (await via(`http://${host}/.well-known/openid-configuration`)).json()) as { issuer: string }).issuer;

/** A verified domain of the root application whose record `zone` publishes (until the test removes it). */
async function publishedDomain(hostname: string): Promise<{ id: string; record: string; token: string }> {
  const id = await addDomain(app, { apiKey: app.root.apiKey, applicationId: app.root.applicationId }, hostname);
  const domain = await domainOf(id);
  const { name, value } = domain['verificationRecord'] as { name: string; value: string };
  zone[name] = value;
  return { id, record: name, token: value };
}

describe('the domain re-check', () => {
  it('keeps a domain whose record disappears verified within the grace, ignores a failed lookup, and un-verifies it after', async () => {
    const host = 'login.recheck.example';
    const { id, record, token } = await publishedDomain(host);
    const verified = await domainOf(id);
    expect(verified).toMatchObject({ verified: true, checkedAt: now.toISOString(), failingSince: null });
    // Checked at its verification: not due for a day.
    expect(await recheck(dns)).toMatchObject({ found: 0, failing: 0, unverified: 0 });

    later(25);
    expect(await recheck(dns)).toMatchObject({ found: 1 });
    expect(await domainOf(id)).toMatchObject({ verified: true, checkedAt: now.toISOString(), failingSince: null });

    delete zone[record];
    later(25);
    const failedAt = now.toISOString();
    expect(await recheck(dns)).toMatchObject({ failing: 1 });
    expect(await domainOf(id)).toMatchObject({ verified: true, checkedAt: failedAt, failingSince: failedAt });
    expect(await discoveryIssuer(host)).toBe(`http://${host}`);
    const [warning] = await app.sql<{ after: Record<string, unknown> }>(`select after from audit_log where target_id = ? and action = 'domain.check_failed'`, [id]);
    expect(warning?.after).toMatchObject({ failingSince: failedAt, reason: `No TXT record found at ${record}` });

    // A timeout says nothing about the record: nothing changes, and the domain is tried again an hour later, not at once.
    later(25);
    expect(await recheck(timingOut)).toMatchObject({ inconclusive: 1, failing: 0 });
    expect(await domainOf(id)).toMatchObject({ verified: true, checkedAt: failedAt, failingSince: failedAt });
    expect(await recheck(timingOut)).toMatchObject({ inconclusive: 0 });

    later(25);
    expect(await recheck(dns)).toMatchObject({ failing: 1, unverified: 0 });
    expect(await domainOf(id)).toMatchObject({ verified: true, failingSince: failedAt });

    // 75 hours after the first failure: past the grace.
    later(25);
    expect(now.getTime() - Date.parse(failedAt)).toBeGreaterThanOrEqual(RECHECK_GRACE_MS);
    expect(await recheck(dns)).toMatchObject({ unverified: 1 });
    expect(await domainOf(id)).toMatchObject({ verified: false, verifiedAt: null, failingSince: failedAt });
    expect(await actionsOn(id)).toEqual(['domain.created', 'domain.verified', 'domain.check_failed', 'domain.unverified']);
    const [unverified] = await app.sql<{ actor_id: string; before: Record<string, unknown>; after: Record<string, unknown> }>(
      `select actor_id, before, after from audit_log where target_id = ? and action = 'domain.unverified'`,
      [id],
    );
    expect(unverified).toMatchObject({ actor_id: 'domain-recheck', before: { hostname: host }, after: { hostname: host, verifiedAt: null, failingSince: failedAt } });
    // No longer served: its Host is the service's, as for any unverified domain.
    expect(await discoveryIssuer(host)).toBe(app.gatehouse.services.config.publicUrl);
    // Nor re-checked again.
    later(25);
    expect(await recheck(dns)).toMatchObject({ found: 0, failing: 0, unverified: 0 });

    // Published again, the verify route restores it.
    zone[record] = token;
    const restored = await verifyWith(app, app.root.apiKey, { applicationId: app.root.applicationId }, id, dns);
    expect(restored).toMatchObject({ verified: true, reason: null, domain: { verified: true, failingSince: null, checkedAt: now } });
    expect(await discoveryIssuer(host)).toBe(`http://${host}`);
  });

  it('ends the failure when the record comes back within the grace', async () => {
    const { id, record, token } = await publishedDomain('back.recheck.example');
    delete zone[record];
    later(25);
    const run = await recheck(dns);
    expect(run.failing).toBeGreaterThanOrEqual(1);
    expect(await domainOf(id)).toMatchObject({ verified: true, failingSince: now.toISOString() });
    zone[record] = token;
    later(25);
    expect((await recheck(dns)).found).toBeGreaterThanOrEqual(1);
    expect(await domainOf(id)).toMatchObject({ verified: true, checkedAt: now.toISOString(), failingSince: null });
    // A later failure starts a new grace: the earlier one does not count.
    delete zone[record];
    later(25);
    await recheck(dns);
    later(25);
    await recheck(dns);
    expect(await domainOf(id)).toMatchObject({ verified: true });
    expect((await actionsOn(id)).filter((action) => action === 'domain.check_failed')).toHaveLength(2);
  });

  it('lets the verify route re-check a failing domain at once: found, the failure ends; missing, it says why', async () => {
    const { id, record, token } = await publishedDomain('fixed.recheck.example');
    delete zone[record];
    later(25);
    await recheck(dns);
    const target = { applicationId: app.root.applicationId };
    const still = await verifyWith(app, app.root.apiKey, target, id, dns);
    expect(still).toMatchObject({ verified: true, reason: `No TXT record found at ${record}`, domain: { failingSince: expect.any(Date) } });
    const timedOut = await verifyWith(app, app.root.apiKey, target, id, timingOut);
    expect(timedOut).toMatchObject({ verified: true, domain: { failingSince: expect.any(Date) } });
    zone[record] = token;
    const fixed = await verifyWith(app, app.root.apiKey, target, id, dns);
    expect(fixed).toMatchObject({ verified: true, reason: null, domain: { failingSince: null } });
  });

  it('gives each domain to one of several runs at once (the lease)', async () => {
    await publishedDomain('one.lease.example');
    await publishedDomain('two.lease.example');
    later(25);
    // Every verified domain is due (the earlier tests' too): each is checked once, whichever run took it.
    const [{ count }] = (await app.sql<{ count: string }>(`select count(*) from domain where verified_at is not null`)) as [{ count: string }];
    const runs = await Promise.all([recheck(dns), recheck(dns), recheck(dns)]);
    const checked = runs.reduce((sum, run) => sum + run.found + run.failing + run.unverified + run.inconclusive, 0);
    expect(checked).toBe(Number(count));
  });

  // Last: the job looks the due domains up in the configured DNS, whatever it answers.
  it('runs as its instance starts, not only an interval later: an instance restarted more often than that still re-checks', async () => {
    const { id } = await publishedDomain('started.recheck.example');
    later(25);
    const job = new DomainRecheckJob(app.gatehouse.services, 600_000);
    job.start({ info: () => undefined, error: () => undefined });
    try {
      await job.settled();
    } finally {
      await job.stop();
    }
    // Checked (the record found or not), or a failed lookup's retry leased: either way the run took it.
    const [row] = await app.sql<{ checked_at: Date | string; recheck_claimed_until: Date | string | null }>('select checked_at, recheck_claimed_until from domain where id = ?', [id]);
    expect(new Date(row!.checked_at).getTime() === now.getTime() || row!.recheck_claimed_until !== null).toBe(true);
  }, 60_000);
});
