import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/db/entities/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { auditRecordsOf, traced } from '../support/audit.ts';
import type { HttpClient } from '../support/http.ts';
import { makeAdmin, TestRoles } from '../support/roles.ts';

/**
 * Who an audit record names: the actor (the API key alone, else whom the Bearer token speaks for: its user or the M2M
 * credential of a client-credentials token) and the API key the request authenticated with; the tenant and the side
 * effects of a user's changes; which secrets a change set, never their values.
 */
let app: TestApp;
let rootKeyId: string;
beforeAll(async () => {
  app = await startTestApp();
  rootKeyId = (await app.http.post('/api-keys/introspect', { secret: app.root.apiKey })).body.key.id as string;
});
afterAll(async () => app?.close());

/** Creates a tenant over REST and over GraphQL with the client; returns each request's records. */
async function createTenantBothWays(client: HttpClient) {
  const rest = traced();
  const created = await client.post(`/applications/${app.root.applicationId}/tenants`, { name: `Rest ${rest.requestId}` }, { headers: rest.headers });
  expect(created.status).toBe(201);
  const graphql = traced();
  const mutation = 'mutation($appId: UUID!, $name: String!) { createTenant(appId: $appId, input: { name: $name }) { id } }';
  const viaGraphql = await client.graphql(mutation, { appId: app.root.applicationId, name: `Gql ${graphql.requestId}` }, { headers: graphql.headers });
  expect(viaGraphql.body.errors).toBeUndefined();
  return [await auditRecordsOf(app, rest.requestId), await auditRecordsOf(app, graphql.requestId)];
}

describe('the actor of an audit record', () => {
  it('an API key alone: the key, as actor and as authentication', async () => {
    for (const [record, ...rest] of await createTenantBothWays(app.http)) {
      expect(rest).toEqual([]);
      expect(record).toMatchObject({ actorType: 'api_key', actorId: rootKeyId, apiKeyId: rootKeyId });
    }
  });

  it('a client-credentials token: its M2M credential, not a user', async () => {
    const token = await app.mintAccessToken({ app_id: app.root.applicationId, permissions: ['*'] });
    const credentialId = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')).client_id as string;
    for (const [record] of await createTenantBothWays(app.as({ bearer: token }))) {
      expect(record).toMatchObject({ actorType: 'm2m_credential', actorId: credentialId, apiKeyId: null });
    }
    for (const [record] of await createTenantBothWays(app.as({ apiKey: app.root.apiKey, bearer: token }))) {
      expect(record).toMatchObject({ actorType: 'm2m_credential', actorId: credentialId, apiKeyId: rootKeyId });
    }
  });

  it('a user’s token: the user; beside an API key, the key is recorded as the authentication', async () => {
    const userId = (await app.http.post('/users', { email: 'actor@example.com' })).body.id as string;
    await new TestRoles(app).assign({ type: 'user', id: userId }, 'app_admin');
    const token = await app.mintAccessToken({ sub: userId, app_id: app.root.applicationId });
    for (const [record] of await createTenantBothWays(app.as({ bearer: token }))) {
      expect(record).toMatchObject({ actorType: 'user', actorId: userId, apiKeyId: null });
    }
    for (const [record] of await createTenantBothWays(app.as({ apiKey: app.root.apiKey, bearer: token }))) {
      expect(record).toMatchObject({ actorType: 'user', actorId: userId, apiKeyId: rootKeyId });
    }
  });

  it('records written set-based (a tenant deletion’s users) name the same actor and key', async () => {
    const created = await app.http.post('/applications', { name: 'Set-based', multiTenant: true, tenancyConfig: { authIsolation: 'isolated' } });
    const key = created.body.initialApiKey;
    const admin = app.as({ apiKey: key.secret });
    const path = `/applications/${created.body.id}`;
    const tenantId = (await admin.post(`${path}/tenants`, { name: 'Doomed' })).body.id as string;
    const member = (await admin.post('/users', { email: 'member@example.com', tenantId })).body.id as string;
    const actor = (await admin.post('/users', { email: 'admin@example.com', tenantId: (await admin.post(`${path}/tenants`, { name: 'Kept' })).body.id })).body.id as string;
    await new TestRoles(app, created.body.id).assign({ type: 'user', id: actor }, 'app_admin');
    const token = await app.mintAccessToken({ sub: actor, app_id: created.body.id });
    const { requestId, headers } = traced();
    expect((await app.as({ apiKey: key.secret, bearer: token }).delete(`${path}/tenants/${tenantId}`, { headers })).status).toBe(204);
    // The member's notice of the deletion is queued by a job after the commit, on behalf of the same request.
    await expect.poll(async () => app.sql('select 1 from deferred_mail where application_id = ?', [created.body.id])).toEqual([]);
    const records = await auditRecordsOf(app, requestId);
    expect(records.map((record) => record.action).sort()).toEqual(['email_delivery.queued', 'tenant.deleted', 'user.deleted']);
    expect(records.find((record) => record.action === 'user.deleted')).toMatchObject({ targetId: member, actorType: 'user', actorId: actor, apiKeyId: key.key.id });
    expect(records.find((record) => record.action === 'email_delivery.queued')).toMatchObject({
      after: expect.objectContaining({ templateKey: 'account_deleted', to: 'member@example.com' }),
      actorType: 'user',
      actorId: actor,
      apiKeyId: key.key.id,
    });
  });
});

