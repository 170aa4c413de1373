import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { auditRecordsOf, traced } from '../support/audit.ts';
import { accountPageUrl, askEmailChange, openAccountPage } from '../support/account-page.ts';
import { CookieJar, type Visit } from '../support/cookie-jar.ts';
import { mails } from '../support/email-sign-in.ts';
import { settledDelivery, outboxStoppedDuring } from '../support/email-outbox.ts';
import { startHostedTestApp, type HostedTestApp } from '../support/hosted-app.ts';
import { startMailSink, type MailSink } from '../support/mail-receivers.ts';
import { createPasswordUser } from '../support/users.ts';
import { SHARED_POOL } from '../../src/db/entities/user.entity.ts';
import { issueEmailChangeLink } from '../../src/domain/users/link-tokens.ts';
import { askedForLock } from '../../src/domain/email/flow-mail.ts';
import { suspendedInTurn } from '../support/suspend-trigger.ts';

/**
 * A user's mail still queued (never tried, or waiting for a retry) when the user is suspended or deleted, or to their
 * old address when it changes, carries a link that no longer works, or reaches a mailbox no longer the account's: it is
 * withdrawn in that transaction (`failed`, its `lastError` saying why), never sent, as an invitation's revoke withdraws
 * its mail. Other users' mail goes out, and so does the notice of the change to the old address.
 */
let hosted: HostedTestApp;
let app: TestApp;
let sink: MailSink;

beforeAll(async () => {
  sink = await startMailSink();
  hosted = await startHostedTestApp({ email: { ...sink.email, allowPrivateHosts: true, sendTimeoutMs: 1_500, retryBaseMs: 50 } });
  ({ app } = hosted);
});
afterAll(async () => {
  await hosted?.close();
  await sink?.close();
});

const withOutboxStopped = <T>(work: () => Promise<T>): Promise<T> => outboxStoppedDuring(app, work);

/** "Forgot your password?" on the hosted sign-in page, for `email`: a `password_reset` mail is queued to its account. */
async function askReset(email: string): Promise<void> {
  const { jar, page } = await hosted.signInPage();
  const href = /<a href="([^"]+)">Forgot your password\?<\/a>/.exec(page.body)?.[1];
  expect(href, page.body).toBeDefined();
  const form: Visit = await jar.visit(new URL(href!.replaceAll('&amp;', '&'), page.url).href);
  expect(form.status).toBe(200);
  expect((await jar.submit(form, { email })).status).toBe(200);
}

/** An address change's link, issued as the account page issues it (not mailed), and confirmed on its page. */
async function confirmChange(userId: string, newEmail: string): Promise<void> {
  const services = app.gatehouse.services;
  const user = { applicationId: app.root.applicationId, userId, poolId: SHARED_POOL, opener: { type: 'oauth_client' as const, id: hosted.client.clientId }, tenantId: null };
  const { link } = await services.orm.em.fork().transactional((em) => issueEmailChangeLink(em, user, newEmail, services.config.publicUrl));
  const jar = new CookieJar();
  const confirm = await jar.visit(link);
  expect(confirm.status).toBe(200);
  expect((await jar.submit(confirm, {})).status).toBe(200);
}

async function queuedReset(email: string): Promise<string> {
  const [mail] = await mails(app.http, email, 'password_reset');
  expect(mail, email).toBeDefined();
  expect((await app.http.get(`/email/deliveries/${mail!.id}`)).body.status).toBe('queued');
  return mail!.id;
}

