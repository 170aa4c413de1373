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

    const patchId = `audit-${crypto.randomUUID()}`;
    await app.http.patch(`/applications/${app.root.applicationId}`, { tenancyConfig: { brandingScope: 'tenant' } }, { headers: { 'x-request-id': patchId } });
    const [update] = await auditOf(patchId);
    expect(update?.action).toBe('application.updated');
    expect((update?.before as { tenancyConfig: { brandingScope: string } }).tenancyConfig.brandingScope).toBe('application');
    expect((update?.after as { tenancyConfig: { brandingScope: string } }).tenancyConfig.brandingScope).toBe('tenant');
  });

  it('a refused mutation leaves no record', async () => {
    await app.http.post(`/applications/${app.root.applicationId}/tenants`, { name: 'Once', slug: 'once' });
    const requestId = `audit-${crypto.randomUUID()}`;
    const refused = await app.http.post(`/applications/${app.root.applicationId}/tenants`, { name: 'Twice', slug: 'once' }, { headers: { 'x-request-id': requestId } });
    expect(refused.status).toBe(409);
    expect(await auditOf(requestId)).toHaveLength(0);
  });
});
