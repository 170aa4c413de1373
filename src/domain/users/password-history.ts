import type { EntityManager } from '@mikro-orm/postgresql';
import { verifyPassword } from '../../auth/password-hash.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { newId } from '../../ids.ts';
import { RESTORE_EARLIER_PASSWORDS, RESTORE_LINK_MINUTES } from './link-tokens.ts';
import type { PasswordPolicy } from '../policies/definitions.ts';
import { checkPassword, type PasswordViolation } from '../policies/password.ts';

/** `password_hash` is the current password, `password_history` the ones before, so "the last N" includes the current. */

/** `of`: an existing user, whose history applies too. Empty when acceptable. */
export async function passwordViolations(
  em: EntityManager,
  policy: PasswordPolicy,
  password: string,
  of?: { applicationId: string; userId: string },
): Promise<PasswordViolation[]> {
  const violations = checkPassword(policy, password);
  // Each of the history's hashes costs an Argon2 verification: none for a password refused already.
  if (violations.length === 0 && of !== undefined && (await repeatsHistory(em, of.applicationId, of.userId, password, policy.historyCount))) {
    const count = policy.historyCount;
    violations.push(
      count === 1
        ? { code: 'history', message: 'must differ from the current password', refusal: { key: 'password.historyOne' } }
        : { code: 'history', message: `must not be one of the last ${count} passwords`, refusal: { key: 'password.history', values: { count: String(count) } } },
    );
  }
  return violations;
}

/** Each hash costs an Argon2 verification, so they are read once and verified until one matches. */
async function repeatsHistory(em: EntityManager, applicationId: string, userId: string, password: string, count: number): Promise<boolean> {
  if (count === 0) return false;
  const rows = await executeOwned<{ password_hash: string }[]>(
    em,
    applicationId,
    `(select password_hash from app_user where @owner and id = ? and password_hash is not null)
     union all
     (select password_hash from password_history where @owner and user_id = ? order by id desc limit ?)`,
    [userId, userId, count - 1],
  );
  for (const { password_hash: hash } of rows) {
    if (await verifyPassword(hash, password)) return true;
  }
  return false;
}

/** Before the new hash is written: the history holds the newest `count - 1`, with the current one the last `count`; the
 *  replaced hash is also kept for a restore link (keepForRestore), whatever the policy. */
export async function keepReplacedPassword(em: EntityManager, applicationId: string, userId: string, count: number): Promise<void> {
  await keepForRestore(em, applicationId, userId);
  const kept = Math.max(count - 1, 0);
  if (kept > 0) {
    await executeOwned(
      em,
      applicationId,
      `insert into password_history (application_id, user_id, id, password_hash)
       select application_id, id, ?, password_hash from app_user where @owner and id = ? and password_hash is not null`,
      [newId(), userId],
    );
  }
  await executeOwned(
    em,
    applicationId,
    `delete from password_history where @owner and user_id = ?
        and id not in (select id from password_history where @owner and user_id = ? order by id desc limit ?)`,
    [userId, userId, kept],
  );
}

/** The replaced hash, for RESTORE_LINK_MINUTES: a restore link issued meanwhile (issueRestoreLink) also opens with it, so
 *  the owner's password an intruder replaced before moving the address still proves the owner. The oldest
 *  RESTORE_EARLIER_PASSWORDS alone: replacements after an intrusion are the intruder's, and each costs the page an Argon2 check. */
async function keepForRestore(em: EntityManager, applicationId: string, userId: string): Promise<void> {
  await executeOwned(
    em,
    applicationId,
    `insert into replaced_password (application_id, user_id, id, password_hash, expires_at)
     select u.application_id, u.id, ?, u.password_hash, now() + make_interval(mins => ?::int) from app_user as u
      where @owner(u) and u.id = ? and u.password_hash is not null
        and (select count(*) from replaced_password as r where r.application_id = u.application_id and r.user_id = u.id and r.expires_at > now()) < ?`,
    [newId(), RESTORE_LINK_MINUTES, userId, RESTORE_EARLIER_PASSWORDS],
  );
}

/** Never when the policy has no `maxAge`. */
export async function passwordExpired(em: EntityManager, applicationId: string, userId: string, policy: PasswordPolicy): Promise<boolean> {
  if (policy.maxAge === null) return false;
  const [row] = await executeOwned<{ expired: boolean }[]>(
    em,
    applicationId,
    `select password_changed_at < now() - make_interval(days => ?) as expired from app_user where @owner and id = ? and password_hash is not null`,
    [policy.maxAge, userId],
  );
  return row?.expired === true;
}
