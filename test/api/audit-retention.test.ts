import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditRetentionJob, purgeExpiredAuditRecords } from '../../src/domain/audit/retention.ts';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { HttpClient } from '../support/http.ts';

/**
 * Audit retention: each application's `auditRetentionDays` (default 90); a job deletes older records in batches,
 * with one `audit_log.purged` summary record per application; other applications keep theirs. Time is the test's clock.
 */
const DAY_MS = 86_400_000;
let app: TestApp;
let now = new Date();
let other: BootstrapResult;

beforeAll(async () => {
  app = await startTestApp({ auditRetentionEveryMs: 0 }, { clock: () => now });
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
