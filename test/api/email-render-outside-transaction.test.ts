import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import type * as Render from '../../src/domain/email/render.ts';

/**
 * A mail waits for a render worker (src/domain/email/render.ts), for long under load. `POST /email/test` renders before
 * its transaction, so that waiting holds no database connection (under load a held one made other requests time out
 * waiting for the pool: 500). Each render notes how many transactions the request's statements hold open at that moment.
 */
const probe = vi.hoisted(() => ({ onRender: (): void => undefined }));

vi.mock('../../src/domain/email/render.ts', async (importOriginal) => {
  const original = await importOriginal<typeof Render>();
  return {
    ...original,
    renderTemplate: (...args: Parameters<typeof original.renderTemplate>) => {
      probe.onRender();
      return original.renderTemplate(...args);
    },
  };
});

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

/** Transactions open at the end of the statements logged so far: begun (or a savepoint taken), not yet ended. */
const openTransactions = () =>
  app.queries.reduce((open, sql) => open + (/^(begin|savepoint)\b/i.test(sql) ? 1 : /^(commit|rollback)\b/i.test(sql) ? -1 : 0), 0);

/** The open transactions at each render of `request`. */
async function rendersOf(request: () => Promise<{ status: number }>, status: number): Promise<number[]> {
  const seen: number[] = [];
  probe.onRender = () => void seen.push(openTransactions());
  try {
    app.queries.length = 0;
    expect((await request()).status).toBe(status);
  } finally {
    probe.onRender = () => undefined;
  }
  return seen;
}

describe('rendering a mail', () => {
  it('POST /email/test renders its template with no transaction open, then queues the mail', async () => {
    expect(await rendersOf(() => app.http.post('/email/test', { to: 'ada@example.com' }), 201)).toEqual([0]);
    // Queued with its audit record, in one transaction.
    expect(app.queries.filter((sql) => /^begin\b/i.test(sql))).toHaveLength(1);
    const list = await app.http.get('/email/deliveries?templateKey=test');
    expect(list.body.data).toMatchObject([{ to: 'ada@example.com', status: expect.any(String), subject: expect.stringContaining('Test e-mail from') }]);
  });

  it('the probe sees a transaction where one is open: an invitation renders its link in the transaction that issues it', async () => {
    const tenantId = await app.createTenant('Probe');
    const path = `/applications/${app.root.applicationId}/tenants/${tenantId}/invitations`;
    expect(await rendersOf(() => app.http.post(path, { email: 'invitee@example.com' }), 201)).toEqual([1]);
  });

  it('a refused address renders nothing and queues nothing', async () => {
    // The outbox writes what it delivered in a transaction of its own (its `begin` bears no tag): the earlier tests'
    // mails are out first, so that the statements logged are the request's.
    await expect.poll(async () => (await app.http.get('/email/deliveries?pageSize=100')).body.data.filter((mail: { status: string }) => mail.status === 'queued'), { timeout: 20_000 }).toEqual([]);
    expect(await rendersOf(() => app.http.post('/email/test', { to: 'not an address' }), 422)).toEqual([]);
    expect(app.queries.filter((sql) => /^(begin|insert)\b/i.test(sql))).toEqual([]);
  });
});
