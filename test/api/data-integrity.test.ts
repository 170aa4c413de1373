import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshApplication } from '../support/applications.ts';
import { lockWaitersAtLeast, usingEmbeddedDatabase } from '../support/database.ts';
import type { HttpClient } from '../support/http.ts';

/**
 * The data model's promises (docs/architecture.md, "Data model"): every application-owned table is ready for
 * distribution by application, deleting an application or a tenant leaves nothing of it behind (audit records
 * aside), and concurrent writers of one unique value end in one 201 and 409s, never a 500 or an orphan.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

/** The tables whose rows belong to one application (all but these global ones). */
const GLOBAL_TABLES = ['organization', 'signing_key', 'service_secret', 'mikro_orm_migrations'];
/**
 * Indexes not led by `application_id`: non-unique ones, which a distributed table may keep as shard-local indexes
 * (each with its reason below), and `oidc_model`'s, whose models the OP finds by their id alone, so that the table
 * stays undistributed (docs/decisions.md, "Applications and credentials").
 */
const GLOBAL_LOOKUPS = new Set([
  // Before any application is known: an API key by its secret's hash, an OAuth client by its id, a sign-in surface.
  'api_key_secret_idx',
  // An invitation by its link's token (hashed), when the invitee opens it.
  'invitation_token_idx',
  'oauth_client_id_idx',
  'tenant_id_idx',
  'tenant_slug_idx',
  'domain_verified_hostname_idx',
  // A tenant's members (the `tenant` filter's `tenant_ids @> …`): every such query names its application too, which
  // routes it to the application's shard; GIN cannot lead with `application_id` (a uuid) without btree_gin.
  'app_user_tenant_idx',
  // The purge of expired idempotency records of every application.
  'idempotency_record_created_idx',
  // A suspended user's grants and browser sessions: the OP's sessions name no application (one browser session serves
  // every application of a shared surface), so they are found by the account; a user id is one application's.
  'oidc_model_account_idx',
  // A sign-in proven and not yet resumed, ended with the user's sign-ins: the OP's interactions name no application.
  'oidc_model_interaction_login_idx',
  // The sweep of expired sessions' index rows, and of their revoked sign-ins, of every application.
  'user_session_expires_idx',
  'revoked_sign_in_expires_idx',
  // The outbox worker's claim of the due mail of every application (queued rows only: a small partial index).
  'email_delivery_due_idx',
  // The re-check's claim of the verified domains of every application checked longest ago (verified rows only).
  'domain_recheck_idx',
  // An organization's applications (`application` is distributed by its id; `organization` is a reference table).
  'application_organization_idx',
  'oidc_model_pkey',
  'oidc_model_grant_idx',
  'oidc_model_user_code_key',
  'oidc_model_uid_idx',
  'oidc_model_expires_idx',
]);

/** Holds the application's row FOR UPDATE (as a tenancy switch does) until `release` is called (PostgreSQL only). */
async function holdApplication(applicationId: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const done = app.gatehouse.services.orm.em.fork().transactional(async (em) => {
    await em.execute('select id from application where id = ? for update', [applicationId]);
    locked();
    await released;
  });
  await isLocked;
  return { release, done };
}

const waitersAtLeast = (count: number) => lockWaitersAtLeast(app.gatehouse.services.orm, count);

/**
 * Sends every write at once. On PostgreSQL they are first queued behind the application's row (each write that
 * depends on the tenancy switches waits there) and released together, so their transactions overlap rather than
 * follow one another by luck; the embedded database runs one transaction at a time anyway.
 */
async function allAtOnce<T>(applicationId: string, writes: (() => Promise<T>)[]): Promise<T[]> {
  if (usingEmbeddedDatabase()) return Promise.all(writes.map((write) => write()));
  const hold = await holdApplication(applicationId);
  let answers: Promise<T>[] = [];
  try {
    answers = writes.map((write) => write());
    await waitersAtLeast(writes.length);
  } finally {
    hold.release();
    await hold.done;
  }
  return Promise.all(answers);
}

