import { Migration } from '@mikro-orm/migrations';

/**
 * The lookups of the sign-in surfaces (src/domain/domains/surfaces.ts), made before any application is known: a
 * request's Host among the verified custom domains, and a tenant path's id or slug among all tenants. These are the
 * only indexes not led by `application_id`: under distribution by application they are global lookups on purpose.
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
