import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECHECK_GRACE_MS } from '../../src/domain/domains/domains.ts';
import { recheckDomains } from '../../src/domain/domains/recheck.ts';
import type { ResolveTxt } from '../../src/domain/domains/verification.ts';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';
import { quickEmailConfig } from '../support/email-outbox.ts';
import type { HttpClient } from '../support/http.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/mail-receivers.ts';

/**
 * Verified sender domains are re-checked with the custom domains (src/domain/domains/recheck.ts), for the return-path
 * CNAME their envelope sender (`bounces@bounces.<domain>`) depends on: found missing, the mail leaves with the From
 * address at once and the failure is audited; found again within the grace, the return path serves again; missing for
 * the 72-hour grace, the domain is no longer verified. A failed lookup is no evidence. Through a real DNS server of the
 * test (DNS_SERVERS) and a real SMTP receiver; the job runs directly, on the service's clock, which the test sets.
 */
const HOUR_MS = 3_600_000;
let app: TestApp;
let dns: TestDnsServer;
let sink: TestSmtpServer;
let now = new Date();
let other: BootstrapResult;

beforeAll(async () => {
  dns = await startDnsServer();
  sink = await startSmtpServer({});
  app = await startTestApp({ email: quickEmailConfig({ allowPrivateHosts: true, dnsServers: [dns.address] }) }, { clock: () => now });
  expect((await app.http.patch(`/applications/${app.root.applicationId}`, { tenancyConfig: { emailProviderScope: 'tenant' } })).status).toBe(200);
  other = await app.bootstrapAnother();
});
afterAll(async () => {
  await app?.close();
  await sink?.close();
  await dns?.close();
});

const later = (hours: number) => {
  now = new Date(now.getTime() + hours * HOUR_MS);
};
const noTxt: ResolveTxt = () => Promise.resolve([]);
// Through DNS_SERVERS (the default), as the job looks up: the test's server.
const recheck = () => recheckDomains(app.gatehouse.services, () => now, noTxt);

interface Sender {
  client: HttpClient;
  /** The API path of its scope ('' for an application's own). */
  path: string;
  domain: string;
  id: string;
}

/** A verified sender domain `domain` of `client`'s scope at `path`, whose records the test's DNS publishes. */
async function verifiedSender(client: HttpClient, path: string, domain: string): Promise<Sender> {
  const put = await client.put(`${path}/email/provider`, { type: 'smtp', fromAddress: `hello@${domain}`, smtp: { host: 'localhost', port: sink.port, security: 'none' } });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  const records = (await client.get(`${path}/email/sender-domain`)).body.records as { type: string; name: string; value: string }[];
  for (const record of records) {
    const existing = dns.zone.get(record.name) ?? {};
    dns.zone.set(record.name, record.type === 'CNAME' ? { ...existing, cname: record.value } : { ...existing, txt: [...(existing.txt ?? []), record.value] });
  }
  const verified = await client.post(`${path}/email/sender-domain/verify`, {});
  expect(verified.body).toMatchObject({ status: 'verified', failingSince: null });
  const [row] = await app.sql<{ id: string }>(`select id from email_sender_domain where domain = ?`, [domain]);
  return { client, path, domain, id: row!.id };
}

const stateOf = async (sender: Sender) => (await sender.client.get(`${sender.path}/email/sender-domain`)).body as Record<string, any>;
const returnPath = (state: Record<string, any>) => (state['records'] as { purpose: string; found: boolean; reason: string | null }[]).find((r) => r.purpose === 'return_path');
const actionsOn = async (sender: Sender) =>
  (await app.sql<{ action: string }>(`select action from audit_log where target_id = ? order by id`, [sender.id])).map((row) => row.action);

