import { usersChanged } from '../domain/users/changed.ts';
import { mayActNow, type SignInUser } from '../domain/users/sign-in-user.ts';
import type { LockoutPolicy } from '../domain/policies/definitions.ts';
import { isoTimestampSql, recordAuditPerRow, type AuditActor } from '../domain/audit.ts';
import type { SignInTarget } from './sign-in.ts';

/**
 * Account lockout (the lockout policy of the user's pool): consecutive failed password sign-ins are counted per user;
 * the count starts again after `resetAfterMinutes` without a failure; at `maxAttempts` the user becomes `locked` for
 * `lockoutMinutes` (null: until an administrator unlocks them). A lock that has run out is lifted by the next
 * sign-in attempt, audited (liftExpiredLock). Each change is one statement that computes from the row's current
 * values, so concurrent failures all count. The statements name the application explicitly (raw SQL does not go
 * through the filters).
 */

/** A `locked` user whose lock has run out: the next sign-in attempt lifts it (liftExpiredLock). */
const lockExpired = (user: SignInUser): boolean => user.status === 'locked' && mayActNow(user);

/** The failure count a failed attempt leaves, from the row's own columns (`?` = resetAfterMinutes). */
const NEXT_COUNT = `(case when last_failed_sign_in_at is null
  or last_failed_sign_in_at < now() - make_interval(mins => ?::int) then 1 else failed_sign_ins + 1 end)`;

/** The lockout policy itself lifts a lock that has run out: no request's caller decided it. */
const lockExpiry = (target: SignInTarget): AuditActor => ({
  applicationId: target.application.id,
  tenantId: target.policyTenantId,
  requestId: target.scope.requestId,
  principal: { actor: { type: 'system', id: 'lockout' } },
});

/**
 * Lifts the user's lock if it has run out (decided on the row as it is now, locked for the statement): active again,
 * the count at zero, with its audit record `user.unlock` (reason `lock_expired`) in the same statement. Of attempts
 * racing to lift one lock, one does. Returns whether this one did.
 */
async function liftExpiredLock(target: SignInTarget, user: SignInUser): Promise<boolean> {
  const lifted = await recordAuditPerRow(target.applicationScope.em, lockExpiry(target), { action: 'user.unlock', targetType: 'user', tenantId: target.policyTenantId }, {
    ctes: `expired as (
        select id, failed_sign_ins, locked_until from app_user
         where application_id = ? and id = ? and status = 'locked' and locked_until <= now() for update),
      lifted as (
        update app_user set status = 'active', failed_sign_ins = 0, last_failed_sign_in_at = null, locked_until = null
          from expired where app_user.application_id = ? and app_user.id = expired.id
        returning expired.id, expired.failed_sign_ins, expired.locked_until),
      changed as (
        select id::text as target_id,
               jsonb_build_object('status', 'locked', 'failedSignIns', failed_sign_ins, 'lockedUntil', ${isoTimestampSql('locked_until')}) as before,
               jsonb_build_object('status', 'active', 'failedSignIns', 0, 'lockedUntil', null, 'reason', 'lock_expired') as after
          from lifted)`,
    params: [target.application.id, user.id, target.application.id],
  });
  if (lifted.length === 0) return false;
  await usersChanged(target.scope.services, target.application.id);
  return true;
}

/**
 * Counts a failed attempt; locks the user when it reaches the policy's maximum, with the lock's audit record in the
 * same statement. Returns whether it locked. A lock that has run out is lifted first (liftExpiredLock), so the count
 * starts again from this attempt. Its duration is what a refusal that counts nothing waits (refuseUncounted): one
 * statement either way, so that locking costs about what counting does.
 */
