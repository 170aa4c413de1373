import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { deadRuns, holdRunLock, onAdmin, RUN_ENV, usingEmbeddedDatabase } from '../support/database.ts';

/**
 * A test run's PostgreSQL databases are named after it and dropped as it ends; one killed first leaves them, and the next
 * run to start drops them (test/support/global-setup.ts): a run no process holds the lock of is dead.
 */
describe.skipIf(usingEmbeddedDatabase())('databases a killed test run left', () => {
  const adminUrl = process.env['TEST_DATABASE_URL']!;
  const made: string[] = [];
  const admin = <T>(work: (client: pg.Client) => Promise<T>) => onAdmin(adminUrl, work);
  const databaseOf = async (run: string) => {
    const name = `gatehouse_test_${run}_${randomBytes(6).toString('hex')}`;
    await admin((client) => client.query(`create database ${name}`));
    made.push(name);
  };
  afterAll(async () => admin(async (client) => Promise.all(made.map((name) => client.query(`drop database if exists ${name} with (force)`)))));

  it('are found once their run no longer holds its lock, and those of a running one are not', async () => {
    const killed = randomBytes(4).toString('hex');
    const running = randomBytes(4).toString('hex');
    await databaseOf(killed);
    await databaseOf(running);
    const releaseRunning = await holdRunLock(running);
    try {
      const dead = await deadRuns();
      expect(dead).toContain(killed);
      expect(dead).not.toContain(running);
      // This test's own run is alive too.
      expect(dead).not.toContain(process.env[RUN_ENV]);
    } finally {
      await releaseRunning();
    }
    expect(await deadRuns()).toContain(running);
  });
});
