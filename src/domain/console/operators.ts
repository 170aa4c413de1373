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
  await requireCoveredAsOperators(scope, em, userId);
}

/** A way into any console user's account (a management API client of the console) hands out what every operator holds:
 *  the caller must hold, as an operator, all of it in each place. Nothing for an application that is no console. */
export async function requireCoveredEveryOperator(scope: Scope, em: EntityManager): Promise<void> {
  await requireCoveredAsOperators(scope, em);
}

async function requireCoveredAsOperators(scope: Scope, em: EntityManager, userId?: string): Promise<void> {
  const places = await em.getConnection().execute<{ application_id: string; tenant_id: string | null; subject_ids: string[] }[]>(
    `select a.application_id, a.tenant_id, array_agg(distinct a.subject_id::text) as subject_ids from role_assignment as a
      where a.subject_type = 'operator' ${userId === undefined ? '' : 'and a.subject_id = ?'}
        and a.application_id in (select m.id from application as c join application as m on m.organization_id = c.organization_id where c.id = ? and c.console)
      group by a.application_id, a.tenant_id`,
    userId === undefined ? [scope.applicationId] : [userId, scope.applicationId],
    'all',
    em.getTransactionContext(),
  );
  const { actor, apiKeyId } = scope.principal;
  const caller: RoleSubject | null = actor.type === 'user' && apiKeyId === null ? { type: 'operator', id: actor.id } : null;
  for (const { application_id: applicationId, tenant_id: tenantId, subject_ids: ids } of places) {
    const targets: RoleSubject[] = ids.map((id) => ({ type: 'operator', id }));
    const held = await readHeldGrants(em, applicationId, tenantId, caller === null ? targets : [...targets, caller], { anyStatus: true });
    const callerHolds = caller === null ? new PermissionSet([]) : grantsOf(held.get(subjectKey(caller)));
    requireCovered(scope, targets.flatMap((target) => grantsOf(held.get(subjectKey(target))).allowed()), callerHolds);
  }
}
