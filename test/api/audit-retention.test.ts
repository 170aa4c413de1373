import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { AuditRetentionJob, purgeExpiredAuditRecords } from '../../src/domain/audit/retention.ts';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { ensureConsoles } from '../../src/domain/console/console.ts';
import { firstIdAt } from '../../src/ids.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshApplication } from '../support/applications.ts';
import { HttpClient } from '../support/http.ts';

/**
 * Audit retention: each application's `auditRetentionDays` (default 90); a job deletes older records in batches,
 * with one `audit_log.purged` summary record per application; other applications keep theirs. A deleted application's
 * records go by the retention it had, without a summary, and then its bookkeeping. Time is the test's clock.
 */
const DAY_MS = 86_400_000;
let app: TestApp;
let now = new Date();
let other: BootstrapResult;

beforeAll(async () => {
  app = await startTestApp({ auditRetentionEveryMs: 0 }, { clock: () => now });
  // The organization's console, which keeps a copy of an application's deletion (a start makes it).
  await ensureConsoles(app.gatehouse.services.orm, app.gatehouse.services.config.publicUrl, randomUUID());
  other = await app.bootstrapAnother();
});
afterAll(async () => app?.close());

const actionsOf = async (applicationId: string) =>
  (await app.sql<{ action: string }>('select action from audit_log where application_id = ? order by id', [applicationId])).map((row) => row.action);

describe('auditRetentionDays', () => {
  it('defaults to 90, is set with PATCH /applications/{appId} (audited), 1 to 3650 days', async () => {
    const path = `/applications/${app.root.applicationId}`;
    expect((await app.http.get(path)).body).toMatchObject({ auditRetentionDays: 90 });
    const updated = await app.http.patch(path, { auditRetentionDays: 30 });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ auditRetentionDays: 30 });
    const [record] = await app.sql<{ before: Record<string, unknown>; after: Record<string, unknown> }>(
      `select before, after from audit_log where application_id = ? and action = 'application.updated' order by id desc limit 1`,
      [app.root.applicationId],
    );
    expect(record).toMatchObject({ before: { auditRetentionDays: 90 }, after: { auditRetentionDays: 30 } });
    for (const refused of [0, 3651, 1.5, null]) {
      expect((await app.http.patch(path, { auditRetentionDays: refused })).body).toMatchObject({ code: 'validation_error', field: expect.stringMatching(/auditRetentionDays/) });
    }
    expect((await app.http.get(path)).body).toMatchObject({ auditRetentionDays: 30 });
  });
});

