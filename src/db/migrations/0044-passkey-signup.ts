import { Migration } from '@mikro-orm/migrations';

/**
 * A passkey sign-up (src/domain/webauthn/sign-up.ts) proves its address with a mailed code first: its row is then
 * `proven_at`, and its id becomes the new user's, named by the passkey's registration before the account exists. So a
 * challenge's user need not exist yet: challenges live ten minutes and are swept at every issue, with no cascade.
 */
export class Migration0044PasskeySignup extends Migration {
  override up(): void {
    this.addSql(`
      alter table email_sign_in drop constraint email_sign_in_method_check;
      alter table email_sign_in add constraint email_sign_in_method_check check (method in ('magic_link', 'email_code', 'passkey_signup'));
      alter table email_sign_in add column proven_at timestamptz;
      alter table webauthn_challenge drop constraint webauthn_challenge_application_id_user_id_fkey;
    `);
  }
}
