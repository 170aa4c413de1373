import { verify } from '@node-rs/argon2';
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.ts';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { auditRecordsOf, traced } from '../support/audit.ts';
import { usingEmbeddedDatabase } from '../support/database.ts';
import type { HttpResponse } from '../support/http.ts';
import { queuedBehind as queuedBehindRow, type RowHolder } from '../support/row-lock.ts';
import { idsPageByPage } from '../support/cursors.ts';
import { createKeySecret, issueTestKey } from '../support/keys.ts';
import { issuedLink, mails } from '../support/email-sign-in.ts';
import { createTestClient } from '../support/oauth.ts';

let app: TestApp;
let appPath: string;
let tenantA: string;
let tenantB: string;

/** Rows as the database holds them: what the API must never show (hashes) and what it must have written (audit). */

beforeAll(async () => {
  ({ app, appPath, tenants: [tenantA, tenantB] } = await startTestAppWithTenants(['Tenant A', 'Tenant B']));
});
afterAll(async () => app?.close());

describe('users', () => {
  it('creates, reads, updates and lists a user; the password never leaves', async () => {
    const created = await app.http.post('/users', { email: '  Ada@Example.COM ', name: 'Ada', password: 'Correct horse battery 9' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      applicationId: app.root.applicationId,
      email: 'Ada@Example.COM',
      name: 'Ada',
      status: 'active',
      tenantIds: [],
      emailVerified: true,
      metadata: {},
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.id as string;
    expect((await app.http.get(`/users/${id}`)).body).toEqual(created.body);
    expect((await app.http.get(`${appPath}/users/${id}`)).body).toEqual(created.body);
    const renamed = await app.http.patch(`/users/${id}`, { name: 'Ada Lovelace', email: 'ada@lovelace.dev' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, name: 'Ada Lovelace', email: 'ada@lovelace.dev', tenantIds: [] });
    const list = await app.http.get('/users');
    expect(list.status).toBe(200);
    expect(list.body.data).toContainEqual(renamed.body);
    expect(JSON.stringify(list.body)).not.toContain('argon2');
  });

  it('a new address set by PATCH ends the links mailed to the old one, as the user’s own change does; a change of case keeps them', async () => {
    const client = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: ['https://app.example/callback'] });
    const userId = (await app.http.post('/users', { email: 'old-box@example.com' })).body.id as string;
    const reset = new URL(await issuedLink(app, userId, client.clientId, app.baseUrl));
    const page = () => fetch(`${app.baseUrl}${reset.pathname}${reset.search}`).then((response) => response.status);
    expect(await page()).toBe(200);
    expect((await app.http.patch(`/users/${userId}`, { email: 'Old-Box@example.com' })).status).toBe(200);
    expect(await page()).toBe(200);
    expect((await app.http.patch(`/users/${userId}`, { email: 'new-box@example.com' })).status).toBe(200);
    expect(await page()).toBe(400);
  });

  it('a new address set by PATCH is told to the old one, with no link to take it back: an administrator’s act; a change of case tells nothing, nor does a refused change', async () => {
    const old = `told-${newId()}@example.com`;
    const userId = (await app.http.post('/users', { email: old, name: 'Tess' })).body.id as string;
    const notices = async (to: string) => (await app.http.get(`/email/deliveries?templateKey=email_change&to=${to}`)).body.data as { id: string }[];
    expect((await app.http.patch(`/users/${userId}`, { email: old.toUpperCase() })).status).toBe(200);
    const reader = await issueTestKey(app, { permissions: ['users:read'] });
    expect((await reader.patch(`/users/${userId}`, { email: `elsewhere-${old}` })).status).toBe(403);
    expect(await notices(old)).toEqual([]);

    const moved = `moved-${old}`;
    expect((await app.http.patch(`/users/${userId}`, { email: moved })).status).toBe(200);
    const [notice, ...more] = await notices(old);
    expect(more).toEqual([]);
    const mail = (await app.http.get(`/email/deliveries/${notice!.id}`)).body;
    expect(mail).toMatchObject({ to: old.toUpperCase(), tenantId: null });
    expect(mail.text).toContain('Hi Tess,');
    expect(mail.text).toContain(`was changed from ${old.toUpperCase()} to ${moved}`);
    expect(mail.text).toContain('If you did not expect this change, contact support.');
    expect(mail.text).not.toContain('/account/');
    expect(await notices(moved)).toEqual([]);
  });

  it('PATCH changes metadata (replaced whole, audited), name and e-mail; a duplicate e-mail is 409; bad metadata 422', async () => {
    const created = await app.http.post('/users', { email: 'meta@example.com', metadata: { plan: 'pro' } });
    expect(created.body.metadata).toEqual({ plan: 'pro' });
    const id = created.body.id as string;
    const patched = await app.http.patch(`/users/${id}`, { metadata: { plan: 'team', seats: 3, nested: { a: [1, 2] } }, name: 'Meta' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Meta', metadata: { plan: 'team', seats: 3, nested: { a: [1, 2] } } });
    expect((await app.http.get(`/users/${id}`)).body.metadata).toEqual({ plan: 'team', seats: 3, nested: { a: [1, 2] } });
    const [record] = await app.sql<{ before: { metadata: unknown }; after: { metadata: unknown } }>(
      `select before, after from audit_log where action = 'user.updated' and target_id = ? order by id desc limit 1`,
      [id],
    );
    expect(record).toMatchObject({ before: { metadata: { plan: 'pro' } }, after: { metadata: { plan: 'team' } } });
    // Left out, it stays; `{}` empties it.
    expect((await app.http.patch(`/users/${id}`, { name: 'Meta 2' })).body.metadata).toEqual({ plan: 'team', seats: 3, nested: { a: [1, 2] } });
    expect((await app.http.patch(`/users/${id}`, { metadata: {} })).body.metadata).toEqual({});

    await app.http.post('/users', { email: 'taken@example.com' });
    const duplicate = await app.http.patch(`/users/${id}`, { email: 'TAKEN@example.com' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ code: 'already_exists', field: 'email' });
    for (const metadata of [null, [1], 'text', { big: 'x'.repeat(16 * 1024) }]) {
      const refused = await app.http.patch(`/users/${id}`, { metadata });
      expect(refused.status, JSON.stringify(metadata).slice(0, 30)).toBe(422);
      expect(refused.body).toMatchObject({ code: 'validation_error', field: 'metadata' });
    }
    const after = (await app.http.get(`/users/${id}`)).body;
    expect(after).toMatchObject({ email: 'meta@example.com', metadata: {} });
  });

  it('metadata holding a NUL (which jsonb cannot store), in a value or a key at any depth, is 422 on create and PATCH, not a 500', async () => {
    const id = (await app.http.post('/users', { email: 'meta-nul@example.com', metadata: { plan: 'pro' } })).body.id;
    // A backslash and `u0000` as text is no NUL: jsonb stores it.
    const escaped = await app.http.patch(`/users/${id}`, { metadata: { note: '\\u0000' } });
    expect(escaped.status, JSON.stringify(escaped.body)).toBe(200);
    for (const metadata of [{ note: 'a\u0000b' }, { ['k\u0000']: 1 }, { nested: [{ deep: ['\u0000'] }] }]) {
      const patched = await app.http.patch(`/users/${id}`, { metadata });
      expect(patched.status, JSON.stringify(metadata)).toBe(422);
      expect(patched.body).toMatchObject({ code: 'validation_error', field: 'metadata' });
      const created = await app.http.post('/users', { email: 'meta-nul-2@example.com', metadata });
      expect(created.status, JSON.stringify(metadata)).toBe(422);
      expect(created.body).toMatchObject({ code: 'validation_error', field: 'metadata' });
    }
    expect((await app.http.get(`/users/${id}`)).body.metadata).toEqual({ note: '\\u0000' });
    expect((await app.http.get('/users?email=meta-nul-2%40example.com')).body.data).toEqual([]);
  });

  it('stores the password as an Argon2id hash with the OWASP parameters, and refuses short or long ones', async () => {
    const created = await app.http.post('/users', { email: 'hash@example.com', password: 'Hunter2hunter2' });
    const [row] = await app.sql<{ password_hash: string }>('select password_hash from app_user where id = ?', [created.body.id]);
    expect(row?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verify(row!.password_hash, 'Hunter2hunter2')).toBe(true);
    expect(await verify(row!.password_hash, 'Hunter2hunter3')).toBe(false);
    const changed = await app.http.patch(`/users/${created.body.id}`, { password: 'Another long one 2' });
    expect(changed.status).toBe(200);
    const [after] = await app.sql<{ password_hash: string }>('select password_hash from app_user where id = ?', [created.body.id]);
    expect(await verify(after!.password_hash, 'Another long one 2')).toBe(true);
    const refusals: [string, string][] = [
      ['Sh0rt', 'min_length'],
      ['Password1', 'common'],
      ['iloveyou2', 'common'],
      [' Password1 ', 'common'],
      [`Aa1${'x'.repeat(254)}`, 'max_length'],
    ];
    for (const [password, code] of refusals) {
      const refused = await app.http.post('/users', { email: `p${code}@example.com`, password });
      expect(refused.status, code).toBe(422);
      expect(refused.body).toMatchObject({ code: 'validation_error', field: 'password' });
      expect(refused.body.details.map((detail: { code: string }) => detail.code), code).toEqual([code]);
    }
    const weak = await app.http.patch(`/users/${created.body.id}`, { password: 'weak' });
    expect(weak.status).toBe(422);
    expect(weak.body.details.map((detail: { code: string }) => detail.code)).toEqual(['min_length']);
    // No composition rule by default (NIST SP 800-63B): a long password of lower-case words is taken.
    expect((await app.http.post('/users', { email: 'words@example.com', password: 'no upper case nor digit' })).status).toBe(201);
    expect((await app.http.post('/users', { email: 'p256@example.com', password: `Aa1${'x'.repeat(253)}` })).status).toBe(201);
    const noPassword = await app.http.post('/users', { email: 'passwordless@example.com' });
    expect(noPassword.status).toBe(201);
    const [none] = await app.sql<{ password_hash: string | null }>('select password_hash from app_user where id = ?', [noPassword.body.id]);
    expect(none?.password_hash).toBeNull();
  });

  it('tells the user of an administrator’s new password: password_changed to the account, without a link; a refused change or another field mails nothing', async () => {
    const email = `told-${newId()}@example.com`;
    const created = await app.http.post('/users', { email, password: 'Hunter2hunter2' });
    const id = created.body.id as string;
    const narrow = await issueTestKey(app, { permissions: ['users:read'] });
    expect((await narrow.patch(`/users/${id}`, { password: 'Refused long one 1' })).status).toBe(403);
    expect((await app.http.patch(`/users/${id}`, { password: 'weak' })).status).toBe(422);
    expect((await app.http.patch(`/users/${id}`, { name: 'Renamed' })).status).toBe(200);
    expect(await mails(app.http, email, 'password_changed')).toEqual([]);

    expect((await app.http.patch(`/users/${id}`, { password: 'Another long one 3' })).status).toBe(200);
    const [notice, ...more] = await mails(app.http, email, 'password_changed');
    expect(more).toEqual([]);
    expect(notice!.text).toContain(`The password of ${email} was changed on`);
    // An administrator's act is no one's to take back by a link: no reset link is issued or mailed.
    expect(notice!.text).not.toMatch(/https?:\/\//);
    expect(notice!.html).not.toContain('Reset password');
    expect(await app.sql(`select 1 from email_link_token where user_id = ? and used_at is null`, [id])).toEqual([]);
    expect(await app.sql('select user_id, tenant_id from email_delivery where id = ?', [notice!.id])).toEqual([{ user_id: id, tenant_id: null }]);
  });

  it('refuses an e-mail that exists in the pool in another case with 409, and keeps the first', async () => {
    const first = await app.http.post('/users', { email: 'dup@example.com' });
    expect(first.status).toBe(201);
    const duplicate = await app.http.post('/users', { email: 'DUP@example.com' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ code: 'already_exists', field: 'email' });
    // A tenant's user is in the same shared pool.
    const inTenant = await app.http.post(`${appPath}/tenants/${tenantA}/users`, { email: 'Dup@Example.com' });
    expect(inTenant.status).toBe(409);
    const other = await app.http.post('/users', { email: 'other-dup@example.com' });
    const renamed = await app.http.patch(`/users/${other.body.id}`, { email: 'dup@EXAMPLE.com' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.field).toBe('email');
    expect((await app.http.get(`/users/${other.body.id}`)).body.email).toBe('other-dup@example.com');
  });

  it('refuses an e-mail that exists in another Unicode form (NFD accents, a Unicode domain) with 409', async () => {
    expect((await app.http.post('/users', { email: 'jos\u00e9@b\u00fccher.example' })).status).toBe(201);
    for (const email of ['jose\u0301@b\u00fccher.example', 'JOS\u00c9@xn--bcher-kva.example', 'jose\u0301@BU\u0308CHER.example']) {
      const duplicate = await app.http.post('/users', { email });
      expect(duplicate.status, email).toBe(409);
      expect(duplicate.body).toMatchObject({ code: 'already_exists', field: 'email' });
    }
  });

  it('rekeys the e-mails written before keys were in Unicode NFC with ASCII domains, except where that would clash', async () => {
    const { Migration0007EmailUnicodeKeys } = await import('../../src/db/migrations/0007-email-unicode-keys.ts');
    const orm = app.gatehouse.services.orm;
    const application = app.root.applicationId;
    // Rows as the old key (trimmed, lower-cased) left them: one alone, and one whose new key another row holds.
    const alone = (await app.http.post('/users', { email: 'rene\u0301@old.example' })).body.id as string;
    const clashing = (await app.http.post('/users', { email: 'zoe\u0308@old.example' })).body.id as string;
    const keeper = (await app.http.post('/users', { email: 'keeper@old.example' })).body.id as string;
    await app.sql('update app_user set email_normalized = ? where application_id = ? and id = ?', ['rene\u0301@old.example', application, alone]);
    await app.sql('update app_user set email_normalized = ? where application_id = ? and id = ?', ['zoe\u0308@old.example', application, clashing]);
    await app.sql('update app_user set email_normalized = ? where application_id = ? and id = ?', ['zo\u00eb@old.example', application, keeper]);

    await new Migration0007EmailUnicodeKeys(orm.em.getDriver(), orm.config).up();

    const keyOf = async (id: string) => (await app.sql<{ key: string }>('select email_normalized as key from app_user where application_id = ? and id = ?', [application, id]))[0]?.key;
    expect(await keyOf(alone)).toBe('ren\u00e9@old.example');
    expect(await keyOf(clashing)).toBe('zoe\u0308@old.example');
    expect(await keyOf(keeper)).toBe('zo\u00eb@old.example');
    expect((await app.http.post('/users', { email: 'RENE\u0301@old.example' })).status).toBe(409);
  });

  it('validates input with 422 naming the field, and answers 404 for an unknown user', async () => {
    const cases: [unknown, string][] = [
      [{ email: 'not-an-email' }, 'email'],
      // Not one mailbox: a list or display name to a mail library, or another spelling of an address.
      ...['x,victim@example.com', 'a<b>@example.com', '"quoted"@example.com', 'bob@example.com.', 'a..b@example.com', '.a@example.com', 'a@exa_mple.com', 'a@[192.0.2.1]'].map(
        (email): [unknown, string] => [{ email }, 'email'],
      ),
      [{ name: 'No e-mail' }, 'email'],
      [{ email: 'a@example.com', name: '' }, 'name'],
      [{ email: 'a@example.com', colour: 'red' }, 'colour'],
      [{ email: 'a@example.com', tenantId: 'nope' }, 'tenantId'],
    ];
    for (const [body, field] of cases) {
      const response = await app.http.post('/users', body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body).toMatchObject({ code: 'validation_error', field });
    }
    // Still welcome: sub-addresses, apostrophes, Unicode local parts and domains (EAI, IDNA).
    for (const email of ['ann+news@example.com', "o'neil@example.com", 'jürgen@bücher.de', '用户@例子.广告']) {
      expect((await app.http.post('/users', { email })).status, email).toBe(201);
    }
    const malformed = await app.http.get('/users/not-a-uuid');
    expect(malformed.status).toBe(422);
    expect(malformed.body.field).toBe('userId');
    const missing = newId();
    for (const response of [
      await app.http.get(`/users/${missing}`),
      await app.http.patch(`/users/${missing}`, { name: 'x' }),
      await app.http.delete(`/users/${missing}`),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'not_found', field: 'userId' });
    }
    const nullEmail = await app.http.post('/users', { email: 'nullable@example.com' });
    const patched = await app.http.patch(`/users/${nullEmail.body.id}`, { email: null });
    expect(patched.status).toBe(422);
    expect(patched.body.field).toBe('email');
  });

  it('a tenant scope creates members of that tenant and lists only them', async () => {
    const inA = await app.http.post(`${appPath}/tenants/${tenantA}/users`, { email: 'member-a@example.com' });
    expect(inA.status).toBe(201);
    expect(inA.body.tenantIds).toEqual([tenantA]);
    const viaBody = await app.http.post('/users', { email: 'member-b@example.com', tenantId: tenantB });
    expect(viaBody.body.tenantIds).toEqual([tenantB]);
    const keyA = app.as({ apiKey: await createKeySecret(app, ['users:*'], tenantA) });
    const viaKey = await keyA.post('/users', { email: 'key-a@example.com' });
    expect(viaKey.status).toBe(201);
    expect(viaKey.body.tenantIds).toEqual([tenantA]);

    const listA = (await app.http.get(`${appPath}/tenants/${tenantA}/users?pageSize=100`)).body.data.map((u: { id: string }) => u.id);
    expect(listA).toEqual(expect.arrayContaining([inA.body.id, viaKey.body.id]));
    expect(listA).not.toContain(viaBody.body.id);
    const byKey = (await keyA.get('/users?pageSize=100')).body.data.map((u: { id: string }) => u.id);
    expect(byKey.sort()).toEqual([...listA].sort());
    const all = (await app.http.get('/users?pageSize=100')).body.data.map((u: { id: string }) => u.id);
    expect(all).toEqual(expect.arrayContaining([inA.body.id, viaBody.body.id, viaKey.body.id]));

    expect((await keyA.get(`/users/${viaBody.body.id}`)).status).toBe(404);
    expect((await app.http.get(`${appPath}/tenants/${tenantA}/users/${viaBody.body.id}`)).status).toBe(404);
    expect((await keyA.patch(`/users/${viaBody.body.id}`, { name: 'Hijacked' })).status).toBe(404);
    expect((await keyA.delete(`/users/${viaBody.body.id}`)).status).toBe(404);
    expect((await app.http.get(`/users/${viaBody.body.id}`)).body.name).toBeNull();
  });

  it('a tenant’s credentials see, of a member’s tenants, their own alone: the others are other customers’ data', async () => {
    const both = await app.http.post('/users', { email: 'in-both@example.com', tenantId: tenantA });
    expect((await app.http.patch(`/users/${both.body.id}`, { tenantIds: [tenantA, tenantB] })).body.tenantIds).toEqual([tenantA, tenantB]);
    const keyA = app.as({ apiKey: await createKeySecret(app, ['users:*'], tenantA) });
    const keyB = app.as({ apiKey: await createKeySecret(app, ['users:read'], tenantB) });
    expect((await keyA.get(`/users/${both.body.id}`)).body.tenantIds).toEqual([tenantA]);
    expect((await keyB.get(`/users/${both.body.id}`)).body.tenantIds).toEqual([tenantB]);
    const listed = (await keyA.get('/users?pageSize=100')).body.data.find((user: { id: string }) => user.id === both.body.id);
    expect(listed.tenantIds).toEqual([tenantA]);
    const query = 'query($appId: UUID!, $userId: UUID!) { user(appId: $appId, userId: $userId) { tenantIds } }';
    const viaGraphql = await keyA.graphql(query, { appId: app.root.applicationId, userId: both.body.id });
    expect(viaGraphql.body.data.user.tenantIds).toEqual([tenantA]);
    // A write's answer too: the rename by tenant A (refused while the user is B's as well: 403) leaves nothing to show.
    expect((await keyA.patch(`/users/${both.body.id}`, { name: 'Renamed' })).status).toBe(403);
    // The application's credentials, the tenant path form included, see every membership.
    expect((await app.http.get(`/users/${both.body.id}`)).body.tenantIds).toEqual([tenantA, tenantB]);
    expect((await app.http.get(`${appPath}/tenants/${tenantA}/users/${both.body.id}`)).body.tenantIds).toEqual([tenantA, tenantB]);
  });

  it('credentials that read users in one tenant alone (a role held there) see, of a member’s tenants, that one alone', async () => {
    const both = await app.http.post('/users', { email: 'in-both-roles@example.com', tenantId: tenantA });
    expect((await app.http.patch(`/users/${both.body.id}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    // An application-wide key holding nothing of its own, with a role in tenant A: as an operator of that one tenant.
    const key = await issueTestKey(app, { permissions: [] });
    const keyId = (await app.http.get('/api-keys?pageSize=100')).body.data.find((row: { name: string; permissions: string[] }) => row.permissions.length === 0).id as string;
    const role = await app.http.post('/roles', { key: 'tenant_reader', name: 'Tenant reader', permissions: ['users:read', 'audit_logs:read'] });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const assigned = await app.http.post(`${appPath}/tenants/${tenantA}/role-assignments`, { subject: { type: 'api_key', id: keyId }, roleId: role.body.id });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
    const inA = `${appPath}/tenants/${tenantA}`;
    expect((await key.get(`${inA}/users/${both.body.id}`)).body.tenantIds).toEqual([tenantA]);
    const listed = (await key.get(`${inA}/users?pageSize=100`)).body.data.find((user: { id: string }) => user.id === both.body.id);
    expect(listed.tenantIds).toEqual([tenantA]);
    const query = 'query($appId: UUID!, $tenantId: UUID!, $userId: UUID!) { user(appId: $appId, tenantId: $tenantId, userId: $userId) { tenantIds } }';
    const viaGraphql = await key.graphql(query, { appId: app.root.applicationId, tenantId: tenantA, userId: both.body.id });
    expect(viaGraphql.body.data.user.tenantIds).toEqual([tenantA]);
    // The audit log's snapshots of the user, as the users API shows them.
    const records = (await key.get(`${inA}/audit-logs?target=${both.body.id}`)).body.data as { changes: { after: { tenantIds?: string[] } } | null }[];
    expect(records.length).toBeGreaterThan(0);
    expect(JSON.stringify(records)).not.toContain(tenantB);
    // In tenant B it reads nothing.
    expect((await key.get(`${appPath}/tenants/${tenantB}/users/${both.body.id}`)).status).toBe(403);
    // Held application-wide, the role shows every membership; withdrawn there (still held in A), the read kept of it goes.
    const everywhere = await app.http.post('/role-assignments', { subject: { type: 'api_key', id: keyId }, roleId: role.body.id });
    expect(everywhere.status, JSON.stringify(everywhere.body)).toBe(201);
    expect((await key.get(`${inA}/users/${both.body.id}`)).body.tenantIds).toEqual([tenantA, tenantB]);
    expect((await app.http.delete(`/role-assignments/${everywhere.body.id}`)).status).toBe(204);
    expect((await key.get(`${inA}/users/${both.body.id}`)).body.tenantIds).toEqual([tenantA]);
  });

  it('creating a user in a tenant, or adding one to it, writes nothing of the tenant', async () => {
    const tenantRow = async (id: string) => (await app.sql('select name, slug, updated_at from tenant where id = ?', [id]))[0];
    const [beforeA, beforeB] = [await tenantRow(tenantA), await tenantRow(tenantB)];
    const sent = app.queries.length;
    const created = await app.http.post(`${appPath}/tenants/${tenantA}/users`, { email: 'newcomer-a@example.com' });
    expect(created.status).toBe(201);
    expect((await app.http.patch(`/users/${created.body.id}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    expect(app.queries.slice(sent).filter((query) => /^update "?tenant"? /i.test(query))).toEqual([]);
    expect([await tenantRow(tenantA), await tenantRow(tenantB)]).toEqual([beforeA, beforeB]);
  });

  it('refuses a body tenant that contradicts the scope, and a tenant not in the application', async () => {
    const keyA = app.as({ apiKey: await createKeySecret(app, ['users:*'], tenantA) });
    const forbidden = await keyA.post('/users', { email: 'x-tenant@example.com', tenantId: tenantB });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('forbidden');
    const own = await keyA.post('/users', { email: 'own-tenant@example.com', tenantId: tenantA });
    expect(own.status).toBe(201);
    const contradiction = await app.http.post(`${appPath}/tenants/${tenantA}/users`, { email: 'x-path@example.com', tenantId: tenantB });
    expect(contradiction.status).toBe(422);
    expect(contradiction.body.field).toBe('tenantId');
    const unknown = await app.http.post('/users', { email: 'nowhere@example.com', tenantId: newId() });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'not_found', field: 'tenantId' });
    const other = await app.bootstrapAnother();
    const theirTenant = await app.createTenant('Theirs', other);
    const foreign = await app.http.post('/users', { email: 'foreign@example.com', tenantId: theirTenant });
    expect(foreign.status).toBe(404);
    expect(foreign.body.field).toBe('tenantId');
    expect((await app.http.get('/users?pageSize=100')).body.data.map((u: { email: string }) => u.email)).not.toContain('foreign@example.com');
  });

  it('shared: PATCH tenantIds changes memberships; only existing tenants, only application-wide', async () => {
    const user = (await app.http.post('/users', { email: 'roamer@example.com' })).body;
    const both = await app.http.patch(`/users/${user.id}`, { tenantIds: [tenantA, tenantB, tenantA] });
    expect(both.status).toBe(200);
    expect(both.body.tenantIds).toEqual([tenantA, tenantB]);
    expect((await app.http.get(`${appPath}/tenants/${tenantB}/users/${user.id}`)).status).toBe(200);
    const unknown = await app.http.patch(`/users/${user.id}`, { tenantIds: [tenantA, newId()] });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'not_found', field: 'tenantIds' });
    const scoped = await app.http.patch(`${appPath}/tenants/${tenantA}/users/${user.id}`, { tenantIds: [tenantA] });
    expect(scoped.status).toBe(403);
    expect((await app.http.get(`/users/${user.id}`)).body.tenantIds).toEqual([tenantA, tenantB]);
    const none = await app.http.patch(`/users/${user.id}`, { tenantIds: [] });
    expect(none.body.tenantIds).toEqual([]);
    expect((await app.http.get(`${appPath}/tenants/${tenantB}/users/${user.id}`)).status).toBe(404);
  });

  it('deleting in a tenant scope removes only that membership; application-wide deletes the user', async () => {
    const user = (await app.http.post('/users', { email: 'two-homes@example.com' })).body;
    await app.http.patch(`/users/${user.id}`, { tenantIds: [tenantA, tenantB] });
    const userKey = await app.http.post('/api-keys', { name: 'user key in A', permissions: ['users:read'], tenantId: tenantA, userId: user.id });
    expect(userKey.status).toBe(201);
    const left = await app.http.delete(`${appPath}/tenants/${tenantA}/users/${user.id}`);
    expect(left.status).toBe(204);
    expect((await app.http.get(`${appPath}/tenants/${tenantA}/users/${user.id}`)).status).toBe(404);
    expect((await app.http.get(`/users/${user.id}`)).body.tenantIds).toEqual([tenantB]);
    expect((await app.http.get(`/api-keys/${userKey.body.key.id}`)).body.revokedAt).not.toBeNull();
    expect((await app.as({ apiKey: userKey.body.secret }).get('/users')).status).toBe(401);

    const deleted = await app.http.delete(`/users/${user.id}`);
    expect(deleted.status).toBe(204);
    expect((await app.http.get(`/users/${user.id}`)).status).toBe(404);
    expect((await app.http.get(`${appPath}/tenants/${tenantB}/users/${user.id}`)).status).toBe(404);
    // The e-mail is free again.
    expect((await app.http.post('/users', { email: 'two-homes@example.com' })).status).toBe(201);
  });

  it('enforces users:read, users:write and users:delete', async () => {
    const target = (await app.http.post('/users', { email: 'guarded@example.com' })).body;
    const reader = app.as({ apiKey: await createKeySecret(app, ['users:read']) });
    expect((await reader.get(`/users/${target.id}`)).status).toBe(200);
    expect((await reader.get('/users')).status).toBe(200);
    for (const response of [
      await reader.post('/users', { email: 'sneaky@example.com' }),
      await reader.patch(`/users/${target.id}`, { name: 'Sneaky' }),
      await reader.delete(`/users/${target.id}`),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('forbidden');
    }
    const writer = app.as({ apiKey: await createKeySecret(app, ['users:read', 'users:write']) });
    expect((await writer.patch(`/users/${target.id}`, { name: 'Written' })).status).toBe(200);
    expect((await writer.delete(`/users/${target.id}`)).status).toBe(403);
    const none = app.as({ apiKey: await createKeySecret(app, ['tenants:read']) });
    expect((await none.get('/users')).status).toBe(403);
    expect((await app.http.get(`/users/${target.id}`)).body.name).toBe('Written');
  });

  it('writes an audit record for every mutation, without the password hash', async () => {
    const user = (await app.http.post('/users', { email: 'audited@example.com', password: 'Audited password 1' })).body;
    await app.http.patch(`/users/${user.id}`, { name: 'Audited' });
    await app.http.delete(`/users/${user.id}`);
    const rows = await app.sql<{ action: string; before: any; after: any; actor_type: string }>(
      'select action, before, after, actor_type from audit_log where target_id = ? order by id',
      [user.id],
    );
    expect(rows.map((row) => row.action)).toEqual(['user.created', 'user.updated', 'user.deleted']);
    expect(rows[0]?.after).toMatchObject({ email: 'audited@example.com', hasPassword: true });
    expect(rows[1]?.before).toMatchObject({ name: null });
    expect(rows[1]?.after).toMatchObject({ name: 'Audited' });
    expect(rows[2]?.after).toBeNull();
    expect(rows.every((row) => row.actor_type === 'api_key')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain('argon2');
    // A refused mutation leaves no record.
    const count = async () => (await app.sql<{ n: string }>('select count(*) as n from audit_log where action = ?', ['user.created']))[0]?.n;
    const beforeCount = await count();
    expect((await app.http.post('/users', { email: 'audited2@example.com', password: 'short' })).status).toBe(422);
    expect(await count()).toBe(beforeCount);
  });

  it('paginates with cursors bound to the list and its scope', async () => {
    for (let i = 0; i < 3; i += 1) await app.http.post(`${appPath}/tenants/${tenantB}/users`, { email: `page${i}@example.com` });
    const tenantList = `${appPath}/tenants/${tenantB}/users`;
    const seen = await idsPageByPage(app.http, tenantList, 2);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual([...seen].sort());
    const first = await app.http.get(`${tenantList}?pageSize=1`);
    const elsewhere = await app.http.get(`/users?cursor=${encodeURIComponent(first.body.next)}`);
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.field).toBe('cursor');
    const otherTenant = await app.http.get(`${appPath}/tenants/${tenantA}/users?cursor=${encodeURIComponent(first.body.next)}`);
    expect(otherTenant.status).toBe(422);
    const sameList = await app.http.get(`${tenantList}?cursor=${encodeURIComponent(first.body.next)}`);
    expect(sameList.status).toBe(200);
    const tooBig = await app.http.get('/users?pageSize=101');
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.field).toBe('pageSize');
  });

  it('answers 20 users a page when pageSize is left out, over REST and GraphQL, and the rest on the next page', async () => {
    const tenant = await app.createTenant('Twenty-one');
    const created: string[] = [];
    for (let i = 0; i < 21; i += 1) created.push(await app.createUser(`default-page${i}@example.com`, tenant));
    const list = `${appPath}/tenants/${tenant}/users`;
    const first = await app.http.get(list);
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.next).toEqual(expect.any(String));
    const second = await app.http.get(`${list}?cursor=${encodeURIComponent(first.body.next)}`);
    expect(second.body.data).toHaveLength(1);
    expect(second.body.next ?? null).toBeNull();
    expect([...first.body.data, ...second.body.data].map((user: { id: string }) => user.id)).toEqual(created);

    const query = 'query($appId: UUID!, $tenantId: UUID!, $cursor: String) { users(appId: $appId, tenantId: $tenantId, cursor: $cursor) { data { id } next } }';
    const variables = { appId: app.root.applicationId, tenantId: tenant };
    const firstPage = (await app.http.graphql(query, variables)).body.data!.users;
    expect(firstPage.data).toHaveLength(20);
    expect(firstPage.next).toEqual(expect.any(String));
    const secondPage = (await app.http.graphql(query, { ...variables, cursor: firstPage.next })).body.data!.users;
    expect(secondPage).toEqual({ data: [{ id: created[20] }], next: null });
  });

  it('takes the cursor verbatim from next, unencoded in the query string, and pageSize from 1 to 100 only, over REST and GraphQL', async () => {
    const tenant = await app.createTenant('Verbatim cursor');
    const created: string[] = [];
    for (let i = 0; i < 3; i += 1) created.push(await app.createUser(`verbatim${i}@example.com`, tenant));
    const list = `${appPath}/tenants/${tenant}/users`;
    const seen: string[] = [];
    let next: string | null | undefined = undefined;
    do {
      const page: HttpResponse<{ data: { id: string }[]; next?: string | null }> = await app.http.get(`${list}?pageSize=1${next == null ? '' : `&cursor=${next}`}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((user) => user.id));
      next = page.body.next;
    } while (next != null);
    expect(seen).toEqual(created);

    expect((await app.http.get(`${list}?pageSize=100`)).body.data).toHaveLength(3);
    for (const bad of ['0', '101', '-1', '2.5', 'twenty']) {
      const refused = await app.http.get(`${list}?pageSize=${bad}`);
      expect([refused.status, refused.body.code, refused.body.field], bad).toEqual([422, 'validation_error', 'pageSize']);
    }
    const query = 'query($tenantId: UUID!, $pageSize: Int) { users(tenantId: $tenantId, pageSize: $pageSize) { data { id } } }';
    expect((await app.http.graphql(query, { tenantId: tenant, pageSize: 100 })).body.data?.users.data).toHaveLength(3);
    for (const bad of [0, 101]) {
      const refused = await app.http.graphql(query, { tenantId: tenant, pageSize: bad });
      expect(refused.body.errors?.[0]?.extensions, String(bad)).toEqual({ code: 'validation_error', status: 422, field: 'pageSize' });
    }
  });

  it('lists a page of users in a constant number of statements, however many there are', async () => {
    // Each read follows a write, so the read cache (src/rest/read-cache.ts) holds nothing for it: the page is read.
    const tenant = await app.createTenant('Crowd');
    const statementsFor = async (path: string) => {
      // The credentials' caches read just before, so a lapse of theirs on a loaded machine is not counted as the page's.
      expect((await app.http.get(`${appPath}/tenants/${tenant}`)).status).toBe(200);
      const before = app.queries.length;
      const page = await app.http.get(path);
      expect(page.status).toBe(200);
      return { statements: app.queries.length - before, users: page.body.data.length };
    };
    const path = `${appPath}/tenants/${tenant}/users?pageSize=100`;
    await app.http.post(`${appPath}/tenants/${tenant}/users`, { email: 'crowd0@example.com' });
    const one = await statementsFor(path);
    expect(one).toEqual({ statements: expect.any(Number), users: 1 });
    expect(one.statements).toBeGreaterThan(0);
    for (let i = 1; i <= 20; i += 1) await app.http.post(`${appPath}/tenants/${tenant}/users`, { email: `crowd${i}@example.com` });
    expect(await statementsFor(path)).toEqual({ statements: one.statements, users: 21 });
  });

  it('refuses a tenantId query parameter: tenants are named by the path', async () => {
    const response = await app.http.get(`/users?tenantId=${tenantA}`);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'validation_error', field: 'tenantId' });
  });

  it('another application’s user is not found on any form', async () => {
    const other = await app.bootstrapAnother();
    const theirs = (await app.as({ apiKey: other.apiKey }).post('/users', { email: 'theirs@example.com' })).body;
    expect((await app.http.get(`/users/${theirs.id}`)).status).toBe(404);
    expect((await app.http.get(`/applications/${other.applicationId}/users/${theirs.id}`)).status).toBe(404);
    expect((await app.http.delete(`/users/${theirs.id}`)).status).toBe(404);
    expect((await app.http.patch(`/users/${theirs.id}`, { name: 'x' })).status).toBe(404);
    // Pools are per application: the same e-mail is free here.
    expect((await app.http.post('/users', { email: 'theirs@example.com' })).status).toBe(201);
    expect((await app.as({ apiKey: other.apiKey }).get(`/users/${theirs.id}`)).body.name).toBeNull();
  });

  it('serves the same operations over GraphQL', async () => {
    const created = await app.http.graphql(
      'mutation($input: CreateUserInput!, $t: UUID) { createUser(tenantId: $t, input: $input) { id email status tenantIds } }',
      { input: { email: 'gql@example.com', name: 'Graph' }, t: tenantA },
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createUser).toMatchObject({ email: 'gql@example.com', status: 'active', tenantIds: [tenantA] });
    const read = await app.http.graphql('query($id: UUID!) { user(userId: $id) { name } }', { id: created.body.data.createUser.id });
    expect(read.body.data.user).toEqual({ name: 'Graph' });
    const duplicate = await app.http.graphql('mutation { createUser(input: { email: "GQL@example.com" }) { id } }');
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.errors?.[0]?.extensions).toMatchObject({ code: 'already_exists', field: 'email', status: 409 });
  });
});

// Needs two sessions holding locks at once: the embedded database has one session for all connections.
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
      expect(await auditRecordsOf(app, requestId), what).toEqual([]);
    }
  });

  it('are refused in a PATCH too', async () => {
    const id = (await app.http.post('/users', { email: 'patched-twin@example.com' })).body.id as string;
    const patched = await app.http.patch(`/users/${id}`, { email: 'patched-twin\u034F@example.com' });
    expect(patched.status).toBe(422);
    expect(patched.body).toMatchObject({ code: 'validation_error', field: 'email' });
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
      expect(await auditRecordsOf(app, requestId)).toEqual([]);
    }
  });

  it('keys written before are rekeyed by the migration, except where that would clash', async () => {
    const { Migration0012EmailCaseFoldKeys } = await import('../../src/db/migrations/0012-email-case-fold-keys.ts');
    const orm = app.gatehouse.services.orm;
    const application = app.root.applicationId;
    const id = (await app.http.post('/users', { email: '\u03bf\u03b4\u03c5\u03c3\u03c3\u03b5\u03b1\u03c3@old.example' })).body.id as string;
    // As the lower-cased key left it: a final sigma.
    await app.sql('update app_user set email_normalized = ? where application_id = ? and id = ?', ['\u03bf\u03b4\u03c5\u03c3\u03c3\u03b5\u03b1\u03c2@old.example', application, id]);
    await new Migration0012EmailCaseFoldKeys(orm.em.getDriver(), orm.config).up();
    const [row] = await app.sql<{ key: string }>('select email_normalized as key from app_user where application_id = ? and id = ?', [application, id]);
    expect(row?.key).toBe('\u03bf\u03b4\u03c5\u03c3\u03c3\u03b5\u03b1\u03c3@old.example');
    expect((await app.http.post('/users', { email: '\u039f\u0394\u03a5\u03a3\u03a3\u0395\u0391\u03a3@old.example' })).status).toBe(409);
  });
});

describe('a user’s deletion records the keys that go with the user', () => {
  it('DELETE /users/{id}: one api_key.deleted per key bound to the user, under the key’s tenant, without a secret', async () => {
    const tenantId = await app.createTenant('Keys of a deleted user');
    const userId = (await app.http.post('/users', { email: 'deleted-with-keys@example.com', tenantId })).body.id as string;
    const appKey = (await app.http.post('/api-keys', { name: 'app-wide', permissions: ['users:read'], userId })).body;
    const tenantKey = (await app.http.post('/api-keys', { name: 'tenant', permissions: ['users:read'], tenantId, userId })).body;
    const { requestId, headers } = traced();
    expect((await app.http.delete(`/users/${userId}`, { headers })).status).toBe(204);
    const records = await auditRecordsOf(app, requestId);
    expect(records.filter((record) => record.action === 'user.deleted').map((record) => record.targetId)).toEqual([userId]);
    // The `account_deleted` mail has its own record (email_delivery.queued).
    expect(records.filter((record) => record.action === 'email_delivery.queued')).toHaveLength(1);
    const keyRecords = records.filter((record) => record.action === 'api_key.deleted');
    expect(keyRecords.map((record) => [record.action, record.targetId, record.tenantId]).sort()).toEqual(
      [
        ['api_key.deleted', appKey.key.id, null],
        ['api_key.deleted', tenantKey.key.id, tenantId],
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
    const records = await auditRecordsOf(app, requestId);
    expect(records.filter((record) => record.targetId === appKey.key.id).map((record) => record.action)).toEqual(['api_key.deleted']);
    expect(records.filter((record) => record.targetId === userId).map((record) => record.action)).toEqual(['user.deleted']);
  });
});

describe.skipIf(usingEmbeddedDatabase())('concurrent changes of one user', () => {
  let tenantC: string;
  beforeAll(async () => {
    tenantC = await app.createTenant('Tenant C');
  });

  /** The user's row held while `writes` queue behind it (test/support/row-lock.ts). */
  const queuedBehind = (userId: string, holder: RowHolder, writes: (() => Promise<HttpResponse>)[]) =>
    queuedBehindRow(app.gatehouse.services.orm, { table: 'app_user', applicationId: app.root.applicationId, id: userId }, holder, writes);
  const queuedOnUser = (userId: string, ...writes: (() => Promise<HttpResponse>)[]) => queuedBehind(userId, { lock: 'share' }, writes);

  async function member(email: string, tenantIds: string[]): Promise<string> {
    const id = (await app.http.post('/users', { email })).body.id as string;
    expect((await app.http.patch(`/users/${id}`, { tenantIds })).status).toBe(200);
    return id;
  }
  const tenantsOf = async (id: string) =>
    (await app.sql<{ tenant_ids: string[] }>('select tenant_ids from app_user where application_id = ? and id = ?', [app.root.applicationId, id]))[0]?.tenant_ids;
  const auditOf = (id: string, action: string) =>
    app.sql<{ before: any; after: any }>('select before, after from audit_log where target_id = ? and action = ? order by id', [id, action]);

  it('a tenant key for a user whose removal from that tenant is under way: it waits, and is refused (422)', async () => {
    const id = await member('keyed-leaver@example.com', [tenantA, tenantB]);
    // The removal's transaction, as deleteUser runs it: the user's row held FOR UPDATE while the membership goes.
    const removal = {
      lock: 'update' as const,
      beforeCommit: (em: EntityManager) =>
        em.execute('update app_user set tenant_ids = array_remove(tenant_ids, ?::uuid) where application_id = ? and id = ?', [
          tenantA,
          app.root.applicationId,
          id,
        ]),
    };
    const [answer] = await queuedBehind(id, removal, [
      () => app.http.post('/api-keys', { name: 'for a leaver', permissions: ['users:read'], tenantId: tenantA, userId: id }),
    ]);
    expect(answer!.status, JSON.stringify(answer!.body)).toBe(422);
    expect(answer!.body.field).toBe('userId');
    expect(await app.sql('select id from api_key where user_id = ? and tenant_id = ?', [id, tenantA])).toEqual([]);
    // The same key once the user is a member again: created.
    expect((await app.http.patch(`/users/${id}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
    expect((await app.http.post('/api-keys', { name: 'for a member', permissions: ['users:read'], tenantId: tenantA, userId: id })).status).toBe(201);
  }, 30_000);

  it('two tenants removing one member at once: both removals stay, each audited from where the other left', async () => {
    const id = await member('leaves-two@example.com', [tenantA, tenantB, tenantC]);
    const answers = await queuedOnUser(
      id,
      () => app.http.delete(`${appPath}/tenants/${tenantA}/users/${id}`),
      () => app.http.delete(`${appPath}/tenants/${tenantB}/users/${id}`),
    );
    expect(answers.map((answer) => answer.status)).toEqual([204, 204]);
    expect(await tenantsOf(id)).toEqual([tenantC]);
    const records = await auditOf(id, 'user.membership.removed');
    expect(records).toHaveLength(2);
    const first = records.find((record) => record.before.tenantIds.length === 3)!;
    const second = records.find((record) => record !== first)!;
    expect(second.before.tenantIds).toEqual(first.after.tenantIds);
    expect(second.after.tenantIds).toEqual([tenantC]);
  }, 30_000);

  it('a member leaving one tenant while another of theirs is deleted ends in neither', async () => {
    const doomed = await app.createTenant('Doomed');
    const id = await member('leaves-one@example.com', [doomed, tenantB, tenantC]);
    // The deletion first: it takes the user's row first, and the removal decides on what it left.
    const answers = await queuedOnUser(
      id,
      () => app.http.delete(`${appPath}/tenants/${doomed}`),
      () => app.http.delete(`${appPath}/tenants/${tenantB}/users/${id}`),
    );
    expect(answers.map((answer) => answer.status)).toEqual([204, 204]);
    expect(await tenantsOf(id)).toEqual([tenantC]);
  }, 30_000);

  it('two deletions of one user: 204, then 404, and one audit record', async () => {
    const id = (await app.http.post('/users', { email: 'deleted-twice@example.com' })).body.id as string;
    const answers = await queuedOnUser(
      id,
      () => app.http.delete(`/users/${id}`),
      () => app.http.delete(`/users/${id}`),
    );
    expect(answers.map((answer) => answer.status)).toEqual([204, 404]);
    expect(answers[1]!.body).toMatchObject({ code: 'not_found', field: 'userId' });
    expect(await auditOf(id, 'user.deleted')).toHaveLength(1);
  }, 30_000);

  it('two membership changes at once: each audited from where the other left', async () => {
    const id = await member('moves-twice@example.com', [tenantA]);
    const answers = await queuedOnUser(
      id,
      () => app.http.patch(`/users/${id}`, { tenantIds: [tenantA, tenantB] }),
      () => app.http.patch(`/users/${id}`, { tenantIds: [tenantA, tenantC] }),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    // Beside the record of the user's joining tenant A: the two changes, one from [A], the other from where it ended.
    const records = (await auditOf(id, 'user.updated')).filter((record) => record.before.tenantIds.length > 0);
    expect(records).toHaveLength(2);
    const first = records.find((record) => record.before.tenantIds.length === 1)!;
    const second = records.find((record) => record !== first)!;
    expect(second.before.tenantIds).toEqual(first.after.tenantIds);
    expect(await tenantsOf(id)).toEqual(second.after.tenantIds);
  }, 30_000);

  it('a tenant scope changing the identity of a member who is joining another tenant: 403, or done before', async () => {
    const id = await member('joins-b@example.com', [tenantA]);
    const [joined, changed] = await queuedOnUser(
      id,
      () => app.http.patch(`/users/${id}`, { tenantIds: [tenantA, tenantB] }),
      () => app.http.patch(`${appPath}/tenants/${tenantA}/users/${id}`, { password: 'Taken over in A 1' }),
    );
    expect(joined!.status).toBe(200);
    // Allowed only while the user belonged to tenant A alone: then the membership change came after it.
    if (changed!.status === 200) {
      const joining = (await auditOf(id, 'user.updated')).find((record) => record.after.tenantIds.length === 2);
      expect(joining!.before.hasPassword).toBe(true);
    } else expect(changed!.status).toBe(403);
  }, 30_000);

  it('a membership change while one of its tenants is deleted: the change or the deletion goes first, no deadlock', async () => {
    const doomed = await app.createTenant('Doomed too');
    const id = await member('stays-or-goes@example.com', [doomed, tenantA]);
    // The change first: it holds its tenants and waits for the user, the deletion waits for the tenant.
    const [changed, deleted] = await queuedOnUser(
      id,
      () => app.http.patch(`/users/${id}`, { tenantIds: [doomed, tenantB] }),
      () => app.http.delete(`${appPath}/tenants/${doomed}`),
    );
    expect(deleted!.status).toBe(204);
    if (changed!.status === 200) expect(await tenantsOf(id)).toEqual([tenantB]);
    else {
      expect(changed!.body).toMatchObject({ code: 'not_found', field: 'tenantIds' });
      expect(await tenantsOf(id)).toEqual([tenantA]);
    }
  }, 30_000);
});

describe('who vouches for an address in the shared pool', () => {
  const tenantPath = () => `${appPath}/tenants/${tenantA}/users`;

  it('a tenant’s credentials create a user whose address is unconfirmed, as a sign-up’s; the application’s, on either path, a confirmed one', async () => {
    const tenantKey = await issueTestKey(app, { tenantId: tenantA, permissions: ['users:read', 'users:write'] });
    for (const [client, path] of [[tenantKey, '/users'], [tenantKey, tenantPath()]] as const) {
      const email = `tenant-made-${newId()}@example.com`;
      const created = await client.post(path, { email, password: 'Correct horse battery 9' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({ email, tenantIds: [tenantA], emailVerified: false });
      const [record] = await app.sql<{ after: Record<string, unknown> }>("select after from audit_log where target_id = ? and action = 'user.created'", [created.body.id]);
      expect(record!.after).toMatchObject({ email, emailVerified: false });
      const [row] = await app.sql<{ email_verified: boolean }>('select email_verified from app_user where id = ?', [created.body.id]);
      expect(row!.email_verified).toBe(false);
    }
    for (const [path, body] of [['/users', { tenantId: tenantA }], [tenantPath(), {}]] as const) {
      const created = await app.http.post(path, { email: `app-made-${newId()}@example.com`, ...body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({ tenantIds: [tenantA], emailVerified: true });
    }
  });

  it('a tenant’s credentials changing a member’s address leave it unconfirmed; a change of case, or the application’s change, does not', async () => {
    const tenantKey = await issueTestKey(app, { tenantId: tenantA, permissions: ['users:read', 'users:write'] });
    const userId = (await app.http.post('/users', { email: `vouched-${newId()}@example.com`, tenantId: tenantA })).body.id as string;
    const moved = `moved-${newId()}@example.com`;
    const { requestId, headers } = traced();
    const changed = await tenantKey.patch(`${tenantPath()}/${userId}`, { email: moved }, { headers });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ email: moved, emailVerified: false });
    expect((await app.http.get(`/users/${userId}`)).body).toMatchObject({ email: moved, emailVerified: false });
    // The record shows the address's proof lost, as the takeover rules read it (`before.emailVerified`).
    expect(await auditRecordsOf(app, requestId)).toEqual([
      // The old address is told (the application's mail: a tenant's outbox holds its own accounts' alone).
      expect.objectContaining({ action: 'email_delivery.queued', tenantId: null, after: { templateKey: 'email_change', to: expect.stringMatching(/^vouched-/) } }),
      expect.objectContaining({
        action: 'user.updated',
        before: expect.objectContaining({ emailVerified: true }),
        after: expect.objectContaining({ email: moved, emailVerified: false }),
      }),
    ]);

    // The tenant that set the address is kept with it, for a takeover to keep (test/oauth/hosted-account-links.test.ts).
    const vouching = async () => (await app.sql<{ vouched_by_tenant_id: string | null }>('select vouched_by_tenant_id from app_user where id = ?', [userId]))[0]!.vouched_by_tenant_id;
    expect(await vouching()).toBe(tenantA);
    expect(changed.body).not.toHaveProperty('vouchedByTenantId');
    expect((await app.http.patch(`/users/${userId}`, { email: `app-set-${newId()}@example.com` })).status).toBe(200);
    expect(await vouching()).toBeNull();

    const confirmed = (await app.http.post('/users', { email: `kept-${newId()}@example.com`, tenantId: tenantA })).body as { id: string; email: string };
    const recased = await tenantKey.patch(`/users/${confirmed.id}`, { email: confirmed.email.toUpperCase() });
    expect(recased.body).toMatchObject({ email: confirmed.email.toUpperCase(), emailVerified: true });
    expect((await app.http.patch(`/users/${confirmed.id}`, { email: `app-moved-${newId()}@example.com` })).body.emailVerified).toBe(true);
  });
});

/** A new shared-pool application with two tenants and a user of both: one the split to isolated pools copies. */
async function userOfTwoTenants(name: string, email: string) {
  const created = await app.http.post('/applications', { name, multiTenant: true });
  const admin = app.as({ apiKey: created.body.initialApiKey.secret });
  const applicationId = created.body.id as string;
  const appPath = `/applications/${applicationId}`;
  const one = (await admin.post(`${appPath}/tenants`, { name: 'One' })).body.id as string;
  const two = (await admin.post(`${appPath}/tenants`, { name: 'Two' })).body.id as string;
  const userId = (await admin.post('/users', { email, tenantId: one })).body.id as string;
  expect((await admin.patch(`/users/${userId}`, { tenantIds: [one, two] })).status).toBe(200);
  return { admin, applicationId, appPath, userId };
}

describe('the split into isolated pools', () => {
  it('copies a user whole: an unproven address stays unproven, the mails’ language and a suspended lock are kept', async () => {
    const { admin, applicationId, appPath, userId } = await userOfTwoTenants('Whole copies', 'unproven@example.com');
    // A self sign-up not confirmed yet, in German, locked without an end and then suspended.
    await app.sql(`update app_user set email_verified = false, locale = 'de', status = 'locked', locked_until = null where application_id = ? and id = ?`, [
      applicationId,
      userId,
    ]);
    expect((await admin.post(`/users/${userId}/suspend`)).status).toBe(200);

    expect((await admin.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const rows = await app.sql<{ email_verified: boolean; locale: string | null; status: string; locked_when_suspended: boolean }>(
      `select email_verified, locale, status, locked_when_suspended from app_user where application_id = ? and email_normalized = 'unproven@example.com'`,
      [applicationId],
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toEqual({ email_verified: false, locale: 'de', status: 'suspended', locked_when_suspended: true });
  });

  it('copies the password’s age and history, so the policy’s maxAge and historyCount judge a copy as its original', async () => {
    const { admin, applicationId, appPath, userId } = await userOfTwoTenants('Password history copies', 'history@example.com');
    expect((await admin.put('/policies/password', { historyCount: 3, maxAge: 30 })).status).toBe(200);
    for (const password of ['First-Horse-1', 'Second-Horse-2', 'Third-Horse-3']) {
      expect((await admin.patch(`/users/${userId}`, { password })).status).toBe(200);
    }
    await app.sql(`update app_user set password_changed_at = now() - interval '40 days' where application_id = ? and id = ?`, [applicationId, userId]);

    expect((await admin.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const rows = await app.sql<{ id: string; expired: boolean }>(
      `select id, password_changed_at < now() - interval '30 days' as expired from app_user where application_id = ? and email_normalized = 'history@example.com'`,
      [applicationId],
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.expired, row.id).toBe(true);
    const copy = rows.find((row) => row.id !== userId)!.id;
    for (const id of [userId, copy]) {
      const reused = await admin.patch(`/users/${id}`, { password: 'First-Horse-1' });
      expect(reused.status, id).toBe(422);
      expect(reused.body).toMatchObject({ field: 'password', details: [{ code: 'history' }] });
    }
  });
});

// PostgreSQL only: the embedded database has one session for all connections (test/support/row-lock.ts).
describe.skipIf(usingEmbeddedDatabase())('an unlock while the application splits into isolated pools', () => {
  it('is done before the split, whose copies then start unlocked, or after it on the original alone', async () => {
    const { admin, applicationId, appPath, userId } = await userOfTwoTenants('Unlock race', 'locked-twice@example.com');
    // Only failed sign-ins lock a user: the state they leave, set directly.
    await app.sql(`update app_user set status = 'locked', locked_until = null, failed_sign_ins = 5, last_failed_sign_in_at = now()
      where application_id = ? and id = ?`, [applicationId, userId]);

    // The user's row held, as a sign-in counting a failure holds it: the unlock queues first, the switch second.
    const [unlocked, switched] = await queuedBehindRow(app.gatehouse.services.orm, { table: 'app_user', applicationId, id: userId }, { lock: 'update' }, [
      () => admin.post(`/users/${userId}/unlock`, {}),
      () => admin.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } }),
    ]);
    expect(unlocked!.status).toBe(200);
    expect(unlocked!.body.status).toBe('active');
    expect(switched!.status).toBe(200);
    const states = await app.sql<{ id: string; status: string; failed_sign_ins: number }>(
      `select id, status, failed_sign_ins from app_user where application_id = ? and email_normalized = 'locked-twice@example.com' order by id`,
      [applicationId],
    );
    expect(states).toHaveLength(2);
    // The unlock answered 200 `active` before the switch answered: the copy the switch made was of the unlocked user.
    for (const state of states) expect({ status: state.status, failed: state.failed_sign_ins }, state.id).toEqual({ status: 'active', failed: 0 });
  });
});

describe('users of an isolated application', () => {
  let isolated: ReturnType<TestApp['as']>;
  let base: string;
  let t1: string;
  let t2: string;
  beforeAll(async () => {
    const created = await app.http.post('/applications', { name: 'Isolated', multiTenant: true, tenancyConfig: { authIsolation: 'isolated' } });
    isolated = app.as({ apiKey: created.body.initialApiKey.secret });
    base = `/applications/${created.body.id}`;
    t1 = (await isolated.post(`${base}/tenants`, { name: 'One' })).body.id;
    t2 = (await isolated.post(`${base}/tenants`, { name: 'Two' })).body.id;
  });

  it('needs a tenant to create a user, and the user belongs to exactly that one', async () => {
    const refused = await isolated.post('/users', { email: 'nowhere@example.com' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'tenantId' });
    const created = await isolated.post('/users', { email: 'somewhere@example.com', tenantId: t1 });
    expect(created.status).toBe(201);
    expect(created.body.tenantIds).toEqual([t1]);
    const inPath = await isolated.post(`${base}/tenants/${t2}/users`, { email: 'somewhere@example.com' });
    expect(inPath.status).toBe(201);
    expect(inPath.body.tenantIds).toEqual([t2]);
    const again = await isolated.post(`${base}/tenants/${t2}/users`, { email: 'SOMEWHERE@example.com' });
    expect(again.status).toBe(409);
  });

  it('refuses changing tenantIds with 422 and keeps the membership; the same list is accepted', async () => {
    const user = (await isolated.post('/users', { email: 'fixed@example.com', tenantId: t1 })).body;
    const moved = await isolated.patch(`/users/${user.id}`, { tenantIds: [t2] });
    expect(moved.status).toBe(422);
    expect(moved.body).toMatchObject({ code: 'validation_error', field: 'tenantIds' });
    const added = await isolated.patch(`/users/${user.id}`, { tenantIds: [t1, t2] });
    expect(added.status).toBe(422);
    const same = await isolated.patch(`/users/${user.id}`, { tenantIds: [t1], name: 'Fixed' });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ tenantIds: [t1], name: 'Fixed' });
  });

  it('applies the password policy of the user’s pool: the tenant’s override, else the application’s', async () => {
    expect((await isolated.put(`${base}/tenants/${t1}/policies/password`, { minLength: 16 })).status).toBe(200);
    const thirteen = 'Thirteen ch 1';
    const inOne = await isolated.post('/users', { email: 'policy@example.com', tenantId: t1, password: thirteen });
    expect(inOne.status).toBe(422);
    expect(inOne.body.details).toEqual([{ code: 'min_length', message: expect.stringContaining('16') }]);
    const inTwo = await isolated.post('/users', { email: 'policy@example.com', tenantId: t2, password: thirteen });
    expect(inTwo.status).toBe(201);
    const sixteen = await isolated.post('/users', { email: 'policy@example.com', tenantId: t1, password: 'Sixteen chars 16' });
    expect(sixteen.status).toBe(201);
    expect((await isolated.patch(`/users/${sixteen.body.id}`, { password: thirteen })).status).toBe(422);
    expect((await isolated.patch(`/users/${inTwo.body.id}`, { password: thirteen })).status).toBe(200);
    // The application's policy governs tenants without an override.
    expect((await isolated.put(`${base}/policies/password`, { minLength: 14 })).status).toBe(200);
    expect((await isolated.patch(`/users/${inTwo.body.id}`, { password: thirteen })).status).toBe(422);
    expect((await isolated.patch(`/users/${inTwo.body.id}`, { password: 'Fourteen chr 14' })).status).toBe(200);
  });

  it('a tenant’s credentials vouch for the addresses of its own pool', async () => {
    const applicationId = base.slice('/applications/'.length);
    const tenantKey = await issueTestKey(app, { applicationId, tenantId: t1, permissions: ['users:read', 'users:write'] });
    const created = await tenantKey.post(`${base}/tenants/${t1}/users`, { email: `own-pool-${newId()}@example.com` });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ tenantIds: [t1], emailVerified: true });
    const changed = await tenantKey.patch(`${base}/tenants/${t1}/users/${created.body.id}`, { email: `own-pool-moved-${newId()}@example.com` });
    expect(changed.body).toMatchObject({ emailVerified: true });
  });

  it('a user exists in their own tenant only: another tenant’s path and key find no such user (404, not listed), over REST and GraphQL, and nothing changes', async () => {
    const applicationId = base.slice('/applications/'.length);
    const user = (await isolated.post(`${base}/tenants/${t1}/users`, { email: `only-one-${newId()}@example.com`, name: 'Only One' })).body;
    const otherKey = await issueTestKey(app, { applicationId, tenantId: t2, permissions: ['users:read', 'users:write', 'sessions:read'] });
    for (const [label, client] of [['application key', isolated], ['other tenant’s key', otherKey]] as const) {
      const inOther = `${base}/tenants/${t2}/users/${user.id}`;
      expect((await client.get(inOther)).status, label).toBe(404);
      expect((await client.patch(inOther, { name: 'Moved' })).status, label).toBe(404);
      expect((await client.post(`${inOther}/suspend`)).status, label).toBe(404);
      expect((await client.get(`${inOther}/sessions`)).status, label).toBe(404);
      const listed = (await client.get(`${base}/tenants/${t2}/users?pageSize=100`)).body.data as { id: string }[];
      expect(listed.map((u) => u.id), label).not.toContain(user.id);
      const graphql = await client.graphql('query($appId: UUID!, $tenantId: UUID!, $userId: UUID!) { user(appId: $appId, tenantId: $tenantId, userId: $userId) { id } }', {
        appId: applicationId,
        tenantId: t2,
        userId: user.id,
      });
      expect(graphql.body.errors?.[0]?.extensions, label).toMatchObject({ code: 'not_found', status: 404 });
    }
    expect((await otherKey.get(`/users/${user.id}`)).status).toBe(404);
    expect((await isolated.get(`/users/${user.id}`)).body).toMatchObject({ name: 'Only One', status: 'active', tenantIds: [t1] });
  });

  it('deletes the user itself in a tenant scope', async () => {
    const user = (await isolated.post(`${base}/tenants/${t1}/users`, { email: 'gone@example.com' })).body;
    expect((await isolated.delete(`${base}/tenants/${t2}/users/${user.id}`)).status).toBe(404);
    expect((await isolated.delete(`${base}/tenants/${t1}/users/${user.id}`)).status).toBe(204);
    expect((await isolated.get(`/users/${user.id}`)).status).toBe(404);
  });
});
