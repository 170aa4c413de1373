import { Migration } from '@mikro-orm/migrations';
import { NEW_ID_SQL } from '../../ids.ts';

/**
 * Password sign-in needs an enabled `password` provider: an application with no provider of its own level, which
 * signed in with passwords, gets one with the defaults (sign-up open, e-mail verification required).
 */
export class Migration0052DefaultPasswordProvider extends Migration {
  override up(): void {
    this.addSql(`
      insert into auth_provider (application_id, id, tenant_id, type, name, enabled, config, secrets, created_at, updated_at)
        select a.id, ${NEW_ID_SQL}, null, 'password', 'Password', true, '{"allowSignup": true, "requireEmailVerification": true}'::jsonb, null, now(), now()
          from application as a
         where not exists (select 1 from auth_provider as p where p.application_id = a.id and p.tenant_id is null);
    `);
  }
}
