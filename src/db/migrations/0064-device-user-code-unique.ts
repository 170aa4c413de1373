import { Migration } from '@mikro-orm/migrations';

/**
 * A user code names one stored device code, of any application or surface: the verification page, shared by every
 * application of a surface, finds the device by its code alone (src/oidc/adapter.ts refuses a drawn code already held).
 * A code stored twice before stays with the row that expires last; the others lose it (they read as a wrong code).
 */
export class Migration0064DeviceUserCodeUnique extends Migration {
  override up(): void {
    this.addSql(`
      update oidc_model set user_code = null
        where (model, id) in (
          select model, id from (
            select model, id, row_number() over (partition by model, user_code order by expires_at desc nulls first, id) as rank
              from oidc_model where user_code is not null
          ) as held where rank > 1
        );
      create unique index oidc_model_user_code_key on oidc_model (model, user_code);
      drop index oidc_model_user_code_idx;
    `);
  }
}
