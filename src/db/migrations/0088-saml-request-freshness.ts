import { Migration } from '@mikro-orm/migrations';

/**
 * What an AuthnRequest asked of the IdP's sign-in (src/domain/sign-in/saml.ts): `force_authn`, a fresh one, which the
 * assertion's AuthnInstant is then held to; `max_age`, the client's, in seconds. Requests open now asked nothing.
 */
export class Migration0088SamlRequestFreshness extends Migration {
  override up(): void {
    this.addSql(`
      alter table saml_request add column force_authn boolean not null default false;
      alter table saml_request add column max_age integer;
    `);
  }
}
