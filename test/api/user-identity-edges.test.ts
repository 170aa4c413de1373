import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { auditRecordsOf } from '../support/audit.ts';
import { usingEmbeddedDatabase } from '../support/database.ts';
import { queuedBehind } from '../support/row-lock.ts';

/** Users at the edges of their identity and lifecycle: invisible and case-folded e-mails, the keys a deletion takes, an unlock during a split. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

/** The records a request wrote, in whichever application, oldest first. */
async function recordsOf(requestId: string) {
  return (await auditRecordsOf(app, requestId)).map(({ tenantId, action, targetId, before, after }) => ({ tenantId, action, targetId, before, after }));
}

const traced = () => {
  const requestId = `audit-users-${crypto.randomUUID()}`;
  return { requestId, headers: { 'x-request-id': requestId } };
};

describe('e-mail addresses holding invisible characters', () => {
  // Default-ignorable code points that are not of category Cf: they render as nothing, so each address reads exactly
  // like `twin@example.com` and would be a second account of it (docs/decisions.md, Users).
  const invisible: [string, string][] = [
    ['combining grapheme joiner', '\u034F'],
    ['variation selector 16', '\uFE0F'],
    ['Hangul filler', '\u3164'],
    ['Hangul choseong filler', '\u115F'],
    ['halfwidth Hangul filler', '\uFFA0'],
    ['Mongolian free variation selector', '\u180B'],
    ['variation selector 17', '\u{E0100}'],
  ];

  it('are refused with 422 on email, and make no second account of an address', async () => {
    expect((await app.http.post('/users', { email: 'twin@example.com' })).status).toBe(201);
    for (const [what, character] of invisible) {
      const { requestId, headers } = traced();
      const created = await app.http.post('/users', { email: `twin${character}@example.com` }, { headers });
      expect(created.status, what).toBe(422);
      expect(created.body, what).toMatchObject({ code: 'validation_error', field: 'email' });
      expect(await recordsOf(requestId), what).toEqual([]);
    }
  });

  it('are refused in a PATCH too', async () => {
    const id = (await app.http.post('/users', { email: 'patched-twin@example.com' })).body.id as string;
    const patched = await app.http.patch(`/users/${id}`, { email: 'patched-twin\u034F@example.com' });
    expect(patched.status).toBe(422);
    expect(patched.body).toMatchObject({ code: 'validation_error', field: 'email' });
  });
});

describe('a user’s deletion records the keys that go with the user', () => {
  it('DELETE /users/{id}: one api_key.delete per key bound to the user, under the key’s tenant, without a secret', async () => {
    const tenantId = await app.createTenant('Keys of a deleted user');
    const userId = (await app.http.post('/users', { email: 'deleted-with-keys@example.com', tenantId })).body.id as string;
    const appKey = (await app.http.post('/api-keys', { name: 'app-wide', permissions: ['users:read'], userId })).body;
    const tenantKey = (await app.http.post('/api-keys', { name: 'tenant', permissions: ['users:read'], tenantId, userId })).body;
    const { requestId, headers } = traced();
    expect((await app.http.delete(`/users/${userId}`, { headers })).status).toBe(204);
    const records = await recordsOf(requestId);
    expect(records.filter((record) => record.action === 'user.delete').map((record) => record.targetId)).toEqual([userId]);
    // The `account_deleted` mail has its own record (email_delivery.queue).
    expect(records.filter((record) => record.action === 'email_delivery.queue')).toHaveLength(1);
    const keyRecords = records.filter((record) => record.action === 'api_key.delete');
    expect(keyRecords.map((record) => [record.action, record.targetId, record.tenantId]).sort()).toEqual(
      [
        ['api_key.delete', appKey.key.id, null],
        ['api_key.delete', tenantKey.key.id, tenantId],
      ].sort(),
    );
    expect(keyRecords.find((record) => record.targetId === tenantKey.key.id)).toMatchObject({
      before: expect.objectContaining({ name: 'tenant', userId, tenantId, revokedAt: null }),
      after: null,
    });
    const text = JSON.stringify(records);
    for (const secret of [appKey.secret, tenantKey.secret]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/secretHash|secret_hash/);
  });

  it('a tenant’s deletion: each application-wide key of a user of its isolated pool is recorded too', async () => {
    const created = await app.http.post('/applications', { name: 'Isolated keys', multiTenant: true, tenancyConfig: { authIsolation: 'isolated' } });
    const admin = app.as({ apiKey: created.body.initialApiKey.secret });
    const tenantId = (await admin.post(`/applications/${created.body.id}/tenants`, { name: 'Pool' })).body.id as string;
    const userId = (await admin.post('/users', { email: 'pooled-key@example.com', tenantId })).body.id as string;
    const appKey = (await admin.post('/api-keys', { name: 'app-wide of a pool user', permissions: ['users:read'], userId })).body;
    expect(appKey.key.id).toEqual(expect.any(String));
    const { requestId, headers } = traced();
    expect((await admin.delete(`/applications/${created.body.id}/tenants/${tenantId}`, { headers })).status).toBe(204);
    const records = await recordsOf(requestId);
    expect(records.filter((record) => record.targetId === appKey.key.id).map((record) => record.action)).toEqual(['api_key.delete']);
    expect(records.filter((record) => record.targetId === userId).map((record) => record.action)).toEqual(['user.delete']);
  });
});

