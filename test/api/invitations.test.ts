import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConsoles } from '../../src/domain/console/console.ts';
import { newId } from '../../src/ids.ts';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { auditRecordsOf, traced } from '../support/audit.ts';
import { CookieJar, readForm, type Visit } from '../support/cookie-jar.ts';
import { passwordProviderId } from '../support/auth-providers.ts';
import type { HttpClient } from '../support/http.ts';
import { issueTestKey } from '../support/keys.ts';
import { usingEmbeddedDatabase } from '../support/database.ts';
import { queuedBehind } from '../support/row-lock.ts';
import { addDomain } from '../support/domains.ts';
import { fetchVia } from '../support/host-fetch.ts';
import { mailedCode, mails } from '../support/email-sign-in.ts';
import { outboxStoppedDuring } from '../support/email-outbox.ts';
import { giveTotp } from '../support/totp.ts';
import { giveKey, SoftAuthenticator, webauthnFormOf } from '../support/webauthn.ts';

let app: TestApp;
let appPath: string;
let tenantA: string;
let tenantB: string;
let inA: string;
let inB: string;

const PASSWORD = 'Correct-Horse-9';

/** The latest mail of `templateKey` to `to` (the outbox lists oldest first unless asked newest first), or undefined. */
async function latestDelivery(to: string, templateKey: 'invitation' | 'password_reset', http: HttpClient = app.http) {
  const list = await http.get(`/email/deliveries?templateKey=${templateKey}&to=${encodeURIComponent(to)}&order=newest`);
  expect(list.status).toBe(200);
  const latest = list.body.data[0] as { id: string; tenantId: string | null } | undefined;
  return latest === undefined ? undefined : { ...latest, text: (await http.get(`/email/deliveries/${latest.id}`)).body.text as string };
}

/** The link of the latest invitation mail to `to`, as read from the outbox's rendered text. */
async function mailedLink(to: string, http: HttpClient = app.http): Promise<URL> {
  const text = (await latestDelivery(to, 'invitation', http))?.text;
  const link = text === undefined ? undefined : /https?:\/\/\S+\/invitation\?token=[\w-]+/.exec(text)?.[0];
  expect(link, text).toBeDefined();
  return new URL(link!);
}

/** `url`'s path and query on the test server. */
const onTestServer = (url: URL) => `${app.baseUrl}${url.pathname}${url.search}`;

/** The link of the latest invitation mail to `to`, aimed at the test server. */
async function linkMailedTo(to: string, http: HttpClient = app.http): Promise<string> {
  return onTestServer(await mailedLink(to, http));
}

interface Page {
  status: number;
  html: string;
  headers?: Headers;
}

async function openPage(url: string): Promise<Page> {
  const response = await fetch(url);
  return { status: response.status, html: await response.text() };
}

const hiddenField = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];

/** The form of an opened invitation page: where it posts, and its hidden fields. */
function formOf(page: Page) {
  expect(page.status, page.html).toBe(200);
  const action = /<form method="post" action="([^"]+)"/.exec(page.html)![1]!.replaceAll('&amp;', '&');
  return { action, csrf: hiddenField(page.html, 'csrf')!, token: hiddenField(page.html, 'token')! };
}