describe('audit records of a user’s changes', () => {
  it('a user of an isolated tenant is audited under that tenant, whoever changes them', async () => {
    const created = await app.http.post('/applications', { name: 'Isolated', multiTenant: true, tenancyConfig: { authIsolation: 'isolated' } });
    const admin = app.as({ apiKey: created.body.initialApiKey.secret });
    const tenantId = (await admin.post(`/applications/${created.body.id}/tenants`, { name: 'Pool' })).body.id as string;
    const userId = (await admin.post('/users', { email: 'pooled@example.com', tenantId })).body.id as string;

    const rest = traced();
    expect((await admin.patch(`/users/${userId}`, { name: 'Renamed' }, { headers: rest.headers })).status).toBe(200);
    const graphql = traced();
    const mutation = 'mutation($userId: UUID!) { updateUser(userId: $userId, input: { name: "Again" }) { id } }';
    expect((await admin.graphql(mutation, { userId }, { headers: graphql.headers })).body.errors).toBeUndefined();
    for (const requestId of [rest.requestId, graphql.requestId]) {
      expect(await auditRecordsOf(app, requestId)).toEqual([expect.objectContaining({ action: 'user.updated', targetId: userId, tenantId })]);
    }
  });

  it('leaving a tenant records the revocation of each of the user’s keys for it', async () => {
    const tenantId = await app.createTenant('Left');
    const userId = (await app.http.post('/users', { email: 'leaver@example.com', tenantId })).body.id as string;
    const keyOf = async (name: string) =>
      (await app.http.post('/api-keys', { name, permissions: ['users:read'], tenantId, userId })).body.key.id as string;
    const keys = [await keyOf('one'), await keyOf('two')];
    const revokedBefore = await keyOf('revoked already');
    expect((await app.http.delete(`/api-keys/${revokedBefore}`)).status).toBe(204);

    const { requestId, headers } = traced();
    expect((await app.http.delete(`/applications/${app.root.applicationId}/tenants/${tenantId}/users/${userId}`, { headers })).status).toBe(204);
    const records = await auditRecordsOf(app, requestId);
    expect(records.map((record) => [record.action, record.targetId])).toEqual([
      ['user.membership.removed', userId],
      ...keys.map((id) => ['api_key.revoked', id]),
    ]);
    for (const id of keys) {
      const revoked = (await app.http.get(`/api-keys/${id}`)).body;
      expect(records.find((record) => record.targetId === id)).toMatchObject({
        tenantId,
        before: expect.objectContaining({ userId, tenantId, revokedAt: null }),
        after: expect.objectContaining({ userId, tenantId, revokedAt: revoked.revokedAt }),
      });
    }
  });

  it('taken out of a tenant by PATCH tenantIds, the user’s keys for it are revoked too, each audited', async () => {
    const [left, kept] = [await app.createTenant('Left by patch'), await app.createTenant('Kept by patch')];
    const userId = (await app.http.post('/users', { email: 'patched@example.com', tenantId: left })).body.id as string;
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [left, kept] })).status).toBe(200);
    await makeAdmin(app, userId);
    const keyFor = async (tenantId: string) => (await app.http.post('/api-keys', { name: 'member', permissions: ['users:read'], tenantId, userId })).body;
    const [leftKey, keptKey] = [await keyFor(left), await keyFor(kept)];
    expect((await app.as({ apiKey: leftKey.secret }).get('/users')).status).toBe(200);

    const { requestId, headers } = traced();
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [kept] }, { headers })).status).toBe(200);
    expect((await auditRecordsOf(app, requestId)).map((record) => [record.action, record.targetId, record.tenantId])).toEqual([
      ['api_key.revoked', leftKey.key.id, left],
      ['user.updated', userId, null],
    ]);
    expect((await app.as({ apiKey: leftKey.secret }).get('/users')).status).toBe(401);
    expect((await app.as({ apiKey: keptKey.secret }).get('/users')).status).toBe(200);
  });
});

