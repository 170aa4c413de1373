import { Migration } from '@mikro-orm/migrations';

/**
 * Links that change their user's e-mail address (src/domain/users/link-tokens.ts, `email_change`): mailed to the new
 * address, which the link carries, and nothing else does.
 */
export class Migration0035EmailChangeLinks extends Migration {
  override up(): void {
    this.addSql(`
      alter table email_link_token drop constraint email_link_token_purpose_check;
      alter table email_link_token add constraint email_link_token_purpose_check check (purpose in ('verify_email', 'password_reset', 'email_change'));
      alter table email_link_token add column new_email text;
      alter table email_link_token add constraint email_link_token_new_email_check check ((purpose = 'email_change') = (new_email is not null));
    `);
  }
}
