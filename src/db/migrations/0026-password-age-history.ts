import { Migration } from '@mikro-orm/migrations';

/**
 * The password policy's `maxAge` and `historyCount` (src/domain/users/password-history.ts). `password_changed_at`:
 * when the user's password was last set; rows of before count from this migration, so that no user's password expires
 * the moment it runs. `password_history`: the Argon2 hashes of a user's last passwords (the current one included),
 * trimmed to the pool's `historyCount` on each change; they go with their user.
 */
export class Migration0026PasswordAgeHistory extends Migration {
  override up(): void {
    this.addSql(`
      alter table app_user add column password_changed_at timestamptz not null default now();
      create table password_history (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        user_id uuid not null,
        id uuid not null,
        password_hash text not null,
        created_at timestamptz not null default now(),
        primary key (application_id, user_id, id),
        foreign key (application_id, user_id) references app_user (application_id, id) on delete cascade deferrable initially deferred
      );
    `);
  }
}
