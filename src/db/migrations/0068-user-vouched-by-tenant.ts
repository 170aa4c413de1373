import { Migration } from '@mikro-orm/migrations';

/** The tenant whose administrator set a shared-pool user's unconfirmed address: a takeover keeps that tenant. */
export class Migration0068UserVouchedByTenant extends Migration {
  override up(): void {
    this.addSql(`alter table app_user add column vouched_by_tenant_id uuid;`);
  }
}
