import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password-hash.ts';
import { dashboardClientOf, ensureConsoles } from '../../src/domain/console/console.ts';
import { dashboardUrl } from '../../src/domain/console/dashboard-client.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { HttpClient } from '../support/http.ts';
import { issuedLink } from '../support/email-sign-in.ts';
import * as oidc from 'openid-client';
import { authorize, basicAuth, codeAuthorizationUrl, codeThroughSeam, createTestClient, discover, OFFLINE_CONSENT, postForm, signInForManagement } from '../support/oauth.ts';
import { secondInstance, settled, TWO_INSTANCES } from '../support/second-instance.ts';
import { createKeySecret } from '../support/keys.ts';
import { openSse } from '../support/sse.ts';
import { flowSender, settledDelivery } from '../support/email-outbox.ts';
import { enqueueMail } from '../../src/domain/email/outbox.ts';
import type { OutboxWorker } from '../../src/domain/email/deliver.ts';

let app: TestApp;
let orgId: string;
let orgPath: string;

beforeAll(async () => {
  // Reachable: the console's operator signs in through discovery.
  app = await startTestApp({}, { reachablePublicUrl: true });
  orgId = (await app.http.get(`/applications/${app.root.applicationId}`)).body.organizationId as string;
  orgPath = `/organizations/${orgId}`;
});
afterAll(async () => app?.close());

