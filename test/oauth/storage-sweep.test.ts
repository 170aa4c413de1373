import { randomUUID } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ormOptions } from '../../src/db/orm.ts';
import { StorageSweepJob, sweepStorage } from '../../src/oidc/storage-sweep.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { usingEmbeddedDatabase } from '../support/database.ts';

/**
 * The OP storage's sweep (expired models, browser sessions, revoked sign-ins, hosted-flow rows; grants of clients gone)
 * is the service's own job on a timer: no request waits for it.
 */
let app: TestApp;

const expiredModel = async () => {
  const id = `expired-${randomUUID()}`;
  await app.sql(`insert into oidc_model (model, id, payload, expires_at) values ('Session', ?, '{}', now() - interval '1 minute')`, [id]);
  return id;
};
const modelExists = async (id: string) => (await app.sql(`select 1 from oidc_model where model = 'Session' and id = ?`, [id])).length === 1;
/** Grants of a client whose row is gone (a deletion that ended none), of a user of the root application. */
const grantsOfClientGone = async (count: number, clientId = randomUUID()) => {
  const userId = await app.createUser(`swept-${randomUUID()}@example.com`);
  const grants = Array.from({ length: count }, () => randomUUID());
  for (const id of grants) {
    await app.sql(`insert into oidc_model (model, id, application_id, payload) values ('Grant', ?, ?, ?::jsonb)`, [
      id,
      app.root.applicationId,
      JSON.stringify({ clientId, accountId: userId, iat: Math.floor(Date.now() / 1000) }),
    ]);
  }
  return grants;
};
const revocations = (grants: readonly string[]) =>
  app.sql<{ target_id: string; actor_type: string; actor_id: string }>(
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
    const logged: object[] = [];
    const job = new StorageSweepJob(app.gatehouse.services, 50);
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

  it('runs as its instance starts, not only an interval later: an instance restarted more often than that still sweeps', async () => {
    const expired = await expiredModel();
    const grants = await grantsOfClientGone(2);
    const job = new StorageSweepJob(app.gatehouse.services);
    job.start({ info: () => undefined, error: () => undefined });
    try {
      await job.settled();
      expect(await modelExists(expired)).toBe(false);
      expect(await revocations(grants)).toEqual(swept(grants));
    } finally {
      await job.stop();
    }
  });

  it('an instance that does not run it (every 0 ms) does not sweep as it starts either', async () => {
    const expired = await expiredModel();
    const job = new StorageSweepJob(app.gatehouse.services, 0);
    job.start({ info: () => undefined, error: () => undefined });
    await job.settled();
    await job.stop();
    expect(await modelExists(expired)).toBe(true);
  });

  it('a failed run (the database unreachable) is logged, and the next tries again', async () => {
    const unreachable = new MikroORM(ormOptions('postgres://postgres@127.0.0.1:1/none', 1, { bounds: 'connect' }));
    const failures: { details: object; message: string }[] = [];
    const job = new StorageSweepJob({ ...app.gatehouse.services, orm: unreachable }, 20);
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

  it('a deleted client whose grants cannot end (a persistent failure) is logged, and the run goes on to the others', async () => {
    // Swept in order of client id: the stuck client comes first.
    const stuckClient = '00000000-0000-4000-8000-000000000000';
    const stuck = await grantsOfClientGone(1, stuckClient);
    const others = await grantsOfClientGone(2);
    // Every attempt to end the stuck grant fails, as a fault tied to that client's rows would.
    await app.sql(`create function refuse_stuck_grant() returns trigger language plpgsql as $$
                 begin if old.id = '${stuck[0]}' then raise exception 'the stuck grant cannot end'; end if; return old; end $$`);
    await app.sql(`create trigger refuse_stuck_grant before delete on oidc_model for each row execute function refuse_stuck_grant()`);
    const logged: { details: object; message: string }[] = [];
    const log = { info: (details: object, message: string) => logged.push({ details, message }), error: (details: object, message: string) => logged.push({ details, message }) };
    const job = new StorageSweepJob(app.gatehouse.services, 20);
    job.start(log);
    try {
      for (let waited = 0; (await revocations(others)).length < others.length; waited += 20) {
        if (waited > 20_000) throw new Error('the run stopped at the stuck client');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await job.stop();
      await app.sql('drop trigger refuse_stuck_grant on oidc_model');
      await app.sql('drop function refuse_stuck_grant');
    }
    expect(await revocations(others)).toEqual(swept(others));
    expect(await revocations(stuck)).toEqual([]);
    expect(logged).toContainEqual({
      details: { applicationId: app.root.applicationId, clientId: stuckClient, err: expect.objectContaining({ message: expect.stringMatching(/the stuck grant cannot end/) }) },
      message: 'storage sweep: the grants of a deleted client could not end; the next run tries again',
    });
    expect(logged.filter(({ message }) => message === 'storage-sweep failed; the next run tries again')).toEqual([]);

    await sweepStorage(app.gatehouse.services);
    expect(await revocations(stuck)).toEqual(swept(stuck));
  });

  // A second session holds the locks: the embedded database has one.
  it.skipIf(usingEmbeddedDatabase())('passes over expired rows another transaction holds, rather than waiting for it', async () => {
    const [held, free] = [await expiredModel(), await expiredModel()];
    const flowRow = async () => {
      const id = randomUUID();
      await app.sql(
        `insert into email_sign_in (application_id, id, interaction_id, client_id, pool_id, email, method, expires_at)
         values (?, ?, 'swept', ?, ?, 'swept@example.com', 'email_code', now() - interval '1 minute')`,
        [app.root.applicationId, id, randomUUID(), randomUUID()],
      );
      return id;
    };
    const [heldFlow, freeFlow] = [await flowRow(), await flowRow()];
    const flowRowExists = async (id: string) => (await app.sql(`select 1 from email_sign_in where id = ?`, [id])).length === 1;
    const holder = app.gatehouse.services.orm.em.fork();
    await holder.begin();
    try {
      await holder.execute(`select 1 from oidc_model where model = 'Session' and id = ? for update`, [held]);
      await holder.execute(`select 1 from email_sign_in where id = ? for update`, [heldFlow]);
      const sweep = sweepStorage(app.gatehouse.services);
      const waited = await Promise.race([sweep.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 5_000))]);
      expect(waited).toBe(false);
      expect([await modelExists(held), await modelExists(free), await flowRowExists(heldFlow), await flowRowExists(freeFlow)]).toEqual([true, false, true, false]);
    } finally {
      await holder.rollback();
    }
    await sweepStorage(app.gatehouse.services);
    expect([await modelExists(held), await flowRowExists(heldFlow)]).toEqual([false, false]);
  });

  it('deletes with its tokens a grant no application claims: saved as its client went, its user gone since', async () => {
    const [unclaimed, token] = [randomUUID(), randomUUID()];
    await app.sql(`insert into oidc_model (model, id, payload) values ('Grant', ?, ?::jsonb)`, [unclaimed, JSON.stringify({ clientId: randomUUID(), accountId: randomUUID() })]);
    await app.sql(`insert into oidc_model (model, id, grant_id, payload, expires_at) values ('RefreshToken', ?, ?, '{}', now() + interval '1 day')`, [token, unclaimed]);
    // Its user still there: the grant is the user's application's, ended and recorded as the deleted client's.
    const claimed = randomUUID();
    const userId = await app.createUser(`claimed-${randomUUID()}@example.com`);
    await app.sql(`insert into oidc_model (model, id, payload) values ('Grant', ?, ?::jsonb)`, [claimed, JSON.stringify({ clientId: randomUUID(), accountId: userId })]);

    await sweepStorage(app.gatehouse.services);
    expect(await app.sql(`select model, id from oidc_model where id in (?)`, [[unclaimed, token, claimed]])).toEqual([]);
    expect(await revocations([claimed])).toEqual(swept([claimed]));
  });

  it('two instances sweeping at once end each grant once, recorded once', async () => {
    const grants = await grantsOfClientGone(5);
    await Promise.all([sweepStorage(app.gatehouse.services), sweepStorage(app.gatehouse.services)]);
    expect(await revocations(grants)).toEqual(swept(grants));
    expect(await app.sql(`select 1 from oidc_model where model = 'Grant' and id in (?)`, [grants])).toEqual([]);
  });
});
