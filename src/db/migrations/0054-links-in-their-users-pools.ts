import { Migration } from '@mikro-orm/migrations';

/**
 * Upstream links (`user_identity`) left by an authIsolation switch in a pool their user has left go to the user's pool,
 * where sign-ins look them up. Where a link already holds that place (the user, or an account made in their stead,
 * linked again since), the link in place is what signs in today and stays; of several moving to one place, the newest.
 * Moved through a fresh pool id first, so that two links trading places cannot collide on the unique key midway.
 */
export class Migration0054LinksInTheirUsersPools extends Migration {
  override up(): void {
    this.addSql(`
      with ranked as (
        select l.application_id, l.id,
               row_number() over (partition by l.application_id, u.pool_id, l.provider_id, l.subject
                                  order by l.pool_id = u.pool_id desc, l.created_at desc, l.id desc) as place
          from user_identity as l
          join app_user as u on u.application_id = l.application_id and u.id = l.user_id)
      delete from user_identity as l using ranked
       where ranked.application_id = l.application_id and ranked.id = l.id and ranked.place > 1;
      update user_identity as l set pool_id = gen_random_uuid()
        from app_user as u
       where u.application_id = l.application_id and u.id = l.user_id and l.pool_id <> u.pool_id;
      update user_identity as l set pool_id = u.pool_id
        from app_user as u
       where u.application_id = l.application_id and u.id = l.user_id and l.pool_id <> u.pool_id;
    `);
  }
}
