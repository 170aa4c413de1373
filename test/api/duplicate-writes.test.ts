import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { usingEmbeddedDatabase } from '../support/database.ts';
import { addDomain, publishing, verifyWith } from '../support/domains.ts';
import type { HttpResponse } from '../support/http.ts';
import { queuedBehind, type HeldRow } from '../support/row-lock.ts';

/**
 * Two identical writes at once (a client retrying without Idempotency-Key, two operators): one effect, one audit
 * record. Each write holds its row FOR UPDATE, read as committed, so the second decides on what the first left: a
 * second deletion is 404, a second revocation or verification writes nothing. The row is held by the test while both
 * queue behind it, so they overlap whatever the machine's speed.
 */
let app: TestApp;
let appPath: string;
let tenantId: string;
let tenantPath: string;

const sql = <T = any>(query: string, params: unknown[] = []) => app.gatehouse.services.orm.em.getConnection().execute<T[]>(query, params);

beforeAll(async () => {
  app = await startTestApp();
  appPath = `/applications/${app.root.applicationId}`;
  const tenancyConfig = { brandingScope: 'tenant', emailTemplatesScope: 'tenant', emailProviderScope: 'tenant', authIsolation: 'isolated' };
  expect((await app.http.patch(appPath, { tenancyConfig })).status).toBe(200);
  tenantId = await app.createTenant('Twice');
  tenantPath = `${appPath}/tenants/${tenantId}`;
});
afterAll(async () => app?.close());

/** Both writes queued behind the test's share lock on the row (a write of it waits, reads go through). */
function twiceAtOnce<T>(row: HeldRow, write: () => Promise<T>): Promise<T[]> {
  return queuedBehind(app.gatehouse.services.orm, row, { lock: 'share' }, [write, write]);
}

/** A row of the root application's table. */
const rowOf = (table: string, id: string): HeldRow => ({ table, applicationId: app.root.applicationId, id });

const recordsOf = (action: string, targetId: string | null, extra = '', params: unknown[] = []) =>
  sql<{ before: any; after: any }>(`select before, after from audit_log where action = ? and target_id is not distinct from ? ${extra} order by id`, [action, targetId, ...params]);

const statuses = (answers: HttpResponse[]) => answers.map((answer) => answer.status);

