import { Migration } from '@mikro-orm/migrations';

/**
 * A change to a user of the shared pool made with no tenant (the application's path) is also filed under the tenants
 * they belonged to, before or after it: their administrators' audit log shows it (src/domain/audit/search.ts). The
 * index serves a tenant's search of those records, newest first.
 */
export class Migration0070AuditLogMemberTenants extends Migration {
  override up(): void {
    this.addSql(`
      alter table audit_log add column member_tenant_ids uuid[];
      create index audit_log_member_tenants_idx on audit_log (application_id, id) where member_tenant_ids is not null;
    `);
  }
}
