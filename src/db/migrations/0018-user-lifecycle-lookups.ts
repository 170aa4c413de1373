import { Migration } from '@mikro-orm/migrations';

/**
 * Lookups of users' lifecycle (src/domain/users/users.ts): a user's grants and browser sessions, found by the account
 * they name, which a suspension deletes in one statement without reading every stored model; and users by the start of
 * their e-mail key, which the users list searches (`text_pattern_ops`: a LIKE prefix whatever the collation). `if not
 * exists`: a database may have run this as `0018-oidc-model-account`, which made the first index alone.
 */
export class Migration0018UserLifecycleLookups extends Migration {
  override up(): void {
    this.addSql(`create index if not exists oidc_model_account_idx on oidc_model ((payload->>'accountId')) where model in ('Grant', 'Session');`);
    this.addSql('create index if not exists app_user_email_prefix_idx on app_user (application_id, email_normalized text_pattern_ops);');
  }
}
