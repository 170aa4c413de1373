import { Migration } from '@mikro-orm/migrations';

/**
 * A TOTP secret or a recovery code copied by the isolation switch stays one secret: its `secret_id` or `code_id` goes
 * with the copy, and what spends it (an accepted step, a used code) spends it in every account holding it. Rows of
 * earlier copies get one id per secret: a factor's ciphertext is unique to its enrolment (a random nonce) and a copy
 * holds it verbatim; a code's copies hold its hash under their user's address.
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
