import { Migration } from '@mikro-orm/migrations';

/**
 * OAuth 2.0 / OIDC: the application's clients (and M2M credentials), and the OP's own short-lived models
 * (authorization codes, refresh tokens, sessions, interactions, device codes, grants) stored by the adapter of
 * src/oidc/. `oidc_model` carries `application_id` where the model belongs to one (null before a client is known).
 */
export class Migration0003OAuth extends Migration {
  override up(): void {
    this.addSql(`
      create table oauth_client (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        id uuid not null,
        tenant_id uuid,
        type text not null check (type in ('web', 'spa', 'native', 'device', 'm2m')),
        name text not null,
        redirect_uris text[] not null default '{}',
        post_logout_redirect_uris text[] not null default '{}',
        auth_method text not null check (auth_method in ('none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt')),
        secret_encrypted text,
        previous_secret_encrypted text,
        previous_secret_expires_at timestamptz,
        jwks jsonb,
        permissions text[] not null default '{}',
        revoked_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        primary key (application_id, id),
        foreign key (application_id, tenant_id) references tenant (application_id, id) on delete cascade deferrable initially deferred
      );
      -- The OP knows a client only by its client_id (= id).
      create index oauth_client_id_idx on oauth_client (id);

      create table oidc_model (
        model text not null,
        id text not null,
        application_id uuid,
        payload jsonb not null,
        grant_id text,
        user_code text,
        uid text,
        expires_at timestamptz,
        consumed_at timestamptz,
        primary key (model, id)
      );
      create index oidc_model_grant_idx on oidc_model (grant_id);
      create index oidc_model_user_code_idx on oidc_model (model, user_code);
      create index oidc_model_uid_idx on oidc_model (model, uid);
      create index oidc_model_expires_idx on oidc_model (expires_at);
    `);
  }
}
