/**
 * The e-mail outbox under load: the service (its own process, on PostgreSQL) delivers through the built-in sender to
 * an SMTP server in this process (smtp-server, plain, no auth). Two figures:
 * - throughput: OUTBOX_MAILS mails written to the outbox at once (one INSERT), then delivered; the rate from the first
 *   mail received to the last;
 * - delay: mails queued through `POST /email/test` at OUTBOX_RATE a second, each timed from its row's `createdAt`
 *   (set in the transaction that commits it) to its arrival at the SMTP server.
 * Run alone with `node bench/outbox.ts`, or as part of `npm run bench`.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { createTestDatabase } from '../test/support/database.ts';
import { startServiceProcess } from './service-process.ts';

export interface OutboxFigures {
  readonly mails: number;
  readonly perSecond: number;
  /** Mails the service's CPU time could deliver per second, were it alone on the machine. */
  readonly cpuMsPerMail: number;
  readonly delayed: number;
  readonly delayP50: number;
  readonly delayP99: number;
  readonly rate: number;
}

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

const MAILS = positiveInteger('OUTBOX_MAILS', 5_000);
const DELAYED = positiveInteger('OUTBOX_DELAYED', 200);
const RATE = positiveInteger('OUTBOX_RATE', 20);

/** A sink that keeps when each Message-ID arrived. */
async function startSink(): Promise<{ port: number; arrivals: Map<string, number>; close(): Promise<void> }> {
  const arrivals = new Map<string, number>();
  const server = new SMTPServer({
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    logger: false,
    maxClients: 1_000,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 4_096) head += chunk.toString('utf8');
      });
      stream.on('end', () => {
        const id = /^message-id:\s*(\S+)/im.exec(head)?.[1];
        if (id !== undefined) arrivals.set(id, performance.timeOrigin + performance.now());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, arrivals, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function until(condition: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`outbox bench: ${what} did not happen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function outboxBench(): Promise<OutboxFigures> {
  const database = await createTestDatabase();
  if (database.databaseUrl === undefined) throw new Error('the outbox bench needs a PostgreSQL server');
  const sink = await startSink();
  const service = await startServiceProcess(database.databaseUrl, 1, { SMTP_URL: `smtp://127.0.0.1:${sink.port}?security=none` });
  const client = new pg.Client({ connectionString: database.databaseUrl });
  await client.connect();
  try {
    const headers = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
    const applications = (await (await fetch(`${service.baseUrl}/api/v1/applications`, { headers })).json()) as { data: { id: string }[] };
    const applicationId = applications.data[0]!.id;

    // Throughput: the outbox filled in one statement, as a burst of sign-ups would leave it, then drained.
    const host = new URL(service.baseUrl).hostname;
    const body = 'A bench mail.\n'.repeat(20);
    await client.query(
      `insert into email_delivery (application_id, id, template_key, to_address, subject, text_body, html_body, message_id, status, attempts,
                                   next_attempt_at, provider_type, created_at)
       select $1, gen_random_uuid(), 'test', 'bench-' || n || '@example.com', 'Bench mail ' || n, $2, '<p>' || $2 || '</p>',
              '<bench-' || n || '-' || $3 || '@' || $4 || '>', 'queued', 0, now(), 'gatehouse', now()
         from generate_series(1, $5) as n`,
      [applicationId, body, randomUUID(), host, MAILS],
    );
    const cpuBefore = await service.cpuMs();
    await until(() => sink.arrivals.size >= MAILS, `delivering ${MAILS} mails`, 600_000);
    const cpu = (await service.cpuMs()) - cpuBefore;
    const times = [...sink.arrivals.values()].sort((a, b) => a - b);
    const perSecond = ((times.length - 1) * 1000) / Math.max(1, times.at(-1)! - times[0]!);
    sink.arrivals.clear();

    // Delay: mails queued by requests at a steady rate, each timed from its commit to its arrival.
    const queued: { messageId: string; createdAt: number }[] = [];
    const start = performance.now();
    const requests: Promise<void>[] = [];
    for (let i = 0; i < DELAYED; i += 1) {
      const due = (i * 1000) / RATE - (performance.now() - start);
      if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
      requests.push(
        (async () => {
          const response = await fetch(`${service.baseUrl}/api/v1/email/test`, { method: 'POST', headers, body: JSON.stringify({ to: `delay-${i}@example.com` }) });
          if (response.status !== 201) throw new Error(`POST /email/test: ${response.status} ${await response.text()}`);
          const delivery = (await response.json()) as { messageId: string; createdAt: string };
          queued.push({ messageId: delivery.messageId, createdAt: Date.parse(delivery.createdAt) });
        })(),
      );
    }
    await Promise.all(requests);
    await until(() => queued.every(({ messageId }) => sink.arrivals.has(messageId)), `delivering the ${DELAYED} timed mails`, 120_000);
    const delays = queued.map(({ messageId, createdAt }) => sink.arrivals.get(messageId)! - createdAt).sort((a, b) => a - b);
    return {
      mails: MAILS,
      perSecond,
      cpuMsPerMail: cpu / MAILS,
      delayed: DELAYED,
      delayP50: percentile(delays, 50),
      delayP99: percentile(delays, 99),
      rate: RATE,
    };
  } finally {
    await client.end();
    await service.stop();
    await sink.close();
    await database.drop();
  }
}

export function outboxReport(figures: OutboxFigures): string[] {
  return [
    '',
    `E-mail outbox: ${figures.mails} mails queued at once, delivered through the built-in sender to a local SMTP server (1 process)`,
    `  delivered: ${figures.perSecond.toFixed(0)} mails/s (target ≥ 500/s), service CPU ${figures.cpuMsPerMail.toFixed(2)} ms/mail`,
    `  commit to delivery, ${figures.delayed} mails queued by POST /email/test at ${figures.rate}/s: p50 ${figures.delayP50.toFixed(0)} ms, p99 ${figures.delayP99.toFixed(0)} ms`,
  ];
}

if (import.meta.main) {
  process.env['TEST_DATABASE_URL'] ||= 'postgres://postgres@127.0.0.1:5432/test';
  process.stdout.write(`${outboxReport(await outboxBench()).join('\n')}\n`);
}
