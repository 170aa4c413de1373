import { Migration } from '@mikro-orm/migrations';

/**
 * A sign-in client's `initiate_login_uri` (OIDC Registration 2): the page of its application that starts a sign-in,
 * which links back to the client lead to (clientHomeUrl). Null: none registered, the links guess as before.
 */
export class Migration0057OAuthClientInitiateLoginUri extends Migration {
  override up(): void {
    this.addSql('alter table oauth_client add column initiate_login_uri text;');
  }
}
