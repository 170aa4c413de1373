import { Migration } from '@mikro-orm/migrations';
import { NEW_ID_SQL } from '../../ids.ts';

/**
 * Authorization as data: an application's own permissions (the built-in ones are the management API's, listed in
 * src/auth/permissions.ts), its roles (application-wide, or a tenant's own), and which users, M2M credentials and API
 * keys hold which role, application-wide (`tenant_id` null: in every tenant) or in one tenant. Keys lead with
 * `application_id` (the Citus rule); `nulls not distinct` makes an application-wide key unique too. Every application
 * gets the built-in roles, with the permissions a new one starts with (the list below is theirs as of this migration).
 */
export class Migration0015Authorization extends Migration {
  override up(): void {
    this.addSql(`
      create table permission (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        id uuid not null,
        tenant_id uuid,
        key text not null,
        description text not null,
        created_at timestamptz not null,
        primary key (application_id, id),
        unique nulls not distinct (application_id, tenant_id, key),
        foreign key (application_id, tenant_id) references tenant (application_id, id) on delete cascade deferrable initially deferred
      );

      create table role (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        id uuid not null,
        tenant_id uuid,
        key text not null,
        name text not null,
        description text not null,
        permissions text[] not null,
        built_in boolean not null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        primary key (application_id, id),
        unique nulls not distinct (application_id, tenant_id, key),
        foreign key (application_id, tenant_id) references tenant (application_id, id) on delete cascade deferrable initially deferred
      );

      create table role_assignment (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        id uuid not null,
        tenant_id uuid,
        role_id uuid not null,
        subject_type text not null check (subject_type in ('user', 'm2m_credential', 'api_key')),
        subject_id uuid not null,
        created_at timestamptz not null,
        primary key (application_id, id),
        -- Also the index of a subject's roles, which every check reads.
        unique nulls not distinct (application_id, subject_type, subject_id, tenant_id, role_id),
        foreign key (application_id, role_id) references role (application_id, id) on delete cascade deferrable initially deferred,
        foreign key (application_id, tenant_id) references tenant (application_id, id) on delete cascade deferrable initially deferred
      );
      create index role_assignment_role_idx on role_assignment (application_id, role_id);
    `);
    const builtIn: [string, string, string][] = [
      ['app_admin', 'Application admin', "array['*']"],
      ['tenant_admin', 'Tenant admin', "array['organizations:read', 'applications:read', 'tenants:read', 'tenants:write', 'tenants:delete', 'users:read', 'users:write', 'users:delete', 'roles:read', 'roles:write', 'roles:delete', 'permissions:read', 'permissions:write', 'permissions:delete', 'role_assignments:read', 'role_assignments:write', 'role_assignments:delete', 'api_resources:read', 'api_resources:write', 'api_resources:delete', 'api_keys:read', 'api_keys:write', 'api_keys:delete', 'auth_providers:read', 'auth_providers:write', 'auth_providers:delete', 'policies:read', 'policies:write', 'policies:delete', 'branding:read', 'branding:write', 'branding:delete', 'email:read', 'email:write', 'email:delete', 'domains:read', 'domains:write', 'domains:delete', 'audit_logs:read', 'oauth_clients:read', 'oauth_clients:write', 'oauth_clients:delete', 'm2m_credentials:read', 'm2m_credentials:write', 'm2m_credentials:delete', 'tenant_overrides:write']"],
      ['member', 'Member', 'array[]::text[]'],
    ];
    for (const [key, name, permissions] of builtIn) {
      this.addSql(
        `insert into role (application_id, id, tenant_id, key, name, description, permissions, built_in, created_at, updated_at)
          select a.id, ${NEW_ID_SQL}, null, '${key}', '${name}', '', ${permissions}, true, now(), now() from application as a`,
      );
    }
  }
}
