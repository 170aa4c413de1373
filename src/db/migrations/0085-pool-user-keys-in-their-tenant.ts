import { Migration } from '@mikro-orm/migrations';
import { NEW_ID_SQL } from '../../ids.ts';

/**
 * A user of a tenant's own pool (isolated) exists only in that tenant, so a key acting as them is that tenant's
 * (src/domain/api-keys/api-keys.ts): an application-wide one made earlier becomes it, recorded `api_key.rebound` by the
 * `system` actor `migration`, as a split of the pools records it.
 */
export class Migration0085PoolUserKeysInTheirTenant extends Migration {
  override up(): void {
    this.addSql(`
      with bound as (
        update api_key as k set tenant_id = u.pool_id
          from app_user as u
         where k.tenant_id is null and u.application_id = k.application_id and u.id = k.user_id
           and u.pool_id <> '00000000-0000-0000-0000-000000000000'
        returning k.*),
      snapshots as (
        select bound.application_id, bound.id, bound.tenant_id,
               jsonb_build_object('name', bound.name, 'permissions', to_jsonb(bound.permissions), 'tenantId', bound.tenant_id, 'userId', bound.user_id,
                 'expiresAt', to_char(bound.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'revokedAt', to_char(bound.revoked_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'lastRotatedAt', to_char(bound.last_rotated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) as after
          from bound)
      insert into audit_log (application_id, id, tenant_id, actor_type, actor_id, action, target_type, target_id, request_id, before, after, created_at)
        select s.application_id, ${NEW_ID_SQL}, s.tenant_id, 'system', 'migration', 'api_key.rebound', 'api_key', s.id::text, ${NEW_ID_SQL}::text,
               s.after || jsonb_build_object('tenantId', null), s.after, now()
          from snapshots as s;
    `);
  }
}
