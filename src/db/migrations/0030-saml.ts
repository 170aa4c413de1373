import { Migration } from '@mikro-orm/migrations';

/**
 * SAML sign-in (src/domain/sign-in/saml.ts). `saml_request`: each AuthnRequest sent for a hosted sign-in, until its
 * response comes back (its `InResponseTo`) or it expires, with the interaction it continues and where that interaction
 * lives. `saml_assertion`: the ids of the assertions accepted, kept until the assertion expires, so that none is
 * accepted twice. Both go with their provider.
 */
export class Migration0030Saml extends Migration {
  override up(): void {
    this.addSql(`
      create table saml_request (
        application_id uuid not null,
        provider_id uuid not null,
        id text not null,
        interaction_uid text not null,
        client_id text not null,
        -- The origin of the surface the sign-in started on (the service's, or a custom domain's): the response goes back there.
        return_origin text not null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        primary key (application_id, provider_id, id),
        foreign key (application_id, provider_id) references auth_provider (application_id, id) on delete cascade
      );
      create index saml_request_expiry_idx on saml_request (application_id, expires_at);
      create table saml_assertion (
        application_id uuid not null,
        provider_id uuid not null,
        id text not null,
        expires_at timestamptz not null,
        primary key (application_id, provider_id, id),
        foreign key (application_id, provider_id) references auth_provider (application_id, id) on delete cascade
      );
      create index saml_assertion_expiry_idx on saml_assertion (application_id, expires_at);
    `);
  }
}