describe('e-mail addresses that differ only in case, by case folding', () => {
  // toLowerCase leaves these pairs apart, though each is one letter in two cases (Unicode simple case folding): `ΑΣ`
  // lower-cases to `ας` (a final sigma) and `ασ` stays `ασ`; the micro sign reads exactly as the Greek mu.
  const pairs: [string, string][] = [
    ['\u03b1\u03c3@example.gr', '\u0391\u03a3@example.gr'],
    ['\u03bc-metre@example.com', '\u00b5-metre@example.com'],
    ['\u017fam@example.com', 'SAM@example.com'],
  ];

  it('are one address: the second is 409 already_exists, with no record', async () => {
    for (const [first, second] of pairs) {
      expect((await app.http.post('/users', { email: first })).status, first).toBe(201);
      const { requestId, headers } = traced();
      const duplicate = await app.http.post('/users', { email: second }, { headers });
      expect(duplicate.status, second).toBe(409);
      expect(duplicate.body).toMatchObject({ code: 'already_exists', field: 'email' });
      expect(await recordsOf(requestId)).toEqual([]);
    }
  });

  it('keys written before are rekeyed by the migration, except where that would clash', async () => {
    const { Migration0012EmailCaseFoldKeys } = await import('../../src/db/migrations/0012-email-case-fold-keys.ts');
    const orm = app.gatehouse.services.orm;
    const application = app.root.applicationId;
    const sql = (query: string, params: unknown[]) => orm.em.getConnection().execute(query, params);
    const id = (await app.http.post('/users', { email: '\u03bf\u03b4\u03c5\u03c3\u03c3\u03b5\u03b1\u03c3@old.example' })).body.id as string;
    // As the lower-cased key left it: a final sigma.
    await sql('update app_user set email_normalized = ? where application_id = ? and id = ?', ['\u03bf\u03b4\u03c5\u03c3\u03c3\u03b5\u03b1\u03c2@old.example', application, id]);
    await new Migration0012EmailCaseFoldKeys(orm.em.getDriver(), orm.config).up();
    const [row] = (await sql('select email_normalized as key from app_user where application_id = ? and id = ?', [application, id])) as { key: string }[];
    expect(row?.key).toBe('\u03bf\u03b4\u03c5\u03c3\u03c3\u03b5\u03b1\u03c3@old.example');
    expect((await app.http.post('/users', { email: '\u039f\u0394\u03a5\u03a3\u03a3\u0395\u0391\u03a3@old.example' })).status).toBe(409);
  });
});

// PostgreSQL only: the embedded database has one session for all connections (test/support/row-lock.ts).
describe.skipIf(usingEmbeddedDatabase())('an unlock while the application splits into isolated pools', () => {
  it('is done before the split, whose copies then start unlocked, or after it on the original alone', async () => {
    const created = await app.http.post('/applications', { name: 'Unlock race', multiTenant: true });
    const admin = app.as({ apiKey: created.body.initialApiKey.secret });
    const applicationId = created.body.id as string;
    const appPath = `/applications/${applicationId}`;
    const one = (await admin.post(`${appPath}/tenants`, { name: 'One' })).body.id as string;
    const two = (await admin.post(`${appPath}/tenants`, { name: 'Two' })).body.id as string;
    const userId = (await admin.post('/users', { email: 'locked-twice@example.com', tenantId: one })).body.id as string;
    expect((await admin.patch(`/users/${userId}`, { tenantIds: [one, two] })).status).toBe(200);
    const orm = app.gatehouse.services.orm;
    const sql = <T>(query: string, params: unknown[]) => orm.em.getConnection().execute<T[]>(query, params);
    // Only failed sign-ins lock a user: the state they leave, set directly.
    await sql(`update app_user set status = 'locked', locked_until = null, failed_sign_ins = 5, last_failed_sign_in_at = now()
      where application_id = ? and id = ?`, [applicationId, userId]);

    // The user's row held, as a sign-in counting a failure holds it: the unlock queues first, the switch second.
    const [unlocked, switched] = await queuedBehind(orm, { table: 'app_user', applicationId, id: userId }, { lock: 'update' }, [
      () => admin.post(`/users/${userId}/unlock`, {}),
      () => admin.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } }),
    ]);
    expect(unlocked!.status).toBe(200);
    expect(unlocked!.body.status).toBe('active');
    expect(switched!.status).toBe(200);
    const states = await sql<{ id: string; status: string; failed_sign_ins: number }>(
      `select id, status, failed_sign_ins from app_user where application_id = ? and email_normalized = 'locked-twice@example.com' order by id`,
      [applicationId],
    );
    expect(states).toHaveLength(2);
    // The unlock answered 200 `active` before the switch answered: the copy the switch made was of the unlocked user.
    for (const state of states) expect({ status: state.status, failed: state.failed_sign_ins }, state.id).toEqual({ status: 'active', failed: 0 });
  });
});
