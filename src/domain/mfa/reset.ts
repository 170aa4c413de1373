import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import type { User } from '../../db/entities/index.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { recordAudit, type AuditActor, type AuditEntry } from '../audit/audit.ts';
import { withCallerHoldings } from '../grants.ts';
import { requireCoveredAccount } from '../users/takeover.ts';
import { underTenancyConfig } from '../tenancy/config-lock.ts';
import { assertIdentityOfScope, auditFilingOf, lockUser } from '../users/users.ts';

/** Nothing to remove: returned unrecorded. A shared-pool user's factors serve all their tenants: a tenant scope resets only
 *  a user of no other tenant (403). */
export async function resetMfa(scope: Scope, userId: string): Promise<User> {
  // Without their second step, whoever knows the password signs in as the user: only a caller who holds all they do.
  return withCallerHoldings(scope, { type: 'user', id: userId }, (callers) => underTenancyConfig(scope, async (tx) => {
    const user = await lockUser(tx, userId);
    assertIdentityOfScope(tx, user);
    await requireCoveredAccount(tx, tx.em, user.id, callers);
    await removeSecondFactors(tx.em, tx, user.id, auditFilingOf(user, tx));
    return user;
  }));
}

/** In the caller's transaction: factors, passkeys, recovery codes and pending e-mailed codes, one `user.mfa.reset` record
 *  filed as `filing` says (`reason`: its `after.reason`), none when there were none. `addedSince`: only the factors and
 *  passkeys added, and the codes issued, since then (and the pending codes, which die within minutes anyway). */
export async function removeSecondFactors(
  em: EntityManager,
  actor: AuditActor,
  userId: string,
  filing: Pick<AuditEntry, 'tenantId' | 'memberTenantIds'>,
  reason?: string,
  addedSince?: Date,
): Promise<void> {
  const [added, issued, since] = addedSince === undefined ? ['', '', []] : [' and created_at >= ?', ' and issued_at >= ?', [addedSince]];
  const [removed] = await executeOwned<{ factors: string[]; codes: number; pending: number }[]>(
    em,
    actor.applicationId,
    `with factors as (delete from mfa_factor where @owner and user_id = ?${added} returning kind),
      codes as (delete from mfa_recovery_code where @owner and user_id = ?${issued} returning used_at),
      pending as (delete from mfa_email_code where @owner and user_id = ? returning 1),
      keys as (delete from webauthn_credential where @owner and user_id = ?${added} returning 1)
     select coalesce((select array_agg(kind order by kind) from (select kind from factors union select 'webauthn' from keys) as removed), '{}') as factors,
            (select count(*)::int from codes where used_at is null) as codes,
            (select count(*)::int from pending) as pending`,
    [userId, ...since, userId, ...since, userId, userId, ...since],
  );
  const factors = removed?.factors ?? [];
  if (factors.length === 0 && (removed?.codes ?? 0) === 0 && (removed?.pending ?? 0) === 0) return;
  const why = reason === undefined ? {} : { reason };
  recordAudit(em, actor, {
    action: 'user.mfa.reset',
    targetType: 'user',
    targetId: userId,
    ...filing,
    before: { factors, recoveryCodes: removed?.codes ?? 0 },
    // What was added before stays: the record says since when it went, not what is left.
    after: addedSince === undefined ? { factors: [], recoveryCodes: 0, ...why } : { addedSince: addedSince.toISOString(), ...why },
  });
}
