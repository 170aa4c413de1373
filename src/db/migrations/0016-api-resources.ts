import { Migration } from '@mikro-orm/migrations';

/**
 * An application's own APIs (RFC 8707 resources): a grant naming one's identifier gets a JWT for it. Application-level
 * (no tenant column: the same API serves every tenant, and its tokens say which one). `permissions` holds keys of the
 * application's custom permissions. Keys lead with `application_id` (the Citus rule).
 */
export class Migration0016ApiResources extends Migration {
  override up(): void {
    this.addSql(`
      create table api_resource (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        id uuid not null,
        identifier text not null,
        name text not null,
        permissions text[] not null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        primary key (application_id, id),
        unique (application_id, identifier)
      );
    `);
  }
}
