import { Migration } from '@mikro-orm/migrations';
import { NEW_ID_SQL } from '../../ids.ts';

/**
 * Every auth provider's history starts with `auth_provider.created`: 0052's password providers get theirs, by the
 * `system` actor `migration`, dated when the provider was made (a provider made through the service has one already).
 */
export class Migration0053DefaultPasswordProviderAudit extends Migration {
  override up(): void {
    this.addSql(`
      insert into audit_log (application_id, id, tenant_id, actor_type, actor_id, action, target_type, target_id, request_id, after, created_at)
        select p.application_id, ${NEW_ID_SQL}, p.tenant_id, 'system', 'migration', 'auth_provider.created', 'auth_provider', p.id::text, ${NEW_ID_SQL}::text,
               jsonb_build_object('id', p.id, 'tenantId', p.tenant_id, 'type', p.type, 'name', p.name, 'enabled', p.enabled, 'config', p.config, 'secretsSet', '[]'::jsonb),
               p.created_at
          from auth_provider as p
         where p.type = 'password'
           and not exists (select 1 from audit_log as a
                            where a.application_id = p.application_id and a.target_type = 'auth_provider' and a.target_id = p.id::text
                              and a.action = 'auth_provider.created');
    `);
  }
}