describe('organizations', () => {
  it('reads the organization with its status and default billing, renames it, and records the change', async () => {
    const read = await app.http.get(orgPath);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: orgId, status: 'active', billing: { plan: 'free', billingEmail: null, address: null, taxId: null } });
    const renamed = await app.http.patch(orgPath, { name: '  Acme Corp ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: orgId, name: 'Acme Corp', status: 'active' });
    expect((await app.http.get(orgPath)).body.name).toBe('Acme Corp');
    const audit = await app.http.get(`/audit-logs?action=organization.updated&target=${orgId}`);
    expect(audit.body.data[0]).toMatchObject({ action: 'organization.updated', target: { type: 'organization', id: orgId }, outcome: 'success' });
    // Billing never set: the snapshot shows the defaults the API shows, nothing else.
    const billing = { plan: 'free', billingEmail: null, address: null, taxId: null };
    expect(audit.body.data[0].changes).toEqual({
      before: { name: read.body.name, status: 'active', billing },
      after: { name: 'Acme Corp', status: 'active', billing },
    });
    const [row] = await app.sql<{ type: string }>('select jsonb_typeof(billing) as type from organization where id = ?', [orgId]);
    expect(row).toEqual({ type: 'object' });
    // As an organization made before then holds it.
    await app.sql(`update organization set billing = '"{}"'::jsonb where id = ?`, [orgId]);

    const gql = await app.http.graphql('mutation($id: UUID!) { updateOrganization(orgId: $id, input: {name: "Acme"}) { name status } }', { id: orgId });
    expect(gql.body.data).toEqual({ updateOrganization: { name: 'Acme', status: 'active' } });
    const [legacy] = (await app.http.get(`/audit-logs?action=organization.updated&target=${orgId}`)).body.data;
    expect(legacy.changes.before).toEqual({ name: 'Acme Corp', status: 'active', billing });
  });

  it('refuses a bad name, unknown fields, another organization and a key without the permission, changing nothing', async () => {
    expect((await app.http.patch(orgPath, { name: '   ' })).body).toMatchObject({ code: 'validation_error', field: 'name' });
    expect((await app.http.patch(orgPath, { name: null })).body).toMatchObject({ code: 'validation_error', field: 'name' });
    expect((await app.http.patch(orgPath, { status: 'deactivated' })).status).toBe(422);
    const other = await app.bootstrapAnother();
    const otherOrg = (await app.as({ apiKey: other.apiKey }).get(`/applications/${other.applicationId}`)).body.organizationId as string;
    expect((await app.http.patch(`/organizations/${otherOrg}`, { name: 'Mine now' })).body).toMatchObject({ code: 'not_found', field: 'orgId' });
    expect((await app.http.post(`/organizations/${otherOrg}/deactivate`)).status).toBe(404);
    expect((await app.http.put(`/organizations/${otherOrg}/billing`, { plan: 'pro' })).status).toBe(404);
    expect((await app.http.patch('/organizations/not-a-uuid', { name: 'x' })).body).toMatchObject({ code: 'validation_error', field: 'orgId' });
    const reader = await createKeySecret(app, ['organizations:read']);
    expect((await app.as({ apiKey: reader }).patch(orgPath, { name: 'Nope' })).body).toMatchObject({ code: 'forbidden' });
    expect((await app.as({ apiKey: reader }).post(`${orgPath}/deactivate`)).body).toMatchObject({ code: 'forbidden' });
    const tenant = await app.createTenant('Org tenant');
    const tenantAdmin = await createKeySecret(app, ['*'], tenant);
    expect((await app.as({ apiKey: tenantAdmin }).post(`${orgPath}/deactivate`)).body).toMatchObject({ code: 'forbidden' });
    expect((await app.as({ apiKey: tenantAdmin }).put(`${orgPath}/billing`, { plan: 'pro' })).body).toMatchObject({ code: 'forbidden' });
    // Nor read: the owner's billing address and tax id are not a tenant's administrators' business.
    const tenantRead = await app.as({ apiKey: tenantAdmin }).get(orgPath);
    expect(tenantRead.status).toBe(403);
    expect(tenantRead.body.billing).toBeUndefined();
    const tenantGql = await app.as({ apiKey: tenantAdmin }).graphql('query($id: UUID!) { organization(orgId: $id) { billing { taxId } } }', { id: orgId });
    expect(tenantGql.body.data ?? null).toBeNull();
    expect(tenantGql.body.errors?.[0]?.extensions?.['code']).toBe('forbidden');
    const [row] = await app.sql<{ name: string; status: string }>('select name, status from organization where id = ?', [orgId]);
    expect(row).toEqual({ name: 'Acme', status: 'active' });
  });

  it('replaces the billing settings, validated and audited', async () => {
    const billing = {
      plan: 'pro',
      billingEmail: 'billing@acme.example',
      address: { line1: 'Hauptstraße 1', city: 'Berlin', postalCode: '10115', country: 'de' },
      taxId: 'de 123456789',
    };
    const put = await app.http.put(`${orgPath}/billing`, billing);
    expect(put.status).toBe(200);
    expect(put.body.billing).toEqual({
      plan: 'pro',
      billingEmail: 'billing@acme.example',
      address: { line1: 'Hauptstraße 1', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' },
      taxId: 'DE 123456789',
    });
    expect((await app.http.get(orgPath)).body.billing).toEqual(put.body.billing);
    const [record] = (await app.http.get(`/audit-logs?action=organization.billing.updated`)).body.data;
    expect(record).toMatchObject({ target: { type: 'organization', id: orgId }, changes: expect.anything() });

    const refusals: [Record<string, unknown>, string][] = [
      [{ plan: 'gold' }, 'plan'],
      [{ plan: 'pro', billingEmail: 'not an address' }, 'billingEmail'],
      [{ plan: 'pro', address: { line1: 'x', city: 'Berlin', country: 'Germany' } }, 'address.country'],
      // Two letters, but no country: unassigned (ZZ, QQ, XX), reserved (UK, EU) or withdrawn (YU).
      ...['ZZ', 'qq', 'XX', 'UK', 'EU', 'YU'].map((country): [Record<string, unknown>, string] => [{ plan: 'pro', address: { line1: 'x', city: 'Berlin', country } }, 'address.country']),
      // No code in any case, though upper-casing makes one of them (ß → SS, ﬁ → FI, ıe → IE): nothing but its case changes.
      ...['ß', 'ﬁ', 'ıe'].map((country): [Record<string, unknown>, string] => [{ plan: 'pro', address: { line1: 'x', city: 'Berlin', country } }, 'address.country']),
      [{ plan: 'pro', address: { line1: ' ', city: 'Berlin', country: 'DE' } }, 'address.line1'],
      [{ plan: 'pro', address: { line1: 'a\nb', city: 'Berlin', country: 'DE' } }, 'address.line1'],
      // Printed on invoices as the city is: no text reordered by a directional override, none of only invisible characters.
      [{ plan: 'pro', address: { line1: 'Hauptstraße \u202E1', city: 'Berlin', country: 'DE' } }, 'address.line1'],
      [{ plan: 'pro', address: { line1: 'x', line2: 'c/o \u2066Acme', city: 'Berlin', country: 'DE' } }, 'address.line2'],
      [{ plan: 'pro', address: { line1: 'x', city: 'Berlin', postalCode: '\u200B', country: 'DE' } }, 'address.postalCode'],
      [{ plan: 'pro', address: { line1: 'x', city: 'Berlin', region: 'Bavaria\u202D', country: 'DE' } }, 'address.region'],
      [{ plan: 'pro', taxId: '<script>' }, 'taxId'],
      [{ plan: 'pro', taxId: 'DE ſt123' }, 'taxId'],
    ];
    for (const [body, field] of refusals) {
      const refused = await app.http.put(`${orgPath}/billing`, body);
      expect(refused.status, field).toBe(422);
      expect(refused.body, field).toMatchObject({ code: 'validation_error', field });
    }
    expect((await app.http.get(orgPath)).body.billing).toEqual(put.body.billing);

    // A PUT replaces: what it leaves out is cleared.
    const plain = await app.http.put(`${orgPath}/billing`, { plan: 'starter' });
    expect(plain.body.billing).toEqual({ plan: 'starter', billingEmail: null, address: null, taxId: null });
  });

  it('records each write, changed or not, as every write is (docs/audit.md); only a repeated deactivation records nothing', async () => {
    const count = async (action: string) => (await app.http.get(`/audit-logs?action=${action}&target=${orgId}&pageSize=100`)).body.data.length as number;
    const [renames, billings] = [await count('organization.updated'), await count('organization.billing.updated')];
    const name = (await app.http.get(orgPath)).body.name as string;
    expect((await app.http.patch(orgPath, { name })).status).toBe(200);
    expect((await app.http.patch(orgPath, {})).status).toBe(200);
    const billing = (await app.http.get(orgPath)).body.billing as Record<string, unknown>;
    expect((await app.http.put(`${orgPath}/billing`, billing)).status).toBe(200);
    expect([await count('organization.updated'), await count('organization.billing.updated')]).toEqual([renames + 2, billings + 1]);
    const [record] = (await app.http.get(`/audit-logs?action=organization.billing.updated&target=${orgId}`)).body.data;
    expect(record.changes.before).toEqual(record.changes.after);

    // Two at once: one deactivation, one record.
    const deactivations = await count('organization.deactivated');
    const both = await Promise.all([app.http.post(`${orgPath}/deactivate`), app.http.post(`${orgPath}/deactivate`)]);
    expect(both.map((answer) => [answer.status, answer.body.status])).toEqual([[200, 'deactivated'], [200, 'deactivated']]);
    expect((await app.http.post(`${orgPath}/reactivate`)).status).toBe(200);
    expect(await count('organization.deactivated')).toBe(deactivations + 1);
  });

  it('deactivation refuses every management request and sign-in of its applications until reactivation; nothing is deleted', async () => {
    const other = await app.bootstrapAnother();
    const client = await createTestClient(app, { permissions: ['users:read'] });
    const token = `${app.baseUrl}/oauth2/token`;
    const grant = () => postForm(token, { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret! });
    expect((await grant()).status).toBe(200);
    const user = await app.http.post('/users', { email: 'stays@example.com' });
    expect(user.status).toBe(201);
    const users = (await app.http.get('/users')).body;

    const deactivated = await app.http.post(`${orgPath}/deactivate`);
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.status).toBe('deactivated');

    for (const refused of [await app.http.get('/users'), await app.http.get(orgPath), await app.http.post('/users', { email: 'new@example.com' }), await app.http.patch(orgPath, { name: 'x' })]) {
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('organization_deactivated');
    }
    const gql = await app.http.graphql('{ users { data { id } } }');
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'organization_deactivated', status: 403 });
    const token401 = await grant();
    expect(token401.status).toBe(401);
    expect(token401.body.error).toBe('invalid_client');
    // Another organization's application is served as before.
    expect((await app.as({ apiKey: other.apiKey }).get('/users')).status).toBe(200);
    const [count] = await app.sql<{ n: number }>('select count(*)::int as n from app_user where application_id = ?', [app.root.applicationId]);
    expect(count?.n).toBe(users.data.length);

    const reactivated = await app.http.post(`${orgPath}/reactivate`);
    expect(reactivated.status).toBe(200);
    expect(reactivated.body.status).toBe('active');
    expect((await app.http.get('/users')).body).toEqual(users);
    expect((await grant()).status).toBe(200);
    const actions = (await app.http.get(`/audit-logs?target=${orgId}&action=organization.*`)).body.data.map((r: { action: string }) => r.action);
    expect(actions.slice(0, 2)).toEqual(['organization.reactivated', 'organization.deactivated']);
  });

  it('a deactivated organization’s sign-ins neither validate, refresh, introspect nor read userinfo until reactivation', async () => {
    const redirect = 'https://app.example/callback';
    const web = await createTestClient(app, { type: 'web', redirectUris: [redirect] });
    const config = await discover(app, web.clientId, oidc.ClientSecretBasic(web.clientSecret), { redirect_uris: [redirect] });
    const userId = await app.createUser('signed-in@example.com');
    const { callback, verifier } = await codeThroughSeam(app, config, redirect, { userId, tenantId: null }, OFFLINE_CONSENT);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
    const validate = (token: string) => app.http.post('/sessions/validate', { token });
    const introspect = (token: string) => postForm(`${app.baseUrl}/oauth2/introspect`, { token }, { authorization: basicAuth(web.clientId, web.clientSecret!) });
    const refresh = () => postForm(`${app.baseUrl}/oauth2/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! }, { authorization: basicAuth(web.clientId, web.clientSecret!) });
    const userinfo = () => fetch(`${app.baseUrl}/oauth2/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    for (const token of [tokens.access_token, tokens.refresh_token!]) {
      expect((await validate(token)).body.valid).toBe(true);
      expect((await introspect(token)).body.active).toBe(true);
    }
    expect((await userinfo()).status).toBe(200);

    expect((await app.http.post(`${orgPath}/deactivate`)).status).toBe(200);
    try {
      for (const token of [tokens.access_token, tokens.refresh_token!]) {
        const refused = await validate(token);
        expect([refused.status, refused.body.code]).toEqual([403, 'organization_deactivated']);
        const introspection = await introspect(token);
        expect([introspection.status, introspection.body.error]).toEqual([401, 'invalid_client']);
      }
      const refreshed = await refresh();
      expect([refreshed.status, refreshed.body.error]).toEqual([401, 'invalid_client']);
      expect((await userinfo()).status).toBe(401);
      // Nothing was ended: the sign-in is still there, unserved.
      const [grants] = await app.sql<{ n: number }>(`select count(*)::int as n from oidc_model where model = 'Grant' and payload->>'accountId' = ?`, [userId]);
      expect(grants?.n).toBe(1);
    } finally {
      expect((await app.http.post(`${orgPath}/reactivate`)).status).toBe(200);
    }
    for (const token of [tokens.access_token, tokens.refresh_token!]) {
      expect((await validate(token)).body.valid).toBe(true);
      expect((await introspect(token)).body.active).toBe(true);
    }
    expect((await userinfo()).status).toBe(200);
    const refreshed = await refresh();
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
  });

  it('ends its audit streams, sending nothing committed after, and refuses new ones; another organization’s stream goes on', async () => {
    const other = await app.bootstrapAnother();
    const open = (apiKey: string) => openSse(`${app.baseUrl}/api/v1/audit-logs/stream`, { 'x-api-key': apiKey });
    const [stream, witness] = [await open(app.root.apiKey), await open(other.apiKey)];
    const before = await app.createTenant('Streamed before');
    await stream.until((s) => s.events.some((event) => event.data.includes(before)), 'the record written before the deactivation');
    expect((await app.http.post(`${orgPath}/deactivate`)).status).toBe(200);
    try {
      await stream.until((s) => s.ended, 'the deactivated organization’s stream ended');
      expect(stream.endedCleanly).toBe(true);
      expect(stream.events.some((event) => event.data.includes('organization.deactivated'))).toBe(false);
      const refused = await open(app.root.apiKey);
      expect([refused.status, (refused.body as { code: string }).code]).toEqual([403, 'organization_deactivated']);
      const otherTenant = await app.createTenant('Streamed meanwhile', other);
      await witness.until((s) => s.events.some((event) => event.data.includes(otherTenant)), 'the other organization’s record');
    } finally {
      witness.close();
      expect((await app.http.post(`${orgPath}/reactivate`)).status).toBe(200);
    }
  });

  it('while deactivated, reactivation still needs its permission', async () => {
    const reader = await createKeySecret(app, ['organizations:read']);
    expect((await app.http.post(`${orgPath}/deactivate`)).status).toBe(200);
    try {
      // A second deactivation (a retry) is served and changes nothing.
      const again = await app.http.post(`${orgPath}/deactivate`);
      expect([again.status, again.body.status]).toEqual([200, 'deactivated']);
      const reactivated = (await app.http.graphql('mutation($id: UUID!) { reactivateOrganization(orgId: $id) { status } }', { id: orgId })).body;
      expect(reactivated.data).toEqual({ reactivateOrganization: { status: 'active' } });
      expect((await app.http.post(`${orgPath}/deactivate`)).status).toBe(200);
      expect((await app.as({ apiKey: reader }).post(`${orgPath}/reactivate`)).body.code).toBe('forbidden');
      const gql = await app.http.graphql('mutation($id: UUID!) { reactivateOrganization(orgId: $id) { status } }', { id: orgId });
      expect(gql.body.data).toEqual({ reactivateOrganization: { status: 'active' } });
    } finally {
      await app.http.post(`${orgPath}/reactivate`);
    }
    expect((await app.http.get(orgPath)).body.status).toBe('active');
  });
});

