import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockedTransaction } from '../../src/db/advisory-lock.ts';
import { askedForLock, AskedForMail, emailChangedMail, FLOW_MAIL, isAskedFor, magicLinkMail, type MailContext, type Recipient } from '../../src/domain/email/flow-mail.ts';
import { DEFERRED_MAIL_BATCH } from '../../src/domain/email/deferred-mail.ts';
import type { OutboxWorker } from '../../src/domain/email/deliver.ts';
import { DEFAULT_TEMPLATES, TEMPLATE_KEYS, type TemplateKey } from '../../src/domain/email/template-defaults.ts';
import { newId } from '../../src/ids.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { auditRecordsOf, traced } from '../support/audit.ts';
import { settledDelivery } from '../support/email-outbox.ts';
import { startMailSink, startSmtpServer, type MailSink } from '../support/mail-receivers.ts';

/**
 * One function per template (src/domain/email/flow-mail.ts): each queues its template in the outbox rendered as the
 * preview renders it with the same variables, in the tenant's effective template and branding.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const ADA: Recipient = { id: null, email: 'ada@example.com', name: 'Ada', tenantIds: null };
const CHANGED_AT = new Date('2026-11-28T10:00:00.000Z');

const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** Each function's arguments, and the template variables they stand for (what a preview is given). */
const CASES: Record<TemplateKey, { args: object; variables: Record<string, unknown>; to?: string }> = {
  verify_email: { args: { link: 'https://x.test/v', expiresInMinutes: 1440 }, variables: { link: 'https://x.test/v', expiresInMinutes: 1440 } },
  welcome: { args: { link: 'https://x.test/w' }, variables: { link: 'https://x.test/w', existingAccount: false } },
  magic_link: { args: { link: 'https://x.test/m', expiresInMinutes: 15 }, variables: { link: 'https://x.test/m', expiresInMinutes: 15 } },
  password_reset: { args: { link: 'https://x.test/r', expiresInMinutes: 30 }, variables: { link: 'https://x.test/r', expiresInMinutes: 30 } },
  password_changed: { args: { link: 'https://x.test/c', changedAt: CHANGED_AT }, variables: { link: 'https://x.test/c', changedAt: '2026-11-28T10:00:00Z' } },
  email_otp: { args: { code: '123456', expiresInMinutes: 10 }, variables: { code: '123456', expiresInMinutes: 10, addsPasskey: false } },
  mfa_enrolled: { args: { link: 'https://x.test/s', factor: 'webauthn' }, variables: { link: 'https://x.test/s', factor: 'Passkey or security key', clonedPasskey: null } },
  invitation: {
    args: { link: 'https://x.test/i', inviter: { name: 'Grace', email: 'grace@example.com' }, expiresInDays: 7 },
    variables: { link: 'https://x.test/i', inviter: { name: 'Grace', email: 'grace@example.com' }, expiresInDays: 7 },
  },
  new_sign_in: {
    args: { link: 'https://x.test/n', signIn: { time: CHANGED_AT, userAgent: FIREFOX_ON_LINUX, ip: '203.0.113.9' } },
    variables: { link: 'https://x.test/n', signIn: { time: '2026-11-28T10:00:00Z', device: 'Firefox on Linux', location: 'an unknown location', ip: '203.0.113.9' } },
  },
  account_locked: { args: { link: 'https://x.test/l' }, variables: { link: 'https://x.test/l' } },
  email_change: {
    args: { link: 'https://x.test/e', newEmail: 'ada.new@example.com', expiresInMinutes: 60 },
    variables: { link: 'https://x.test/e', newEmail: 'ada.new@example.com', expiresInMinutes: 60 },
    to: 'ada.new@example.com',
  },
  account_deleted: { args: {}, variables: {} },
};

