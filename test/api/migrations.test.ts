import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openEmbeddedDatabase } from '../../src/db/embedded.ts';
import { MIGRATIONS, openDatabase } from '../../src/db/orm.ts';
import { normalizeEmail } from '../../src/domain/users/email-key.ts';
import { addressHeld } from '../../src/domain/users/link-tokens.ts';
import { StartRefusal } from '../../src/process/start-failure.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

/**
 * Upgrades: a database as an earlier release left it (rows of `mikro_orm_migrations`, objects dropped to match) is
 * opened by this one, on PostgreSQL through the migrations' lock and on the embedded database.
 */
let database: TestDatabase;
afterEach(async () => database?.drop());

/** A migrated copy of the run's template. */
async function migratedDatabase(): Promise<TestDatabase> {
  database = await createTestDatabase();
  return database;
}

const configOf = (of: TestDatabase) => loadConfig({}, { databaseUrl: of.databaseUrl, dataDir: of.dataDir });

/** Opens it as the service does, migrations and all, and closes it. */
async function start(of: TestDatabase): Promise<void> {
  await (await openDatabase(configOf(of))).close();
}

/** `run` on a plain connection, no migration run: the embedded database is opened alone for it. */
async function onDatabase<T>(of: TestDatabase, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const embedded = of.databaseUrl === undefined ? await openEmbeddedDatabase(of.dataDir) : undefined;
  const client = new pg.Client({ connectionString: embedded?.url ?? of.databaseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
    await embedded?.stop();
  }
}

const sql = (of: TestDatabase, statements: string) => onDatabase(of, async (client) => void (await client.query(statements)));

async function executed(of: TestDatabase): Promise<string[]> {
  return onDatabase(of, async (client) => (await client.query<{ name: string }>('select name from mikro_orm_migrations order by id')).rows.map((row) => row.name));
}

async function indexes(of: TestDatabase, names: readonly string[]): Promise<string[]> {
  return onDatabase(of, async (client) =>
    (await client.query<{ name: string }>('select indexname as name from pg_indexes where indexname = any($1) order by 1', [names])).rows.map((row) => row.name),
  );
}

describe('a database migrated before 0018 was renamed', () => {
  it('starts: 0018-user-lifecycle-lookups finds the index 0018-oidc-model-account made and adds the other', async () => {
    const of = await migratedDatabase();
    // As 888343be left it: its 0018 made the account index only, under its first name.
    await sql(
      of,
      `update mikro_orm_migrations set name = '0018-oidc-model-account' where name = '0018-user-lifecycle-lookups';
       drop index app_user_email_prefix_idx;`,
    );
    await start(of);
    expect(await indexes(of, ['oidc_model_account_idx', 'app_user_email_prefix_idx'])).toEqual(['app_user_email_prefix_idx', 'oidc_model_account_idx']);
    expect(await executed(of)).toContain('0018-user-lifecycle-lookups');
  });
});

/** Every column, index and constraint of the schema, each as the catalog describes it. */
async function schema(of: TestDatabase): Promise<string[]> {
  return onDatabase(of, async (client) => {
    const { rows } = await client.query<{ line: string }>(
      `select concat_ws(' ', 'column', table_name, column_name, data_type, is_nullable, column_default) as line
         from information_schema.columns where table_schema = current_schema()
       union all
       select concat_ws(' ', 'index', indexdef) from pg_indexes where schemaname = current_schema()
       union all
       select concat_ws(' ', 'constraint', conrelid::regclass::text, conname, pg_get_constraintdef(oid))
         from pg_constraint where connamespace = current_schema()::regnamespace
       order by 1`,
    );
    return rows.map((row) => row.line);
  });
}

const CATCH_UP = '0063-edited-migrations-catch-up';
const [ORGANIZATION, APPLICATION, TENANT] = ['0193a000-0000-7000-8000-000000000001', '0193a000-0000-7000-8000-000000000002', '0193a000-0000-7000-8000-000000000003'];
/** The organization and application the rows a test writes belong to. */
const OWNERS_SQL = `insert into organization (id, name, created_at, updated_at) values ('${ORGANIZATION}', 'o', now(), now());
       insert into application (id, organization_id, name, multi_tenant, created_at, updated_at)
         values ('${APPLICATION}', '${ORGANIZATION}', 'a', true, now(), now());`;
/** Active users of APPLICATION, each in a pool of its own id. */
const usersSql = (users: readonly (readonly [id: string, email: string])[]) =>
  `insert into app_user (application_id, id, pool_id, email, email_normalized, status, created_at, updated_at) values ${users
    .map(([id, email]) => `('${APPLICATION}', '${id}', '${id}', '${email}', '${email}', 'active', now(), now())`)
    .join(', ')};`;

describe('migration 0063', () => {
  it('makes what 0021, 0023, 0024, 0045 and 0051 gained after their release, on a database that ran them before', async () => {
    const of = await migratedDatabase();
    const complete = await schema(of);
    await sql(
      of,
      `drop table known_browser;
       alter table invitation drop column expires_in_days;
       drop index audit_log_tenant_action_idx;
       alter table saml_subject drop column name_id_format;
       drop index saml_subject_user_idx;
       drop table saml_logout;
       drop index email_link_token_tenant_idx;
       delete from mikro_orm_migrations where name = '${CATCH_UP}';`,
    );
    const before = await schema(of);
    expect(before.filter((line) => /known_browser|expires_in_days|audit_log_tenant_action_idx|name_id_format|saml_subject_user_idx|saml_logout|email_link_token_tenant_idx/.test(line))).toEqual([]);
    await start(of);
    expect(await schema(of)).toEqual(complete);
  });

  it("fills a catching-up invitation's expires_in_days with the days it was given, within 1 to 30", async () => {
    const of = await migratedDatabase();
    await sql(
      of,
      `alter table invitation drop column expires_in_days;
       delete from mikro_orm_migrations where name = '${CATCH_UP}';
       ${OWNERS_SQL}
       insert into tenant (application_id, id, name, slug, created_at, updated_at)
         values ('${APPLICATION}', '${TENANT}', 't', 't', now(), now());
       insert into invitation (application_id, id, tenant_id, email, email_normalized, token_hash, expires_at, invited_by_type,
                               invited_by_id, created_at, updated_at, granted_by)
         select '${APPLICATION}', gen_random_uuid(), '${TENANT}', days || '@example.com', days || '@example.com', md5(days::text),
                '2026-01-01'::timestamptz + days * interval '1 day', 'api_key', 'k', '2026-01-01', '2026-01-01', '[]'
           from unnest(array[0.01, 1, 6.5, 7, 45]) as days;`,
    );
    await start(of);
    const given = await onDatabase(of, async (client) =>
      (await client.query<{ email: string; days: number }>('select email, expires_in_days as days from invitation order by expires_at')).rows,
    );
    expect(given.map(({ email, days }) => [email, days])).toEqual([
      ['0.01@example.com', 1],
      ['1@example.com', 1],
      ['6.5@example.com', 7],
      ['7@example.com', 7],
      ['45@example.com', 30],
    ]);
  });

  it('changes nothing on a database that has it all', async () => {
    const of = await migratedDatabase();
    const complete = await schema(of);
    await sql(of, `delete from mikro_orm_migrations where name = '${CATCH_UP}'`);
    await start(of);
    expect(await schema(of)).toEqual(complete);
    // Recorded once each; 0063, run again, now follows those after it.
    expect((await executed(of)).sort()).toEqual(MIGRATIONS.map((migration) => migration.name).sort());
  });
});

describe('migration 0064', () => {
  it('leaves a user code stored twice with the device code that expires last, then holds each user code once', async () => {
    const of = await migratedDatabase();
    const complete = await schema(of);
    await sql(
      of,
      `drop index oidc_model_user_code_key;
       create index oidc_model_user_code_idx on oidc_model (model, user_code);
       delete from mikro_orm_migrations where name = '0064-device-user-code-unique';
       insert into oidc_model (model, id, payload, user_code, expires_at) values
         ('DeviceCode', 'first', '{}', 'BCDFGHJK', now() + interval '5 minutes'),
         ('DeviceCode', 'last', '{}', 'BCDFGHJK', now() + interval '9 minutes'),
         ('DeviceCode', 'expired', '{}', 'BCDFGHJK', now() - interval '1 minute'),
         ('DeviceCode', 'alone', '{}', 'LMNPQRST', now() + interval '5 minutes');`,
    );
    await start(of);
    const codes = await onDatabase(of, async (client) => (await client.query<{ id: string; user_code: string | null }>('select id, user_code from oidc_model order by id')).rows);
    expect(codes).toEqual([
      { id: 'alone', user_code: 'LMNPQRST' },
      { id: 'expired', user_code: null },
      { id: 'first', user_code: null },
      { id: 'last', user_code: 'BCDFGHJK' },
    ]);
    expect(await schema(of)).toEqual(complete);
  });
});

describe('migration 0077', () => {
  it('files each passkey in its user’s pool, unique there', async () => {
    const of = await migratedDatabase();
    const complete = await schema(of);
    const [north, south] = ['00000000-0000-7000-8000-00000000000a', '00000000-0000-7000-8000-00000000000b'];
    await sql(
      of,
      `drop index webauthn_credential_pool_id_idx;
       alter table webauthn_credential drop column pool_id;
       create unique index webauthn_credential_id_idx on webauthn_credential (application_id, rp_id, credential_id);
       delete from mikro_orm_migrations where name = '0077-passkeys-in-their-users-pools';
       ${OWNERS_SQL}
       ${usersSql([[north, 'n@example.com'], [south, 's@example.com']])}
       insert into webauthn_credential (application_id, id, user_id, rp_id, credential_id, public_key, device_type, backed_up, name)
         values ('${APPLICATION}', gen_random_uuid(), '${north}', 'example.com', 'key-n', '\\x00', 'singleDevice', false, 'n'),
                ('${APPLICATION}', gen_random_uuid(), '${south}', 'example.com', 'key-s', '\\x00', 'singleDevice', false, 's');`,
    );
    await start(of);
    const filed = await onDatabase(of, async (client) => (await client.query<{ credential_id: string; pool_id: string }>('select credential_id, pool_id from webauthn_credential order by 1')).rows);
    expect(filed).toEqual([
      { credential_id: 'key-n', pool_id: north },
      { credential_id: 'key-s', pool_id: south },
    ]);
    expect(await schema(of)).toEqual(complete);
  });
});

describe('migration 0080', () => {
  it('gives the copies of one TOTP secret or recovery code one id, and other accounts’ their own', async () => {
    const of = await migratedDatabase();
    const complete = await schema(of);
    const [original, copy, stranger] = ['00000000-0000-7000-8000-00000000000a', '00000000-0000-7000-8000-00000000000b', '00000000-0000-7000-8000-00000000000c'];
    await sql(
      of,
      `drop index mfa_factor_secret_idx;
       drop index mfa_recovery_code_code_idx;
       alter table mfa_factor drop column secret_id;
       alter table mfa_recovery_code drop column code_id;
       delete from mikro_orm_migrations where name = '0080-copied-secrets-spent-together';
       ${OWNERS_SQL}
       ${usersSql([[original, 'p@example.com'], [copy, 'p@example.com'], [stranger, 's@example.com']])}
       insert into mfa_factor (application_id, id, user_id, kind, secret_encrypted)
         values ('${APPLICATION}', gen_random_uuid(), '${original}', 'totp', 'sealed-p'),
                ('${APPLICATION}', gen_random_uuid(), '${copy}', 'totp', 'sealed-p'),
                ('${APPLICATION}', gen_random_uuid(), '${stranger}', 'totp', 'sealed-s');
       insert into mfa_recovery_code (application_id, user_id, code_hash)
         values ('${APPLICATION}', '${original}', 'hash-1'), ('${APPLICATION}', '${copy}', 'hash-1'), ('${APPLICATION}', '${stranger}', 'hash-1');`,
    );
    await start(of);
    const ids = await onDatabase(of, async (client) => ({
      factors: (await client.query<{ user_id: string; secret_id: string }>('select user_id, secret_id from mfa_factor order by user_id')).rows,
      codes: (await client.query<{ user_id: string; code_id: string }>('select user_id, code_id from mfa_recovery_code order by user_id')).rows,
    }));
    const [originals, copies, strangers] = [0, 1, 2].map((i) => [ids.factors[i]!.secret_id, ids.codes[i]!.code_id]);
    expect(copies).toEqual(originals);
    expect(strangers![0]).not.toBe(originals![0]);
    expect(strangers![1]).not.toBe(originals![1]);
    expect(await schema(of)).toEqual(complete);
  });
});

describe('migration 0084', () => {
  it('gives each restore link live at the upgrade its address’s key (normalizeEmail), so that it holds the address; a used one, none', async () => {
    const of = await migratedDatabase();
    const complete = await schema(of);
    const owner = '00000000-0000-7000-8000-00000000000a';
    const link = (token: string, address: string, usedAt: string) =>
      `('${APPLICATION}', gen_random_uuid(), '${owner}', gen_random_uuid(), 'password_reset', '${token}', now() + interval '1 hour', '${address}', now(), 'proof', ${usedAt})`;
    await sql(
      of,
      `drop index email_link_token_restores_idx;
       alter table email_link_token drop column restores_email_normalized;
       alter table email_link_token drop column restores_earlier_hashes;
       drop table replaced_password;
       delete from mikro_orm_migrations where name = '0084-restore-earlier-passwords';
       ${OWNERS_SQL}
       ${usersSql([[owner, 'moved@example.com']])}
       insert into email_link_token (application_id, id, user_id, client_id, purpose, token_hash, expires_at, restores_email,
                                     restores_added_since, proof_password_hash, used_at)
         values ${link('live', 'Left@Bücher.Example', 'null')}, ${link('ascii', 'Plain.Left@Example.COM', 'null')}, ${link('used', 'Used@example.com', 'now()')};`,
    );
    await start(of);
    const keys = await onDatabase(of, async (client) => (await client.query('select token_hash, restores_email_normalized from email_link_token order by 1')).rows);
    expect(keys).toEqual([
      { token_hash: 'ascii', restores_email_normalized: 'plain.left@example.com' },
      { token_hash: 'live', restores_email_normalized: 'left@xn--bcher-kva.example' },
      { token_hash: 'used', restores_email_normalized: null },
    ]);
    const opened = await openDatabase(configOf(of));
    try {
      const em = opened.orm.em.fork();
      expect(await addressHeld(em, APPLICATION, owner, normalizeEmail('left@bücher.example'))).toBe(true);
      expect(await addressHeld(em, APPLICATION, owner, normalizeEmail('Plain.Left@example.com'))).toBe(true);
    } finally {
      await opened.close();
    }
    expect(await schema(of)).toEqual(complete);
  });
});

describe('migration 0085', () => {
  it('makes an application-wide key of a user of a tenant’s pool that tenant’s, recorded; others stay', async () => {
    const of = await migratedDatabase();
    const [pooled, shared, tenant] = ['00000000-0000-7000-8000-00000000000a', '00000000-0000-7000-8000-00000000000b', '00000000-0000-7000-8000-00000000000c'];
    const key = (id: string, userId: string | null, tenantId: string | null) =>
      `('${APPLICATION}', '${id}', ${tenantId === null ? 'null' : `'${tenantId}'`}, ${userId === null ? 'null' : `'${userId}'`}, '${id}', '{users:read}', '${id}', now())`;
    await sql(
      of,
      `delete from mikro_orm_migrations where name = '0085-pool-user-keys-in-their-tenant';
       ${OWNERS_SQL}
       insert into tenant (application_id, id, name, slug, created_at, updated_at) values ('${APPLICATION}', '${tenant}', 't', 't', now(), now());
       insert into app_user (application_id, id, pool_id, email, email_normalized, status, tenant_ids, created_at, updated_at)
         values ('${APPLICATION}', '${pooled}', '${tenant}', 'p@example.com', 'p@example.com', 'active', '{${tenant}}', now(), now()),
                ('${APPLICATION}', '${shared}', '00000000-0000-0000-0000-000000000000', 's@example.com', 's@example.com', 'active', '{${tenant}}', now(), now());
       insert into api_key (application_id, id, tenant_id, user_id, name, permissions, secret_hash, created_at)
         values ${[key('00000000-0000-7000-8000-0000000000a1', pooled, null), key('00000000-0000-7000-8000-0000000000a2', pooled, tenant),
           key('00000000-0000-7000-8000-0000000000b1', shared, null), key('00000000-0000-7000-8000-0000000000c1', null, null)].join(', ')};`,
    );
    await start(of);
    const { keys, records } = await onDatabase(of, async (client) => ({
      keys: (await client.query<{ id: string; tenant_id: string | null }>('select id, tenant_id from api_key order by id')).rows,
      records: (await client.query('select tenant_id, actor_type, actor_id, action, target_id, before, after from audit_log')).rows,
    }));
    expect(keys).toEqual([
      { id: '00000000-0000-7000-8000-0000000000a1', tenant_id: tenant },
      { id: '00000000-0000-7000-8000-0000000000a2', tenant_id: tenant },
      { id: '00000000-0000-7000-8000-0000000000b1', tenant_id: null },
      { id: '00000000-0000-7000-8000-0000000000c1', tenant_id: null },
    ]);
    const after = { name: '00000000-0000-7000-8000-0000000000a1', permissions: ['users:read'], tenantId: tenant, userId: pooled, expiresAt: null, revokedAt: null, lastRotatedAt: null };
    expect(records).toEqual([
      { tenant_id: tenant, actor_type: 'system', actor_id: 'migration', action: 'api_key.rebound', target_id: '00000000-0000-7000-8000-0000000000a1', before: { ...after, tenantId: null }, after },
    ]);
  });
});

describe('migration 0086', () => {
  it('registers each application deleted before it, with the retention its deletion recorded (else 90 days) from its newest record', async () => {
    const of = await migratedDatabase();
    const [recorded, unrecorded] = ['00000000-0000-7000-8000-0000000000d1', '00000000-0000-7000-8000-0000000000d2'];
    const record = (applicationId: string, id: string, action: string, before: string, at: string) =>
      `('${applicationId}', '${id}', 'system', 'test', '${action}', 'application', '${id}', ${before}::jsonb, '${at}')`;
    await sql(
      of,
      `delete from mikro_orm_migrations where name = '0086-deleted-application-retention';
       drop table deleted_application;
       ${OWNERS_SQL}
       insert into audit_log (application_id, id, actor_type, actor_id, action, target_type, request_id, before, created_at) values
         ${[
           record(APPLICATION, '00000000-0000-7000-8000-0000000000e1', 'user.created', 'null', '2026-01-01T00:00:00Z'),
           record(recorded, '00000000-0000-7000-8000-0000000000e2', 'user.created', 'null', '2026-02-01T00:00:00Z'),
           record(recorded, '00000000-0000-7000-8000-0000000000e3', 'application.deleted', `'{"auditRetentionDays": 7}'`, '2026-03-01T00:00:00Z'),
           record(unrecorded, '00000000-0000-7000-8000-0000000000e4', 'user.created', 'null', '2026-04-01T00:00:00Z'),
         ].join(', ')};`,
    );
    await start(of);
    const rows = await onDatabase(of, async (client) =>
      (await client.query<{ application_id: string; audit_retention_days: number; deleted_at: Date }>('select * from deleted_application order by application_id')).rows,
    );
    expect(rows).toEqual([
      { application_id: recorded, audit_retention_days: 7, deleted_at: new Date('2026-03-01T00:00:00Z') },
      { application_id: unrecorded, audit_retention_days: 90, deleted_at: new Date('2026-04-01T00:00:00Z') },
    ]);
  });
});

describe('migration 0087', () => {
  it('ends the live links in a tenant’s outbox of accounts not that tenant’s alone: members of other tenants, holders of an application-wide role', async () => {
    const of = await migratedDatabase();
    const [other, alone, member, holder, role, client] = ['a', 'b', 'c', 'd', 'e', 'f'].map((digit) => `00000000-0000-7000-8000-00000000000${digit}`) as [string, string, string, string, string, string];
    const user = (id: string, tenantIds: string) => `('${APPLICATION}', '${id}', '00000000-0000-0000-0000-000000000000', '${id}@example.com', '${id}@example.com', 'active', '${tenantIds}', now(), now())`;
    const link = (userId: string, tenantId: string | null) =>
      `('${APPLICATION}', '${userId.slice(0, -2)}${userId.slice(-1)}${tenantId === null ? '8' : '9'}', '${userId}', '${client}', 'password_reset', '${userId}-${String(tenantId)}', now() + interval '1 hour', ${tenantId === null ? 'null' : `'${tenantId}'`})`;
    await sql(
      of,
      `delete from mikro_orm_migrations where name = '0087-end-tenant-links-of-wider-accounts';
       ${OWNERS_SQL}
       insert into tenant (application_id, id, name, slug, created_at, updated_at)
         values ('${APPLICATION}', '${TENANT}', 't', 't', now(), now()), ('${APPLICATION}', '${other}', 'o', 'o', now(), now());
       insert into app_user (application_id, id, pool_id, email, email_normalized, status, tenant_ids, created_at, updated_at)
         values ${[user(alone, `{${TENANT}}`), user(member, `{${TENANT},${other}}`), user(holder, `{${TENANT}}`)].join(', ')};
       insert into role (application_id, id, key, name, description, permissions, built_in, created_at, updated_at)
         values ('${APPLICATION}', '${role}', 'r', 'r', '', '{users:read}', false, now(), now());
       insert into role_assignment (application_id, id, tenant_id, role_id, subject_type, subject_id, created_at)
         values ('${APPLICATION}', '${role.slice(0, -1)}1', null, '${role}', 'user', '${holder}', now());
       insert into email_link_token (application_id, id, user_id, client_id, purpose, token_hash, expires_at, tenant_id)
         values ${[link(alone, TENANT), link(member, TENANT), link(member, null), link(holder, TENANT), link(holder, null)].join(', ')};`,
    );
    await start(of);
    const live = await onDatabase(of, async (client) =>
      (await client.query<{ user_id: string; tenant_id: string | null }>('select user_id, tenant_id from email_link_token where used_at is null order by user_id, tenant_id')).rows,
    );
    expect(live).toEqual([
      { user_id: alone, tenant_id: TENANT },
      { user_id: member, tenant_id: null },
      { user_id: holder, tenant_id: null },
    ]);
  });
});

describe('a database holding migrations this release does not know', () => {
  it('is refused, in one line naming them, when they are numbered among its own: a renamed migration or another build', async () => {
    const of = await migratedDatabase();
    await sql(of, `insert into mikro_orm_migrations (name) values ('0030-of-another-build'), ('0044-of-another-build')`);
    const refusal = await start(of).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(StartRefusal);
    expect((refusal as Error).message).toMatch(/^[^\n]*0030-of-another-build, 0044-of-another-build[^\n]*$/);
  });

  it('starts when they are numbered after its last: a newer release, rolled back from or still starting beside it', async () => {
    const of = await migratedDatabase();
    await sql(of, `insert into mikro_orm_migrations (name) values ('9000-of-a-newer-release')`);
    await start(of);
    expect(await executed(of)).toEqual([...MIGRATIONS.map((migration) => migration.name), '9000-of-a-newer-release']);
  });
});

describe('pending migrations', () => {
  it('run each in a transaction of its own: a failing one leaves those before it applied, and is not recorded', async () => {
    const of = await migratedDatabase();
    // 0062 creates its index without `if not exists`: run again over it, it fails; 0061 runs again as a no-op.
    await sql(
      of,
      `delete from mikro_orm_migrations where name in ('0061-passkey-cloned-notice-in-mfa-enrolled', '0062-analytics-active-user-by-user');
       drop index app_user_email_prefix_idx;
       delete from mikro_orm_migrations where name = '0018-user-lifecycle-lookups';`,
    );
    await expect(start(of)).rejects.toThrow(/analytics_active_user_by_user" already exists/);
    const ran = await executed(of);
    expect(ran).toContain('0018-user-lifecycle-lookups');
    expect(ran).toContain('0061-passkey-cloned-notice-in-mfa-enrolled');
    expect(ran).not.toContain('0062-analytics-active-user-by-user');
    expect(await indexes(of, ['app_user_email_prefix_idx'])).toEqual(['app_user_email_prefix_idx']);
  });
});