describe('the console while its organization is deactivated', () => {
  it('still signs its operators in to the dashboard (their mailed links open), who may then only reactivate; the other applications’ clients fail', async () => {
    const { orm, config } = app.gatehouse.services;
    await ensureConsoles(orm, config.publicUrl, randomUUID(), { email: 'ops@org.example', passwordHash: await hashPassword('Operator-Horse-42') });
    const [{ id: operatorId }] = (await app.sql<{ id: string }>(
      'select u.id from app_user as u join application as a on a.id = u.application_id where a.console and a.organization_id = ?',
      [orgId],
    )) as [{ id: string }];
    const dashboard = { clientId: (await dashboardClientOf(orm.em.getConnection(), config.publicUrl, orgId))!.clientId, redirectUri: dashboardUrl(config.publicUrl) };
    const user = await app.createUser('ordinary@org.example');
    const ordinary = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: ['https://app.example/callback'] });
    const credential = await createTestClient(app, { permissions: ['users:read'] });
    const grant = () => postForm(`${app.baseUrl}/oauth2/token`, { grant_type: 'client_credentials', client_id: credential.clientId, client_secret: credential.clientSecret! });
    expect(await signInForManagement(app, user, null, { clientId: ordinary.clientId, redirectUri: 'https://app.example/callback' })).toBeTypeOf('string');

    expect((await app.http.post(`${orgPath}/deactivate`)).status).toBe(200);
    try {
      const refused = await authorize(app, codeAuthorizationUrl(config.publicUrl, ordinary.clientId, 'https://app.example/callback'), { userId: user, tenantId: null });
      expect(refused).toMatchObject({ kind: 'page', status: 400, body: expect.stringContaining('invalid_client') });
      expect((await grant()).body.error).toBe('invalid_client');

      const operator = app.as({ bearer: await signInForManagement(app, operatorId, null, dashboard) });
      const onApplication = { headers: { 'x-gatehouse-application': app.root.applicationId } };
      for (const refused of [
        await operator.get('/managed-applications'),
        await operator.get(orgPath),
        await operator.patch(orgPath, { name: 'Renamed while deactivated' }),
        await operator.get('/users', onApplication),
      ]) {
        expect(refused.body.code).toBe('organization_deactivated');
      }
      // An operator's mailed link still opens, as the console's clients are served: their way back in.
      const [{ id: consoleId }] = (await app.sql<{ id: string }>('select id from application where console and organization_id = ?', [orgId])) as [{ id: string }];
      const reset = await issuedLink(app, operatorId, dashboard.clientId, config.publicUrl, { applicationId: consoleId });
      expect((await fetch(reset)).status).toBe(200);
      const reactivated = await operator.post(`${orgPath}/reactivate`);
      expect([reactivated.status, reactivated.body.status]).toEqual([200, 'active']);
      // Recorded in the console's log: the log is that of the application whose credentials acted.
      const [record] = (await operator.get(`/audit-logs?action=organization.reactivated&target=${orgId}`)).body.data;
      expect(record.actor).toMatchObject({ type: 'user', id: operatorId });
      expect((await operator.get('/managed-applications')).status).toBe(200);
      expect((await operator.get('/users', onApplication)).status).toBe(200);
    } finally {
      await app.http.post(`${orgPath}/reactivate`);
    }
    expect((await grant()).status).toBe(200);
  });
});