export async function recordFailedSignIn(target: SignInTarget, user: SignInUser, policy: LockoutPolicy): Promise<boolean> {
  if (!policy.enabled) return false;
  return target.scope.services.refusalTiming.measure(async () => {
    if (lockExpired(user)) await liftExpiredLock(target, user);
    const lockedUntil = policy.lockoutMinutes === null ? null : new Date(Date.now() + policy.lockoutMinutes * 60_000);
    const locked = await recordAuditPerRow(target.applicationScope.em, target.scope, { action: 'user.lock', targetType: 'user', tenantId: target.policyTenantId }, {
      ctes: `counted as (
        update app_user set
          failed_sign_ins = ${NEXT_COUNT},
          last_failed_sign_in_at = now(),
          status = case when ${NEXT_COUNT} >= ? then 'locked' else 'active' end,
          locked_until = case when ${NEXT_COUNT} >= ? then ?::timestamptz else null end
        where application_id = ? and id = ? and status = 'active'
        returning id, status),
      changed as (
        select id::text as target_id, null::jsonb as before,
               jsonb_build_object('status', 'locked', 'lockedUntil', ?::text, 'reason', 'failed_sign_ins', 'maxAttempts', ?::int) as after
          from counted where status = 'locked')`,
      params: [
        policy.resetAfterMinutes,
        policy.resetAfterMinutes,
        policy.maxAttempts,
        policy.resetAfterMinutes,
        policy.maxAttempts,
        lockedUntil,
        target.application.id,
        user.id,
        lockedUntil?.toISOString() ?? null,
        policy.maxAttempts,
      ],
    });
    if (locked.length === 0) return false;
    await usersChanged(target.scope.services, target.application.id);
    // The user's management API tokens stop at once, on every instance (src/auth/bearer-subject.ts).
    await target.scope.services.invalidations.publish({ kind: 'user', id: user.id });
    return true;
  });
}

/**
 * A refusal that counts no failed attempt (an unknown e-mail, a user without a password, a locked or suspended
 * user), answered when a counted one would be: with the lockout policy on, after about as long as counting takes
 * here (src/hosted/refusal-timing.ts).
 */
export async function refuseUncounted(target: SignInTarget): Promise<{ ok: false }> {
  if (target.lockout.enabled) await target.scope.services.refusalTiming.pad();
  return { ok: false };
}

/**
 * A successful sign-in clears the count, and lifts a lock that has run out (liftExpiredLock). The row was read before
 * the password's verification, which takes long enough for attempts verified meanwhile to lock the user (a burst of
 * guesses), or for an administrator to suspend the user or change their tenants: the decision is taken on the row as it
 * is now, in one statement that writes only when there is something to clear. Returns the user's tenants as the row
 * holds them now (the sign-in completes only to one of them: src/oidc/interactions.ts), or null when the user may not
 * sign in now (locked, or suspended): the sign-in must then fail like any other.
 */
export async function recordSuccessfulSignIn(target: SignInTarget, user: SignInUser): Promise<readonly string[] | null> {
  const connection = target.applicationScope.em.getConnection();
  if (lockExpired(user) && (await liftExpiredLock(target, user))) {
    // Rare (a lock that has run out): the lift's statement records its audit, and the tenants are read after it.
    const [lifted] = await connection.execute<{ tenant_ids: string[] }[]>(`select tenant_ids from app_user where application_id = ? and id = ?`, [
      target.application.id,
      user.id,
    ]);
    return lifted?.tenant_ids ?? null;
  }
  // The select reads the row as it was before the update (one snapshot): it answers for a row with nothing to clear.
  const rows = await connection.execute<{ tenant_ids: string[] }[]>(
    `with cleared as (
       update app_user set failed_sign_ins = 0, last_failed_sign_in_at = null
        where application_id = ? and id = ? and status = 'active' and failed_sign_ins > 0
       returning tenant_ids)
     select tenant_ids from cleared
     union all
     select tenant_ids from app_user where application_id = ? and id = ? and status = 'active' and failed_sign_ins = 0`,
    [target.application.id, user.id, target.application.id, user.id],
  );
  return rows[0]?.tenant_ids ?? null;
}
