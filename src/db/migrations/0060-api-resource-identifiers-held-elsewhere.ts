import { Migration } from '@mikro-orm/migrations';

/**
 * Identifiers became unique across the service after some could be registered in two applications: the first
 * registration keeps it, and a later one, marked here, serves no token (`invalid_target`) until saved again once free.
 * A one-off statement across applications, as the uniqueness check's own.
 */
export class Migration0060ApiResourceIdentifiersHeldElsewhere extends Migration {
  override up(): void {
    this.addSql(`
      alter table api_resource add column if not exists identifier_held_elsewhere boolean not null default false;
      update api_resource later set identifier_held_elsewhere = true
        where exists (
          select 1 from api_resource earlier
          where earlier.identifier = later.identifier and earlier.application_id <> later.application_id
            and (earlier.created_at, earlier.id) < (later.created_at, later.id)
        );
    `);
  }
}
