import { Migration } from '@mikro-orm/migrations';

/**
 * The API key a request authenticated with, beside its actor: with a Bearer token too, the actor is the token's user
 * (or M2M credential) and the key, the authentication (spec: Authentication), would otherwise be lost. Null for
 * Bearer tokens alone, the hosted pages and the system; older records stay null.
 */
export class Migration0006AuditApiKey extends Migration {
  override up(): void {
    this.addSql('alter table audit_log add column api_key_id uuid;');
  }
}
