import { Migration } from '@mikro-orm/migrations';

/**
 * The account a mail is to, so that the user's suspension or deletion withdraws their mail still queued (its links end
 * with them). No foreign key: a deleted account's mails stay in the outbox, its `account_deleted` notice among them.
 */
export class Migration0081EmailDeliveryUser extends Migration {
  override up(): void {
    this.addSql(`
      alter table email_delivery add column if not exists user_id uuid;
      create index if not exists email_delivery_user_idx on email_delivery (application_id, user_id) where user_id is not null and status = 'queued';
    `);
  }
}