// Needs two sessions holding locks at once: the embedded database has one session for all connections.
describe.skipIf(usingEmbeddedDatabase())('two identical writes at once', () => {
  it('revoking an API key twice: one revocation, one record, the first revokedAt kept', async () => {
    const key = (await app.http.post('/api-keys', { name: 'revoked twice', permissions: ['users:read'] })).body.key.id as string;
    const answers = await twiceAtOnce(rowOf('api_key', key), () => app.http.delete(`/api-keys/${key}`));
    expect(statuses(answers)).toEqual([204, 204]);
    const records = await recordsOf('api_key.revoke', key);
    expect(records).toHaveLength(1);
    const [row] = await sql<{ revoked_at: string }>('select revoked_at from api_key where id = ?', [key]);
    expect(new Date(row!.revoked_at).toISOString()).toBe(records[0]!.after.revokedAt);
  }, 30_000);

  it('rotating an API key behind its revocation: 422, no secret handed out, no record', async () => {
    const key = (await app.http.post('/api-keys', { name: 'revoked, then rotated', permissions: ['users:read'] })).body.key.id as string;
    const answers = await queuedBehind(app.gatehouse.services.orm, rowOf('api_key', key), { lock: 'share' }, [
      () => app.http.delete(`/api-keys/${key}`),
      () => app.http.post(`/api-keys/${key}/rotate`, {}),
    ]);
    expect(statuses(answers)).toEqual([204, 422]);
    expect(answers[1]!.body).toMatchObject({ code: 'validation_error', field: 'keyId' });
    expect(await recordsOf('api_key.rotate', key)).toEqual([]);
  }, 30_000);

  it('deleting an auth provider twice: 204, then 404, one record', async () => {
    const provider = (await app.http.post(`${tenantPath}/auth-providers`, { type: 'magic_link' })).body.id as string;
    const answers = await twiceAtOnce(rowOf('auth_provider', provider), () => app.http.delete(`${tenantPath}/auth-providers/${provider}`));
    expect(statuses(answers)).toEqual([204, 404]);
    expect(answers[1]!.body).toMatchObject({ code: 'not_found', field: 'providerId' });
    expect(await recordsOf('auth_provider.delete', provider)).toHaveLength(1);
  }, 30_000);

  it('deleting a domain twice: 204, then 404, one record', async () => {
    const domain = await addDomain(app, { apiKey: app.root.apiKey, applicationId: app.root.applicationId }, 'deleted-twice.example.org', { verified: false });
    const answers = await twiceAtOnce(rowOf('domain', domain), () => app.http.delete(`${appPath}/domains/${domain}`));
    expect(statuses(answers)).toEqual([204, 404]);
    expect(answers[1]!.body).toMatchObject({ code: 'not_found', field: 'domainId' });
    expect(await recordsOf('domain.delete', domain)).toHaveLength(1);
  }, 30_000);

  it('verifying a domain twice: both verified, one record, the first verifiedAt kept', async () => {
    const created = (await app.http.post(`${appPath}/domains`, { hostname: 'verified-twice.example.org' })).body;
    const dns = publishing({ [created.verificationRecord.name]: created.verificationToken });
    const verify = () => verifyWith(app, app.root.apiKey, { applicationId: app.root.applicationId }, created.id, dns);
    const answers = await twiceAtOnce(rowOf('domain', created.id), verify);
    expect(answers.map((answer) => answer.verified)).toEqual([true, true]);
    const records = await recordsOf('domain.verify', created.id);
    expect(records).toHaveLength(1);
    expect(answers.map((answer) => answer.domain.verifiedAt?.toISOString())).toEqual([records[0]!.after.verifiedAt, records[0]!.after.verifiedAt]);
  }, 30_000);

  const overrides = [
    { feature: 'branding', path: '/branding', body: { copy: { 'login.title': 'Hello' } }, action: 'branding.override.remove', targetId: null },
    {
      feature: 'email_provider',
      path: '/email/provider',
      body: { type: 'smtp', fromAddress: 'mail@example.com', smtp: { host: 'smtp.example.com', port: 587 } },
      action: 'email_provider.override.remove',
      targetId: null,
    },
    {
      feature: 'email_template',
      path: '/email/templates/verify_email',
      body: { subject: 'Verify', html: '<p>Verify</p>', text: 'Verify' },
      action: 'email_template.override.remove',
      targetId: 'verify_email',
    },
    { feature: 'policy', path: '/policies/password', body: { minLength: 12 }, action: 'policy.override.remove', targetId: 'password' },
  ];
  it.each(overrides)('removing a tenant’s $feature override twice: 204, then 404, one record', async ({ feature, path, body, action, targetId }) => {
    expect((await app.http.put(`${tenantPath}${path}`, body)).status).toBe(200);
    const [row] = await sql<{ id: string }>('select id from setting where tenant_id = ? and feature = ?', [tenantId, feature]);
    const answers = await twiceAtOnce(rowOf('setting', row!.id), () => app.http.delete(`${tenantPath}${path}`));
    expect(statuses(answers)).toEqual([204, 404]);
    expect(answers[1]!.body).toMatchObject({ code: 'not_found' });
    expect(await recordsOf(action, targetId, 'and tenant_id = ?', [tenantId])).toHaveLength(1);
  }, 30_000);

  it('renaming a tenant twice at once: each record’s before is what the other left', async () => {
    const renamed = await app.createTenant('Renamed at once');
    const rename = (name: string) => () => app.http.patch(`${appPath}/tenants/${renamed}`, { name });
    const answers = await queuedBehind(app.gatehouse.services.orm, rowOf('tenant', renamed), { lock: 'share' }, [rename('First'), rename('Second')]);
    expect(statuses(answers)).toEqual([200, 200]);
    const records = await recordsOf('tenant.update', renamed);
    expect(records.map((record) => [record.before.name, record.after.name])).toEqual([
      ['Renamed at once', 'First'],
      ['First', 'Second'],
    ]);
  }, 30_000);

  it('deleting an application twice: 204, then 404, one record', async () => {
    const created = (await app.http.post('/applications', { name: 'Deleted twice' })).body;
    const client = app.as({ apiKey: created.initialApiKey.secret });
    const answers = await twiceAtOnce({ table: 'application', id: created.id }, () => client.delete(`/applications/${created.id}`));
    expect(statuses(answers)).toEqual([204, 404]);
    expect(answers[1]!.body).toMatchObject({ code: 'not_found', field: 'appId' });
    expect(await recordsOf('application.delete', created.id)).toHaveLength(1);
  }, 30_000);
});