describe('a user’s queued mail', () => {
  it('is withdrawn when the user is suspended: never sent, and says why; another user’s goes out', async () => {
    const [leaving, staying] = [`suspended-${randomUUID()}@example.com`, `staying-${randomUUID()}@example.com`];
    const userId = await createPasswordUser(app.http, leaving);
    await createPasswordUser(app.http, staying);
    const suspension = traced();
    const [withdrawn, kept] = await withOutboxStopped(async () => {
      await askReset(leaving);
      await askReset(staying);
      const ids = [await queuedReset(leaving), await queuedReset(staying)] as const;
      expect((await app.http.post(`/users/${userId}/suspend`, undefined, { headers: suspension.headers })).status).toBe(200);
      return ids;
    });
    // Withdrawn in the suspension's transaction, before any worker could take it.
    const now = (await app.http.get(`/email/deliveries/${withdrawn}`)).body;
    expect(now).toMatchObject({ status: 'failed', attempts: 0, sentAt: null });
    expect(now.lastError).toMatch(/^withdrawn: the account was suspended/);
    expect(await settledDelivery(app.http, `/email/deliveries/${kept}`)).toMatchObject({ status: 'sent', lastError: null });
    expect(sink.to(leaving)).toHaveLength(0);
    expect((await app.http.get(`/email/deliveries/${withdrawn}`)).body).toMatchObject({ status: 'failed', attempts: 0, sentAt: null });
    const records = (await auditRecordsOf(app, suspension.requestId)).filter((record) => record.targetId === withdrawn);
    expect(records.map((record) => [record.action, record.actorType])).toEqual([['email_delivery.withdrawn', 'api_key']]);

    // The activation gives back the account, not the mail: its link stays ended.
    expect((await app.http.post(`/users/${userId}/activate`)).body.status).toBe('active');
    expect((await app.http.get(`/email/deliveries/${withdrawn}`)).body.status).toBe('failed');
  });

  it('is withdrawn when the user is deleted: only the notice of the deletion goes out', async () => {
    const email = `deleted-${randomUUID()}@example.com`;
    const userId = await createPasswordUser(app.http, email);
    const withdrawn = await withOutboxStopped(async () => {
      await askReset(email);
      const id = await queuedReset(email);
      expect((await app.http.delete(`/users/${userId}`)).status).toBe(204);
      return id;
    });
    const now = (await app.http.get(`/email/deliveries/${withdrawn}`)).body;
    expect(now).toMatchObject({ status: 'failed', attempts: 0, sentAt: null });
    expect(now.lastError).toMatch(/^withdrawn: the account was deleted/);
    const [notice] = await mails(app.http, email, 'account_deleted');
    expect(await settledDelivery(app.http, `/email/deliveries/${notice!.id}`)).toMatchObject({ status: 'sent' });
    expect(sink.to(email)).toHaveLength(1);
  });

  it('is never queued for a user suspended once the forgot-password page read them active: the request sees the suspension', async () => {
    const email = `raced-${randomUUID()}@example.com`;
    const userId = await createPasswordUser(app.http, email);
    // The suspension commits while the request, having read the user, waits for its turn at the address.
    await suspendedInTurn(app, userId, askedForLock(app.root.applicationId, email), () => askReset(email));
    expect(await mails(app.http, email, 'password_reset')).toEqual([]);
    expect(await app.sql(`select 1 from email_link_token where user_id = ?`, [userId])).toEqual([]);
  });

  it('a refused suspension withdraws nothing', async () => {
    const email = `kept-${randomUUID()}@example.com`;
    const userId = await createPasswordUser(app.http, email);
    const narrow = await app.http.post('/api-keys', { name: 'reader', permissions: ['users:read'] });
    expect(narrow.status).toBe(201);
    const queued = await withOutboxStopped(async () => {
      await askReset(email);
      const id = await queuedReset(email);
      expect((await app.as({ apiKey: narrow.body.secret as string }).post(`/users/${userId}/suspend`)).status).toBe(403);
      return id;
    });
    expect(await settledDelivery(app.http, `/email/deliveries/${queued}`)).toMatchObject({ status: 'sent', lastError: null });
    expect(sink.to(email)).toHaveLength(1);
  });

  /** A queued reset to `email`'s old address is withdrawn by `change`; another user's goes out. Answers the withdrawn mail. */
  async function withdrawnByChange(email: string, change: (userId: string) => Promise<void>) {
    const userId = await createPasswordUser(app.http, email);
    const staying = `staying-${randomUUID()}@example.com`;
    await createPasswordUser(app.http, staying);
    const [withdrawn, kept] = await withOutboxStopped(async () => {
      await askReset(email);
      await askReset(staying);
      const ids = [await queuedReset(email), await queuedReset(staying)] as const;
      await change(userId);
      return ids;
    });
    const now = (await app.http.get(`/email/deliveries/${withdrawn}`)).body;
    expect(now).toMatchObject({ status: 'failed', attempts: 0, sentAt: null });
    expect(now.lastError).toMatch(/^withdrawn: the account’s address changed before this mail was sent/);
    expect(await settledDelivery(app.http, `/email/deliveries/${kept}`)).toMatchObject({ status: 'sent', lastError: null });
    expect((await app.http.get(`/email/deliveries/${withdrawn}`)).body).toMatchObject({ status: 'failed', attempts: 0, sentAt: null });
    // The notice of the change, queued after, is for the old address: it goes out.
    const [notice, ...more] = await mails(app.http, email, 'email_change');
    expect(more).toEqual([]);
    expect(await settledDelivery(app.http, `/email/deliveries/${notice!.id}`)).toMatchObject({ status: 'sent', lastError: null });
    expect(sink.to(email)).toHaveLength(1);
    return { userId, withdrawn };
  }

  it('to the old address is withdrawn when an administrator changes the address; its mails are the old mailbox’s no more', async () => {
    const email = `admin-changed-${randomUUID()}@example.com`;
    const change = traced();
    const { withdrawn } = await withdrawnByChange(email, async (userId) => {
      expect((await app.http.patch(`/users/${userId}`, { email: `moved-${email}` }, { headers: change.headers })).status).toBe(200);
    });
    const records = (await auditRecordsOf(app, change.requestId)).filter((record) => record.targetId === withdrawn);
    expect(records.map((record) => [record.action, record.actorType])).toEqual([['email_delivery.withdrawn', 'api_key']]);
  });

  it('to the old address is withdrawn when the user confirms a new address', async () => {
    const email = `own-changed-${randomUUID()}@example.com`;
    const { userId, withdrawn } = await withdrawnByChange(email, (id) => confirmChange(id, `moved-${email}`));
    const [record] = await app.sql<{ actor_type: string; actor_id: string }>(`select actor_type, actor_id from audit_log where action = 'email_delivery.withdrawn' and target_id = ?`, [withdrawn]);
    expect(record).toEqual({ actor_type: 'user', actor_id: userId });
  });

  it('a change of case alone, and a refused change, withdraw nothing', async () => {
    const email = `case-${randomUUID()}@example.com`;
    const userId = await createPasswordUser(app.http, email);
    const narrow = await app.http.post('/api-keys', { name: 'reader', permissions: ['users:read'] });
    const queued = await withOutboxStopped(async () => {
      await askReset(email);
      const id = await queuedReset(email);
      expect((await app.http.patch(`/users/${userId}`, { email: email.toUpperCase() })).status).toBe(200);
      expect((await app.as({ apiKey: narrow.body.secret as string }).patch(`/users/${userId}`, { email: `other-${email}` })).status).toBe(403);
      return id;
    });
    expect(await settledDelivery(app.http, `/email/deliveries/${queued}`)).toMatchObject({ status: 'sent', lastError: null });
  });
});

