import { Migration } from '@mikro-orm/migrations';

/**
 * A NameID is remembered with each user it signed in as (src/domain/sign-in/saml-logout.ts): in an isolated
 * application the application's SAML provider signs one NameID in to a user of each tenant's pool that inherits it,
 * and the IdP's LogoutRequest for it ends them all.
 */
export class Migration0056SamlSubjectUsers extends Migration {
  override up(): void {
    this.addSql(`alter table saml_subject drop constraint saml_subject_pkey, add primary key (application_id, provider_id, name_id, user_id);`);
  }
}
