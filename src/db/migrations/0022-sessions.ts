import { Migration } from '@mikro-orm/migrations';

/**
 * Sessions (src/domain/sessions/): `user_session` indexes the OP's browser sessions (`oidc_model`, model `Session`,
 * found by its `uid`) by application, tenant and user, with what the OP does not keep of a sign-in (its public id, the
 * signed-in tenant and client, client address, user agent, last activity). It is a lookup, not a second store: a row
 * counts only while the OP's session it names stands for the same account (src/domain/sessions/sessions.ts).
 * Users gain `metadata`, an application's own data about them (PATCH /users/{userId}).
 */
export class Migration0022Sessions extends Migration {
  override up(): void {
    this.addSql(`
      create table user_session (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        id uuid not null,
        op_session_uid text not null,
        user_id uuid not null,
        tenant_id uuid,
        client_id uuid not null,
        ip text,
        user_agent text,
        methods text[] not null,
        created_at timestamptz not null,
        last_active_at timestamptz not null,
        expires_at timestamptz not null,
        primary key (application_id, id),
        unique (application_id, op_session_uid, user_id),
        foreign key (application_id, user_id) references app_user (application_id, id) on delete cascade deferrable initially deferred,
        foreign key (application_id, tenant_id) references tenant (application_id, id) on delete cascade deferrable initially deferred
      );
      create index user_session_user_idx on user_session (application_id, user_id, id);
      create index user_session_tenant_idx on user_session (application_id, tenant_id, id);
      create index user_session_active_idx on user_session (application_id, last_active_at);
      create index user_session_expires_idx on user_session (expires_at);
      alter table app_user add column metadata jsonb not null default '{}';
    `);
  }
}
