import { Migration } from '@mikro-orm/migrations';

/**
 * The OAuth client an invitation leads its invitee to once accepted (src/hosted/invitation.ts). No foreign key: the
 * client is read at acceptance, and one revoked or deleted since leads nowhere, as none does.
 */
export class Migration0055InvitationClient extends Migration {
  override up(): void {
    this.addSql(`alter table invitation add column client_id uuid;`);
  }
}
