import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { ApiKey, AuditLog, AuthProvider, Organization } from '../../src/db/entities/index.ts';
import { openDatabase, type Database } from '../../src/db/orm.ts';
import { bootstrap, bootstrapIfEmpty, type BootstrapResult } from '../../src/domain/bootstrap.ts';
import { bootstrapOnFirstStart } from '../../src/process/first-start.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

/** The bootstrap on first start (src/process/first-start.ts), by instances or a primary starting on an empty database. */
let testDatabase: TestDatabase;
let database: Database;
beforeAll(async () => {
  testDatabase = await createTestDatabase();
  database = await openDatabase(loadConfig({}, { databaseUrl: testDatabase.databaseUrl, dataDir: testDatabase.dataDir }));
});
afterAll(async () => {
  await database?.close();
  await testDatabase?.drop();
});

describe('bootstrapIfEmpty', () => {
  it('bootstraps an empty database once, however many start on it together, and never again', async () => {
    const starts = await Promise.all(
      Array.from({ length: 4 }, () => bootstrapIfEmpty(database.orm, { apiKeySecret: undefined, requestId: randomUUID() })),
    );
    expect(starts.filter((result) => result !== undefined)).toHaveLength(1);
    expect(await bootstrapIfEmpty(database.orm, { apiKeySecret: undefined, requestId: randomUUID() })).toBeUndefined();
    expect(await database.orm.em.fork().count(Organization, {})).toBe(1);
  });
});

describe('audit records of a bootstrap', () => {
  /** The records of one bootstrap, in its application, each as the API's own creation of the same record writes it. */
  async function recordsOf(on: Database, result: BootstrapResult, requestId: string) {
    const em = on.orm.em.fork();
    const records = await em.find(AuditLog, { requestId }, { filters: false });
    const key = await em.findOneOrFail(ApiKey, { applicationId: result.applicationId }, { filters: false });
    const password = await em.findOneOrFail(AuthProvider, { applicationId: result.applicationId }, { filters: false });
    expect(JSON.stringify(records)).not.toContain(result.apiKey);
    const shown = records.map(({ applicationId, tenantId, actorType, actorId, apiKeyId, action, targetType, targetId, before, after }) => ({
      applicationId, tenantId, actorType, actorId, apiKeyId, action, targetType, targetId, before, after,
    }));
    return { key, password, records: shown.sort((a, b) => a.action.localeCompare(b.action)) };
  }

  const expected = (result: BootstrapResult, keyId: string, passwordId: string, actor: { actorType: string; actorId: string }) => {
    const common = { applicationId: result.applicationId, tenantId: null, ...actor, apiKeyId: null, before: null };
    const tenancyConfig = { brandingScope: 'application', emailTemplatesScope: 'application', emailProviderScope: 'application', authIsolation: 'shared' };
    return [
      {
        ...common,
        action: 'api_key.created',
        targetType: 'api_key',
        targetId: keyId,
        after: { name: 'Bootstrap app_admin key', permissions: ['*'], tenantId: null, userId: null, expiresAt: null, revokedAt: null, lastRotatedAt: null },
      },
      { ...common, action: 'application.created', targetType: 'application', targetId: result.applicationId, after: { name: 'My application', multiTenant: true, tenancyConfig, auditRetentionDays: 90 } },
      {
        ...common,
        action: 'auth_provider.created',
        targetType: 'auth_provider',
        targetId: passwordId,
        after: { id: passwordId, tenantId: null, type: 'password', name: 'Password', enabled: true, config: { allowSignup: true, requireEmailVerification: true }, secretsSet: [] },
      },
      { ...common, action: 'organization.created', targetType: 'organization', targetId: result.organizationId, after: { name: 'My organization' } },
    ];
  };

  it('the first start records the organization, the application, its password provider and the key it creates, by the system', async () => {
    const fresh = await createTestDatabase();
    const own = await openDatabase(loadConfig({}, { databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir }));
    try {
      const requestId = randomUUID();
      const result = (await bootstrapIfEmpty(own.orm, { apiKeySecret: undefined, requestId }))!;
      const { key, password, records } = await recordsOf(own, result, requestId);
      expect(records).toEqual(expected(result, key.id, password.id, { actorType: 'system', actorId: 'bootstrap' }));
    } finally {
      await own.close();
      await fresh.drop();
    }
  });

  it('`gatehouse bootstrap` records the same, by the command line', async () => {
    const requestId = randomUUID();
    const result = await bootstrap(database.orm, { apiKeySecret: undefined, requestId });
    const { key, password, records } = await recordsOf(database, result, requestId);
    expect(records).toEqual(expected(result, key.id, password.id, { actorType: 'cli', actorId: 'bootstrap' }));
  });
});

describe('a first start whose first operator is refused', () => {
  // The bootstrap key is printed once, by the start that creates it: a start refused after creating it lost it for good.
  it('creates nothing, so that the corrected start bootstraps and prints the key', async () => {
    const fresh = await createTestDatabase();
    const settings = (email: string, password: string) =>
      loadConfig({ PUBLIC_URL: 'http://gatehouse.test', GATEHOUSE_BOOTSTRAP_ADMIN_EMAIL: email, GATEHOUSE_BOOTSTRAP_ADMIN_PASSWORD: password }, {
        databaseUrl: fresh.databaseUrl,
        dataDir: fresh.dataDir,
      });
    const own = await openDatabase(settings('ops@example.com', 'short'));
    const log = { info: () => undefined };
    try {
      await expect(bootstrapOnFirstStart(own.orm, settings('ops@example.com', 'short'), log)).rejects.toThrow(/^GATEHOUSE_BOOTSTRAP_ADMIN_PASSWORD: /);
      await expect(bootstrapOnFirstStart(own.orm, settings('not-an-address', 'Long-Enough-Password-1'), log)).rejects.toThrow(
        /^GATEHOUSE_BOOTSTRAP_ADMIN_EMAIL must be an e-mail address/,
      );
      expect(await own.orm.em.fork().count(Organization, {})).toBe(0);
      expect(await own.orm.em.fork().count(ApiKey, {}, { filters: false })).toBe(0);

      await bootstrapOnFirstStart(own.orm, settings('ops@example.com', 'Long-Enough-Password-1'), log);
      expect(await own.orm.em.fork().count(Organization, {})).toBe(1);
      expect(await own.orm.em.fork().count(ApiKey, {}, { filters: false })).toBe(1);
    } finally {
      await own.close();
      await fresh.drop();
    }
  });
});
