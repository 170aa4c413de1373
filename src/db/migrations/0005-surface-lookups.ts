import { Migration } from '@mikro-orm/migrations';

/**
 * The lookups of the sign-in surfaces (src/domain/domains/surfaces.ts), made before any application is known: a
 * request's Host among the verified custom domains, and a tenant path's id or slug among all tenants. Not led by
 * `application_id`, like api_key_secret_idx, oauth_client_id_idx, app_user_tenant_idx, idempotency_record_created_idx,
 * application_organization_idx and the indexes of `oidc_model` (which stays undistributed): the schema test
 * (test/api/data-integrity.test.ts) lists them all, each with its reason. Non-unique, so a table distributed by
 * application may keep them as shard-local indexes.
 */
export class Migration0005SurfaceLookups extends Migration {
  override up(): void {
    this.addSql(`
      create index domain_verified_hostname_idx on domain (hostname) where verified_at is not null;
      create index tenant_id_idx on tenant (id);
      create index tenant_slug_idx on tenant (slug);
    `);
  }
}
