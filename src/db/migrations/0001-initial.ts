import { Migration } from '@mikro-orm/migrations';

/**
 * The initial schema. Every application-owned table carries `application_id` and leads its primary key,
 * unique keys and indexes with it (and with `tenant_id` where tenant-owned), so the data can be distributed by
 * application (Citus). Ids are UUIDv7 made by the application (PGlite is PostgreSQL 18, CI's server is 15).
 */
export class Migration0001Initial extends Migration {
  override up(): void {
    this.addSql(`
      create table organization (
        id uuid primary key,
        name text not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );

      create table application (
        id uuid primary key,
        organization_id uuid not null references organization (id) on delete cascade deferrable initially deferred,
        name text not null,
        multi_tenant boolean not null,
        branding_scope text not null default 'application' check (branding_scope in ('application', 'tenant')),
        email_templates_scope text not null default 'application' check (email_templates_scope in ('application', 'tenant')),
        email_provider_scope text not null default 'application' check (email_provider_scope in ('application', 'tenant')),
        auth_isolation text not null default 'shared' check (auth_isolation in ('shared', 'isolated')),
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index application_organization_idx on application (organization_id, id);

      create table tenant (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        id uuid not null,
        name text not null,
        slug text not null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        primary key (application_id, id),
        unique (application_id, slug)
      );

      create table setting (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        id uuid not null,
        tenant_id uuid,
        feature text not null,
        key text not null,
        value jsonb not null,
        secrets jsonb,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        primary key (application_id, id),
        foreign key (application_id, tenant_id) references tenant (application_id, id) on delete cascade deferrable initially deferred
      );
      create unique index setting_scope_uidx on setting (application_id, tenant_id, feature, key) nulls not distinct;

      create table app_user (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        id uuid not null,
        pool_id uuid not null,
        email text not null,
        email_normalized text not null,
        name text,
        status text not null check (status in ('active', 'suspended', 'locked')),
        tenant_ids uuid[] not null default '{}',
        password_hash text,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        primary key (application_id, id),
        unique (application_id, pool_id, email_normalized)
      );
      create index app_user_tenant_idx on app_user using gin (tenant_ids);

      create table api_key (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        id uuid not null,
        tenant_id uuid,
        user_id uuid,
        name text not null,
        permissions text[] not null,
        secret_hash text not null,
        expires_at timestamptz,
        revoked_at timestamptz,
        last_rotated_at timestamptz,
        created_at timestamptz not null,
        primary key (application_id, id),
        foreign key (application_id, tenant_id) references tenant (application_id, id) on delete cascade deferrable initially deferred,
        foreign key (application_id, user_id) references app_user (application_id, id) on delete cascade deferrable initially deferred
      );
      -- Keys are found by the hash of their secret before any scope is known.
      create index api_key_secret_idx on api_key (secret_hash);

      create table auth_provider (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        id uuid not null,
        tenant_id uuid,
        type text not null,
        name text not null,
        enabled boolean not null,
        config jsonb not null,
        secrets jsonb,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        primary key (application_id, id),
        foreign key (application_id, tenant_id) references tenant (application_id, id) on delete cascade deferrable initially deferred
      );
      create index auth_provider_tenant_idx on auth_provider (application_id, tenant_id);

      create table domain (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        id uuid not null,
        tenant_id uuid,
        hostname text not null,
        verification_token text not null,
        verified_at timestamptz,
        created_at timestamptz not null,
        primary key (application_id, id),
        unique (application_id, hostname),
        foreign key (application_id, tenant_id) references tenant (application_id, id) on delete cascade deferrable initially deferred
      );

      create table audit_log (
        application_id uuid not null,
        id uuid not null,
        tenant_id uuid,
        actor_type text not null,
        actor_id text not null,
        action text not null,
        target_type text not null,
        target_id text,
        request_id text not null,
        before jsonb,
        after jsonb,
        created_at timestamptz not null,
        primary key (application_id, id)
      );
      create index audit_log_tenant_idx on audit_log (application_id, tenant_id, id);

      create table idempotency_record (
        application_id uuid not null,
        credential_id text not null,
        key uuid not null,
        request_hash text not null,
        status_code integer,
        response_body text,
        created_at timestamptz not null default now(),
        primary key (application_id, credential_id, key)
      );
      create index idempotency_record_created_idx on idempotency_record (created_at);

      create table signing_key (
        id uuid primary key,
        kid text not null unique,
        alg text not null,
        public_jwk jsonb not null,
        private_jwk jsonb not null,
        status text not null check (status in ('active', 'retired')),
        created_at timestamptz not null,
        retired_at timestamptz
      );

      create table service_secret (
        name text primary key,
        value text not null,
        created_at timestamptz not null default now()
      );
    `);
  }
}
