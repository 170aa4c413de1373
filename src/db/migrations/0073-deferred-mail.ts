import { Migration } from '@mikro-orm/migrations';

/** Mails a set-based change decides on (a tenant's deletion), rendered later by a job: thousands would not fit its request. */
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
