import { Migration } from '@mikro-orm/migrations';

/**
 * Verified sender domains are looked up again about daily with the custom domains (src/domain/domains/recheck.ts): since
 * when their return path has been missing, and the lease of the instance checking one now. `checked_at` is there already.
 */
export class Migration0072EmailSenderDomainRecheck extends Migration {
  override up(): void {
    this.addSql(`
      alter table email_sender_domain add column failing_since timestamptz, add column recheck_claimed_until timestamptz;
      create index email_sender_domain_recheck_idx on email_sender_domain (application_id, checked_at) where verified_at is not null;
    `);
  }
}
