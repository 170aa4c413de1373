import type { EntityManager } from '@mikro-orm/postgresql';
import { Role } from '../../db/entities/index.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { invalid } from '../../errors.ts';
import type { RoleAssignmentView } from './role-assignments.ts';

/**
 * 422 (field `assignmentId`) when `assignment` is the application's last application-wide `app_admin` held by an
 * operator: without it no one manages the application from the dashboard. The role is held FOR UPDATE, so that two
 * removals of the last two such assignments come one after the other and the second sees the first.
 */
export async function assertNotLastOperatorAdmin(em: EntityManager, assignment: RoleAssignmentView): Promise<void> {
  if (assignment.subject.type !== 'operator' || assignment.tenantId !== null) return;
  const role = await em.findOne(Role, { id: assignment.roleId }, HOLD_FOR_UPDATE);
  if (role === null || !role.builtIn || role.key !== 'app_admin') return;
  const others = await executeOwned<unknown[]>(
    em,
    assignment.applicationId,
    `select 1 from role_assignment as a
      where @owner(a) and a.role_id = ? and a.tenant_id is null and a.subject_type = 'operator' and a.id <> ? limit 1`,
    [role.id, assignment.id],
  );
  if (others.length === 0) {
    throw invalid('assignmentId', 'This is the application’s last Application admin operator: make another operator Application admin before removing it');
  }
}
