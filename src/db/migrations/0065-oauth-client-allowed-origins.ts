import { Migration } from '@mikro-orm/migrations';

/** A public client's "Allowed Origins (CORS)": origins beyond its redirect URIs' that the OP answers with CORS. */
export class Migration0065OAuthClientAllowedOrigins extends Migration {
  override up(): void {
    this.addSql(`alter table oauth_client add column allowed_origins text[] not null default '{}';`);
  }
}
