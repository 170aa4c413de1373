import type { EntityManager } from '@mikro-orm/postgresql';
import { accountLockedMail } from '../email/flow-mail.ts';
import { linkUserOf, mailAt } from './account-links.ts';
import { heldFactorsSql, type HeldFactor } from '../mfa/factors.ts';
import { forgetUserKeys, usersChanged } from '../users/changed.ts';
import { issueLink } from '../users/link-tokens.ts';
import { addressLockedSql } from '../users/sign-in-failures.ts';
import { mayActNow, signInUserColumnsSql, signInUserOf, type SignInUser, type SignInUserRow } from '../users/sign-in-user.ts';
import type { LockoutPolicy } from '../policies/definitions.ts';
import { isoTimestampSql, recordAuditPerRow, type AuditActor } from '../audit/audit.ts';
import { noteRequest } from '../../observability/log.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import type { PageTarget } from './sign-in.ts';
import type { SignInFailureReason } from '../audit/auth-events.ts';

/** Counted per account and client address, so a guesser locks itself out, not the owner (ASVS 6.1.1; Auth0 and Okta too):
 *  at `maxAttempts` an address is locked out, the account once `accountLockAddresses` addresses are. Each count is one
 *  statement on the rows' current values, so concurrent failures all count; the user's row is taken before the
 *  address's (as unlockUser does) against deadlocks. Raw SQL names the application itself (`@owner`, db/owned-sql.ts). */

/** Two typos cost nothing. */
const WAIT_FROM_FAILURE = 3;
/** The wait doubles with each failure (1 s, 2 s, 4 s, …) up to this, within any lock's minute. */
const MAX_WAIT_SECONDS = 60;

const addressWaitingSql = (alias: string) =>
  `(${alias}.failures >= ${WAIT_FROM_FAILURE}
    and ${alias}.last_failed_at + make_interval(secs => least(power(2, ${alias}.failures - ${WAIT_FROM_FAILURE}), ${MAX_WAIT_SECONDS})) > now())`;

const lockExpired = (user: SignInUser): boolean => user.status === 'locked' && mayActNow(user);

/** `?` = resetAfterMinutes. Shown to administrators (an unlock's audit record); it locks nothing. */
const NEXT_COUNT = `(case when last_failed_sign_in_at is null
  or last_failed_sign_in_at < now() - make_interval(mins => ?::int) then 1 else failed_sign_ins + 1 end)`;

/** `?` = resetAfterMinutes. The upsert skips locked rows: a lock this row holds has run out, so a new run starts. */
const NEXT_ADDRESS_COUNT = `(case when f.locked_at is not null
  or f.last_failed_at < now() - make_interval(mins => ?::int) then 1 else f.failures + 1 end)`;

/** No request's caller decided it. */
const lockExpiry = (target: PageTarget): AuditActor => ({
  applicationId: target.application.id,
  tenantId: target.policyTenantId,
  requestId: target.scope.requestId,
  principal: { actor: { type: 'system', id: 'lockout' } },
});

/** Decided on the row as it is now, locked for the statement, with its audit record in it. Of attempts racing to lift one
 *  lock, one does: returns whether this one did. */
async function liftExpiredLock(target: PageTarget, user: SignInUser): Promise<boolean> {
  return target.applicationScope.transactional(async (em) => {
    const lifted = await recordAuditPerRow(em, lockExpiry(target), { action: 'user.unlocked', targetType: 'user', tenantId: target.policyTenantId }, {
      ctes: `expired as (
          select id, failed_sign_ins, locked_until from app_user
           where @owner and id = ? and status = 'locked' and locked_until <= now() for update),
        lifted as (
          update app_user set status = 'active', failed_sign_ins = 0, last_failed_sign_in_at = null, locked_until = null
            from expired where @owner(app_user) and app_user.id = expired.id
          returning expired.id, expired.failed_sign_ins, expired.locked_until),
        changed as (
          select id::text as target_id,
                 jsonb_build_object('status', 'locked', 'failedSignIns', failed_sign_ins, 'lockedUntil', ${isoTimestampSql('locked_until')}) as before,
                 jsonb_build_object('status', 'active', 'failedSignIns', 0, 'lockedUntil', null, 'reason', 'lock_expired') as after
            from lifted)`,
      params: [user.id],
    });
    if (lifted.length === 0) return false;
    usersChanged(em, target.application.id);
    return true;
  });
}

/** Null: until an administrator unlocks the user. */
const lockEnd = (policy: LockoutPolicy): Date | null => (policy.lockoutMinutes === null ? null : new Date(Date.now() + policy.lockoutMinutes * 60_000));

/** `waiting` and `locked` are refused unheard (refuseUncounted). */
export type AddressStanding = 'open' | 'waiting' | 'locked';

export interface SignInCandidate {
  readonly user: SignInUser;
  readonly standing: AddressStanding;
  /** Every factor the user holds, keys of any host included (those of another relying party marked: heldFactorsSql). */
  readonly factors: readonly HeldFactor[];
}

