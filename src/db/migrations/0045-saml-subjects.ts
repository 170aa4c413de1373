import { Migration } from '@mikro-orm/migrations';

/**
 * SAML single logout (src/domain/sign-in/saml-logout.ts). An IdP's LogoutRequest names its subject by NameID only,
 * which need not be the e-mail the sign-in matched, and ours must name it as the IdP did: `saml_subject` keeps each
 * SAML sign-in's NameID (and format) with its user until a browser session it began could have ended; `saml_logout`
 * each LogoutRequest we send, with where the browser goes once the IdP answers it. Both expire and are swept.
 */
export class Migration0045SamlSubjects extends Migration {
  override up(): void {
    this.addSql(`
      create table saml_subject (
        application_id uuid not null,
        provider_id uuid not null,
        name_id text not null,
        name_id_format text,
        user_id uuid not null,
        expires_at timestamptz not null,
        primary key (application_id, provider_id, name_id),
        foreign key (application_id, provider_id) references auth_provider (application_id, id) on delete cascade,
        foreign key (application_id, user_id) references app_user (application_id, id) on delete cascade
      );
      create index saml_subject_expiry_idx on saml_subject (application_id, expires_at);
      create index saml_subject_user_idx on saml_subject (application_id, user_id);
      create table saml_logout (
        application_id uuid not null,
        provider_id uuid not null,
        id text not null,
        return_to text not null,
        expires_at timestamptz not null,
        primary key (application_id, provider_id, id),
        foreign key (application_id, provider_id) references auth_provider (application_id, id) on delete cascade
      );
      create index saml_logout_expiry_idx on saml_logout (application_id, expires_at);
    `);
  }
}