describe('the retention job', () => {
  it('deletes the records older than each application’s retention, in batches, and records one summary', async () => {
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) expect((await app.http.post('/users', { email })).status).toBe(201);
    const otherHttp = new HttpClient(app.baseUrl, { apiKey: other.apiKey });
    expect((await otherHttp.post('/users', { email: 'kept@example.com' })).status).toBe(201);
    const before = (await actionsOf(app.root.applicationId)).length;
    const otherBefore = await actionsOf(other.applicationId);
    expect(before).toBeGreaterThan(4);
    // 60 days on: past the root application's 30, within the other's 90. Not just past 30: a file before this one in
    // the worker that faked the clock ahead leaves uuid's v7 ids ahead too (they stay monotonic), by up to days.
    now = new Date(Date.now() + 60 * DAY_MS);
    const runs = await purgeExpiredAuditRecords(app.gatehouse.services.orm, () => now, 2);
    expect(runs).toEqual([{ applicationId: app.root.applicationId, deleted: before }]);
    expect(await actionsOf(app.root.applicationId)).toEqual(['audit_log.purged']);
    expect(await actionsOf(other.applicationId)).toEqual(otherBefore);
    const summary = await app.http.get('/audit-logs?action=audit_log.purged');
    expect(summary.body.data).toMatchObject([
      { action: 'audit_log.purged', actor: { type: 'system', id: 'audit-retention' }, target: { type: 'application', id: app.root.applicationId }, changes: { after: { deleted: before, retentionDays: 30 } } },
    ]);
  });

  it('runs on its schedule', async () => {
    now = new Date(Date.now() + 200 * DAY_MS);
    const logged: object[] = [];
    const job = new AuditRetentionJob(app.gatehouse.services.orm, () => now, 50);
    job.start({ info: (details) => logged.push(details), error: (details) => logged.push(details) });
    try {
      for (let waited = 0; (await actionsOf(other.applicationId)).at(-1) !== 'audit_log.purged'; waited += 50) {
        if (waited > 20_000) throw new Error('the job did not run');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await job.stop();
    }
    expect(await actionsOf(other.applicationId)).toEqual(['audit_log.purged']);
    expect(logged).toContainEqual({ runs: expect.arrayContaining([expect.objectContaining({ applicationId: other.applicationId })]) });
  });

  it('runs as its instance starts, not only an interval later: an instance restarted more often than that still purges', async () => {
    expect((await app.http.post('/users', { email: 'restarted@example.com' })).status).toBe(201);
    now = new Date(Date.now() + 400 * DAY_MS);
    const job = new AuditRetentionJob(app.gatehouse.services.orm, () => now, 3_600_000);
    job.start({ info: () => undefined, error: () => undefined });
    try {
      for (let waited = 0; (await actionsOf(app.root.applicationId)).some((action) => action !== 'audit_log.purged'); waited += 50) {
        if (waited > 20_000) throw new Error('the job did not run as it started');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await job.stop();
    }
  });
});

describe('a deleted application’s records', () => {
  const consoleCopiesOfDeletion = (applicationId: string) =>
    app.sql(`select id from audit_log where action = 'application.deleted' and target_id = ? and application_id <> ?`, [applicationId, applicationId]);

  it('are kept for the retention it had when deleted, then purged by the job, with its bookkeeping; a live application’s stay', async () => {
    const { admin, applicationId, appPath } = await freshApplication(app);
    expect((await admin.patch(appPath, { auditRetentionDays: 30 })).status).toBe(200);
    expect((await admin.post('/users', { email: 'gone@example.com' })).status).toBe(201);
    expect((await admin.delete(appPath)).status).toBe(204);
    const kept = await actionsOf(applicationId);
    expect(kept).toEqual(expect.arrayContaining(['user.created', 'application.deleted']));
    expect(await consoleCopiesOfDeletion(applicationId)).toHaveLength(1);
    expect(await app.sql('select audit_retention_days from deleted_application where application_id = ?', [applicationId])).toEqual([{ audit_retention_days: 30 }]);
    const otherHttp = new HttpClient(app.baseUrl, { apiKey: other.apiKey });
    expect((await otherHttp.post('/users', { email: 'live@example.com' })).status).toBe(201);
    const live = await actionsOf(other.applicationId);

    // Within its 30 days (the ids may run ahead of Date.now() by days, never behind): nothing of it goes.
    now = new Date(Date.now() + 20 * DAY_MS);
    expect((await purgeExpiredAuditRecords(app.gatehouse.services.orm, () => now)).map((run) => run.applicationId)).not.toContain(applicationId);
    expect(await actionsOf(applicationId)).toEqual(kept);
    expect(await app.sql('select application_id from deleted_application where application_id = ?', [applicationId])).toHaveLength(1);

    // Past them, within the other's 90: its records and its bookkeeping go, no summary is written for it anywhere.
    now = new Date(Date.now() + 60 * DAY_MS);
    const runs = await purgeExpiredAuditRecords(app.gatehouse.services.orm, () => now, 2);
    expect(runs).toContainEqual({ applicationId, deleted: kept.length });
    expect(await actionsOf(applicationId)).toEqual([]);
    expect(await app.sql('select application_id from deleted_application where application_id = ?', [applicationId])).toEqual([]);
    expect(await app.sql(`select id from audit_log where action = 'audit_log.purged' and target_id = ?`, [applicationId])).toEqual([]);
    expect(await actionsOf(other.applicationId)).toEqual(live);
    // The organization's console keeps its copy of the deletion by the console's own retention.
    expect(await consoleCopiesOfDeletion(applicationId)).toHaveLength(1);
  });

  it('keep their bookkeeping while a record of it is left, whatever the date', async () => {
    const { admin, applicationId, appPath } = await freshApplication(app);
    expect((await admin.patch(appPath, { auditRetentionDays: 1 })).status).toBe(200);
    expect((await admin.delete(appPath)).status).toBe(204);
    // A record committed after the deletion by a request that began before it, newer than the purge's horizon.
    now = new Date(Date.now() + 3 * DAY_MS);
    await app.sql(
      `insert into audit_log (application_id, id, actor_type, actor_id, action, target_type, request_id, created_at)
       values (?, ?, 'system', 'test', 'user.created', 'user', 'late', now())`,
      [applicationId, firstIdAt(new Date(Date.now() + 10 * DAY_MS))],
    );
    await purgeExpiredAuditRecords(app.gatehouse.services.orm, () => now);
    expect(await actionsOf(applicationId)).toEqual(['user.created']);
    expect(await app.sql('select application_id from deleted_application where application_id = ?', [applicationId])).toHaveLength(1);
    now = new Date(Date.now() + 20 * DAY_MS);
    await purgeExpiredAuditRecords(app.gatehouse.services.orm, () => now);
    expect(await actionsOf(applicationId)).toEqual([]);
    expect(await app.sql('select application_id from deleted_application where application_id = ?', [applicationId])).toEqual([]);
  });
});
