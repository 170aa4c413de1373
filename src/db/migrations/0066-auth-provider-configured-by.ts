import { Migration } from '@mikro-orm/migrations';

/** Whose word a provider's identities are taken on (src/domain/auth-providers/configurer.ts); null: made before. */
export class Migration0066AuthProviderConfiguredBy extends Migration {
  override up(): void {
    this.addSql(`alter table auth_provider add column configured_by jsonb;`);
  }
}
