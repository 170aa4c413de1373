import { Migration } from '@mikro-orm/migrations';

/**
 * Account lockout of the hosted sign-in (src/domain/sign-in/lockout.ts): consecutive failed password sign-ins, when the
 * last one happened (the count starts again after the lockout policy's `resetAfterMinutes`), and until when a
 * `locked` user stays locked (null: until an administrator unlocks them).
 */
export class Migration0004SignInLockout extends Migration {
  override up(): void {
    this.addSql(`
      alter table app_user
        add column failed_sign_ins integer not null default 0,
        add column last_failed_sign_in_at timestamptz,
        add column locked_until timestamptz;
    `);
  }
}
