import { Migration } from '@mikro-orm/migrations';

/**
 * One auth provider per type and scope (the application, or one tenant); OAuth once per provider, `generic` OAuth
 * any number of times (src/domain/auth-providers/config.ts, providerSlot). The domain checks first for a helpful
 * 409; this index settles concurrent creations.
 */
export class Migration0002AuthProviderSlot extends Migration {
  override up(): void {
    this.addSql(`
      create unique index auth_provider_slot_uidx on auth_provider (
        application_id,
        tenant_id,
        (case when type = 'oauth' then 'oauth:' || (config ->> 'provider') else type end)
      ) nulls not distinct
      where not (type = 'oauth' and config ->> 'provider' = 'generic');
    `);
  }
}
