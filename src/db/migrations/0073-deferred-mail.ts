import { Migration } from '@mikro-orm/migrations';

/**
 * Mails a set-based change decides to send, one row per recipient written in the change's transaction, rendered and
 * moved to the outbox by a job a batch at a time (src/domain/email/deferred-mail.ts): a tenant's deletion mails each
 * user of its isolated pool without rendering thousands of mails in its request. The deleting request's actor is kept
 * for the outbox's `email_delivery.queued` records. Drained by the job, it holds rows for seconds.
 */
export class Migration0073DeferredMail extends Migration {
  override up(): void {
    this.addSql(`
      create table deferred_mail (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        id uuid not null,
        template_key text not null,
        to_address text not null,
        recipient_name text,
        locale text,
        request_id text not null,
        actor_type text not null,
        actor_id text not null,
        api_key_id uuid,
        primary key (application_id, id)
      );
    `);
  }
}
