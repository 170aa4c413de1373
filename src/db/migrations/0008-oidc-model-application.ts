import { Migration } from '@mikro-orm/migrations';

/**
 * Deleting an application deletes the OP's models of its clients (src/domain/applications/applications.ts), found by
 * `application_id`: without this index, a scan of every application's sessions and tokens inside that transaction.
 */
export class Migration0008OidcModelApplication extends Migration {
  override up(): void {
    this.addSql('create index if not exists oidc_model_application_idx on oidc_model (application_id);');
  }
}
