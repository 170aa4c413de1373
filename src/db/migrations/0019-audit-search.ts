import { Migration } from '@mikro-orm/migrations';

/**
 * Audit records you can search (src/domain/audit/search.ts): where each request came from (its client address and
 * user agent; none for records made before this migration, or outside a request), whether the event succeeded, and
 * an index per filter, each leading with the application and ending with the id the pages run on (newest first).
 * `text_pattern_ops`: an action filter may be a `resource.*` prefix, a LIKE whatever the collation.
 */
export class Migration0019AuditSearch extends Migration {
  override up(): void {
    this.addSql(`
      alter table audit_log add column ip text, add column user_agent text,
        add column outcome text not null default 'success' check (outcome in ('success', 'failure'));
      create index audit_log_action_idx on audit_log (application_id, action text_pattern_ops, id);
      create index audit_log_actor_idx on audit_log (application_id, actor_id, id);
      create index audit_log_target_idx on audit_log (application_id, target_id, id);
    `);
  }
}
