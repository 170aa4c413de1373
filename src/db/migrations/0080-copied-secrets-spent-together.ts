import { Migration } from '@mikro-orm/migrations';

/**
 * A secret copied by the isolation switch is spent in every copy: its `secret_id` or `code_id` goes with it. Earlier
 * copies are linked by their ciphertext (unique per enrolment: a random nonce) or by code hash and address.
 */
export class Migration0080CopiedSecretsSpentTogether extends Migration {
  override up(): void {
    this.addSql(`
      alter table mfa_factor add column if not exists secret_id uuid;
      update mfa_factor set secret_id = md5(application_id::text || ':' || coalesce(secret_encrypted, id::text))::uuid where secret_id is null;
      alter table mfa_factor alter column secret_id set default gen_random_uuid(), alter column secret_id set not null;
      create index if not exists mfa_factor_secret_idx on mfa_factor (application_id, secret_id);

      alter table mfa_recovery_code add column if not exists code_id uuid;
      update mfa_recovery_code as c set code_id = md5(c.application_id::text || ':' || u.email_normalized || ':' || c.code_hash)::uuid
        from app_user as u
       where u.application_id = c.application_id and u.id = c.user_id and c.code_id is null;
      alter table mfa_recovery_code alter column code_id set default gen_random_uuid(), alter column code_id set not null;
      create index if not exists mfa_recovery_code_code_idx on mfa_recovery_code (application_id, code_id);
    `);
  }
}
