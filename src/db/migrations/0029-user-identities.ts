import { Migration } from '@mikro-orm/migrations';

/**
 * The links between users and their accounts at upstream identity providers (social and OIDC sign-in,
 * src/domain/sign-in/upstream/): one per pool, provider and upstream subject, so that the user signs in again by the
 * subject whatever e-mail the upstream says next. An application's provider serves its shared pool and every
 * isolated tenant that inherits it, hence the pool in the key. A link goes with its user or its provider (cascade): it
 * is part of them, not a record of its own.
 */
export class Migration0029UserIdentities extends Migration {
  override up(): void {
    this.addSql(`
      create table user_identity (
        application_id uuid not null references application (id) on delete cascade deferrable initially deferred,
        id uuid not null,
        pool_id uuid not null,
        provider_id uuid not null,
        subject text not null,
        user_id uuid not null,
        created_at timestamptz not null,
        primary key (application_id, id),
        unique (application_id, pool_id, provider_id, subject),
        foreign key (application_id, user_id) references app_user (application_id, id) on delete cascade deferrable initially deferred,
        foreign key (application_id, provider_id) references auth_provider (application_id, id) on delete cascade deferrable initially deferred
      );
      create index user_identity_user_idx on user_identity (application_id, user_id);
      create index user_identity_provider_idx on user_identity (application_id, provider_id);
    `);
  }
}
