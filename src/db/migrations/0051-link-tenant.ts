import { Migration } from '@mikro-orm/migrations';

/**
 * The tenant whose mail carried a link (src/domain/users/link-tokens.ts): its page takes that tenant's look and its
 * follow-up mails go out in it. Null: the application's, as for rows from before; a deleted tenant leaves its links
 * the application's.
 */
export class Migration0051LinkTenant extends Migration {
  override up(): void {
    this.addSql(`
      alter table email_link_token add column tenant_id uuid;
      alter table email_link_token add foreign key (application_id, tenant_id) references tenant (application_id, id) on delete set null (tenant_id);
      create index email_link_token_tenant_idx on email_link_token (application_id, tenant_id) where tenant_id is not null;
    `);
  }
}
