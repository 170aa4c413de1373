import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startGatehouse, type Gatehouse } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createInvalidationBus, type Invalidation } from '../../src/events/invalidations.ts';
import { MIGRATIONS, openDatabase, type Database } from '../../src/db/orm.ts';
import { createTestDatabase, usingEmbeddedDatabase, type TestDatabase } from '../support/database.ts';

/**
 * Instances starting together on one PostgreSQL and one Redis (replicas, cluster workers): the schema is migrated
 * once, whoever comes first, and an instance hears every invalidation published once it has started.
 */
const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const database of databases) await database.drop();
});

describe.skipIf(usingEmbeddedDatabase())('instances migrating an empty database together', () => {
  it('all start, and each migration runs once', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const config = loadConfig({ REDIS_URL: '' }, { databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    const opened = await Promise.allSettled(Array.from({ length: 4 }, () => openDatabase(config)));
    const ready = opened.filter((result): result is PromiseFulfilledResult<Database> => result.status === 'fulfilled').map((result) => result.value);
    await Promise.all(ready.map((open) => open.close()));
    expect(opened.filter((result) => result.status === 'rejected').map((result) => String(result.reason))).toEqual([]);
    const client = new pg.Client({ connectionString: database.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>('select name from mikro_orm_migrations order by id');
      expect(rows.map((row) => row.name)).toEqual(MIGRATIONS.map((migration) => migration.name));
    } finally {
      await client.end();
    }
  });
});

describe.runIf(process.env['REDIS_URL'])('the invalidation subscription', () => {
  it('forgets everything on its first subscription too: the instance may have served before it', async () => {
    const redis = new Redis(process.env['REDIS_URL']!, { lazyConnect: true, enableOfflineQueue: false });
    const bus = createInvalidationBus(redis);
    const heard: Invalidation[] = [];
    bus.subscribe((invalidation) => heard.push(invalidation));
    try {
      await bus.connect();
      expect(heard).toContainEqual({ kind: 'all' });
    } finally {
      await bus.close();
      redis.disconnect();
    }
  });

  it('asks again for a subscription Redis refused on a connection that answers (an ACL, a busy script), then forgets everything', async () => {
    const admin = new Redis(process.env['REDIS_URL']!);
    const user = `gatehouse-test-${randomUUID()}`;
    const password = randomUUID();
    // Every command and key, no channel: SUBSCRIBE is refused (NOPERM), PING answered.
    await admin.call('ACL', 'SETUSER', user, 'on', `>${password}`, '~*', 'resetchannels', '+@all');
    const url = new URL(process.env['REDIS_URL']!);
    url.username = user;
    url.password = password;
    const redis = new Redis(url.toString(), { lazyConnect: true, enableOfflineQueue: false, commandTimeout: 500 });
    redis.on('error', () => undefined);
    const bus = createInvalidationBus(redis);
    const heard: Invalidation[] = [];
    bus.subscribe((invalidation) => heard.push(invalidation));
    try {
      await Promise.all([redis.connect(), bus.connect()]);
      expect([bus.fanOutWorks, heard]).toEqual([false, []]);
      await admin.call('ACL', 'SETUSER', user, '&gatehouse:invalidations');
      // Asked again within a few of its checks (every 2 s): generous for a loaded machine.
      for (let waited = 0; waited < 15_000 && bus.fanOutWorks !== true; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(bus.fanOutWorks).toBe(true);
      // What was published while it was refused went nowhere: the caches forget everything.
      expect(heard).toContainEqual({ kind: 'all' });
      const id = randomUUID();
      await admin.publish('gatehouse:invalidations', JSON.stringify({ kind: 'api_key', id }));
      for (let waited = 0; waited < 5_000 && !heard.some((invalidation) => 'id' in invalidation && invalidation.id === id); waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(heard).toContainEqual({ kind: 'api_key', id });
    } finally {
      await bus.close();
      redis.disconnect();
      await admin.call('ACL', 'DELUSER', user);
      admin.disconnect();
    }
  });

  it('is in place once the instance has started: an invalidation published at once is heard', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const config = loadConfig(
      { PORT: '0', REDIS_URL: process.env['REDIS_URL']!, LOG_LEVEL: 'silent' },
      { databaseUrl: database.databaseUrl, dataDir: database.dataDir, host: '127.0.0.1', publicUrl: 'http://gatehouse.test' },
    );
    const publisher = new Redis(process.env['REDIS_URL']!);
    let gatehouse: Gatehouse | undefined;
    try {
      gatehouse = await startGatehouse(config, { logger: false });
      const id = randomUUID();
      const heard: Invalidation[] = [];
      gatehouse.services.invalidations.subscribe((invalidation) => heard.push(invalidation));
      await publisher.publish('gatehouse:invalidations', JSON.stringify({ kind: 'api_key', id }));
      // Redis delivers in about a millisecond: generous for a loaded machine.
      for (let waited = 0; waited < 5_000 && !heard.some((invalidation) => 'id' in invalidation && invalidation.id === id); waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(heard).toContainEqual({ kind: 'api_key', id });
    } finally {
      await gatehouse?.close();
      publisher.disconnect();
    }
  });
});
