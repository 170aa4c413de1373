import { Migration } from '@mikro-orm/migrations';

/**
 * A link remembers the page it was asked from: a sign-in's OAuth client (`client_id`), or an invitation's page
 * (`invitation_id`), whose id stood in the client's column before. No foreign key: an invitation deleted since still
 * names where the link was asked, as a deleted client does.
 */
export class Migration0058LinkOpeners extends Migration {
  override up(): void {
    this.addSql(`
      alter table email_link_token add column invitation_id uuid;
      alter table email_link_token alter column client_id drop not null;
      update email_link_token as t set invitation_id = t.client_id, client_id = null
        from invitation as i where i.application_id = t.application_id and i.id = t.client_id;
      alter table email_link_token add constraint email_link_token_opener_check check ((client_id is null) <> (invitation_id is null));
    `);
  }
}
