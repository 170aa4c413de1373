import type { Connection, EntityManager, Transaction } from '@mikro-orm/postgresql';
import { BUILT_IN_ROLES, type BuiltInRole } from '../../auth/permissions.ts';
import { Role, RoleAssignment } from '../../db/entities/index.ts';
import { newId } from '../../ids.ts';
import { recordAudit, type AuditActor } from '../audit/audit.ts';
import { assignmentSnapshot } from './role-assignments.ts';

export function createBuiltInRoles(em: EntityManager, applicationId: string): void {
  for (const key of Object.keys(BUILT_IN_ROLES) as BuiltInRole[]) {
    const { name, permissions } = BUILT_IN_ROLES[key];
    em.create(Role, { applicationId, id: newId(), tenantId: null, key, name, description: '', permissions: [...permissions], builtIn: true });
  }
}

/** `app_admin` of the actor's application, held by `subject`; its built-in roles must be flushed already. */
export async function assignAppAdmin(em: EntityManager, actor: AuditActor, subject: { type: 'user' | 'operator'; id: string }): Promise<void> {
  const { applicationId } = actor;
  const role = await em.findOneOrFail(Role, { applicationId, key: 'app_admin', tenantId: null }, { filters: false });
  const assignment = em.create(RoleAssignment, { applicationId, id: newId(), tenantId: null, roleId: role.id, subjectType: subject.type, subjectId: subject.id });
  recordAudit(em, actor, { action: 'role_assignment.created', targetType: 'role_assignment', targetId: assignment.id, after: assignmentSnapshot(assignment) });
}

/** The built-in roles whose permissions the contract defines, which no one edits; `member`'s are the application's. */
export const FIXED_ROLES: Readonly<Partial<Record<string, string>>> = {
  app_admin: 'every permission, application-wide',
  tenant_admin: 'every permission but the application settings, in one tenant',
} satisfies Partial<Record<BuiltInRole, string>>;

/** Run at each start after migrations, so a permission added since an application was created reaches its fixed roles. */
export async function alignFixedRoles(connection: Connection, transaction?: Transaction): Promise<void> {
  const lists = Object.fromEntries(Object.keys(FIXED_ROLES).map((key) => [key, BUILT_IN_ROLES[key as BuiltInRole].permissions]));
  await connection.execute(
    `update role set permissions = fixed.permissions, updated_at = now()
       from jsonb_each(?::jsonb) as given(key, list), lateral (select array(select jsonb_array_elements_text(given.list)) as permissions) as fixed
      where role.built_in and role.tenant_id is null and role.key = given.key and role.permissions is distinct from fixed.permissions`,
    [JSON.stringify(lists)],
    'run',
    transaction,
  );
}
