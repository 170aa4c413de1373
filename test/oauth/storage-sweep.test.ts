import { randomUUID } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ormOptions } from '../../src/db/orm.ts';
import { StorageSweepJob, sweepStorage } from '../../src/oidc/storage-sweep.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/**
 * The OP storage's sweep (expired models, browser sessions, revoked sign-ins, hosted-flow rows; grants of clients gone)
 * is the service's own job on a timer: no request waits for it.
 */
let app: TestApp;

const sql = <T = unknown>(query: string, params: unknown[] = []) => app.gatehouse.services.orm.em.getConnection().execute<T[]>(query, params);
const expiredModel = async () => {
  const id = `expired-${randomUUID()}`;
  await sql(`insert into oidc_model (model, id, payload, expires_at) values ('Session', ?, '{}', now() - interval '1 minute')`, [id]);
  return id;
};
const modelExists = async (id: string) => (await sql(`select 1 from oidc_model where model = 'Session' and id = ?`, [id])).length === 1;
/** Grants of a client whose row is gone (a deletion that ended none), of a user of the root application. */
const grantsOfClientGone = async (count: number) => {
  const userId = await app.createUser(`swept-${randomUUID()}@example.com`);
  const clientId = randomUUID();
  const grants = Array.from({ length: count }, () => randomUUID());
  for (const id of grants) {
    await sql(`insert into oidc_model (model, id, application_id, payload) values ('Grant', ?, ?, ?::jsonb)`, [
      id,
      app.root.applicationId,
      JSON.stringify({ clientId, accountId: userId, iat: Math.floor(Date.now() / 1000) }),
    ]);
  }
  return grants;
};
const revocations = (grants: readonly string[]) =>
  sql<{ target_id: string; actor_type: string; actor_id: string }>(
    `select target_id, actor_type, actor_id from audit_log where action = 'grant.revoked' and target_id in (?) order by target_id`,
    [grants],
  );
const swept = (grants: readonly string[]) => [...grants].sort().map((id) => ({ target_id: id, actor_type: 'system', actor_id: 'deleted-client-grants' }));

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
});
afterAll(async () => app?.close());
afterEach(() => void vi.useRealTimers());

describe('the sweep', () => {
  it('never runs in a request, however long since the last run', async () => {
    const expired = await expiredModel();
    // Past any sweep interval, as far as a request can tell the time.
    vi.setSystemTime(Date.now() + 24 * 60 * 60_000);
    app.queries.length = 0;
    const discovery = await fetch(`${app.gatehouse.services.config.publicUrl}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(app.queries.filter((query) => /expires_at < now\(\)/.test(query))).toEqual([]);
    expect(await modelExists(expired)).toBe(true);
  });

  it('runs on its own timer, as the service’s job: expired rows go, grants of clients gone end recorded by the system', async () => {
    const expired = await expiredModel();
    const grants = await grantsOfClientGone(2);
    const { orm, invalidations } = app.gatehouse.services;
    const logged: object[] = [];
    const job = new StorageSweepJob(orm, invalidations, 50);
    job.start({ info: (details) => logged.push(details), error: (details) => logged.push(details) });
    try {
      for (let waited = 0; (await revocations(grants)).length < grants.length; waited += 50) {
        if (waited > 20_000) throw new Error('the job did not run');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await job.stop();
    }
    expect(await modelExists(expired)).toBe(false);
    expect(await revocations(grants)).toEqual(swept(grants));
    expect(logged).toContainEqual({ clientsGone: expect.any(Number) });
  });

  it('a failed run (the database unreachable) is logged, and the next tries again', async () => {
    const unreachable = new MikroORM(ormOptions('postgres://postgres@127.0.0.1:1/none', 1, { bounds: 'connect' }));
    const failures: { details: object; message: string }[] = [];
    const job = new StorageSweepJob(unreachable, app.gatehouse.services.invalidations, 20);
    job.start({ info: () => undefined, error: (details, message) => failures.push({ details, message }) });
    try {
      for (let waited = 0; failures.length < 2; waited += 20) {
        if (waited > 20_000) throw new Error('the job did not run twice');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await job.stop();
      await unreachable.close(true);
    }
    expect(failures[0]).toEqual({ details: { err: expect.objectContaining({ message: expect.stringMatching(/ECONNREFUSED/) }) }, message: 'storage-sweep failed; the next run tries again' });
  });

  it('two instances sweeping at once end each grant once, recorded once', async () => {
    const grants = await grantsOfClientGone(5);
    const { orm, invalidations } = app.gatehouse.services;
    await Promise.all([sweepStorage(orm, invalidations), sweepStorage(orm, invalidations)]);
    expect(await revocations(grants)).toEqual(swept(grants));
    expect(await sql(`select 1 from oidc_model where model = 'Grant' and id in (?)`, [grants])).toEqual([]);
  });
});
