import { Migration } from '@mikro-orm/migrations';

/**
 * When the link or code a mail carries stops working: the outbox withdraws the mail instead of sending it once that
 * has passed (deliver.ts's claim). Null: a mail whose link does not expire, or a notice whose news outlives its link.
 * Read only on rows a claim already holds, so no index.
 */
export class Migration0083EmailDeliveryLinkExpiry extends Migration {
  override up(): void {
    this.addSql(`
      alter table email_delivery add column if not exists link_expires_at timestamptz;
    `);
  }
}
