import type { Scope } from '../../context.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { GatehouseError } from '../../errors.ts';
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
 *  e-mail"): the roles of its users (a tenant's members) and, for a console, its operators'. Else 403. */
export async function requireHoldsWhatMailReaches(scope: Scope): Promise<void> {
  const rows = await executeOwned<{ permission: string }[]>(
    scope.em,
    scope.applicationId,
    `select distinct p.permission from role_assignment as a
       join role as r on r.application_id = a.application_id and r.id = a.role_id
       cross join unnest(r.permissions) as p (permission)
      where @owner(a) and a.subject_type = 'user'${scope.tenantId === null ? '' : ` and (a.tenant_id is null or a.tenant_id = ?)
        and exists (select 1 from app_user as u where @owner(u) and u.id = a.subject_id and ? = any(u.tenant_ids))`}
     union
     select distinct p.permission from role_assignment as a
       join role as r on r.application_id = a.application_id and r.id = a.role_id
       cross join unnest(r.permissions) as p (permission)
      where a.subject_type = 'operator'
        and a.application_id in (select m.id from application as c join application as m on m.organization_id = c.organization_id where c.id = ? and c.console)`,
    [...(scope.tenantId === null ? [] : [scope.tenantId, scope.tenantId]), scope.applicationId],
  );
  if (!scope.permissions.covers(rows.map((row) => row.permission))) {
    throw new GatehouseError('forbidden', 'Whoever sets where this scope’s mail goes, what a mail that lets its reader in says, or where its links lead may read what it sends: only credentials holding all its users hold may');
  }
  // What the console holds says nothing of what its operators hold elsewhere: held there, as an operator.
  await requireCoveredEveryOperator(scope, scope.em);
}
