import { Migration } from '@mikro-orm/migrations';

/**
 * Whether a user was locked, the lock still running, when suspended (src/domain/users/users.ts): the suspension takes
 * the status, and a lock without an end (`locked_until` null) would otherwise be lost to an activation.
 */
export class Migration0036SuspendedLock extends Migration {
  override up(): void {
    this.addSql(`alter table app_user add column locked_when_suspended boolean not null default false;`);
  }
}
