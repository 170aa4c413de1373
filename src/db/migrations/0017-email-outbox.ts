import { Migration } from '@mikro-orm/migrations';

/**
 * The e-mail outbox: every mail, rendered, written in the transaction of the change that causes it, then delivered by
 * the outbox worker (src/domain/email/deliver.ts). `claimed_until` is a worker's lease on a row it is sending: a
 * process that dies mid-send leaves a lease that expires, and the row is sent again with the same `message_id`.
 */
export class Migration0017EmailOutbox extends Migration {
  override up(): void {
    this.addSql(`
      create table email_delivery (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        id uuid not null,
        tenant_id uuid,
        template_key text not null,
        to_address text not null,
        subject text not null,
        text_body text not null,
        html_body text not null,
        message_id text not null,
        status text not null check (status in ('queued', 'sent', 'failed')),
        attempts integer not null default 0,
        next_attempt_at timestamptz not null,
        claimed_until timestamptz,
        last_error text,
        provider_type text,
        note text,
        created_at timestamptz not null,
        sent_at timestamptz,
        primary key (application_id, id),
        foreign key (application_id, tenant_id) references tenant (application_id, id) on delete cascade deferrable initially deferred
      );
      -- A tenant's list (the tenant filter), in id order.
      create index email_delivery_tenant_idx on email_delivery (application_id, tenant_id, id);
      -- The worker's claim looks across applications for due mail: only queued rows, so the index stays small.
      create index email_delivery_due_idx on email_delivery (next_attempt_at) where status = 'queued';
    `);
  }
}
