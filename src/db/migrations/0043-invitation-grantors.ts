import { Migration } from '@mikro-orm/migrations';

/**
 * Whose rights an invitation's roles are given with (src/domain/invitations/accept.ts): the subjects of the credentials
 * that sent or last resent it. An earlier invitation's are its sender's, the one subject its row names.
 */
export class Migration0043InvitationGrantors extends Migration {
  override up(): void {
    this.addSql(`
      alter table invitation add column granted_by jsonb not null default '[]';
      update invitation set granted_by = jsonb_build_array(jsonb_build_object('type', invited_by_type, 'id', invited_by_id))
        where invited_by_type in ('user', 'm2m_credential', 'api_key', 'operator');
      alter table invitation alter column granted_by drop default;
    `);
  }
}
