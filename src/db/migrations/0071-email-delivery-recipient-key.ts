import { Migration } from '@mikro-orm/migrations';

/**
 * The recipient's mailbox key (normalizeEmail: NFC, case-folded, the domain in IDNA ASCII), by which the mails anyone may
 * ask for are counted per address (flow-mail.ts): `lower(to_address)` told one mailbox's spellings apart (its domain in
 * Punycode or Unicode, decomposed, upper case beyond ASCII), each counted on its own. Only the last hour's mails count:
 * older rows keep no key.
 */
export class Migration0071EmailDeliveryRecipientKey extends Migration {
  override up(): void {
    this.addSql(`
      alter table email_delivery add column to_key text;
      update email_delivery set to_key = lower(to_address) where created_at > now() - interval '1 hour';
      create index email_delivery_recipient_key_idx on email_delivery (application_id, to_key, id);
    `);
  }
}
