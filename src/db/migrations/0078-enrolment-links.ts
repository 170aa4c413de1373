import { Migration } from '@mikro-orm/migrations';

/**
 * The reset link of an `mfa_enrolled` mail names the factor it announces (an `mfa_factor` or `webauthn_credential` id,
 * so no foreign key): setting a password through it removes that factor, once its user proves the password the account
 * had when the link was issued (`proof_password_hash`, tried at most five times: `proof_failures`). Recovery codes carry
 * when they were issued, so that the set shown to whoever enrolled it goes too; codes of before count as issued now.
 */
export class Migration0078EnrolmentLinks extends Migration {
  override up(): void {
    this.addSql(`
      alter table email_link_token add column if not exists removes_factor_id uuid;
      alter table email_link_token add column if not exists proof_password_hash text;
      alter table email_link_token add column if not exists proof_failures integer not null default 0;
      alter table mfa_recovery_code add column if not exists issued_at timestamptz not null default now();
    `);
  }
}
