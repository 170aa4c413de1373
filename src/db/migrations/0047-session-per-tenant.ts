import { Migration } from '@mikro-orm/migrations';

/**
 * `user_session` indexes each tenant's sign-in in a browser session (src/domain/sessions/browser-sessions.ts): one row
 * per OP session, user and tenant of the grants made in it (null: the application's own), rather than one per OP
 * session under its first tenant. A row of today is the row of its tenant, so every row stays valid.
 */
export class Migration0047SessionPerTenant extends Migration {
  override up(): void {
    this.addSql(`
      alter table user_session drop constraint user_session_application_id_op_session_uid_user_id_key;
      alter table user_session add constraint user_session_sign_in_key unique nulls not distinct (application_id, op_session_uid, user_id, tenant_id);
    `);
  }
}