// After the console's test, which makes the organization's console.
describe('mail while the organization is deactivated', () => {
  it('its applications’ queued mail waits, unsent, and goes on reactivation; another organization’s goes meanwhile', async () => {
    const outbox = app.gatehouse.services.outbox as OutboxWorker;
    const other = await app.bootstrapAnother();
    const otherKey = app.as({ apiKey: other.apiKey });
    const queue = async (client: HttpClient, to: string) => {
      const queued = await client.post('/email/test', { to });
      expect(queued.status, JSON.stringify(queued.body)).toBe(201);
      return queued.body.id as string;
    };
    const stateOf = async (id: string) => (await app.sql<{ status: string; attempts: number }>('select status, attempts from email_delivery where id = ?', [id]))[0];
    await outbox.stop();
    let held: string;
    try {
      held = await queue(app.http, 'held@example.com');
      expect((await app.http.post(`${orgPath}/deactivate`)).status).toBe(200);
    } finally {
      outbox.start({ warn: () => undefined });
    }
    try {
      // Queued after it, so due after it: a claim that takes this one would have taken the held one first.
      const witness = await queue(otherKey, 'witness@example.com');
      expect((await settledDelivery(otherKey, `/email/deliveries/${witness}`)).status).toBe('sent');
      expect(await stateOf(held)).toEqual({ status: 'queued', attempts: 0 });
      // The console's mail goes: its operators' way back in.
      const [{ id: consoleId }] = (await app.sql<{ id: string }>('select id from application where console and organization_id = ?', [orgId])) as [{ id: string }];
      const sender = { ...flowSender(app), applicationId: consoleId };
      const operatorMail = await app.gatehouse.services.orm.em.fork().transactional((tx) => enqueueMail(tx, sender, { templateKey: 'welcome', to: 'ops@example.com', tenantId: null }));
      outbox.wake();
      for (let state = await stateOf(operatorMail.id); state?.status === 'queued'; state = await stateOf(operatorMail.id)) await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await stateOf(operatorMail.id))?.status).toBe('sent');
      expect(await stateOf(held)).toEqual({ status: 'queued', attempts: 0 });
    } finally {
      expect((await app.http.post(`${orgPath}/reactivate`)).status).toBe(200);
    }
    expect((await settledDelivery(app.http, `/email/deliveries/${held}`)).status).toBe('sent');
  });
});