describe('a queued confirmation of a new address', () => {
  /** The account page asks for a link to `address`, mailed there (the outbox stopped: still queued); its delivery. */
  async function askedChange(jar: CookieJar, page: Visit, address: string): Promise<string> {
    expect((await askEmailChange(jar, page, address)).status).toBe(303);
    const [mail, ...more] = await mails(app.http, address, 'email_change');
    expect(more).toEqual([]);
    expect((await app.http.get(`/email/deliveries/${mail!.id}`)).body.status).toBe('queued');
    return mail!.id;
  }

  it('is withdrawn when another address is asked for: its link ended, only the newer one goes out', async () => {
    const email = `asks-twice-${randomUUID()}@example.com`;
    const userId = await createPasswordUser(app.http, email);
    const { jar, page } = await openAccountPage(accountPageUrl(hosted.issuer, hosted.client.clientId), email);
    const [first, second] = await withOutboxStopped(async () => [await askedChange(jar, page, `first-${email}`), await askedChange(jar, page, `second-${email}`)] as const);
    const now = (await app.http.get(`/email/deliveries/${first}`)).body;
    expect(now).toMatchObject({ status: 'failed', attempts: 0, sentAt: null });
    expect(now.lastError).toMatch(/^withdrawn: another change of the account’s address was asked before this mail was sent/);
    expect(await settledDelivery(app.http, `/email/deliveries/${second}`)).toMatchObject({ status: 'sent', lastError: null });
    expect(sink.to(`first-${email}`)).toHaveLength(0);
    const [record] = await app.sql<{ actor_type: string; actor_id: string }>(`select actor_type, actor_id from audit_log where action = 'email_delivery.withdrawn' and target_id = ?`, [first]);
    expect(record).toEqual({ actor_type: 'user', actor_id: userId });
  });

  it('is withdrawn when the address changes meanwhile (an administrator’s change): its link ended; the notice to the old address goes out', async () => {
    const email = `admin-moves-${randomUUID()}@example.com`;
    const userId = await createPasswordUser(app.http, email);
    const { jar, page } = await openAccountPage(accountPageUrl(hosted.issuer, hosted.client.clientId), email);
    const change = traced();
    const asked = await withOutboxStopped(async () => {
      const id = await askedChange(jar, page, `asked-${email}`);
      expect((await app.http.patch(`/users/${userId}`, { email: `set-${email}` }, { headers: change.headers })).status).toBe(200);
      return id;
    });
    const now = (await app.http.get(`/email/deliveries/${asked}`)).body;
    expect(now).toMatchObject({ status: 'failed', attempts: 0, sentAt: null });
    expect(now.lastError).toMatch(/^withdrawn: the account’s address changed before this mail was sent; the link it carries/);
    const records = (await auditRecordsOf(app, change.requestId)).filter((record) => record.targetId === asked);
    expect(records.map((record) => [record.action, record.actorType])).toEqual([['email_delivery.withdrawn', 'api_key']]);
    const [notice] = await mails(app.http, email, 'email_change');
    expect(await settledDelivery(app.http, `/email/deliveries/${notice!.id}`)).toMatchObject({ status: 'sent', lastError: null });
    expect(sink.to(`asked-${email}`)).toHaveLength(0);
  });

  it('a refused request for another address withdraws nothing', async () => {
    const email = `kept-asked-${randomUUID()}@example.com`;
    await createPasswordUser(app.http, email);
    const { jar, page } = await openAccountPage(accountPageUrl(hosted.issuer, hosted.client.clientId), email);
    const asked = await withOutboxStopped(async () => {
      const id = await askedChange(jar, page, `kept-${email}`);
      expect((await askEmailChange(jar, page, `other-${email}`, 'Not-The-Password-1')).status).toBe(400);
      return id;
    });
    expect(await settledDelivery(app.http, `/email/deliveries/${asked}`)).toMatchObject({ status: 'sent', lastError: null });
  });
});