describe('schema: ready for distribution by application', () => {
  it('every application-owned table carries application_id, and its keys and indexes lead with it', async () => {
    const tables = await app.sql<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    );
    const owned = tables.map((row) => row.table_name).filter((name) => !GLOBAL_TABLES.includes(name));
    const columns = await app.sql<{ table_name: string }>(
      `select table_name from information_schema.columns where table_schema = current_schema() and column_name = 'application_id'`,
    );
    const withColumn = new Set(columns.map((row) => row.table_name));
    // `application` is distributed by its own id.
    expect(owned.filter((name) => name !== 'application' && !withColumn.has(name))).toEqual([]);

    const indexes = await app.sql<{ tablename: string; indexname: string; first: string }>(
      `select c.relname as tablename, i.relname as indexname, a.attname as first
         from pg_index x
         join pg_class i on i.oid = x.indexrelid
         join pg_class c on c.oid = x.indrelid
         join pg_namespace n on n.oid = c.relnamespace
         left join pg_attribute a on a.attrelid = c.oid and a.attnum = x.indkey[0]
        where n.nspname = current_schema()`,
    );
    const offenders = indexes
      .filter((index) => owned.includes(index.tablename) && !GLOBAL_LOOKUPS.has(index.indexname))
      .filter((index) => index.first !== (index.tablename === 'application' ? 'id' : 'application_id'))
      .map((index) => `${index.tablename}.${index.indexname}`);
    expect(offenders).toEqual([]);
  });

  it('every foreign key between application-owned tables includes application_id', async () => {
    const keys = await app.sql<{ name: string; target: string; columns: string[] }>(
      `select con.conname as name, target.relname as target,
              array(select attname from pg_attribute where attrelid = con.conrelid and attnum = any(con.conkey)) as columns
         from pg_constraint con join pg_class target on target.oid = con.confrelid
        where con.contype = 'f' and con.connamespace = current_schema()::regnamespace`,
    );
    const offenders = keys
      .filter((key) => !GLOBAL_TABLES.includes(key.target) && !key.columns.includes('application_id'))
      .map((key) => key.name);
    // application → organization, the one key to a global table, points at a reference table: allowed.
    expect(offenders).toEqual([]);
  });
});

describe('the ORM addresses rows by their whole primary key', () => {
  it('updates and deletes of application-owned rows name application_id (one shard under Citus, not all)', async () => {
    const { admin, appPath } = await freshApplication(app);
    const tenant = await admin.post(`${appPath}/tenants`, { name: 'Keyed' });
    const user = await admin.post(`${appPath}/tenants/${tenant.body.id}/users`, { email: 'keyed@example.com' });
    const key = await admin.post(`${appPath}/api-keys`, { name: 'keyed', permissions: ['users:read'] });
    const from = app.queries.length;
    expect((await admin.patch(`${appPath}/tenants/${tenant.body.id}`, { name: 'Keyed again' })).status).toBe(200);
    expect((await admin.patch(`${appPath}/users/${user.body.id}`, { name: 'Kay' })).status).toBe(200);
    expect((await admin.delete(`${appPath}/api-keys/${key.body.key.id}`)).status).toBeLessThan(300);
    expect((await admin.delete(`${appPath}/users/${user.body.id}`)).status).toBe(204);
    const writes = app.queries.slice(from).filter((query) => /^(update|delete from) "(tenant|app_user|api_key)"/.test(query));
    expect(writes.length).toBeGreaterThanOrEqual(4);
    for (const write of writes) expect(write, write).toMatch(/ where .*"application_id"/);
  });
});

