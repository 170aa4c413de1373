import { Migration } from '@mikro-orm/migrations';

/**
 * A rotated-in signing key is published before it signs (src/auth/signing-keys.ts): `signs_from` is when it starts
 * signing; null (every key made before) signs from its creation.
 */
export class Migration0009SigningKeySignsFrom extends Migration {
  override up(): void {
    this.addSql('alter table signing_key add column if not exists signs_from timestamptz;');
  }
}
