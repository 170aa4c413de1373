import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredIdempotencyRecords } from '../../src/idempotency.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/** Keys are remembered for 24 h, then forgotten: the same key then runs the request anew. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const sql = (query: string, params: unknown[] = []) => app.gatehouse.services.orm.em.getConnection().execute(query, params);
const ageAllRecords = () => sql(`update idempotency_record set created_at = now() - interval '25 hours'`);
const count = async () => Number(((await sql('select count(*) as n from idempotency_record')) as { n: string }[])[0]?.n);

describe('Idempotency-Key expiry', () => {
  it('a key older than 24 h no longer replays: the request runs again', async () => {
    const tenants = `/applications/${app.root.applicationId}/tenants`;
    const first = await app.http.post(tenants, { name: 'Expiring' });
    const key = crypto.randomUUID();
    expect((await app.http.delete(`${tenants}/${first.body.id}`, { headers: { 'idempotency-key': key } })).status).toBe(204);
    await ageAllRecords();
    const again = await app.http.delete(`${tenants}/${first.body.id}`, { headers: { 'idempotency-key': key } });
    expect(again.status).toBe(404);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });

  it('each use forgets the credential’s own expired keys; the periodic purge forgets everyone’s', async () => {
    const other = await app.bootstrapAnother();
    const otherClient = app.as({ apiKey: other.apiKey });
    const otherTenants = `/applications/${other.applicationId}/tenants`;
    const tenant = await otherClient.post(otherTenants, { name: 'Old' });
    await otherClient.delete(`${otherTenants}/${tenant.body.id}`, { headers: { 'idempotency-key': crypto.randomUUID() } });
    await ageAllRecords();
    const tenants = `/applications/${app.root.applicationId}/tenants`;
    const mine = await app.http.post(tenants, { name: 'New' });
    await app.http.delete(`${tenants}/${mine.body.id}`, { headers: { 'idempotency-key': crypto.randomUUID() } });
    // The root credential's use purged its own expired record; the other credential's stays until the purge.
    expect(await count()).toBe(2);
    expect(await purgeExpiredIdempotencyRecords(app.gatehouse.services.orm.em.fork())).toBe(1);
    expect(await count()).toBe(1);
  });

  it('a claim left unanswered (its instance died mid-request) is taken over by the same request after 10 minutes', async () => {
    const tenants = `/applications/${app.root.applicationId}/tenants`;
    const tenant = await app.http.post(tenants, { name: 'Abandoned' });
    const key = crypto.randomUUID();
    const remove = () => app.http.delete(`${tenants}/${tenant.body.id}`, { headers: { 'idempotency-key': key } });
    expect((await remove()).status).toBe(204);
    const [record] = (await sql('select key from idempotency_record order by created_at desc limit 1')) as { key: string }[];
    // The record as a crash between the claim and the answer leaves it, claimed `age` ago.
    const abandon = (age: string) =>
      sql(`update idempotency_record set status_code = null, response_body = null, created_at = now() - interval '${age}' where key = ?`, [record!.key]);

    await abandon('5 minutes');
    const running = await remove();
    expect(running.status).toBe(409);
    expect(running.body).toMatchObject({ code: 'idempotency_conflict', message: expect.stringContaining('still in progress') });

    await abandon('11 minutes');
    // Another request with the key is still a conflict; the same request runs again (the tenant is gone by now: 404).
    const other = await app.http.delete(`${tenants}/${crypto.randomUUID()}`, { headers: { 'idempotency-key': key } });
    expect(other.status).toBe(409);
    const retried = await remove();
    expect(retried.status).toBe(404);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    // And its answer is the key's from now on.
    const replay = await remove();
    expect(replay.status).toBe(404);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });
});
