import { Migration } from '@mikro-orm/migrations';

/**
 * The notice to the address an account left carries a reset link that makes that address the account's again
 * (`restores_email`), proven as a factor's link is by the password the account had then (`proof_password_hash`), and
 * removes the second steps and linked accounts added since `restores_added_since`.
 */
export class Migration0082AddressRestoreLinks extends Migration {
  override up(): void {
    this.addSql(`
      alter table email_link_token add column if not exists restores_email text;
      alter table email_link_token add column if not exists restores_added_since timestamptz;
      alter table email_link_token add constraint email_link_token_restores_check check (
        (restores_email is null and restores_added_since is null)
        or (purpose = 'password_reset' and restores_added_since is not null and proof_password_hash is not null));
    `);
  }
}
