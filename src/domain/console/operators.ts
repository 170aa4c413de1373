import type { EntityManager } from '@mikro-orm/postgresql';
import { PermissionSet } from '../../auth/permissions.ts';
import type { Scope } from '../../context.ts';
import type { AuditActor } from '../audit/audit.ts';
import { grantsOf, readHeldGrants, subjectKey, type RoleSubject } from '../authorization/held-roles.ts';
import { removeAssignments } from '../authorization/role-assignments.ts';
import { requireCovered } from '../grants.ts';

/** Each removal in that application's log. */
export async function removeOperatorAssignments(em: EntityManager, actor: AuditActor, operatorId: string): Promise<void> {
  const rows = await em.getConnection().execute<{ application_id: string }[]>(
    `select distinct a.application_id from role_assignment as a
      where a.subject_type = 'operator' and a.subject_id = ?
        and a.application_id in (select m.id from application as c join application as m on m.organization_id = c.organization_id where c.id = ? and c.console)`,
    [operatorId, actor.applicationId],
    'all',
    em.getTransactionContext(),
  );
  for (const { application_id: applicationId } of rows) {
    await removeAssignments(em, { ...actor, applicationId, tenantId: null }, `a.subject_type = 'operator' and a.subject_id = ?`, [operatorId]);
  }
}

/** Where a console's user holds a role as an operator: none for a user of any other application. */
export function operatorPlaces(em: EntityManager, consoleId: string, userId: string): Promise<{ application_id: string; tenant_id: string | null }[]> {
  return em.getConnection().execute(
    `select distinct a.application_id, a.tenant_id from role_assignment as a
      where a.subject_type = 'operator' and a.subject_id = ?
        and a.application_id in (select m.id from application as c join application as m on m.organization_id = c.organization_id where c.id = ? and c.console)`,
    [userId, consoleId],
    'all',
    em.getTransactionContext(),
  );
}

/** Taking over a console user hands out what they hold as an operator. In the locking transaction: none slips in. */
export async function requireCoveredOperator(scope: Scope, em: EntityManager, userId: string): Promise<void> {
  const places = await operatorPlaces(em, scope.applicationId, userId);
  const { actor, apiKeyId } = scope.principal;
  const caller: RoleSubject | null = actor.type === 'user' && apiKeyId === null ? { type: 'operator', id: actor.id } : null;
  for (const { application_id: applicationId, tenant_id: tenantId } of places) {
    const target: RoleSubject = { type: 'operator', id: userId };
    const held = await readHeldGrants(em, applicationId, tenantId, caller === null ? [target] : [target, caller], { anyStatus: true });
    const callerHolds = caller === null ? new PermissionSet([]) : grantsOf(held.get(subjectKey(caller)));
    requireCovered(scope, grantsOf(held.get(subjectKey(target))).allowed(), callerHolds);
  }
}
