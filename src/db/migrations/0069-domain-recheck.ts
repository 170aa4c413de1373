import { Migration } from '@mikro-orm/migrations';

/**
 * Verified custom domains are looked up again about daily (src/domain/domains/recheck.ts): when the record was last
 * answered for, since when it has been missing, and the lease of the instance checking it now. A domain verified
 * before counts as checked at its verification.
 */
export class Migration0069DomainRecheck extends Migration {
  override up(): void {
    this.addSql(`
      alter table domain add column checked_at timestamptz, add column failing_since timestamptz, add column recheck_claimed_until timestamptz;
      update domain set checked_at = verified_at where verified_at is not null;
      create index domain_recheck_idx on domain (checked_at) where verified_at is not null;
    `);
  }
}