describe('a queued mail whose link or code expired before it left', () => {
  it('is withdrawn as the outbox takes it, after a stop or between retries: never sent, failed by the system; one still valid goes out', async () => {
    const [held, retried, valid] = [`held-${randomUUID()}@example.com`, `retried-${randomUUID()}@example.com`, `valid-${randomUUID()}@example.com`];
    for (const email of [held, retried, valid]) await createPasswordUser(app.http, email);
    const ids = await withOutboxStopped(async () => {
      for (const email of [held, retried, valid]) await askReset(email);
      const queued = [await queuedReset(held), await queuedReset(retried), await queuedReset(valid)] as const;
      // Their half hour passes: the links' rows and the mails' say so.
      for (const id of queued.slice(0, 2)) {
        await app.sql(`update email_delivery set link_expires_at = now() - interval '1 second' where id = ?`, [id]);
      }
      await app.sql(`update email_link_token set expires_at = now() - interval '1 second' where purpose = 'password_reset' and user_id in
                       (select id from app_user where email in (?, ?))`, [held, retried]);
      // One waited for a retry once its provider failed; its wait is over.
      await app.sql(`update email_delivery set attempts = 2, last_error = 'smtp: 421 try again later', next_attempt_at = now() where id = ?`, [queued[1]]);
      return queued;
    });
    for (const [id, attempts] of [[ids[0], 1], [ids[1], 3]] as const) {
      const settled = await settledDelivery(app.http, `/email/deliveries/${id}`);
      expect(settled).toMatchObject({ status: 'failed', attempts, sentAt: null });
      expect(settled.lastError).toBe('withdrawn: the link or code it carries expired before this mail was sent; it no longer works');
      const records = await app.sql<{ action: string; actor_type: string; outcome: string }>('select action, actor_type, outcome from audit_log where target_id = ? order by seq', [id]);
      expect(records.map((record) => [record.action, record.actor_type, record.outcome])).toEqual([
        ['email_delivery.queued', 'oauth_client', 'success'],
        ['email_delivery.failed', 'system', 'failure'],
      ]);
    }
    expect(await settledDelivery(app.http, `/email/deliveries/${ids[2]}`)).toMatchObject({ status: 'sent', lastError: null });
    expect(sink.to(held)).toHaveLength(0);
    expect(sink.to(retried)).toHaveLength(0);
    expect(sink.to(valid)).toHaveLength(1);
  });
});
