import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { Organization } from '../../src/db/entities/index.ts';
import { openDatabase, type Database } from '../../src/db/orm.ts';
import { bootstrapIfEmpty } from '../../src/domain/bootstrap.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

/** The bootstrap on first start (src/first-start.ts), by instances or a primary starting on an empty database. */
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
