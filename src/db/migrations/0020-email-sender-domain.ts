import { Migration } from '@mikro-orm/migrations';

/**
 * The sender domains (src/domain/email/sender-domain.ts): per owner of a provider (the application, `tenant_id` null,
 * or a tenant with its own) and From domain, the DKIM key the service signs that owner's SMTP mail with (the private
 * key sealed), and what the last check of its DNS records found (`last_check`).
 */
export class Migration0020EmailSenderDomain extends Migration {
  override up(): void {
    this.addSql(`
      create table email_sender_domain (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        id uuid not null,
        tenant_id uuid,
        domain text not null,
        dkim_selector text not null,
        dkim_public_key text not null,
        dkim_private_key text not null,
        last_check jsonb,
        verified_at timestamptz,
        checked_at timestamptz,
        created_at timestamptz not null,
        primary key (application_id, id),
        foreign key (application_id, tenant_id) references tenant (application_id, id) on delete cascade deferrable initially deferred
      );
      create unique index email_sender_domain_owner_uidx on email_sender_domain (application_id, tenant_id, domain) nulls not distinct;
    `);
  }
}
