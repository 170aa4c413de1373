import { Migration } from '@mikro-orm/migrations';

/**
 * An OAuth client chooses how its ID tokens are signed: ES256 (every client made before, and the default) or RS256,
 * which the key store signs with too (src/auth/signing-keys.ts). Signing keys need no change: `alg` was there.
 */
export class Migration0010OAuthClientIdTokenAlg extends Migration {
  override up(): void {
    this.addSql(
      "alter table oauth_client add column if not exists id_token_signing_alg text not null default 'ES256' check (id_token_signing_alg in ('ES256', 'RS256'));",
    );
  }
}