describe.runIf(TWO_INSTANCES)('deactivation across instances (Redis)', () => {
  const second = secondInstance(() => app);

  it('the other instance, whose caches held the organization as active, refuses at once and serves again on reactivation', async () => {
    const onSecond = new HttpClient(second.url(), { apiKey: app.root.apiKey });
    const client = await createTestClient(app, { permissions: ['users:read'] });
    const grant = () => postForm(`${second.url()}/oauth2/token`, { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret! });
    expect((await onSecond.get('/users')).status).toBe(200);
    expect((await grant()).status).toBe(200);

    expect((await app.http.post(`${orgPath}/deactivate`)).status).toBe(200);
    try {
      expect(await settled(async () => (await onSecond.get('/users')).body.code, (code) => code === 'organization_deactivated')).toBe('organization_deactivated');
      expect(await settled(async () => (await grant()).status, (status) => status === 401)).toBe(401);
    } finally {
      expect((await app.http.post(`${orgPath}/reactivate`)).status).toBe(200);
    }
    expect(await settled(async () => (await onSecond.get('/users')).status, (status) => status === 200)).toBe(200);
    expect(await settled(async () => (await grant()).status, (status) => status === 200)).toBe(200);
  });
});

// Last: it gives the organization a second application, after which no application's own key manages it.
describe('an organization of several applications', () => {
  it('is changed only with its console’s credentials: no application’s administrator deactivates the others', async () => {
    const created = await app.http.post('/applications', { name: 'Team B' });
    expect(created.status).toBe(201);
    const teamB = app.as({ apiKey: created.body.initialApiKey.secret as string });
    const before = (await app.http.get(orgPath)).body;
    for (const client of [teamB, app.http]) {
      for (const refused of [
        await client.put(`${orgPath}/billing`, { plan: 'enterprise' }),
        await client.patch(orgPath, { name: 'Taken' }),
        await client.post(`${orgPath}/deactivate`),
      ]) {
        expect(refused.status).toBe(403);
        expect(refused.body.message).toContain('console');
      }
    }
    expect((await teamB.get(orgPath)).body).toEqual(before);
    expect((await app.http.get('/users')).status).toBe(200);

    const { orm, config } = app.gatehouse.services;
    const [{ id: operatorId }] = (await app.sql<{ id: string }>(
      'select u.id from app_user as u join application as a on a.id = u.application_id where a.console and a.organization_id = ?',
      [orgId],
    )) as [{ id: string }];
    const dashboard = { clientId: (await dashboardClientOf(orm.em.getConnection(), config.publicUrl, orgId))!.clientId, redirectUri: dashboardUrl(config.publicUrl) };
    const operator = app.as({ bearer: await signInForManagement(app, operatorId, null, dashboard) });
    const billed = await operator.put(`${orgPath}/billing`, { plan: 'enterprise' });
    expect(billed.status, JSON.stringify(billed.body)).toBe(200);
    expect(billed.body.billing.plan).toBe('enterprise');
  });
});
