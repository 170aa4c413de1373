import { Migration } from '@mikro-orm/migrations';

/**
 * Organizations gain a status (a deactivated one's applications refuse sign-ins and management requests) and their
 * billing settings. Invitations to a tenant: the link's token is kept only as its SHA-256 (found by it across
 * applications, as an API key's secret is), the list runs by tenant and id, and a pending invitation of an address is
 * found by its case-folded form.
 */
export class Migration0023OrganizationsInvitations extends Migration {
  override up(): void {
    this.addSql(`
      alter table organization
        add column status text not null default 'active' check (status in ('active', 'deactivated')),
        add column billing jsonb not null default '{}';

      create table invitation (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        id uuid not null,
        tenant_id uuid not null,
        email text not null,
        email_normalized text not null,
        role_ids uuid[] not null default '{}',
        token_hash text not null,
        expires_in_days integer not null check (expires_in_days between 1 and 30),
        expires_at timestamptz not null,
        accepted_at timestamptz,
        accepted_user_id uuid,
        revoked_at timestamptz,
        invited_by_type text not null,
        invited_by_id text not null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        primary key (application_id, id),
        foreign key (application_id, tenant_id) references tenant (application_id, id) on delete cascade deferrable initially deferred
      );
      create index invitation_token_idx on invitation (token_hash);
      create index invitation_tenant_idx on invitation (application_id, tenant_id, id);
      create index invitation_email_idx on invitation (application_id, tenant_id, email_normalized);
    `);
  }
}
