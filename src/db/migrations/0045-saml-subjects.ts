import { Migration } from '@mikro-orm/migrations';

/**
 * SAML single logout (src/domain/sign-in/saml-logout.ts): an IdP's LogoutRequest names its subject by NameID only, which
 * need not be the e-mail the sign-in matched. Each SAML sign-in records its NameID's user here until a browser session
 * it began could have ended (LOGOUT_SUBJECT_DAYS), swept as new ones are recorded.
 */
export class Migration0045SamlSubjects extends Migration {
  override up(): void {
    this.addSql(`
      create table saml_subject (
        application_id uuid not null,
        provider_id uuid not null,
        name_id text not null,
        user_id uuid not null,
        expires_at timestamptz not null,
        primary key (application_id, provider_id, name_id),
        foreign key (application_id, provider_id) references auth_provider (application_id, id) on delete cascade,
        foreign key (application_id, user_id) references app_user (application_id, id) on delete cascade
      );
      create index saml_subject_expiry_idx on saml_subject (application_id, expires_at);
    `);
  }
}