/** MAIL FROM of a test mail of the sender's scope, as the SMTP receiver got it. */
async function envelopeSender(sender: Sender): Promise<string> {
  const queued = await sender.client.post(`${sender.path}/email/test`, { to: 'ada@example.com' });
  expect(queued.status).toBe(201);
  for (;;) {
    const delivery = await sender.client.get(`${sender.path}/email/deliveries/${queued.body.id as string}`);
    if (delivery.body.status !== 'queued') {
      expect(delivery.body).toMatchObject({ status: 'sent', lastError: null });
      return sink.received.find((mail) => mail.header('message-id') === delivery.body.messageId)!.from;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the sender domain re-check', () => {
  it('falls back to the From address as soon as the return path is missing, restores it when found again, and un-verifies the domain after the grace', async () => {
    const tenantId = await app.createTenant('Rechecked sender');
    const theirs = await app.createTenant('Other tenant');
    const sender = await verifiedSender(app.http, `/applications/${app.root.applicationId}/tenants/${tenantId}`, 'recheck-a.test');
    const tenants = await verifiedSender(app.http, `/applications/${app.root.applicationId}/tenants/${theirs}`, 'recheck-b.test');
    const applications = await verifiedSender(app.as({ apiKey: other.apiKey }), '', 'recheck-c.test');
    const bystanders = [tenants, applications];
    expect(await envelopeSender(sender)).toBe('bounces@bounces.recheck-a.test');

    // Checked at its verification: not due for a day.
    expect(await recheck()).toEqual({ found: 0, failing: 0, unverified: 0, inconclusive: 0 });

    // A lookup that fails (SERVFAIL) is no evidence: nothing changes, and it is tried again an hour later, not sooner.
    later(25);
    const published = dns.zone.get('bounces.recheck-a.test')!;
    dns.zone.set('bounces.recheck-a.test', { rcode: 2 });
    expect(await recheck()).toEqual({ found: 2, failing: 0, unverified: 0, inconclusive: 1 });
    expect(await stateOf(sender)).toMatchObject({ status: 'verified', failingSince: null });
    expect(await recheck()).toEqual({ found: 0, failing: 0, unverified: 0, inconclusive: 0 });
    expect(await envelopeSender(sender)).toBe('bounces@bounces.recheck-a.test');

    // The CNAME removed: failing from now, audited once, and the mail leaves with the From address at once.
    later(2);
    dns.zone.delete('bounces.recheck-a.test');
    expect(await recheck()).toEqual({ found: 0, failing: 1, unverified: 0, inconclusive: 0 });
    const failing = await stateOf(sender);
    expect(failing).toMatchObject({ status: 'unverified', verifiedAt: null, checkedAt: now.toISOString(), failingSince: now.toISOString() });
    expect(returnPath(failing)).toMatchObject({ found: false, reason: 'No CNAME record at bounces.recheck-a.test' });
    expect(await envelopeSender(sender)).toBe('hello@recheck-a.test');
    expect(await actionsOn(sender)).toEqual(['email_sender_domain.created', 'email_sender_domain.verified', 'email_sender_domain.check_failed']);

    // Found again within the grace: the return path serves again, the failure ends.
    later(25);
    dns.zone.set('bounces.recheck-a.test', published);
    expect(await recheck()).toMatchObject({ found: 3, failing: 0, unverified: 0 });
    expect(await stateOf(sender)).toMatchObject({ status: 'verified', failingSince: null });
    expect(await envelopeSender(sender)).toBe('bounces@bounces.recheck-a.test');

    // Missing again: a new failure, and past the grace the domain is no longer verified (audited), re-checked no more.
    later(25);
    dns.zone.delete('bounces.recheck-a.test');
    expect(await recheck()).toMatchObject({ failing: 1, unverified: 0 });
    const failedAt = (await stateOf(sender))['failingSince'] as string;
    later(25);
    expect(await recheck()).toMatchObject({ failing: 1, unverified: 0 });
    later(25);
    expect(await recheck()).toMatchObject({ failing: 1, unverified: 0 });
    later(25);
    expect(await recheck()).toMatchObject({ failing: 0, unverified: 1 });
    expect(now.getTime() - Date.parse(failedAt)).toBeGreaterThanOrEqual(RECHECK_GRACE_MS);
    const [row] = await app.sql<{ verified: boolean; failing: boolean }>(
      `select verified_at is not null as verified, failing_since = ? as failing from email_sender_domain where id = ?`,
      [new Date(failedAt), sender.id],
    );
    expect(row).toEqual({ verified: false, failing: true });
    expect(await stateOf(sender)).toMatchObject({ status: 'unverified', verifiedAt: null, failingSince: failedAt });
    const [unverified] = await app.sql<{ after: Record<string, unknown>; actor_id: string; tenant_id: string }>(
      `select after, actor_id, tenant_id from audit_log where target_id = ? and action = 'email_sender_domain.unverified'`,
      [sender.id],
    );
    expect(unverified).toMatchObject({ actor_id: 'sender-domain-recheck', tenant_id: tenantId, after: { verifiedAt: null, failingSince: failedAt, reason: 'No CNAME record at bounces.recheck-a.test' } });
    expect(await envelopeSender(sender)).toBe('hello@recheck-a.test');
    dns.zone.set('bounces.recheck-a.test', published);
    later(25);
    expect((await recheck()).found).toBe(2);
    expect(await stateOf(sender)).toMatchObject({ status: 'unverified' });

    // Its owner verifies it again: verified, the failure cleared, the return path serving.
    expect((await app.http.post(`${sender.path}/email/sender-domain/verify`, {})).body).toMatchObject({ status: 'verified', failingSince: null });
    expect(await envelopeSender(sender)).toBe('bounces@bounces.recheck-a.test');

    // The other tenant's and the other application's domains were found at each of their checks, and nothing else.
    for (const bystander of bystanders) {
      expect(await stateOf(bystander)).toMatchObject({ status: 'verified', failingSince: null, checkedAt: now.toISOString() });
      expect(await actionsOn(bystander)).toEqual(['email_sender_domain.created', 'email_sender_domain.verified']);
      expect(await envelopeSender(bystander)).toBe(`bounces@bounces.${bystander.domain}`);
    }
  });

  it('checks a failing domain again at its owner’s verify: still missing, it is unverified at once', async () => {
    const tenantId = await app.createTenant('Verified again');
    const sender = await verifiedSender(app.http, `/applications/${app.root.applicationId}/tenants/${tenantId}`, 'recheck-d.test');
    later(25);
    dns.zone.delete('bounces.recheck-d.test');
    await recheck();
    expect(await stateOf(sender)).toMatchObject({ failingSince: now.toISOString() });
    const checked = await app.http.post(`${sender.path}/email/sender-domain/verify`, {});
    expect(checked.body).toMatchObject({ status: 'unverified', verifiedAt: null, failingSince: null });
    expect(returnPath(checked.body)).toMatchObject({ found: false, reason: 'No CNAME record at bounces.recheck-d.test' });
    // No longer verified: the job leaves it alone.
    later(25);
    expect(await recheck()).toMatchObject({ failing: 0, unverified: 0 });
    expect(await actionsOn(sender)).toEqual(['email_sender_domain.created', 'email_sender_domain.verified', 'email_sender_domain.check_failed', 'email_sender_domain.verified']);
  });
});
