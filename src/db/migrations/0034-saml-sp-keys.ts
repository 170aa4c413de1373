import { Migration } from '@mikro-orm/migrations';

/**
 * The key pair of each `saml` provider as a service provider (src/domain/sign-in/saml-keys.ts): its private key
 * (sealed with the service's secret), which signs AuthnRequests and decrypts the assertions IdPs encrypt to it, and
 * its self-signed certificate, published in the SP's metadata. Made at first need; goes with its provider.
 */
export class Migration0034SamlSpKeys extends Migration {
  override up(): void {
    this.addSql(`
      create table saml_sp_key (
        application_id uuid not null,
        provider_id uuid not null,
        private_key text not null,
        certificate text not null,
        created_at timestamptz not null,
        primary key (application_id, provider_id),
        foreign key (application_id, provider_id) references auth_provider (application_id, id) on delete cascade
      );
    `);
  }
}
