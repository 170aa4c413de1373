import { Migration } from '@mikro-orm/migrations';

/**
 * Whose word an upstream provider's identities are taken on (src/domain/auth-providers/configurer.ts): the subjects of
 * the credentials that made it or last changed its config or secrets. Null for one made before: it then signs in only
 * accounts holding no permission of the management API, until an administrator changes it.
 */
export class Migration0066AuthProviderConfiguredBy extends Migration {
  override up(): void {
    this.addSql(`alter table auth_provider add column configured_by jsonb;`);
  }
}
