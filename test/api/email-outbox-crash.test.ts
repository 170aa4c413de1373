import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, usingEmbeddedDatabase, type TestDatabase } from '../support/database.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/mail-receivers.ts';
import { freePort, killRunning, spawnService, type SpawnedService } from '../support/spawned-service.ts';

/**
 * The outbox across processes: mail queued, the service SIGKILLed while it is sending (its SMTP server holds every
 * mail unanswered), then started again: every mail is delivered, and exactly once, since none was accepted before the
 * kill. On PostgreSQL, two instances share one outbox and never send the same mail.
 */
const API_KEY = 'gatehouse-outbox-test-bootstrap-key-0123456789';
const MAILS = 30;

let database: TestDatabase;
let smtp: TestSmtpServer | undefined;
const services: SpawnedService[] = [];
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await killRunning(services.splice(0));
  await smtp?.close();
  await database?.drop();
});

async function started(smtpPort: number): Promise<string> {
  const port = await freePort();
  const databaseEnv: Record<string, string> = database.databaseUrl === undefined ? { DATABASE_URL: '', GATEHOUSE_DATA_DIR: database.dataDir } : { DATABASE_URL: database.databaseUrl };
  const service = spawnService({
    ...databaseEnv,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    REDIS_URL: '',
    GATEHOUSE_BOOTSTRAP_API_KEY: API_KEY,
    // Every mail of these tests is a test mail, beyond the default 20 an hour.
    TEST_EMAILS_PER_HOUR: String(MAILS * 10),
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}?security=none`,
    // Short attempts, so that a lease left by the killed process (twice an attempt) runs out soon on PostgreSQL; long
    // enough for an attempt on a loaded machine.
    EMAIL_SEND_TIMEOUT_MS: '3000',
    EMAIL_RETRY_BASE_MS: '100',
    EMAIL_POLL_MS: '200',
    EMAIL_MAX_ATTEMPTS: '1000',
  });
  services.push(service);
  await service.ready;
  return `http://127.0.0.1:${port}/api/v1`;
}

async function sendTest(base: string, to: string): Promise<{ id: string; messageId: string }> {
  const response = await fetch(`${base}/email/test`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
    body: JSON.stringify({ to }),
  });
  const body = await response.text();
  expect(response.status, `${body}\n${serviceErrors()}`).toBe(201);
  return JSON.parse(body) as { id: string; messageId: string };
}

/** The error lines the services logged, to show beside a failed request. */
const serviceErrors = () =>
  services
    .flatMap((service) => service.stdout().split('\n'))
    .filter((line) => line.includes('"level":50'))
    .join('\n');

/** Waits until every delivery of the outbox is sent; returns them. */
async function allSent(base: string, count: number): Promise<{ id: string; messageId: string; status: string }[]> {
  for (;;) {
    const response = await fetch(`${base}/email/deliveries?status=sent&pageSize=100`, { headers: { 'x-api-key': API_KEY } });
    expect(response.status).toBe(200);
    const page = (await response.json()) as { data: { id: string; messageId: string; status: string }[] };
    if (page.data.length >= count) return page.data;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** How many times the SMTP server accepted each Message-ID. */
function acceptedByMessageId(server: TestSmtpServer): Map<string, number> {
  const counts = new Map<string, number>();
  for (const mail of server.received) {
    const id = mail.header('message-id')!;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

describe('the outbox across processes', () => {
  it('delivers every mail queued before a SIGKILL mid-send, each exactly once, after a restart', async () => {
    let holding = true;
    smtp = await startSmtpServer({ hold: () => holding });
    const base = await started(smtp.port);
    const queued = await Promise.all(Array.from({ length: MAILS }, (_, i) => sendTest(base, `crash-${i}@example.com`)));
    // Killed while at least one mail is mid-send: claimed, its data at the server, unanswered.
    while (smtp.holding() === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    const [crashed] = services;
    crashed!.child.kill('SIGKILL');
    await crashed!.exited;
    expect(smtp.received).toEqual([]);

    holding = false;
    const again = await started(smtp.port);
    const sent = await allSent(again, MAILS);
    expect(sent.map((delivery) => delivery.id).sort()).toEqual(queued.map((delivery) => delivery.id).sort());
    const accepted = acceptedByMessageId(smtp);
    for (const delivery of queued) expect(accepted.get(delivery.messageId), delivery.messageId).toBe(1);
    expect(accepted.size).toBe(MAILS);
  }, 180_000);

  it.skipIf(usingEmbeddedDatabase())('sends each mail once with two instances on one PostgreSQL', async () => {
    smtp = await startSmtpServer({});
    const first = await started(smtp.port);
    const second = await started(smtp.port);
    const queued = await Promise.all(
      Array.from({ length: MAILS * 2 }, (_, i) => sendTest(i % 2 === 0 ? first : second, `pair-${i}@example.com`)),
    );
    await allSent(first, queued.length);
    const accepted = acceptedByMessageId(smtp);
    for (const delivery of queued) expect(accepted.get(delivery.messageId), delivery.messageId).toBe(1);
    expect(accepted.size).toBe(queued.length);
  }, 180_000);
});
