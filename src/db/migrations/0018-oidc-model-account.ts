import { Migration } from '@mikro-orm/migrations';

/**
 * A user's grants and browser sessions, found by the account they name: suspending a user deletes them in one
 * statement (src/domain/users/users.ts) without reading every stored model.
 */
export class Migration0018OidcModelAccount extends Migration {
  override up(): void {
    this.addSql(`create index oidc_model_account_idx on oidc_model ((payload->>'accountId')) where model in ('Grant', 'Session');`);
  }
}
