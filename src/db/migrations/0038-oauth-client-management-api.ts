import { Migration } from '@mikro-orm/migrations';

/**
 * Sign-in clients whose users' tokens may be for the management API (src/oidc/configuration.ts): none until someone
 * holding every permission says so, since such a client's tokens act with any signing-in user's permissions.
 */
export class Migration0038OAuthClientManagementApi extends Migration {
  override up(): void {
    this.addSql('alter table oauth_client add column management_api boolean not null default false;');
  }
}
