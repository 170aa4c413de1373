import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailConfig } from '../../src/config.ts';
import { AuditLog } from '../../src/db/entities/index.ts';
import { enqueueMail, WITHHELD_BODY, WITHHELD_SUBJECT } from '../../src/domain/email/outbox.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { issueTestKey } from '../support/keys.ts';
import { flowSender, quickEmailConfig, settledDelivery } from '../support/email-outbox.ts';
import {
  makeCertificate,
  startHttpReceiver,
  startSmtpServer,
  type HttpReceiver,
  type ReceivedRequest,
  type TestCertificate,
  type TestSmtpServer,
} from '../support/mail-receivers.ts';

/**
 * The outbox end to end: mail queued through `POST /email/test`, delivered by the service's worker through a real
 * SMTP server (smtp-server: STARTTLS and AUTH) and local receivers standing in for the HTTP providers' APIs, with
 * retries, permanent refusals and timeouts ending as deliveries with a clear `lastError`.
 */
let app: TestApp;
let appPath: string;
let certificate: TestCertificate;
let relay: TestSmtpServer;
let tenantSmtp: TestSmtpServer;
const receivers: Record<'sendgrid' | 'postmark' | 'resend' | 'ses', HttpReceiver> = {} as never;

const RELAY_PASSWORD = 'relay-password-do-not-leak';
const SMTP_PASSWORD = 'smtp-password-do-not-leak';
const SES_SECRET = 'ses-secret-do-not-leak/0123456789abcdefABCDEF';
const MAX_ATTEMPTS = 3;

// The SMTP servers of the tests are on 127.0.0.1.
const emailConfig = (overrides: Partial<EmailConfig>) => quickEmailConfig({ maxAttempts: MAX_ATTEMPTS, allowPrivateHosts: true, ...overrides });

beforeAll(async () => {
  certificate = makeCertificate();
  relay = await startSmtpServer({ certificate, users: { relay: RELAY_PASSWORD } });
  tenantSmtp = await startSmtpServer({ certificate, users: { mailer: SMTP_PASSWORD } });
  for (const name of ['sendgrid', 'postmark', 'resend', 'ses'] as const) receivers[name] = await startHttpReceiver();
  app = await startTestApp({
    email: emailConfig({
      smtpUrl: `smtp://relay:${RELAY_PASSWORD}@127.0.0.1:${relay.port}`,
      smtpCaFile: certificate.caFile,
      apiUrls: { sendgrid: receivers.sendgrid.url, postmark: receivers.postmark.url, resend: receivers.resend.url, ses: receivers.ses.url },
    }),
  });
  appPath = `/applications/${app.root.applicationId}`;
  // Each test's provider is a tenant's own, so that the tests do not share one.
  expect((await app.http.patch(appPath, { tenancyConfig: { emailProviderScope: 'tenant' } })).status).toBe(200);
});
afterAll(async () => {
  await app?.close();
  await relay?.close();
  await tenantSmtp?.close();
  for (const receiver of Object.values(receivers)) await receiver.close();
  certificate?.remove();
});

const inTenant = (tenantId: string, path: string) => `${appPath}/tenants/${tenantId}${path}`;

/** A tenant sending through `provider` (null: the application's). */
async function tenantWith(provider: Record<string, unknown> | null): Promise<string> {
  const tenantId = await app.createTenant(`Tenant ${crypto.randomUUID().slice(0, 8)}`);
  if (provider !== null) {
    const put = await app.http.put(inTenant(tenantId, '/email/provider'), provider);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
  }
  return tenantId;
}

async function sendTest(path: string, to = 'ada@example.com') {
  const response = await app.http.post(path, { to });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  expect(response.body).toMatchObject({ status: 'queued', to, templateKey: 'test', sentAt: null });
  return response.body as { id: string; messageId: string; tenantId: string | null };
}

const deliveryPath = (tenantId: string, id: string) => inTenant(tenantId, `/email/deliveries/${id}`);

describe('the built-in sender', () => {
  it('sends through SMTP_URL (STARTTLS, AUTH) with the Message-ID of the delivery, and GET shows the rendered mail', async () => {
    const queued = await sendTest('/email/test');
    expect(queued.messageId).toMatch(/^<[0-9a-f-]+@gatehouse\.test>$/);
    const delivery = await settledDelivery(app.http, `/email/deliveries/${queued.id}`);
    expect(delivery).toMatchObject({ status: 'sent', attempts: 1, providerType: 'gatehouse', lastError: null, note: null, tenantId: null });
    expect(delivery.subject).toBe('Test e-mail from Gatehouse');
    expect(delivery.text).toContain('This is a test e-mail, sent through an application’s e-mail provider');
    expect(delivery.html).toContain('<p>This is a test e-mail');
    const mail = relay.received.find((received) => received.header('message-id') === queued.messageId)!;
    expect(mail).toMatchObject({ from: 'no-reply@gatehouse.test', to: ['ada@example.com'], user: 'relay', secure: true });
    expect(mail.header('subject')).toBe(delivery.subject);
    // In the audit log: queued by the caller, sent by the outbox, in their transactions.
    const records = await app.gatehouse.services.orm.em.fork().find(AuditLog, { targetId: queued.id }, { filters: false, orderBy: { id: 'asc' } });
    expect(records.map((record) => [record.action, record.actorType])).toEqual([
      ['email_delivery.queued', 'api_key'],
      ['email_delivery.sent', 'system'],
    ]);
  });
});

