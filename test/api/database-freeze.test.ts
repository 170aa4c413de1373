import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startGatehouse, type Gatehouse } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createTestDatabase, usingEmbeddedDatabase, type TestDatabase } from '../support/database.ts';
import { TcpLink } from '../support/redis-link.ts';

/**
 * PostgreSQL that stops answering on open connections (a partition, a frozen server or proxy): /readyz says 503 within
 * its bound instead of hanging, and says ready again once the database answers. PostgreSQL only: the embedded database
 * is in-process and cannot freeze.
 */
describe.skipIf(usingEmbeddedDatabase())('PostgreSQL stops answering, its connections open', () => {
  let database: TestDatabase;
  let link: TcpLink;
  let gatehouse: Gatehouse;
  let baseUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const direct = new URL(database.databaseUrl!);
    link = new TcpLink(direct);
    await link.open();
    const proxied = new URL(direct);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(link.port);
    const config = loadConfig({ PORT: '0', REDIS_URL: '', LOG_LEVEL: 'silent' }, { databaseUrl: proxied.toString(), dataDir: database.dataDir, host: '127.0.0.1', publicUrl: 'http://gatehouse.test' });
    gatehouse = await startGatehouse(config, { logger: false });
    await gatehouse.server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = gatehouse.server.app.server.address() as { port: number };
    baseUrl = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    link?.thaw();
    await gatehouse?.close();
    await link?.cut();
    await database?.drop();
  });

  /** The status, or 'no answer' after `ms`: a probe waiting on the database fails the test rather than hanging it. */
  async function readyz(ms: number): Promise<number | 'no answer'> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), ms);
    try {
      return (await fetch(`${baseUrl}/readyz`, { signal: controller.signal })).status;
    } catch {
      return 'no answer';
    } finally {
      clearTimeout(timer);
    }
  }

  it('/readyz answers 503 within its bound while frozen, again and again, and 200 once the database answers', async () => {
    expect(await readyz(10_000)).toBe(200);
    link.freeze();
    // Generous for a loaded machine: what it catches is waiting for ever (the probe's own bound is 2 s).
    expect(await readyz(10_000)).toBe(503);
    // Several at once, while the first probe still waits: each answers.
    expect(await Promise.all([readyz(10_000), readyz(10_000), readyz(10_000)])).toEqual([503, 503, 503]);
    link.thaw();
    let status: number | 'no answer' = 'no answer';
    for (let attempt = 0; attempt < 50 && status !== 200; attempt += 1) {
      status = await readyz(10_000);
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(200);
  });

  it('/readyz answers 200 again as soon as new connections work, whatever the connections the stall caught still wait for', async () => {
    expect(await readyz(10_000)).toBe(200);
    link.freeze();
    expect(await readyz(10_000)).toBe(503);
    // Connections opened during the stall, caught by it too.
    expect(await Promise.all([readyz(10_000), readyz(10_000)])).toEqual([503, 503]);
    link.heal();
    // Each attempt takes a probe's 2 s bound at most: 5 of them end far before a caught query's own timeout (65 s).
    const statuses: (number | 'no answer')[] = [];
    for (let attempt = 0; attempt < 5 && statuses.at(-1) !== 200; attempt += 1) statuses.push(await readyz(10_000));
    expect(statuses.at(-1)).toBe(200);
    link.thaw();
  });
});

/** A standby, or a database set read-only, answers but would fail every sign-in's write: /readyz says 503 until it takes
 *  writes again. */
describe.skipIf(usingEmbeddedDatabase())('PostgreSQL that takes no writes', () => {
  let database: TestDatabase;
  let gatehouse: Gatehouse;
  let baseUrl: string;
  const databaseName = () => new URL(database.databaseUrl!).pathname.slice(1);
  const onAdmin = async (sql: string) => {
    const admin = new pg.Client({ connectionString: process.env['TEST_DATABASE_URL'] });
    await admin.connect();
    try {
      await admin.query(sql);
    } finally {
      await admin.end();
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = loadConfig({ PORT: '0', REDIS_URL: '', LOG_LEVEL: 'silent' }, { databaseUrl: database.databaseUrl, dataDir: database.dataDir, host: '127.0.0.1', publicUrl: 'http://gatehouse.test' });
    gatehouse = await startGatehouse(config, { logger: false });
    await gatehouse.server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = gatehouse.server.app.server.address() as { port: number };
    baseUrl = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await gatehouse?.close();
    await database?.drop();
  });

  it('/readyz answers 503 while new connections are read-only, and 200 once they take writes again', async () => {
    expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
    await onAdmin(`alter database ${databaseName()} set default_transaction_read_only = on`);
    const refused = await fetch(`${baseUrl}/readyz`);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ status: 'unavailable' });
    await onAdmin(`alter database ${databaseName()} reset default_transaction_read_only`);
    expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
  });
});
