import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { auditRecordsOf, traced } from '../support/audit.ts';
import { settledDelivery, outboxStoppedDuring } from '../support/email-outbox.ts';
import { decodedMail, startMailSink, startSmtpServer, type MailSink } from '../support/mail-receivers.ts';

/**
 * An invitation's mail still queued when the invitation is revoked or resent carries a link that no longer works: it
 * is withdrawn in that transaction (`failed`, its `lastError` saying why), never sent nor retried; one whose invitation
 * expired before it was sent is withdrawn as the outbox takes it. What was sent, and
 * other invitations' mail, are left alone.
 */
let app: TestApp;
let sink: MailSink;
let inA: string;
let inB: string;

beforeAll(async () => {
  sink = await startMailSink();
  // Private hosts: an application's provider at a held SMTP server; short attempts, quick retries.
  let appPath: string;
  let tenants: [string, string];
  ({ app, appPath, tenants } = await startTestAppWithTenants(['Acme', 'Globex'], { email: { ...sink.email, allowPrivateHosts: true, sendTimeoutMs: 1_500, retryBaseMs: 50 } }));
  inA = `${appPath}/tenants/${tenants[0]}`;
  inB = `${appPath}/tenants/${tenants[1]}`;
});
afterAll(async () => {
  await app?.close();
  await sink?.close();
});

const withOutboxStopped = <T>(work: () => Promise<T>): Promise<T> => outboxStoppedDuring(app, work);

async function invite(path: string, email: string): Promise<string> {
  const sent = await app.http.post(`${path}/invitations`, { email });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  return sent.body.id as string;
}

/** The invitation mails to `to`, oldest first. */
async function invitationMails(to: string): Promise<Record<string, any>[]> {
  const list = await app.http.get(`/email/deliveries?templateKey=invitation&to=${encodeURIComponent(to)}`);
  expect(list.status).toBe(200);
  return list.body.data as Record<string, any>[];
}

/** The token hash of the link a received mail carries. */
function mailedTokenHash(raw: string): string {
  const token = /\/invitation\?token=([\w-]+)/.exec(decodedMail(raw))?.[1];
  expect(token).toBeDefined();
  return createHash('sha256').update(token!, 'utf8').digest('hex');
}

const tokenHashOf = async (invitationId: string) => (await app.sql<{ token_hash: string }>('select token_hash from invitation where id = ?', [invitationId]))[0]!.token_hash;

