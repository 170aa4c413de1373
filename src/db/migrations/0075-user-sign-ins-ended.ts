import { Migration } from '@mikro-orm/migrations';

/**
 * How often the user's sign-ins were ended (src/domain/sessions/end-sessions.ts): sealed into each sign-in's proof, so
 * a proof made before a suspension, a sign-out everywhere or a deletion no longer finishes its sign-in after it.
 */
export class Migration0075UserSignInsEnded extends Migration {
  override up(): void {
    this.addSql(`alter table app_user add column if not exists sign_ins_ended integer not null default 0;`);
  }
}
