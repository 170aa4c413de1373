import { Migration } from '@mikro-orm/migrations';

/**
 * What migrations 0021, 0023, 0024, 0045 and 0051 gained after they were released: a database that ran them before
 * has none of it (no `known_browser`: a password sign-in with `notifyNewBrowser` on failed). Each object as its
 * migration defines it, made only where missing, so a database that has them all is left as it is.
 */
export class Migration0063EditedMigrationsCatchUp extends Migration {
  override up(): void {
    this.addSql(`
      create table if not exists known_browser (
        application_id uuid not null,
        user_id uuid not null,
        browser_hash text not null,
        first_seen_at timestamptz not null default now(),
        primary key (application_id, user_id, browser_hash),
        foreign key (application_id, user_id) references app_user (application_id, id) on delete cascade
      );

      do $$
      begin
        if not exists (select 1 from information_schema.columns
                        where table_schema = current_schema() and table_name = 'invitation' and column_name = 'expires_in_days') then
          alter table invitation add column expires_in_days integer;
          update invitation set expires_in_days = least(30, greatest(1, ceil(extract(epoch from expires_at - created_at) / 86400)::integer));
          alter table invitation alter column expires_in_days set not null;
        end if;
        if not exists (select 1 from pg_constraint where conrelid = 'invitation'::regclass and conname = 'invitation_expires_in_days_check') then
          alter table invitation add constraint invitation_expires_in_days_check check (expires_in_days between 1 and 30);
        end if;
      end
      $$;

      create index if not exists audit_log_tenant_action_idx on audit_log (application_id, tenant_id, action text_pattern_ops, id);

      alter table saml_subject add column if not exists name_id_format text;
      create index if not exists saml_subject_user_idx on saml_subject (application_id, user_id);
      create table if not exists saml_logout (
        application_id uuid not null,
        provider_id uuid not null,
        id text not null,
        return_to text not null,
        expires_at timestamptz not null,
        primary key (application_id, provider_id, id),
        foreign key (application_id, provider_id) references auth_provider (application_id, id) on delete cascade
      );
      create index if not exists saml_logout_expiry_idx on saml_logout (application_id, expires_at);

      create index if not exists email_link_token_tenant_idx on email_link_token (application_id, tenant_id) where tenant_id is not null;
    `);
  }
}
