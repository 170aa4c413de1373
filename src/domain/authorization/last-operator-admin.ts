import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { GatehouseError, invalid } from '../../errors.ts';
import { consoleOfSql } from '../console/console-of.ts';
import type { RoleAssignmentView } from './role-assignments.ts';

// An application keeps an `app_admin` operator who can act (not suspended), or no one manages it from the dashboard. So
// does the console, whose own `app_admin` users are the organization's owners (only they make operators and write the
// organization): there the admin is a console user's own assignment. A locked operator counts: a lockout ends on its own.

/** An assignment that makes an admin: an operator's, or a user's in a console. */
const adminSubjectSql = (alias: string) =>
  `(${alias}.subject_type = 'operator' or (${alias}.subject_type = 'user' and exists (select 1 from application as k where k.id = ${alias}.application_id and k.console)))`;

/** Either way a console user: of the application's console, or of the console itself (which has none: null). */
const holderApplicationSql = (alias: string) => `coalesce((${consoleOfSql(`${alias}.application_id`)}), ${alias}.application_id)`;

/** The admin assignments a change takes away: one assignment, or all of a console user's, in the console and every
 *  application of its organization. */
type Leaving =
  | { readonly assignment: Pick<RoleAssignmentView, 'applicationId' | 'id'> }
  | { readonly consoleId: string; readonly operatorId: string };

function leavingSql(leaving: Leaving, alias: string): { sql: string; params: unknown[] } {
  if ('assignment' in leaving) return { sql: `(${alias}.application_id = ? and ${alias}.id = ?)`, params: [leaving.assignment.applicationId, leaving.assignment.id] };
  return {
    sql: `(${alias}.subject_id = ? and ${alias}.application_id in (
      select m.id from application as c join application as m on m.organization_id = c.organization_id where c.id = ? and c.console))`,
    params: [leaving.operatorId, leaving.consoleId],
  };
}

interface Orphaned {
  readonly id: string;
  readonly name: string;
}

/** The applications `leaving` would leave without an operator admin who can act. Their `app_admin` roles are locked
 *  (in one order) before counting, so of two changes that each leave one admin, the second counts what the first left. */
async function applicationsLeftWithoutAdmin(em: EntityManager, leaving: Leaving): Promise<Orphaned[]> {
  const run = <T>(sql: string, params: unknown[]) => em.getConnection().execute<T[]>(sql, params, 'all', em.getTransactionContext());
  const leavingA = leavingSql(leaving, 'a');
  const held = await run<{ application_id: string; id: string }>(
    `select r.application_id, r.id from role_assignment as a join role as r on r.application_id = a.application_id and r.id = a.role_id
      where ${adminSubjectSql('a')} and a.tenant_id is null and ${leavingA.sql} and r.built_in and r.key = 'app_admin'
      order by r.application_id, r.id
      for update of r`,
    leavingA.params,
  );
  if (held.length === 0) return [];
  // A statement after the locks: it reads what the transactions that held them committed.
  const leavingO = leavingSql(leaving, 'o');
  return run<Orphaned>(
    `select m.id, m.name from role as r join application as m on m.id = r.application_id
      where r.application_id in (?) and r.id in (?)
        and not exists (
          select 1 from role_assignment as o
            join app_user as u on u.application_id = ${holderApplicationSql('o')} and u.id = o.subject_id
           where o.application_id = r.application_id and o.role_id = r.id and o.tenant_id is null and ${adminSubjectSql('o')}
             and u.status <> 'suspended' and not ${leavingO.sql})
      order by m.name, m.id`,
    [held.map((row) => row.application_id), held.map((row) => row.id), ...leavingO.params],
  );
}

/** 422 (field `assignmentId`) when `assignment` is its application's last operator admin who can act. */
export async function assertNotLastOperatorAdmin(em: EntityManager, assignment: RoleAssignmentView): Promise<void> {
  if (!['operator', 'user'].includes(assignment.subject.type) || assignment.tenantId !== null) return;
  if ((await applicationsLeftWithoutAdmin(em, { assignment })).length === 0) return;
  throw invalid(
    'assignmentId',
    'This is the application’s last Application admin operator who can act: make another operator (not suspended) Application admin before removing it',
  );
}

/** 422 (field `userId`, a detail per application) when deleting or suspending console user `userId` would orphan an
 *  application; run with the user locked (lockUser), so no assignment of theirs comes meanwhile. */
export async function assertNotLastOperatorAdminOfAny(tx: Scope, userId: string, change: 'delete' | 'suspend'): Promise<void> {
  if (!(await tx.application()).console) return;
  const orphaned = await applicationsLeftWithoutAdmin(tx.em, { consoleId: tx.applicationId, operatorId: userId });
  if (orphaned.length === 0) return;
  const named = orphaned.map((application) => `${application.name} (${application.id})`).join(', ');
  const where = orphaned.length === 1 ? `application ${named}` : `${orphaned.length} applications: ${named}`;
  throw new GatehouseError(
    'validation_error',
    `The user is the last Application admin operator who can act in ${where}: make another operator Application admin there before you ${change} them`,
    { field: 'userId', details: orphaned.map((application) => ({ applicationId: application.id, name: application.name })) },
  );
}
