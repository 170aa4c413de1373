import { Migration } from '@mikro-orm/migrations';

/** Mails anyone may ask for are counted per mailbox (normalizeEmail), not per spelling; only the last hour's need a key. */
export class Migration0071EmailDeliveryRecipientKey extends Migration {
  override up(): void {
    this.addSql(`
      alter table email_delivery add column to_key text;
      update email_delivery set to_key = lower(to_address) where created_at > now() - interval '1 hour';
      create index email_delivery_recipient_key_idx on email_delivery (application_id, to_key, id);
    `);
  }
}