describe('an invitation’s queued mail', () => {
  it('is withdrawn when the invitation is revoked: never sent, and says why; another invitation’s queued mail (the same address’s to another tenant) goes out', async () => {
    const email = `revoked-${randomUUID()}@example.com`;
    const revoke = traced();
    const [withdrawn, kept] = await withOutboxStopped(async () => {
      const revoked = await invite(inA, email);
      await invite(inB, email);
      const [first, second] = await invitationMails(email);
      expect([first!.status, second!.status]).toEqual(['queued', 'queued']);
      expect((await app.http.delete(`${inA}/invitations/${revoked}`, { headers: revoke.headers })).status).toBe(204);
      return [first!, second!];
    });
    // Withdrawn in the revoke's transaction, before any worker could take it.
    const now = (await app.http.get(`/email/deliveries/${withdrawn.id as string}`)).body;
    expect(now).toMatchObject({ status: 'failed', attempts: 0, sentAt: null });
    expect(now.lastError).toMatch(/^withdrawn: the invitation was revoked/);
    expect(await settledDelivery(app.http, `/email/deliveries/${kept.id as string}`)).toMatchObject({ status: 'sent', lastError: null });
    expect(sink.to(email)).toHaveLength(1);
    expect((await app.http.get(`/email/deliveries/${withdrawn.id as string}`)).body).toMatchObject({ status: 'failed', attempts: 0, sentAt: null });
    // Listed among the failed, and recorded by the revoke's request, as its actor's.
    const failed = (await app.http.get(`/email/deliveries?status=failed&templateKey=invitation&to=${encodeURIComponent(email)}`)).body.data;
    expect(failed.map((delivery: { id: string }) => delivery.id)).toEqual([withdrawn.id]);
    const records = (await auditRecordsOf(app, revoke.requestId)).filter((record) => record.targetId === withdrawn.id);
    expect(records.map((record) => [record.action, record.actorType, record.outcome])).toEqual([['email_delivery.withdrawn', 'api_key', 'success']]);
    expect(records[0]!.after).toMatchObject({ status: 'failed', lastError: now.lastError });
    expect(await app.sql('select 1 from audit_log where target_id = ? and action = ?', [withdrawn.id, 'email_delivery.sent'])).toHaveLength(0);
  });

  it('is withdrawn as it is claimed once the invitation has expired (an outbox stopped that long): never sent, recorded as failed by the system', async () => {
    const email = `expired-${randomUUID()}@example.com`;
    const live = `live-${randomUUID()}@example.com`;
    const [mail, kept] = await withOutboxStopped(async () => {
      const invitationId = await invite(inA, email);
      await invite(inA, live);
      await app.sql(`update invitation set expires_at = now() - interval '1 minute' where id = ?`, [invitationId]);
      return [(await invitationMails(email))[0]!, (await invitationMails(live))[0]!];
    });
    const settled = await settledDelivery(app.http, `/email/deliveries/${mail.id as string}`);
    expect(settled).toMatchObject({ status: 'failed', sentAt: null });
    expect(settled.lastError).toMatch(/^withdrawn: the link or code it carries expired/);
    expect(await settledDelivery(app.http, `/email/deliveries/${kept.id as string}`)).toMatchObject({ status: 'sent' });
    expect(sink.to(email)).toHaveLength(0);
    const records = await app.sql<{ action: string; actor_type: string }>('select action, actor_type from audit_log where target_id = ? order by seq', [mail.id]);
    expect(records.map((record) => [record.action, record.actor_type])).toEqual([
      ['email_delivery.queued', 'api_key'],
      ['email_delivery.failed', 'system'],
    ]);
  });

  it('is withdrawn when the invitation is resent: only the new mail, with the new link, goes out', async () => {
    const email = `resent-${randomUUID()}@example.com`;
    const invitationId = await withOutboxStopped(async () => {
      const id = await invite(inA, email);
      expect((await app.http.post(`${inA}/invitations/${id}/resend`)).status).toBe(200);
      return id;
    });
    const [old, renewed] = await invitationMails(email);
    expect(old!.status).toBe('failed');
    expect(old!.lastError).toMatch(/^withdrawn: the invitation was resent/);
    expect(await settledDelivery(app.http, `/email/deliveries/${renewed!.id as string}`)).toMatchObject({ status: 'sent' });
    expect((await app.http.get(`/email/deliveries/${old!.id as string}`)).body).toMatchObject({ status: 'failed', attempts: 0, sentAt: null });
    const received = sink.to(email);
    expect(received).toHaveLength(1);
    expect(mailedTokenHash(received[0]!.raw)).toBe(await tokenHashOf(invitationId));
  });

  it('already sent is left as it is by a resend and a revoke', async () => {
    const email = `sent-${randomUUID()}@example.com`;
    const invitationId = await invite(inA, email);
    const [first] = await invitationMails(email);
    expect(await settledDelivery(app.http, `/email/deliveries/${first!.id as string}`)).toMatchObject({ status: 'sent' });
    expect((await app.http.post(`${inA}/invitations/${invitationId}/resend`)).status).toBe(200);
    const [, second] = await invitationMails(email);
    expect(await settledDelivery(app.http, `/email/deliveries/${second!.id as string}`)).toMatchObject({ status: 'sent' });
    expect((await app.http.delete(`${inA}/invitations/${invitationId}`)).status).toBe(204);
    const after = await invitationMails(email);
    expect(after.map((delivery) => [delivery.status, delivery.lastError])).toEqual([['sent', null], ['sent', null]]);
    expect(sink.to(email)).toHaveLength(2);
  });

  it('under a lease whose instance died is not sent when the lease runs out: the worker fails it with the withdrawal’s reason', async () => {
    const email = `leased-${randomUUID()}@example.com`;
    const { delivery } = await withOutboxStopped(async () => {
      const id = await invite(inA, email);
      const [queued] = await invitationMails(email);
      // Another instance's lease, as a claim sets it.
      await app.sql(`update email_delivery set claimed_until = now() + interval '1 hour', attempts = 1 where id = ?`, [queued!.id]);
      expect((await app.http.delete(`${inA}/invitations/${id}`)).status).toBe(204);
      // Its attempt may be under way: its outcome is that attempt's to write.
      expect((await app.http.get(`/email/deliveries/${queued!.id as string}`)).body).toMatchObject({ status: 'queued', lastError: null });
      // That instance died: its lease runs out.
      await app.sql(`update email_delivery set claimed_until = now() - interval '1 second' where id = ?`, [queued!.id]);
      return { delivery: queued! };
    });
    const settled = await settledDelivery(app.http, `/email/deliveries/${delivery.id as string}`);
    expect(settled).toMatchObject({ status: 'failed', sentAt: null });
    expect(settled.lastError).toMatch(/^withdrawn: the invitation was revoked/);
    expect(sink.to(email)).toHaveLength(0);
  });

  it('whose attempt is under way as the invitation is revoked: that attempt’s failure is final, never retried', async () => {
    let holding = true;
    const held = await startSmtpServer({ hold: () => holding });
    try {
      const created = await app.http.post('/applications', { name: 'Held invitations', multiTenant: true });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const admin = app.as({ apiKey: created.body.initialApiKey.secret });
      const appPath = `/applications/${created.body.id as string}`;
      const tenant = await admin.post(`${appPath}/tenants`, { name: 'Held tenant' });
      expect(tenant.status).toBe(201);
      const provider = { type: 'smtp', fromAddress: 'invites@held.example.com', smtp: { host: '127.0.0.1', port: held.port, username: null, security: 'none' } };
      expect((await admin.put('/email/provider', provider)).status).toBe(200);
      const email = `midsend-${randomUUID()}@example.com`;
      const sent = await admin.post(`${appPath}/tenants/${tenant.body.id as string}/invitations`, { email });
      expect(sent.status).toBe(201);
      // Its data at the server, unanswered: the attempt is under way as the invitation is revoked.
      while (held.holding() === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await admin.delete(`${appPath}/tenants/${tenant.body.id as string}/invitations/${sent.body.id as string}`)).status).toBe(204);
      holding = false;
      const [delivery] = (await admin.get(`/email/deliveries?templateKey=invitation&to=${encodeURIComponent(email)}`)).body.data;
      // The held attempt ends at its deadline, a failure that would be retried: withdrawn, it is final.
      const settled = await settledDelivery(admin, `/email/deliveries/${delivery.id as string}`);
      expect(settled).toMatchObject({ status: 'failed', attempts: 1, sentAt: null });
      expect(settled.lastError).toMatch(/^withdrawn: the invitation was revoked/);
      expect(held.received.filter((mail) => mail.to.includes(email))).toHaveLength(0);
    } finally {
      await held.close();
    }
  });
});
