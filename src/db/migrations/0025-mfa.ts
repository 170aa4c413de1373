import { Migration } from '@mikro-orm/migrations';

/**
 * Multi-factor authentication (src/domain/mfa/): a user's factors (a TOTP secret, sealed with the stored-secrets box,
 * with the last time step it accepted so that a code works once; an e-mail one-time code factor, which holds no
 * secret), their recovery codes (SHA-256 only, single use) and the e-mail one-time code of a sign-in in progress
 * (SHA-256 only, one live per user, gone once used). Each goes with its user. `analytics_mfa_factors` goes: MFA
 * adoption is counted from the factors themselves (src/domain/analytics.ts), which a user's deletion or a change of
 * their tenants cannot leave behind.
 */
export class Migration0025Mfa extends Migration {
  override up(): void {
    this.addSql(`
      create table mfa_factor (
        application_id uuid not null,
        id uuid not null,
        user_id uuid not null,
        kind text not null check (kind in ('totp', 'email_otp')),
        secret_encrypted text,
        last_step bigint,
        created_at timestamptz not null default now(),
        primary key (application_id, id),
        foreign key (application_id, user_id) references app_user (application_id, id) on delete cascade,
        check ((kind = 'totp') = (secret_encrypted is not null))
      );
      create unique index mfa_factor_user_kind_idx on mfa_factor (application_id, user_id, kind);
      create table mfa_recovery_code (
        application_id uuid not null,
        user_id uuid not null,
        code_hash text not null,
        used_at timestamptz,
        primary key (application_id, user_id, code_hash),
        foreign key (application_id, user_id) references app_user (application_id, id) on delete cascade
      );
      create table mfa_email_code (
        application_id uuid not null,
        user_id uuid not null,
        code_hash text not null,
        expires_at timestamptz not null,
        primary key (application_id, user_id),
        foreign key (application_id, user_id) references app_user (application_id, id) on delete cascade
      );
      drop table analytics_mfa_factors;
    `);
  }
}
