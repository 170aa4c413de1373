import { Migration } from '@mikro-orm/migrations';

/**
 * The invitation a mail carries the link of, so that a revoke or resend withdraws its mail still queued (`withdrawn`:
 * why; the worker fails an attempt under way for it rather than retry it).
 */
export class Migration0076EmailDeliveryWithdrawn extends Migration {
  override up(): void {
    this.addSql(`
      alter table email_delivery add column if not exists invitation_id uuid;
      alter table email_delivery add column if not exists withdrawn text;
      create index if not exists email_delivery_invitation_idx on email_delivery (application_id, invitation_id) where invitation_id is not null;
    `);
  }
}
