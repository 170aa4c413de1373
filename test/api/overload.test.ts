import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { usingEmbeddedDatabase } from '../support/database.ts';

/**
 * No database connection came free within the pool's wait (DATABASE_TIMEOUTS.connectMs): the service is overloaded,
 * not broken. 503 `service_unavailable` with Retry-After on both transports, whichever layer waited (a resolver's
 * statement, the authentication of credentials not yet cached), and the request's line is `warn` with the pool's counts.
 */
let app: TestApp;
const logged: string[] = [];

beforeAll(async () => {
  const quiet = { ...loadConfig({}).email, pollMs: 3_600_000 };
  app = await startTestApp({ databasePoolMax: 1, email: quiet, auditRetentionEveryMs: 0 }, { logStream: { write: (line) => logged.push(line) } });
});
afterAll(async () => app?.close());

const OVERLOADED = { code: 'service_unavailable', message: 'The service is overloaded: try again shortly' };

// The embedded database's pool waits without a limit (it is in-process): only a database server's times out.
describe.skipIf(usingEmbeddedDatabase())('on PostgreSQL', () => {
  it('a wait for a connection past the pool’s limit is 503 with Retry-After, logged at warn with the pool’s counts; the next request is served', async () => {
    const uncached = await app.bootstrapAnother();
    expect((await app.http.get('/users')).status).toBe(200);
    logged.length = 0;
    // The pool's one connection, held in a transaction for longer than the pool's wait.
    const holder = app.gatehouse.services.orm.em.fork();
    await holder.begin();
    let answers;
    try {
      // Pages not asked before: no answer kept for them (the REST read cache).
      answers = await Promise.all([app.http.get('/users?pageSize=3'), app.http.graphql('{ users(pageSize: 3) { data { id } } }'), app.as({ apiKey: uncached.apiKey }).get('/users?pageSize=4')]);
    } finally {
      await holder.rollback();
    }
    const [rest, graphql, authenticating] = answers;
    for (const answer of [rest, authenticating]) {
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual(OVERLOADED);
      expect(answer.headers.get('retry-after')).toBe('2');
    }
    expect(graphql.status).toBe(503);
    expect(graphql.body.errors).toEqual([expect.objectContaining({ message: OVERLOADED.message, extensions: { code: OVERLOADED.code, status: 503 } })]);
    expect(graphql.headers.get('retry-after')).toBe('2');

    const lines = logged.map((line) => JSON.parse(line) as { level: number; msg: string; status?: number; overload?: string; reason?: string });
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    const completed = lines.filter((line) => line.msg === 'request completed');
    expect(completed).toHaveLength(3);
    for (const line of completed) {
      expect(line).toMatchObject({ level: 40, status: 503, reason: 'service_unavailable' });
      expect(line.overload).toMatch(/^database pool exhausted: no connection came free in \d+ ms \(1 of 1 open, 0 idle, \d+ more statements waiting\)$/);
    }

    expect((await app.http.get('/users')).status).toBe(200);
    expect((await app.as({ apiKey: uncached.apiKey }).get('/users')).status).toBe(200);
  }, 30_000);
});
