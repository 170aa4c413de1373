import { Migration } from '@mikro-orm/migrations';

/**
 * A tenant's sign-in revoked in a browser session that stands for other tenants (src/domain/sessions/revoked-sign-ins.ts):
 * one row per OP session (`uid`), user and tenant, so that the browser signs the user in to that tenant again only with
 * a credential. Outside the OP's session, whose payload keeps only its own fields; swept once the session is gone.
 */
export class Migration0049RevokedSignIns extends Migration {
  override up(): void {
    this.addSql(`
      create table revoked_sign_in (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        op_session_uid text not null,
        user_id uuid not null,
        tenant_id uuid not null,
        expires_at timestamptz not null,
        primary key (application_id, op_session_uid, user_id, tenant_id),
        foreign key (application_id, user_id) references app_user (application_id, id) on delete cascade deferrable initially deferred,
        foreign key (application_id, tenant_id) references tenant (application_id, id) on delete cascade deferrable initially deferred
      );
      create index revoked_sign_in_expires_idx on revoked_sign_in (expires_at);
    `);
  }
}
