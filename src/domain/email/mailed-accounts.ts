import type { Scope } from '../../context.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { GatehouseError } from '../../errors.ts';
import { jointPermissions, readHeldGrants } from '../authorization/held-roles.ts';
import { requireCoveredEveryOperator } from '../console/operators.ts';
import type { TemplateKey } from './template-defaults.ts';

/** Mails whose link or code lets its reader in: a reset, a sign-in, a verified address, an invitation's acceptance; and
 *  the notices whose `link` is a password reset link (a changed password, a new factor, a new browser, a lock). */
const WAYS_IN: ReadonlySet<TemplateKey> = new Set([
  'verify_email',
  'magic_link',
  'password_reset',
  'email_otp',
  'invitation',
  'email_change',
  'password_changed',
  'mfa_enrolled',
  'new_sign_in',
  'account_locked',
]);

export const carriesWayIn = (key: TemplateKey): boolean => WAYS_IN.has(key);

/** Whoever sets a scope's provider, a template carrying a way in, or where its links lead (a custom domain) can read
 *  what it sends, so must hold all its accounts hold, as one setting their password (docs/decisions.md, "Branding and
 *  e-mail"): the roles of its users (a tenant's members), place by place, and, for a console, its operators'. Else 403. */
export async function requireHoldsWhatMailReaches(scope: Scope): Promise<void> {
  const places = await executeOwned<{ tenant_id: string | null; permissions: string[] }[]>(
    scope.em,
    scope.applicationId,
    `select a.tenant_id, array_agg(distinct p.permission) as permissions from role_assignment as a
       join role as r on r.application_id = a.application_id and r.id = a.role_id
       cross join unnest(r.permissions) as p (permission)
      where @owner(a) and a.subject_type = 'user'${scope.tenantId === null ? '' : ` and exists (select 1 from app_user as u where @owner(u) and u.id = a.subject_id and ? = any(u.tenant_ids))`}
      group by a.tenant_id`,
    scope.tenantId === null ? [] : [scope.tenantId],
  );
  // Read in the caller's transaction: Principal.permissionsIn's connection would wait on it in the embedded database.
  const { subjects, applicationId } = scope.principal;
  const heldIn = async (tenantId: string | null) => jointPermissions(await readHeldGrants(scope.em, applicationId, tenantId, subjects), subjects);
  const everywhere = await heldIn(null);
  for (const { tenant_id: tenantId, permissions } of places) {
    if (everywhere.covers(permissions)) continue;
    const there = tenantId === null ? everywhere : tenantId === scope.tenantId ? scope.permissions : await heldIn(tenantId);
    if (!there.covers(permissions)) throw mailReachesMore();
  }
  // The organization's applications, each an owner of its own: no one @owner.
  const operators = await scope.em.execute<{ permission: string }[]>(
    `select distinct p.permission from role_assignment as a
       join role as r on r.application_id = a.application_id and r.id = a.role_id
       cross join unnest(r.permissions) as p (permission)
      where a.subject_type = 'operator'
        and a.application_id in (select m.id from application as c join application as m on m.organization_id = c.organization_id where c.id = ? and c.console)`,
    [scope.applicationId],
  );
  if (!scope.permissions.covers(operators.map((row) => row.permission))) throw mailReachesMore();
  // What the console holds says nothing of what its operators hold elsewhere: held there, as an operator.
  await requireCoveredEveryOperator(scope, scope.em);
}

const mailReachesMore = () =>
  new GatehouseError('forbidden', 'Whoever sets where this scope’s mail goes, what a mail that lets its reader in says, or where its links lead may read what it sends: only credentials holding all its users hold, where they hold it, may');
