import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditLog } from '../../src/db/entities/index.ts';
import { TENANT_OWNED_TABLES } from '../../src/domain/tenants/owned-rows.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { auditRecordsOf, traced } from '../support/audit.ts';
import { addDomain } from '../support/domains.ts';
import type { HttpClient } from '../support/http.ts';

/**
 * A tenant's deletion takes the rows the tenant owns (foreign keys would cascade): each gets its own audit record
 * under the tenant, its `before` the row as that row's own deletion (or revocation) records it, with no secret.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

/** A multi-tenant application whose tenants may hold every kind of row: every switch on `tenant`, auth isolated. */
async function openApplication() {
  const tenancyConfig = { brandingScope: 'tenant', emailTemplatesScope: 'tenant', emailProviderScope: 'tenant', authIsolation: 'isolated' };
  const created = await app.http.post('/applications', { name: 'Cascading', multiTenant: true, tenancyConfig });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const apiKey = created.body.initialApiKey.secret as string;
  const applicationId = created.body.id as string;
  const client = app.as({ apiKey });
  const tenant = async (name: string) => (await client.post(`/applications/${applicationId}/tenants`, { name })).body.id as string;
  return { client, apiKey, applicationId, tenant };
}

const SECRETS = { email: 'smtp-password-do-not-leak', provider: 'client-secret-do-not-leak' };
const jwk = (kid: string) => ({ ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }), kid });

/**
 * One row of every kind in a tenant, the same in every tenant but for what must differ (hostnames, ids). Each kind
 * names its row, the path that removes it alone, and the action of that removal.
 */
async function fillTenant(client: HttpClient, applicationId: string, tenantId: string, label: string) {
  const tp = `/applications/${applicationId}/tenants/${tenantId}`;
  const ok = <T>(response: { status: number; body: T }) => {
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    return response.body as any;
  };
  const user = ok(await client.post(`${tp}/users`, { email: 'owner@x.example' })).id as string;
  const expiresAt = '2099-01-01T00:00:00.000Z';
  const key = ok(await client.post(`${tp}/api-keys`, { name: 'tenant key', permissions: ['users:read'], expiresAt })).key.id as string;
  const userKey = ok(await client.post(`${tp}/api-keys`, { name: 'user key', permissions: ['users:read'], userId: user, expiresAt })).key.id as string;
  const web = ok(await client.post(`${tp}/oauth-clients`, { name: 'web', type: 'web', redirectUris: ['https://app.example.com/cb'] })).id as string;
  // A replaced secret still valid: the snapshot says until when.
  ok(await client.post(`${tp}/oauth-clients/${web}/rotate-secret`, { gracePeriodSeconds: 3600 }));
  const spa = ok(await client.post(`${tp}/oauth-clients`, { name: 'spa', type: 'spa', redirectUris: ['https://spa.example.com/cb'] })).id as string;
  const m2m = ok(await client.post(`${tp}/m2m-credentials`, { name: 'm2m', permissions: ['users:read'] })).id as string;
  const jwt = ok(await client.post(`${tp}/m2m-credentials`, { name: 'jwt', permissions: ['users:read'], authMethod: 'private_key_jwt', jwks: { keys: [jwk('one'), jwk('two')] } })).id as string;
  ok(await client.put(`${tp}/branding`, { copy: { 'login.title': 'Hello' } }));
  const smtp = { type: 'smtp', fromAddress: 'mail@example.com', smtp: { host: 'smtp.example.com', port: 587, username: 'mailer' }, secrets: { password: SECRETS.email } };
  ok(await client.put(`${tp}/email/provider`, smtp));
  ok(await client.put(`${tp}/email/templates/verify_email`, { subject: 'Verify', html: '<p>Verify</p>', text: 'Verify' }));
  ok(await client.put(`${tp}/policies/password`, { minLength: 12 }));
  const provider = ok(
    await client.post(`${tp}/auth-providers`, { type: 'oauth', config: { provider: 'google', clientId: 'id.apps.googleusercontent.com' }, secrets: { clientSecret: SECRETS.provider } }),
  ).id as string;
  const domain = await addDomain(app, { apiKey: client.credentials.apiKey!, applicationId, tenantId }, `${label}.example.org`);
  const permission = ok(await client.post(`${tp}/permissions`, { key: 'invoices:approve', description: 'Approve' })).id as string;
  const role = ok(await client.post(`${tp}/roles`, { key: 'approver', name: 'Approver', permissions: ['users:read', 'invoices:approve'] })).id as string;
  const assignment = ok(await client.post(`${tp}/role-assignments`, { subject: { type: 'user', id: user }, roleId: role })).id as string;
  return [
    { targetId: key, path: `${tp}/api-keys/${key}`, alone: 'api_key.revoked', cascade: 'api_key.deleted' },
    { targetId: userKey, path: `${tp}/api-keys/${userKey}`, alone: 'api_key.revoked', cascade: 'api_key.deleted' },
    { targetId: web, path: `${tp}/oauth-clients/${web}`, alone: 'oauth_client.deleted', cascade: 'oauth_client.deleted' },
    { targetId: spa, path: `${tp}/oauth-clients/${spa}`, alone: 'oauth_client.deleted', cascade: 'oauth_client.deleted' },
    { targetId: m2m, path: `${tp}/m2m-credentials/${m2m}`, alone: 'm2m_credential.revoked', cascade: 'm2m_credential.deleted' },
    { targetId: jwt, path: `${tp}/m2m-credentials/${jwt}`, alone: 'm2m_credential.revoked', cascade: 'm2m_credential.deleted' },
    { targetId: null, path: `${tp}/branding`, alone: 'branding.override.removed', cascade: 'branding.override.removed' },
    { targetId: null, path: `${tp}/email/provider`, alone: 'email_provider.override.removed', cascade: 'email_provider.override.removed' },
    { targetId: 'verify_email', path: `${tp}/email/templates/verify_email`, alone: 'email_template.override.removed', cascade: 'email_template.override.removed' },
    { targetId: 'password', path: `${tp}/policies/password`, alone: 'policy.override.removed', cascade: 'policy.override.removed' },
    { targetId: provider, path: `${tp}/auth-providers/${provider}`, alone: 'auth_provider.deleted', cascade: 'auth_provider.deleted' },
    { targetId: domain, path: `/applications/${applicationId}/tenants/${tenantId}/domains/${domain}`, alone: 'domain.deleted', cascade: 'domain.deleted' },
    { targetId: assignment, path: `${tp}/role-assignments/${assignment}`, alone: 'role_assignment.deleted', cascade: 'role_assignment.deleted' },
    { targetId: role, path: `${tp}/roles/${role}`, alone: 'role.deleted', cascade: 'role.deleted' },
    { targetId: permission, path: `${tp}/permissions/${permission}`, alone: 'permission.deleted', cascade: 'permission.deleted' },
  ];
}