/** One statement, read before the password's verification, which the standing does not skip. */
export async function readSignInCandidate(target: PageTarget, emailNormalized: string, address: string, rpId: string): Promise<SignInCandidate | null> {
  type Row = SignInUserRow & { locked: boolean | null; waiting: boolean | null; factors: HeldFactor[] };
  const [row] = await executeOwned<Row[]>(
    target.applicationScope.em.getConnection(),
    target.application.id,
    `select ${signInUserColumnsSql('u')}, ${addressLockedSql('f')} as locked, ${addressWaitingSql('f')} as waiting,
            ${heldFactorsSql('u.application_id', 'u.id', '?')} as factors
       from app_user as u
       left join sign_in_failure as f on f.application_id = u.application_id and f.user_id = u.id and f.address = ?
      where @owner(u) and u.email_normalized = ? and u.pool_id = ? limit 1`,
    [rpId, address, emailNormalized, target.poolId],
  );
  if (row === undefined) return null;
  const standing = !target.lockout.enabled ? 'open' : row.locked === true ? 'locked' : row.waiting === true ? 'waiting' : 'open';
  return { user: signInUserOf(row), standing, factors: row.factors };
}

/** For methods that prove a row, not an e-mail; readSignInCandidate reads the same with the user. */
export async function addressStanding(target: PageTarget, user: SignInUser, address: string): Promise<AddressStanding> {
  if (!target.lockout.enabled) return 'open';
  const [row] = await executeOwned<{ locked: boolean; waiting: boolean }[]>(
    target.applicationScope.em.getConnection(),
    target.application.id,
    `select ${addressLockedSql('f')} as locked, ${addressWaitingSql('f')} as waiting
       from sign_in_failure as f where @owner(f) and f.user_id = ? and f.address = ?`,
    [user.id, address],
  );
  if (row === undefined) return 'open';
  return row.locked ? 'locked' : row.waiting ? 'waiting' : 'open';
}

/** An address locked meanwhile counts nothing more. One statement as a rule, so locking costs about what counting does:
 *  its duration is what refuseUncounted waits. */
export async function recordFailedSignIn(target: PageTarget, user: SignInUser, policy: LockoutPolicy, address: string): Promise<void> {
  if (!policy.enabled) return;
  await target.scope.services.refusalTiming.measure(async () => {
    if (lockExpired(user)) await liftExpiredLock(target, user);
    const lockedUntil = lockEnd(policy);
    // The address's upsert reads the account's update: the user's row is taken first (see the header).
    const locked = await recordAuditPerRow(target.applicationScope.em, target.scope, { action: 'user.address.locked', targetType: 'user', tenantId: target.policyTenantId }, {
      ctes: `counted as (
        update app_user set failed_sign_ins = ${NEXT_COUNT}, last_failed_sign_in_at = now()
         where @owner and id = ? and status = 'active'
        returning application_id, id),
      failed as (
        insert into sign_in_failure as f (application_id, user_id, address, failures, last_failed_at)
        select application_id, id, ?, 1, now() from counted
        on conflict (application_id, user_id, address) do update set
          failures = ${NEXT_ADDRESS_COUNT},
          last_failed_at = now(),
          locked_at = case when ${NEXT_ADDRESS_COUNT} >= ? then now() end,
          locked_until = case when ${NEXT_ADDRESS_COUNT} >= ? then ?::timestamptz end
        where not ${addressLockedSql('f')}
        returning f.user_id, f.address, f.locked_at),
      changed as (
        select user_id::text as target_id, null::jsonb as before,
               jsonb_build_object('address', address, 'lockedUntil', ?::text, 'reason', 'failed_sign_ins', 'maxAttempts', ?::int) as after
          from failed where locked_at is not null)`,
      params: [
        policy.resetAfterMinutes,
        user.id,
        address,
        policy.resetAfterMinutes,
        policy.resetAfterMinutes,
        policy.maxAttempts,
        policy.resetAfterMinutes,
        policy.maxAttempts,
        lockedUntil,
        lockedUntil?.toISOString() ?? null,
        policy.maxAttempts,
      ],
    });
    if (locked.length > 0) noteRequest({ refusal: 'address_locked_out' });
    if (locked.length > 0 && policy.accountLockAddresses !== null) await lockAccountIfMany(target, user, policy);
  });
}

/** After the statement that locked the last address committed, so of two addresses locked at once the later check sees
 *  both; of checks racing to lock, one does (the account must still be active). */
async function lockAccountIfMany(target: PageTarget, user: SignInUser, policy: LockoutPolicy): Promise<void> {
  const lockedUntil = lockEnd(policy);
  // The owner is told in the lock's transaction (`account_locked`), with a reset link: a reset unlocks the account.
  const locked = await target.applicationScope.transactional(async (em) => {
    const rows = await lockAccount(em, target, user, policy, lockedUntil);
    if (rows.length > 0) {
      const at = mailAt(target, em, user);
      const reset = await issueLink(em, await linkUserOf(target, at, user), 'password_reset', target.scope.services.config.publicUrl);
      await accountLockedMail(at, user, { link: reset.link });
      usersChanged(em, target.application.id);
      // The user's management API tokens stop at once, on every instance (src/auth/bearer-subject.ts).
      forgetUserKeys(em, [user.id]);
    }
    return rows;
  });
  if (locked.length === 0) return;
  noteRequest({ refusal: 'account_locked' });
  target.scope.services.outbox.wake();
}