describe('deletion leaves no orphans', () => {
  it('deleting an application removes the OP models of its clients (grants, refresh tokens)', async () => {
    const { admin, applicationId, appPath } = await freshApplication(app);
    const client = await admin.post(`${appPath}/m2m-credentials`, { name: 'Worker', permissions: ['users:read'] });
    expect(client.status).toBe(201);
    const clientId = client.body.id as string;
    // What the OP's adapter stores for a grant of this client (src/oidc/adapter.ts upsert): application_id is the client's.
    for (const model of ['Grant', 'RefreshToken']) {
      await app.sql(
        `insert into oidc_model (model, id, application_id, payload, grant_id, expires_at)
         values (?, ?, ?, ?::jsonb, ?, now() + interval '14 days')`,
        [model, `${model}-${applicationId}`, applicationId, JSON.stringify({ clientId, accountId: 'someone' }), `grant-${applicationId}`],
      );
    }
    expect((await admin.delete(appPath)).status).toBe(204);
    expect(await app.sql('select model from oidc_model where application_id = ?', [applicationId])).toEqual([]);
    // Audit records stay, for its retention (docs/audit.md, "Retention").
    expect((await app.sql('select count(*)::int as n from audit_log where application_id = ?', [applicationId]))[0].n).toBeGreaterThan(0);
  });

  it('deleting an application leaves no row of it in any application-owned table but audit_log, its retention and idempotency_record', async () => {
    const { admin, applicationId, appPath } = await freshApplication(app);
    const tenantId = (await admin.post(`${appPath}/tenants`, { name: 'Acme' })).body.id;
    expect((await admin.post(`${appPath}/tenants/${tenantId}/users`, { email: 'a@example.com' })).status).toBe(201);
    expect((await admin.delete(appPath)).status).toBe(204);
    const tables = await app.sql<{ table_name: string }>(
      `select table_name from information_schema.columns where table_schema = current_schema() and column_name = 'application_id'`,
    );
    const left: string[] = [];
    for (const { table_name: table } of tables) {
      if (table === 'audit_log' || table === 'deleted_application' || table === 'idempotency_record') continue;
      const [row] = await app.sql<{ n: number }>(`select count(*)::int as n from ${table} where application_id = ?`, [applicationId]);
      if (row!.n > 0) left.push(table);
    }
    expect(left).toEqual([]);
  });

  // Needs two sessions holding locks at once: the embedded database has one session for all connections.
  describe.skipIf(usingEmbeddedDatabase())('a tenant deleted while a user is being created in it', () => {
    /**
     * `write` and the tenant's deletion, both queued behind the application's row (write first), then released
     * together: which commits first is up to PostgreSQL. Their answers.
     */
    async function raceWithDeletion<T>(applicationId: string, tenantPath: string, admin: HttpClient, write: () => Promise<T>) {
      const hold = await holdApplication(applicationId);
      const writing = write();
      let deleting: ReturnType<HttpClient['delete']> | undefined;
      try {
        await waitersAtLeast(1);
        deleting = admin.delete(tenantPath);
        await waitersAtLeast(2);
      } finally {
        hold.release();
        await hold.done;
      }
      const [written, deleted] = await Promise.all([writing, deleting]);
      return { written, deleted: deleted };
    }

    it('a tenant key created while its tenant is deleted is 404, not a server error', async () => {
      const { admin, applicationId, appPath } = await freshApplication(app);
      const tenantId = (await admin.post(`${appPath}/tenants`, { name: 'Doomed' })).body.id;
      let creating: ReturnType<HttpClient['post']> | undefined;
      // The tenant's row held, the key's insert waits on it at its commit's foreign-key check; the tenant goes meanwhile.
      await app.gatehouse.services.orm.em.fork().transactional(async (em) => {
        await em.execute('select id from tenant where application_id = ? and id = ? for update', [applicationId, tenantId]);
        creating = admin.post(`${appPath}/tenants/${tenantId}/api-keys`, { name: 'late', permissions: ['users:read'] });
        await waitersAtLeast(1);
        await em.execute('delete from tenant where application_id = ? and id = ?', [applicationId, tenantId]);
      });
      const created = await creating!;
      expect(created.status, JSON.stringify(created.body)).toBe(404);
      expect(created.body).toMatchObject({ code: 'not_found' });
      expect(await app.sql('select id from api_key where application_id = ? and tenant_id = ?', [applicationId, tenantId])).toEqual([]);
    }, 30_000);

    for (const mode of ['shared', 'isolated'] as const) {
      it(`${mode}: the user is created before the deletion (and goes with it) or refused (404), never left in a deleted tenant`, async () => {
        const { admin, applicationId, appPath } = await freshApplication(app, { authIsolation: mode });
        const tenantId = (await admin.post(`${appPath}/tenants`, { name: 'Doomed' })).body.id;
        // The password makes the creation hash inside its transaction, as a real sign-up does.
        const { written: created, deleted } = await raceWithDeletion(applicationId, `${appPath}/tenants/${tenantId}`, admin, () =>
          admin.post(`${appPath}/tenants/${tenantId}/users`, { email: 'late@example.com', password: 'Correct-Horse-Battery-9' }),
        );
        expect(deleted.status).toBe(204);
        expect([201, 404], JSON.stringify(created.body)).toContain(created.status);
        const orphans = await app.sql(
          `select id from app_user where application_id = ? and (? = any(tenant_ids) or pool_id = ?)`,
          [applicationId, tenantId, tenantId],
        );
        expect(orphans).toEqual([]);
      }, 30_000);
    }

    it('a tenant renamed while a user is being created in it keeps its new name: the creation writes no tenant', async () => {
      const { admin, applicationId, appPath } = await freshApplication(app);
      const tenantPath = `${appPath}/tenants/${(await admin.post(`${appPath}/tenants`, { name: 'Before' })).body.id}`;
      // The creation reads the tenant (404 if absent), then waits for its transaction; the rename commits meanwhile.
      const hold = await holdApplication(applicationId);
      const creating = admin.post(`${tenantPath}/users`, { email: 'newcomer@example.com' });
      try {
        await waitersAtLeast(1);
        expect((await admin.patch(tenantPath, { name: 'After' })).status).toBe(200);
      } finally {
        hold.release();
        await hold.done;
      }
      expect((await creating).status).toBe(201);
      expect((await admin.get(tenantPath)).body.name).toBe('After');
    }, 30_000);

    it('a membership added while the tenant is deleted is refused (404) or removed with the tenant', async () => {
      const { admin, applicationId, appPath } = await freshApplication(app, { authIsolation: 'shared' });
      const tenantId = (await admin.post(`${appPath}/tenants`, { name: 'Doomed' })).body.id;
      const user = (await admin.post(`${appPath}/users`, { email: 'member@example.com' })).body.id;
      const { written: patched, deleted } = await raceWithDeletion(applicationId, `${appPath}/tenants/${tenantId}`, admin, () =>
        admin.patch(`${appPath}/users/${user}`, { tenantIds: [tenantId], password: 'Correct-Horse-Battery-9' }),
      );
      expect(deleted.status).toBe(204);
      expect([200, 404], JSON.stringify(patched.body)).toContain(patched.status);
      expect(await app.sql(`select id from app_user where application_id = ? and ? = any(tenant_ids)`, [applicationId, tenantId])).toEqual([]);
    }, 30_000);
  });
});