describe('SMTP providers', () => {
  it('send over STARTTLS with the provider’s credentials and From', async () => {
    const tenantId = await tenantWith({
      type: 'smtp', fromAddress: 'hello@acme.test', fromName: 'Acme "Mail"', replyTo: 'help@acme.test',
      smtp: { host: '127.0.0.1', port: tenantSmtp.port, username: 'mailer', security: 'starttls' }, secrets: { password: SMTP_PASSWORD },
    });
    const queued = await sendTest(inTenant(tenantId, '/email/test'), 'grace@example.com');
    expect(queued.tenantId).toBe(tenantId);
    const delivery = await settledDelivery(app.http, deliveryPath(tenantId, queued.id));
    expect(delivery).toMatchObject({ status: 'sent', providerType: 'smtp', attempts: 1 });
    const mail = tenantSmtp.received.find((received) => received.header('message-id') === queued.messageId)!;
    expect(mail).toMatchObject({ from: 'hello@acme.test', to: ['grace@example.com'], user: 'mailer', secure: true });
    expect(mail.header('from')).toBe('"Acme \\"Mail\\"" <hello@acme.test>');
    expect(mail.header('reply-to')).toBe('help@acme.test');
  });

  it('send to a server at an IPv6 address, given in brackets and stored bare', async () => {
    const ipv6Server = await startSmtpServer({ address: '::1' });
    try {
      const tenantId = await tenantWith({ type: 'smtp', fromAddress: 'hello@acme.test', smtp: { host: '[0:0::1]', port: ipv6Server.port, security: 'none' } });
      expect((await app.http.get(inTenant(tenantId, '/email/provider'))).body.smtp).toMatchObject({ host: '::1' });
      const queued = await sendTest(inTenant(tenantId, '/email/test'));
      expect(await settledDelivery(app.http, deliveryPath(tenantId, queued.id))).toMatchObject({ status: 'sent', providerType: 'smtp' });
      expect(ipv6Server.received.map((mail) => mail.header('message-id'))).toEqual([queued.messageId]);
    } finally {
      await ipv6Server.close();
    }
  });

  it('send over TLS from the first byte (security tls)', async () => {
    const tlsServer = await startSmtpServer({ certificate, tls: true, users: { mailer: SMTP_PASSWORD } });
    try {
      const tenantId = await tenantWith({
        type: 'smtp', fromAddress: 'hello@acme.test',
        smtp: { host: '127.0.0.1', port: tlsServer.port, username: 'mailer', security: 'tls' }, secrets: { password: SMTP_PASSWORD },
      });
      const queued = await sendTest(inTenant(tenantId, '/email/test'));
      expect(await settledDelivery(app.http, deliveryPath(tenantId, queued.id))).toMatchObject({ status: 'sent', providerType: 'smtp' });
      expect(tlsServer.received.map((mail) => [mail.header('message-id'), mail.secure, mail.user])).toEqual([[queued.messageId, true, 'mailer']]);
    } finally {
      await tlsServer.close();
    }
  });

  it('never fall back to plain text when STARTTLS is required and not offered', async () => {
    const plain = await startSmtpServer({});
    try {
      const tenantId = await tenantWith({ type: 'smtp', fromAddress: 'hello@acme.test', smtp: { host: '127.0.0.1', port: plain.port, security: 'starttls' } });
      const queued = await sendTest(inTenant(tenantId, '/email/test'));
      const delivery = await settledDelivery(app.http, deliveryPath(tenantId, queued.id));
      expect(delivery).toMatchObject({ status: 'failed', providerType: 'smtp' });
      expect(delivery.lastError).toMatch(/^smtp: .*STARTTLS/);
      expect(plain.received).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it('fail at once on refused credentials, without the password in lastError', async () => {
    const tenantId = await tenantWith({
      type: 'smtp', fromAddress: 'hello@acme.test',
      smtp: { host: '127.0.0.1', port: tenantSmtp.port, username: 'mailer', security: 'starttls' }, secrets: { password: 'wrong-password' },
    });
    const queued = await sendTest(inTenant(tenantId, '/email/test'));
    const delivery = await settledDelivery(app.http, deliveryPath(tenantId, queued.id));
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, providerType: 'smtp', sentAt: null });
    expect(delivery.lastError).toMatch(/^smtp: .*535/);
    expect(delivery.lastError).not.toContain('wrong-password');
  });

  it('retry a temporary refusal of the login (454, as a server throttling logins answers), and send on a later attempt', async () => {
    let refusals = 1;
    const throttling = await startSmtpServer({
      certificate,
      users: { mailer: SMTP_PASSWORD },
      authReply: () => (refusals-- > 0 ? { responseCode: 454, message: '4.7.0 Too many login attempts, please try again later' } : undefined),
    });
    try {
      const tenantId = await tenantWith({
        type: 'smtp', fromAddress: 'hello@acme.test',
        smtp: { host: '127.0.0.1', port: throttling.port, username: 'mailer', security: 'starttls' }, secrets: { password: SMTP_PASSWORD },
      });
      const queued = await sendTest(inTenant(tenantId, '/email/test'));
      const delivery = await settledDelivery(app.http, deliveryPath(tenantId, queued.id));
      expect(delivery).toMatchObject({ status: 'sent', attempts: 2, providerType: 'smtp', lastError: null });
      expect(throttling.received.map((mail) => mail.user)).toEqual(['mailer']);
    } finally {
      await throttling.close();
    }
  });

  it('retry a server that cannot be reached, then fail with its error after the last attempt', async () => {
    const closed = await startSmtpServer({});
    await closed.close();
    const tenantId = await tenantWith({ type: 'smtp', fromAddress: 'hello@acme.test', smtp: { host: '127.0.0.1', port: closed.port, security: 'none' } });
    const queued = await sendTest(inTenant(tenantId, '/email/test'));
    const delivery = await settledDelivery(app.http, deliveryPath(tenantId, queued.id));
    expect(delivery).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    expect(delivery.lastError).toMatch(/^smtp: .*ECONNREFUSED/);
  });

  it.each([
    ['a recipient refused for now (RCPT TO 450: the whole envelope refused with a 4xx)', 450, '4.2.0 Greylisted, please try again later'],
    ['a command refused as out of sequence (503: the session’s state, not the mail)', 503, '5.5.1 Bad sequence of commands'],
  ])('retry %s, and send on a later attempt', async (_case, responseCode, message) => {
    let refusals = 1;
    const refusingOnce = await startSmtpServer({ rcptReply: () => (refusals-- > 0 ? { responseCode, message } : undefined) });
    try {
      const tenantId = await tenantWith({ type: 'smtp', fromAddress: 'hello@acme.test', smtp: { host: '127.0.0.1', port: refusingOnce.port, security: 'none' } });
      const queued = await sendTest(inTenant(tenantId, '/email/test'));
      const delivery = await settledDelivery(app.http, deliveryPath(tenantId, queued.id));
      expect(delivery).toMatchObject({ status: 'sent', attempts: 2, providerType: 'smtp', lastError: null });
      expect(refusingOnce.received.map((mail) => mail.to)).toEqual([['ada@example.com']]);
    } finally {
      await refusingOnce.close();
    }
  });

  it('fail at once on a recipient refused for good (RCPT TO 550), the server’s reply in lastError', async () => {
    const refusing = await startSmtpServer({ rcptReply: () => ({ responseCode: 550, message: '5.1.1 No such user here' }) });
    try {
      const tenantId = await tenantWith({ type: 'smtp', fromAddress: 'hello@acme.test', smtp: { host: '127.0.0.1', port: refusing.port, security: 'none' } });
      const queued = await sendTest(inTenant(tenantId, '/email/test'));
      const delivery = await settledDelivery(app.http, deliveryPath(tenantId, queued.id));
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1, providerType: 'smtp', sentAt: null });
      expect(delivery.lastError).toMatch(/^smtp: .*550 5\.1\.1 No such user here/);
      expect(refusing.received).toEqual([]);
    } finally {
      await refusing.close();
    }
  });

  it('fail at once on an envelope the SMTP library refuses before sending it (no reply code: it would refuse it every time), saying so', async () => {
    const server = await startSmtpServer({});
    try {
      const tenantId = await tenantWith({ type: 'smtp', fromAddress: 'hello@acme.test', smtp: { host: '127.0.0.1', port: server.port, security: 'none' } });
      // A stored recipient in which nodemailer finds no address (an empty group): its EENVELOPE "No recipients defined".
      const queued = await app.gatehouse.services.orm.em.fork().transactional(async (tx) => {
        const delivery = await enqueueMail(tx, flowSender(app), { templateKey: 'welcome', to: 'ada@example.com', tenantId, variables: { link: 'https://example.com' } });
        await tx.flush();
        await tx.execute(`update email_delivery set to_address = 'undisclosed-recipients:;' where id = ?`, [delivery.id]);
        return delivery;
      });
      app.gatehouse.services.outbox.wake();
      const delivery = await settledDelivery(app.http, deliveryPath(tenantId, queued.id));
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1, providerType: 'smtp', sentAt: null });
      expect(delivery.lastError).toBe('smtp: the mail’s envelope was refused before sending (it cannot be sent as it is): No recipients defined');
      expect(server.received).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

const lastRequest = (receiver: HttpReceiver): ReceivedRequest => receiver.received.at(-1)!;

describe('HTTP providers', () => {
  it('SendGrid: v3 mail send with the API key as Bearer', async () => {
    const tenantId = await tenantWith({ type: 'sendgrid', fromAddress: 'hello@acme.test', fromName: 'Acme', secrets: { apiKey: 'SG.key-do-not-leak' } });
    receivers.sendgrid.answer = () => ({ status: 202 });
    const queued = await sendTest(inTenant(tenantId, '/email/test'));
    expect(await settledDelivery(app.http, deliveryPath(tenantId, queued.id))).toMatchObject({ status: 'sent', providerType: 'sendgrid' });
    const request = lastRequest(receivers.sendgrid);
    expect(request).toMatchObject({ method: 'POST', url: '/v3/mail/send' });
    expect(request.headers['authorization']).toBe('Bearer SG.key-do-not-leak');
    expect(JSON.parse(request.body)).toEqual({
      personalizations: [{ to: [{ email: 'ada@example.com' }] }],
      from: { email: 'hello@acme.test', name: 'Acme' },
      subject: expect.stringContaining('Test e-mail'),
      content: [{ type: 'text/plain', value: expect.any(String) }, { type: 'text/html', value: expect.stringContaining('<p>') }],
      headers: { 'Message-ID': queued.messageId },
    });
  });

  it('Postmark: the server token header and its PascalCase body', async () => {
    const tenantId = await tenantWith({ type: 'postmark', fromAddress: 'hello@acme.test', replyTo: 'help@acme.test', secrets: { apiKey: 'pm-token-do-not-leak' } });
    receivers.postmark.answer = () => ({ status: 200, body: { ErrorCode: 0, Message: 'OK' } });
    const queued = await sendTest(inTenant(tenantId, '/email/test'));
    expect(await settledDelivery(app.http, deliveryPath(tenantId, queued.id))).toMatchObject({ status: 'sent', providerType: 'postmark' });
    const request = lastRequest(receivers.postmark);
    expect(request).toMatchObject({ method: 'POST', url: '/email' });
    expect(request.headers['x-postmark-server-token']).toBe('pm-token-do-not-leak');
    expect(JSON.parse(request.body)).toMatchObject({
      From: 'hello@acme.test', To: 'ada@example.com', ReplyTo: 'help@acme.test', MessageStream: 'outbound',
      Headers: [{ Name: 'Message-ID', Value: queued.messageId }],
      TextBody: expect.any(String), HtmlBody: expect.any(String), Subject: expect.any(String),
    });
  });

  it('Resend: Bearer key and the delivery id as its Idempotency-Key', async () => {
    const tenantId = await tenantWith({ type: 'resend', fromAddress: 'hello@acme.test', secrets: { apiKey: 're_key_do_not_leak' } });
    receivers.resend.answer = () => ({ status: 200, body: { id: 'resend-id' } });
    const queued = await sendTest(inTenant(tenantId, '/email/test'));
    expect(await settledDelivery(app.http, deliveryPath(tenantId, queued.id))).toMatchObject({ status: 'sent', providerType: 'resend' });
    const request = lastRequest(receivers.resend);
    expect(request).toMatchObject({ method: 'POST', url: '/emails' });
    expect(request.headers).toMatchObject({ authorization: 'Bearer re_key_do_not_leak', 'idempotency-key': queued.id });
    expect(JSON.parse(request.body)).toMatchObject({ from: 'hello@acme.test', to: ['ada@example.com'], headers: { 'Message-ID': queued.messageId } });
  });

  it('Resend: retry its 409 concurrent_idempotent_requests (an earlier attempt with the key still in progress there), final on any other 409', async () => {
    const tenantId = await tenantWith({ type: 'resend', fromAddress: 'hello@acme.test', secrets: { apiKey: 're_concurrent' } });
    let inProgress = 1;
    receivers.resend.answer = () =>
      inProgress-- > 0
        ? { status: 409, body: { statusCode: 409, name: 'concurrent_idempotent_requests', message: 'Same idempotency key used while original request is still in progress.' } }
        : { status: 200, body: { id: 'resend-id' } };
    const queued = await sendTest(inTenant(tenantId, '/email/test'));
    expect(await settledDelivery(app.http, deliveryPath(tenantId, queued.id))).toMatchObject({ status: 'sent', providerType: 'resend', attempts: 2, lastError: null });

    // The key reused with another payload stays final: sending it again would be refused alike.
    receivers.resend.answer = () => ({ status: 409, body: { statusCode: 409, name: 'invalid_idempotent_request', message: 'Same idempotency key used with a different request payload.' } });
    const refused = await sendTest(inTenant(tenantId, '/email/test'));
    const failed = await settledDelivery(app.http, deliveryPath(tenantId, refused.id));
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed.lastError).toMatch(/^resend: HTTP 409 .*invalid_idempotent_request/);
    receivers.resend.answer = () => ({ status: 200 });
  });

  it('SendGrid, Postmark and Resend are sent internationalized domains in Punycode; SendGrid, ASCII only, fails a local part that is not', async () => {
    const [to, from, replyTo] = ['leser@münchen.example', 'hello@bücher.example', 'hilfe@bücher.example'];
    const sent = async (type: 'sendgrid' | 'postmark' | 'resend', recipient: string) => {
      const tenantId = await tenantWith({ type, fromAddress: from, fromName: 'Zoë', replyTo, secrets: { apiKey: `${type}-key` } });
      receivers[type].answer = () => ({ status: 200, body: {} });
      const queued = await sendTest(inTenant(tenantId, '/email/test'), recipient);
      return { delivery: await settledDelivery(app.http, deliveryPath(tenantId, queued.id)), requests: receivers[type].received.filter((r) => r.body.includes(queued.messageId)) };
    };
    const sendgrid = await sent('sendgrid', to);
    expect(sendgrid.delivery).toMatchObject({ status: 'sent' });
    expect(JSON.parse(sendgrid.requests[0]!.body)).toMatchObject({
      personalizations: [{ to: [{ email: 'leser@xn--mnchen-3ya.example' }] }],
      from: { email: 'hello@xn--bcher-kva.example', name: 'Zoë' },
      reply_to: { email: 'hilfe@xn--bcher-kva.example' },
    });
    const postmark = await sent('postmark', 'zoë@münchen.example');
    expect(JSON.parse(postmark.requests[0]!.body)).toMatchObject({
      From: '"Zoë" <hello@xn--bcher-kva.example>', To: 'zoë@xn--mnchen-3ya.example', ReplyTo: 'hilfe@xn--bcher-kva.example',
    });
    const resend = await sent('resend', to);
    expect(JSON.parse(resend.requests[0]!.body)).toMatchObject({
      from: '"Zoë" <hello@xn--bcher-kva.example>', to: ['leser@xn--mnchen-3ya.example'], reply_to: 'hilfe@xn--bcher-kva.example',
    });

    const refused = await sent('sendgrid', 'zoë@example.com');
    expect(refused.delivery).toMatchObject({ status: 'failed', attempts: 1, sentAt: null });
    expect(refused.delivery.lastError).toBe('sendgrid: zoë@example.com cannot be sent through SendGrid: its local part (before @) is not ASCII');
    expect(refused.requests).toEqual([]);
    // A label that starts with a combining mark has no Punycode: no provider could be sent it.
    const invalid = await sent('resend', 'ada@\u0301a.example');
    expect(invalid.delivery).toMatchObject({ status: 'failed', attempts: 1 });
    expect(invalid.delivery.lastError).toBe('resend: ada@\u0301a.example cannot be sent through Resend: its domain is not a valid internationalized domain name');
  });

  it('SES: v2 SendEmail, its SigV4 signature checked by recomputing it from the request received', async () => {
    const tenantId = await tenantWith({
      type: 'ses', fromAddress: 'hello@acme.test', ses: { region: 'eu-west-1', accessKeyId: 'AKIAEXAMPLE123456' }, secrets: { secretAccessKey: SES_SECRET },
    });
    receivers.ses.answer = () => ({ status: 200, body: { MessageId: 'ses-id' } });
    const queued = await sendTest(inTenant(tenantId, '/email/test'));
    expect(await settledDelivery(app.http, deliveryPath(tenantId, queued.id))).toMatchObject({ status: 'sent', providerType: 'ses' });
    const request = lastRequest(receivers.ses);
    expect(request).toMatchObject({ method: 'POST', url: '/v2/email/outbound-emails' });
    expect(JSON.parse(request.body)).toMatchObject({
      FromEmailAddress: 'hello@acme.test',
      Destination: { ToAddresses: ['ada@example.com'] },
      Content: { Simple: { Subject: { Data: expect.stringContaining('Test e-mail') }, Body: { Text: { Data: expect.any(String) }, Html: { Data: expect.any(String) } } } },
    });
    expect(sesSignatureValid(request, SES_SECRET)).toBe(true);
    expect(sesSignatureValid({ ...request, body: request.body.replace('ada@', 'eve@') }, SES_SECRET)).toBe(false);
  });

  it('SES: retry its throttling (HTTP 400 ThrottlingException: the sending rate or daily quota reached), and send on a later attempt', async () => {
    const tenantId = await tenantWith({
      type: 'ses', fromAddress: 'hello@acme.test', ses: { region: 'eu-west-1', accessKeyId: 'AKIAEXAMPLE123456' }, secrets: { secretAccessKey: SES_SECRET },
    });
    let throttled = 1;
    receivers.ses.answer = () =>
      throttled-- > 0
        ? { status: 400, headers: { 'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazonaws.sesv2/' }, body: { message: 'Maximum sending rate exceeded.' } }
        : { status: 200, body: { MessageId: 'ses-id' } };
    const queued = await sendTest(inTenant(tenantId, '/email/test'));
    expect(await settledDelivery(app.http, deliveryPath(tenantId, queued.id))).toMatchObject({ status: 'sent', providerType: 'ses', attempts: 2, lastError: null });

    // Any other refusal of the request stays final.
    receivers.ses.answer = () => ({ status: 400, headers: { 'x-amzn-errortype': 'MessageRejected' }, body: { message: 'Email address is not verified.' } });
    const refused = await sendTest(inTenant(tenantId, '/email/test'));
    const failed = await settledDelivery(app.http, deliveryPath(tenantId, refused.id));
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed.lastError).toMatch(/^ses: HTTP 400 .*not verified/);
  });

  it('retry a 5xx and send on a later attempt', async () => {
    const tenantId = await tenantWith({ type: 'sendgrid', fromAddress: 'hello@acme.test', secrets: { apiKey: 'SG.retry' } });
    let calls = 0;
    receivers.sendgrid.answer = () => (++calls === 1 ? { status: 503, body: { errors: [{ message: 'busy' }] } } : { status: 202 });
    const queued = await sendTest(inTenant(tenantId, '/email/test'));
    const delivery = await settledDelivery(app.http, deliveryPath(tenantId, queued.id));
    expect(delivery).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
  });

  it('fail at once on a 4xx, the provider’s answer in lastError with the key scrubbed', async () => {
    const tenantId = await tenantWith({ type: 'postmark', fromAddress: 'hello@acme.test', secrets: { apiKey: 'pm-echoed-token' } });
    receivers.postmark.answer = (request) => ({ status: 422, body: { ErrorCode: 10, Message: `Bad token ${String(request.headers['x-postmark-server-token'])}` } });
    const queued = await sendTest(inTenant(tenantId, '/email/test'));
    const delivery = await settledDelivery(app.http, deliveryPath(tenantId, queued.id));
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, providerType: 'postmark' });
    expect(delivery.lastError).toBe('postmark: HTTP 422 {"ErrorCode":10,"Message":"Bad token [secret]"}');
  });

  it('scrub a key echoed across the point where a long answer is cut: no part of it reaches lastError', async () => {
    const token = 'pm-straddling-token-0123456789abcdef';
    const tenantId = await tenantWith({ type: 'postmark', fromAddress: 'hello@acme.test', secrets: { apiKey: token } });
    // The key starts 10 characters before the 500th of the answer.
    const answer = (request: ReceivedRequest) => ({ ErrorCode: 10, Message: `${'x'.repeat(490 - '{"ErrorCode":10,"Message":"'.length)}${String(request.headers['x-postmark-server-token'])} is not a valid token` });
    receivers.postmark.answer = (request) => ({ status: 422, body: answer(request) });
    const queued = await sendTest(inTenant(tenantId, '/email/test'));
    const delivery = await settledDelivery(app.http, deliveryPath(tenantId, queued.id));
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, providerType: 'postmark' });
    expect(delivery.lastError).not.toContain(token.slice(0, 10));
    expect(delivery.lastError).toBe(`postmark: HTTP 422 ${JSON.stringify(answer({ headers: { 'x-postmark-server-token': '[secret]' } } as never))}`);
  });

  it('a sent mail whose outcome the database fails to write is written again, not sent again', async () => {
    const tenantId = await tenantWith({ type: 'sendgrid', fromAddress: 'hello@acme.test', secrets: { apiKey: 'SG.blip' } });
    receivers.sendgrid.answer = () => ({ status: 202 });
    const sentBefore = receivers.sendgrid.received.length;
    // The first write of `sent` to this address fails, as during a database restart (a sequence: not rolled back with it).
    await app.sql(`create sequence blip_writes;
      create function blip() returns trigger language plpgsql as $$ begin
        if new.status = 'sent' and new.to_address = 'blip@example.com' and nextval('blip_writes') = 1 then raise exception 'connection lost'; end if;
        return new; end $$;
      create trigger blip before update on email_delivery for each row execute function blip();`);
    try {
      const queued = await sendTest(inTenant(tenantId, '/email/test'), 'blip@example.com');
      expect(await settledDelivery(app.http, deliveryPath(tenantId, queued.id))).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
      expect(receivers.sendgrid.received.length - sentBefore).toBe(1);
    } finally {
      await app.sql('drop trigger blip on email_delivery; drop function blip(); drop sequence blip_writes;');
    }
  });

  it('retry a provider that does not answer in time, then fail after the last attempt', async () => {
    const tenantId = await tenantWith({ type: 'resend', fromAddress: 'hello@acme.test', secrets: { apiKey: 're_slow' } });
    receivers.resend.answer = () => 'hang';
    const queued = await sendTest(inTenant(tenantId, '/email/test'));
    const delivery = await settledDelivery(app.http, deliveryPath(tenantId, queued.id));
    expect(delivery).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, lastError: 'resend: no complete answer within 1500 ms' });
    receivers.resend.answer = () => ({ status: 200 });
  });
});

