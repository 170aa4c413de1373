import { Migration } from '@mikro-orm/migrations';

/**
 * A signing key can be revoked (`gatehouse rotate-signing-key --revoke`, a leak): it then neither signs nor verifies,
 * where a retired one verifies until the tokens it signed expire (src/auth/signing-keys.ts).
 */
export class Migration0011SigningKeyRevoked extends Migration {
  override up(): void {
    this.addSql('alter table signing_key drop constraint if exists signing_key_status_check;');
    this.addSql("alter table signing_key add constraint signing_key_status_check check (status in ('active', 'retired', 'revoked'));");
  }
}
