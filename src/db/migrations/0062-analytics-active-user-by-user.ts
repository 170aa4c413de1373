import { Migration } from '@mikro-orm/migrations';

/** A user's deletion deletes their activity marks (removeActivityOfUsers): found by user, not by a scan of the application's. */
export class Migration0062AnalyticsActiveUserByUser extends Migration {
  override up(): void {
    this.addSql(`create index analytics_active_user_by_user on analytics_active_user (application_id, user_id)`);
  }
}