describe('concurrent creations of one unique value: one 201, the others 409', () => {
  const outcome = (statuses: number[]) => [...statuses].sort((a, b) => a - b);

  it('the same e-mail in one pool', async () => {
    const { admin, appPath } = await freshApplication(app);
    const answers = await Promise.all([1, 2, 3].map(() => admin.post(`${appPath}/users`, { email: 'Twin@Example.com' })));
    expect(outcome(answers.map((answer) => answer.status))).toEqual([201, 409, 409]);
    expect(answers.filter((answer) => answer.status === 409).every((answer) => answer.body.code === 'already_exists')).toBe(true);
  });

  // With a password each creation hashes inside its transaction, the tenant held FOR SHARE: the creations overlap.
  for (const mode of ['shared', 'isolated'] as const) {
    it(`${mode}: the same e-mail in one tenant`, async () => {
      const { admin, applicationId, appPath } = await freshApplication(app, { authIsolation: mode });
      const tenantId = (await admin.post(`${appPath}/tenants`, { name: 'Crowded' })).body.id;
      const answers = await allAtOnce(applicationId, [1, 2, 3, 4].map(() => () =>
        admin.post(`${appPath}/tenants/${tenantId}/users`, { email: 'twin@example.com', password: 'Correct-Horse-Battery-9' }),
      ));
      expect(outcome(answers.map((answer) => answer.status)), JSON.stringify(answers.map((answer) => answer.body))).toEqual([201, 409, 409, 409]);
    }, 30_000);
  }

  it('different e-mails in one tenant: every user is created', async () => {
    const { admin, applicationId, appPath } = await freshApplication(app);
    const tenantId = (await admin.post(`${appPath}/tenants`, { name: 'Crowded' })).body.id;
    const answers = await allAtOnce(applicationId, [1, 2, 3, 4].map((n) => () =>
      admin.post(`${appPath}/tenants/${tenantId}/users`, { email: `member${n}@example.com`, password: 'Correct-Horse-Battery-9' }),
    ));
    expect(answers.map((answer) => answer.status), JSON.stringify(answers.map((answer) => answer.body))).toEqual([201, 201, 201, 201]);
  }, 30_000);

  it('the same tenant slug', async () => {
    const { admin, appPath } = await freshApplication(app);
    const answers = await Promise.all(['A', 'B', 'C'].map((name) => admin.post(`${appPath}/tenants`, { name, slug: 'same' })));
    expect(outcome(answers.map((answer) => answer.status))).toEqual([201, 409, 409]);
  });

  it('the same domain hostname in one application', async () => {
    const { admin, appPath } = await freshApplication(app);
    const answers = await Promise.all([1, 2, 3].map(() => admin.post(`${appPath}/domains`, { hostname: 'login.integrity.example' })));
    expect(outcome(answers.map((answer) => answer.status))).toEqual([201, 409, 409]);
  });
});
