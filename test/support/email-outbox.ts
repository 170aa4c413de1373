import { expect } from 'vitest';
import { loadConfig, type EmailConfig } from '../../src/config.ts';
import type { OutboxWorker } from '../../src/domain/email/deliver.ts';
import type { MailSender } from '../../src/domain/email/outbox.ts';
import type { TestApp } from './app.ts';
import type { HttpClient } from './http.ts';

/** The e-mail settings with quick retries and short attempts, so that a test sees every attempt; the poll finds what a wake missed. */
export function quickEmailConfig(overrides: Partial<EmailConfig>): EmailConfig {
  return { ...loadConfig({}).email, sendTimeoutMs: 1_500, retryBaseMs: 50, pollMs: 200, ...overrides };
}

/** The delivery at `path` once the worker has settled it (sent or failed), read through the API. */
export async function settledDelivery(client: HttpClient, path: string): Promise<Record<string, any>> {
  for (;;) {
    const response = await client.get(path);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    if (response.body.status !== 'queued') return response.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The sender of a mail a flow enqueues in the root application, as the system, in a request of its own. */
export const flowSender = (app: TestApp): MailSender => ({
  applicationId: app.root.applicationId,
  tenantId: null,
  requestId: crypto.randomUUID(),
  principal: { actor: { type: 'system', id: 'test-flow' } },
  services: app.gatehouse.services,
});

/** `work` done while `app`'s outbox sends nothing: its mails are still queued when it ends. */
export async function outboxStoppedDuring<T>(app: TestApp, work: () => Promise<T>): Promise<T> {
  const outbox = app.gatehouse.services.outbox as OutboxWorker;
  await outbox.stop();
  try {
    return await work();
  } finally {
    outbox.start({ warn: () => undefined });
  }
}
