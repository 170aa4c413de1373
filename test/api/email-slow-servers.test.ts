import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_PLACES, type OutboxWorker } from '../../src/domain/email/deliver.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { quickEmailConfig, settledDelivery } from '../support/email-outbox.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/mail-receivers.ts';

/**
 * SMTP servers that never finish talking: one attempt has one deadline (EMAIL_SEND_TIMEOUT_MS) over everything it
 * waits for, past which its connection is destroyed and the attempt fails (retried); no attempt waits for another, so
 * one tenant's stalling server holds up no one else's mail; `stop()` does not wait for a stalled attempt.
 */

/** A TCP server that speaks just enough SMTP to keep a client waiting, counting the connections it holds. */
interface StallingServer {
  readonly port: number;
  /** Connections accepted so far. */
  opened(): number;
  /** Connections still open. */
  open(): number;
  close(): Promise<void>;
}

/**
 * `trickle`: greets, then answers EHLO with continuation lines (`250-…`) every 300 ms and never the last one, so the
 * connection is never idle. `silent`: accepts the connection and never greets.
 */
async function startStallingServer(mode: 'trickle' | 'silent'): Promise<StallingServer> {
  const sockets = new Set<Socket>();
  let opened = 0;
  const server: Server = createServer((socket) => {
    opened += 1;
    sockets.add(socket);
    let talking: NodeJS.Timeout | undefined;
    socket.on('close', () => {
      clearInterval(talking);
      sockets.delete(socket);
    });
    socket.on('error', () => undefined);
    if (mode === 'silent') return;
    socket.write('220 stall.test ESMTP\r\n');
    socket.once('data', () => {
      talking = setInterval(() => socket.write('250-stall.test has more to say\r\n'), 300);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    opened: () => opened,
    open: () => sockets.size,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

// Long enough that the healthy mail goes out before any stalled attempt ends, on a loaded machine.
const DEADLINE_MS = 10_000;
const MAX_ATTEMPTS = 2;

const smtpProvider = (port: number, fromAddress: string) => ({ type: 'smtp', fromAddress, smtp: { host: '127.0.0.1', port, security: 'none' } });

/** An application whose tenants each send through their own provider. */
async function perTenantApp(app: TestApp): Promise<string> {
  const appPath = `/applications/${app.root.applicationId}`;
  expect((await app.http.patch(appPath, { tenancyConfig: { emailProviderScope: 'tenant' } })).status).toBe(200);
  return appPath;
}

async function tenantSendingTo(app: TestApp, appPath: string, port: number, name: string): Promise<string> {
  const tenantId = await app.createTenant(name);
  const put = await app.http.put(`${appPath}/tenants/${tenantId}/email/provider`, smtpProvider(port, `hello@${name}.test`));
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return tenantId;
}

async function queueTestMail(app: TestApp, path: string): Promise<{ id: string; messageId: string }> {
  const queued = await app.http.post(`${path}/email/test`, { to: 'ada@example.com' });
  expect(queued.status, JSON.stringify(queued.body)).toBe(201);
  return queued.body as { id: string; messageId: string };
}

describe('stalling SMTP servers', () => {
  let app: TestApp;
  let appPath: string;
  let sink: TestSmtpServer;
  let trickle: StallingServer;
  let silent: StallingServer;
  let builtInTrickle: StallingServer;

  beforeAll(async () => {
    sink = await startSmtpServer({});
    trickle = await startStallingServer('trickle');
    silent = await startStallingServer('silent');
    builtInTrickle = await startStallingServer('trickle');
    app = await startTestApp({
      email: quickEmailConfig({
        sendTimeoutMs: DEADLINE_MS,
        maxAttempts: MAX_ATTEMPTS,
        allowPrivateHosts: true,
        smtpUrl: `smtp://127.0.0.1:${builtInTrickle.port}?security=none`,
      }),
    });
    appPath = await perTenantApp(app);
  });
  afterAll(async () => {
    await app?.close();
    for (const server of [sink, trickle, silent, builtInTrickle]) await server?.close();
  });

  it('hold up no other mail, and each attempt ends at its deadline with its connection destroyed', async () => {
    const trickling = await tenantSendingTo(app, appPath, trickle.port, 'trickling');
    const silentTenant = await tenantSendingTo(app, appPath, silent.port, 'silent');
    const healthy = await tenantSendingTo(app, appPath, sink.port, 'healthy');
    // A tenant without a provider of its own: the application's, the built-in sender, whose SMTP_URL stalls too.
    const builtInTenant = await app.createTenant('built-in');

    const stalled = [
      { server: trickle, path: `${appPath}/tenants/${trickling}`, providerType: 'smtp' },
      { server: silent, path: `${appPath}/tenants/${silentTenant}`, providerType: 'smtp' },
      { server: builtInTrickle, path: `${appPath}/tenants/${builtInTenant}`, providerType: 'gatehouse' },
    ];
    const stalledMails = [];
    for (const { server, path, providerType } of stalled) {
      stalledMails.push({ server, path, providerType, mail: await queueTestMail(app, path) });
      await expect.poll(() => server.opened()).toBe(1);
    }

    // Queued while every stalled attempt holds its connection: sent at once, not after them.
    const healthyMail = await queueTestMail(app, `${appPath}/tenants/${healthy}`);
    const sent = await settledDelivery(app.http, `${appPath}/tenants/${healthy}/email/deliveries/${healthyMail.id}`);
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(sink.received.map((mail) => mail.header('message-id'))).toEqual([healthyMail.messageId]);
    expect(stalled.map(({ server }) => [server.opened(), server.open()])).toEqual([[1, 1], [1, 1], [1, 1]]);

    // Each stalled mail: retried once its first attempt ran out, failed after the last, every connection destroyed.
    for (const { server, path, providerType, mail } of stalledMails) {
      const delivery = await settledDelivery(app.http, `${path}/email/deliveries/${mail.id}`);
      expect(delivery).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, sentAt: null, providerType });
      expect(delivery.lastError).toBe(`${providerType}: no complete answer within ${DEADLINE_MS} ms`);
      expect(server.opened()).toBe(MAX_ATTEMPTS);
      await expect.poll(() => server.open()).toBe(0);
    }
  });
});

describe('an owner with more mail due than there are places, at a stalling server', () => {
  let app: TestApp;
  let sink: TestSmtpServer;
  let silent: StallingServer;

  beforeAll(async () => {
    sink = await startSmtpServer({});
    silent = await startStallingServer('silent');
    // A deadline far beyond the test: a place the stalled mail holds is not freed meanwhile.
    app = await startTestApp({ email: quickEmailConfig({ sendTimeoutMs: 120_000, allowPrivateHosts: true }) });
  });
  afterAll(async () => {
    await app?.close();
    for (const server of [sink, silent]) await server?.close();
  });

  it('holds its share of the places only, and another owner’s mail goes out meanwhile', async () => {
    const appPath = await perTenantApp(app);
    // The application's provider stalls: its owner is the application, whichever of its tenants' mail it carries.
    expect((await app.http.put(`${appPath}/email/provider`, smtpProvider(silent.port, 'hello@stalling.test'))).status).toBe(200);
    const throughApplication = [await app.createTenant('first'), await app.createTenant('second')].map((id) => `${appPath}/tenants/${id}`);
    const healthy = `${appPath}/tenants/${await tenantSendingTo(app, appPath, sink.port, 'healthy')}`;
    for (let i = 0; i < OWNER_PLACES + 8; i++) await queueTestMail(app, throughApplication[i % 2]!);
    await expect.poll(() => silent.opened(), { timeout: 30_000 }).toBe(OWNER_PLACES);

    const mail = await queueTestMail(app, healthy);
    expect(await settledDelivery(app.http, `${healthy}/email/deliveries/${mail.id}`)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(silent.opened()).toBe(OWNER_PLACES);
  });
});

describe('stopping the outbox during a stalled attempt', () => {
  let app: TestApp;
  let trickle: StallingServer;

  beforeAll(async () => {
    trickle = await startStallingServer('trickle');
    // A deadline far beyond how long stop() may take.
    app = await startTestApp({ email: quickEmailConfig({ sendTimeoutMs: 120_000, allowPrivateHosts: true }) });
  });
  afterAll(async () => {
    await app?.close();
    await trickle?.close();
  });

  it('returns promptly, the connection destroyed and the mail queued for the next run, its lease released, the attempt not counted', async () => {
    const appPath = await perTenantApp(app);
    const tenantId = await tenantSendingTo(app, appPath, trickle.port, 'trickling');
    const path = `${appPath}/tenants/${tenantId}`;
    const mail = await queueTestMail(app, path);
    await expect.poll(() => trickle.opened()).toBe(1);
    // Leased for twice the attempt's deadline (2 × 120 s, less the moments since the claim).
    const [lease] = await app.sql<{ seconds: number }>('select extract(epoch from claimed_until - now())::float8 as seconds from email_delivery where id = ?', [mail.id]);
    expect(lease!.seconds).toBeGreaterThan(200);

    const worker = app.gatehouse.services.outbox as OutboxWorker;
    const stopping = Date.now();
    await worker.stop();
    expect(Date.now() - stopping).toBeLessThan(30_000);

    await expect.poll(() => trickle.open()).toBe(0);
    const delivery = (await app.http.get(`${path}/email/deliveries/${mail.id}`)).body;
    expect(delivery).toMatchObject({ status: 'queued', attempts: 0, sentAt: null, lastError: 'interrupted: the service stopped during this attempt' });
    const [row] = await app.sql<{ claimed_until: Date | null }>('select claimed_until from email_delivery where id = ?', [mail.id]);
    expect(row).toEqual({ claimed_until: null });
  });
});
