import { Migration } from '@mikro-orm/migrations';
import { normalizeEmail } from '../../domain/users/email-key.ts';

interface LiveRestoreLink {
  readonly application_id: string;
  readonly id: string;
  readonly restores_email: string;
}

/**
 * A restore link (migration 0082) also opens with a password the account replaced shortly before the change of address:
 * `replaced_password` keeps each replaced hash for that window only (`expires_at`, deleted by the storage sweep), and the
 * link copies those of its window (`restores_earlier_hashes`). While a live restore link names an address
 * (`restores_email_normalized`), no other account of its user's pool takes it: the links live at the upgrade get the
 * key too, by normalizeEmail (JavaScript: no SQL expression gives the same key for every address).
 */
export class Migration0084RestoreEarlierPasswords extends Migration {
  // Statements run in turn, in the migration's transaction: addSql's would run after the data step, which needs the column.
  override async up(): Promise<void> {
    await this.execute(`
      create table if not exists replaced_password (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        user_id uuid not null,
        id uuid not null,
        password_hash text not null,
        replaced_at timestamptz not null default now(),
        expires_at timestamptz not null,
        primary key (application_id, user_id, id),
        foreign key (application_id, user_id) references app_user (application_id, id) on delete cascade deferrable initially deferred
      );
      create index if not exists replaced_password_expiry_idx on replaced_password (application_id, expires_at);
      alter table email_link_token add column if not exists restores_earlier_hashes text[] not null default '{}';
      alter table email_link_token add column if not exists restores_email_normalized text;
      create index if not exists email_link_token_restores_idx on email_link_token (application_id, restores_email_normalized)
        where restores_email_normalized is not null and used_at is null;
    `);
    const live = (await this.execute(
      `select application_id, id, restores_email from email_link_token
        where restores_email is not null and restores_email_normalized is null and used_at is null and expires_at > now()`,
    )) as unknown as LiveRestoreLink[];
    for (const link of live) {
      await this.execute('update email_link_token set restores_email_normalized = ? where application_id = ? and id = ?', [normalizeEmail(link.restores_email), link.application_id, link.id]);
    }
  }
}
