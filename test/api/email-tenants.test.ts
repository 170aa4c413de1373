import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxWorker } from '../../src/domain/email/deliver.ts';
import { enqueueMail } from '../../src/domain/email/outbox.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { flowSender, quickEmailConfig, settledDelivery } from '../support/email-outbox.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/mail-receivers.ts';

/**
 * E-mail per tenant: which account each mail goes through (two SMTP servers, told apart by the account that signed
 * in and by the From), per-template fallback, and the guard that keeps an administrator's SMTP server off internal
 * addresses.
 */
describe('per-tenant providers and templates', () => {
  let app: TestApp;
  let appPath: string;
  let applicationSink: TestSmtpServer;
  let tenantSink: TestSmtpServer;
  let tenantA: string;
  let tenantB: string;

  const inTenant = (tenantId: string, path: string) => `${appPath}/tenants/${tenantId}${path}`;
  const smtpProvider = (port: number, user: string, fromAddress: string) => ({
    type: 'smtp', fromAddress, fromName: user, smtp: { host: '127.0.0.1', port, username: user, security: 'none' }, secrets: { password: `${user}-password` },
  });

  beforeAll(async () => {
    applicationSink = await startSmtpServer({ users: { 'app-account': 'app-account-password' } });
    tenantSink = await startSmtpServer({ users: { 'tenant-account': 'tenant-account-password' } });
    app = await startTestApp({ email: quickEmailConfig({ maxAttempts: 2, allowPrivateHosts: true }) });
    appPath = `/applications/${app.root.applicationId}`;
    tenantA = await app.createTenant('Tenant A');
    tenantB = await app.createTenant('Tenant B');
    expect((await app.http.put('/email/provider', smtpProvider(applicationSink.port, 'app-account', 'hello@app.test'))).status).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
    await applicationSink?.close();
    await tenantSink?.close();
  });

  /** Sends a test mail in the tenant's scope and answers which sink took it, through which account and From. */
  async function testMailOf(tenantId: string, to: string) {
    const queued = await app.http.post(inTenant(tenantId, '/email/test'), { to });
    expect(queued.status, JSON.stringify(queued.body)).toBe(201);
    const delivery = await settledDelivery(app.http, inTenant(tenantId, `/email/deliveries/${queued.body.id as string}`));
    expect(delivery).toMatchObject({ status: 'sent', tenantId, providerType: 'smtp', lastError: null });
    const sinks = [['application', applicationSink], ['tenant', tenantSink]] as const;
    const found = sinks.flatMap(([name, sink]) => sink.received.filter((mail) => mail.header('message-id') === delivery.messageId).map((mail) => ({ sink: name, user: mail.user, from: mail.from })));
    expect(found).toHaveLength(1);
    return found[0];
  }

  it('sends a tenant’s mail through its own account and From, the others’ through the application’s, and the switch back hides the override', async () => {
    expect((await app.http.patch(appPath, { tenancyConfig: { emailProviderScope: 'tenant' } })).status).toBe(200);
    const put = await app.http.put(inTenant(tenantA, '/email/provider'), smtpProvider(tenantSink.port, 'tenant-account', 'hello@tenant-a.test'));
    expect(put.status, JSON.stringify(put.body)).toBe(200);

    expect(await testMailOf(tenantA, 'a@example.com')).toEqual({ sink: 'tenant', user: 'tenant-account', from: 'hello@tenant-a.test' });
    expect(await testMailOf(tenantB, 'b@example.com')).toEqual({ sink: 'application', user: 'app-account', from: 'hello@app.test' });

    // Back to one provider for all: tenant A's override is hidden, its mail goes through the application's account.
    expect((await app.http.patch(appPath, { tenancyConfig: { emailProviderScope: 'application' } })).status).toBe(200);
    expect((await app.http.get(inTenant(tenantA, '/email/provider'))).body).toMatchObject({ source: 'inherited', fromAddress: 'hello@app.test' });
    expect(await testMailOf(tenantA, 'a@example.com')).toEqual({ sink: 'application', user: 'app-account', from: 'hello@app.test' });

    // And per tenant again: the override, kept while hidden, applies again.
    expect((await app.http.patch(appPath, { tenancyConfig: { emailProviderScope: 'tenant' } })).status).toBe(200);
    expect(await testMailOf(tenantA, 'a@example.com')).toEqual({ sink: 'tenant', user: 'tenant-account', from: 'hello@tenant-a.test' });
  });

  it('decides the account when the mail is sent: a mail queued before the switch goes out as the switch says', async () => {
    expect((await app.http.patch(appPath, { tenancyConfig: { emailProviderScope: 'tenant' } })).status).toBe(200);
    // The worker paused, so that the mail is surely still queued when the scope changes.
    const worker = app.gatehouse.services.outbox as OutboxWorker;
    await worker.stop();
    const queued = await app.http.post(inTenant(tenantA, '/email/test'), { to: 'late@example.com' });
    expect(queued.status).toBe(201);
    expect((await app.http.patch(appPath, { tenancyConfig: { emailProviderScope: 'application' } })).status).toBe(200);
    worker.start({ warn: () => undefined });
    const sent = await settledDelivery(app.http, inTenant(tenantA, `/email/deliveries/${queued.body.id as string}`));
    expect(sent).toMatchObject({ status: 'sent', providerType: 'smtp' });
    const mails = [...applicationSink.received, ...tenantSink.received].filter((mail) => mail.header('message-id') === sent.messageId);
    expect(mails.map((mail) => [mail.user, mail.from])).toEqual([['app-account', 'hello@app.test']]);
  });

  async function queuedSubject(templateKey: 'welcome' | 'password_reset', tenantId: string): Promise<string> {
    const em = app.gatehouse.services.orm.em.fork();
    const delivery = await em.transactional((tx) => enqueueMail(tx, flowSender(app), { templateKey, to: 'templates@example.com', tenantId, variables: { user: { name: 'Ada' } } }));
    return delivery.subject;
  }

  it('falls back per template: a tenant’s own template where it has one, the application’s for every other; hidden and back with the switch', async () => {
    const template = (subject: string) => ({ subject, html: `<p>${subject}</p>`, text: subject });
    expect((await app.http.put('/email/templates/welcome', template('App welcome {{ user.name }}'))).status).toBe(200);
    expect((await app.http.put('/email/templates/password_reset', template('App reset'))).status).toBe(200);
    expect((await app.http.patch(appPath, { tenancyConfig: { emailTemplatesScope: 'tenant' } })).status).toBe(200);
    expect((await app.http.put(inTenant(tenantA, '/email/templates/welcome'), template('A welcome {{ user.name }}'))).status).toBe(200);

    expect(await queuedSubject('welcome', tenantA)).toBe('A welcome Ada');
    expect(await queuedSubject('password_reset', tenantA)).toBe('App reset');
    expect(await queuedSubject('welcome', tenantB)).toBe('App welcome Ada');

    expect((await app.http.patch(appPath, { tenancyConfig: { emailTemplatesScope: 'application' } })).status).toBe(200);
    expect(await queuedSubject('welcome', tenantA)).toBe('App welcome Ada');
    // Per tenant again: the override, kept while hidden, is the tenant's mail again.
    expect((await app.http.patch(appPath, { tenancyConfig: { emailTemplatesScope: 'tenant' } })).status).toBe(200);
    expect(await queuedSubject('welcome', tenantA)).toBe('A welcome Ada');
    expect(await queuedSubject('password_reset', tenantA)).toBe('App reset');
  });
});

