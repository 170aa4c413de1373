import { Migration } from '@mikro-orm/migrations';

/** The audit search's `apiKey` filter: what was done with one key, as the actor or beside a Bearer token. */
export class Migration0067AuditLogApiKey extends Migration {
  override up(): void {
    this.addSql(`create index audit_log_api_key_idx on audit_log (application_id, api_key_id, id) where api_key_id is not null;`);
  }
}
