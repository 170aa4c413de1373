import { Migration } from '@mikro-orm/migrations';

/**
 * A hostname is held by whoever verifies it first (src/domain/domains/domains.ts): an unverified claim blocks no one
 * else in the application, a tenant's no more than the application's. Each owner claims a hostname once.
 */
export class Migration0041DomainClaims extends Migration {
  override up(): void {
    this.addSql(`
      alter table domain drop constraint domain_application_id_hostname_key;
      create unique index domain_owner_hostname_uidx on domain (application_id, tenant_id, hostname) nulls not distinct;
      create unique index domain_verified_uidx on domain (application_id, hostname) where verified_at is not null;
    `);
  }
}
