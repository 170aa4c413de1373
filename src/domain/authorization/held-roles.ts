import type { PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { RoleSubjectType } from '../../db/entities/role-assignment.entity.ts';
import { mayActNowSql } from '../users/sign-in-user.ts';

/** Who can hold roles. */
export interface RoleSubject {
  readonly type: RoleSubjectType;
  readonly id: string;
}

/** What a subject holds in one tenant (or application-wide): its own grants (a key's or credential's list) and its roles. */
export interface HeldGrants {
  /** An API key's or M2M credential's own permission list; empty for a user. */
  readonly own: readonly string[];
  readonly roles: readonly { readonly id: string; readonly key: string; readonly permissions: readonly string[] }[];
}

/** One subject and one of its roles (none: nulls), as the statement answers. */
type HeldRow = RoleSubject & { own: string[] } & ({ role_id: string; key: string; permissions: string[] } | { role_id: null; key: null; permissions: null });

export const subjectKey = (subject: RoleSubject): string => `${subject.type}:${subject.id}`;

/**
 * One statement for any number of subjects: what each holds in `tenantId` of `applicationId` (null: application-wide,
 * where only application-wide assignments count). A subject that cannot act there holds nothing and is left out of the
 * answer: one of another application, a user who is not active or not a member of the tenant, a revoked or expired
 * key or credential, or one bound to another tenant. Roles come from assignments application-wide and in the tenant.
 */
export async function readHeldGrants(
  connection: PostgreSqlConnection,
  applicationId: string,
  tenantId: string | null,
  subjects: readonly RoleSubject[],
): Promise<Map<string, HeldGrants>> {
  const held = new Map<string, HeldGrants>();
  if (subjects.length === 0) return held;
  // Positional parameters, in the order the statement names them.
  const params: unknown[] = [subjects.map((s) => s.type), subjects.map((s) => s.id)];
  const app = () => (params.push(applicationId), '?');
  const tenant = () => (params.push(tenantId), '?::uuid');
  const inTenant = (alias: string) => (tenantId === null ? '' : ` and (${alias}.tenant_id is null or ${alias}.tenant_id = ${tenant()})`);
  const rows = await connection.execute<HeldRow[]>(
    `with subject (type, id) as (select * from unnest(array[?]::text[], array[?]::uuid[])),
     live as (
       select s.type, s.id, coalesce(k.permissions, c.permissions, '{}'::text[]) as own
         from subject as s
         left join app_user as u on s.type = 'user' and u.application_id = ${app()} and u.id = s.id and ${mayActNowSql('u')}
           ${tenantId === null ? '' : `and ${tenant()} = any(u.tenant_ids)`}
         left join api_key as k on s.type = 'api_key' and k.application_id = ${app()} and k.id = s.id and k.revoked_at is null
           and (k.expires_at is null or k.expires_at > now())${inTenant('k')}
         left join oauth_client as c on s.type = 'm2m_credential' and c.application_id = ${app()} and c.id = s.id and c.type = 'm2m'
           and c.revoked_at is null${inTenant('c')}
        where u.id is not null or k.id is not null or c.id is not null)
     select l.type, l.id, l.own, r.id as role_id, r.key, r.permissions
       from live as l
       left join role_assignment as a on a.application_id = ${app()} and a.subject_type = l.type and a.subject_id = l.id
         and (a.tenant_id is null${tenantId === null ? '' : ` or a.tenant_id = ${tenant()}`})
       left join role as r on r.application_id = a.application_id and r.id = a.role_id`,
    params,
  );
  for (const row of rows) {
    const key = subjectKey(row);
    const grants = held.get(key) ?? { own: row.own, roles: [] };
    const roles = row.role_id === null ? grants.roles : [...grants.roles, { id: row.role_id, key: row.key, permissions: row.permissions }];
    held.set(key, { own: grants.own, roles });
  }
  return held;
}