/** What differs between the same row in two tenants: the tenant, and the id, hostname or times that are the row's own. */
function asInTenant(before: Record<string, unknown>, tenantId: string, own: Record<string, unknown>): Record<string, unknown> {
  const moved = { ...before };
  if ('tenantId' in moved) moved['tenantId'] = tenantId;
  for (const [field, value] of Object.entries(own)) if (field in moved) moved[field] = value;
  return moved;
}

describe('audit records of a tenant’s deletion', () => {
  it('every table a tenant’s deletion would cascade to is one whose rows it deletes with their records', async () => {
    const tables = await app.sql<{ name: string }>(
      `select distinct conrelid::regclass::text as name from pg_constraint where contype = 'f' and confrelid = 'tenant'::regclass order by 1`,
    );
    expect(tables.map((table) => table.name)).toEqual(TENANT_OWNED_TABLES);
  });

  it('records each row it takes, under the tenant, as that row’s own removal records it, and never a secret', async () => {
    const { client, applicationId, tenant } = await openApplication();
    const doomed = await tenant('Doomed');
    const twin = await tenant('Twin');
    const doomedRows = await fillTenant(client, applicationId, doomed, 'doomed');
    const twinRows = await fillTenant(client, applicationId, twin, 'twin');

    // The twin's rows removed one by one: what each kind's own removal records.
    const alone: AuditLog[] = [];
    for (const row of twinRows) {
      const { requestId, headers } = traced();
      expect((await client.delete(row.path, { headers })).status).toBeLessThan(300);
      const [record] = (await auditRecordsOf(app, requestId)).filter((r) => r.action === row.alone);
      alone.push(record!);
    }

    // What differs in the doomed tenant: ids, hostname, and the times that are each row's own.
    const own = new Map<string | null, Record<string, unknown>>();
    for (const row of doomedRows) {
      if (row.cascade === 'auth_provider.deleted') own.set(row.targetId, { id: row.targetId });
      if (row.cascade === 'oauth_client.deleted') {
        own.set(row.targetId, { previousSecretExpiresAt: (await client.get(`/applications/${applicationId}/tenants/${doomed}/oauth-clients/${row.targetId}`)).body.previousSecretExpiresAt });
      }
    }
    const domainRow = (await client.get(`/applications/${applicationId}/tenants/${doomed}/domains`)).body.data[0];
    own.set(domainRow.id, { hostname: domainRow.hostname, verifiedAt: domainRow.verifiedAt });
    const doomedUser = (await client.get(`/applications/${applicationId}/tenants/${doomed}/users`)).body.data[0].id as string;
    own.set(doomedRows[1]!.targetId, { userId: doomedUser });
    const rowOf = (action: string) => doomedRows.find((row) => row.cascade === action)!.targetId;
    own.set(rowOf('role_assignment.deleted'), { roleId: rowOf('role.deleted'), subjectId: doomedUser });

    const { requestId, headers } = traced();
    expect((await client.delete(`/applications/${applicationId}/tenants/${doomed}`, { headers })).status).toBe(204);
    // The isolated pool's user is told of the deletion once it commits, on behalf of its request (deferred-mail.ts): its
    // record comes with the job, so the records are read once it is queued.
    await expect.poll(async () => app.sql('select 1 from deferred_mail where application_id = ?', [applicationId])).toEqual([]);
    const records = await auditRecordsOf(app, requestId);
    doomedRows.forEach((row, i) => {
      const matching = records.filter((record) => record.action === row.cascade && record.targetId === row.targetId);
      expect(matching, `${row.cascade} ${row.targetId}`).toHaveLength(1);
      const twinBefore = alone[i]!.before as Record<string, unknown>;
      expect(matching[0], row.cascade).toEqual(
        expect.objectContaining({
          applicationId,
          tenantId: doomed,
          action: row.cascade,
          targetType: alone[i]!.targetType,
          targetId: row.targetId,
          before: asInTenant(twinBefore, doomed, own.get(row.targetId) ?? {}),
          after: null,
        }),
      );
    });
    // Beside them: the tenant's own record, its user's, and the notice to that user.
    const beside = ['tenant.deleted', 'user.deleted', 'email_delivery.queued'];
    expect(records.map((record) => record.action).filter((action) => beside.includes(action)).sort()).toEqual([...beside].sort());
    expect(records.map((record) => `${record.action} ${record.targetId ?? ''}`)).toHaveLength(doomedRows.length + beside.length);
    const everything = JSON.stringify(await app.sql('select before, after from audit_log where application_id = ?', [applicationId]));
    for (const secret of Object.values(SECRETS)) expect(everything).not.toContain(secret);
    for (const table of TENANT_OWNED_TABLES) {
      expect(await app.sql(`select 1 from ${table} where application_id = ? and tenant_id = ?`, [applicationId, doomed]), table).toEqual([]);
    }
  }, 60_000);

  it('costs the same statements whatever the number of rows', async () => {
    const statementsOfDeletion = async (rows: number) => {
      const { client, apiKey, applicationId, tenant } = await openApplication();
      const tenantId = await tenant('Busy');
      const tp = `/applications/${applicationId}/tenants/${tenantId}`;
      for (let i = 0; i < rows; i += 1) {
        expect((await client.post(`${tp}/api-keys`, { name: `k${i}`, permissions: ['users:read'] })).status).toBe(201);
        expect((await client.post(`${tp}/oauth-clients`, { name: `c${i}`, type: 'spa', redirectUris: ['https://a.example.com/cb'] })).status).toBe(201);
        await addDomain(app, { apiKey, applicationId, tenantId }, `d${i}.busy.example.org`, { verified: false });
      }
      const { requestId, headers } = traced();
      app.queries.length = 0;
      expect((await client.delete(tp, { headers })).status).toBe(204);
      const count = app.queries.length;
      expect(await auditRecordsOf(app, requestId)).toHaveLength(3 * rows + 1);
      return count;
    };
    expect(await statementsOfDeletion(10)).toBe(await statementsOfDeletion(1));
  }, 60_000);
});
