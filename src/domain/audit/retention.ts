import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../clock.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { firstIdAt, newId } from '../../ids.ts';
import { recordAudit } from './audit.ts';
import { PeriodicJob } from '../../background-work.ts';
import { inJobSpan } from '../../observability/spans.ts';

/**
 * Deletes records older than `auditRetentionDays` in batches, each its own short transaction, with one summary record
 * per application (`audit_log.purged`). A record's time is its UUIDv7 id's, so a batch is a primary-key range. Several
 * instances may run at once: a batch skips rows another holds. A deleted application's records go the same way, by the
 * retention it had (`deleted_application`, written by its deletion), without a summary: no credential can read its log,
 * and a record there would outlive the rest; the run is logged.
 */

const DAY_MS = 86_400_000;
/** A short transaction and a bounded WAL burst, whatever the backlog. */
const BATCH = 5_000;

export interface RetentionRun {
  readonly applicationId: string;
  readonly deleted: number;
}

type Connection = ReturnType<MikroORM['em']['getConnection']>;

export async function purgeExpiredAuditRecords(orm: MikroORM, clock: Clock, batch = BATCH): Promise<RetentionRun[]> {
  const connection = orm.em.getConnection();
  const horizon = (days: number) => new Date(clock().getTime() - days * DAY_MS);
  const applications = await connection.execute<{ id: string; audit_retention_days: number }[]>(`select id, audit_retention_days from application order by id`);
  const runs: RetentionRun[] = [];
  for (const application of applications) {
    const before = horizon(application.audit_retention_days);
    const deleted = await purge(connection, application.id, before, batch);
    if (deleted === 0) continue;
    await orm.em.fork().transactional(async (em) => {
      const actor = { applicationId: application.id, tenantId: null, requestId: newId(), principal: { actor: { type: 'system', id: 'audit-retention' } } };
      recordAudit(em, actor, {
        action: 'audit_log.purged',
        targetType: 'application',
        targetId: application.id,
        after: { deleted, before: before.toISOString(), retentionDays: application.audit_retention_days },
      });
    });
    runs.push({ applicationId: application.id, deleted });
  }
  const deletedApplications = await connection.execute<{ application_id: string; audit_retention_days: number }[]>(
    `select application_id, audit_retention_days from deleted_application order by application_id`,
  );
  for (const application of deletedApplications) {
    const before = horizon(application.audit_retention_days);
    const deleted = await purge(connection, application.application_id, before, batch);
    if (deleted > 0) runs.push({ applicationId: application.application_id, deleted });
    // Once its retention has passed since its deletion and no record is left (a late commit's, a batch another
    // instance holds), nothing of it can come back to purge.
    await executeOwned(
      connection,
      application.application_id,
      `delete from deleted_application where @owner and deleted_at < ? and not exists (select 1 from audit_log where @owner)`,
      [before],
    );
  }
  return runs;
}

/** Deletes `applicationId`'s records older than `before`, `batch` at a time; how many. */
async function purge(connection: Connection, applicationId: string, before: Date, batch: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = await executeOwned<{ id: string }[]>(
      connection,
      applicationId,
      `delete from audit_log where @owner and id in (
         select id from audit_log where @owner and id < ?::uuid order by id limit ? for update skip locked)
       returning id`,
      [firstIdAt(before), batch],
    );
    deleted += rows.length;
    if (rows.length < batch) return deleted;
  }
}

/** `everyMs` 0: never on this instance. Also as it starts: records outlived their retention on an instance that never
 *  stayed up `everyMs`. */
export class AuditRetentionJob extends PeriodicJob {
  constructor(orm: MikroORM, clock: Clock, everyMs: number) {
    super(
      'audit-retention',
      everyMs,
      async (log) => {
        const runs = await inJobSpan('audit-retention purge', () => purgeExpiredAuditRecords(orm, clock));
        if (runs.length > 0) log.info({ runs }, 'audit retention: expired records deleted');
      },
      { runsAtStart: true },
    );
  }
}
