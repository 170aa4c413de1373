import { Migration } from '@mikro-orm/migrations';

/**
 * The lockout's failed sign-ins per account and client address (src/domain/sign-in/lockout.ts): how many in a row, when the
 * last one was, and since and until when the address is locked out of the account (`locked_at` set with
 * `locked_until` null: until an administrator unlocks the user). Keyed by the application first (the Citus rule), and
 * gone with the user.
 */
export class Migration0014SignInFailurePerAddress extends Migration {
  override up(): void {
    this.addSql(`
      create table sign_in_failure (
        application_id uuid not null,
        user_id uuid not null,
        address text not null,
        failures integer not null,
        last_failed_at timestamptz not null,
        locked_at timestamptz,
        locked_until timestamptz,
        primary key (application_id, user_id, address),
        foreign key (application_id, user_id) references app_user (application_id, id) on delete cascade deferrable initially deferred
      );
    `);
  }
}
