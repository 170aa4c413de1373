import { Migration } from '@mikro-orm/migrations';

/**
 * The reset link of an `mfa_enrolled` mail names the factor it announces (an `mfa_factor` or `webauthn_credential` id,
 * so no foreign key): setting a password through it removes that factor. Recovery codes carry when they were issued,
 * so that the set shown to whoever enrolled it goes too; codes of before count as issued now, before any such factor.
 */
export class Migration0078EnrolmentLinks extends Migration {
  override up(): void {
    this.addSql(`
      alter table email_link_token add column if not exists removes_factor_id uuid;
      alter table mfa_recovery_code add column if not exists issued_at timestamptz not null default now();
    `);
  }
}