describe('audit records of settings with secrets', () => {
  it('the e-mail provider’s records name the secrets set before and after, never their values', async () => {
    const tenantId = await app.createTenant('Mail');
    await app.http.patch(`/applications/${app.root.applicationId}`, { tenancyConfig: { emailProviderScope: 'tenant' } });
    const path = `/applications/${app.root.applicationId}/tenants/${tenantId}/email/provider`;
    const smtp = { type: 'smtp', fromAddress: 'mail@example.com', smtp: { host: 'smtp.example.com', port: 587, username: 'mailer' } };
    const put = async (body: unknown) => {
      const { requestId, headers } = traced();
      expect((await app.http.put(path, body, { headers })).status).toBe(200);
      return auditRecordsOf(app, requestId);
    };
    const [first] = await put({ ...smtp, secrets: { password: 'first-do-not-leak' } });
    expect(first).toMatchObject({ action: 'email_provider.updated', before: null, after: expect.objectContaining({ type: 'smtp', secretsSet: ['password'] }) });
    expect(first!.after).toMatchObject({ secretsWritten: ['password'] });
    // A replaced secret leaves secretsSet as it was: secretsWritten says it changed.
    const [changed] = await put({ ...smtp, secrets: { password: 'second-do-not-leak' } });
    expect(changed).toMatchObject({ before: expect.objectContaining({ secretsSet: ['password'] }), after: expect.objectContaining({ secretsSet: ['password'], secretsWritten: ['password'] }) });
    expect(changed!.before).not.toHaveProperty('secretsWritten');
    const [kept] = await put({ ...smtp, fromName: 'Mail' });
    expect(kept!.after).toMatchObject({ secretsSet: ['password'] });
    expect(kept!.after).not.toHaveProperty('secretsWritten');
    // Without a username the server is used without logging in: the password goes.
    const [removed] = await put({ ...smtp, smtp: { host: 'smtp.example.com', port: 587 }, secrets: { password: null } });
    expect(removed).toMatchObject({ before: expect.objectContaining({ secretsSet: ['password'] }), after: expect.objectContaining({ secretsSet: [] }) });
    expect(removed!.after).not.toHaveProperty('secretsWritten');
    await put({ ...smtp, secrets: { password: 'third-do-not-leak' } });

    const { requestId, headers } = traced();
    expect((await app.http.delete(path, { headers })).status).toBe(204);
    const [override] = await auditRecordsOf(app, requestId);
    expect(override).toMatchObject({ action: 'email_provider.override.removed', tenantId, before: expect.objectContaining({ secretsSet: ['password'] }), after: null });
    const all = await app.gatehouse.services.orm.em.fork().find(AuditLog, { targetType: 'email_provider', tenantId }, { filters: false });
    expect(JSON.stringify(all.map((record) => [record.before, record.after]))).not.toContain('do-not-leak');
  });

  it('an auth provider’s update names the secrets it wrote, so a secret-only change shows', async () => {
    const created = await app.http.post('/auth-providers', {
      type: 'oauth',
      name: 'Rotated upstream',
      config: { provider: 'github', clientId: 'gh-client' },
      secrets: { clientSecret: 'first-do-not-leak' },
    });
    expect(created.status).toBe(201);
    const patch = async (body: unknown) => {
      const { requestId, headers } = traced();
      expect((await app.http.patch(`/auth-providers/${created.body.id}`, body, { headers })).status).toBe(200);
      const [record] = await auditRecordsOf(app, requestId);
      return record!;
    };
    const rotated = await patch({ secrets: { clientSecret: 'second-do-not-leak' } });
    expect(rotated).toMatchObject({ action: 'auth_provider.updated', before: expect.objectContaining({ secretsSet: ['clientSecret'] }), after: expect.objectContaining({ secretsSet: ['clientSecret'], secretsWritten: ['clientSecret'] }) });
    expect(rotated.before).not.toHaveProperty('secretsWritten');
    const renamed = await patch({ name: 'Renamed upstream' });
    expect(renamed.after).not.toHaveProperty('secretsWritten');
    expect(JSON.stringify([rotated, renamed])).not.toContain('do-not-leak');
  });
});
