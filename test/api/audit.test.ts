import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/db/entities/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/** Every mutation writes its audit record in its own transaction; a refused mutation writes none. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

async function auditOf(requestId: string) {
  const em = app.gatehouse.services.orm.em.fork();
  // The audit search API comes later; read the table directly, across all tenants of the application.
  return em.find(AuditLog, { requestId }, { filters: { application: { id: app.root.applicationId }, tenant: { id: null } } });
}

describe('audit records', () => {
  it('records actor, action, target, tenant, request id and before/after', async () => {
    const requestId = `audit-${crypto.randomUUID()}`;
    const created = await app.http.post(`/applications/${app.root.applicationId}/tenants`, { name: 'Audited' }, { headers: { 'x-request-id': requestId } });
    expect(created.headers.get('x-request-id')).toBe(requestId);
    const [record, ...rest] = await auditOf(requestId);
    expect(rest).toHaveLength(0);
    expect(record).toMatchObject({
      action: 'tenant.created',
      targetType: 'tenant',
      targetId: created.body.id,
      tenantId: created.body.id,
      actorType: 'api_key',
      requestId,
      before: null,
      after: { name: 'Audited', slug: 'audited' },
    });
  });

  it('a refused mutation leaves no record', async () => {
    await app.http.post(`/applications/${app.root.applicationId}/tenants`, { name: 'Once', slug: 'once' });
    const requestId = `audit-${crypto.randomUUID()}`;
    const refused = await app.http.post(`/applications/${app.root.applicationId}/tenants`, { name: 'Twice', slug: 'once' }, { headers: { 'x-request-id': requestId } });
    expect(refused.status).toBe(409);
    expect(await auditOf(requestId)).toHaveLength(0);
  });
});

describe('PATCH /applications/{appId}', () => {
  const path = () => `/applications/${app.root.applicationId}`;
  const patched = async (body: unknown, status = 200) => {
    const requestId = `audit-${crypto.randomUUID()}`;
    const response = await app.http.patch(path(), body, { headers: { 'x-request-id': requestId } });
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    const records = await auditOf(requestId);
    return records.map(({ action, targetType, targetId, before, after }) => ({ action, targetType, targetId, before, after })).sort((a, b) => a.action.localeCompare(b.action));
  };

  it('records a change of the tenancy switches as tenancy_config.updated, of the other fields as application.updated, both for both', async () => {
    const target = { targetType: 'application', targetId: app.root.applicationId };
    const { name, tenancyConfig, auditRetentionDays } = (await app.http.get(path())).body;
    const fields = { name, multiTenant: true, auditRetentionDays };
    const branded = { ...tenancyConfig, brandingScope: 'tenant' };

    expect(await patched({ tenancyConfig: { brandingScope: 'tenant' } })).toEqual([{ action: 'tenancy_config.updated', ...target, before: tenancyConfig, after: branded }]);
    expect(await patched({ name: 'Renamed' })).toEqual([{ action: 'application.updated', ...target, before: fields, after: { ...fields, name: 'Renamed' } }]);
    expect(await patched({ name: 'Both', tenancyConfig: { brandingScope: 'application' } })).toEqual([
      { action: 'application.updated', ...target, before: { ...fields, name: 'Renamed' }, after: { ...fields, name: 'Both' } },
      { action: 'tenancy_config.updated', ...target, before: branded, after: tenancyConfig },
    ]);
    // A write that changes nothing is recorded all the same, as every write is; a PATCH {} as application.updated.
    expect(await patched({ name: 'Both', tenancyConfig: { brandingScope: 'application' } })).toEqual([
      { action: 'application.updated', ...target, before: { ...fields, name: 'Both' }, after: { ...fields, name: 'Both' } },
      { action: 'tenancy_config.updated', ...target, before: tenancyConfig, after: tenancyConfig },
    ]);
    expect(await patched({})).toEqual([{ action: 'application.updated', ...target, before: { ...fields, name: 'Both' }, after: { ...fields, name: 'Both' } }]);
    // A refused PATCH records neither of its changes.
    expect(await patched({ name: 'Refused', tenancyConfig: { brandingScope: 'everyone' } }, 422)).toEqual([]);

    const found = await app.http.get(`/audit-logs?action=tenancy_config.updated&target=${app.root.applicationId}`);
    expect(found.body.data.map((record: { changes: unknown }) => record.changes)).toEqual([
      { before: tenancyConfig, after: tenancyConfig },
      { before: branded, after: tenancyConfig },
      { before: tenancyConfig, after: branded },
    ]);
  });
});