async function post(action: string, fields: Record<string, string>): Promise<Page> {
  const response = await fetch(`${app.baseUrl}${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, html: await response.text(), headers: response.headers };
}

/** Opens the link and submits its form with `fields` (the form's own hidden fields added). */
async function submit(url: string, fields: Record<string, string>): Promise<Page> {
  const { action, csrf, token } = formOf(await openPage(url));
  return post(action, { csrf, token, ...fields });
}

async function invite(path: string, body: Record<string, unknown>, http: HttpClient = app.http) {
  const sent = await http.post(`${path}/invitations`, body);
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  return sent.body as { id: string; status: string; tenantId: string };
}

beforeAll(async () => {
  ({ app, appPath, tenants: [tenantA, tenantB] } = await startTestAppWithTenants(['Acme', 'Globex']));
  inA = `${appPath}/tenants/${tenantA}`;
  inB = `${appPath}/tenants/${tenantB}`;
});
afterAll(async () => app?.close());

describe('invitations', () => {
  it('sends an invitation on a tenant path: pending, listed, mailed through the outbox, audited', async () => {
    const email = `ivy-${randomUUID()}@example.com`;
    const sent = await invite(inA, { email, expiresInDays: 3 });
    expect(sent).toMatchObject({ email, tenantId: tenantA, roleIds: [], status: 'pending', acceptedAt: null, revokedAt: null, invitedBy: { type: 'api_key' } });
    const days = (Date.parse((sent as any).expiresAt) - Date.parse((sent as any).createdAt)) / 86_400_000;
    expect(Math.round(days)).toBe(3);
    expect((await app.http.get(`${inA}/invitations/${sent.id}`)).body).toEqual(sent);
    expect((await app.http.get(`${inA}/invitations?status=pending`)).body.data).toContainEqual(sent);
    expect((await app.http.get(`${inA}/invitations?status=accepted`)).body.data).not.toContainEqual(sent);
    // The other tenant's path and another application see nothing of it.
    expect((await app.http.get(`${inB}/invitations/${sent.id}`)).body).toMatchObject({ code: 'not_found', field: 'invitationId' });
    expect((await app.http.get(`${inB}/invitations`)).body.data.map((i: { id: string }) => i.id)).not.toContain(sent.id);
    const other = await app.bootstrapAnother();
    expect((await app.as({ apiKey: other.apiKey }).get(`/invitations/${sent.id}`)).status).toBe(404);

    const link = await linkMailedTo(email);
    expect(link).toContain('/invitation?token=');
    const [row] = await app.sql<{ token_hash: string }>('select token_hash from invitation where id = ?', [sent.id]);
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(link).not.toContain(row!.token_hash);
    const audit = await app.http.get(`/audit-logs?action=invitation.created&target=${sent.id}`);
    expect(audit.body.data[0]).toMatchObject({ tenantId: tenantA, target: { type: 'invitation', id: sent.id } });

    const gql = await app.http.graphql('query($t: UUID) { invitations(tenantId: $t, status: pending) { data { id status } } }', { t: tenantA });
    expect(gql.body.data.invitations.data).toContainEqual({ id: sent.id, status: 'pending' });
  });

  it('refuses bad input, a member, a second pending invitation, foreign roles and roles beyond the caller, changing nothing', async () => {
    const before = (await app.sql<{ n: number }>('select count(*)::int as n from invitation'))[0]!.n;
    expect((await app.http.post(`${inA}/invitations`, { email: 'not an address' })).body).toMatchObject({ code: 'validation_error', field: 'email' });
    expect((await app.http.post(`${inA}/invitations`, { email: 'a@example.com', expiresInDays: 0 })).body).toMatchObject({ code: 'validation_error', field: 'expiresInDays' });
    expect((await app.http.post(`${inA}/invitations`, { email: 'a@example.com', expiresInDays: 31 })).body).toMatchObject({ code: 'validation_error', field: 'expiresInDays' });
    expect((await app.http.post(`/invitations`, { email: 'a@example.com' })).body).toMatchObject({ code: 'validation_error', field: 'tenantId' });
    expect((await app.http.post(`${inA}/invitations`, { email: 'a@example.com', extra: 1 })).status).toBe(422);

    const member = await app.http.post(`${inA}/users`, { email: 'Member@Example.com' });
    expect(member.status).toBe(201);
    expect((await app.http.post(`${inA}/invitations`, { email: 'member@example.COM' })).body).toMatchObject({ code: 'already_exists', field: 'email' });

    const twice = `twice-${randomUUID()}@example.com`;
    await invite(inA, { email: twice });
    expect((await app.http.post(`${inA}/invitations`, { email: twice.toUpperCase() })).body).toMatchObject({ code: 'already_exists', field: 'email' });
    // Another tenant may invite the same address.
    await invite(inB, { email: twice });

    const roleOfB = await app.http.post(`${inB}/roles`, { key: `b_${Date.now()}`, name: 'B role', permissions: ['users:read'] });
    expect((await app.http.post(`${inA}/invitations`, { email: 'r@example.com', roleIds: [roleOfB.body.id] })).body).toMatchObject({ code: 'not_found', field: 'roleIds' });
    const narrow = await app.http.post('/api-keys', { name: 'inviter', permissions: ['users:write', 'role_assignments:write'], tenantId: tenantA });
    const roles = (await app.http.get(`${inA}/roles`)).body.data as { id: string; key: string }[];
    const tenantAdmin = roles.find((role) => role.key === 'tenant_admin')!.id;
    const member2 = roles.find((role) => role.key === 'member')!.id;
    const narrowClient = app.as({ apiKey: narrow.body.secret });
    expect((await narrowClient.post('/invitations', { email: 'esc@example.com', roleIds: [tenantAdmin] })).body).toMatchObject({ code: 'forbidden' });
    const noAssign = await app.http.post('/api-keys', { name: 'inviter2', permissions: ['users:write'], tenantId: tenantA });
    expect((await app.as({ apiKey: noAssign.body.secret }).post('/invitations', { email: 'esc@example.com', roleIds: [member2] })).body).toMatchObject({ code: 'forbidden' });
    const reader = await app.http.post('/api-keys', { name: 'reader', permissions: ['users:read'] });
    expect((await app.as({ apiKey: reader.body.secret }).post(`${inA}/invitations`, { email: 'x@example.com' })).body).toMatchObject({ code: 'forbidden' });
    const after = (await app.sql<{ n: number }>('select count(*)::int as n from invitation'))[0]!.n;
    expect(after).toBe(before + 2);
  });

  it('the link creates an account that joins the tenant with the roles; a second use is refused with a page that says why', async () => {
    const email = `new-${randomUUID()}@example.com`;
    const role = await app.http.post(`${inA}/roles`, { key: `invited_${Date.now()}`, name: 'Invited', permissions: ['users:read'] });
    const sent = await invite(inA, { email, roleIds: [role.body.id] });
    const link = await linkMailedTo(email);
    const page = await openPage(link);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Join Acme');
    expect(page.html).toContain(`value="${email}"`);

    const weak = await submit(link, { name: 'Nia', password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.html).toContain('field-error');
    const misnamed = await submit(link, { name: 'Ni\u0007a', password: PASSWORD });
    expect(misnamed.status).toBe(400);
    expect(misnamed.html).toContain('role="alert">Name must not contain control characters.</p>');
    expect((await app.http.get(`${inA}/invitations/${sent.id}`)).body.status).toBe('pending');

    const accepted = await submit(link, { name: '  Nia ', password: PASSWORD });
    expect(accepted.status, accepted.html).toBe(200);
    expect(accepted.html).toContain('You are now a member of Acme');
    const invitation = (await app.http.get(`${inA}/invitations/${sent.id}`)).body;
    expect(invitation).toMatchObject({ status: 'accepted', acceptedUserId: expect.any(String) });
    const user = (await app.http.get(`${inA}/users/${invitation.acceptedUserId}`)).body;
    expect(user).toMatchObject({ email, name: 'Nia', status: 'active', tenantIds: [tenantA] });
    const check = await app.http.post(`${inA}/roles/check`, { subject: { type: 'user', id: user.id }, role: role.body.id });
    expect(check.body).toEqual({ allowed: true });
    expect((await app.http.post(`${inB}/roles/check`, { subject: { type: 'user', id: user.id }, role: role.body.id })).body).toEqual({ allowed: false });
    const actions = (await app.http.get(`${inA}/audit-logs?target=${sent.id}`)).body.data.map((r: { action: string }) => r.action);
    expect(actions).toContain('invitation.accepted');

    const again = await openPage(link);
    expect(again.status).toBe(410);
    expect(again.html).toContain('already been accepted');
    for (const refused of [await app.http.post(`${inA}/invitations/${sent.id}/resend`), await app.http.delete(`${inA}/invitations/${sent.id}`)]) {
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'validation_error', field: 'invitationId' });
    }
  });

  it('while its organization is deactivated the link is refused with a page that says so, accepting nothing, and works again on reactivation', async () => {
    const email = `paused-${randomUUID()}@example.com`;
    const sent = await invite(inA, { email });
    const link = await linkMailedTo(email);
    const { action, csrf, token } = formOf(await openPage(link));
    const orgPath = `/organizations/${(await app.http.get(`/applications/${app.root.applicationId}`)).body.organizationId as string}`;
    expect((await app.http.post(`${orgPath}/deactivate`)).status).toBe(200);
    try {
      for (const refused of [await openPage(link), await post(action, { csrf, token, name: 'Pia', password: PASSWORD })]) {
        expect(refused.status, refused.html).toBe(403);
        expect(refused.html).toContain('is not available at the moment: this link cannot be used for now.');
      }
    } finally {
      expect((await app.http.post(`${orgPath}/reactivate`)).status).toBe(200);
    }
    expect((await app.http.get(`${inA}/invitations/${sent.id}`)).body.status).toBe('pending');
    expect((await submit(link, { name: 'Pia', password: PASSWORD })).status).toBe(200);
  });

  it('while its organization is deactivated, an invitation to its console opens and is accepted, as the console’s links: its operators’ way back in', async () => {
    const { orm, config } = app.gatehouse.services;
    await ensureConsoles(orm, config.publicUrl, randomUUID());
    const [{ id: consoleId }] = (await app.sql<{ id: string }>('select id from application where organization_id = ? and console', [app.root.organizationId])) as [{ id: string }];
    const consoleKey = await issueTestKey(app, { applicationId: consoleId });
    // The console is single-tenant, which the API gives no tenant: its invitations' one is made here.
    const consoleTenant = newId();
    await app.sql(`insert into tenant (application_id, id, name, slug, created_at, updated_at) values (?, ?, 'Operators', 'operators', now(), now())`, [consoleId, consoleTenant]);
    const email = `operator-${randomUUID()}@example.com`;
    const sent = await invite(`/applications/${consoleId}/tenants/${consoleTenant}`, { email }, consoleKey);
    const link = await linkMailedTo(email, consoleKey);
    const orgPath = `/organizations/${app.root.organizationId}`;
    expect((await app.http.post(`${orgPath}/deactivate`)).status).toBe(200);
    try {
      const { action, csrf, token } = formOf(await openPage(link));
      const accepted = await post(action, { csrf, token, name: 'Olga', password: PASSWORD });
      expect(accepted.status, accepted.html).toBe(200);
    } finally {
      expect((await app.http.post(`${orgPath}/reactivate`)).status).toBe(200);
    }
    const path = `/applications/${consoleId}/tenants/${consoleTenant}/invitations/${sent.id}`;
    expect((await consoleKey.get(path)).body.status).toBe('accepted');
  });

  it('a resend gives the roles anew: it takes the rights to give them; an expired one is checked as a new invitation', async () => {
    const tenantAdmin = (await app.http.get(`${inA}/roles`)).body.data.find((role: { key: string }) => role.key === 'tenant_admin').id as string;
    const email = `revived-${randomUUID()}@example.com`;
    const sent = await invite(inA, { email, roleIds: [tenantAdmin] });
    await app.sql(`update invitation set expires_at = now() - interval '1 minute' where id = ?`, [sent.id]);
    const expiresAt = async () => (await app.sql<{ expires_at: string }>('select expires_at::text from invitation where id = ?', [sent.id]))[0]!.expires_at;
    const before = await expiresAt();

    // A key of tenant A that manages users but may not give roles: it may not send this invitation, nor resend it.
    const narrow = await app.http.post('/api-keys', { name: 'users only', permissions: ['users:write', 'users:read'], tenantId: tenantA });
    const client = app.as({ apiKey: narrow.body.secret as string });
    expect((await client.post('/invitations', { email: `other-${randomUUID()}@example.com`, roleIds: [tenantAdmin] })).body.code).toBe('forbidden');
    const refused = await client.post(`/invitations/${sent.id}/resend`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
    expect(await expiresAt()).toBe(before);
    expect((await app.http.get(`${inA}/invitations/${sent.id}`)).body.status).toBe('expired');

    // Another invitation to the address sent meanwhile: the expired one is not made pending beside it.
    const other = await invite(inA, { email });
    const duplicate = await app.http.post(`${inA}/invitations/${sent.id}/resend`);
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.field).toBe('email');
    expect(await expiresAt()).toBe(before);
    // With the other revoked, credentials that may give the role resend it.
    expect((await app.http.delete(`${inA}/invitations/${other.id}`)).status).toBe(204);
    const resent = await app.http.post(`${inA}/invitations/${sent.id}/resend`);
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    expect(resent.body.status).toBe('pending');
  });

  it('a pending invitation to an address that has joined the tenant since is not resent: 409, as sending it again, nothing mailed or changed', async () => {
    const email = `joined-${randomUUID()}@example.com`;
    const sent = await invite(inA, { email });
    const [before] = await app.sql<{ token_hash: string; expires_at: string }>('select token_hash, expires_at::text from invitation where id = ?', [sent.id]);
    const mailsBefore = (await app.http.get(`/email/deliveries?templateKey=invitation&to=${encodeURIComponent(email)}`)).body.data.length as number;
    expect((await app.http.post(`${inA}/users`, { email: email.toUpperCase() })).status).toBe(201);

    const resent = await app.http.post(`${inA}/invitations/${sent.id}/resend`);
    expect(resent.status, JSON.stringify(resent.body)).toBe(409);
    expect(resent.body).toMatchObject({ code: 'already_exists', field: 'email' });
    expect((await app.sql('select token_hash, expires_at::text from invitation where id = ?', [sent.id]))[0]).toEqual(before);
    expect((await app.http.get(`/email/deliveries?templateKey=invitation&to=${encodeURIComponent(email)}`)).body.data).toHaveLength(mailsBefore);
    expect(await app.sql(`select 1 from audit_log where action = 'invitation.resent' and target_id = ?`, [sent.id])).toHaveLength(0);
    // Revoking it is how to close it.
    expect((await app.http.delete(`${inA}/invitations/${sent.id}`)).status).toBe(204);
  });

  it('a deleted role leaves the invitations that would give it, which still resend and give their other roles', async () => {
    const [gone, kept] = await Promise.all(
      ['gone', 'kept'].map(async (name) => (await app.http.post(`${inA}/roles`, { key: `${name}_${Date.now()}`, name, permissions: ['users:read'] })).body.id as string),
    );
    const email = `role-gone-${randomUUID()}@example.com`;
    const sent = await invite(inA, { email, roleIds: [gone, kept] });
    const { requestId, headers } = traced();
    expect((await app.http.delete(`${inA}/roles/${gone}`, { headers })).status).toBe(204);
    expect((await app.http.get(`${inA}/invitations/${sent.id}`)).body.roleIds).toEqual([kept]);
    // Each invitation changed is its own record, found by its target and tenant.
    expect((await auditRecordsOf(app, requestId)).filter((record) => record.targetType === 'invitation')).toEqual([
      expect.objectContaining({ action: 'invitation.updated', targetId: sent.id, tenantId: tenantA, before: expect.objectContaining({ roleIds: [gone, kept] }), after: expect.objectContaining({ roleIds: [kept] }) }),
    ]);

    const resent = await app.http.post(`${inA}/invitations/${sent.id}/resend`);
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    expect((await submit(await linkMailedTo(email), { password: PASSWORD })).status).toBe(200);
    const member = (await app.http.get(`${inA}/invitations/${sent.id}`)).body.acceptedUserId as string;
    expect((await app.http.post(`${inA}/roles/check`, { subject: { type: 'user', id: member }, role: kept })).body).toEqual({ allowed: true });
  });

  it('a role deleted while an acceptance that gives it is under way: both answer, the member joins without it', async () => {
    const role = (await app.http.post(`${inA}/roles`, { key: `racing_${Date.now()}`, name: 'Racing', permissions: ['users:read'] })).body.id as string;
    const email = `role-race-${randomUUID()}@example.com`;
    const sent = await invite(inA, { email, roleIds: [role] });
    const { action, csrf, token } = formOf(await openPage(await linkMailedTo(email)));
    const writes = [
      async () => (await app.http.delete(`${inA}/roles/${role}`)).status,
      async () => (await post(action, { csrf, token, password: PASSWORD })).status,
    ];
    // The deletion first holds the role, then the acceptance the invitation: each must then wait for the other's end,
    // never for a lock the other holds (a deadlock, which PostgreSQL ends by failing one of them).
    const statuses = usingEmbeddedDatabase()
      ? await Promise.all(writes.map((write) => write()))
      : await queuedBehind(app.gatehouse.services.orm, { table: 'role', applicationId: app.root.applicationId, id: role }, { lock: 'update' }, writes);
    expect(statuses).toEqual([204, 200]);
    const accepted = (await app.http.get(`${inA}/invitations/${sent.id}`)).body;
    expect(accepted).toMatchObject({ status: 'accepted', roleIds: [] });
    expect(await app.sql('select 1 from role_assignment where role_id = ?', [role])).toHaveLength(0);
  });

  it.skipIf(usingEmbeddedDatabase())('the role given by hand while an existing account accepts an invitation that gives it: both answer, the role held once', async () => {
    const role = (await app.http.post(`${inA}/roles`, { key: `by_hand_${Date.now()}`, name: 'By hand', permissions: ['users:read'] })).body.id as string;
    const email = `by-hand-${randomUUID()}@example.com`;
    const user = await app.http.post(`${inB}/users`, { email, name: 'Hana', password: PASSWORD });
    expect(user.status).toBe(201);
    const userId = user.body.id as string;
    const sent = await invite(inA, { email, roleIds: [role] });
    // Made a member of the tenant meanwhile, so that an administrator may give her the role there.
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    const { action, csrf, token } = formOf(await openPage(await linkMailedTo(email)));
    const writes = [
      async () => {
        const given = await app.http.post('/role-assignments', { subject: { type: 'user', id: userId }, roleId: role, tenantId: tenantA });
        expect(given.status, JSON.stringify(given.body)).toBe(201);
        return given.status;
      },
      async () => {
        const accepted = await post(action, { csrf, token, password: PASSWORD });
        expect(accepted.status, accepted.html).toBe(200);
        return accepted.status;
      },
    ];
    // The role held: the assignment has its subject's row FOR SHARE and waits for the role; the acceptance waits for the
    // role, then for that row (FOR UPDATE), so it reads the assignment committed and adds none.
    const statuses = await queuedBehind(app.gatehouse.services.orm, { table: 'role', applicationId: app.root.applicationId, id: role }, { lock: 'update' }, writes);
    expect(statuses).toEqual([201, 200]);
    expect((await app.http.get(`${inA}/invitations/${sent.id}`)).body).toMatchObject({ status: 'accepted', acceptedUserId: userId });
    expect(await app.sql('select tenant_id from role_assignment where role_id = ? and subject_id = ?', [role, userId])).toEqual([{ tenant_id: tenantA }]);
    const accept = (await app.http.get(`${inA}/audit-logs?target=${sent.id}&action=invitation.accepted`)).body.data[0];
    expect(accept.changes.after).toEqual({ userId });
  });

  it('a role deleted while a resend of an invitation that gives it is under way: both answer, the resent invitation without it', async () => {
    const role = (await app.http.post(`${inA}/roles`, { key: `resent_race_${Date.now()}`, name: 'Racing', permissions: ['users:read'] })).body.id as string;
    const sent = await invite(inA, { email: `resend-race-${randomUUID()}@example.com`, roleIds: [role] });
    const writes = [
      async () => (await app.http.delete(`${inA}/roles/${role}`)).status,
      async () => (await app.http.post(`${inA}/invitations/${sent.id}/resend`)).status,
    ];
    const statuses = usingEmbeddedDatabase()
      ? await Promise.all(writes.map((write) => write()))
      : await queuedBehind(app.gatehouse.services.orm, { table: 'role', applicationId: app.root.applicationId, id: role }, { lock: 'update' }, writes);
    expect(statuses).toEqual([204, 200]);
    expect((await app.http.get(`${inA}/invitations/${sent.id}`)).body).toMatchObject({ status: 'pending', roleIds: [] });
  });

  it('gives only the roles its sender may still give when it is accepted: a revoked key’s none, its membership standing; a resend by rights that may, all', async () => {
    const role = (await app.http.post(`${inA}/roles`, { key: `vouched_${Date.now()}`, name: 'Vouched', permissions: ['users:read'] })).body.id as string;
    const created = await app.http.post('/api-keys', { name: 'inviter', permissions: ['users:write', 'users:read', 'role_assignments:write'], tenantId: tenantA });
    const inviter = app.as({ apiKey: created.body.secret as string });
    const [dropped, resent] = [`dropped-${randomUUID()}@example.com`, `resent-${randomUUID()}@example.com`];
    const first = await inviter.post('/invitations', { email: dropped, roleIds: [role] });
    const second = await inviter.post('/invitations', { email: resent, roleIds: [role] });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect((await app.http.delete(`/api-keys/${created.body.key.id as string}`)).status).toBe(204);

    expect((await submit(await linkMailedTo(dropped), { password: PASSWORD })).status).toBe(200);
    const member = (await app.http.get(`${inA}/invitations/${first.body.id as string}`)).body.acceptedUserId as string;
    expect((await app.http.get(`${inA}/users/${member}`)).body.tenantIds).toEqual([tenantA]);
    expect((await app.http.post(`${inA}/roles/check`, { subject: { type: 'user', id: member }, role })).body).toEqual({ allowed: false });
    const accept = (await app.http.get(`${inA}/audit-logs?target=${first.body.id as string}&action=invitation.accepted`)).body.data[0];
    expect(accept.changes.after).toEqual({ userId: member, rolesNotGiven: [role] });

    // Resent by credentials that may give the role, it is theirs to give.
    expect((await app.http.post(`${inA}/invitations/${second.body.id as string}/resend`)).status).toBe(200);
    expect((await submit(await linkMailedTo(resent), { password: PASSWORD })).status).toBe(200);
    const given = (await app.http.get(`${inA}/invitations/${second.body.id as string}`)).body.acceptedUserId as string;
    expect((await app.http.post(`${inA}/roles/check`, { subject: { type: 'user', id: given }, role })).body).toEqual({ allowed: true });
  });

  it('a role widened since it was sent, beyond what its sender holds, is left out at acceptance; the sender’s other roles are given', async () => {
    const stamp = Date.now();
    const widened = (await app.http.post(`${inA}/roles`, { key: `widened_${stamp}`, name: 'Widened', permissions: ['users:read'] })).body.id as string;
    const kept = (await app.http.post(`${inA}/roles`, { key: `kept_${stamp}`, name: 'Kept', permissions: ['users:read'] })).body.id as string;
    const created = await app.http.post('/api-keys', { name: 'inviter', permissions: ['users:write', 'users:read', 'role_assignments:write'], tenantId: tenantA });
    const inviter = app.as({ apiKey: created.body.secret as string });
    const email = `widened-${randomUUID()}@example.com`;
    const sent = await inviter.post('/invitations', { email, roleIds: [widened, kept] });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect((await app.http.patch(`${inA}/roles/${widened}`, { permissions: ['users:read', 'users:delete'] })).status).toBe(200);

    expect((await submit(await linkMailedTo(email), { password: PASSWORD })).status).toBe(200);
    const member = (await app.http.get(`${inA}/invitations/${sent.body.id as string}`)).body.acceptedUserId as string;
    const holds = async (role: string) => (await app.http.post(`${inA}/roles/check`, { subject: { type: 'user', id: member }, role })).body;
    expect([await holds(widened), await holds(kept)]).toEqual([{ allowed: false }, { allowed: true }]);
    const accept = (await app.http.get(`${inA}/audit-logs?target=${sent.body.id as string}&action=invitation.accepted`)).body.data[0];
    expect(accept.changes.after).toEqual({ userId: member, rolesNotGiven: [widened] });
  });

  it('a resend mails a new link and the old one stops working; a revoke and an expiry are refused with their reason', async () => {
    const email = `re-${randomUUID()}@example.com`;
    const sent = await invite(inA, { email });
    const first = await linkMailedTo(email);
    const resent = await app.http.post(`${inA}/invitations/${sent.id}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body.status).toBe('pending');
    const second = await linkMailedTo(email);
    expect(second).not.toBe(first);
    const old = await openPage(first);
    expect(old.status).toBe(404);
    expect(old.html).toContain('replaced by a newer invitation');
    expect((await openPage(second)).status).toBe(200);

    // Expired: refused, listed as expired; a resend makes it pending again.
    await app.sql('update invitation set expires_at = now() - interval \'1 minute\' where id = ?', [sent.id]);
    const expired = await openPage(second);
    expect(expired.status).toBe(410);
    expect(expired.html).toContain('has expired');
    expect((await app.http.get(`${inA}/invitations?status=expired`)).body.data.map((i: { id: string }) => i.id)).toContain(sent.id);
    await app.http.post(`${inA}/invitations/${sent.id}/resend`);
    const third = await linkMailedTo(email);
    // The resend's own link: it opens, where the expired one stays replaced.
    expect(third).not.toBe(second);
    expect((await openPage(third)).status).toBe(200);

    const key = randomUUID();
    const { requestId, headers } = traced();
    const revoked = await app.http.delete(`${inA}/invitations/${sent.id}`, { headers: { 'idempotency-key': key, ...headers } });
    expect(revoked.status).toBe(204);
    // The invitation stays, revoked: its record's `after` says so, as a key's revocation's does.
    const revokedAt = (await app.http.get(`${inA}/invitations/${sent.id}`)).body.revokedAt as string;
    expect(await auditRecordsOf(app, requestId)).toEqual([
      expect.objectContaining({
        action: 'invitation.revoked',
        tenantId: tenantA,
        before: expect.objectContaining({ email, revokedAt: null }),
        after: expect.objectContaining({ email, revokedAt }),
      }),
    ]);
    const replay = await app.http.delete(`${inA}/invitations/${sent.id}`, { headers: { 'idempotency-key': key } });
    expect(replay.status).toBe(204);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await app.http.get(`${inA}/invitations/${sent.id}`)).body.status).toBe('revoked');
    const refused = await openPage(third);
    expect(refused.status).toBe(410);
    expect(refused.html).toContain('was revoked');
    expect((await app.http.delete(`${inB}/invitations/${sent.id}`)).status).toBe(404);
  });

  it('a resend while the old link’s form is being accepted (its password checked meanwhile): one of the two is refused, never both served', async () => {
    for (let round = 0; round < 4; round += 1) {
      const email = `race-${randomUUID()}@example.com`;
      expect((await app.http.post(`${inB}/users`, { email, password: PASSWORD })).status).toBe(201);
      const sent = await invite(inA, { email });
      const { action, csrf, token } = formOf(await openPage(await linkMailedTo(email)));
      const accepting = post(action, { csrf, token, password: PASSWORD });
      const resent = await app.http.post(`${inA}/invitations/${sent.id}/resend`);
      const accepted = await accepting;
      // Whichever commits first, the other is refused: the resend of an accepted invitation, or the link it replaced.
      if (resent.status === 200) expect([accepted.status, accepted.html.includes('replaced by a newer invitation')]).toEqual([404, true]);
      else expect([accepted.status, resent.status]).toEqual([200, 422]);
    }
  });

  it('an account deleted between opening the link and submitting its form: the submit shows the new-account form, which then accepts', async () => {
    const email = `gone-${randomUUID()}@example.com`;
    const user = await app.http.post(`${inB}/users`, { email, name: 'Gus', password: PASSWORD });
    expect(user.status).toBe(201);
    const sent = await invite(inA, { email });
    const link = await linkMailedTo(email);
    const opened = await openPage(link);
    expect(opened.html).toContain('Sign in with your account');
    const { action, csrf, token } = formOf(opened);
    expect((await app.http.delete(`/users/${user.body.id as string}`)).status).toBe(204);
    // The account's password proves nothing of a new account: the form asks for one, as opening the link again does.
    const again = await post(action, { csrf, token, form: hiddenField(opened.html, 'form')!, password: PASSWORD });
    expect(again.status, again.html).toBe(200);
    expect(again.html).toContain('name="name"');
    expect(again.html).toContain('autocomplete="new-password"');
    expect(await app.sql('select 1 from app_user where email_normalized = ?', [email])).toHaveLength(0);
    expect((await app.http.get(`${inA}/invitations/${sent.id}`)).body.status).toBe('pending');
    const form = formOf(again);
    const done = await post(form.action, { csrf: form.csrf, token: form.token, form: hiddenField(again.html, 'form')!, name: 'Gus Again', password: PASSWORD });
    expect(done.status, done.html).toBe(200);
    expect(done.html).toContain('You are now a member of Acme');
    const accepted = (await app.http.get(`${inA}/invitations/${sent.id}`)).body;
    expect(accepted.status).toBe('accepted');
    expect(accepted.acceptedUserId).not.toBe(user.body.id);
    expect((await app.http.get(`/users/${accepted.acceptedUserId as string}`)).body).toMatchObject({ name: 'Gus Again', tenantIds: [tenantA] });
  });

  it('an account made for the address after its new-account form was shown: the submit shows the form for that account (409), checking and counting no password', async () => {
    const email = `made-${randomUUID()}@example.com`;
    const sent = await invite(inA, { email });
    const opened = await openPage(await linkMailedTo(email));
    expect(opened.html).toContain('autocomplete="new-password"');
    const { action, csrf, token } = formOf(opened);
    const user = await app.http.post(`${inB}/users`, { email, name: 'Nia', password: PASSWORD });
    expect(user.status).toBe(201);
    // The password typed to make an account is no sign-in to the one made meanwhile.
    const again = await post(action, { csrf, token, form: hiddenField(opened.html, 'form')!, name: 'Nia', password: 'Another-Horse-8' });
    expect(again.status, again.html).toBe(409);
    expect(again.html).toContain('An account with this email address exists now. Sign in with its password to accept.');
    expect(again.html).not.toContain('name="name"');
    expect(again.html).toContain('autocomplete="current-password"');
    expect(await app.sql(`select 1 from audit_log where target_id = ? and action = 'user.sign_in_failed'`, [user.body.id])).toEqual([]);
    expect(await app.sql('select failed_sign_ins from app_user where id = ?', [user.body.id])).toEqual([{ failed_sign_ins: 0 }]);
    expect(await app.sql('select 1 from sign_in_failure where user_id = ?', [user.body.id])).toEqual([]);
    expect((await app.http.get(`${inA}/invitations/${sent.id}`)).body.status).toBe('pending');
    // That form, with the account's password, accepts.
    const form = formOf({ ...again, status: 200 });
    const done = await post(form.action, { csrf: form.csrf, token: form.token, form: hiddenField(again.html, 'form')!, password: PASSWORD });
    expect(done.status, done.html).toBe(200);
    expect((await app.http.get(`${inA}/invitations/${sent.id}`)).body).toMatchObject({ status: 'accepted', acceptedUserId: user.body.id });
  });

  it('an address a restore link holds for the account that left it since the invitation was sent makes no new account: the page says so (409), nothing changes; once the link ends, it does', async () => {
    const email = `held-${randomUUID()}@example.com`;
    const sent = await invite(inA, { email });
    const link = await linkMailedTo(email);
    const owner = await app.http.post(`${inA}/users`, { email: `held-owner-${randomUUID()}@example.com`, password: PASSWORD });
    expect(owner.status).toBe(201);
    // The owner's restore link (issueRestoreLink) for the address its account left after the invitation was sent.
    const tokenHash = `held-${randomUUID()}`;
    await app.sql(
      `insert into email_link_token (application_id, id, user_id, invitation_id, purpose, token_hash, expires_at, restores_email, restores_email_normalized,
                                     restores_added_since, proof_password_hash)
       values (?, ?, ?, ?, 'password_reset', ?, now() + interval '1 hour', ?, ?, now(), 'proof')`,
      [app.root.applicationId, newId(), owner.body.id, sent.id, tokenHash, email, email],
    );
    const refused = await submit(link, { name: 'Hal', password: PASSWORD });
    expect(refused.status, refused.html).toBe(409);
    expect(refused.html).toContain('This address is held for the account that used it, whose owner may take it back');
    expect(await app.sql('select 1 from app_user where email_normalized = ?', [email])).toEqual([]);
    expect((await app.http.get(`${inA}/invitations/${sent.id}`)).body.status).toBe('pending');

    await app.sql(`update email_link_token set used_at = now() where token_hash = ?`, [tokenHash]);
    const accepted = await submit(link, { name: 'Hal', password: PASSWORD });
    expect(accepted.status, accepted.html).toBe(200);
    expect((await app.http.get(`${inA}/invitations/${sent.id}`)).body.status).toBe('accepted');
  });

  it('an account deleted while its acceptance is under way: the post shows the new-account form (200), not an unknown link; it then accepts', async () => {
    const email = `gone-midway-${randomUUID()}@example.com`;
    const user = await app.http.post(`${inB}/users`, { email, name: 'Mo', password: PASSWORD });
    expect(user.status).toBe(201);
    const userId = user.body.id as string;
    const sent = await invite(inA, { email });
    const link = await linkMailedTo(email);
    const opened = await openPage(link);
    const { action, csrf, token } = formOf(opened);
    const accepting = async () => post(action, { csrf, token, form: hiddenField(opened.html, 'form')!, password: PASSWORD });
    // The acceptance proves the password, then waits for the invitation while the account's deletion commits.
    const [answer] = usingEmbeddedDatabase()
      ? await Promise.all([accepting(), app.http.delete(`/users/${userId}`).then((deleted) => expect(deleted.status).toBe(204))])
      : await queuedBehind(app.gatehouse.services.orm, { table: 'invitation', applicationId: app.root.applicationId, id: sent.id }, {
          lock: 'update',
          beforeCommit: (em) => em.execute('delete from app_user where application_id = ? and id = ?', [app.root.applicationId, userId]),
        }, [accepting]);
    expect(answer.status, answer.html).toBe(200);
    expect(answer.html).not.toContain('replaced by a newer invitation');
    if (!answer.html.includes('You are now a member of Acme')) {
      // Not accepted: the form for a new account, as opening the link now shows.
      expect(answer.html).toContain('name="name"');
      expect((await app.http.get(`${inA}/invitations/${sent.id}`)).body.status).toBe('pending');
      const form = formOf(answer);
      const done = await post(form.action, { csrf: form.csrf, token: form.token, form: hiddenField(answer.html, 'form')!, name: 'Mo Again', password: PASSWORD });
      expect(done.status, done.html).toBe(200);
    }
    expect((await app.http.get(`${inA}/invitations/${sent.id}`)).body.status).toBe('accepted');
  });

  it('an existing account of the shared pool signs in with its password to accept, and keeps its other tenants', async () => {
    const email = `shared-${randomUUID()}@example.com`;
    const user = await app.http.post(`${inB}/users`, { email, name: 'Sam', password: PASSWORD });
    expect(user.status).toBe(201);
    await invite(inA, { email });
    // An account of another tenant: mailed as the application, which tenant A's credentials do not read.
    const tenantKey = await issueTestKey(app, { tenantId: tenantA, permissions: ['email:read'] });
    expect((await tenantKey.get(`/email/deliveries?templateKey=invitation&to=${encodeURIComponent(email)}`)).body.data).toEqual([]);
    // It still says which tenant invites.
    const [mailed] = (await app.http.get(`/email/deliveries?templateKey=invitation&to=${encodeURIComponent(email)}`)).body.data;
    expect(mailed.tenantId).toBeNull();
    const { body: mail } = await app.http.get(`/email/deliveries/${mailed.id}`);
    expect(mail.subject).toContain('Acme');
    expect(mail.text).toContain('Acme');
    const link = await linkMailedTo(email);
    const page = await openPage(link);
    expect(page.html).toContain('Sign in with your account');
    expect(page.html).not.toContain('name="name"');
    const wrong = await submit(link, { password: 'Wrong-Horse-9' });
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain('The password is incorrect.');
    const accepted = await submit(link, { password: PASSWORD });
    expect(accepted.status, accepted.html).toBe(200);
    const after = (await app.http.get(`/users/${user.body.id}`)).body;
    expect(new Set(after.tenantIds)).toEqual(new Set([tenantA, tenantB]));
  });

  it('the password proof of an acceptance is no sign-in: a right one records none, a wrong one is a failure of that user by the invitation, in the application’s log', async () => {
    const email = `proof-${randomUUID()}@example.com`;
    const user = await app.http.post(`${inB}/users`, { email, name: 'Pia', password: PASSWORD });
    expect(user.status).toBe(201);
    const sent = await invite(inA, { email });
    const link = await linkMailedTo(email);
    const today = new Date().toISOString().slice(0, 10);
    const failedIn = async (path: string) => (await app.http.get(`${path}/analytics/sign-ins?from=${today}&to=${today}`)).body.data[0].failed as number;
    const records = async (action: string) => (await app.http.get(`/audit-logs?action=${action}&pageSize=100`)).body.data.filter((r: any) => r.target?.id === user.body.id || r.changes?.after?.email === email);
    const failedBefore = { a: await failedIn(inA), app: await failedIn('') };

    expect((await submit(link, { password: 'Wrong-Horse-9' })).status).toBe(400);
    const [failure, ...more] = await records('user.sign_in_failed');
    expect(more).toEqual([]);
    // Tenant A must not learn that an outsider's address has an account before it joins: the application's log holds it.
    expect(failure).toMatchObject({ tenantId: null, actor: { type: 'invitation', id: sent.id }, target: { type: 'user', id: user.body.id }, outcome: 'failure' });
    expect(failure.changes.after).toMatchObject({ method: 'password', reason: 'wrong_password', clientId: null });
    expect((await app.sql<{ failed_sign_ins: number }>('select failed_sign_ins from app_user where id = ?', [user.body.id]))[0]!.failed_sign_ins).toBe(1);
    expect(await failedIn(inA)).toBe(failedBefore.a);
    expect(await failedIn('')).toBe(failedBefore.app + 1);

    expect((await submit(link, { password: PASSWORD })).status).toBe(200);
    expect(await records('user.sign_in_failed')).toHaveLength(1);
    expect(await records('user.signed_in')).toEqual([]);
    expect(await failedIn(inA)).toBe(failedBefore.a);
    // The right password forgives this address's failures, as a sign-in does.
    expect((await app.sql<{ failed_sign_ins: number }>('select failed_sign_ins from app_user where id = ?', [user.body.id]))[0]!.failed_sign_ins).toBe(0);
    const accepted = (await app.http.get(`${inA}/audit-logs?action=invitation.accepted&target=${sent.id}`)).body.data;
    expect(accepted).toMatchObject([{ actor: { type: 'invitation', id: sent.id } }]);
  });

  it('a password refused because the lockout holds the address says what the sign-in form says then, not that it is wrong', async () => {
    const { client, base, one, two } = await applicationWith([PASSWORD_PROVIDER]);
    const lockout = { enabled: true, maxAttempts: 3, lockoutMinutes: 5, resetAfterMinutes: 15, accountLockAddresses: null };
    expect((await client.put(`${base}/policies/lockout`, lockout)).status).toBe(200);
    const email = `held-${randomUUID()}@example.com`;
    expect((await client.post(`${two.path}/users`, { email, password: PASSWORD })).status).toBe(201);
    const sent = await invite(one.path, { email }, client);
    const link = await linkMailedTo(email, client);
    for (let failure = 1; failure <= lockout.maxAttempts; failure += 1) {
      const wrong = await submit(link, { password: 'Wrong-Horse-9' });
      expect(wrong.status).toBe(400);
      expect(wrong.html).toContain('The password is incorrect.');
    }
    // This address is locked out of the account now: even the right password is refused, as the sign-in form refuses it.
    const held = await submit(link, { password: PASSWORD });
    expect(held.status).toBe(400);
    expect(held.html).toContain('The email address or password is incorrect.');
    expect(held.html).not.toContain('The password is incorrect.');
    expect((await client.get(`${one.path}/invitations/${sent.id}`)).body.status).toBe('pending');
  });

  describe('an invitee who does not know the account’s password resets it from the page', () => {
    /** The latest reset link mailed to `email`, aimed at the test server, and the tenant its mail went out in. */
    async function resetMailedTo(email: string) {
      const latest = await latestDelivery(email, 'password_reset');
      if (latest === undefined) return undefined;
      const url = new URL(/https?:\/\/\S+\/account\/reset-password\?token=[\w.-]+/.exec(latest.text)![0]);
      return { link: `${app.baseUrl}${url.pathname}${url.search}`, tenantId: latest.tenantId };
    }
    const forgot = async (link: string, fields: Record<string, string> = {}) => submit(link, { forgot: '1', ...fields });

    async function resetTo(email: string, password: string): Promise<Page> {
      const mailed = await resetMailedTo(email);
      const page = await openPage(mailed!.link);
      expect(page.status, page.html).toBe(200);
      const action = /<form method="post" action="([^"]+)"/.exec(page.html)![1]!;
      return post(action, { token: hiddenField(page.html, 'token')!, password });
    }

    it('“Forgot your password?” mails a reset link to the invited address; the new password then accepts', async () => {
      const email = `forgot-${randomUUID()}@example.com`;
      const user = await app.http.post(`${inB}/users`, { email, name: 'Fay', password: PASSWORD });
      await invite(inA, { email });
      const link = await linkMailedTo(email);
      const page = await openPage(link);
      expect(page.html).toContain('Forgot your password?');
      expect(page.html).toMatch(/<form method="post" action="\/invitation">[^]*name="forgot" value="1"/);
      // A forged form mails nothing.
      const { action, token } = formOf(page);
      expect((await post(action, { token, csrf: 'forged', forgot: '1' })).status).toBe(403);
      expect(await resetMailedTo(email)).toBeUndefined();

      const sent = await forgot(link);
      expect(sent.status, sent.html).toBe(200);
      expect(sent.html).toContain(`We sent a link to ${email} to choose a new password.`);
      // Still the form, to come back to with the new password.
      expect(sent.html).toContain('name="password"');
      const mailed = await resetMailedTo(email);
      // Not tenant A's outbox: the account is not its member (yet).
      expect(mailed?.tenantId).toBeNull();
      const done = await resetTo(email, 'New-Horse-Battery-7');
      expect(done.status, done.html).toBe(200);
      expect(done.html).toContain('Go back to the invitation');
      expect(done.html).not.toContain('/account?client_id=');

      expect((await submit(link, { password: PASSWORD })).status).toBe(400);
      const accepted = await submit(link, { password: 'New-Horse-Battery-7' });
      expect(accepted.status, accepted.html).toBe(200);
      expect(new Set((await app.http.get(`/users/${user.body.id}`)).body.tenantIds)).toEqual(new Set([tenantA, tenantB]));
    });

    it('an account whose address was never confirmed says so; the reset (user.password.reset) proves the mailbox and verifies it', async () => {
      const email = `squatted-${randomUUID()}@example.com`;
      const user = await app.http.post(`${inB}/users`, { email, name: 'Squatter', password: PASSWORD });
      await app.sql('update app_user set email_verified = false where id = ?', [user.body.id]);
      await invite(inA, { email });
      const link = await linkMailedTo(email);
      const page = await openPage(link);
      expect(page.html).toContain('was never confirmed');
      expect(page.html).toContain('Forgot your password?');
      expect((await forgot(link)).status).toBe(200);
      expect((await resetTo(email, 'Owner-Horse-Battery-7')).status).toBe(200);
      expect((await app.http.get(`/users/${user.body.id}`)).body.emailVerified).toBe(true);
      const reset = (await app.http.get(`/audit-logs?action=user.password.reset&target=${user.body.id}`)).body.data;
      expect(reset).toHaveLength(1);
      // The squatter's password no longer accepts; the owner's does.
      expect((await submit(link, { password: PASSWORD })).status).toBe(400);
      expect((await submit(link, { password: 'Owner-Horse-Battery-7' })).status).toBe(200);

      // A new address has no account, nor a password to reset: the form again, nothing mailed.
      const fresh = `fresh-${randomUUID()}@example.com`;
      await invite(inA, { email: fresh });
      const freshPage = await openPage(await linkMailedTo(fresh));
      expect(freshPage.html).not.toContain('Forgot your password?');
      const again = await forgot(await linkMailedTo(fresh));
      expect(again.status).toBe(400);
      expect(again.html).not.toContain('We sent a link');
      expect(await resetMailedTo(fresh)).toBeUndefined();
    });

    it('an account another tenant’s administrator made for the address, and equipped, keeps no way in of it past the invitee’s reset, only that tenant', async () => {
      const attacker = await issueTestKey(app, { tenantId: tenantB, permissions: ['users:read', 'users:write'] });
      const email = `victim-${randomUUID()}@example.com`;
      const made = await attacker.post(`${inB}/users`, { email, name: 'Victim', password: PASSWORD });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect(made.body.emailVerified).toBe(false);
      const userId = made.body.id as string;
      await giveTotp(app, app.root.applicationId, userId);
      await giveKey(app, app.root.applicationId, userId, new URL(app.baseUrl).hostname);
      const factorsOf = async () =>
        (await app.sql<{ n: number }>('select (select count(*) from mfa_factor where user_id = ?) + (select count(*) from webauthn_credential where user_id = ?) as n', [userId, userId]))[0]!.n;
      expect(Number(await factorsOf())).toBe(2);

      await invite(inA, { email });
      const link = await linkMailedTo(email);
      expect((await openPage(link)).html).toContain('was never confirmed');
      expect((await forgot(link)).status).toBe(200);
      expect((await resetTo(email, 'Owner-Horse-Battery-7')).status).toBe(200);
      expect(Number(await factorsOf())).toBe(0);
      // The maker's password no longer opens it; the owner's accepts, beside the tenant that made it for the address.
      expect((await submit(link, { password: PASSWORD })).status).toBe(400);
      expect((await submit(link, { password: 'Owner-Horse-Battery-7' })).status).toBe(200);
      expect(await storedUser(userId)).toMatchObject({ tenant_ids: [tenantB, tenantA], email_verified: true });
    });

    it('a reset link asked on the page names the invitation, no OAuth client: its done page links no client’s account page, the invitation gone or not', async () => {
      const email = `asked-${randomUUID()}@example.com`;
      await app.http.post(`${inB}/users`, { email, password: PASSWORD });
      const gone = await app.createTenant('Gone soon');
      const sent = await invite(`${appPath}/tenants/${gone}`, { email });
      expect((await forgot(await linkMailedTo(email))).status).toBe(200);
      // The tenant and its invitation go before the link is used: still the invitation's link, not a client's.
      expect((await app.http.delete(`${appPath}/tenants/${gone}`)).status).toBe(204);
      const done = await resetTo(email, 'Gone-Horse-Battery-7');
      expect(done.status, done.html).toBe(200);
      expect(done.html).not.toContain('client_id');
      expect(done.html).toContain('Go back to the invitation');
      // That link, and the one password_changed carries on from it.
      const links = await app.sql<{ client_id: string | null; invitation_id: string | null }>(
        `select client_id, invitation_id from email_link_token where user_id = (select id from app_user where email = ?) and purpose = 'password_reset' order by created_at`,
        [email],
      );
      expect(links).toEqual([
        { client_id: null, invitation_id: sent.id },
        { client_id: null, invitation_id: sent.id },
      ]);
    });
  });

  it('an invitation may name an OAuth client: the done page leads into its application; one of another tenant or application, or none of a browser, is refused', async () => {
    const created = async (body: Record<string, unknown>, path = '') => {
      const response = await app.http.post(`${path}/oauth-clients`, body);
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return response.body.id as string;
    };
    const web = await created({ name: 'Portal', type: 'web', redirectUris: ['https://portal.example.com/callback', 'https://other.example.com/cb'] });
    const ofB = await created({ name: 'B only', type: 'web', redirectUris: ['https://b.example.com/cb'] }, inB);
    const native = await created({ name: 'Phone', type: 'native', redirectUris: ['com.example.app:/callback'] });
    const other = await app.bootstrapAnother();
    const foreign = (await app.as({ apiKey: other.apiKey }).post('/oauth-clients', { name: 'Elsewhere', type: 'web', redirectUris: ['https://x.example.com/cb'] })).body.id;
    const m2m = (await app.http.post('/m2m-credentials', { name: 'Robot', permissions: ['users:read'] })).body;
    const before = (await app.sql<{ n: number }>('select count(*)::int as n from invitation'))[0]!.n;
    for (const clientId of [ofB, foreign, m2m.id ?? m2m.clientId, randomUUID()]) {
      const refused = await app.http.post(`${inA}/invitations`, { email: `c-${randomUUID()}@example.com`, clientId });
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      expect(refused.body).toMatchObject({ code: 'validation_error', field: 'clientId' });
    }
    expect((await app.http.post(`${inA}/invitations`, { email: `c-${randomUUID()}@example.com`, clientId: 'nope' })).body).toMatchObject({ code: 'validation_error', field: 'clientId' });
    expect((await app.sql<{ n: number }>('select count(*)::int as n from invitation'))[0]!.n).toBe(before);

    const email = `landing-${randomUUID()}@example.com`;
    const sent = await invite(inA, { email, clientId: web });
    expect(sent).toMatchObject({ clientId: web });
    expect((await app.http.graphql('query($t: UUID, $id: UUID!) { invitation(tenantId: $t, invitationId: $id) { clientId } }', { t: tenantA, id: sent.id })).body.data.invitation).toEqual({ clientId: web });
    const done = await submit(await linkMailedTo(email), { name: 'Lana', password: PASSWORD });
    expect(done.status, done.html).toBe(200);
    expect(done.html).toContain('<a href="https://portal.example.com/">Continue to Portal</a>');

    // A client with a login URI: the link leads there, telling the application where its user signs in (OIDC Core 4).
    const withLogin = await created({ name: 'Shop', type: 'spa', redirectUris: ['https://shop.example.com/cb'], initiateLoginUri: 'https://shop.example.com/login' });
    const shopper = `shopper-${randomUUID()}@example.com`;
    await invite(inA, { email: shopper, clientId: withLogin });
    const shopLink = await linkMailedTo(shopper);
    const landed = await submit(shopLink, { name: 'Sam', password: PASSWORD });
    expect(landed.status, landed.html).toBe(200);
    const iss = encodeURIComponent(app.gatehouse.services.config.publicUrl);
    expect(landed.html).toContain(`<a href="https://shop.example.com/login?iss=${iss}">Continue to Shop</a>`);

    // A native client's private-use scheme has no address to show; without a client, no link either.
    for (const clientId of [native, undefined]) {
      const address = `plain-${randomUUID()}@example.com`;
      await invite(inA, { email: address, ...(clientId === undefined ? {} : { clientId }) });
      const accepted = await submit(await linkMailedTo(address), { password: PASSWORD });
      expect(accepted.status).toBe(200);
      expect(accepted.html).not.toContain('Continue to');
    }
  });

  it('an account suspended or locked out is refused with a page that says so, in the page’s language, changing nothing; once it may act, it accepts', async () => {
    const email = `standing-${randomUUID()}@example.com`;
    const user = await app.http.post(`${inB}/users`, { email, name: 'Sue', password: PASSWORD });
    expect(user.status).toBe(201);
    const sent = await invite(inA, { email });
    const link = await linkMailedTo(email);
    const form = formOf(await openPage(link));
    const stored = async () => (await app.sql<{ tenant_ids: string[]; failed_sign_ins: number; status: string }>('select tenant_ids, failed_sign_ins, status from app_user where id = ?', [user.body.id]))[0]!;
    const before = await stored();
    const inLanguage = async (language: string) => {
      const response = await fetch(link, { headers: { 'accept-language': language } });
      return { status: response.status, html: await response.text() };
    };
    const refusedBoth = async (text: string) => {
      const opened = await openPage(link);
      expect(opened.status).toBe(403);
      expect(opened.html).toContain('This invitation cannot be used');
      expect(opened.html).toContain(text);
      expect(opened.html).not.toContain('<form');
      // Its post too, with the right password or a wrong one: nothing checked, nothing counted, nothing joined.
      for (const password of [PASSWORD, 'Wrong-Horse-9']) {
        const posted = await post(form.action, { ...form, password });
        expect(posted.status).toBe(403);
        expect(posted.html).toContain(text);
      }
      expect((await app.http.get(`${inA}/invitations/${sent.id}`)).body.status).toBe('pending');
    };

    expect((await app.http.post(`/users/${user.body.id}/suspend`, {})).status).toBe(200);
    await refusedBoth('it is suspended. Contact an administrator of Acme.');
    const german = await inLanguage('de');
    expect(german.status).toBe(403);
    expect(german.html).toContain('<html lang="de"');
    expect(german.html).toContain('Es ist gesperrt. Wenden Sie sich an einen Administrator von Acme.');
    expect((await inLanguage('es')).html).toContain('está suspendida');
    expect((await inLanguage('fr')).html).toContain('il est suspendu');
    expect(await stored()).toMatchObject({ ...before, status: 'suspended' });
    expect((await app.http.post(`/users/${user.body.id}/activate`, {})).status).toBe(200);

    await app.sql(`update app_user set status = 'locked', locked_until = now() + interval '10 minutes' where id = ?`, [user.body.id]);
    await refusedBoth('it is locked after too many failed sign-ins. Try again later, or once it is unlocked.');
    expect((await inLanguage('fr')).html).toContain('il est verrouillé');
    expect((await inLanguage('es')).html).toContain('está bloqueada');
    expect((await inLanguage('de')).html).toContain('blockiert');
    // Locked until an administrator unlocks it: the same.
    await app.sql(`update app_user set locked_until = null where id = ?`, [user.body.id]);
    expect((await openPage(link)).status).toBe(403);
    expect(await stored()).toMatchObject({ ...before, status: 'locked' });

    // A lock run out is no lock: the account proves its password and joins.
    await app.sql(`update app_user set locked_until = now() - interval '1 minute' where id = ?`, [user.body.id]);
    const accepted = await submit(link, { password: PASSWORD });
    expect(accepted.status, accepted.html).toBe(200);
    expect(new Set((await stored()).tenant_ids)).toEqual(new Set([tenantA, tenantB]));
  });

  it('a change of authIsolation leaves a pending link working: it moves to the link as the configuration has it now, with its token', async () => {
    const fresh = async () => {
      const bootstrapped = await app.bootstrapAnother();
      const client = app.as({ apiKey: bootstrapped.apiKey });
      const base = `/applications/${bootstrapped.applicationId}`;
      const north = (await client.post(`${base}/tenants`, { name: 'North', slug: `north-${randomUUID().slice(0, 8)}` })).body as { id: string; slug: string };
      const invited = async () => {
        const email = `moved-${randomUUID()}@example.com`;
        const sent = await client.post(`${base}/tenants/${north.id}/invitations`, { email });
        expect(sent.status).toBe(201);
        return { id: sent.body.id as string, link: await mailedLink(email, client) };
      };
      const isolation = async (authIsolation: string) => expect((await client.patch(base, { tenancyConfig: { authIsolation } })).status).toBe(200);
      return { client, base, north, invited, isolation };
    };
    const moved = async (url: string, init: RequestInit = {}) => {
      const response = await fetch(url, { ...init, redirect: 'manual' });
      expect(response.status, await response.text()).toBe(303);
      return new URL(response.headers.get('location')!);
    };

    // Shared, then isolated: the service's link moves to the tenant's own path.
    const one = await fresh();
    const early = await one.invited();
    const revoked = await one.invited();
    expect((await one.client.delete(`${one.base}/tenants/${one.north.id}/invitations/${revoked.id}`)).status).toBe(204);
    expect(early.link.pathname).toBe('/invitation');
    await one.isolation('isolated');
    const there = await moved(onTestServer(early.link));
    expect(there.href).toBe(`${early.link.origin}/t/${one.north.id}/invitation${early.link.search}`);
    // A form posted to the old address moves as well, accepting nothing there.
    const { csrf } = formOf(await openPage(onTestServer(there)));
    const token = early.link.searchParams.get('token')!;
    expect((await moved(onTestServer(early.link), { method: 'POST', body: new URLSearchParams({ csrf, token, password: PASSWORD }) })).href).toBe(there.href);
    expect((await one.client.get(`${one.base}/tenants/${one.north.id}/invitations/${early.id}`)).body.status).toBe('pending');
    const accepted = await submit(onTestServer(there), { password: PASSWORD });
    expect(accepted.status, accepted.html).toBe(200);
    // One no longer pending is refused as before, not moved.
    const refused = await openPage(onTestServer(revoked.link));
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('This invitation opens on the sign-in address of North, not on this one.');
    const german = await fetch(onTestServer(revoked.link), { headers: { 'accept-language': 'de' } });
    expect(await german.text()).toContain('Diese Einladung öffnet sich auf der Anmeldeadresse von North');

    // Isolated, then shared: the tenant's path moves to the service's.
    const two = await fresh();
    await two.isolation('isolated');
    const late = await two.invited();
    expect(late.link.pathname).toBe(`/t/${two.north.id}/invitation`);
    await two.isolation('shared');
    const back = await moved(onTestServer(late.link));
    expect(back.href).toBe(`${late.link.origin}/invitation${late.link.search}`);
    expect((await openPage(onTestServer(back))).status).toBe(200);

    // Another application's tenant path, and another tenant's, are refused: the link is not theirs to move.
    const south = (await two.client.post(`${two.base}/tenants`, { name: 'South', slug: `south-${randomUUID().slice(0, 8)}` })).body as { id: string };
    await two.isolation('isolated');
    const pending = await two.invited();
    for (const path of [`/t/${one.north.id}/invitation`, `/t/${south.id}/invitation`]) {
      const elsewhere = await openPage(`${app.baseUrl}${path}${pending.link.search}`);
      expect(elsewhere.status, path).toBe(403);
      expect(elsewhere.html).toContain('another organization');
    }
  });

  it('an isolated tenant’s invitation link is on its verified custom domain, as its other mailed links, and opens there', async () => {
    const bootstrapped = await app.bootstrapAnother();
    const client = app.as({ apiKey: bootstrapped.apiKey });
    const base = `/applications/${bootstrapped.applicationId}`;
    const north = (await client.post(`${base}/tenants`, { name: 'North', slug: `north-${randomUUID().slice(0, 8)}` })).body.id as string;
    expect((await client.patch(base, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const hostname = `login.north-${randomUUID().slice(0, 8)}.test`;
    await addDomain(app, { apiKey: bootstrapped.apiKey, applicationId: bootstrapped.applicationId, tenantId: north }, hostname);
    const email = `domain-${randomUUID()}@example.com`;
    expect((await client.post(`${base}/tenants/${north}/invitations`, { email })).status).toBe(201);
    const link = await mailedLink(email, client);
    expect(`${link.host}${link.pathname}`).toBe(`${hostname}/invitation`);
    const page = await fetchVia(app.baseUrl)(link.href);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`action="/invitation"`);
  });

  it('with isolated tenants the link opens on the tenant’s own surface only', async () => {
    const isolated = await app.bootstrapAnother();
    const client = app.as({ apiKey: isolated.apiKey });
    const base = `/applications/${isolated.applicationId}`;
    const north = (await client.post(`${base}/tenants`, { name: 'North', slug: `north-${Date.now()}` })).body;
    const south = (await client.post(`${base}/tenants`, { name: 'South', slug: `south-${Date.now()}` })).body;
    expect((await client.patch(base, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const email = `iso-${randomUUID()}@example.com`;
    const sent = await client.post(`${base}/tenants/${north.id}/invitations`, { email });
    expect(sent.status).toBe(201);
    const delivery = (await client.get(`/email/deliveries?templateKey=invitation&to=${encodeURIComponent(email)}`)).body.data[0];
    const text = (await client.get(`/email/deliveries/${delivery.id}`)).body.text as string;
    const mailed = new URL(/https?:\/\/\S+\/invitation\?token=[\w-]+/.exec(text)![0]);
    expect(mailed.pathname).toBe(`/t/${north.id}/invitation`);
    const link = `${app.baseUrl}${mailed.pathname}${mailed.search}`;

    // Another tenant's path is refused; the service's address, the same organization's, moves to the tenant's own.
    const refused = await openPage(`${app.baseUrl}/t/${south.slug}/invitation${mailed.search}`);
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('another organization');
    const moved = await fetch(`${app.baseUrl}/invitation${mailed.search}`, { redirect: 'manual' });
    expect(moved.status).toBe(303);
    expect(moved.headers.get('location')).toBe(mailed.href);
    // A slug renamed since, and taken by another tenant: the mailed link still opens on North's surface.
    const northSlug = north.slug as string;
    expect((await client.patch(`${base}/tenants/${north.id}`, { slug: `north-renamed-${Date.now()}` })).status).toBe(200);
    expect((await client.patch(`${base}/tenants/${south.id}`, { slug: northSlug })).status).toBe(200);
    const accepted = await submit(link, { password: PASSWORD });
    expect(accepted.status, accepted.html).toBe(200);
    const users = (await client.get(`${base}/tenants/${north.id}/users?email=${encodeURIComponent(email)}`)).body.data;
    expect(users).toHaveLength(1);
    expect(users[0].tenantIds).toEqual([north.id]);
  });

  it('a deleted tenant takes its invitations with it, each recorded', async () => {
    const doomed = await app.createTenant('Doomed');
    const sent = await invite(`${appPath}/tenants/${doomed}`, { email: `doomed-${randomUUID()}@example.com` });
    expect((await app.http.delete(`${appPath}/tenants/${doomed}`)).status).toBe(204);
    expect(await app.sql('select 1 from invitation where id = ?', [sent.id])).toEqual([]);
    const records = (await app.http.get(`/audit-logs?action=invitation.deleted&target=${sent.id}`)).body.data;
    expect(records).toHaveLength(1);
  });
});

interface Surface {
  readonly id: string;
  readonly slug: string;
  readonly path: string;
}

/** An application of its own (shared pool) that signs in with `providers` alone (PASSWORD_PROVIDER: the one it starts with), with two tenants. */
async function applicationWith(providers: readonly Record<string, unknown>[]) {
  const bootstrapped = await app.bootstrapAnother();
  const client = app.as({ apiKey: bootstrapped.apiKey });
  const base = `/applications/${bootstrapped.applicationId}`;
  if (!providers.includes(PASSWORD_PROVIDER)) {
    expect((await client.delete(`${base}/auth-providers/${await passwordProviderId(client, `${base}/auth-providers`)}`)).status).toBe(204);
  }
  for (const provider of providers) {
    if (provider !== PASSWORD_PROVIDER) expect((await client.post(`${base}/auth-providers`, provider)).status).toBe(201);
  }
  const tenant = async (name: string): Promise<Surface> => {
    const created = await client.post(`${base}/tenants`, { name, slug: `${name.toLowerCase()}-${randomUUID().slice(0, 8)}` });
    expect(created.status).toBe(201);
    return { id: created.body.id, slug: created.body.slug, path: `${base}/tenants/${created.body.id}` };
  };
  return { client, base, one: await tenant('Umbrella'), two: await tenant('Hooli') };
}

const MAGIC_LINK = { type: 'magic_link', config: { signInWith: 'link' } };
const PASSWORD_PROVIDER = { type: 'password' };

interface StoredUser {
  name: string | null;
  tenant_ids: string[];
  password_hash: string | null;
  email_verified: boolean;
  locale: string | null;
  failed_sign_ins: number;
}

const storedUser = async (id: string) =>
  (await app.sql<StoredUser>('select name, tenant_ids, password_hash, email_verified, locale, failed_sign_ins from app_user where id = ?', [id]))[0]!;
const usersOf = async (email: string) => (await app.sql<{ n: number }>('select count(*)::int as n from app_user where email = ?', [email]))[0]!.n;

describe('invitations without a password to prove: the link proves the mailbox', () => {
  it('without password sign-in, a new account is made with a name only, its address verified; a forged form changes nothing, a spent link is refused', async () => {
    const { client, one, two } = await applicationWith([MAGIC_LINK]);
    const role = (await client.post(`${one.path}/roles`, { key: 'crew', name: 'Crew', permissions: ['users:read'] })).body.id as string;
    const email = `nopw-${randomUUID()}@example.com`;
    const sent = await invite(one.path, { email, roleIds: [role] }, client);
    await invite(one.path, { email: `bystander-${randomUUID()}@example.com` }, client);
    const link = await linkMailedTo(email, client);
    const page = await openPage(link);
    expect(page.status, page.html).toBe(200);
    expect(page.html).toContain('Create your account to accept the invitation.');
    expect(page.html).toContain('name="name"');
    expect(page.html).not.toContain('name="password"');

    // No CSRF token, or another invitation's: refused, nothing changed.
    const form = formOf(page);
    const bystanderList = (await client.get(`${one.path}/invitations?status=pending`)).body.data as { id: string; email: string }[];
    const bystander = bystanderList.find((invitation) => invitation.email.startsWith('bystander-'))!;
    const otherForm = formOf(await openPage(await linkMailedTo(bystander.email, client)));
    for (const forged of [{ token: form.token, name: 'Mallory' }, { csrf: otherForm.csrf, token: form.token, name: 'Mallory' }] as Record<string, string>[]) {
      const refused = await post(form.action, forged);
      expect(refused.status).toBe(403);
    }
    expect((await client.get(`${one.path}/invitations/${sent.id}`)).body.status).toBe('pending');
    expect(await usersOf(email)).toBe(0);

    const accepted = await post(form.action, { csrf: form.csrf, token: form.token, name: ' Noa ' });
    expect(accepted.status, accepted.html).toBe(200);
    expect(accepted.html).toContain('You are now a member of Umbrella');
    expect(accepted.html).toContain('You can sign in with a sign-in link sent by email.');
    expect(accepted.headers?.get('set-cookie') ?? null).toBeNull();
    const invitation = (await client.get(`${one.path}/invitations/${sent.id}`)).body;
    expect(invitation).toMatchObject({ status: 'accepted', acceptedUserId: expect.any(String) });
    const user = await storedUser(invitation.acceptedUserId);
    expect(user).toMatchObject({ name: 'Noa', tenant_ids: [one.id], password_hash: null, email_verified: true, locale: 'en' });
    expect((await client.post(`${one.path}/roles/check`, { subject: { type: 'user', id: invitation.acceptedUserId }, role })).body).toEqual({ allowed: true });
    expect((await client.post(`${two.path}/roles/check`, { subject: { type: 'user', id: invitation.acceptedUserId }, role })).body).toEqual({ allowed: false });
    const created = (await client.get(`${one.path}/audit-logs?action=user.created&target=${invitation.acceptedUserId}`)).body.data[0];
    expect(created.changes.after).toMatchObject({ hasPassword: false, via: `invitation:${sent.id}` });

    // The same form again, and the link again: spent.
    const twice = await post(form.action, { csrf: form.csrf, token: form.token, name: 'Noa' });
    expect(twice.status).toBe(410);
    expect(twice.html).toContain('already been accepted');
    expect((await openPage(link)).status).toBe(410);
    expect(await usersOf(email)).toBe(1);
  });

  it('without password sign-in, an expired or revoked link, and the link on another tenant’s surface, are refused at the form and at its post', async () => {
    const { client, one, two } = await applicationWith([MAGIC_LINK]);
    const [late, withdrawn, astray] = ['late', 'withdrawn', 'astray'].map((who) => `${who}-${randomUUID()}@example.com`) as [string, string, string];
    const sent = { late: await invite(one.path, { email: late }, client), withdrawn: await invite(one.path, { email: withdrawn }, client) };
    await invite(one.path, { email: astray }, client);
    const forms = { late: formOf(await openPage(await linkMailedTo(late, client))), withdrawn: formOf(await openPage(await linkMailedTo(withdrawn, client))) };

    await app.sql(`update invitation set expires_at = now() - interval '1 minute' where id = ?`, [sent.late.id]);
    expect((await client.delete(`${one.path}/invitations/${sent.withdrawn.id}`)).status).toBe(204);
    const expired = await post(forms.late.action, { csrf: forms.late.csrf, token: forms.late.token, name: 'Late' });
    expect(expired.status).toBe(410);
    expect(expired.html).toContain('has expired');
    const revoked = await post(forms.withdrawn.action, { csrf: forms.withdrawn.csrf, token: forms.withdrawn.token, name: 'Withdrawn' });
    expect(revoked.status).toBe(410);
    expect(revoked.html).toContain('was revoked');

    const link = new URL(await linkMailedTo(astray, client));
    const elsewhere = `${app.baseUrl}/t/${two.slug}/invitation${link.search}`;
    const opened = await openPage(elsewhere);
    expect(opened.status).toBe(403);
    expect(opened.html).toContain('another organization');
    const form = formOf(await openPage(link.href));
    const posted = await post(`/t/${two.slug}/invitation`, { csrf: form.csrf, token: form.token, name: 'Astray' });
    expect(posted.status).toBe(403);
    for (const email of [late, withdrawn, astray]) expect(await usersOf(email)).toBe(0);
  });

  it('an existing account without a password, or on a surface without password sign-in, joins with the button alone, keeping its other tenants', async () => {
    // Password sign-in on, the account made without a password (as by a magic link, a passkey or an upstream provider).
    const withPasswords = await applicationWith([PASSWORD_PROVIDER, MAGIC_LINK]);
    const email = `linked-${randomUUID()}@example.com`;
    const made = await withPasswords.client.post(`${withPasswords.two.path}/users`, { email, name: 'Lin' });
    expect(made.status).toBe(201);
    const sent = await invite(withPasswords.one.path, { email }, withPasswords.client);
    const link = await linkMailedTo(email, withPasswords.client);
    const page = await openPage(link);
    expect(page.html).toContain('Accept the invitation to join Umbrella with your account.');
    expect(page.html).not.toContain('name="password"');
    expect(page.html).not.toContain('name="name"');
    // A password sent anyway is no proof and sets nothing.
    const accepted = await submit(link, { password: 'Anything-at-all-9' });
    expect(accepted.status, accepted.html).toBe(200);
    expect(accepted.html).toContain('You can sign in with a sign-in link sent by email.');
    expect(accepted.html).not.toContain('your password');
    expect((await withPasswords.client.get(`${withPasswords.one.path}/invitations/${sent.id}`)).body).toMatchObject({ status: 'accepted', acceptedUserId: made.body.id });
    const joined = await storedUser(made.body.id);
    expect(new Set(joined.tenant_ids)).toEqual(new Set([withPasswords.one.id, withPasswords.two.id]));
    expect(joined).toMatchObject({ name: 'Lin', password_hash: null, email_verified: true, failed_sign_ins: 0 });
    const actions = (await withPasswords.client.get(`/audit-logs?target=${made.body.id}`)).body.data.map((record: { action: string }) => record.action);
    expect(actions).toContain('user.membership.added');
    expect(actions).not.toContain('user.sign_up.disowned');

    // No password sign-in on the surface: an account that has a password joins with the button too, its password unchanged.
    const passwordless = await applicationWith([MAGIC_LINK]);
    const holder = `holder-${randomUUID()}@example.com`;
    const withOne = await passwordless.client.post(`${passwordless.two.path}/users`, { email: holder, password: PASSWORD });
    expect(withOne.status).toBe(201);
    const hashBefore = (await storedUser(withOne.body.id)).password_hash;
    await invite(passwordless.one.path, { email: holder }, passwordless.client);
    const holderLink = await linkMailedTo(holder, passwordless.client);
    expect((await openPage(holderLink)).html).not.toContain('name="password"');
    expect((await submit(holderLink, {})).status).toBe(200);
    const after = await storedUser(withOne.body.id);
    expect(new Set(after.tenant_ids)).toEqual(new Set([passwordless.one.id, passwordless.two.id]));
    expect(after.password_hash).toBe(hashBefore);
  });

  it("a never-confirmed account joining by the mailbox alone keeps nothing of whoever signed up with the address: its password goes", async () => {
    const passwordless = await applicationWith([MAGIC_LINK]);
    const address = `squatted-${randomUUID()}@example.com`;
    // As a sign-up by whoever typed the address, never confirmed.
    const squat = await passwordless.client.post(`${passwordless.two.path}/users`, { email: address, name: 'Squatter', password: PASSWORD });
    expect(squat.status).toBe(201);
    await app.sql('update app_user set email_verified = false where id = ?', [squat.body.id]);
    await invite(passwordless.one.path, { email: address }, passwordless.client);
    const link = await linkMailedTo(address, passwordless.client);
    expect((await submit(link, {})).status).toBe(200);
    const after = await storedUser(squat.body.id);
    expect(after).toMatchObject({ password_hash: null, email_verified: true });
    expect(after.tenant_ids).toContain(passwordless.one.id);
    const actions = (await passwordless.client.get(`/audit-logs?target=${squat.body.id}`)).body.data.map((record: { action: string }) => record.action);
    expect(actions).toEqual(expect.arrayContaining(['user.sign_up.disowned', 'user.email.verified', 'user.membership.added']));
  });

  it('an account whose address another tenant’s administrator set joins by the button with nothing its holder had but that tenant, made for the address', async () => {
    const { client, base, one, two } = await applicationWith([PASSWORD_PROVIDER, MAGIC_LINK]);
    const applicationId = base.slice('/applications/'.length);
    // The tenant's administrator's own account, without a password, signed in with a passkey.
    const own = await client.post('/users', { email: `admin-${randomUUID()}@example.com`, tenantId: two.id });
    expect(own.status).toBe(201);
    await giveKey(app, applicationId, own.body.id, new URL(app.baseUrl).hostname);
    const admin = await issueTestKey(app, { applicationId, tenantId: two.id, permissions: ['users:read', 'users:write'] });
    const victim = `victim-${randomUUID()}@example.com`;
    const moved = await admin.patch(`${two.path}/users/${own.body.id}`, { email: victim });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.emailVerified).toBe(false);

    await invite(one.path, { email: victim }, client);
    const accepted = await submit(await linkMailedTo(victim, client), {});
    expect(accepted.status, accepted.html).toBe(200);
    expect(await storedUser(own.body.id)).toMatchObject({ tenant_ids: [two.id, one.id], password_hash: null, email_verified: true });
    expect(await app.sql('select id from webauthn_credential where user_id = ?', [own.body.id])).toEqual([]);
    const actions = (await client.get(`/audit-logs?target=${own.body.id}`)).body.data.map((record: { action: string }) => record.action);
    expect(actions).toEqual(expect.arrayContaining(['user.sign_up.disowned', 'user.mfa.reset', 'user.email.verified', 'user.membership.added']));
    expect(actions).not.toContain('user.membership.removed');
  });

  it('with password sign-in and another way in, a new account’s password is optional; with passwords only, it is required', async () => {
    const { client, one } = await applicationWith([PASSWORD_PROVIDER, MAGIC_LINK]);
    const [bare, keyed] = [`bare-${randomUUID()}@example.com`, `keyed-${randomUUID()}@example.com`];
    for (const email of [bare, keyed]) await invite(one.path, { email }, client);
    const link = await linkMailedTo(bare, client);
    const page = await openPage(link);
    expect(page.html).toMatch(/<input id="password" name="password" type="password" autocomplete="new-password" aria-describedby="password-optional password-rules">/);
    expect(page.html).toContain('Optional: without a password, you can sign in with a sign-in link sent by email.');
    // Given, it is held to the policy.
    const weak = await submit(link, { name: 'Bea', password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.html).toContain('id="password-error"');
    const left = await submit(link, { name: 'Bea', password: '' });
    expect(left.status, left.html).toBe(200);
    expect(left.html).toContain('You can sign in with a sign-in link sent by email.');
    const bareId = (await app.sql<{ id: string }>('select id from app_user where email = ?', [bare]))[0]!.id;
    expect(await storedUser(bareId)).toMatchObject({ tenant_ids: [one.id], password_hash: null, email_verified: true });

    const chosen = await submit(await linkMailedTo(keyed, client), { name: 'Kit', password: PASSWORD });
    expect(chosen.status, chosen.html).toBe(200);
    expect(chosen.html).toContain('You can sign in with your password or a sign-in link sent by email.');
    const keyedId = (await app.sql<{ id: string }>('select id from app_user where email = ?', [keyed]))[0]!.id;
    expect((await storedUser(keyedId)).password_hash).toMatch(/^\$argon2/);

    // The root application signs in with passwords only: one is required, and the form says so.
    const only = `only-${randomUUID()}@example.com`;
    await invite(inA, { email: only });
    const onlyLink = await linkMailedTo(only);
    expect((await openPage(onlyLink)).html).toMatch(/<input id="password" name="password" type="password" autocomplete="new-password" required aria-describedby="password-rules">/);
    const blank = await submit(onlyLink, { name: 'Oz', password: '' });
    expect(blank.status).toBe(400);
    expect(blank.html).toContain('id="password-error"');
    expect(await usersOf(only)).toBe(0);
  });

  describe('where the surface signs in with passkeys only, the acceptance makes a passkey', () => {
    const PASSKEY = { type: 'passkey', config: { rpName: 'Umbrella' } };
    const origin = () => new URL(app.gatehouse.services.config.publicUrl).origin;
    const keysOf = async (userId: string) => app.sql<{ rp_id: string; name: string }>('select rp_id, name from webauthn_credential where user_id = ?', [userId]);
    /** Posts the page's WebAuthn form with `credential` (as its script does) and `values` typed. */
    const answer = (jar: CookieJar, page: Visit, credential: string, values: Record<string, string> = {}) => {
      const { form } = webauthnFormOf(page);
      return jar.visit(form.action, { form: { ...form.fields, ...values, credential } });
    };
    /** Posts the page's "Send me a code" form. */
    const sendCode = (jar: CookieJar, page: Visit) => {
      const html = /<form method="post"[^>]*>(?:(?!<\/form>)[\s\S])*name="sendCode"[\s\S]*?<\/form>/.exec(page.body)?.[0];
      expect(html, page.body).toBeDefined();
      const form = readForm(page.url, html!);
      return jar.visit(form.action, { form: form.fields });
    };
    const CODE_ERROR = 'The code is incorrect, has expired or was used. Send yourself a new one.';
    /** An account made in `two` accepts an invitation to `one`, adding a passkey with the code mailed to it. */
    const existingAccountJoinsWithPasskey = async ({ client, one, two }: Awaited<ReturnType<typeof applicationWith>>) => {
      const email = `kay-${randomUUID()}@example.com`;
      const made = await client.post(`${two.path}/users`, { email, name: 'Kay' });
      expect(made.status).toBe(201);
      await invite(one.path, { email }, client);
      const jar = new CookieJar();
      const sent = await sendCode(jar, await jar.visit(await linkMailedTo(email, client)));
      const { options } = webauthnFormOf(sent);
      const joined = await answer(jar, sent, new SoftAuthenticator().register(options as never, origin()), { code: await mailedCode(client, email) });
      expect(joined.status, joined.body).toBe(200);
      return { email, userId: made.body.id as string, jar };
    };

    it('a new account is made with the key the browser made for the id its page drew; a key of another page, id or invitation is refused, storing nothing', async () => {
      const { client, one } = await applicationWith([PASSKEY]);
      const [email, bystander] = [`pia-${randomUUID()}@example.com`, `bystander-${randomUUID()}@example.com`];
      const sent = await invite(one.path, { email }, client);
      await invite(one.path, { email: bystander }, client);
      const jar = new CookieJar();
      const page = await jar.visit(await linkMailedTo(email, client));
      expect(page.status, page.body).toBe(200);
      expect(page.body).toContain('Umbrella signs in with passkeys: your browser will make one for this account.');
      const { ceremony, options, form } = webauthnFormOf(page);
      expect(ceremony).toBe('create');
      expect(form.fields).toMatchObject({ name: '', user: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(Buffer.from((options['user'] as { id: string }).id, 'base64url').toString('hex')).toBe(form.fields['user']!.replaceAll('-', ''));
      const key = new SoftAuthenticator();

      // Refused, the form again with the name kept: the browser gave up; a key made on another invitation's page; the
      // page's key posted with another id (a challenge names its user); nothing at all.
      const other = webauthnFormOf(await jar.visit(await linkMailedTo(bystander, client)));
      const refusals: { credential: string; values?: Record<string, string> }[] = [
        { credential: 'cancelled' },
        { credential: key.register(other.options as never, origin()) },
        { credential: key.register(options as never, origin()), values: { user: randomUUID() } },
        { credential: key.register(options as never, origin()), values: { user: 'not-an-id' } },
      ];
      for (const { credential, values } of refusals) {
        const refused = await answer(jar, page, credential, { name: 'Pia', ...values });
        expect(refused.status, refused.body).toBe(400);
        expect(refused.body).toContain('The passkey was not created: your browser did not finish. Try again.');
        expect(refused.body).toContain('value="Pia"');
      }
      expect(await usersOf(email)).toBe(0);
      expect((await client.get(`${one.path}/invitations/${sent.id}`)).body.status).toBe('pending');
      // A new account is the link's to make (as Auth0's and Zitadel's invitation sign-ups): no code is offered, and a
      // post asking one mails nothing.
      expect(page.body).not.toContain('name="sendCode"');
      const asked = await jar.visit(form.action, { form: { csrf: form.fields['csrf']!, token: form.fields['token']!, sendCode: '1' } });
      expect(asked.status).toBe(400);
      expect(await mails(client, email, 'email_otp')).toEqual([]);

      // A fresh page's key: the account takes the id its page drew, with the key, its address verified.
      const fresh = await jar.visit(await linkMailedTo(email, client));
      const drawn = webauthnFormOf(fresh);
      const accepted = await answer(jar, fresh, key.register(drawn.options as never, origin()), { name: 'Pia' });
      expect(accepted.status, accepted.body).toBe(200);
      expect(accepted.body).toContain('You can sign in with your passkey.');
      const userId = drawn.form.fields['user']!;
      expect((await client.get(`${one.path}/invitations/${sent.id}`)).body).toMatchObject({ status: 'accepted', acceptedUserId: userId });
      expect(await storedUser(userId)).toMatchObject({ name: 'Pia', tenant_ids: [one.id], password_hash: null, email_verified: true });
      expect(await keysOf(userId)).toEqual([{ rp_id: new URL(origin()).hostname, name: expect.any(String) }]);
      const added = (await client.get(`/audit-logs?action=user.passkey.added&target=${userId}`)).body.data;
      expect(added).toHaveLength(1);
      expect(added[0].actor).toMatchObject({ type: 'invitation', id: sent.id });

      // The same answer again: the link is spent.
      expect((await answer(jar, fresh, key.register(drawn.options as never, origin()), { name: 'Pia' })).status).toBe(410);
      expect(await keysOf(userId)).toHaveLength(1);
    });

    it('an account without a key makes one as it joins, with a code mailed to it; one that has a key joins with the button; with another way in, no key is asked', async () => {
      const { client, base, one, two } = await applicationWith([PASSKEY]);
      const email = `ray-${randomUUID()}@example.com`;
      const made = await client.post(`${two.path}/users`, { email, name: 'Ray' });
      expect(made.status).toBe(201);
      await invite(one.path, { email }, client);
      const jar = new CookieJar();
      const page = await jar.visit(await linkMailedTo(email, client));
      expect(page.body).toContain('Accept the invitation to join Umbrella with your account. Umbrella signs in with passkeys');
      expect(page.body).toContain('once you enter the code we e-mail to you.');
      const { form } = webauthnFormOf(page);
      expect(form.fields).not.toHaveProperty('name');
      expect(form.fields).toHaveProperty('code', '');
      // Opening the page (a mail scanner's visit) mails nothing: the button does.
      expect(await mails(client, email, 'email_otp')).toEqual([]);
      const sent = await sendCode(jar, page);
      expect(sent.status, sent.body).toBe(200);
      expect(sent.body).toContain(`We sent a code to ${email}. It works once, for 10 minutes.`);
      const [mail, ...more] = await mails(client, email, 'email_otp');
      expect(more).toEqual([]);
      expect(mail!.text).toContain('Enter this code to accept the invitation and add a passkey to your account');
      expect(mail!.text).toContain('It expires in 10 minutes.');
      const code = await mailedCode(client, email);
      const key = new SoftAuthenticator();
      // The browser gave up: the form again, nothing joined, the code still good.
      expect((await answer(jar, sent, 'cancelled', { code })).status).toBe(400);
      expect((await storedUser(made.body.id)).tenant_ids).toEqual([two.id]);
      const { options } = webauthnFormOf(sent);
      const joined = await answer(jar, sent, key.register(options as never, origin()), { code });
      expect(joined.status, joined.body).toBe(200);
      expect(joined.body).toContain('You can sign in with your passkey.');
      expect(await keysOf(made.body.id)).toHaveLength(1);

      // Invited again, to a third tenant: it has its key, so only the button.
      const three = await client.post(`${base}/tenants`, { name: 'Third', slug: `third-${randomUUID().slice(0, 8)}` });
      expect(three.status).toBe(201);
      await invite(`${base}/tenants/${three.body.id}`, { email }, client);
      const again = await jar.visit(await linkMailedTo(email, client));
      expect(again.body).not.toContain('data-webauthn');
      expect(again.body).toContain('Accept the invitation to join Third with your account.');
      const confirmed = await jar.submit(again, {});
      expect(confirmed.status, confirmed.body).toBe(200);
      expect(confirmed.body).toContain('You can sign in with your passkey.');
      expect(await keysOf(made.body.id)).toHaveLength(1);

      // Passkeys beside a sign-in link: no key is asked (one can be added on the account page).
      const mixed = await applicationWith([PASSKEY, MAGIC_LINK]);
      const bea = `bea-${randomUUID()}@example.com`;
      await invite(mixed.one.path, { email: bea }, mixed.client);
      const plain = await jar.visit(await linkMailedTo(bea, mixed.client));
      expect(plain.body).not.toContain('data-webauthn');
      const done = await jar.submit(plain, { name: 'Bea' });
      expect(done.status, done.body).toBe(200);
      expect(done.body).toContain('You can sign in with a sign-in link sent by email.');
    });

    it('a key added to an existing account as it joins is announced to its owner (mfa_enrolled), as every factor added is; a new account’s is not', async () => {
      const surface = await applicationWith([PASSKEY]);
      const { client, one } = surface;
      const fresh = `neu-${randomUUID()}@example.com`;
      const { email, userId, jar } = await existingAccountJoinsWithPasskey(surface);
      expect(await keysOf(userId)).toHaveLength(1);
      const [notice, ...more] = await mails(client, email, 'mfa_enrolled');
      expect(more).toEqual([]);
      expect(notice?.text).toContain(`Passkey or security key was added as a second factor to ${email}.`);
      // Its link is the owner's way back, on the pool's pages: a reset link.
      expect(notice?.text).toMatch(/http\S+\/account\/reset-password\?token=\S+/);

      await invite(one.path, { email: fresh }, client);
      const page = await jar.visit(await linkMailedTo(fresh, client));
      const drawn = webauthnFormOf(page);
      expect((await answer(jar, page, new SoftAuthenticator().register(drawn.options as never, origin()), { name: 'Neu' })).status).toBe(200);
      expect(await mails(client, fresh, 'mfa_enrolled')).toEqual([]);
    });

    // Its suspension, deletion or change of address withdraws every mail still queued to the account (withdrawQueuedMail).
    const endings = [
      { why: 'the account was suspended', end: (client: HttpClient, base: string, id: string) => client.post(`${base}/users/${id}/suspend`, {}) },
      { why: 'the account was deleted', end: (client: HttpClient, base: string, id: string) => client.delete(`${base}/users/${id}`) },
      { why: 'the account’s address changed', end: (client: HttpClient, base: string, id: string) => client.patch(`${base}/users/${id}`, { email: `moved-${randomUUID()}@example.com` }) },
    ];
    for (const { why, end } of endings) {
      it(`that key’s notice, still queued, is withdrawn as every mail to the account is when ${why}`, async () => {
        const surface = await applicationWith([PASSKEY]);
        const { client, base } = surface;
        await outboxStoppedDuring(app, async () => {
          const { email, userId } = await existingAccountJoinsWithPasskey(surface);
          const [notice, ...more] = (await client.get(`/email/deliveries?templateKey=mfa_enrolled&to=${encodeURIComponent(email)}`)).body.data;
          expect(more).toEqual([]);
          expect(notice.status).toBe('queued');

          expect((await end(client, base, userId)).status).toBeLessThan(300);
          const after = (await client.get(`/email/deliveries/${notice.id as string}`)).body;
          expect({ status: after.status, lastError: after.lastError }).toEqual({ status: 'failed', lastError: expect.stringContaining(`withdrawn: ${why}`) });
        });
      });
    }

    it('a key on an account whose address was never confirmed is its maker’s: the invitee adds their own with the mailed code, and the maker’s goes', async () => {
      const { client, base, one, two } = await applicationWith([PASSKEY]);
      const applicationId = base.slice('/applications/'.length);
      const own = await client.post('/users', { email: `admin-${randomUUID()}@example.com`, tenantId: two.id });
      const makers = await giveKey(app, applicationId, own.body.id, new URL(origin()).hostname);
      const admin = await issueTestKey(app, { applicationId, tenantId: two.id, permissions: ['users:read', 'users:write'] });
      const victim = `victim-${randomUUID()}@example.com`;
      expect((await admin.patch(`${two.path}/users/${own.body.id}`, { email: victim })).body.emailVerified).toBe(false);

      await invite(one.path, { email: victim }, client);
      const jar = new CookieJar();
      const page = await jar.visit(await linkMailedTo(victim, client));
      expect(page.body).toContain('data-webauthn="create"');
      const sent = await sendCode(jar, page);
      expect(sent.status, sent.body).toBe(200);
      const key = new SoftAuthenticator();
      const joined = await answer(jar, sent, key.register(webauthnFormOf(sent).options as never, origin()), { code: await mailedCode(client, victim) });
      expect(joined.status, joined.body).toBe(200);
      const held = await app.sql<{ credential_id: string }>('select credential_id from webauthn_credential where user_id = ?', [own.body.id]);
      expect(held.map((row) => row.credential_id)).toEqual([key.id]);
      expect(held.map((row) => row.credential_id)).not.toContain(makers.id);
      expect(await storedUser(own.body.id)).toMatchObject({ tenant_ids: [two.id, one.id], email_verified: true });
    });

    it('a key is added to an existing account only with the code mailed to its address then: none, a wrong, expired, replaced, spent or another invitation’s code adds nothing', async () => {
      const { client, base, one, two } = await applicationWith([PASSKEY]);
      const [email, olga] = [`kai-${randomUUID()}@example.com`, `olga-${randomUUID()}@example.com`];
      const made = await client.post(`${two.path}/users`, { email, name: 'Kai' });
      expect(made.status).toBe(201);
      expect((await client.post(`${two.path}/users`, { email: olga, name: 'Olga' })).status).toBe(201);
      const sent = await invite(one.path, { email }, client);
      const link = await linkMailedTo(email, client);
      await invite(one.path, { email: olga }, client);
      // The same address invited to a third tenant, and in another application.
      const three = await client.post(`${base}/tenants`, { name: 'Third', slug: `third-${randomUUID().slice(0, 8)}` });
      expect(three.status).toBe(201);
      await invite(`${base}/tenants/${three.body.id}`, { email }, client);
      const invitedTo = (await client.get(`/email/deliveries?templateKey=invitation&to=${encodeURIComponent(email)}`)).body.data as { id: string }[];
      expect(invitedTo).toHaveLength(2);
      const links = await Promise.all(invitedTo.map(async ({ id }) => /\/invitation\?token=[\w-]+/.exec((await client.get(`/email/deliveries/${id}`)).body.text as string)![0]));
      const thirdLink = `${app.baseUrl}${links.find((path) => !link.endsWith(path))!}`;
      const elsewhere = await applicationWith([PASSKEY]);
      expect((await elsewhere.client.post(`${elsewhere.two.path}/users`, { email, name: 'Kai' })).status).toBe(201);
      await invite(elsewhere.one.path, { email }, elsewhere.client);

      const jar = new CookieJar();
      const key = new SoftAuthenticator();
      const nothingAdded = async () => {
        expect(await keysOf(made.body.id)).toEqual([]);
        expect((await storedUser(made.body.id)).tenant_ids).toEqual([two.id]);
        expect((await client.get(`${one.path}/invitations/${sent.id}`)).body.status).toBe('pending');
      };
      /** A fresh page of `url` answered with a key its challenge verifies and `code`. */
      const tryCode = async (url: string, code: string | undefined) => {
        const page = await jar.visit(url);
        expect(page.status, page.body).toBe(200);
        const { options } = webauthnFormOf(page);
        return answer(jar, page, key.register(options as never, origin()), code === undefined ? {} : { code });
      };
      const refusedWith = async (url: string, code: string | undefined) => {
        const refused = await tryCode(url, code);
        expect(refused.status, refused.body).toBe(400);
        expect(refused.body).toContain(CODE_ERROR);
        expect(refused.body).toContain('data-webauthn="create"');
        await nothingAdded();
      };

      // No code at all, and a code mailed on another invitation's page (Olga's), on another tenant's (the same address,
      // to Third), or in another application: this invitation has none.
      await refusedWith(link, undefined);
      expect((await sendCode(jar, await jar.visit(await linkMailedTo(olga, client)))).status).toBe(200);
      await refusedWith(link, await mailedCode(client, olga));
      const third = await jar.visit(thirdLink);
      expect(third.body).toContain('Accept the invitation to join Third with your account.');
      expect((await sendCode(jar, third)).status).toBe(200);
      await refusedWith(link, await mailedCode(client, email));
      expect((await sendCode(jar, await jar.visit(await linkMailedTo(email, elsewhere.client)))).status).toBe(200);
      await refusedWith(link, await mailedCode(elsewhere.client, email));
      // Each code went to the address whose page asked it, and only there.
      expect((await client.get('/email/deliveries?templateKey=email_otp')).body.data.map((d: { to: string }) => d.to).sort()).toEqual([email, olga].sort());

      // The code mailed now: a wrong one is a failed sign-in of the account by the invitation, in the application’s log.
      expect((await sendCode(jar, await jar.visit(link))).status).toBe(200);
      const code = await mailedCode(client, email, 2);
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      await refusedWith(link, wrong);
      const failures = (await client.get(`/audit-logs?action=user.sign_in_failed&target=${made.body.id}`)).body.data;
      expect(failures[0]).toMatchObject({ tenantId: null, actor: { type: 'invitation', id: sent.id }, outcome: 'failure' });
      expect(failures[0].changes.after).toMatchObject({ method: 'email_code', reason: 'wrong_code', clientId: null });
      // Counted under the lockout policy as a wrong password is (a code that was none counts nowhere).
      expect((await storedUser(made.body.id)).failed_sign_ins).toBe(1);

      // Expired: refused, right as it is.
      await app.sql(`update email_sign_in set expires_at = now() - interval '1 second' where invitation_id = ?`, [sent.id]);
      await refusedWith(link, code);
      // Replaced by a newer one: only the latest works.
      expect((await sendCode(jar, await jar.visit(link))).status).toBe(200);
      const replaced = await mailedCode(client, email, 3);
      expect((await sendCode(jar, await jar.visit(link))).status).toBe(200);
      const latest = await mailedCode(client, email, 4);
      if (replaced !== latest) await refusedWith(link, replaced);
      // A few wrong tries spend it: then the right one is refused too (the lockout's waits set aside).
      expect((await client.put(`${base}/policies/lockout`, { enabled: false })).status).toBe(200);
      for (let attempt = 0; attempt < 5; attempt += 1) await refusedWith(link, String((Number(latest) + 1 + attempt) % 1_000_000).padStart(6, '0'));
      await refusedWith(link, latest);

      // A fresh code with the key: the account joins with it.
      expect((await sendCode(jar, await jar.visit(link))).status).toBe(200);
      const good = await mailedCode(client, email, 5);
      const last = await jar.visit(link);
      const { options } = webauthnFormOf(last);
      const joined = await answer(jar, last, key.register(options as never, origin()), { code: good });
      expect(joined.status, joined.body).toBe(200);
      expect(joined.body).toContain('You can sign in with your passkey.');
      expect(await keysOf(made.body.id)).toHaveLength(1);
      expect((await client.get(`${one.path}/invitations/${sent.id}`)).body).toMatchObject({ status: 'accepted', acceptedUserId: made.body.id });
      expect((await app.sql<{ n: number }>('select count(*)::int as n from email_sign_in where invitation_id = ? and used_at is null', [sent.id]))[0]!.n).toBe(0);
      // Spent with the link: the same answer and code again is the accepted page.
      expect((await answer(jar, last, key.register(options as never, origin()), { code: good })).status).toBe(410);
      expect(await keysOf(made.body.id)).toHaveLength(1);
    });
  });
});