describe('an SMTP server at an internal address', () => {
  let app: TestApp;
  let sink: TestSmtpServer;
  let appPath: string;

  beforeAll(async () => {
    sink = await startSmtpServer({});
    // The default: EMAIL_ALLOW_PRIVATE_HOSTS unset.
    app = await startTestApp({ email: quickEmailConfig({ maxAttempts: 2, allowPrivateHosts: false }) });
    appPath = `/applications/${app.root.applicationId}`;
    expect((await app.http.patch(appPath, { tenancyConfig: { emailProviderScope: 'tenant' } })).status).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });

  const provider = (host: string) => ({ type: 'smtp', fromAddress: 'hello@acme.test', smtp: { host, port: sink.port, security: 'none' } });

  it('is refused when saved, for the application and for a tenant, and nothing is stored', async () => {
    const tenantId = await app.createTenant('Guarded');
    for (const host of ['127.0.0.1', '169.254.169.254', '10.0.0.5', '192.168.1.1', '172.16.0.1', '100.64.0.1', '0.0.0.0', 'localhost', 'mail.localhost', '127.1', '0x7f000001', '2130706433', '10.1']) {
      for (const path of ['/email/provider', `${appPath}/tenants/${tenantId}/email/provider`]) {
        const response = await app.http.put(path, provider(host));
        expect(response.status, `${host} at ${path}`).toBe(422);
        expect(response.body).toMatchObject({ code: 'validation_error', field: 'smtp.host' });
      }
    }
    expect((await app.http.get(`${appPath}/tenants/${tenantId}/email/provider`)).body).toMatchObject({ type: 'gatehouse', source: 'inherited' });
    // A public address is accepted.
    expect((await app.http.put(`${appPath}/tenants/${tenantId}/email/provider`, provider('93.184.215.14'))).status).toBe(200);
  });

  it('takes a public IPv6 address, bare or in brackets, stored bare in its shortest form; refuses the internal ranges of IPv6', async () => {
    const tenantId = await app.createTenant('IPv6');
    const tenantProvider = `${appPath}/tenants/${tenantId}/email/provider`;
    for (const [given, stored] of [['2606:4700:4700::1111', '2606:4700:4700::1111'], ['[2606:4700:4700:0:0:0:0:1001]', '2606:4700:4700::1001'], ['[2A00:1450:4001::1B]', '2a00:1450:4001::1b'], ['64:ff9b::5db8:d70e', '64:ff9b::5db8:d70e']]) {
      const saved = await app.http.put(tenantProvider, provider(given!));
      expect(saved.status, given).toBe(200);
      expect(saved.body.smtp, given).toMatchObject({ host: stored });
    }
    const internal = [
      '::1', '[::1]', '::', 'fc00::1', '[fd12:3456::25]', 'fe80::1', 'febf::1', 'ff02::1', '::ffff:127.0.0.1', '[::ffff:a9fe:a9fe]', '::ffff:10.0.0.5',
      '64:ff9b::a00:5', '64:ff9b::169.254.169.254', '64:ff9b:1::1', '2001:db8::25', '[2001:db8::25]', '::127.0.0.1', '2002:a00:5::1', '2001::1',
    ];
    for (const host of internal) {
      const response = await app.http.put(tenantProvider, provider(host));
      expect(response.status, host).toBe(422);
      expect(response.body, host).toEqual({ code: 'validation_error', field: 'smtp.host', message: 'smtp.host may not be a loopback, private, link-local or other internal address' });
    }
    for (const host of ['[2606:4700::1', '2606:4700::1]', '[[2606:4700::1]]', 'fe80::1%eth0', '2606:4700::1::1', '[93.184.215.14]']) {
      const response = await app.http.put(tenantProvider, provider(host));
      expect(response.status, host).toBe(422);
      expect(response.body, host).toMatchObject({ code: 'validation_error', field: 'smtp.host' });
    }
    expect((await app.http.get(tenantProvider)).body.smtp).toMatchObject({ host: '64:ff9b::5db8:d70e' });
  });

  it('fails the mail when the name resolves inside at send time, without connecting', async () => {
    const tenantId = await app.createTenant('Rebound');
    // A name, so it is saved; this machine's own resolves to it (loopback, or a container's private address).
    const host = hostname().toLowerCase();
    expect((await app.http.put(`${appPath}/tenants/${tenantId}/email/provider`, provider(host))).status).toBe(200);
    const queued = await app.http.post(`${appPath}/tenants/${tenantId}/email/test`, { to: 'ada@example.com' });
    expect(queued.status).toBe(201);
    const delivery = await settledDelivery(app.http, `${appPath}/tenants/${tenantId}/email/deliveries/${queued.body.id as string}`);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, providerType: 'smtp' });
    expect(delivery.lastError).toMatch(new RegExp(`^smtp: ${host} resolves to [\\d.:a-f]+, an internal address; the service does not connect there \\(EMAIL_ALLOW_PRIVATE_HOSTS\\)$`));
    expect(sink.received).toEqual([]);
  });
});