async function queue(key: TemplateKey, tenantId: string | null, to = ADA, args = CASES[key].args): Promise<string> {
  const sender = { applicationId: app.root.applicationId, tenantId, requestId: crypto.randomUUID(), principal: { actor: { type: 'system', id: 'flow-test' } }, services: app.gatehouse.services };
  const send = FLOW_MAIL[key] as (on: MailContext | AskedForMail, to: Recipient, v: object) => Promise<{ id: string }>;
  // In the turn of the address it goes to, as every caller of an asked-for mail begins its transaction.
  const address = (args as { newEmail?: string }).newEmail ?? to.email;
  const delivery = await lockedTransaction(app.gatehouse.services.orm.em.fork(), askedForLock(sender.applicationId, address), async (em) => {
    const at = { em, sender, tenantId };
    return send(isAskedFor(key) ? (await AskedForMail.admit(at, address))! : at, to, args);
  });
  return delivery.id;
}

describe('flow mail', () => {
  it('every template has its function, and each queues what the preview shows, in the application’s branding', async () => {
    expect(Object.keys(FLOW_MAIL).sort()).toEqual([...TEMPLATE_KEYS].sort());
    expect((await app.http.put('/branding', { colors: { primary: '#0a7d33', background: '#fafaf0' } })).status).toBe(200);
    for (const key of TEMPLATE_KEYS) {
      const id = await queue(key, null);
      const delivery = (await app.http.get(`/email/deliveries/${id}`)).body;
      const preview = await app.http.post(`/email/templates/${key}/preview`, { variables: { user: { name: ADA.name, email: ADA.email }, ...CASES[key].variables } });
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      expect(delivery, key).toMatchObject({ templateKey: key, to: CASES[key].to ?? ADA.email, subject: preview.body.subject, text: preview.body.text, html: preview.body.html });
      expect(delivery.html, key).toContain('background:#fafaf0');
    }
  });

  it('a mail that is its link or code keeps when that expires; a notice, and an invitation (its row decides), keep none', async () => {
    const LINKED: Partial<Record<TemplateKey, number>> = { verify_email: 1440, magic_link: 15, password_reset: 30, email_otp: 10, email_change: 60 };
    for (const key of TEMPLATE_KEYS) {
      const id = await queue(key, null);
      const [row] = await app.sql<{ in_minutes: number | null }>(
        'select extract(epoch from link_expires_at - created_at) / 60 as in_minutes from email_delivery where id = ?',
        [id],
      );
      const minutes = LINKED[key];
      if (minutes === undefined) expect(row!.in_minutes, key).toBeNull();
      else expect(Number(row!.in_minutes), key).toBeCloseTo(minutes, 1);
    }
    // The notice to the address an account left tells of the change, whose news outlives its restore link.
    const sender = { applicationId: app.root.applicationId, tenantId: null, requestId: crypto.randomUUID(), principal: { actor: { type: 'system', id: 'flow-test' } }, services: app.gatehouse.services };
    const notice = await app.gatehouse.services.orm.em
      .fork()
      .transactional((em) => emailChangedMail({ em, sender, tenantId: null }, ADA, { newEmail: 'ada.new@example.com', restore: { link: 'https://x.test/restore', expiresInMinutes: 72 * 60 } }));
    expect(await app.sql('select link_expires_at from email_delivery where id = ?', [notice.id])).toEqual([{ link_expires_at: null }]);
  });

  it('an asked-for mail goes out on an admission of its own: one mail, to the address it was counted under', async () => {
    const sender = { applicationId: app.root.applicationId, tenantId: null, requestId: crypto.randomUUID(), principal: { actor: { type: 'system', id: 'flow-test' } }, services: app.gatehouse.services };
    const link = { link: 'https://x.test/m', expiresInMinutes: 15 };
    await lockedTransaction(app.gatehouse.services.orm.em.fork(), askedForLock(sender.applicationId, ADA.email), async (em) => {
      const admitted = (await AskedForMail.admit({ em, sender, tenantId: null }, ADA.email))!;
      expect(() => magicLinkMail(admitted, { id: null, email: 'grace@example.com', tenantIds: null }, link)).toThrow('without its own admission');
      expect((await magicLinkMail(admitted, { ...ADA, email: 'Ada@Example.com' }, link)).toAddress).toBe('Ada@Example.com');
      expect(() => magicLinkMail(admitted, ADA, link)).toThrow('without its own admission');
    });
  });

  it('the notice to the address an account left is email_change’s other text, with the link that gives it back or none, as the preview shows it', async () => {
    const sender = { applicationId: app.root.applicationId, tenantId: null, requestId: crypto.randomUUID(), principal: { actor: { type: 'system', id: 'flow-test' } }, services: app.gatehouse.services };
    const notice = async (to: Recipient, restore: { link: string; expiresInMinutes: number } | null) => {
      const delivery = await app.gatehouse.services.orm.em.fork().transactional((em) => emailChangedMail({ em, sender, tenantId: null }, to, { newEmail: 'ada.new@example.com', restore }));
      return (await app.http.get(`/email/deliveries/${delivery.id}`)).body as { to: string; subject: string; text: string; html: string };
    };
    const restore = { link: 'https://x.test/restore', expiresInMinutes: 72 * 60 };
    for (const [given, variables] of [
      [restore, { link: restore.link, expiresInMinutes: restore.expiresInMinutes }],
      [null, { link: null, expiresInMinutes: null }],
    ] as const) {
      const mail = await notice(ADA, given);
      const preview = await app.http.post('/email/templates/email_change/preview', {
        variables: { user: { name: ADA.name, email: ADA.email }, addressChanged: true, newEmail: 'ada.new@example.com', ...variables },
      });
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      expect(mail).toMatchObject({ to: ADA.email, subject: preview.body.subject, text: preview.body.text, html: preview.body.html });
      expect(mail.subject).toContain('account was changed');
      expect(mail.text).toContain('The sign-in address of your account was changed from ada@example.com to ada.new@example.com');
    }
    const linked = await notice(ADA, restore);
    expect(linked.text).toContain('open the link below within 72 hours: with the password your account had');
    expect(linked.text).toContain('https://x.test/restore\n');
    expect(linked.html).toContain('href="https://x.test/restore"');
    const bare = await notice(ADA, null);
    expect(bare.text).toContain('If you did not expect this change, contact support.');
    expect(bare.text).toMatch(/contact support\.\n\n— /);
    expect(bare.html).not.toContain('<a href=');
    // In the recipient's language, each of them.
    const inGerman = await notice({ ...ADA, locale: 'de' }, restore);
    expect(inGerman.text).toContain('wurde von ada@example.com in ada.new@example.com geändert');
    expect(inGerman.text).toContain('innerhalb von 72 Stunden');
    expect((await notice({ ...ADA, locale: 'fr' }, null)).text).toContain('est passée de ada@example.com à ada.new@example.com');
    expect((await notice({ ...ADA, locale: 'es' }, restore)).text).toContain('en un plazo de 72 horas');
  });

  it('a stored template unaware of its other text sends that notice in the built-in words, part by part, as the preview shows it', async () => {
    const sender = { applicationId: app.root.applicationId, tenantId: null, requestId: crypto.randomUUID(), principal: { actor: { type: 'system', id: 'flow-test' } }, services: app.gatehouse.services };
    const notice = async () => {
      const delivery = await app.gatehouse.services.orm.em.fork().transactional((em) => emailChangedMail({ em, sender, tenantId: null }, ADA, { newEmail: 'ada.new@example.com', restore: null }));
      return (await app.http.get(`/email/deliveries/${delivery.id}`)).body as { subject: string; text: string; html: string };
    };
    const previewOf = async (variables: Record<string, unknown>) =>
      (await app.http.post('/email/templates/email_change/preview', { variables: { user: { name: ADA.name, email: ADA.email }, newEmail: 'ada.new@example.com', link: null, ...variables } })).body;
    const stored = {
      subject: '{% if addressChanged %}Moved to {{ newEmail }}{% else %}Please confirm {{ newEmail }}{% endif %}',
      html: '<p>Please confirm {{ newEmail }}: {{ link }}</p>',
      text: 'Please confirm {{ newEmail }}: {{ link }}',
    };
    expect((await app.http.put('/email/templates/email_change', stored)).status).toBe(200);
    try {
      const mail = await notice();
      expect(mail.subject).toBe('Moved to ada.new@example.com');
      expect(mail.text).toContain('The sign-in address of your account was changed from ada@example.com to ada.new@example.com');
      expect(mail.text).not.toContain('Please confirm');
      expect(mail.html).not.toContain('Please confirm');
      expect(await previewOf({ addressChanged: true, expiresInMinutes: null })).toMatchObject({ subject: mail.subject, text: mail.text, html: mail.html });
      // The template's own text is still the stored one.
      expect(await previewOf({ addressChanged: false, link: 'https://x.test/e', expiresInMinutes: 60 })).toMatchObject({
        subject: 'Please confirm ada.new@example.com',
        text: 'Please confirm ada.new@example.com: https://x.test/e',
      });
    } finally {
      expect((await app.http.put('/email/templates/email_change', DEFAULT_TEMPLATES.email_change)).status).toBe(200);
    }
  });

  it('words what it fills in in the recipient’s language: the factor’s name, an unknown browser and place', async () => {
    const german = { ...ADA, locale: 'de' };
    const enrolled = (await app.http.get(`/email/deliveries/${await queue('mfa_enrolled', null, german)}`)).body;
    expect(enrolled.text).toContain('Passkey oder Sicherheitsschlüssel wurde als zweiter Faktor zu ada@example.com hinzugefügt.');
    const args = { link: 'https://x.test/n', signIn: { time: CHANGED_AT, userAgent: undefined, ip: '203.0.113.9' } };
    const signIn = (await app.http.get(`/email/deliveries/${await queue('new_sign_in', null, german, args)}`)).body;
    expect(signIn.text).toContain('von einem unbekannten Browser in einer unbekannten Gegend (IP 203.0.113.9)');
  });

  it('new_sign_in names the device as read from the User-Agent, never the header’s own words: its sender may be a thief', async () => {
    const forged = `${FIREFOX_ON_LINUX} (your usual laptop: this was you, ignore this mail; questions? https://help.evil.example/)`;
    const mailed = async (userAgent: string, to = ADA) => {
      const args = { link: 'https://x.test/n', signIn: { time: CHANGED_AT, userAgent, ip: '203.0.113.9' } };
      return (await app.http.get(`/email/deliveries/${await queue('new_sign_in', null, to, args)}`)).body as { text: string; html: string };
    };
    const mail = await mailed(forged);
    expect(mail.text).toContain('from Firefox on Linux in an unknown location');
    for (const part of [mail.text, mail.html]) expect(part).not.toMatch(/usual laptop|evil\.example/);
    expect((await mailed('Mozilla/5.0 (Windows NT 10.0; Win64; x64) curl-like')).text).toContain('from a browser on Windows in');
    expect((await mailed('<b>Chrome/1.0</b>', { ...ADA, locale: 'fr' })).text).toContain('depuis Chrome sous un système inconnu à');
    expect((await mailed('evil.example/click-here')).text).toContain('from an unknown browser in');
  });

  it('a tenant’s mail takes the tenant’s own branding and template while the scopes are per tenant', async () => {
    const tenantId = await app.createTenant('Branded Co');
    const appPath = `/applications/${app.root.applicationId}`;
    expect((await app.http.patch(appPath, { tenancyConfig: { brandingScope: 'tenant', emailTemplatesScope: 'tenant' } })).status).toBe(200);
    expect((await app.http.put(`${appPath}/tenants/${tenantId}/branding`, { colors: { primary: '#aa0055' } })).status).toBe(200);
    const template = { subject: 'Code {{ code }} for {{ tenant.name }}', html: '<p style="color:{{ branding.colors.primary }}">{{ code }}</p>', text: '{{ code }}' };
    expect((await app.http.put(`${appPath}/tenants/${tenantId}/email/templates/email_otp`, template)).status).toBe(200);
    const delivery = (await app.http.get(`/email/deliveries/${await queue('email_otp', tenantId)}`)).body;
    expect(delivery).toMatchObject({ tenantId, subject: 'Code 123456 for Branded Co', html: '<p style="color:#aa0055">123456</p>', text: '123456' });
    // The application's own mail keeps the application's branding.
    expect((await app.http.get(`/email/deliveries/${await queue('account_locked', null)}`)).body.html).toContain('background:#0a7d33');
  });

  it('deleting a user queues account_deleted to them; removing a shared user from one tenant does not', async () => {
    const created = await app.http.post('/users', { email: 'leaving@example.com', name: 'Leo' });
    expect(created.status).toBe(201);
    const tenantId = await app.createTenant('Left Co');
    const member = await app.http.post('/users', { email: 'member@example.com', tenantId });
    expect(member.status).toBe(201);
    expect((await app.http.delete(`/applications/${app.root.applicationId}/tenants/${tenantId}/users/${member.body.id}`)).status).toBe(204);
    expect((await app.http.delete(`/users/${created.body.id}`)).status).toBe(204);
    expect((await app.http.get('/email/deliveries?templateKey=account_deleted&to=member@example.com')).body.data).toEqual([]);
    const deleted = await app.http.get('/email/deliveries?templateKey=account_deleted&to=leaving@example.com');
    expect(deleted.body.data).toHaveLength(1);
    expect((await app.http.get(`/email/deliveries/${deleted.body.data[0].id}`)).body.text).toContain('Hi Leo,');
  });

  it('deleting a tenant queues account_deleted to each user of its isolated pool, once, in the application’s outbox (the tenant’s goes with it)', async () => {
    const created = await app.http.post('/applications', { name: 'Isolated pool', multiTenant: true, tenancyConfig: { authIsolation: 'isolated' } });
    const admin = app.as({ apiKey: created.body.initialApiKey.secret });
    const tenantId = (await admin.post(`/applications/${created.body.id}/tenants`, { name: 'Pool' })).body.id as string;
    // More than one of the job's batches.
    const names = ['pia', 'pol', 'pat', ...Array.from({ length: DEFERRED_MAIL_BATCH - 2 }, (_, i) => `p${i}`)];
    const pool = names.map((name) => ({ email: `${name}@pool.example.com`, name: name === 'pat' ? null : name.toUpperCase() }));
    for (const user of pool) expect((await admin.post('/users', { ...user, tenantId })).status).toBe(201);
    const { requestId, headers } = traced();
    app.queries.length = 0;
    expect((await admin.delete(`/applications/${created.body.id}/tenants/${tenantId}`, { headers })).status).toBe(204);
    // The request renders none: it writes what the job queues.
    expect(app.queries.filter((query) => /insert into "?email_delivery/.test(query))).toEqual([]);
    const mails = async () => (await admin.get('/email/deliveries?templateKey=account_deleted&pageSize=100')).body.data as Record<string, unknown>[];
    for (let waited = 0; (await mails()).length < pool.length && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await mails()).map((mail) => mail.to).sort()).toEqual(pool.map((user) => user.email).sort());
    const mailsTo = async (address: string) => (await admin.get(`/email/deliveries?templateKey=account_deleted&to=${address}`)).body.data as Record<string, unknown>[];
    for (const user of pool.slice(0, 3)) {
      const mails = await mailsTo(user.email);
      expect(mails, user.email).toHaveLength(1);
      expect(mails[0]).toMatchObject({ tenantId: null, status: expect.stringMatching(/^(queued|sent)$/) });
      const mail = (await admin.get(`/email/deliveries/${mails[0]!.id as string}`)).body;
      expect(mail.text).toContain(user.name === null ? 'Hi there,' : `Hi ${user.name},`);
    }
    // Audited as queued on behalf of the deletion's request.
    const queued = (await auditRecordsOf(app, requestId)).filter((record) => record.action === 'email_delivery.queued');
    expect(queued.map((record) => (record.after as { to: string }).to).sort()).toEqual(pool.map((user) => user.email).sort());
  });

  it('a deferred mail that cannot be rendered is dropped and holds up none after it', async () => {
    const row = (id: string, to: string) =>
      app.sql(
        `insert into deferred_mail (application_id, id, template_key, to_address, recipient_name, locale, request_id, actor_type, actor_id)
         values (?, ?, 'account_deleted', ?, null, null, ?, 'system', 'flow-test')`,
        [app.root.applicationId, id, to, crypto.randomUUID()],
      );
    await row(newId(), 'not an address');
    await row(newId(), 'after-the-bad-one@example.com');
    const mailsTo = async () => (await app.http.get('/email/deliveries?templateKey=account_deleted&to=after-the-bad-one@example.com')).body.data as unknown[];
    for (let waited = 0; (await mailsTo()).length === 0 && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await mailsTo()).toHaveLength(1);
    expect(await app.sql('select to_address from deferred_mail where application_id = ?', [app.root.applicationId])).toEqual([]);
  });
});

/** `account_deleted` is the notice of a deletion already made: it never refuses the deletion, and it reaches its account
 *  however the deletion's tenant goes after it. */
describe('the notice of a deleted account', () => {
  let mailed: TestApp;
  let sink: MailSink;
  const written: string[] = [];
  const logged = () => written.map((line) => JSON.parse(line) as { level: number; msg: string; reqId?: string; templateKey?: string; userId?: string; err?: { message: string } });

  beforeAll(async () => {
    sink = await startMailSink();
    // Private hosts: an application's provider at a held SMTP server; short attempts, quick retries.
    mailed = await startTestApp({ email: { ...sink.email, allowPrivateHosts: true, sendTimeoutMs: 1_500, retryBaseMs: 50 } }, { logStream: { write: (line) => void written.push(line) } });
  });
  afterAll(async () => {
    await mailed?.close();
    await sink?.close();
  });

  async function isolatedApplication(name: string) {
    const created = await mailed.http.post('/applications', { name, multiTenant: true, tenancyConfig: { authIsolation: 'isolated' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const admin = mailed.as({ apiKey: created.body.initialApiKey.secret });
    const appPath = `/applications/${created.body.id as string}`;
    const tenant = await admin.post(`${appPath}/tenants`, { name: `${name} tenant` });
    expect(tenant.status).toBe(201);
    return { admin, appPath, tenantId: tenant.body.id as string };
  }

  it('a template that cannot render it for the account drops the mail with an error line: the user is deleted all the same', async () => {
    const { admin: isolatedAdmin, tenantId } = await isolatedApplication('Unrenderable notice');
    // Passes the save's check with the sample name (12 characters, 720 in all), overruns the subject's 998 with a long one.
    const subject = '{% for i in (1..60) %}{{ user.name }}{% endfor %}';
    // A shared-pool user, mailed as the application; an isolated one, in their tenant's outbox.
    for (const [admin, email, tenant] of [[mailed.http, 'long.shared@example.com', undefined], [isolatedAdmin, 'long.isolated@example.com', tenantId]] as const) {
      expect((await admin.put('/email/templates/account_deleted', { subject, html: '<p>Bye</p>', text: 'Bye' })).status).toBe(200);
      const user = await admin.post('/users', { email, name: 'N'.repeat(40), ...(tenant === undefined ? {} : { tenantId: tenant }) });
      expect(user.status, JSON.stringify(user.body)).toBe(201);
      const { requestId, headers } = traced();
      const deleted = await admin.delete(`/users/${user.body.id as string}`, { headers });
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
      expect((await admin.get(`/users/${user.body.id as string}`)).status).toBe(404);
      expect((await auditRecordsOf(mailed, requestId)).map((record) => record.action)).toContain('user.deleted');
      expect((await admin.get(`/email/deliveries?templateKey=account_deleted&to=${email}`)).body.data).toEqual([]);
      const [line] = logged().filter((entry) => entry.reqId === requestId && entry.level === 50);
      expect(line).toMatchObject({ msg: 'notice: cannot be rendered for its account, dropped', templateKey: 'account_deleted', userId: user.body.id });
      expect(line?.err?.message).toContain('render limit exceeded');
      expect(JSON.stringify(line)).not.toContain(email);
    }
    const admin = isolatedAdmin;
    // One the template renders for is mailed as ever.
    const short = await admin.post('/users', { email: 'short@example.com', name: 'Al', tenantId });
    expect((await admin.delete(`/users/${short.body.id as string}`)).status).toBe(204);
    expect((await admin.get('/email/deliveries?templateKey=account_deleted&to=short@example.com')).body.data).toHaveLength(1);
  });

  it('an isolated user’s notice still queued when their tenant is deleted goes out once, as the application’s', async () => {
    const { admin, appPath, tenantId } = await isolatedApplication('Outlived tenant');
    const user = await admin.post('/users', { email: 'outlived@example.com', name: 'Olive', tenantId });
    expect(user.status).toBe(201);
    const other = await admin.post('/users', { email: 'stays.queued@example.com', name: 'Stacy', tenantId });
    expect(other.status).toBe(201);
    const outbox = mailed.gatehouse.services.outbox as OutboxWorker;
    await outbox.stop();
    let notice: Record<string, unknown>;
    let testMail: string;
    const deletion = traced();
    try {
      expect((await admin.delete(`/users/${user.body.id as string}`)).status).toBe(204);
      [notice] = (await admin.get('/email/deliveries?templateKey=account_deleted&to=outlived@example.com')).body.data;
      expect(notice).toMatchObject({ tenantId, status: 'queued' });
      // The tenant's other mail goes with it.
      const queued = await admin.post(`${appPath}/tenants/${tenantId}/email/test`, { to: 'tenant.test@example.com' });
      expect(queued.status, JSON.stringify(queued.body)).toBe(201);
      testMail = queued.body.id as string;
      expect((await admin.delete(`${appPath}/tenants/${tenantId}`, { headers: deletion.headers })).status).toBe(204);
    } finally {
      outbox.start({ warn: () => undefined });
    }
    const sent = await settledDelivery(admin, `/email/deliveries/${notice!.id as string}`);
    expect(sent).toMatchObject({ tenantId: null, status: 'sent', to: 'outlived@example.com' });
    expect((await admin.get(`/email/deliveries/${testMail!}`)).status).toBe(404);
    // The pool's user deleted with the tenant gets theirs through the deferred job, as ever.
    for (let waited = 0; sink.to('stays.queued@example.com').length === 0 && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 100));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(sink.to('outlived@example.com')).toHaveLength(1);
    expect(sink.to('outlived@example.com')[0]!.raw).toContain('Olive');
    expect(sink.to('stays.queued@example.com')).toHaveLength(1);
    const moved = (await auditRecordsOf(mailed, deletion.requestId)).filter((record) => record.targetId === notice!.id);
    expect(moved.map((record) => [record.action, record.tenantId])).toEqual([['email_delivery.moved', tenantId]]);
  });

  it('a notice whose attempt is under way as its tenant is deleted gets that attempt’s outcome: retried as the application’s, sent once', async () => {
    let holding = true;
    const held = await startSmtpServer({ hold: () => holding });
    try {
      const { admin, appPath, tenantId } = await isolatedApplication('Mid-send tenant');
      const provider = { type: 'smtp', fromAddress: 'bye@held.example.com', smtp: { host: '127.0.0.1', port: held.port, username: null, security: 'none' } };
      expect((await admin.put('/email/provider', provider)).status).toBe(200);
      const user = await admin.post('/users', { email: 'midsend@example.com', name: 'Mia', tenantId });
      expect(user.status).toBe(201);
      expect((await admin.delete(`/users/${user.body.id as string}`)).status).toBe(204);
      // Its data at the server, unanswered: the attempt is under way as the tenant goes.
      while (held.holding() === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await admin.delete(`${appPath}/tenants/${tenantId}`)).status).toBe(204);
      holding = false;
      const [notice] = (await admin.get('/email/deliveries?templateKey=account_deleted&to=midsend@example.com')).body.data;
      expect(notice).toMatchObject({ tenantId: null });
      // The held attempt ends at its deadline, written to the moved row as a retry, which the next attempt sends.
      expect(await settledDelivery(admin, `/email/deliveries/${notice.id as string}`)).toMatchObject({ status: 'sent', tenantId: null, attempts: 2 });
      expect(held.received.filter((mail) => mail.to.includes('midsend@example.com'))).toHaveLength(1);
    } finally {
      await held.close();
    }
  });
});
