import { Migration } from '@mikro-orm/migrations';

/** The mails queued to one address in the last hour, counted before each one anyone may ask for (flow-mail.ts). */
export class Migration0040EmailDeliveryRecipient extends Migration {
  override up(): void {
    this.addSql('create index email_delivery_recipient_idx on email_delivery (application_id, lower(to_address), id);');
  }
}