function lockAccount(em: EntityManager, target: PageTarget, user: SignInUser, policy: LockoutPolicy, lockedUntil: Date | null) {
  return recordAuditPerRow(em, target.scope, { action: 'user.locked', targetType: 'user', tenantId: target.policyTenantId }, {
    ctes: `addresses as (
        select count(*)::int as n from sign_in_failure as f where @owner(f) and f.user_id = ? and ${addressLockedSql('f')}),
      locking as (
        update app_user set status = 'locked', locked_until = ?::timestamptz
          from addresses
         where @owner and id = ? and status = 'active' and addresses.n >= ?
        returning id, addresses.n),
      changed as (
        select id::text as target_id, null::jsonb as before,
               jsonb_build_object('status', 'locked', 'lockedUntil', ?::text, 'reason', 'locked_addresses', 'lockedAddresses', n) as after
          from locking)`,
    params: [user.id, lockedUntil, user.id, policy.accountLockAddresses, lockedUntil?.toISOString() ?? null],
  });
}

/** Answered when a counted one would be: after about as long as counting takes (refusal-timing.ts). */
export async function refuseUncounted(target: PageTarget): Promise<{ ok: false }> {
  if (target.lockout.enabled) await target.scope.services.refusalTiming.pad();
  return { ok: false };
}

export const standingReason = (standing: Exclude<AddressStanding, 'open'>): SignInFailureReason => (standing === 'locked' ? 'address_locked' : 'address_waiting');

/** The address's standing as a refusal, answered uncounted; undefined: the attempt is heard. */
export async function addressRefusal(target: PageTarget, user: SignInUser, address: string): Promise<SignInFailureReason | undefined> {
  const standing = await addressStanding(target, user, address);
  if (standing === 'open') return undefined;
  await refuseUncounted(target);
  return standingReason(standing);
}

/** Every method's check of a known account before it proves or changes anything: a user who may not act now, or an
 *  address locked out of the account or made to wait, is refused uncounted. Undefined: it may try. */
export async function standingRefusal(target: PageTarget, user: SignInUser, address: string): Promise<{ ok: false; reason: SignInFailureReason; user: SignInUser } | undefined> {
  if (!mayActNow(user)) return (await refuseUncounted(target), { ok: false, reason: 'user_inactive', user });
  const reason = await addressRefusal(target, user, address);
  return reason === undefined ? undefined : { ok: false, reason, user };
}

/** Forgets only this address's failures: the owner's success does not forgive a guesser. Decided on the rows as they are
 *  now (attempts during the hashing may have locked something, an administrator changed the user). Returns the user's
 *  tenants, or null when the user may not sign in now: the sign-in then fails like any other. */
export async function recordSuccessfulSignIn(target: PageTarget, user: SignInUser, address: string): Promise<readonly string[] | null> {
  const connection = target.applicationScope.em.getConnection();
  if (lockExpired(user) && (await liftExpiredLock(target, user))) {
    // Rare (a lock that has run out): the lift's statement records its audit, and the tenants are read after it.
    const [lifted] = await executeOwned<{ tenant_ids: string[] }[]>(connection, target.application.id, `select tenant_ids from app_user where @owner and id = ?`, [user.id]);
    return lifted?.tenant_ids ?? null;
  }
  // Of two successes at once, the second's update finds the count the first cleared (`again`): asked again, it reads that.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const [row] = await clearFailures(connection, target.application.id, user.id, address);
    if (row?.again !== true) return row?.tenant_ids ?? null;
  }
  return null;
}

/** `again`: the update, waiting on a concurrent change, found nothing to clear that the statement's snapshot held. */
function clearFailures(connection: ReturnType<EntityManager['getConnection']>, applicationId: string, userId: string, address: string) {
  return connection.execute<{ tenant_ids: string[]; again: boolean }[]>(
    `with key as (select ?::uuid as application_id, ?::uuid as user_id, ?::text as address),
     standing as (
       select coalesce(bool_or(${addressLockedSql('f')}), false) as locked, count(*) > 0 as failed
         from sign_in_failure as f join key using (application_id, user_id, address)),
     cleared as (
       update app_user as u set failed_sign_ins = 0, last_failed_sign_in_at = null
         from key, standing
        where u.application_id = key.application_id and u.id = key.user_id and u.status = 'active'
          and not standing.locked and (u.failed_sign_ins > 0 or standing.failed)
       returning u.tenant_ids),
     forgotten as (
       delete from sign_in_failure as f using key, cleared
        where f.application_id = key.application_id and f.user_id = key.user_id and f.address = key.address)
     select tenant_ids, false as again from cleared
     union all
     select u.tenant_ids, u.failed_sign_ins > 0 or standing.failed as again from app_user as u, key, standing
      where u.application_id = key.application_id and u.id = key.user_id and u.status = 'active'
        and not standing.locked and not exists (select 1 from cleared)`,
    [applicationId, userId, address],
  );
}
