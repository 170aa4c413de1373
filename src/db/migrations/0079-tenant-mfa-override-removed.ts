import { Migration } from '@mikro-orm/migrations';

/**
 * When an isolated tenant's MFA policy override was last removed: the application's policy then judges its sessions,
 * and one signed in before it owes the step as under a policy changed then (src/domain/policies/policies.ts).
 */
export class Migration0079TenantMfaOverrideRemoved extends Migration {
  override up(): void {
    this.addSql(`alter table tenant add column if not exists mfa_override_removed_at timestamptz;`);
  }
}
