import { Migration } from '@mikro-orm/migrations';

/**
 * A rotated SAML SP key (src/domain/sign-in/saml-keys.ts): the key pair it replaced, sealed as the current one is,
 * and when that one stops decrypting and leaves the metadata. All three set, or none.
 */
export class Migration0037SamlSpKeyRotation extends Migration {
  override up(): void {
    this.addSql(`
      alter table saml_sp_key
        add column previous_private_key text,
        add column previous_certificate text,
        add column previous_expires_at timestamptz,
        add constraint saml_sp_key_previous_whole check (
          (previous_private_key is null) = (previous_certificate is null) and (previous_private_key is null) = (previous_expires_at is null)
        );
    `);
  }
}
