import { Migration } from '@mikro-orm/migrations';

/**
 * A link mailed in a tenant's outbox, which that tenant's administrators read, ends once its account is not the
 * tenant's alone (src/domain/users/link-tokens.ts, endLinksOfOtherOutboxes): links of accounts that were already a
 * member of other tenants, or held a role application-wide, when this release came end now, as they would under it.
 */
export class Migration0087EndTenantLinksOfWiderAccounts extends Migration {
  override up(): void {
    this.addSql(`
      update email_link_token as t set used_at = now()
       where t.used_at is null and t.tenant_id is not null
         and (exists (select 1 from app_user as u
                       where u.application_id = t.application_id and u.id = t.user_id and u.tenant_ids <> array[t.tenant_id])
              or exists (select 1 from role_assignment as a
                          where a.application_id = t.application_id and a.tenant_id is null
                            and a.subject_type = 'user' and a.subject_id = t.user_id));
    `);
  }
}
