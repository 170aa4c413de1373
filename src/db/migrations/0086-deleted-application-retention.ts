import { Migration } from '@mikro-orm/migrations';

/**
 * A deleted application's records are kept for the retention it had, then purged (src/domain/audit/retention.ts): its
 * deletion leaves here what the job needs. Applications deleted earlier are registered with the retention their
 * `application.deleted` record holds (90 days, the default, when it is gone) from their newest record, which is their
 * deletion's or a late one's: as if they were deleted under this release.
 */
export class Migration0086DeletedApplicationRetention extends Migration {
  override up(): void {
    this.addSql(`
      create table deleted_application (
        application_id uuid primary key,
        audit_retention_days integer not null check (audit_retention_days between 1 and 3650),
        deleted_at timestamptz not null
      );
      insert into deleted_application (application_id, audit_retention_days, deleted_at)
        select l.application_id,
               coalesce((select (d.before ->> 'auditRetentionDays')::integer from audit_log as d
                          where d.application_id = l.application_id and d.action = 'application.deleted'
                            and jsonb_typeof(d.before -> 'auditRetentionDays') = 'number'
                          order by d.id desc limit 1), 90),
               max(l.created_at)
          from audit_log as l
         where not exists (select 1 from application as a where a.id = l.application_id)
         group by l.application_id;
    `);
  }
}
