import type { EntityManager } from '@mikro-orm/postgresql';
import { OPERATION_PERMISSIONS, type OperationCoordinate } from '../../auth/operation-permissions.ts';
import type { Scope } from '../../context.ts';
import { ApiKey, OAuthClient, Role, RoleAssignment, User } from '../../db/entities/index.ts';
import type { RoleSubjectType } from '../../db/entities/role-assignment.entity.ts';
import { TENANT_FILTER } from '../../db/owned.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { HOLD_FOR_SHARE } from '../../db/row-lock.ts';
import { GatehouseError, invalid, notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { endLinksOfOtherOutboxes } from '../users/link-tokens.ts';
import { recordAudit, recordAuditPerRow, type AuditActor } from '../audit/audit.ts';
import { auditedFieldsOf, auditedSnapshot } from '../audit/audited-fields.ts';
import { uniquely } from '../db-errors.ts';
import { requireCovered } from '../grants.ts';
import { pageSize, scopedList, type Page, type PageArgs } from '../pagination.ts';
import { consoleOfSql } from '../console/console-of.ts';
import { targetTenant } from '../tenants/target-tenant.ts';
import { underTenancyConfig } from '../tenancy/config-lock.ts';
import type { RoleSubject } from './held-roles.ts';
import { assertNotLastOperatorAdmin } from './last-operator-admin.ts';
import { authorizationChanged, visibleIn } from './writes.ts';

export interface RoleAssignmentView {
  id: string;
  applicationId: string;
  /** Null: application-wide, held in every tenant. */
  tenantId: string | null;
  roleId: string;
  /** `email`: an operator's, for those who manage the application's operators (withOperatorEmails). */
  subject: RoleSubject & { email?: string | null };
  createdAt: Date;
}

export interface CreateRoleAssignmentInput {
  subject: RoleSubject;
  roleId: string;
  tenantId?: string | null;
}

/** A subject id comes with its type; a type alone filters by kind (an application's operators). */
export interface RoleAssignmentFilter {
  subjectType?: RoleSubjectType | null;
  subjectId?: string | null;
  roleId?: string | null;
}

const field = auditedFieldsOf<RoleAssignment>();
const ASSIGNMENT_SNAPSHOT = auditedSnapshot([field.value('roleId'), field.value('subjectType'), field.value('subjectId'), field.value('tenantId')]);
export const assignmentSnapshot = (assignment: RoleAssignment) => ASSIGNMENT_SNAPSHOT.of(assignment);
export const assignmentSnapshotSql = ASSIGNMENT_SNAPSHOT.sql;

/** Each with a `role_assignment.deleted` record under its own tenant (`reason`: its `after.reason`). Returns how many. */
export async function removeAssignments(em: EntityManager, actor: AuditActor, where: string, params: readonly unknown[], reason?: string): Promise<number> {
  const removed = await recordAuditPerRow(em, actor, { action: 'role_assignment.deleted', targetType: 'role_assignment' }, {
    tenantPerRow: true,
    ctes: `changed as (
      delete from role_assignment as a where @owner(a) and ${where}
      returning a.id::text as target_id, a.tenant_id, ${assignmentSnapshotSql('a')} as before, ${reason === undefined ? 'null::jsonb' : `jsonb_build_object('reason', ?::text)`} as after)`,
    params: reason === undefined ? params : [...params, reason],
  });
  if (removed.length > 0) authorizationChanged(em, actor.applicationId);
  return removed.length;
}

/** A tenant scope sees an application-wide assignment only when its subject belongs to the tenant: the others are not
 *  its business. Three parameters. */
const SUBJECT_OF_TENANT = `case a.subject_type
  when 'user' then exists (select 1 from app_user as u where u.application_id = a.application_id and u.id = a.subject_id and u.tenant_ids @> array[?::uuid])
  when 'api_key' then exists (select 1 from api_key as k where k.application_id = a.application_id and k.id = a.subject_id and k.tenant_id = ?)
  when 'operator' then false
  else exists (select 1 from oauth_client as c where c.application_id = a.application_id and c.id = a.subject_id and c.tenant_id = ?)
end`;

interface AssignmentRow {
  id: string;
  tenant_id: string | null;
  role_id: string;
  subject_type: RoleSubjectType;
  subject_id: string;
  created_at: Date | string;
}

async function selectAssignments(
  em: EntityManager,
  scope: Pick<Scope, 'applicationId' | 'tenantId'>,
  where: { id?: string; roleId?: string; subject?: RoleSubject; subjectType?: RoleSubjectType },
  page: { after?: string | undefined; limit: number },
): Promise<RoleAssignmentView[]> {
  const conditions = ['@owner(a)'];
  const params: unknown[] = [];
  const tenantId = scope.tenantId;
  const add = (condition: string, ...values: unknown[]) => {
    conditions.push(condition);
    params.push(...values);
  };
  if (tenantId !== null) add(`(a.tenant_id = ? or (a.tenant_id is null and ${SUBJECT_OF_TENANT}))`, tenantId, tenantId, tenantId, tenantId);
  if (where.id !== undefined) add('a.id = ?', where.id);
  if (where.roleId !== undefined) add('a.role_id = ?', where.roleId);
  if (where.subject !== undefined) add('a.subject_type = ? and a.subject_id = ?', where.subject.type, where.subject.id);
  if (where.subjectType !== undefined) add('a.subject_type = ?', where.subjectType);
  if (page.after !== undefined) add('a.id > ?', page.after);
  const rows = await executeOwned<AssignmentRow[]>(
    em,
    scope.applicationId,
    `select a.id, a.tenant_id, a.role_id, a.subject_type, a.subject_id, a.created_at from role_assignment as a
      where ${conditions.join(' and ')} order by a.id limit ?`,
    [...params, page.limit],
  );
  return rows.map((row) => ({
    id: row.id,
    applicationId: scope.applicationId,
    tenantId: row.tenant_id,
    roleId: row.role_id,
    subject: { type: row.subject_type, id: row.subject_id },
    createdAt: new Date(row.created_at),
  }));
}

/** Operators' addresses for credentials that assign roles application-wide (they manage the operators); others see ids:
 *  a tenant's may name any console user of the organization as a subject in their tenant. */
async function withOperatorEmails(scope: Scope, assignments: RoleAssignmentView[]): Promise<RoleAssignmentView[]> {
  const operators = [...new Set(assignments.filter(({ subject }) => subject.type === 'operator').map(({ subject }) => subject.id))];
  if (operators.length === 0 || !(await scope.principal.permissionsIn(null)).allows('role_assignments:write')) return assignments;
  const rows = await scope.em.execute<{ id: string; email: string }[]>(
    `select u.id, u.email from app_user as u where u.application_id = (${consoleOfSql('?')}) and u.id in (?)`,
    [scope.applicationId, operators],
  );
  const emails = new Map(rows.map(({ id, email }) => [id, email]));
  return assignments.map((assignment) =>
    assignment.subject.type === 'operator' ? { ...assignment, subject: { ...assignment.subject, email: emails.get(assignment.subject.id) ?? null } } : assignment,
  );
}

/** One subject, or (a type alone) every subject of a kind; an id without its type is 422. */
function subjectFilter(filter: RoleAssignmentFilter): { subject?: RoleSubject; subjectType?: RoleSubjectType } {
  const { subjectType, subjectId } = filter;
  if (subjectType == null && subjectId == null) return {};
  if (subjectType == null) throw invalid('subjectType', 'subjectId filters with its subjectType');
  return subjectId == null ? { subjectType } : { subject: { type: subjectType, id: subjectId } };
}

export async function listRoleAssignments(scope: Scope, filter: RoleAssignmentFilter, args: PageArgs): Promise<Page<RoleAssignmentView>> {
  const size = pageSize(args);
  const subjects = subjectFilter(filter);
  const roleId = filter.roleId ?? undefined;
  // The filters are part of the list: a cursor of one filtered list is refused in another.
  const list = `${scopedList(scope, 'role-assignments')}:${filter.subjectType ?? ''}:${filter.subjectId ?? ''}:${roleId ?? ''}`;
  const after = args.cursor == null ? undefined : scope.services.cursors.decode(list, args.cursor);
  const rows = await selectAssignments(scope.em, scope, { roleId, ...subjects }, { after, limit: size + 1 });
  const data = await withOperatorEmails(scope, rows.slice(0, size));
  const last = data.at(-1);
  return { data, next: rows.length > size && last !== undefined ? scope.services.cursors.encode(list, last.id) : null };
}

export async function getRoleAssignment(scope: Scope, assignmentId: string): Promise<RoleAssignmentView> {
  const [assignment] = await selectAssignments(scope.em, scope, { id: assignmentId }, { limit: 1 });
  if (assignment === undefined) throw notFound('Role assignment', 'assignmentId');
  const [shown] = await withOperatorEmails(scope, [assignment]);
  return shown!;
}

/** The application's own keys and M2M credentials are its owner's: a credential bound to no tenant holding
 *  `operation`'s permissions application-wide. No one else may give them roles or learn which exist (their GET is 404). */
export async function ownsApplicationWideCredentials(scope: Pick<Scope, 'principal'>, operation: OperationCoordinate): Promise<boolean> {
  const { principal } = scope;
  if (principal.tenantId !== null) return false;
  const held = await principal.permissionsIn(null);
  return OPERATION_PERMISSIONS[operation].permissions.every((permission) => held.allows(permission));
}

/** 404 (`subject.id`) unless the subject can hold a role in `tenantId` and the caller sees it (`ownsWide`: the
 *  application's keys and credentials too). Held FOR SHARE until the assignment commits, so the subject's deletion
 *  (which removes its assignments) comes wholly before or after. */
async function assertSubjectIn(em: EntityManager, applicationId: string, tenantId: string | null, subject: RoleSubject, ownsWide: boolean): Promise<void> {
  const absent = () => notFound('Subject', 'subject.id');
  if (subject.type === 'operator') {
    // A user of the organization's console: they belong to no tenant, so a tenant may give them a role too.
    const found = await em.getConnection().execute(
      `select 1 from app_user as u where u.application_id = (${consoleOfSql('?')}) and u.id = ? for share of u`,
      [applicationId, subject.id],
      'all',
      em.getTransactionContext(),
    );
    if (found.length === 0) throw absent();
    return;
  }
  if (subject.type === 'user') {
    const member = tenantId === null ? {} : { tenantIds: { $contains: [tenantId] } };
    if ((await em.findOne(User, { id: subject.id, ...member }, HOLD_FOR_SHARE)) === null) throw absent();
    return;
  }
  // The `tenant` filter would hide the application's keys and credentials from their owner on a tenant path, who may
  // give them roles there; a key or credential bound to another tenant stays out by the condition.
  const options = { ...HOLD_FOR_SHARE, filters: { [TENANT_FILTER]: false } };
  const within = tenantId === null ? {} : ownsWide ? visibleIn(tenantId) : { tenantId };
  const reach = { id: subject.id, ...within };
  const now = new Date();
  if (subject.type === 'api_key') {
    const key = await em.findOne(ApiKey, reach, options);
    if (key === null || key.revokedAt != null || (key.expiresAt != null && key.expiresAt <= now)) throw absent();
    return;
  }
  const credential = await em.findOne(OAuthClient, { ...reach, type: 'm2m' }, options);
  if (credential === null || credential.revokedAt != null) throw absent();
}

/** In the scope's (else the body's) tenant, or application-wide. The role must be application-wide or that tenant's (else
 *  404 `roleId`); the caller must hold its built-in permissions (403). */
export async function createRoleAssignment(scope: Scope, input: CreateRoleAssignmentInput): Promise<RoleAssignmentView> {
  const { subject, roleId } = input;
  const tenantId = await targetTenant(scope, input.tenantId);
  // Read before the transaction: the embedded database answers only its connection meanwhile.
  const ownsWide = await ownsApplicationWideCredentials(scope, 'Mutation.createRoleAssignment');
  // Wholly before or after an authIsolation switch, which moves a tenant's assignments to the users' copies.
  const created = await uniquely('roleId', 'This role assignment', () =>
    underTenancyConfig(scope, async (tx) => {
      const { em } = tx;
      await assertSubjectIn(em, scope.applicationId, tenantId, subject, ownsWide);
      // Held against the role's deletion, which would take this assignment with it unrecorded.
      const role = await em.findOne(Role, { id: roleId, ...visibleIn(tenantId) }, HOLD_FOR_SHARE);
      if (role === null) throw notFound('Role', 'roleId');
      requireCovered(tx, role.permissions);
      const assignment = em.create(RoleAssignment, {
        applicationId: scope.applicationId,
        id: newId(),
        tenantId,
        roleId: role.id,
        subjectType: subject.type,
        subjectId: subject.id,
      });
      recordAudit(em, tx, { action: 'role_assignment.created', targetType: 'role_assignment', targetId: assignment.id, tenantId, after: assignmentSnapshot(assignment) });
      // Its holder is more than any one tenant's now: the links their tenant's administrators could read end (tenantOf).
      if (tenantId === null && subject.type === 'user') await endLinksOfOtherOutboxes(em, scope.applicationId, subject.id, []);
      authorizationChanged(em, scope.applicationId);
      return assignment;
    }),
  );
  const [shown] = await withOperatorEmails(scope, [
    {
      id: created.id,
      applicationId: created.applicationId,
      tenantId: created.tenantId ?? null,
      roleId: created.roleId,
      subject: { type: created.subjectType, id: created.subjectId },
      createdAt: created.createdAt,
    },
  ]);
  return shown!;
}

/** A tenant scope may not remove its subjects' application-wide assignments (403: they hold in all tenants); the caller
 *  must hold the role's built-in permissions, as to make it (403: a clerk does not demote an admin); the last operator
 *  `app_admin` stays (assertNotLastOperatorAdmin). */
export async function deleteRoleAssignment(scope: Scope, assignmentId: string): Promise<boolean> {
  await scope.transactional(async (em) => {
    const [assignment] = await selectAssignments(em, scope, { id: assignmentId }, { limit: 1 });
    if (assignment === undefined) throw notFound('Role assignment', 'assignmentId');
    if (scope.tenantId !== null && assignment.tenantId === null) {
      throw new GatehouseError('forbidden', 'An application-wide role assignment is removed with application-wide credentials on the application’s path');
    }
    const role = await em.findOne(Role, { id: assignment.roleId });
    if (role !== null) requireCovered(scope, role.permissions);
    await assertNotLastOperatorAdmin(em, assignment);
    // Removed meanwhile by a concurrent request: 404, as if that one had come first.
    if ((await removeAssignments(em, scope, 'a.id = ?', [assignment.id])) === 0) throw notFound('Role assignment', 'assignmentId');
  });
  return true;
}
