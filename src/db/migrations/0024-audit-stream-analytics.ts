import { Migration } from '@mikro-orm/migrations';

/**
 * The audit log's stream, retention and the analytics rollups.
 *
 * Stream (src/domain/audit/stream.ts): a record's place in the stream is `(tx, seq)`, its transaction's id and an
 * insertion sequence. Ids (UUIDv7, made by the application) and sequences are taken before commit, so they do not
 * sort in commit order; but every transaction still running has an id at or above the oldest running one
 * (`pg_snapshot_xmin`), so records below it are final, and a reader that goes no further never sees an earlier place
 * appear behind it. Each insert notifies `gatehouse_audit` with its application at commit (one per transaction and
 * application: PostgreSQL folds equal notifications), which wakes the instances' streams on a real server.
 *
 * Search: an index for a tenant's records by action.
 *
 * Retention: each application keeps its records `audit_retention_days` (default 90).
 *
 * Analytics (src/domain/analytics.ts): daily rollups written as events happen, each series read by one range of its
 * primary key. `scope_tenant_id` is the tenant a series counts, or the nil UUID for the whole application's series
 * (a primary key column cannot be null).
 */
export class Migration0024AuditStreamAnalytics extends Migration {
  override up(): void {
    this.addSql(`
      alter table application add column audit_retention_days integer not null default 90
        check (audit_retention_days between 1 and 3650);
      alter table audit_log add column tx xid8 not null default pg_current_xact_id(),
        add column seq bigint generated always as identity;
      create index audit_log_stream_idx on audit_log (application_id, tx, seq);
      -- A tenant's search by action (a tenant path or tenant-scoped key): 0019's action index would scan every tenant's.
      create index audit_log_tenant_action_idx on audit_log (application_id, tenant_id, action text_pattern_ops, id);
      create function audit_log_notify() returns trigger language plpgsql as $$
        begin
          perform pg_notify('gatehouse_audit', new.application_id::text);
          return null;
        end $$;
      create trigger audit_log_notify after insert on audit_log for each row execute function audit_log_notify();

      -- Who was active in a period (a day, an ISO week from Monday, a month), to count each user once; and the counts.
      create table analytics_active_user (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        scope_tenant_id uuid not null,
        period text not null check (period in ('day', 'week', 'month')),
        period_start date not null,
        user_id uuid not null,
        primary key (application_id, scope_tenant_id, period, period_start, user_id)
      );
      create table analytics_active_users (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        scope_tenant_id uuid not null,
        period text not null check (period in ('day', 'week', 'month')),
        period_start date not null,
        users integer not null,
        primary key (application_id, scope_tenant_id, period, period_start)
      );
      create table analytics_sign_ins (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        scope_tenant_id uuid not null,
        day date not null,
        method text not null,
        succeeded integer not null default 0,
        failed integer not null default 0,
        primary key (application_id, scope_tenant_id, day, method)
      );
      -- Users holding a factor, by factor, and under '*' users holding any: fed by the MFA enrolment code.
      create table analytics_mfa_factors (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        scope_tenant_id uuid not null,
        factor text not null,
        users integer not null check (users >= 0),
        primary key (application_id, scope_tenant_id, factor)
      );
    `);
  }
}
