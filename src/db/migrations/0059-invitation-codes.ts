import { Migration } from '@mikro-orm/migrations';

/**
 * A code mailed from an invitation's page (src/domain/invitations/proof.ts) is an `email_sign_in` row of method
 * `invitation_code`: the page that asked it is the invitation (`invitation_id`), not an OAuth client (`client_id`), one
 * of the two as a link's opener is (migration 0058).
 */
export class Migration0059InvitationCodes extends Migration {
  override up(): void {
    this.addSql(`
      alter table email_sign_in add column invitation_id uuid;
      alter table email_sign_in alter column client_id drop not null;
      alter table email_sign_in add constraint email_sign_in_opener_check check ((client_id is null) <> (invitation_id is null));
      alter table email_sign_in drop constraint email_sign_in_method_check;
      alter table email_sign_in add constraint email_sign_in_method_check check (method in ('magic_link', 'email_code', 'passkey_signup', 'invitation_code'));
    `);
  }
}