/** SigV4 recomputed from the request as received (the documented algorithm), against its Authorization header. */
function sesSignatureValid(request: ReceivedRequest, secret: string): boolean {
  const authorization = String(request.headers['authorization']);
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/ses\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(authorization);
  if (match === null) return false;
  const [, , day, region, signedHeaders, signature] = match as unknown as [string, string, string, string, string, string];
  const amzDate = String(request.headers['x-amz-date']);
  const hash = (data: string) => createHash('sha256').update(data).digest('hex');
  const canonical = [
    request.method,
    request.url,
    '',
    ...signedHeaders.split(';').map((name) => `${name}:${String(request.headers[name]).trim()}`),
    '',
    signedHeaders,
    hash(request.body),
  ].join('\n');
  const scope = `${day}/${region}/ses/aws4_request`;
  const toSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${hash(canonical)}`;
  let key: Buffer = createHmac('sha256', `AWS4${secret}`).update(day).digest();
  for (const part of [region, 'ses', 'aws4_request']) key = createHmac('sha256', key).update(part).digest();
  return signedHeaders.split(';').includes('host') && createHmac('sha256', key).update(toSign).digest('hex') === signature;
}

describe('the deliveries list', () => {
  it('filters by status, templateKey and to, pages, and shows a tenant only its own', async () => {
    const tenantA = await tenantWith(null);
    const tenantB = await tenantWith(null);
    const sent = [
      await sendTest(inTenant(tenantA, '/email/test'), 'one@example.com'),
      await sendTest(inTenant(tenantA, '/email/test'), 'two@example.com'),
      await sendTest(inTenant(tenantA, '/email/test'), 'two@example.com'),
    ];
    const other = await sendTest(inTenant(tenantB, '/email/test'), 'two@example.com');
    for (const { id } of sent) await settledDelivery(app.http, deliveryPath(tenantA, id));
    const list = await app.http.get(inTenant(tenantA, '/email/deliveries?to=two@example.com&status=sent&templateKey=test&pageSize=1'));
    expect(list.status).toBe(200);
    expect(list.body.data.map((row: { id: string }) => row.id)).toEqual([sent[1]!.id]);
    expect(list.body.data[0]).not.toHaveProperty('html');
    const next = await app.http.get(inTenant(tenantA, `/email/deliveries?to=two@example.com&status=sent&templateKey=test&pageSize=1&cursor=${encodeURIComponent(list.body.next)}`));
    expect(next.body).toMatchObject({ data: [{ id: sent[2]!.id }], next: null });
    // A cursor of one filtered list is refused in another.
    const elsewhere = await app.http.get(inTenant(tenantA, `/email/deliveries?to=one@example.com&cursor=${encodeURIComponent(list.body.next)}`));
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body).toMatchObject({ code: 'validation_error', field: 'cursor' });
    const queuedOnly = await app.http.get(inTenant(tenantA, '/email/deliveries?status=queued'));
    expect(queuedOnly.body.data).toEqual([]);
    // Tenant B's mail is not tenant A's: 404 through A's path, absent from A's list; the application sees both.
    expect((await app.http.get(deliveryPath(tenantA, other.id))).status).toBe(404);
    const all = await app.http.get(`/email/deliveries?to=two@example.com&pageSize=100`);
    expect(all.body.data.map((row: { id: string }) => row.id)).toEqual(expect.arrayContaining([sent[1]!.id, sent[2]!.id, other.id]));
    // The address in any case, as the users' e-mail filter takes it.
    const anyCase = await app.http.get(inTenant(tenantA, '/email/deliveries?to=Two@EXAMPLE.com'));
    expect(anyCase.body.data.map((row: { id: string }) => row.id)).toEqual([sent[1]!.id, sent[2]!.id]);
  });

  it('refuses a bad filter or recipient with its field, and queues nothing', async () => {
    for (const [query, field] of [['status=lost', 'status'], ['templateKey=nope', 'templateKey'], ['to=not-an-address', 'to']]) {
      const response = await app.http.get(`/email/deliveries?${query}`);
      expect(response.status, query).toBe(422);
      expect(response.body).toMatchObject({ code: 'validation_error', field });
    }
    const tenantId = await tenantWith(null);
    const refused = await app.http.post(inTenant(tenantId, '/email/test'), { to: 'not an address' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'to' });
    expect((await app.http.get(inTenant(tenantId, '/email/deliveries'))).body.data).toEqual([]);
    expect((await app.http.get('/email/deliveries/01890a5d-ac96-774b-bcce-b302099a8057')).status).toBe(404);
  });

  it('needs email:read to list and email:write to send a test mail', async () => {
    const reader = await issueTestKey(app, { permissions: ['email:read'] });
    expect((await reader.get('/email/deliveries')).status).toBe(200);
    const refused = await reader.post('/email/test', { to: 'ada@example.com' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
  });
});

describe('enqueueMail, as a flow calls it', () => {
  it('renders the tenant’s effective template with the flow’s variables, in the caller’s transaction', async () => {
    expect((await app.http.patch(appPath, { tenancyConfig: { emailTemplatesScope: 'tenant' } })).status).toBe(200);
    const tenantId = await tenantWith(null);
    const template = { subject: 'Welcome {{ user.name }} to {{ tenant.name }}', html: '<p>Hi {{ user.name }}</p>', text: 'Hi {{ user.name }}' };
    expect((await app.http.put(inTenant(tenantId, '/email/templates/welcome'), template)).status).toBe(200);
    const em = app.gatehouse.services.orm.em.fork();
    const queued = await em.transactional((tx) => enqueueMail(tx, flowSender(app), { templateKey: 'welcome', to: 'ada@example.com', tenantId, variables: { user: { name: 'Ada <3' } } }));
    app.gatehouse.services.outbox.wake();
    const delivery = await settledDelivery(app.http, deliveryPath(tenantId, queued.id));
    const tenant = await app.http.get(`${appPath}/tenants/${tenantId}`);
    expect(delivery).toMatchObject({ status: 'sent', templateKey: 'welcome', subject: WITHHELD_SUBJECT });
    const sent = relay.received.find((mail) => mail.header('message-id') === delivery.messageId);
    expect(sent?.header('subject')).toBe(`Welcome Ada <3 to ${tenant.body.name as string}`);
    expect(sent?.raw).toContain('<p>Hi Ada &lt;3</p>');
    expect(sent?.raw).toContain('Hi Ada <3');
    // Sent through SMTP_URL, its bodies are the recipient's alone: the outbox says so instead.
    expect(delivery).toMatchObject({ text: WITHHELD_BODY, html: `<p>${WITHHELD_BODY}</p>` });
  });

  it('withholds the subject with the bodies: a code or link in it (the built-in email_otp’s) is the recipient’s alone', async () => {
    const tenantId = await tenantWith(null);
    const em = app.gatehouse.services.orm.em.fork();
    const queued = await em.transactional((tx) =>
      enqueueMail(tx, flowSender(app), { templateKey: 'email_otp', to: 'otp-subject@example.com', tenantId, variables: { code: '918273', expiresInMinutes: 10 } }),
    );
    app.gatehouse.services.outbox.wake();
    expect(await settledDelivery(app.http, deliveryPath(tenantId, queued.id))).toMatchObject({ status: 'sent' });
    // The recipient gets the code in the subject, as the built-in template writes it.
    expect(relay.received.find((mail) => mail.header('message-id') === queued.messageId)?.header('subject')).toContain('918273');
    const reader = await issueTestKey(app, { permissions: ['email:read'] });
    const one = await reader.get(deliveryPath(tenantId, queued.id));
    const list = await reader.get(inTenant(tenantId, '/email/deliveries?templateKey=email_otp'));
    const graphql = await reader.graphql('query($appId: UUID, $tenantId: UUID, $id: UUID!) { emailDelivery(appId: $appId, tenantId: $tenantId, deliveryId: $id) { subject } }', {
      appId: app.root.applicationId, tenantId, id: queued.id,
    });
    expect([one.status, list.status, graphql.status]).toEqual([200, 200, 200]);
    expect(one.body).toMatchObject({ subject: WITHHELD_SUBJECT, text: WITHHELD_BODY });
    expect(list.body.data).toEqual([expect.objectContaining({ id: queued.id, subject: WITHHELD_SUBJECT })]);
    expect(graphql.body.data.emailDelivery.subject).toBe(WITHHELD_SUBJECT);
    expect(JSON.stringify([one.body, list.body, graphql.body])).not.toContain('918273');
  });

  it('leaves no mail when the caller’s transaction rolls back', async () => {
    const em = app.gatehouse.services.orm.em.fork();
    const failing = em.transactional(async (tx) => {
      await enqueueMail(tx, flowSender(app), { templateKey: 'welcome', to: 'rolled-back@example.com', tenantId: null });
      throw new Error('the change that caused the mail failed');
    });
    await expect(failing).rejects.toThrow('the change that caused the mail failed');
    expect((await app.http.get('/email/deliveries?to=rolled-back@example.com')).body.data).toEqual([]);
  });
});

describe('POST /email/test', () => {
  it('with an Idempotency-Key queues one mail, the retry answered with the same delivery', async () => {
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const first = await app.http.post('/email/test', { to: 'once@example.com' }, { headers });
    const again = await app.http.post('/email/test', { to: 'once@example.com' }, { headers });
    expect(first.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    // Woken after the request's transaction committed, the worker sends it.
    expect(await settledDelivery(app.http, `/email/deliveries/${first.body.id as string}`)).toMatchObject({ status: 'sent' });
    expect((await app.http.get('/email/deliveries?to=once@example.com')).body.data).toHaveLength(1);
  });

  it('carries no text of the application’s or tenant’s, and an application queues at most TEST_EMAILS_PER_HOUR an hour (429)', async () => {
    const limited = await startTestApp({ testEmailsPerHour: 2 });
    try {
      const tenantId = await limited.createTenant('Your mailbox is full: sign in at https://evil.example');
      const tenantKey = await issueTestKey(limited, { tenantId, permissions: ['email:read', 'email:write'] });
      const first = await tenantKey.post('/email/test', { to: 'one@example.com' });
      expect(first.status).toBe(201);
      const delivery = (await tenantKey.get(`/email/deliveries/${first.body.id as string}`)).body;
      expect(`${delivery.subject as string} ${delivery.text as string} ${delivery.html as string}`).not.toMatch(/evil|mailbox|My application/);
      expect((await limited.http.post('/email/test', { to: 'two@example.com' })).status).toBe(201);
      // The application's count, its tenants' included.
      const refused = await tenantKey.post('/email/test', { to: 'three@example.com' });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'rate_limited' });
      // When the hour's first mail leaves the count: the test has run for seconds, not the hour.
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(3_500);
      expect(retryAfter).toBeLessThanOrEqual(3_600);
      // Over /graphql too, the operation's own time, in the header and the error's extensions.
      const graphql = await tenantKey.graphql('mutation($input: SendTestEmailInput!) { sendTestEmail(input: $input) { id } }', { input: { to: 'four@example.com' } });
      expect([graphql.status, graphql.body.errors?.[0]?.extensions?.code]).toEqual([429, 'rate_limited']);
      expect(Math.abs(Number(graphql.headers.get('retry-after')) - retryAfter)).toBeLessThanOrEqual(2);
      expect(graphql.body.errors?.[0]?.extensions?.['retryAfter']).toBe(Number(graphql.headers.get('retry-after')));
      expect((await limited.http.get('/email/deliveries?templateKey=test')).body.data).toHaveLength(2);
      // "Try again later" is no outcome to keep under an Idempotency-Key: its retry runs again, not replayed.
      const headers = { 'idempotency-key': crypto.randomUUID() };
      expect((await tenantKey.post('/email/test', { to: 'five@example.com' }, { headers })).status).toBe(429);
      const retried = await tenantKey.post('/email/test', { to: 'five@example.com' }, { headers });
      expect([retried.status, retried.headers.get('idempotent-replayed')]).toEqual([429, null]);
    } finally {
      await limited.close();
    }
  });

  it('holds to TEST_EMAILS_PER_HOUR under a burst of concurrent requests', async () => {
    const limited = await startTestApp({ testEmailsPerHour: 3 });
    try {
      const statuses = await Promise.all(Array.from({ length: 12 }, (_, i) => limited.http.post('/email/test', { to: `burst-${i}@example.com` }).then((r) => r.status)));
      expect(statuses.filter((status) => status === 201)).toHaveLength(3);
      expect(statuses.filter((status) => status === 429)).toHaveLength(9);
      expect((await limited.http.get('/email/deliveries?templateKey=test')).body.data).toHaveLength(3);
    } finally {
      await limited.close();
    }
  });

  it('over GraphQL answers the delivery as REST does', async () => {
    const response = await app.http.graphql('mutation($input: SendTestEmailInput!) { sendTestEmail(input: $input) { id status to templateKey } }', { input: { to: 'graph@example.com' } });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.sendTestEmail).toMatchObject({ status: 'queued', to: 'graph@example.com', templateKey: 'test' });
  });
});

describe('a tenant’s deletion', () => {
  it('deletes its deliveries, each with an audit record that keeps no body', async () => {
    const tenantId = await tenantWith(null);
    const queued = await sendTest(inTenant(tenantId, '/email/test'), 'gone@example.com');
    expect((await app.http.delete(`${appPath}/tenants/${tenantId}`)).status).toBe(204);
    expect((await app.http.get(`/email/deliveries/${queued.id}`)).status).toBe(404);
    const [record] = await app.gatehouse.services.orm.em.fork().find(AuditLog, { targetId: queued.id, action: 'email_delivery.deleted' }, { filters: false });
    expect(record?.before).toMatchObject({ templateKey: 'test', to: 'gone@example.com' });
    expect(JSON.stringify(record?.before)).not.toContain('test e-mail');
  });
});

describe('the built-in sender without SMTP_URL', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await startTestApp({ email: emailConfig({ smtpUrl: undefined }) });
  });
  afterAll(async () => bare?.close());

  it('keeps the mail in the outbox, sent nowhere, and says so in its note', async () => {
    const queued = await bare.http.post('/email/test', { to: 'ada@example.com' });
    expect(queued.status).toBe(201);
    const delivery = await settledDelivery(bare.http, `/email/deliveries/${queued.body.id as string}`);
    expect(delivery).toMatchObject({ status: 'sent', providerType: 'gatehouse', lastError: null });
    expect(delivery.note).toMatch(/SMTP_URL/);
    expect(delivery.text).toContain('This is a test e-mail');
  });
});
